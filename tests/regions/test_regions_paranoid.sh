#!/usr/bin/env bash
# The region library's perf_event_paranoid fallback is pmctool's (sys/perf_fallback.h): as nobody at paranoid 2 a
# scheduler event (context-switches, cpu-migrations) is not retried user only, where it would read 0 as if measured;
# it is reported not counted, with the reason, while page-faults is retried and counted user only.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to switch to the unprivileged user 'nobody'"
command -v setpriv >/dev/null || skip "setpriv is missing (util-linux)"
[ "$(cat /proc/sys/kernel/perf_event_paranoid)" -eq 2 ] ||
	skip "perf_event_paranoid is $(cat /proc/sys/kernel/perf_event_paranoid), not 2: kernel mode is not refused to nobody alone"
chmod 755 "$TMP"
cp "$RG" "$TMP/rg-prog"
chmod 755 "$TMP/rg-prog"
set +e
(cd "$TMP" && PMCTOOL_REGIONS_EVENTS=context-switches,cpu-migrations,page-faults \
	setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all ./rg-prog basic) >"$TMP/out" 2>"$TMP/err"
RC=$?
set -e
expect_rc 0 "rg-prog as nobody"
expect_err "context-switches: not counted: the scheduler counts it in kernel mode, which kernel.perf_event_paranoid" \
	"context-switches is not counted, with the reason"
expect_err "cpu-migrations: not counted: the scheduler counts it in kernel mode" "cpu-migrations likewise"
expect_err "page-faults: user mode only \(kernel.perf_event_paranoid\)" "page-faults is retried user only"
if grep -Eq "context-switches: user mode only|cpu-migrations: user mode only" "$TMP/err"; then
	cat "$TMP/err" >&2
	fail "a scheduler event was retried user only"
fi
ok "scheduler events refused, never a user-only 0; page-faults user only"
