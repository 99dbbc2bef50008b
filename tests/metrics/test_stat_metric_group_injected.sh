#!/usr/bin/env bash
# -M: a table's metric group whose events fit the counters together is counted as one group in one batch (issue 33
# item 4). The fixture tables of tests/metrics/tables hold a made-up Zen 4 PipelineL1: four metrics over six events,
# three of them dividing by the same clock (ls_not_halted_cyc), on a PMU with six programmable counters and no fixed
# ones (the anchors instructions and cycles would take programmable counters there). Plans only: no PMU is needed.
source "$PMC_SOURCE_DIR/tests/lib.sh"

T=$PMC_SOURCE_DIR/tests/metrics/tables/pmu-events
export LIBPFM_FORCE_PMU=amd64_fam19h_zen4
unset PMCTOOL_TABLES PMCTOOL_CPUID

# The six events, each once, one batch, no anchor (nothing to compare batches by when there is one).
run_pmc stat --tables "$T" -M PipelineL1 --dry-run --json -o - -- true
expect_rc 0 "-M PipelineL1 --dry-run"
python3 - "$TMP/out" <<'PY' || fail "-M PipelineL1: the six events are not planned once each in one batch"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["batches"]) == 1, [[e["name"] for e in b] for b in d["batches"]]
names = [e["name"] for e in d["batches"][0]]
want = {"ls_not_halted_cyc", "ex_ret_instr", "ex_ret_ops", "ex_ret_brn_misp", "ex_ret_brn", "ex_ret_near_ret"}
assert sorted(names) == sorted(want), names
assert not [e for e in d["every_batch"] if e["class"] == "programmable"], d["every_batch"]
PY
grep -q "not planned as one group" "$TMP/err" && fail "-M PipelineL1: a metric was reported split"
run_pmc stat --tables "$T" -M PipelineL1 --dry-run -- true
[ "$(grep -c '(group 1)' "$TMP/out")" = 6 ] || { cat "$TMP/out"; fail "-M PipelineL1: the six events are not one group"; }
expect_out "note: -M: the 4 table-metric groups are counted as one group of 6 events" "-M PipelineL1: the note says so"
ok "-M PipelineL1 (Zen 4, six events on six counters): one group, one batch"

# Other events beside it need a second batch: the anchors instructions and cycles would take two of the group's six
# programmable counters, so they are left out (said so), the group stays whole, the TSC still compares the batches.
run_pmc stat --tables "$T" -e rc4,rc5 -M PipelineL1 --dry-run -- true
expect_rc 0 "-e rc4,rc5 -M PipelineL1 --dry-run"
[ "$(grep -c '(group 1)' "$TMP/out")" = 6 ] || { cat "$TMP/out"; fail "beside -e: the six events are not one group"; }
grep -qE "^ +(instructions|cycles) +programmable.*\(anchor\)" "$TMP/out" &&
	{ cat "$TMP/out"; fail "beside -e: programmable anchors were added although the group needs every counter"; }
expect_out "msr/tsc/ .*\(anchor\)" "beside -e: the TSC anchor"
expect_out "the anchors instructions and cycles would take in its batch: they are not added, the group stays whole" \
	"beside -e: the note on the anchors"
grep -q "not planned as one group" "$TMP/err" && fail "beside -e: a metric was reported split"
ok "-M PipelineL1 beside other events: the group stays whole, the anchors that do not fit are left out, said so"

# A group that fits beside the anchors keeps them; a union that does not fit the counters is one group per metric.
run_pmc stat --tables "$T" -e rc4,rc5,rc6,rc7,rc8,rc9 -M PipelineL2 --dry-run -- true
expect_rc 0 "-M PipelineL2 beside six events"
expect_out "^ +cycles +programmable.*\(anchor\)" "a two-event group leaves room for the anchors"
run_pmc stat --tables "$T" -M PipelineL1 --counters 4 --dry-run -- true
expect_rc 0 "-M PipelineL1 --counters 4"
grep -q "counted as one group" "$TMP/err" && fail "--counters 4: six events cannot be one group"
ok "-M: anchors kept where they fit; a metric group larger than the counters keeps a group per metric"

# Counted (injected PMU: tests/perf/fake_pmu.so opens each hardware event as task-clock in the same group, refusing a
# group of more than PMC_FAKE_PMU_COUNTERS, here Zen 4's six): one execution, the six events in one batch, every
# metric evaluated from them. The values mean nothing (task-clock's); where the events were counted is the point.
FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || fail "the injected PMU $FAKE was not built"
LD_PRELOAD=$FAKE ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" PMC_FAKE_PMU_COUNTERS=6 run_pmc stat --tables "$T" -M PipelineL1 --json -o "$TMP/run.json" -- \
	"$PMC_WORKLOAD" spin 1
expect_rc 0 "-M PipelineL1 counted on the injected PMU"
python3 - "$TMP/run.json" <<'PY' || fail "-M PipelineL1 (injected PMU): not one execution of one group"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["executions"]) == 1 and d["batches"] == 1, (d["batches"], d["executions"])
hw = [e for e in d["events"] if e["class"] == "programmable"]
assert len(hw) == 6 and len({e["batch"] for e in hw}) == 1, [(e["name"], e["batch"]) for e in hw]
assert all(e["status"] == "ok" for e in hw), [(e["name"], e["status"], e["reason"]) for e in hw]
ms = {m["name"]: m["value"] for m in d["metrics"] if m["name"].startswith("fakezen_")}
assert len(ms) == 4 and all(v is not None for v in ms.values()), ms
PY
ok "-M PipelineL1 on an injected six-counter PMU: one execution, one group, every metric from it"
