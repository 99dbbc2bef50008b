#!/usr/bin/env bash
# -I: an interval in which the counted task slept (issue 33 item 10). A task counter's time enabled stops while its
# task is off the CPU, so such an interval reads 0 in 0 ns: the counter was enabled and counted nothing, and every
# format says 0 (time enabled 0, running 100%, status ok), never <not counted> / enabled_ns null, which stay for a
# counter that never ran. The workload spins 150 ms, sleeps 450 ms (at least two whole 100 ms intervals asleep,
# however loaded the CPUs), then spins again.
source "$PMC_SOURCE_DIR/tests/lib.sh"

W="$PMC_WORKLOAD spin 150; sleep 0.45; $PMC_WORKLOAD spin 100"

# table
run_pmc stat -e task-clock,context-switches -I 100 -- sh -c "$W"
expect_rc 0 "table"
grep -q "not counted" "$TMP/out" "$TMP/err" && { cat "$TMP/out" "$TMP/err" >&2; fail "table: a slept interval is <not counted>"; }
n=$(grep -cE "^ +[0-9.]+ +0\.00 msec +task-clock +100\.00%" "$TMP/err" "$TMP/out" | awk -F: '{s+=$NF} END {print s}')
[ "$n" -ge 2 ] || { cat "$TMP/err" "$TMP/out" >&2; fail "table: $n intervals of 0.00 msec task-clock, expected >= 2"; }
ok "table: $n slept intervals print 0.00 msec task-clock at 100% running"

# -x (perf's CSV layout)
run_pmc stat -e task-clock -I 100 -x, -- sh -c "$W"
expect_rc 0 "-x"
grep -q "not counted" "$TMP/out" "$TMP/err" && { cat "$TMP/err" >&2; fail "-x: a slept interval is <not counted>"; }
n=$(cat "$TMP/out" "$TMP/err" | grep -cE "^ *[0-9.]+,0\.00,msec,task-clock,0,100\.00," || true)
[ "$n" -ge 2 ] || { cat "$TMP/err" >&2; fail "-x: $n intervals of 0 ns at 100.00, expected >= 2"; }
ok "-x: $n slept intervals are 0 with running 100.00"

# --csv
run_pmc stat -e task-clock -I 100 --csv -- sh -c "$W"
expect_rc 0 "--csv"
cat "$TMP/out" "$TMP/err" >"$TMP/all"
grep -q "^interval,.*not counted" "$TMP/all" && fail "--csv: a slept interval is not counted"
n=$(grep -cE "^interval,task-clock,task-clock,,,0,0,ns,0,0,100,ok," "$TMP/all" || true)
[ "$n" -ge 2 ] || { cat "$TMP/all" >&2; fail "--csv: $n interval records of value 0, enabled 0, ok; expected >= 2"; }
ok "--csv: $n slept intervals are value 0, enabled_ns 0, running_pct 100, ok"

# --json
run_pmc stat -e task-clock -I 100 --json -- sh -c "$W"
expect_rc 0 "--json"
cat "$TMP/out" "$TMP/err" | grep '"kind":"interval"' >"$TMP/all" || true
grep -q '"enabled_ns":null' "$TMP/all" && fail "--json: a slept interval has enabled_ns null"
n=$(grep -c '"status":"ok","value":0,"scaled":0,"enabled_ns":0,"running_ns":0,"running_pct":100,' "$TMP/all" || true)
[ "$n" -ge 2 ] || { cat "$TMP/all" >&2; fail "--json: $n slept intervals with value 0, enabled_ns 0; expected >= 2"; }
ok "--json: $n slept intervals are status ok, value 0, enabled_ns 0"
