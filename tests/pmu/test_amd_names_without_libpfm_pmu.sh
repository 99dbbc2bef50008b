#!/usr/bin/env bash
# Issue 33 item 7: where libpfm4 has no table for this CPU (4.13 on Zen 5, family 0x1A), the arch seam knows the CPU by
# its CPUID family and model: perf's AMD names and raw encodings with the 12-bit event field still resolve, and a
# -M metric whose events no one names is said once for all such metrics. libpfm4's table is taken away by forcing its
# generic 'perf' PMU (no core table); the CPU stays this host's, so the AMD rows run on an AMD host only (a Zen 5 host
# runs exactly the Zen 5 path; the family/model rows of every Zen are test_amd_zen_injected's).
source "$PMC_SOURCE_DIR/tests/lib.sh"

export LIBPFM_FORCE_PMU=perf
unset PMCTOOL_TABLES PMCTOOL_CPUID
T=$PMC_SOURCE_DIR/tests/metrics/tables/pmu-events

run_pmc info
expect_out "core PMU +none" "LIBPFM_FORCE_PMU=perf leaves libpfm4 without a core table"

vendor=$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)
family=$(awk -F': ' '/^cpu family/ { print $2; exit }' /proc/cpuinfo)
if [ "$vendor" = AuthenticAMD ] && [ "${family:-0}" -ge 23 ]; then
	for row in ex_ret_instr=0xc0 ls_not_halted_cyc=0x76 ex_ret_brn=0xc2 "cpu/event=0x1a0,umask=0x1e/=0x100001ea0" \
		r100001ea0=0x100001ea0; do
		run_pmc encode "${row%=*}"
		expect_rc 0 "encode ${row%=*} without a libpfm4 table"
		expect_out "config +${row##*=}\$" "encode ${row%=*}: the arch layer's encoding"
	done
	run_pmc stat -e ex_ret_instr,ls_not_halted_cyc --dry-run -- true
	expect_rc 0 "stat -e perf's AMD names without a libpfm4 table"
	ok "AMD family $family: perf's AMD names and the 12-bit event field from the arch layer, no libpfm4 table"
else
	run_pmc encode ex_ret_instr
	expect_rc 2 "encode ex_ret_instr on a $vendor CPU"
	ok "not an AMD Zen ($vendor family $family): AMD's names are not guessed for it"
fi

# -M: metrics whose events neither libpfm4 nor the tables name: one note for all, not one per metric.
PMCTOOL_CPUID=AuthenticAMD-25-11-1 run_pmc stat --tables "$T" -M FakeUnnamed --dry-run -- true
[ "$(grep -c 'neither libpfm4 (it has no table for this CPU) nor the vendor tables name' "$TMP/err")" = 1 ] ||
	{ cat "$TMP/err"; fail "-M FakeUnnamed: not exactly one note for the events no one names"; }
expect_err "metrics are left out \((.*, )?fakezen_unnamed_a, fakezen_unnamed_b" "-M FakeUnnamed: the metrics named once"
expect_err "name their events (.*, )?ls_fixture_unnamed_a, ls_fixture_unnamed_b" "-M FakeUnnamed: the events named once"
grep -q "unknown event 'ls_fixture_unnamed" "$TMP/err" && { cat "$TMP/err"; fail "-M FakeUnnamed: a note per metric"; }
ok "-M: metrics whose events no one names here are said once"
