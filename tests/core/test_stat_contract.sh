#!/usr/bin/env bash
# Repeated and failed runs, numbers and option conflicts (issue 12 items 4-10): every run's status is recorded, failed
# and interrupted runs stay out of the statistics, the exit status is the first failing run's; numbers are decimal;
# conflicting options are errors naming both; --metric is checked before anything runs.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# Numbers are decimal: -r 010 is 10 runs, never 8; 0x10 is refused.
run_pmc stat -r 010 -e task-clock -- sh -c "echo run >>$TMP/runs10"
expect_rc 0 "-r 010"
[ "$(wc -l <"$TMP/runs10")" -eq 10 ] || fail "-r 010 ran $(wc -l <"$TMP/runs10") times, expected 10"
run_pmc stat -r 0x10 -e task-clock -- true
expect_rc 2 "-r 0x10"
expect_err "invalid value '0x10' for -r: expected a decimal" "-r 0x10 is refused as not decimal"
run_pmc stat --counters 08 --dry-run -e task-clock
expect_rc 0 "--counters 08 (decimal 8, not a bad octal)"
run_pmc stat -k empty --warmup 0x10 --iters 10 -e task-clock
expect_rc 2 "--warmup 0x10"
expect_err "invalid value '0x10' for --warmup: expected a decimal number" "--warmup 0x10 is refused"
ok "numbers are decimal: -r 010 ran 10 times, -r 0x10 and --warmup 0x10 are errors"

# Conflicts: an error naming both options, nothing run.
while IFS='|' read -r want args; do
	# shellcheck disable=SC2086
	run_pmc stat $args -- sh -c "touch $TMP/conflict-ran"
	expect_rc 2 "stat $args"
	for w in $want; do expect_err "$w" "stat $args names $w"; done
	[ ! -e "$TMP/conflict-ran" ] || fail "stat $args ran the command"
done <<'EOF'
-k|-k fma -k copy
-g|-g core -g other
--csv --json|--csv --json
-x --csv|-x, --csv
-x --json|--json -x,
-o|-o a -o b
-o --log-fd|-o a --log-fd 1
--iters -k|--iters 5
--param -k|--param n=3
--cpu -k|--cpu 0
--warmup -k|--warmup 1
--subtract-overhead -k|--subtract-overhead
-r '3' '5'|-r 3 -r 5
--counters|--counters 2 --counters 3
--batch|--batch=rerun --batch=multiplex
EOF
run_pmc stat --dry-run --csv -e task-clock
expect_rc 2 "--dry-run --csv"
expect_err "--dry-run.*--csv" "--dry-run --csv names both"
ok "conflicting options are errors naming both, and nothing runs"

# --dry-run --json prints JSON.
run_pmc stat --dry-run --json -e task-clock,page-faults
expect_rc 0 "--dry-run --json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["kind"]=="plan" and d["schema_version"]==1' \
	"$TMP/out" || fail "--dry-run --json is not the JSON plan"
ok "--dry-run --json prints the plan as JSON"

# --metric is checked before anything runs.
run_pmc stat -e task-clock --metric 'x=nosuchevent/2' -- sh -c "touch $TMP/metric-ran"
expect_rc 2 "--metric with an unknown name"
expect_err "nosuchevent" "the unknown name is named"
[ ! -e "$TMP/metric-ran" ] || fail "the command ran although --metric was bad"
run_pmc stat -e task-clock --metric '1bad=task-clock' -- sh -c "touch $TMP/metric-ran"
expect_rc 2 "--metric with a bad name"
[ ! -e "$TMP/metric-ran" ] || fail "the command ran although --metric's name was bad"
run_pmc stat -e task-clock,page-faults --metric 'pf_per_ms={page-faults}/{task-clock}*1e6' -- true
expect_rc 0 "a good --metric"
expect_err "pf_per_ms" "the good metric is shown"
ok "--metric is checked before the run: unknown event or bad name is exit 2, nothing runs"

