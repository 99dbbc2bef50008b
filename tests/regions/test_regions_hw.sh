#!/usr/bin/env bash
# Regions with a hardware PMU (skipped without one): the program reads its counters in process, user-mode
# instructions per region grow exactly with the trip count (the difference of two trip counts; exact on the arm64
# rig, within 0.1% on x86 where interrupts may add a little), and the empty pair's cost is printed against its target.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
has_hw_pmu || skip "no hardware PMU in sysfs"
run_pmc stat -x, -e instructions:u -- true
grep -q '^[0-9]' "$TMP/err" || skip "instructions:u cannot be counted here: $(head -c 200 "$TMP/err")"

ins() { # ins N: instructions:u of region "body" around N marker calls
	run_pmc stat --json -o - --regions -e instructions:u,cycles:u -- "$RG" trips "$1"
	expect_rc 0 "trips $1"
	q 'int(val("body", "instructions:u"))'
}
i1=$(ins 10000); i2=$(ins 20000); i3=$(ins 30000)
read_method=$(q 'd["regions"]["read"]')
[ "$read_method" = "in process" ] || fail "the program read its counters '$read_method', not in process"
ok "counters read in process"
d1=$((i2 - i1)); d2=$((i3 - i2))
echo "body instructions:u: $i1 $i2 $i3 (differences $d1 $d2 per 10000 calls)"
[ "$d1" -gt 0 ] || fail "instructions did not grow with the trip count"
awk -v a="$d1" -v b="$d2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= a / 1000) }' ||
	fail "per-trip instructions differ: $d1 vs $d2"
ok "instructions per region grow linearly with the trip count ($d1 per 10000 calls)"

RC="$PMC_BUILD_DIR/tests/regions/prog/region_cost"
"$RC" >"$TMP/cost" || fail "region_cost"
cat "$TMP/cost"
python3 - "$TMP/cost" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
if r["events"].startswith("instructions"):
    i, c = r["pair_counts"][0], r["pair_counts"][1]
    print(f"empty pair with 4 counters: {i:.1f} instructions (target < 100), {c:.1f} cycles (target < 200), read {r['read']}")
PY
