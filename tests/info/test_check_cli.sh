#!/bin/bash
# pmctool check as users run it: its verdict and exit status follow what this machine has (no PMU here: unavailable,
# exit 11, the emulated path offered when valgrind is installed); --json parses; stat --check puts the verdict into the
# report. The verdicts of a machine with counters are the rig's (t12_check) and the injected fake PMU's (test_check).
. "$PMC_SOURCE_DIR/tests/lib.sh"

run_pmc check
if has_hw_pmu; then
	case $RC in 0 | 10) ;; *) cat "$TMP/out" "$TMP/err" >&2; fail "check with a kernel PMU: exit $RC, expected 0 or 10" ;; esac
	expect_out '^  (trustworthy|degraded) +exact counts' "the exact item was measured"
	ok "kernel PMU present: $(grep '^overall' "$TMP/out" | cut -c1-80)"
else
	expect_rc 11 "check without a kernel PMU"
	expect_out '^  unavailable +hardware counters' "the PMU item"
	expect_out 'the kernel has no driver for this CPU' "the reason"
	expect_out '^overall: unavailable: no hardware counting here' "the overall verdict"
	if command -v valgrind >/dev/null; then
		expect_out 'pmctool stat --emulate' "valgrind installed: the emulated path offered"
	else
		expect_out 'no emulator \(valgrind\) is installed' "no valgrind: said so"
	fi
	ok "no kernel PMU: unavailable, exit 11, the reason and the way to count instructions anyway"
fi
status=$RC

run_pmc check --json
expect_rc "$status" "check --json exits like check"
python3 - "$TMP/out" "$status" <<'PY' || fail "check --json: fields missing or wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "check" and d["schema_version"] == 1
names = [i["name"] for i in d["items"]]
assert "pmu" in names, names
for i in d["items"]:
    assert i["verdict"] in ("trustworthy", "degraded", "unavailable"), i
    assert i["detail"], i
assert d["overall"]["exit_status"] == int(sys.argv[2]), d["overall"]
assert d["overall"]["verdict"] == {0: "trustworthy", 10: "degraded", 11: "unavailable"}[int(sys.argv[2])]
PY
ok "check --json: kind check, items with verdicts and details, overall exit status $status"

run_pmc check --bogus
expect_rc 2 "unknown option"
expect_err "unknown argument '--bogus'" "names the option"
run_pmc check extra
expect_rc 2 "an operand"

# stat --check: the quick verdict on stderr first, then the same in the report's checks.
run_pmc stat --check -e task-clock -x, -- true
expect_rc 0 "stat --check -e task-clock"
expect_err '^pmctool: check: (trustworthy|degraded|unavailable): ' "the verdict on stderr"
expect_err 'trust.*pmctool check --quick before measuring' "the report's trust check"
run_pmc stat --check -q -e task-clock -- true
expect_rc 0 "stat --check -q"
[ ! -s "$TMP/err" ] || { cat "$TMP/err" >&2; fail "stat --check -q printed"; }
ok "stat --check: verdict before the measurement and in the report; -q silences both"
