#!/usr/bin/env bash
# SIGINT/SIGTERM: the child is signalled, the counts so far are printed marked partial, the status is 130/143;
# the child never outlives pmctool, even when pmctool is killed with SIGKILL.
source "$PMC_SOURCE_DIR/tests/lib.sh"

for sig in INT TERM; do
	"$PMCTOOL" stat -e task-clock,page-faults -- sleep 30 >"$TMP/out" 2>"$TMP/err" &
	pid=$!
	sleep 0.5
	kill -s $sig $pid
	set +e; wait $pid; rc=$?; set -e
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ $rc -eq $want ] || { cat "$TMP/err"; fail "SIG$sig: exit $rc, expected $want"; }
	grep -q "PARTIAL" "$TMP/err" || fail "SIG$sig: report not marked partial"
	grep -qE "[0-9.]+ msec +task-clock" "$TMP/err" || fail "SIG$sig: counts so far not printed"
	ok "SIG$sig gives a partial report and exit $want"
done

# pmctool killed outright: the command dies with it (PR_SET_PDEATHSIG).
"$PMCTOOL" stat -e task-clock -- sleep 31.5 2>/dev/null &
pid=$!
sleep 0.5
child=$(pgrep -f 'sleep 31.5' | head -1)
[ -n "$child" ] || fail "no child found"
kill -9 $pid
sleep 0.5
if kill -0 "$child" 2>/dev/null; then kill -9 "$child"; fail "the command outlived pmctool"; fi
ok "the command dies with pmctool"
