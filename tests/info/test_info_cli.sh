#!/bin/bash
# pmctool info: verdict and exit status match a real perf_event_open probe; --json parses and has its fields.
. "$PMC_SOURCE_DIR/tests/lib.sh"

run_pmc info
if has_hw_pmu; then
	[ "$RC" -eq 0 ] || [ "$RC" -eq 10 ] || fail "info with a kernel PMU: exit $RC, expected 0 or 10"
	expect_out '^hardware counting: (available|degraded)' "verdict with a PMU"
	ok "kernel PMU present: verdict $(grep '^hardware counting' "$TMP/out" | cut -c1-60)"
else
	expect_rc 11 "info without a kernel PMU"
	expect_out '^hardware counting: not available: the kernel has no driver' "verdict names the cause"
	expect_out 'software events and msr/tsc/ still count, and breakpoints where this machine.s debug registers fire' \
		"verdict says what still works, and breakpoints only where they fire (info does not probe them)"
	expect_out 'perf_event_open\(instructions, user only, self\): ENOENT' "probe errno shown"
	ok "no kernel PMU: not available, exit 11, probe ENOENT"
fi
expect_out '^TSC' "TSC section"
expect_out 'GHz \(source: (cpuid-0x15|perf-mmap|kernel-tsc-known-freq|cpuinfo-model-name|calibration)\)' "TSC rate with its source"
expect_out 'perf_event_paranoid' "paranoid shown"
status=$RC

run_pmc info --json
expect_rc "$status" "info --json exits like info"
python3 - "$TMP/out" "$status" <<'PY' || fail "info --json: fields missing or wrong"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("cpu", "cpuid_arch_perfmon", "amd_perfmon", "libpfm4", "kernel_pmus", "core_pmu", "rdpmc", "permissions",
          "nmi_watchdog", "smt", "tsc", "counters", "probe", "verdict"):
    assert k in d, k
assert d["verdict"]["exit_status"] == int(sys.argv[2])
assert d["verdict"]["status"] in ("available", "degraded", "not available")
assert isinstance(d["counters"]["reasoning"], list) and d["counters"]["reasoning"]
assert d["tsc"]["hz"] is None or d["tsc"]["hz"] > 1e8
assert any(p["name"] == "software" for p in d["kernel_pmus"])
assert d["cpu"]["vendor"]
if d["core_pmu"] is None:
    assert d["verdict"]["status"] == "not available" and d["counters"]["gp_available"] is None
PY
python3 -m json.tool "$TMP/out" >/dev/null || fail "json.tool rejects info --json"
ok "info --json parses, has the fields, exit $status"

run_pmc info --bogus
expect_rc 2 "unknown option"
expect_err "unknown argument '--bogus'" "unknown option named"
run_pmc info --help
expect_rc 0 "--help"
expect_out 'Exit status: 0 .*10 degraded' "exit statuses documented in --help"
ok "info usage errors and --help"

# A closed pipe ends quietly.
set +e
"$PMCTOOL" info --json 2>"$TMP/err" | head -c1 >/dev/null
set -e
[ ! -s "$TMP/err" ] || { cat "$TMP/err"; fail "closed pipe printed an error"; }
if [ -w /dev/full ]; then
	"$PMCTOOL" info --json >/dev/full 2>"$TMP/err" && rc=0 || rc=$?
	[ "$rc" -eq 4 ] || fail "write error to /dev/full: exit $rc, expected 4"
	grep -q "cannot write" "$TMP/err" || fail "write error not reported"
	ok "write error exits 4 with a message"
fi
