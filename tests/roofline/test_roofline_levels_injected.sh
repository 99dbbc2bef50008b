#!/bin/bash
# pmctool roofline's points per cache level and per -I interval (issue 36), from injected counts under the ceilings
# measured here: LIBPFM_FORCE_PMU names Intel's (skl) or AMD Zen 3's events, tests/perf/fake_pmu.so answers them with
# chosen rates (PMC_FAKE_PMU_COUNTS=0xCONFIG=N/s: N a second of counting, so intervals see their share). Each level's
# point has the same FLOPs and its own bytes (lines filled x the line size sysfs gives), so its own intensity, placed
# under its own measured ceiling, the bound naming the level; -I gives those points per interval, in the table, CSV,
# JSON and on the plot. Without a PMU (this machine unforced) every point says why it is not measured, never 0.
. "$PMC_SOURCE_DIR/tests/lib.sh"

FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || skip "no fake PMU ($FAKE)"
sanitized_build && skip "a sanitizer build: the fake PMU is not preloaded into it"
line=$(cat /sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size 2>/dev/null) || skip "no cache line size in sysfs"
export XDG_CACHE_HOME=$TMP/cache
run_pmc roofline --repeats 2 --json # the ceilings, measured here once (cached for the runs below)
expect_rc 0 "measuring the ceilings"

config() { LIBPFM_FORCE_PMU=$1 "$PMCTOOL" encode "$2" | awk '/^  config /{print $2}'; }

# check FILE.json FLOPS_PER_S "L2=BYTES_PER_S L3=... memory=...": every level's point placed where its ceiling was
# measured, intensity = FLOPs / that level's bytes, bound and fraction as the JSON's own one-core ceilings give them.
check() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
flops = float(sys.argv[2])
want = {k: float(v) for k, v in (x.split("=") for x in sys.argv[3].split())}
intervals = sys.argv[4] == "intervals"
roof = {}
for c in d["ceilings"]:
    if c["threads"] == 1 and c["roof"] is not None:
        roof["compute" if c["kind"] == "compute" and c["precision"] == "dp" else c["level"]] = (c["roof"], c["name"])
pts = [p for p in d["points"] if (p["interval"] is not None) == intervals]
assert {p["level"] for p in pts} == set(want), ("one point per level", [p["level"] for p in pts])
for p in pts:
    i = flops / want[p["level"]]
    assert p["bytes_source"], p
    if p["level"] not in roof:
        assert p["intensity"] is None and "no measured" in p["reason"], p
        continue
    # The injected counts grow with time, and the events are read one after another: on a loaded machine a read can
    # come tens of ms after the one before it. The levels' bytes differ 2x and 5x, so these bounds still tell which
    # events a level took while a slow read cannot fail the test.
    tol = 0.4 if intervals else 0.25
    assert abs(p["intensity"] - i) < tol * i, ("intensity is FLOPs over this level's bytes", p, i)
    peak, bw = roof["compute"][0], roof[p["level"]][0]
    i = p["intensity"] # the point's own, for the roof it is under
    bound = p["level"] if bw * i < peak else "compute"
    assert p["bound"] == bound, ("the bound names the level", p, bound)
    assert p["bound_ceiling"] == (roof[p["level"]][1] if bound != "compute" else roof["compute"][1]), p
    att = min(peak, bw * i)
    assert abs(p["attainable"] - att) < 1e-9 * att and abs(p["fraction"] - p["flop_rate"] / att) < 1e-9, p
    assert p["flop_rate"] > 0 and p["reason"] is None, p
if intervals:
    n = sorted({p["interval"] for p in pts})
    assert len(n) >= 2 and n == list(range(1, len(n) + 1)), ("intervals numbered 1..N", n)
    assert all(p["start_s"] is not None and p["seconds"] > 0 for p in pts), pts
print(len(pts), "points")
PY
}

# 1. Intel: FP_ARITH 256-bit DP (4 FLOPs a count), L1D.REPLACEMENT, L2_LINES_IN.ALL, LONGEST_LAT_CACHE.MISS.
I=skl
fp=$(config $I FP_ARITH:256B_PACKED_DOUBLE)
counts="$(config $I FP_ARITH:SCALAR_DOUBLE)=0,$(config $I FP_ARITH:128B_PACKED_DOUBLE)=0,$(config $I FP_ARITH:512B_PACKED_DOUBLE)=0"
counts="$counts,$fp=250000000/s,$(config $I L1D:REPLACEMENT)=10000000/s,$(config $I L2_LINES_IN:ALL)=5000000/s"
counts="$counts,$(config $I LONGEST_LAT_CACHE:MISS)=1000000/s"
inject=(env LIBPFM_FORCE_PMU=$I LD_PRELOAD="$FAKE" PMC_FAKE_PMU_COUNTS="$counts")
# per second of counting: 1e9 FLOPs; bytes 64e7 (L2), 32e7 (L3), 64e6 (memory) with 64-byte lines
scale=$((line))
levels="L2=$((10000000 * scale)) L3=$((5000000 * scale)) memory=$((1000000 * scale))"
"${inject[@]}" "$PMCTOOL" roofline --repeats 2 --json -- "$PMC_WORKLOAD" spin 300 >"$TMP/intel.json" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "Intel: roofline with a command"; }
check "$TMP/intel.json" 1000000000 "$levels" whole >/dev/null || fail "Intel: the per-level points"
ok "Intel (skl): a point per level (L2, L3, memory), each its own intensity under its own ceiling [injected counts]"

