#!/bin/bash
# pmctool roofline: ceilings measured for real (no PMU needed) and cached per machine, --refresh, the formats, the
# plot, a command's point (placed where the machine counts FLOPs and memory bytes, else n/a with the reason), and
# the errors for bad options, a bad plot path and a damaged cache.
. "$PMC_SOURCE_DIR/tests/lib.sh"

export XDG_CACHE_HOME=$TMP/cache

run_pmc roofline --repeats 1
expect_rc 0 "first run"
expect_out '^Ceilings \(measured ' "measured the first time"
expect_err 'measuring the ceilings of this machine' "says it measures"
expect_out 'DP peak +1 core +[0-9.]+ [kMGT]?FLOP/s' "one-core DP peak"
expect_out 'memory bandwidth +[0-9]+ cores? +[0-9.]+ [kMGT]?B/s' "memory bandwidth"
expect_out 'stream mode=triad footprint=' "the kernel each was measured with"
f=$(ls "$XDG_CACHE_HOME"/pmctool/roofline-* 2>/dev/null | head -n 1)
[ -f "$f" ] || fail "no cache file under $XDG_CACHE_HOME/pmctool"
[ "$(stat -c %a "$XDG_CACHE_HOME/pmctool")" = 700 ] || fail "cache directory not 0700"
ok "measured and cached in $f"

run_pmc roofline
expect_rc 0 "second run"
expect_out '^Ceilings \(cached, measured ' "the cached ceilings the second time"
grep -q measuring "$TMP/err" && fail "measured again although cached"
ok "cached"

run_pmc roofline --refresh --repeats 1
expect_rc 0 "--refresh"
expect_out '^Ceilings \(measured ' "--refresh measures again"
ok "--refresh"

run_pmc roofline --json
expect_rc 0 "--json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["cached"] is True; assert len(d["ceilings"]) == 12; \
assert all(c["roof"] is None or c["min"] <= c["median"] <= c["max"] == c["roof"] for c in d["ceilings"])' "$TMP/out" ||
	fail "--json: not the ceilings as JSON"
run_pmc roofline --csv
expect_rc 0 "--csv"
expect_out '^record,name,scope_threads,roof,median,min,max,repeats,unit,kernel,note$' "CSV header"
[ "$(grep -c '^ceiling,' "$TMP/out")" = 12 ] || fail "CSV: not 12 ceilings"
ok "JSON and CSV"

run_pmc roofline --plot "$TMP/roof.svg"
expect_rc 0 "--plot"
grep -q '</svg>' "$TMP/roof.svg" || fail "--plot: no whole SVG"
grep -q 'DP peak: ' "$TMP/roof.svg" || fail "--plot: no DP peak in the legend"
ok "--plot"

# A command's point: FLOPs need the vendor's FP events, bytes a memory-controller PMU; without them the point is n/a
# with the reason, never a number.
run_pmc roofline -- "$PMC_WORKLOAD" spin 200
expect_rc 0 "a command"
expect_out "^Point 'program'" "the program's point"
if grep -q 'FLOP rate +n/a' "$TMP/out"; then
	expect_out 'not measured: .+' "the reason FLOPs are not measured"
fi
if ! ls /sys/bus/event_source/devices | grep -qE '^(uncore_imc|amd_df|arm_cmn)'; then
	expect_out 'bandwidth +n/a' "no bytes without a memory-controller PMU"
	# memory's bytes then come from the core's last-level misses where the PMU names them, else nowhere: said
	expect_out '(no memory-controller PMU|bytes from +memory: .+)' "where memory's bytes would come from"
	expect_out 'intensity +n/a' "no intensity without bytes"
fi
run_pmc roofline --json -- "$PMC_WORKLOAD" spin 100
expect_rc 0 "--json with a command"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["points"][0]; assert p["label"] == "program"; \
assert p["seconds"] > 0; assert (p["intensity"] is None) == (p["reason"] is not None)' "$TMP/out" ||
	fail "--json: the point"
ok "the program's point"

