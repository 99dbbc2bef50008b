#!/bin/bash
# pmctool check covers uncore and energy (issue 36): here (no non-core PMU) both items say unavailable and why; on
# the SKX fixture with its PMU types answered by the injected PMU (fake_pmu.so) both open system-wide on the
# cpumask CPU; on the fixture without the injection the kernel's refusal is given. Never changes the overall verdict.
. "$PMC_SOURCE_DIR/tests/lib.sh"

item() { # FILE NAME -> "verdict|detail"
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
it = [i for i in d["items"] if i["name"] == sys.argv[2]]
print(it[0]["verdict"] + "|" + it[0]["detail"] if it else "missing")' "$1" "$2"
}

. "$PMC_SOURCE_DIR/tests/pmu/uncore_fixture.sh"

# The real machine: whatever it has, each item is there with a reason or the CPU it opened on.
"$PMCTOOL" check --json >"$TMP/here.json" 2>"$TMP/err" || [ $? -ge 10 ] || { cat "$TMP/err" >&2; fail "check failed"; }
for n in uncore energy; do
	v=$(item "$TMP/here.json" $n)
	case "$v" in
	unavailable\|*"exposes no"*|unavailable\|*refused*|trustworthy\|*"opens system-wide on CPU"*) ;;
	*) fail "check's $n item: '$v'" ;;
	esac
done
ok "check has the uncore and energy items here, each with its reason"

# The fixture with no injection: the PMUs are listed but this kernel has no such types.
PMCTOOL_SYSFS_ROOT=$fx "$PMCTOOL" check --json >"$TMP/fx.json" 2>"$TMP/err" || [ $? -ge 10 ] ||
	{ cat "$TMP/err" >&2; fail "check on the fixture failed"; }
v=$(item "$TMP/fx.json" uncore)
case "$v" in unavailable\|"uncore_imc (6 boxes) is here, but uncore_imc_0/cas_count_read/ on CPU $first: "*) ;;
*) fail "fixture, no injection: uncore item '$v'" ;; esac
v=$(item "$TMP/fx.json" energy)
case "$v" in unavailable\|"power (1 box) is here, but power/energy-pkg/ on CPU $first: "*) ;;
*) fail "fixture, no injection: energy item '$v'" ;; esac
ok "fixture PMUs the kernel lacks: unavailable with the kernel's refusal"

FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || skip "no fake PMU ($FAKE)"
types=$(cat "$fx"/bus/event_source/devices/{uncore_imc_*,power}/type | paste -sd,)
env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_TYPES="$types" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
	PMCTOOL_SYSFS_ROOT=$fx "$PMCTOOL" check --json >"$TMP/inj.json" 2>"$TMP/err" || [ $? -ge 10 ] ||
	{ cat "$TMP/err" >&2; fail "check with the injected PMU failed"; }
for n in uncore energy; do
	v=$(item "$TMP/inj.json" $n)
	case "$v" in trustworthy\|*"opens system-wide on CPU $first"*) ;;
	*) fail "injected PMU: $n item '$v'" ;; esac
done
ok "uncore and energy open system-wide on the cpumask CPU when the PMU answers [injected PMU]"
