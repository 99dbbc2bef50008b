#!/usr/bin/env bash
# Issue 12 items 11 and 12: the workload gets the open-file limit pmctool was given (not the one pmctool raised for
# its counters), and when pmctool dies, even by SIGKILL, the whole workload goes: grandchildren too.
source "$PMC_SOURCE_DIR/tests/lib.sh"

# 60 software events in one batch need more than 20 descriptors: pmctool raises its own soft limit.
events=$(printf 'task-clock,page-faults,minor-faults,major-faults,%.0s' $(seq 15))
events=${events%,}
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -ge 200 ] || skip "the hard open-file limit ($hard) is too low to raise"
set +e
(ulimit -Sn 20 && exec "$PMCTOOL" stat -e "$events" -- sh -c 'ulimit -Sn') >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "60 events under ulimit -Sn 20"
[ "$(cat "$TMP/out")" = 20 ] || { cat "$TMP/out" "$TMP/err" >&2; fail "the workload's soft open-file limit is $(cat "$TMP/out"), not the 20 pmctool was given"; }
ok "pmctool raised its own open-file limit; the workload still has 20"

# kill -9 pmctool while its workload has children and grandchildren: none may survive.
tag="pmc-lifetime-$$-$RANDOM"
"$PMCTOOL" stat -e task-clock -- bash -c "bash -c 'exec -a $tag-grandchild sleep 300' & exec -a $tag-child sleep 300" \
	>"$TMP/out" 2>"$TMP/err" &
pmc=$!
trap 'kill -9 "$pmc" 2>/dev/null || true; pkill -9 -f -- "^$tag-" 2>/dev/null || true; rm -rf "$TMP"' EXIT
for _ in $(seq 100); do
	[ "$(pgrep -fc -- "^$tag-" || true)" -ge 2 ] && break
	sleep 0.05
done
[ "$(pgrep -fc -- "^$tag-" || true)" -ge 2 ] || { kill -9 "$pmc"; fail "the workload did not start"; }
pgid=$(ps -o pgid= -p "$(pgrep -f -- "^$tag-grandchild" | head -1)" | tr -d ' ')
[ "$pgid" != "$(ps -o pgid= -p $$ | tr -d ' ')" ] || fail "the workload runs in the test's own process group"
kill -9 "$pmc"
wait "$pmc" 2>/dev/null || true
for _ in $(seq 100); do
	[ "$(pgrep -fc -- "^$tag-" || true)" -eq 0 ] && break
	sleep 0.05
done
if pgrep -f -- "^$tag-" >/dev/null; then
	pgrep -af -- "^$tag-" >&2
	pkill -9 -f -- "^$tag-" || true
	fail "processes of the workload outlived kill -9 pmctool"
fi
# (a dead process may stay a zombie where PID 1 does not reap: only live ones count)
live_in_group() { ps -eo pgid=,stat= | awk -v g="$1" '$1 == g && $2 !~ /^Z/' | wc -l; }
[ "$(live_in_group "$pgid")" -eq 0 ] || { ps -eo pid,pgid,stat,comm | awk -v g="$pgid" '$2 == g' >&2; fail "a process of the workload's group (the guard?) outlived it"; }
ok "kill -9 pmctool: its workload's child and grandchild are gone too"

# A normal end leaves nothing behind either, and the guard is gone.
set +e
"$PMCTOOL" stat -e task-clock -- sh -c 'true' >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "a normal run"
[ "$(ps -eo ppid=,stat=,comm= | awk -v p=$$ '$1 == p && $2 !~ /^Z/ && $3 == "pmctool-guard"' | wc -l)" -eq 0 ] ||
	fail "a guard outlived a normal run"
ok "a normal run leaves no guard"

# In the foreground of a terminal the workload stays in pmctool's process group (the terminal's foreground), so it
# can read the terminal and Ctrl-C reaches it; there only the direct child is sure to go with pmctool.
if command -v script >/dev/null; then
	script -qec "'$PMCTOOL' stat -e task-clock -- sh -c 'echo W \$(ps -o pgid= -p \$\$) P \$(ps -o pgid= -p \$PPID)'" \
		/dev/null </dev/null | tr -d '\r' >"$TMP/tty" || true
	read -r _ w _ p <"$TMP/tty" || true
	[ -n "${w:-}" ] && [ "$w" = "${p:-}" ] || { cat "$TMP/tty" >&2; fail "on a terminal the workload left pmctool's group"; }
	ok "on a terminal: the workload shares pmctool's (foreground) process group"
fi
