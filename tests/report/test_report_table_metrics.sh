#!/usr/bin/env bash
# pmctool report evaluates vendor-table metrics (stat -M) again from the report's counts (issue 33 item 3), with the
# report's tables (or --tables DIR) and the report's literals: #smt_on from its cpu.smt, #core_wide from what it
# counted (target.kind) and the SMT state, never this machine's. The fixture tables/skl-anythread-report.json is stat -a -M
# table:TopdownL1's report on a Skylake with SMT on (counts set by hand): AnyThread counts only
# (CPU_CLK_UNHALTED.THREAD_ANY, INT_MISC.RECOVERY_CYCLES_ANY, no plain THREAD), which perf 6.1's Skylake level 1
# evaluates with #core_wide = 1 and #smt_on = 1 as (tests/report/tables holds the same formulas, written for the test):
#   CORE_CLKS = THREAD_ANY / 2 = 1000, SLOTS = 4 x 1000 = 4000
#   tma_frontend_bound = IDQ_UOPS_NOT_DELIVERED.CORE / SLOTS = 400 / 4000 = 10%
#   tma_bad_speculation = (UOPS_ISSUED.ANY - RETIRE_SLOTS + 4 x RECOVERY_CYCLES_ANY / 2) / SLOTS
#                       = (1300 - 1200 + 100) / 4000 = 5%
#   tma_backend_bound = 1 - FE - (UOPS_ISSUED.ANY + 4 x RECOVERY_CYCLES_ANY / 2) / SLOTS = 1 - .10 - 1400/4000 = 55%
#   tma_retiring = RETIRE_SLOTS / SLOTS = 1200 / 4000 = 30%
source "$PMC_SOURCE_DIR/tests/lib.sh"
fx=$PMC_SOURCE_DIR/tests/report/tables/skl-anythread-report.json
tables=$PMC_SOURCE_DIR/tests/report/tables/pmu-events
# no table directory but the ones a test names
unset PMCTOOL_TABLES PMCTOOL_CPUID LIBPFM_FORCE_PMU
export HOME=$TMP XDG_DATA_HOME=$TMP/xdg

# metrics FILE: "name=value|description" for each metric row of report --json's output in FILE (4 decimals, n/a).
metrics() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["metrics"]:
    v = "n/a" if m["value"] is None else "%.4f" % m["value"]
    print("%s=%s|%s|%s" % (m["name"], v, m["description"], m["reason"] or ""))' "$1"
}
# expect_metric NAME VALUE WHAT: the row NAME has VALUE
expect_metric() {
	grep -q "^$1=$2|" "$TMP/m" || { cat "$TMP/m" "$TMP/err" >&2; fail "$3: $1 is not $2"; }
}

# 1. The report's own tables (its environment names them, relative to the source tree) and --tables DIR: perf's level 1
for how in own dir; do
	if [ $how = own ]; then
		(cd "$PMC_SOURCE_DIR" && "$PMCTOOL" report --json "$fx") >"$TMP/out" 2>"$TMP/err" && RC=0 || RC=$?
	else
		run_pmc report --tables "$tables" --json "$fx"
	fi
	expect_rc 0 "report ($how tables)"
	metrics "$TMP/out" >"$TMP/m"
	expect_metric CORE_CLKS 1000.0000 "$how tables"
	expect_metric SLOTS 4000.0000 "$how tables"
	expect_metric tma_frontend_bound 10.0000 "$how tables"
	expect_metric tma_bad_speculation 5.0000 "$how tables"
	expect_metric tma_backend_bound 55.0000 "$how tables"
	expect_metric tma_retiring 30.0000 "$how tables"
	grep -q "as the report gives it" "$TMP/m" && fail "$how tables: a table metric was copied: $(grep 'as the report' "$TMP/m")"
	grep -q '"report-table-metrics".*6 of 6 table metrics evaluated again.*#core_wide = 1 (the report counted every CPU (-a) with SMT on); #smt_on = 1 (the report.s cpu.smt)' "$TMP/out" ||
		fail "$how tables: the check does not say which tables and literals were used: $(grep -o '"report-table-metrics"[^}]*' "$TMP/out")"
done
ok "an AnyThread Skylake report (-a, SMT on) replays as perf's level 1 (10/5/55/30%), with its own tables or --tables"

# 2. Counts changed by hand: the metrics follow the counts, not the values the file holds (10% and 55% there).
python3 - "$fx" "$TMP/changed.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for e in d["events"]:
    if e["name"] == "IDQ_UOPS_NOT_DELIVERED.CORE":
        for k in ("mean", "median", "min", "max"):
            e[k] = 800
        for s in e["samples"]:
            s["value"] = 800
json.dump(d, open(sys.argv[2], "w"))
PY
run_pmc report --tables "$tables" --json "$TMP/changed.json"
expect_rc 0 "report of changed counts"
metrics "$TMP/out" >"$TMP/m"
expect_metric tma_frontend_bound 20.0000 "IDQ_UOPS_NOT_DELIVERED.CORE 800"    # 800 / 4000
expect_metric tma_backend_bound 45.0000 "IDQ_UOPS_NOT_DELIVERED.CORE 800"     # 1 - .20 - .35
expect_metric tma_retiring 30.0000 "IDQ_UOPS_NOT_DELIVERED.CORE 800"
ok "counts changed by hand: tma_frontend_bound 20%, tma_backend_bound 45% (the file says 10% and 55%)"

