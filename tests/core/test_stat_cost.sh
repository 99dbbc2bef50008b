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

# The scopes keep them open too: -a -r 3 opens each static-key event per CPU per run, and one disabled copy of each
# for the whole measurement (where -a is allowed: paranoid <= 0 or CAP_PERFMON).
run_pmc stat -v -a -r 3 -e page-faults,context-switches,cpu-clock -- true
if [ "$RC" -eq 0 ]; then
	kept=$(grep -c 'kept open, disabled' "$TMP/err")
	[ "$kept" -eq 2 ] || { cat "$TMP/err" >&2; fail "-a: kept copies $kept, expected 2 (page-faults, context-switches)"; }
	percpu=$(grep -c 'pid=-1, cpu=[0-9]' "$TMP/err")
	[ "$percpu" -eq $((3 * 3 * $(nproc))) ] || fail "-a: per-CPU opens $percpu, expected 3 events x 3 runs x $(nproc) CPUs"
	ok "-a keeps static-key events open once, not per run and CPU"
else
	expect_rc 3 "-a where this user may not count system-wide"
	echo "skip: -a is not allowed to this user here (the scopes half of the keep-open check)"
fi

# Batches whose own events all fail to open are skipped: the command is not run for them (a marker file counts
# the runs) and the report says so. Real opens: hardware events fail with ENOENT where the kernel has no PMU.
if has_hw_pmu; then
	echo "skip: this machine has a PMU, so hardware events open (the skipped-batch check needs them refused)"
else
	EV=$(python3 -c "print(','.join(['task-clock'] + ['r%02x' % (0x10 + i) for i in range(30)]))")
	run_pmc stat -r 2 --counters 1 --json -o "$TMP/s.json" -e "$EV" -- sh -c "echo run >>$TMP/skipruns"
	expect_rc 0 "30 unsupported events, one counter"
	n=$(wc -l <"$TMP/skipruns")
	[ "$n" -eq 2 ] || fail "the command ran $n times, expected 2 (one batch per run; 29 batches skipped)"
	python3 - "$TMP/s.json" <<'PY' || fail "JSON of the skipped batches"
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["name"]: e for e in d["events"]}
assert ev["task-clock"]["status"] == "ok", ev["task-clock"]["status"]
assert all(ev["r%02x" % (0x10 + i)]["status"] == "not supported" for i in range(30))
notes = {c["name"]: c for c in d["checks"]}
assert "batches-skipped" in notes and "29 of 30 batches" in notes["batches-skipped"]["message"], notes
assert d["runs"]["ok"] == 2 and d["runs"]["partial"] == 0, d["runs"]  # a run is whole without the skipped batches
PY
	ok "batches of unsupported events are skipped and said so; the command ran once per run"
fi

# The kept copies never take descriptors the runs need: with an open-file limit (soft and hard) of 68, one of the
# three is kept (68 less the batch's and the margin's 67) and all three are still counted (-r 2: an event opened
# more than once is worth keeping).
bash -c "ulimit -Sn 68 && ulimit -Hn 68 && exec '$PMCTOOL' stat -r 2 -v -e page-faults,context-switches,cpu-migrations -- true" \
	>"$TMP/out" 2>"$TMP/err" || fail "stat under ulimit -n 68: exit $?"
kept=$(grep -c 'kept open' "$TMP/err" || true)
[ "$kept" -le 1 ] || fail "$kept copies kept with only one descriptor to spare"
counted=$(grep -cE '^ +[0-9,.]+ +(page-faults|context-switches|cpu-migrations) ' "$TMP/err" || true)
[ "$counted" -eq 3 ] || { cat "$TMP/err" >&2; fail "$counted of 3 events counted under a tight open-file limit"; }
ok "kept copies stay within the descriptors the runs leave free"

# One execution (one run of one batch) opens each event once: a kept copy would only add an open and a close.
"$PMCTOOL" stat -v -e page-faults,context-switches -- true >"$TMP/out" 2>"$TMP/err" || fail "stat -v: exit $?"
kept=$(grep -c 'kept open' "$TMP/err" || true)
[ "$kept" -eq 0 ] || fail "$kept copies kept for a single execution"
"$PMCTOOL" stat -v -I 100 -e page-faults,context-switches -- true >"$TMP/out" 2>"$TMP/err" || fail "stat -v -I: exit $?"
kept=$(grep -c 'kept open' "$TMP/err" || true)
[ "$kept" -eq 0 ] || fail "$kept copies kept for a single scoped execution (-I)"
ok "a single execution keeps no copies open (command and -I)"
