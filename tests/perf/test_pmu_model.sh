#!/usr/bin/env bash
# Issue 11 item 3: "no hardware PMU" is decided from the kernel's sysfs (no core PMU), never from one event's ENOENT;
# the default set and the anchors are the events the PMU has (AMD's core PMU lists no ref-cycles). sysfs fixtures
# (PMCTOOL_SYSFS_ROOT) pose a working PMU; this kernel's answers (ENOENT here for hardware events) stay real.
source "$PMC_SOURCE_DIR/tests/lib.sh"

mkfix() { # mkfix DIR [EVENT...]: a core PMU 'cpu' of type 4 listing EVENTs, plus the software PMU
	mkdir -p "$1/bus/event_source/devices/cpu/events" "$1/bus/event_source/devices/software"
	echo 4 >"$1/bus/event_source/devices/cpu/type"
	echo 1 >"$1/bus/event_source/devices/software/type"
	local d=$1
	shift
	for e in "$@"; do echo "event=0x00" >"$d/bus/event_source/devices/cpu/events/$e"; done
}
mkfix "$TMP/amd" cpu-cycles instructions branches branch-misses
mkfix "$TMP/intel" cpu-cycles instructions branches branch-misses ref-cycles
mkdir -p "$TMP/none/bus/event_source/devices/software"
echo 1 >"$TMP/none/bus/event_source/devices/software/type"

has_hw_pmu && skip "this kernel has a PMU: the fixtures would not match its answers"

# A working PMU (fixture) that lacks the event: the reason says exactly that, no no-hardware-pmu check.
PMCTOOL_SYSFS_ROOT=$TMP/amd run_pmc stat -e task-clock,ref-cycles -- true
expect_rc 0 "an event the PMU lacks"
expect_err "ref-cycles +\(note [0-9]+\)" "ref-cycles is not counted"
expect_err "note [0-9]+: this CPU's PMU does not have this event" "the reason names the missing event, not the PMU"
! grep -q "no-hardware-pmu" "$TMP/err" || fail "a working PMU was reported as no hardware PMU"
ok "a working PMU lacking ref-cycles: 'does not have this event', no no-hardware-pmu check"

# No core PMU at all: the check is there.
PMCTOOL_SYSFS_ROOT=$TMP/none run_pmc stat -e task-clock,cycles -- true
expect_rc 0 "no core PMU"
expect_err "no-hardware-pmu" "no core PMU in sysfs: the check says so"
expect_err "note [0-9]+: no hardware PMU" "and the event's reason too"
ok "no core PMU: no-hardware-pmu"

# The default set follows the PMU: no ref-cycles where the core PMU does not list it (AMD), ref-cycles where it does.
PMCTOOL_SYSFS_ROOT=$TMP/amd run_pmc stat --dry-run
expect_rc 0 "dry run, AMD-like PMU"
! grep -qE '^ +ref-cycles ' "$TMP/out" "$TMP/err" || fail "the default set on an AMD-like PMU holds ref-cycles"
PMCTOOL_SYSFS_ROOT=$TMP/intel run_pmc stat --dry-run
expect_rc 0 "dry run, Intel-like PMU"
grep -qE '^ +ref-cycles ' "$TMP/out" "$TMP/err" || fail "the default set on an Intel-like PMU lacks ref-cycles"
ok "the default set holds ref-cycles only where the PMU lists it"

# A forced PMU decides for itself: AMD Zen 3 has no ref-cycles, not as a default event nor as an anchor, and plans
# with its 6 counters (the 9 events in 5 batches were 4 counters minus a ref-cycles anchor's slot).
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc stat --dry-run -e r0c0,r0c1,r0c2,r0c3,r0c4,r0c5,r0c6,r0c7,r0c8
expect_rc 0 "forced zen3 plan"
! grep -qE '^ +ref-cycles ' "$TMP/out" "$TMP/err" || fail "a forced AMD plan has a ref-cycles anchor"
grep -q "6 core counters" "$TMP/out" "$TMP/err" || { cat "$TMP/out" "$TMP/err"; fail "forced zen3 budget is not 6"; }
ok "forced zen3: no ref-cycles anchor, 6 counters"
LIBPFM_FORCE_PMU=hsw run_pmc stat --dry-run
grep -qE '^ +ref-cycles ' "$TMP/out" "$TMP/err" || fail "a forced Haswell default set lacks ref-cycles"
grep -q "3 fixed counters" "$TMP/out" "$TMP/err" || fail "forced Haswell: 3 fixed counters"
LIBPFM_FORCE_PMU=icx run_pmc stat --dry-run
grep -q "4 fixed counters" "$TMP/out" "$TMP/err" || fail "forced Ice Lake server: 4 fixed counters"
ok "forced Intel PMUs: ref-cycles, and their fixed counters (hsw 3, icx 4)"

# The SMT messages say what they rest on: smt/active (sibling threads running), not a firmware setting.
if [ "$(cat /sys/devices/system/cpu/smt/active 2>/dev/null)" = 0 ]; then
	LIBPFM_FORCE_PMU=hsw run_pmc stat -g smt -- true
	expect_rc 2 "the smt set without a running sibling"
	expect_err "has no running sibling \(smt/active is 0: no sibling thread runs\)" "the message names smt/active"
	ok "the smt set on a machine whose smt/active is 0: the message says so"
fi
