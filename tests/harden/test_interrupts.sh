#!/usr/bin/env bash
# Interruptions beyond test_stat_signals.sh: SIGINT between batches of a rerun (the batches left are "not run" and
# the report is partial), during -r repeats, during a built-in kernel (-k: the report follows when the kernel returns;
# a second SIGINT quits at once); and a closed stdout (piped into head) for every command that writes to stdout.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

# start_and_signal SIG DELAY ARGS...: run pmctool in the background, signal it after DELAY seconds, wait; RC.
start_and_signal() {
	local sig=$1 delay=$2; shift 2
	"$PMCTOOL" "$@" >"$TMP/out" 2>"$TMP/err" &
	local pid=$!
	sleep "$delay"
	kill -s "$sig" $pid
	set +e; wait $pid; RC=$?; set -e
}

# 1. Rerun batches: hsw's encodings, one counter, three batches; the first batch runs a 2-second sleep. Without a
# PMU the injected one (tests/perf/fake_pmu.c) opens them: batches nothing can be counted in would be skipped.
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
has_hw_pmu || export LD_PRELOAD="$FAKE" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
LIBPFM_FORCE_PMU=hsw start_and_signal INT 0.6 stat --counters 1 --batch=rerun \
	-e task-clock,branches,branch-misses,cache-misses -- sleep 2
expect_rc 130 "SIGINT during batch 1 of 3"
expect_err "PARTIAL" "the report is marked partial"
expect_err "[0-9.]+ msec +task-clock" "the first batch's counts are printed"
[ "$(grep -c '<not run>' "$TMP/err")" -ge 2 ] || { cat "$TMP/err"; fail "the batches left are not marked not run"; }
expect_err "not run: the measurement stopped before this event's batch" "not run says why"
ok "SIGINT between batches: the batches left are not run, the report is partial, exit 130"

LIBPFM_FORCE_PMU=hsw start_and_signal TERM 0.6 stat --csv -o "$TMP/p.csv" --counters 1 --batch=rerun \
	-e task-clock,branches,branch-misses -- sleep 2
expect_rc 143 "SIGTERM during a rerun, CSV to a file"
grep -q ',not run,' "$TMP/p.csv" || { cat "$TMP/p.csv"; fail "CSV lacks the not-run rows"; }
grep -qi 'partial' "$TMP/p.csv" || { cat "$TMP/p.csv"; fail "CSV does not say partial"; }
ok "SIGTERM during a rerun: the CSV file is written whole, with not-run rows, exit 143"
unset LD_PRELOAD

# 2. Repeats: -r 20 of a 0.3 s sleep, interrupted in the second run.
start_and_signal INT 0.45 stat --json -o - -r 20 -e task-clock -- sleep 0.3
expect_rc 130 "SIGINT during -r 20"
python3 - "$TMP/out" <<'PY' || fail "JSON of an interrupted -r run"
import json, sys
d = json.load(open(sys.argv[1]))
assert d.get("partial") is True, d.get("partial")
ev = [e for e in d["events"] if e["name"] == "task-clock"][0]
runs = len(ev.get("samples", ev.get("runs", [])))
assert 1 <= runs < 20, runs
PY
ok "SIGINT during -r: the JSON says partial and holds the runs so far, exit 130"

# 3. A built-in kernel runs inside pmctool: the first SIGINT stops it where it is, then the report of the counts so far,
# exit 130.
if "$PMCTOOL" stat -e task-clock -k empty --iters 1000 --warmup 0 >/dev/null 2>&1; then
	start_and_signal INT 0.5 stat -e task-clock -k empty --iters 5000000000 --warmup 0
	expect_rc 130 "SIGINT during stat -k"
	expect_err "interrupted: the kernel stops; the counts so far follow" "the interruption is acknowledged at once"
	expect_err "PARTIAL" "the kernel's report is marked partial"
	expect_err "[0-9.]+ msec +task-clock" "the kernel's counts are printed"
	ok "SIGINT during stat -k: report of the counts so far, exit 130"

	"$PMCTOOL" stat -e task-clock -k empty --iters 200000000000 --warmup 0 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 0.5; kill -INT $pid; sleep 0.2; kill -INT $pid 2>/dev/null || true # may have exited at the first
	t0=$(date +%s)
	set +e; wait $pid; RC=$?; set -e
	[ $(( $(date +%s) - t0 )) -le 5 ] || fail "a second SIGINT did not stop the kernel at once"
	expect_rc 130 "a second SIGINT during stat -k"
	ok "a second SIGINT during stat -k quits at once"
else
	echo "note: the empty kernel does not run here; -k interruption not tested"
fi

# 4. stdout closed before pmctool writes (as when piped into head after head exited): quiet, no error message;
# one rule for every command (main.c): what went to stdout did not arrive, so exit 4, without a message.
closed_stdout() { python3 - "$@" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)
sys.stderr.buffer.write(p.stderr)
print(p.returncode)
PY
}
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086
	got=$(closed_stdout "$PMCTOOL" $args 2>"$TMP/err")
	[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "closed stdout: pmctool $args is not quiet"; }
	[[ " $want " == *" $got "* ]] || fail "closed stdout: pmctool $args exited $got, expected one of: $want"
done <<EOF2
4|list
4|list --json
4|info
4|info --json
4|encode cycles instructions
4|encode --json cycles
4|decode r5301b1 --pmu ivb
4|kernels
4|sets
4|stat --help
4|--help
4|--version
4|stat --dry-run -e task-clock
4|stat --json -o - -e task-clock -- true
4|stat --csv -o - -r 3 -e task-clock -- true
EOF2
ok "a closed stdout is quiet for list, info, encode, kernels, sets and stat"

# And through a real pipe into head, with output larger than the pipe buffer.
set +e
"$PMCTOOL" stat --csv -o - -r 2000 -e task-clock,page-faults -- true 2>"$TMP/err" | head -c 100 >/dev/null
set -e
! grep -qi "broken pipe\|cannot write" "$TMP/err" || fail "stat | head is noisy"
ok "stat | head is quiet"
