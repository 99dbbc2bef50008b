#!/usr/bin/env bash
# Hostile table metrics (issue 39 item 7), on software events so every host counts them: 30 unary minus signs are
# evaluated (perf allows 128 levels; pmctool's 48 aborted the whole -M run with "bad --metric", though no --metric
# was given); a metric nested past 128 is left out, the note naming the metric and its table, the others evaluated;
# a metric of one software event gets no 'metric-split' warning (no event of it takes a counter).
source "$PMC_SOURCE_DIR/tests/lib.sh"

dir=$TMP/tables/arch/x86
mkdir -p "$dir/fakem"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-55-[01234],v1.0,fakem,core\n' >"$dir/mapfile.csv"
python3 - "$dir/fakem" <<'PY'
import json, sys
d = sys.argv[1]
json.dump([{"EventName": "FAKE.EV", "EventCode": "0x3c", "UMask": "0x0", "BriefDescription": "made up"}],
          open(d + "/core.json", "w"))
json.dump([
    {"MetricName": "twice_faults", "MetricExpr": "page\\-faults * 2", "MetricGroup": "G", "BriefDescription": "a"},
    {"MetricName": "minus_30", "MetricExpr": "-" * 30 + "page\\-faults", "MetricGroup": "G", "BriefDescription": "b"},
    {"MetricName": "minus_31", "MetricExpr": "-" * 31 + "page\\-faults", "MetricGroup": "G", "BriefDescription": "c"},
    {"MetricName": "nested_129", "MetricExpr": "(" * 129 + "page\\-faults" + ")" * 129, "MetricGroup": "G",
     "BriefDescription": "d"},
    {"MetricName": "one_sw_event", "MetricExpr": "page\\-faults", "MetricGroup": "S", "BriefDescription": "e"},
], open(d + "/metrics.json", "w"))
PY
export PMCTOOL_CPUID=GenuineIntel-6-55-4 PMCTOOL_TABLES=$TMP/tables

run_pmc stat -M G --json -o "$TMP/g.json" -- true
expect_rc 0 "-M with a metric of 30 unary minus signs and one nested 129 levels"
grep -q "bad --metric" "$TMP/err" && fail "-M: a table metric reported as a bad --metric"
expect_err "metric nested_129 is left out: .*nested more than 128 levels.*\\(table $dir/fakem/metrics.json; the other metrics are evaluated\\)" \
	"the bad table metric named with its table and reason"
python3 - "$TMP/g.json" <<'PY' || fail "-M: the good metrics are not evaluated from page-faults"
import json, sys
d = json.load(open(sys.argv[1]))
pf = next(e["mean"] for e in d["events"] if e["name"] == "page-faults")
m = {x["name"]: x["value"] for x in d["metrics"]}
assert pf > 0, pf
assert m["twice_faults"] == 2 * pf, (m, pf)
assert m["minus_30"] == pf and m["minus_31"] == -pf, (m, pf)
assert "nested_129" not in m, m
PY

run_pmc stat -M S -- true
expect_rc 0 "-M of one software event"
grep -q "metric-split" "$TMP/out" "$TMP/err" && fail "one_sw_event: a metric-split warning, though no event takes a counter"
expect_err "one_sw_event" "the one-event metric shown"
ok "table metrics: 30 signs evaluated, a 129-deep one left out naming its table, no metric-split for software events"
