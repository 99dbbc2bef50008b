#!/usr/bin/env bash
# Issue 11 item 1: -k has the same perf_event_paranoid fallback as command mode, so the in-process kernel tests
# pass as an ordinary user (nobody) at paranoid 2, where kernel-mode counting is refused.
source "$PMC_SOURCE_DIR/tests/lib.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to switch to the unprivileged user 'nobody'"
command -v setpriv >/dev/null || skip "setpriv is missing (util-linux)"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 2 ] || skip "perf_event_paranoid above 2 denies nobody everything"
bin="$PMC_BUILD_DIR/tests/test_kernel_measure"
[ -x "$bin" ] || fail "not built: $bin"
chmod 755 "$TMP"
cp "$bin" "$TMP/"
set +e
(cd "$TMP" && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all ./test_kernel_measure) >"$TMP/out" 2>&1
RC=$?
set -e
[ "$RC" -eq 0 ] || { cat "$TMP/out" >&2; fail "test_kernel_measure as nobody: exit $RC"; }
grep -q 'PASSED' "$TMP/out" || { cat "$TMP/out" >&2; fail "test_kernel_measure as nobody did not pass"; }
ok "test_kernel_measure passes as nobody (paranoid $(cat /proc/sys/kernel/perf_event_paranoid))"

# Issue 11 item 2: a kernel-only event is never retried user-only (it would read 0 and pass as "ok, user only").
cp "$PMCTOOL" "$TMP/pmctool"
chmod 755 "$TMP/pmctool"
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -eq 2 ]; then
	set +e
	(cd "$TMP" && setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		./pmctool stat -e page-faults:k,page-faults -- true) >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "page-faults:k as nobody"
	expect_err "<not supported> +page-faults:k +\(note [0-9]+\)" "page-faults:k is not counted"
	expect_err "note [0-9]+: counts kernel mode only, which kernel.perf_event_paranoid forbids" \
		"page-faults:k's note says why"
	expect_err "[0-9]+ +page-faults +[0-9.]+% +user only" "page-faults is counted user-only"
	ok "page-faults:k as nobody at paranoid 2: not counted, with the reason; never a silent 0"
fi
