#!/usr/bin/env bash
# The engine as a library (issue 35): libpmctool-engine exports the functions include/pmctool_engine.h declares and
# nothing else (nm), and examples/two_measurements.c drives four measurements in one process through it: two that
# count (different events, runs and metrics), an unknown event refused with its subject, a command that does not
# exist refused as a launch error; its JSON is the document `pmctool stat --json` writes; live counting
# (pmctool_live_*) reads counters left open at each snapshot.
source "$PMC_SOURCE_DIR/tests/lib.sh"
LIB=$PMC_BUILD_DIR/src/api/libpmctool-engine.so
TWO=$PMC_BUILD_DIR/tests/api/two_measurements
[ -f "$LIB" ] && [ -x "$TWO" ] || fail "libpmctool-engine or the example is not built ($LIB, $TWO)"
command -v nm >/dev/null || skip "nm (binutils) is needed to list the library's symbols"

# 1. Exported: exactly the header's functions.
want=$(grep -o '\bpmctool_[a-z_]*(' "$PMC_SOURCE_DIR/include/pmctool_engine.h" | tr -d '(' | sort -u)
got=$(nm -D --defined-only "$LIB" | awk '$2 == "T" || $2 == "D" || $2 == "B" || $2 == "W" { sub(/@.*/, "", $3); print $3 }' | sort -u)
[ "$want" = "$got" ] || fail "exported symbols differ from the header's functions: $(diff <(echo "$want") <(echo "$got") | tr '\n' ' ')"
ok "libpmctool-engine exports the header's $(echo "$want" | wc -l) functions and nothing else"

# 2. Four measurements in one process.
"$TWO" >"$TMP/two.out" 2>"$TMP/two.err" || { cat "$TMP/two.out" "$TMP/two.err" >&2; fail "two_measurements exit status $?"; }
grep -q '^first: 1 run,' "$TMP/two.out" || fail "first: not one run: $(cat "$TMP/two.out")"
grep -Eq '^  count task-clock [0-9]+ ' "$TMP/two.out" || fail "task-clock not counted: $(cat "$TMP/two.out")"
grep -q '^second: 3 runs,' "$TMP/two.out" || fail "second: not three runs: $(cat "$TMP/two.out")"
n=$(sed -n '/^second:/,/^wrong:/p' "$TMP/two.out" | grep -Ec '^  count (task-clock|page-faults|context-switches) [0-9]+ ')
[ "$n" = 3 ] || fail "second: $n of its 3 events counted: $(cat "$TMP/two.out")"
grep -Eq '^  metric faults_per_ms [0-9.e+]+' "$TMP/two.out" || fail "second: its metric has no value: $(cat "$TMP/two.out")"
grep -q "^wrong: error kind 1, subject 'events': unknown event 'no-such-event'.*(pmctool stat exits 2)\$" "$TMP/two.out" ||
	fail "an unknown event is not a request error about events: $(grep '^wrong' "$TMP/two.out")"
grep -q "^missing: error kind 2, subject 'argv': .*(pmctool stat exits 127)\$" "$TMP/two.out" ||
	fail "a missing command is not a launch error about argv (without a result): $(grep '^missing' "$TMP/two.out")"
ok "four requests in one process: counted, counted with 3 runs and a metric, refused (events), refused (argv)"

# 3. The JSON is stat's document: the same members as pmctool stat --json, and the typed counts in it.
"$TWO" --json >"$TMP/json.out" 2>"$TMP/two.err" || fail "two_measurements --json exit status $?"
sed -n '/^{/,$p' "$TMP/json.out" >"$TMP/api.json"
run_pmc stat --json -o "$TMP/stat.json" -r 3 -e task-clock,page-faults,context-switches -- true
expect_rc 0 "pmctool stat --json"
python3 - "$TMP/api.json" "$TMP/stat.json" <<'PY' || fail "the library's JSON is not stat's document"
import json, re, sys
api, stat = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert api["kind"] == "stat" and api.get("runs", api.get("nruns")) == stat.get("runs", stat.get("nruns")), "runs"
missing = set(stat) - set(api)
assert not missing, ("members stat writes and the library does not", missing)
names = [e["name"] for e in api["events"]]
assert names == ["task-clock", "page-faults", "context-switches"], names
PY
ok "pmctool_result_json writes stat's document (same members, the request's events)"

# 4. Stopped from the caller's signal handler: a partial result, kind STOPPED, nothing left running.
STOP=$PMC_BUILD_DIR/tests/api/stop_measurement
timeout 60 "$STOP" >"$TMP/stop.out" 2>&1 || { cat "$TMP/stop.out" >&2; fail "pmctool_engine_stop: $(cat "$TMP/stop.out")"; }
sleep 0.2
! pgrep -f 'sleep 29.71' >/dev/null || fail "the stopped command is still running"
ok "pmctool_engine_stop from a signal handler: $(cat "$TMP/stop.out")"

# 5. Live counting: counters left counting on this process, snapshots read at the call (issue 38).
LIVE=$PMC_BUILD_DIR/tests/api/live_snapshot
timeout 60 "$LIVE" >"$TMP/live.out" 2>&1 || { cat "$TMP/live.out" >&2; fail "pmctool_live_*: $(cat "$TMP/live.out")"; }
ok "pmctool_live_open/snapshot/close: $(head -1 "$TMP/live.out")"
