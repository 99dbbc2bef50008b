#!/usr/bin/env bash
# Batching: rerun mode runs the workload once per batch, with the free events and anchors in every batch;
# multiplex mode runs it once; --dry-run prints the plan without running anything.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

# Four programmable events with a budget of 1 counter: 4 batches, so the command runs 4 times. Without a PMU the
# injected one (tests/perf/fake_pmu.c) opens them: batches nothing can be counted in are skipped (test_stat_cost.sh).
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
has_hw_pmu || export LD_PRELOAD="$FAKE" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0"
run_pmc stat --counters 1 -e branches,branch-misses,cache-references,cache-misses,task-clock,page-faults \
	--json -o "$TMP/r.json" -- sh -c "echo run >>$TMP/runs"
expect_rc 0 "rerun"
expect_err "need 4 batches" "the number of runs is announced on stderr"
[ "$(wc -l <"$TMP/runs")" -eq 4 ] || fail "the command ran $(wc -l <"$TMP/runs") times, expected 4"
python3 - "$TMP/r.json" <<'PY' || fail "rerun report"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["batches"] == 4 and d["mode"] == "rerun", (d["batches"], d["mode"])
ev = {e["name"]: e for e in d["events"]}
# free events ride in every batch and are counted each time
assert ev["task-clock"]["every_batch"] and len(ev["task-clock"]["samples"]) == 4
assert ev["page-faults"]["status"] == "ok"
# each programmable event is in exactly one batch
for n in ("branches", "branch-misses", "cache-references", "cache-misses"):
    assert not ev[n]["every_batch"] and len(ev[n]["samples"]) == 1, n
assert sorted(ev[n]["batch"] for n in ("branches", "branch-misses", "cache-references", "cache-misses")) == [1, 2, 3, 4]
# anchors were added to every batch
anchors = [e["name"] for e in d["events"] if e["anchor"]]
assert "instructions" in anchors and "cycles" in anchors, anchors
print("batches", d["batches"], "anchors", anchors)
PY
ok "rerun with --counters 1 ran 4 batches"
unset LD_PRELOAD

# Six breakpoints need two batches (4 debug registers): real exact counts from both runs (where breakpoints fire).
addr=0x$(nm "$W" | awk '$3 == "bump" { print $1 }')
ev="mem:$addr:x"
run_pmc stat -e "$ev,$ev,$ev,$ev,$ev,$ev" -x, -- "$W" calls 777
expect_rc 0 "six breakpoints"
expect_err "need 2 batches" "six breakpoints take two batches"
if breakpoints_fire; then
	[ "$(grep -c "^777,,mem:" "$TMP/err")" -eq 6 ] || { cat "$TMP/err"; fail "each breakpoint should count 777"; }
	ok "six breakpoints over two batches each counted exactly 777"
else
	[ "$(grep -c "^<not counted>,,mem:" "$TMP/err")" -eq 6 ] || { cat "$TMP/err"; fail "six breakpoints <not counted>"; }
	echo "SKIP (part): exact breakpoint counts: $BP_PROBE"
fi

# Multiplex: one run whatever the number of events.
rm -f "$TMP/runs"
run_pmc stat --batch=multiplex --counters 1 -e branches,branch-misses,cache-misses,task-clock \
	-- sh -c "echo run >>$TMP/runs"
expect_rc 0 "multiplex"
[ "$(wc -l <"$TMP/runs")" -eq 1 ] || fail "multiplex ran the command $(wc -l <"$TMP/runs") times"
ok "multiplex ran once"

# -r 3: three runs, statistics over them.
run_pmc stat -r 3 -e task-clock --json -o "$TMP/r3.json" -- "$W" spin 10
expect_rc 0 "-r 3"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); e=d["events"][0]; assert d["runs"]["count"]==3 and d["runs"]["used"]==3 and len(e["samples"])==3 and e["min"]<=e["median"]<=e["max"]' "$TMP/r3.json" \
	|| fail "-r 3 statistics"
ok "-r 3 gives three samples and statistics"

# --dry-run shows seed 001-style batches on a forced Haswell without running anything. The perf spellings use the
# core PMU's sysfs terms: the fixture's cpu PMU (without one, perf's rNN).
export LIBPFM_FORCE_PMU=hsw
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs run_pmc stat --dry-run --counters 4 -e 'uops_issued.any,uops_issued.any<1,uops_issued.any>=1,uops_issued.any>=2,uops_issued.any>=3' -- "$TMP/never-run"
expect_rc 0 "--dry-run"
expect_out "2 batches" "five programmable events, four counters: two batches"
expect_out "batch 2:" "batch 2 listed"
expect_out "in every batch" "anchors listed"
expect_out "cmask=2" "perf spelling of >=2 carries the cmask"
[ ! -e "$TMP/never-run" ] || fail "--dry-run ran something"
ok "--dry-run plan"
