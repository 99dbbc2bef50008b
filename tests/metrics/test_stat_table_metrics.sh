#!/usr/bin/env bash
# stat -M through vendor tables (issue 23 item 2), with the fixture tables of tests/metrics/tables (a made-up Ice Lake
# in perf's pmu-events format, a made-up Skylake in Intel perfmon's): the plan of a table group, which name wins where
# pmctool has one too, metrics left out with the reason, software-event metrics evaluated with their threshold, and the
# messages for names nobody has. No hardware PMU is needed: the hardware rows are n/a with the reason here.
source "$PMC_SOURCE_DIR/tests/lib.sh"

T=$PMC_SOURCE_DIR/tests/metrics/tables
export LIBPFM_FORCE_PMU=icl PMCTOOL_CPUID=GenuineIntel-6-7E-5
unset PMCTOOL_TABLES

# The table's TopdownL1: one weak group with its seven events (slots leading where the arch wants it), planned.
run_pmc stat --tables "$T/pmu-events" -M table:TopdownL1 --dry-run --json -o - -- true
expect_rc 0 "-M table:TopdownL1 --dry-run"
python3 - "$TMP/out" <<'PY' || fail "-M table:TopdownL1: the plan lacks the metrics' events in one batch"
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["batches"]) == 1, d["batches"]
names = {e["name"] for e in d["every_batch"] + d["batches"][0]}
want = {"INT_MISC.UOP_DROPPING", "TOPDOWN.SLOTS", "INT_MISC.RECOVERY_CYCLES:c=1:e=1"}
assert want <= names, names
assert sum(1 for n in names if "umask=0x8" in n or n.startswith("topdown-")) == 4, names
PY
ok "-M table:TopdownL1: the table's level 1 planned through the tables"

# A bare name both have is pmctool's, said so; table: and pmctool: pick.
run_pmc stat --tables "$T/pmu-events" -M TopdownL1 --dry-run -- true
expect_rc 0 "-M TopdownL1 with tables"
expect_err "-M TopdownL1 is pmctool's own \(--topdown's level\); the vendor table's TopdownL1 is -M table:TopdownL1" \
	"-M TopdownL1: the note says which one wins"
run_pmc stat --tables "$T/pmu-events" -M branch --dry-run -- true
expect_err "-M branch is pmctool's own \(event set, as -g\); the vendor table's branch is -M table:branch" "-M branch"
run_pmc stat --tables "$T/pmu-events" -M pmctool:nosuchset --dry-run -- true
expect_rc 2 "-M pmctool:nosuchset"
expect_err "no such metric group of pmctool's" "-M pmctool:NAME looks at pmctool's only"
run_pmc stat --tables "$T/pmu-events" -M IPC --dry-run -- true
expect_rc 0 "-M IPC (a table metric)"
expect_err "the table's metric IPC is shown as table:IPC: pmctool has its own IPC" "-M IPC: renamed, said so"
ok "-M: a name pmctool has too is pmctool's with a note; table:NAME / pmctool:NAME pick; a table IPC is table:IPC"

# Left out with the reason; the others still run. Software-event metrics are evaluated, the threshold marks them.
run_pmc stat --tables "$T/pmu-events" -M Fake,FakeSoftware -- "$PMC_WORKLOAD" spin 1
expect_err "metric fake_no_event is left out: event no_such.event: unknown event" "an event nobody has"
expect_err "metric fake_slots_literal is left out: #slots: " "#slots without caps/slots"
expect_rc 0 "-M Fake,FakeSoftware" # the report goes to stderr, as perf's
expect_err "fake_task_ms +\[over threshold\] Fixture: task time" "the software metric, over its threshold"
grep -E "^ +[0-9.]+ +ms +fake_task_ms" "$TMP/err" >/dev/null || fail "fake_task_ms has no value"
grep -E "^ +[0-9.]+ +fake_faults_per_ms" "$TMP/err" >/dev/null || fail "fake_faults_per_ms (uses fake_task_ms) has no value"
expect_err "n/a GHz +fake_kernel_ghz +event CPU_CLK_UNHALTED.THREAD_P:k is not supported" "a hardware metric: n/a, why"
ok "-M: metrics left out say why, software metrics evaluated with their threshold, hardware ones n/a"

# perfmon's format: TopdownL1 is its TmaL1 group, #smt_on from the machine said so.
LIBPFM_FORCE_PMU=skl PMCTOOL_CPUID=GenuineIntel-6-5E-3 run_pmc stat --tables "$T/perfmon" -M table:TopdownL1 --dry-run -- true
expect_rc 0 "perfmon -M table:TopdownL1"
expect_err "#smt_on = [01] \(this machine: /sys/devices/system/cpu/smt/active\)" "the literal from the machine, stated"
expect_out "IDQ_UOPS_NOT_DELIVERED.CORE" "perfmon's Frontend_Bound's events"
# Too few counters for a metric's group: the weak group is split and the metrics it served are named.
LIBPFM_FORCE_PMU=skl PMCTOOL_CPUID=GenuineIntel-6-5E-3 run_pmc stat --tables "$T/perfmon" -M table:TopdownL1 --counters 2 \
	--dry-run -- true
expect_err "the events of .*Backend_Bound.* are not planned as one group" "--counters 2: the split metrics named"
LIBPFM_FORCE_PMU=skl PMCTOOL_CPUID=GenuineIntel-6-5E-3 run_pmc stat --tables "$T/perfmon" -M table:TopdownL1 --dry-run \
	-- true
grep -q "not planned as one group" "$TMP/err" && fail "4 counters: TopdownL1's group fits, yet a split was reported"
ok "-M through perfmon's format: aliases resolved, the machine's values stated"

# Nobody has the name: exit 2 with what -M takes.
run_pmc stat --tables "$T/pmu-events" -M no_such_metric -- true
expect_rc 2 "-M no_such_metric"
expect_err "no such metric or metric group in the vendor tables or pmctool's event sets" "-M unknown with tables"
run_pmc stat --tables "$TMP" -M table:tma_retiring -- true
expect_rc 2 "-M table:... without tables"
expect_err "none of which were found for this CPU \('pmctool tables' says where it looked" "-M without tables"
run_pmc stat -M TopdownL1, -- true
expect_rc 2 "-M with an empty item"
ok "-M: unknown names and empty items refused with what -M takes"

# Issue 33 item 1: a term inside a metric's event (cpu@EVENT\,umask\=0xF@) overrides the event's own bits: the
# umask of every prefetch, not T0's 0x2 (perf opens 0xf32); ldlat over the event's 4; cmask and inv added.
run_pmc stat --tables "$T/pmu-events" -M FakeTerms --dry-run --json -o - -- true
expect_rc 0 "-M FakeTerms --dry-run"
python3 - "$TMP/out" <<'PY' || fail "-M FakeTerms: a metric's term did not override the event's own bits"
import json, sys
d = json.load(open(sys.argv[1]))
evs = {(int(e["config"], 0), int(e["config1"], 0)) for b in d["batches"] for e in b + d["every_batch"]}
for want in ((0xf32, 0), (0x1cd, 0x80), (0x0280010e, 0)):
    assert want in evs, ("%#x/%#x not opened" % want, sorted((hex(a), hex(b)) for a, b in evs))
assert (0x232, 0) not in evs, "T0's own umask was opened"
PY
ok "-M: umask, ldlat, cmask and inv terms in a metric's event override the event's own"