"${inject[@]}" "$PMCTOOL" roofline --repeats 2 -I 100 --json -- "$PMC_WORKLOAD" spin 400 >"$TMP/intel-i.json" 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "Intel: roofline -I"; }
check "$TMP/intel-i.json" 1000000000 "$levels" intervals >/dev/null || fail "Intel: the interval points"
check "$TMP/intel-i.json" 1000000000 "$levels" whole >/dev/null || fail "Intel: the whole program's points after -I"
"${inject[@]}" "$PMCTOOL" roofline --repeats 2 -I 100 --csv -- "$PMC_WORKLOAD" spin 250 >"$TMP/intel-i.csv" 2>/dev/null
grep -q '^point,level,interval,start_s,seconds,flops,bytes,flop_rate,bandwidth,intensity,bound,attainable,fraction,note,bytes_source$' \
	"$TMP/intel-i.csv" || fail "-I --csv: the point header"
grep -qE '^interval 2,L3,2,0\.[0-9]+,' "$TMP/intel-i.csv" || { cat "$TMP/intel-i.csv" >&2; fail "-I --csv: interval 2's L3 row"; }
"${inject[@]}" "$PMCTOOL" roofline --repeats 2 -I 100 --plot "$TMP/intel-i.svg" -- "$PMC_WORKLOAD" spin 250 >"$TMP/intel-i.txt" 2>/dev/null
grep -qE "^Point 'interval 1' L2 \(0\.[0-9]+ s from 0 s\)$" "$TMP/intel-i.txt" || fail "-I: the table's interval point"
grep -qE '^  bound +(L2|compute) \((L2 bandwidth|DP peak)\)$' "$TMP/intel-i.txt" || fail "-I: the table's bound"
grep -q 'class="intervals"' "$TMP/intel-i.svg" && grep -q 'data-level="L3"' "$TMP/intel-i.svg" ||
	fail "-I --plot: the intervals' path and the levels' points"
[ -z "${PMC_ROOFLINE_KEEP:-}" ] || cp "$TMP/intel-i.svg" "$PMC_ROOFLINE_KEEP" # to look at it
ok "Intel: -I 100 gives each interval's points per level (JSON, CSV, table, plot), then the whole program's [injected counts]"

# 2. AMD Zen 3: RETIRED_SSE_AVX_FLOPS (1 a count), L1D fills from every source, L2 misses (demand + prefetch), and
# DRAM fills + L2 prefetches that missed L3.
A=amd64_fam19h_zen3
pf=$(config $A L2_PREFETCH_MISS_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER)
counts="$(config $A RETIRED_SSE_AVX_FLOPS:ANY)=800000000/s"
counts="$counts,$(config $A ANY_DATA_CACHE_FILLS_FROM_SYSTEM:LCL_L2:INT_CACHE:EXT_CACHE_LCL:MEM_IO_LCL:EXT_CACHE_RMT:MEM_IO_RMT)=8000000/s"
counts="$counts,$(config $A CORE_TO_L2_CACHEABLE_REQUEST_ACCESS_STATUS:LS_RD_BLK_C)=1000000/s"
counts="$counts,$(config $A L2_PREFETCH_HIT_L3:L2_HW_PREFETCHER:L1_HW_PREFETCHER)=2000000/s,$pf=500000/s"
counts="$counts,$(config $A ANY_DATA_CACHE_FILLS_FROM_SYSTEM:MEM_IO_LCL:MEM_IO_RMT)=300000/s"
levels="L2=$((8000000 * scale)) L3=$((3500000 * scale)) memory=$((800000 * scale))"
env LIBPFM_FORCE_PMU=$A LD_PRELOAD="$FAKE" PMC_FAKE_PMU_COUNTS="$counts" "$PMCTOOL" roofline --repeats 2 -I 100 --json -- \
	"$PMC_WORKLOAD" spin 300 >"$TMP/amd.json" 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "AMD: roofline -I"; }
check "$TMP/amd.json" 800000000 "$levels" whole >/dev/null || fail "AMD: the per-level points"
check "$TMP/amd.json" 800000000 "$levels" intervals >/dev/null || fail "AMD: the interval points"
ok "AMD Zen 3: the same per level and per interval, an event counted at two levels summed at each [injected counts]"

# 3. This machine as it is: nothing invented where no event counts.
run_pmc roofline -I 100 --json -- "$PMC_WORKLOAD" spin 250
expect_rc 0 "roofline -I here"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["points"] and any(p["interval"] for p in d["points"]), d["points"]
for p in d["points"]:
    assert (p["flops"] is None) == (p["flops_reason"] is not None), p
    assert (p["bytes"] is None) == (p["bytes_reason"] is not None), p
    assert (p["intensity"] is None) == (p["reason"] is not None), p
    assert p["flops"] is not None or p["flops_reason"], p' "$TMP/out" || fail "points here: a value or its reason"
ok "here: each point's FLOPs, bytes and intensity are a value or 'not measured' with the reason"

# 4. Bad input.
run_pmc roofline -I 5 -- true
expect_rc 2 "-I 5"
expect_err "-I '5': give the interval in milliseconds, 10 to 3600000" "-I's range"
run_pmc roofline -I 1x -- true
expect_rc 2 "-I 1x"
run_pmc roofline -I 100
expect_rc 2 "-I without a command"
expect_err "needs a COMMAND" "-I without a command: said"
run_pmc roofline -I 100 --regions -- true
expect_rc 2 "-I with --regions"
expect_err "give one" "-I with --regions: said"
ok "bad -I: exit 2 with what to do"
