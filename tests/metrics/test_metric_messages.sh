#!/usr/bin/env bash
# Messages that give the right reason before anything runs: a --metric that uses itself or a later metric (it used
# to run and print n/a, where x=nan was refused), and -D's range, which includes -1.
source "$PMC_SOURCE_DIR/tests/lib.sh"

for m in "x=x" "x={task-clock}+x"; do
	run_pmc stat --metric "$m" -e task-clock -- "$PMC_WORKLOAD" spin 1
	expect_rc 2 "--metric $m"
	expect_err "--metric x uses itself \('x'\).*\(nothing was run\)" "--metric $m: refused before running"
	[ ! -s "$TMP/out" ] || fail "--metric $m: something was printed on stdout"
done
run_pmc stat --metric "x=y" --metric "y=x" -e task-clock -- "$PMC_WORKLOAD" spin 1
expect_rc 2 "--metric x=y --metric y=x"
expect_err "--metric x uses metric 'y', which is defined after it: give --metric y first" "a metric defined later"
run_pmc stat --json -o - --metric "y={task-clock}*2" --metric "x=y+1" -e task-clock -- "$PMC_WORKLOAD" spin 1
expect_rc 0 "a metric that uses an earlier one"
python3 - "$TMP/out" <<'PY' || fail "x = y + 1 where y is defined first"
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
assert m["x"]["value"] == m["y"]["value"] + 1, m
PY
ok "--metric: itself and later metrics refused before running; earlier ones used"

run_pmc stat -D -5 -e task-clock -- true
expect_rc 2 "-D -5"
expect_err "for -D: expected -1 \(start disabled, for --control\) or .* from 0 to 86400000" "-D's range names -1"
ok "-D: the range in the message includes -1"
