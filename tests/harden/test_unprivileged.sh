#!/usr/bin/env bash
# pmctool as an ordinary user (nobody, through setpriv): no setuid, no system setting changed. What it may count
# follows kernel.perf_event_paranoid: < 2 everything, 2 user mode only (and the report says so), >= 3 nothing (a clear
# error naming the sysctl and CAP_PERFMON, exit 3).
source "$PMC_SOURCE_DIR/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to switch to the unprivileged user 'nobody' (run as root, or in CI)"
command -v setpriv >/dev/null || skip "setpriv is missing (util-linux)"
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null) || skip "no /proc/sys/kernel/perf_event_paranoid"

# The build tree may be closed to nobody: run a copy from a world-readable directory.
chmod 755 "$TMP"
cp "$PMCTOOL" "$TMP/pmctool"
chmod 755 "$TMP/pmctool"
[ ! -u "$TMP/pmctool" ] || fail "pmctool must not be setuid"
AS_NOBODY=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
"${AS_NOBODY[@]}" true 2>/dev/null || skip "setpriv cannot switch to uid 65534 here"
run_nobody() {
	set +e
	(cd "$TMP" && "${AS_NOBODY[@]}" ./pmctool "$@") >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
}

before=$(cat /proc/sys/kernel/perf_event_paranoid)
run_nobody stat -e task-clock,page-faults,context-switches -- true
if [ "$paranoid" -ge 3 ]; then
	expect_rc 3 "paranoid $paranoid: nothing can be counted"
	expect_err "kernel.perf_event_paranoid is $paranoid" "the error names the sysctl and its value"
	expect_err "CAP_PERFMON" "the error names the capability"
	ok "paranoid $paranoid: a clear error, exit 3"
elif [ "$paranoid" -eq 2 ]; then
	expect_rc 0 "paranoid 2: user-mode counting works"
	expect_err "[0-9.]+ msec +task-clock" "task-clock counted"
	expect_err "user-only: 3 events counted in user mode only: kernel.perf_event_paranoid" "the user-only note"
	expect_err "user only" "each user-only count is marked"
	run_nobody stat --csv -o - -e task-clock -- true
	expect_rc 0 "paranoid 2, CSV"
	expect_out "user mode only" "the CSV row says user mode only"
	ok "paranoid 2: user-only counting with a note"
else
	expect_rc 0 "paranoid $paranoid: counting works"
	! grep -q "user-only" "$TMP/err" || fail "paranoid $paranoid: kernel mode is allowed, yet marked user-only"
	ok "paranoid $paranoid: full counting"
fi
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$before" ] || fail "kernel.perf_event_paranoid was changed"

# The other commands work unprivileged too.
run_nobody list
expect_rc 0 "list as nobody"
run_nobody encode cycles
expect_rc 0 "encode as nobody"
run_nobody info
[ "$RC" -eq 0 ] || [ "$RC" -ge 10 ] || { cat "$TMP/err" >&2; fail "info as nobody: exit $RC"; }
expect_out "perf_event_paranoid $paranoid" "info shows the paranoid value"
ok "list, encode and info run as nobody"