# 3. Per thread (target kind command): #core_wide = 0, and CORE_CLKS needs the plain THREAD the report lacks: the
#    saved values, each saying why. SMT not recorded (cpu.smt null): #smt_on unknown, said so.
python3 - "$fx" "$TMP/thread.json" "$TMP/nosmt.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["target"]["kind"] = "command"
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["cpu"]["smt"] = None
json.dump(d, open(sys.argv[3], "w"))
PY
run_pmc report --tables "$tables" --json "$TMP/thread.json"
expect_rc 0 "report per thread"
metrics "$TMP/out" >"$TMP/m"
expect_metric tma_frontend_bound 10.0000 "per thread: the saved value"
grep -q "^CORE_CLKS=1000.0000|as the report gives it, not evaluated again: event CPU_CLK_UNHALTED.THREAD: the report has no event" "$TMP/m" ||
	{ cat "$TMP/m" >&2; fail "per thread: CORE_CLKS does not say it needs the plain THREAD"; }
grep -q "^tma_retiring=30.0000|as the report gives it, not evaluated again: it uses metric SLOTS, which is left out" "$TMP/m" ||
	{ cat "$TMP/m" >&2; fail "per thread: tma_retiring does not say why it is the saved value"; }
run_pmc report --tables "$tables" --json "$TMP/nosmt.json"
metrics "$TMP/out" >"$TMP/m"
grep -q "^tma_bad_speculation=5.0000|as the report gives it, not evaluated again: #SMT_on: the report does not say whether SMT was on" "$TMP/m" ||
	{ cat "$TMP/m" >&2; fail "cpu.smt null: tma_bad_speculation does not say #smt_on is unknown"; }
ok "per thread (#core_wide 0) and SMT unknown: the saved values, each with why"

# 4. Tables nowhere: the report's directory is not there and no --tables: the saved value, saying why.
python3 - "$fx" "$TMP/lost.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["environment"]["tables"] = "/nonexistent/pmu-events (fakeskl)"
json.dump(d, open(sys.argv[2], "w"))
PY
[ -d /usr/share/pmctool/tables ] || [ -d /usr/local/share/pmctool/tables ] ||
	{
		run_pmc report --json "$TMP/lost.json"
		expect_rc 0 "report without its tables"
		metrics "$TMP/out" >"$TMP/m"
		grep -q "^tma_retiring=30.0000|as the report gives it, not evaluated again: no vendor tables for CPU GenuineIntel-6-5E-3 were found (pmctool report --tables DIR)" "$TMP/m" ||
			{ cat "$TMP/m" >&2; fail "tables not found: tma_retiring does not say why it is the saved value"; }
		expect_out '"report-table-metrics".*no vendor tables with metrics for CPU GenuineIntel-6-5E-3 were found \(the report.s: /nonexistent/pmu-events \(fakeskl\); pmctool report --tables DIR names them\)' \
			"tables not found: the check names the report's tables"
		expect_out '"report-metrics-kept".*6 metrics copied from the report' "tables not found: the kept check"
		ok "tables not found: the saved values, saying which tables were looked for and how to name them"
	}
run_pmc report --tables "$TMP/nosuchdir" "$fx"
expect_rc 2 "--tables not a directory"
expect_err "pmctool report: --tables '.*/nosuchdir': not a directory" "--tables not a directory"
ok "--tables DIR that is not a directory: exit 2, saying so"

# 5. End to end without a hardware PMU: stat -M of the fixture Ice Lake tables' software-event metrics, saved, then
#    replayed with the tables the report names; task-clock doubled by hand doubles fake_task_ms. stat records cpu.smt
#    also under LIBPFM_FORCE_PMU (the SMT state its #smt_on used).
mt=$PMC_SOURCE_DIR/tests/metrics/tables/pmu-events
LIBPFM_FORCE_PMU=icl PMCTOOL_CPUID=GenuineIntel-6-7E-5 run_pmc stat --tables "$mt" -M FakeSoftware --json \
	-o "$TMP/sw.json" -- "$PMC_WORKLOAD" spin 1
expect_rc 0 "stat -M FakeSoftware"
python3 - "$TMP/sw.json" "$TMP/sw2.json" <<'PY' || fail "stat's report: no cpu.smt or environment cpuid for its tables"
import json, sys
d = json.load(open(sys.argv[1]))
smt_file = "/sys/devices/system/cpu/smt/active"
try:
    open(smt_file).read()
    assert d["cpu"]["smt"] is not None, d["cpu"]
except OSError:
    pass
assert d["environment"]["cpuid"] == "GenuineIntel-6-7E-5", d["environment"]
for e in d["events"]:
    if e["name"] == "task-clock":
        for k in ("mean", "median", "min", "max"):
            e[k] *= 2
        for s in e["samples"]:
            s["value"] *= 2
json.dump(d, open(sys.argv[2], "w"))
PY
run_pmc report --json "$TMP/sw.json"
expect_rc 0 "report of stat -M FakeSoftware"
metrics "$TMP/out" >"$TMP/m1"
grep -q "^fake_task_ms=[0-9.]*|\[over threshold\] Fixture: task time" "$TMP/m1" || { cat "$TMP/m1" >&2; fail "fake_task_ms not evaluated"; }
expect_out '"report-table-metrics".*2 of 2 table metrics evaluated again from the counts with the tables .*(fakeicl)' \
	"stat's report: the tables it names"
run_pmc report --json "$TMP/sw2.json"
metrics "$TMP/out" >"$TMP/m2"
python3 - "$TMP/m1" "$TMP/m2" <<'PY' || fail "task-clock doubled: fake_task_ms did not double"
import sys
v = [float(next(l for l in open(f) if l.startswith("fake_task_ms=")).split("=")[1].split("|")[0]) for f in sys.argv[1:]]
assert abs(v[1] - 2 * v[0]) <= 1e-3 * v[1], v
PY
ok "stat -M's report replayed with the tables it names; task-clock doubled by hand doubles fake_task_ms"
