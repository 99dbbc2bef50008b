#!/bin/bash
# #12 item 13: a kernel that runs for a minute in one call (matmul n=2048: one iteration is 2 x 2048^3 FLOPs) stops
# within a second of SIGINT, in the warm-up or in the measured region, and the report of the counts so far follows
# (PARTIAL, exit 130). Real signals, the real kernel.
. "$PMC_SOURCE_DIR/tests/lib.sh"

"$PMCTOOL" stat -e task-clock -k empty --iters 10 --warmup 0 >/dev/null 2>&1 || skip "kernels do not run here"

# interrupt_after DELAY ARGS...: run pmctool stat in the background, SIGINT after DELAY s; RC and the seconds it took
# to exit after the signal in LATE.
interrupt_after() {
	local delay=$1 t0 t1; shift
	"$PMCTOOL" stat "$@" >"$TMP/out" 2>"$TMP/err" &
	local pid=$!
	sleep "$delay"
	kill -INT $pid
	t0=$(date +%s%N)
	set +e; wait $pid; RC=$?; set -e
	t1=$(date +%s%N)
	LATE=$(( (t1 - t0) / 1000000 ))
}

# In the measured region (no warm-up): the task-clock so far is reported.
interrupt_after 1.5 -e task-clock -k matmul --param n=2048 --iters 1 --warmup 0
expect_rc 130 "SIGINT during the matmul n=2048 region"
[ "$LATE" -le 1500 ] || fail "pmctool took $LATE ms to stop after SIGINT"
expect_err "PARTIAL" "the report is marked partial"
expect_err "[0-9.]+ msec +task-clock" "the counts so far are printed"
expect_err "stopped by a signal" "the report says the kernel was stopped and no expectation applies"
ok "SIGINT in the region: stopped after $LATE ms, counts so far, exit 130"

# In the default warm-up (0.2 s, which would run one whole 2048^3 product): nothing measured yet, said so.
interrupt_after 1.5 -e task-clock -k matmul --param n=2048 --iters 1
expect_rc 130 "SIGINT during the warm-up"
[ "$LATE" -le 1500 ] || fail "pmctool took $LATE ms to stop after SIGINT in the warm-up"
expect_err "PARTIAL" "the report is marked partial"
ok "SIGINT in the warm-up: stopped after $LATE ms, exit 130"
