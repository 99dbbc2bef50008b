#!/bin/bash
# The mem, l3, energy and flops_mem sets: on the fixture sysfs trees (Intel SKX imc + power, AMD Zen amd_df + power,
# Arm CMN) the variant that needs the kernel's PMU is chosen and its events are opened system-wide (failing with the
# kernel's own answer, the fixture's PMUs not being in this kernel: n/a, never a number); on this machine, whose
# kernel has no such PMU, each set says why there is nothing to count.
. "$PMC_SOURCE_DIR/tests/lib.sh"

# stat writes its report to stderr (as perf): look at both.
run_stat() { run_pmc "$@"; cat "$TMP/err" >>"$TMP/out"; }

for s in mem l3 energy flops_mem; do
	run_pmc sets "$s"
	expect_rc 0 "sets $s"
	expect_out '^provenance:' "$s has provenance"
done
ok "the sets parse and show"

if ! ls /sys/bus/event_source/devices | grep -qx power; then
	run_pmc stat -g energy -- true
	expect_err "event set 'energy' has nothing to count on this CPU \(variant 'other'\)" "energy: nothing to count"
	expect_err 'the kernel has no power PMU here' "energy: why"
	ok "energy: not on this machine, said"
fi
if ! ls /sys/bus/event_source/devices | grep -qx uncore_imc_5; then
	run_pmc stat -g mem -- true
	expect_err "event set 'mem' has nothing to count" "mem: nothing to count"
	run_pmc stat -g flops_mem -- true
	expect_err "event set 'flops_mem' has nothing to count" "flops_mem: nothing to count"
	ok "mem, flops_mem: not on this machine, said"
fi

export PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-skx
LIBPFM_FORCE_PMU=skx run_stat stat -a -g energy -- true
expect_out 'power/energy-pkg/' "SKX fixture: energy-pkg counted"
expect_out 'power/energy-ram/' "SKX fixture: energy-ram counted"
expect_out 'n/a W +Power_pkg' "Watts n/a where the event did not count"
grep -qE '^ +[0-9.]+ +J ' "$TMP/out" && fail "a number of Joules from a PMU this kernel does not have"
LIBPFM_FORCE_PMU=skx run_stat stat -a -g mem -- true
expect_out 'uncore_imc_5/cas_count_write/' "SKX fixture: every imc box"
expect_out 'n/a B/s +Mem_bw' "bandwidth n/a where the events did not count"
ok "SKX fixture: energy and mem variants chosen, n/a with the reason"

export PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-zen
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_stat stat -a -g energy -- true
expect_out 'power/energy-pkg/' "Zen fixture: energy-pkg"
grep -q 'energy-ram' "$TMP/out" && fail "Zen fixture: AMD has no energy-ram"
LIBPFM_FORCE_PMU=amd64_fam19h_zen3 run_pmc stat -a -g mem -- true
expect_err "nothing to count" "Zen fixture: mem says why"
expect_err "amd_df has no aliases" "Zen fixture: the amd_df reason"
ok "Zen fixture: energy-pkg only; mem not yet, said"
