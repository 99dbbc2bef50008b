#!/usr/bin/env bash
# pmctool's own cost, as behaviour (bench/ measures the time): the samples' bound, batches nothing can be counted in,
# the events kept open for the whole measurement.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# 100 events x -r 30000 is 3,000,000 counts: more than the 2,000,000 kept; refused before anything runs.
EV=$(python3 -c "print(','.join(['task-clock','page-faults','context-switches','cpu-migrations']*25))")
run_pmc stat -r 30000 -e "$EV" -- sh -c "echo run >>$TMP/runs"
expect_rc 2 "-r x events over the bound"
expect_err "at most 2000000 are kept" "the bound is named"
expect_err "lower -r to 20000" "and what to do"
[ ! -e "$TMP/runs" ] || fail "the workload ran although the measurement was refused"
ok "-r x events over the documented bound is refused before running"

# Static-key software events: one disabled copy of each distinct one is opened once for the whole measurement
# (-v notes it), not per run; the clocks (hrtimers) get none. Real opens, counted in -v's records.
run_pmc stat -v -r 3 -e page-faults,page-faults:u,context-switches,task-clock -- true
expect_rc 0 "-r 3 with static-key software events"
kept=$(grep -c 'kept open, disabled' "$TMP/err")
[ "$kept" -eq 2 ] || { cat "$TMP/err" >&2; fail "kept copies: $kept, expected 2 (page-faults once, context-switches)"; }
grep 'kept open' "$TMP/err" | grep -q 'config=0x1 ' && fail "task-clock (an hrtimer) was kept open"
runs=$(grep -c 'enable_on_exec=1.*pid=[1-9]' "$TMP/err")
[ "$runs" -eq 12 ] || fail "per-run opens: $runs, expected 4 events x 3 runs"
ok "static-key software events kept open once, not per run"

# Tracepoints: the same, where tracefs can be read (PMCTOOL_TRACEFS or /sys/kernel/tracing).
TRACEFS=${PMCTOOL_TRACEFS:-/sys/kernel/tracing}
if [ -r "$TRACEFS/events/sched/sched_switch/id" ]; then
	run_pmc stat -v -r 2 -e sched:sched_switch,sched:sched_process_exec,sched:sched_switch -- true
	expect_rc 0 "-r 2 with tracepoints"
	kept=$(grep 'kept open' "$TMP/err" | grep -c 'type=2 ')
	[ "$kept" -eq 2 ] || { cat "$TMP/err" >&2; fail "kept tracepoint copies: $kept, expected 2"; }
	ok "tracepoints kept open once, not per run"
else
	echo "skip: no readable tracefs at $TRACEFS (the tracepoint half of the keep-open check)"
fi