# -r 3 with run 2 failing (exit 7): the exit status is run 2's, its counts stay out of the statistics.
cat >"$TMP/flaky.sh" <<EOF
n=0; [ ! -f "$TMP/flaky.count" ] || n=\$(wc -l <"$TMP/flaky.count")
echo x >>"$TMP/flaky.count"
[ "\$n" -ne 1 ] || exit 7
EOF
run_pmc stat -r 3 --json -o "$TMP/flaky.json" -e task-clock -- sh "$TMP/flaky.sh"
expect_rc 7 "-r 3 with run 2 exiting 7"
python3 - "$TMP/flaky.json" <<'PY' || fail "failed run recorded in JSON"
import json, sys
d = json.load(open(sys.argv[1]))
r = d["runs"]
assert r["count"] == 3 and r["ok"] == 2 and r["failed"] == 1 and r["used"] == 2, r
assert [x["exit_status"] for x in d["executions"]] == [0, 7, 0], d["executions"]
assert [x["used"] for x in d["executions"]] == [True, False, True]
assert d["exit_status"] == 7
e = d["events"][0]
assert e["n"] == 2 and len(e["samples"]) == 3, e
PY
rm -f "$TMP/flaky.count"
run_pmc stat -r 3 -e task-clock -- sh "$TMP/flaky.sh"
expect_rc 7 "table"
expect_err "Runs: 1 of 3 runs failed \\(run 2 exited 7\\): kept out; the numbers are over the 2 ok runs" "the table says which run failed"
rm -f "$TMP/flaky.count"
run_pmc stat -r 3 --csv -e task-clock -- sh "$TMP/flaky.sh"
python3 - "$TMP/err" <<'PY' || fail "CSV run rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
runs = [r for r in rows if r["record"] == "run"]
assert [r["exit_status"] for r in runs] == ["0", "7", "0"], runs
assert runs[1]["status"] == "failed" and runs[1]["reason"] == "kept out of the statistics"
s = [r for r in rows if r["record"] == "summary"][0]
assert s["n"] == "2" and float(s["min"]) <= float(s["median"]) <= float(s["max"]), s
rep = [r for r in rows if r["record"] == "report"][0]
assert rep["exit_status"] == "7" and rep["status"] == "complete", rep
PY
rm -f "$TMP/flaky.count"
run_pmc stat -r 3 -x, -e task-clock -- sh "$TMP/flaky.sh"
expect_err "^# 1 of 3 runs failed" "-x says a run failed"
ok "-r 3 with a failing run: exit 7, the run recorded in JSON, CSV, the table and -x, kept out of the statistics"

# A run killed by a signal: 128+N, the signal recorded.
run_pmc stat --json -o "$TMP/kill.json" -e task-clock -- sh -c 'kill -USR1 $$'
expect_rc 138 "killed by SIGUSR1"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); x=d["executions"][0]; assert x["signal"]==10 and x["exit_status"]==138 and d["signal"]==10' \
	"$TMP/kill.json" || fail "the signal is recorded"
ok "a run killed by SIGUSR1: exit 138, signal 10 recorded"

# Nothing counted: the command's own failure wins; 3 only when the command succeeded.
if ! has_hw_pmu; then
	run_pmc stat -e cycles -- sh -c 'exit 5'
	expect_rc 5 "nothing counted, command exited 5"
	run_pmc stat -e cycles -- true
	expect_rc 3 "nothing counted, command exited 0"
	ok "nothing counted: the command's status 5 is kept; 3 when it exited 0"
fi

# An interrupted run is never averaged in: -r 5, SIGINT during run 3.
cat >"$TMP/slow.sh" <<EOF
n=0; [ ! -f "$TMP/slow.count" ] || n=\$(wc -l <"$TMP/slow.count")
echo x >>"$TMP/slow.count"
[ "\$n" -lt 2 ] || sleep 5
EOF
for fmt in json sep; do
	rm -f "$TMP/slow.count"
	if [ $fmt = json ]; then out=(--json -o "$TMP/int.json"); else out=(-x, -o "$TMP/int.sep"); fi
	"$PMCTOOL" stat -r 5 "${out[@]}" -e task-clock -- sh "$TMP/slow.sh" 2>"$TMP/err" &
	pid=$!
	for _ in $(seq 100); do [ -f "$TMP/slow.count" ] && [ "$(wc -l <"$TMP/slow.count")" -ge 3 ] && break; sleep 0.05; done
	sleep 0.2
	kill -INT $pid
	set +e; wait $pid; RC=$?; set -e
	expect_rc 130 "SIGINT during run 3 ($fmt)"
done
python3 - "$TMP/int.json" <<'PY' || fail "interrupted run kept apart"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["partial"] is True
r = d["runs"]
assert r["ok"] == 2 and r["partial"] == 1 and r["used"] == 2 and r["statistics_over"] == "ok runs", r
x = [x for x in d["executions"] if x["run"] == 3][0]
assert x["interrupted"] and not x["used"], x
assert d["events"][0]["n"] == 2
PY
grep -q "^# partial" "$TMP/int.sep" || fail "-x has no partial marker"
ok "SIGINT during run 3 of 5: runs 1-2 are the statistics, run 3 is partial and apart; -x says partial"