run_pmc roofline -- false
expect_rc 1 "the command's own failure status"
ok "the command's status"

# Bad input.
run_pmc roofline --repeats 0
expect_rc 2 "--repeats 0"
expect_err "--repeats '0': give a whole number from 1 to 100" "--repeats message"
run_pmc roofline --repeats 1x
expect_rc 2 "--repeats 1x"
run_pmc roofline --csv --json
expect_rc 2 "two formats"
run_pmc roofline --regions
expect_rc 2 "--regions without a command"
expect_err 'needs a COMMAND' "--regions message"
run_pmc roofline --plot "$TMP/no/such/dir/roof.svg"
expect_rc 4 "--plot into a missing directory"
expect_err "--plot '$TMP/no/such/dir/roof.svg'" "names the plot path"
ok "bad options"

# A damaged cache file is said and measured again, never trusted.
printf '# pmctool roofline ceilings v1\nfingerprint\tzz\n' >"$f"
run_pmc roofline --repeats 1
expect_rc 0 "damaged cache"
expect_err 'malformed ceilings at line 2 .*measuring again' "the damage said"
expect_out '^Ceilings \(measured ' "measured again"
ok "damaged cache"

# Non-core PMUs on fixture sysfs trees (the kernel's shape; no such PMU exists on this machine's kernel, so counting
# them fails with the kernel's own answer): info merges the boxes, names the cpumask and the scale; the roofline
# counts the memory bytes in a second run, system-wide on the cpumask CPUs, and says so.
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-skx run_pmc info
expect_out '^Non-core PMUs' "info: a non-core section"
expect_out '^  uncore_imc +memory controller: 6 boxes \(uncore_imc_0\.\.uncore_imc_5\), types 20-25, cpumask 0,28$' \
	"info: the imc boxes merged, cpumask"
expect_out 'cas_count_read +event=0x04,umask=0x03 +\(x 6\.103515625e-05 MiB = 64 bytes a count\)' "info: scale, unit"
expect_out 'energy-pkg +event=0x02 +\(x 2\.32830643[0-9]*e-10 Joules\)' "info: energy in Joules"
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-zen run_pmc info
expect_out '^  amd_l3 +cache: type 12, cpumask 0,8,64,72$' "info: amd_l3"
expect_out '^  amd_df +interconnect: type 11, cpumask 0,64$' "info: amd_df"
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-cmn run_pmc info
expect_out '^  arm_cmn +interconnect: type 14, cpumask 0$' "info: arm_cmn"
ok "info: non-core PMUs on the SKX, Zen and CMN fixtures"

PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-skx run_pmc roofline --repeats 1 -- true
expect_rc 0 "roofline on the SKX fixture"
expect_err 'a second run for the memory bytes: uncore_imc counts the whole socket while the command runs \(uncore: system-wide on CPUs 0,28\)' \
	"the uncore scope said before it runs"
expect_out 'bandwidth +n/a' "no bytes: the fixture's PMU is not in this kernel"
expect_out 'not measured: .*uncore_imc_0/cas_count_read/' "the event named with the kernel's reason"
PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-zen run_pmc roofline --repeats 1 -- true
expect_out '(not measured: amd_df has no DRAM byte aliases|bytes from +memory: .+)' "Zen: why no bytes, or the core's source"
ok "roofline: memory bytes from the fixtures' memory controllers, or why not"

# --regions: a point per libpmctool region (its seconds from task-clock), then the whole program's.
unset PMCTOOL_SYSFS_ROOT
prog=$PMC_BUILD_DIR/tests/regions/prog/rg-prog
[ -x "$prog" ] || fail "no region test program: $prog"
run_pmc roofline --regions --json -- "$prog" basic
expect_rc 0 "--regions"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); l=[p["label"] for p in d["points"]]; \
assert l[-1] == "whole program" and {"outer", "inner", "b-only"} <= set(l), l; \
assert all(p["seconds"] > 0 for p in d["points"]), d["points"]' "$TMP/out" || fail "--regions: the points"
ok "--regions: a point per region"
