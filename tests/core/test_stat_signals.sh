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
# Gone, or a zombie (dead, waiting for its new parent to reap it): polled for up to 5 s, as a loaded machine may take
# a while to deliver the death signal and reap (0.5 s once failed with the CPUs loaded).
alive() { [ -e "/proc/$1" ] && [ "$(sed 's/^.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)" != Z ]; }
for _ in $(seq 50); do alive "$child" || break; sleep 0.1; done
if alive "$child"; then kill -9 "$child"; fail "the command outlived pmctool (5 s after pmctool was killed)"; fi
ok "the command dies with pmctool"
