#!/usr/bin/env bash
# Replay vectors (issue 27): for every top-down tree a hand-written report (tests/report/fixtures/TREE.json) whose
# events are named their own way (r<code>, eventN) and found by encoding for the report's CPU, run through
# 'pmctool report --json'; each node against the fraction worked out by hand from the published formula (the
# arithmetic is in the comment above each row; the same vectors feed pmc_td_eval in tests/metrics/test_topdown.c).
# Then the mutation guard through the whole path: scaling any one event of a fixture by 1.1 moves some node, so an
# input that a formula drops, or an event found by the wrong encoding, fails here.
source "$PMC_SOURCE_DIR/tests/lib.sh"
fx=$PMC_SOURCE_DIR/tests/report/fixtures

# nodes FILE: "node=value ..." (6 decimals, "n/a" when n/a) of pmctool report --json FILE; the checks' names after '|'.
nodes() {
	"$PMCTOOL" report --json "$1" 2>"$TMP/err" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s=%s" % (n["node"], "n/a" if n["value"] is None else "%.6f" % n["value"]) for n in d["topdown"]["nodes"]),
      "|", " ".join(c["name"] for c in d["checks"]))' || { cat "$TMP/err" >&2; fail "report $1"; }
}

check() { # check TREE EXPECTED
	local got
	got=$(nodes "$fx/$1.json")
	[ "$got" = "$2" ] || fail "$1:
  got      $got
  expected $2"
	n=$((n + 1))
}
n=0

# Skylake per thread: slots = 4 x 1000. FE = 400/4000 = .10; BS = (1300 - 1200 + 4 x 25)/4000 = .05;
# RET = 1200/4000 = .30; BE = 1 - .45 = .55. fetch_latency = 4 x 60/4000 = .06, bandwidth .04;
# mispredicts = 30/40 x .05 = .0375, clears .0125; memory = (500 + 100)/(600 + 100 + .30 x 200 + 100) x .55
# = 600/860 x .55 = .383721, core = .55 - .383721 = .166279; heavy = (1200 + 40 - 1120)/4000 = .03 (uops beyond one per
# instruction: UOPS_RETIRED.MACRO_FUSED 40, INST_RETIRED.ANY 1120), light .27.
check intel-skl "frontend_bound=0.100000 bad_speculation=0.050000 backend_bound=0.550000 retiring=0.300000 fetch_latency=0.060000 fetch_bandwidth=0.040000 branch_mispredicts=0.037500 machine_clears=0.012500 memory_bound=0.383721 core_bound=0.166279 heavy_operations=0.030000 light_operations=0.270000 | "
# Skylake per core (SMT on; CPU_CLK_UNHALTED.THREAD_ANY and INT_MISC.RECOVERY_CYCLES_ANY, AnyThread encodings):
# slots = 4 x 2000/2 = 4000, recovery = 50/2 = 25. FE = 200/4000 = .05; BS = (3300 - 3200 + 100)/4000 = .05;
# RET = .80; BE = .10. latency = 4 x 30/4000 = .03, bandwidth .02; mispredicts = 90/100 x .05 = .045, clears .005;
# memory = 120/(200 + 60 + .8 x 100 + 20) x .10 = .033333, core .066667; heavy = (3200 + 140 - 2700)/4000 = .16,
# light .64.
check intel-skl-smt "frontend_bound=0.050000 bad_speculation=0.050000 backend_bound=0.100000 retiring=0.800000 fetch_latency=0.030000 fetch_bandwidth=0.020000 branch_mispredicts=0.045000 machine_clears=0.005000 memory_bound=0.033333 core_bound=0.066667 heavy_operations=0.160000 light_operations=0.640000 | "
# Sandy Bridge: Skylake's vector without the backend split (no such events before Skylake: n/a, never 0%); heavy
# operations are the microcode sequencer's there: 1200/1300 x 130/4000 = .03 (per core: 3200/3300 x 660/4000 = .16).
check intel-snb "frontend_bound=0.100000 bad_speculation=0.050000 backend_bound=0.550000 retiring=0.300000 fetch_latency=0.060000 fetch_bandwidth=0.040000 branch_mispredicts=0.037500 machine_clears=0.012500 memory_bound=n/a core_bound=n/a heavy_operations=0.030000 light_operations=0.270000 | "
check intel-snb-smt "frontend_bound=0.050000 bad_speculation=0.050000 backend_bound=0.100000 retiring=0.800000 fetch_latency=0.030000 fetch_bandwidth=0.020000 branch_mispredicts=0.045000 machine_clears=0.005000 memory_bound=n/a core_bound=n/a heavy_operations=0.160000 light_operations=0.640000 | "
# Ice Lake raw PERF_METRICS shares, each over their sum 9960: RET = 2988/9960 = .30, BS = 996/9960 = .10,
# FE = 1992/9960 = .20, BE = 3984/9960 = .40.
check intel-icl "frontend_bound=0.200000 bad_speculation=0.100000 backend_bound=0.400000 retiring=0.300000 | "
# Ice Lake corrected TMA: FE = .20 - 300/10000 = .17; BE = .40 + 5 x 100/10000 = .45; RET = .30;
# BS = max(1 - .92, 0) = .08.
check intel-icl-tma "frontend_bound=0.170000 bad_speculation=0.080000 backend_bound=0.450000 retiring=0.300000 | "
# Sapphire Rapids raw, level 2 over the sum 9960: heavy = 498/9960 = .05, light .25; mispredicts = 747/9960 = .075,
# clears .025; fetch_latency = 1494/9960 = .15, bandwidth .05; memory = 2490/9960 = .25, core .15.
check intel-spr "frontend_bound=0.200000 bad_speculation=0.100000 backend_bound=0.400000 retiring=0.300000 fetch_latency=0.150000 fetch_bandwidth=0.050000 branch_mispredicts=0.075000 machine_clears=0.025000 memory_bound=0.250000 core_bound=0.150000 heavy_operations=0.050000 light_operations=0.250000 | "
# Sapphire Rapids corrected TMA: FE = .20 - 200/10000 = .18, BS = max(1 - .88, 0) = .12; latency = .15 - .02 = .13,
# bandwidth = max(.18 - .13, 0) = .05; clears = max(.12 - .075, 0) = .045.
check intel-spr-tma "frontend_bound=0.180000 bad_speculation=0.120000 backend_bound=0.400000 retiring=0.300000 fetch_latency=0.130000 fetch_bandwidth=0.050000 branch_mispredicts=0.075000 machine_clears=0.045000 memory_bound=0.250000 core_bound=0.150000 heavy_operations=0.050000 light_operations=0.250000 | "
# Gracemont, 5 wide (events by perf's names: the tree has no raw codes for them): slots = 5000. FE = 1000/5000 = .20,
# BS = 250/5000 = .05, BE = 1250/5000 = .25, RET = 2500/5000 = .50; latency 600/5000 = .12, bandwidth .08,
# mispredicts 200/5000 = .04, clears 50/5000 = .01.
check intel-atom-grt "frontend_bound=0.200000 bad_speculation=0.050000 backend_bound=0.250000 retiring=0.500000 fetch_latency=0.120000 fetch_bandwidth=0.080000 branch_mispredicts=0.040000 machine_clears=0.010000 | "
# The same counts on Crestmont (6 wide): slots = 6000, the shares are x 5/6 and level 1 sums to 83.3%: a sum warning.
check intel-atom-cmt "frontend_bound=0.166667 bad_speculation=0.041667 backend_bound=0.208333 retiring=0.416667 fetch_latency=0.100000 fetch_bandwidth=0.066667 branch_mispredicts=0.033333 machine_clears=0.008333 | topdown-sum"
# Zen 4, 6 wide: slots = 6000. FE = 600/6000 = .10; BS = (3300 - 3000)/6000 = .05; BE = 1800/6000 = .30;
# SMT = 300/6000 = .05; RET = .50. latency = 6 x 70/6000 = .07, bandwidth .03; mispredicts = 40/50 x .05 = .04,
# restarts .01; memory = 600/800 x .30 = .225, cpu .075; microcode = 300/3000 x .50 = .05, fastpath .45.
check amd-zen4 "frontend_bound=0.100000 bad_speculation=0.050000 backend_bound=0.300000 smt_contention=0.050000 retiring=0.500000 fetch_latency=0.070000 fetch_bandwidth=0.030000 branch_mispredicts=0.040000 pipeline_restarts=0.010000 memory_bound=0.225000 cpu_bound=0.075000 fastpath=0.450000 microcode=0.050000 | "
# Zen 5, 8 wide (raw codes with AMD's layout: libpfm4 4.13 has no Zen 5): slots = 8000. FE = 2400/8000 = .30;
# BS = 800/8000 = .10; BE = 400/8000 = .05; SMT .05; RET .50; latency = 8 x 250/8000 = .25 (cmask 8), bandwidth .05;
# mispredicts = .8 x .10, restarts .02; memory = .75 x .05, cpu .0125; microcode = 400/4000 x .50, fastpath .45.
check amd-zen5 "frontend_bound=0.300000 bad_speculation=0.100000 backend_bound=0.050000 smt_contention=0.050000 retiring=0.500000 fetch_latency=0.250000 fetch_bandwidth=0.050000 branch_mispredicts=0.080000 pipeline_restarts=0.020000 memory_bound=0.037500 cpu_bound=0.012500 fastpath=0.450000 microcode=0.050000 | "
# Neoverse N1, SLOTS_PER_CYCLE 4 (a constant of the report): slots = 4000. FE = 800/4000 = .20; BE = 1200/4000 = .30;
# issued = 1 - 2000/4000 = .50; RET = 1800/2000 x .50 = .45; BS = .10 x .50 = .05.
check arm-neoverse "frontend_bound=0.200000 bad_speculation=0.050000 backend_bound=0.300000 retiring=0.450000 | "
# Neoverse N2, 5 slots, one frontend slot per cycle removed: slots = 5000. FE = (1800 - 1000)/5000 = .16;
# BE = 1000/5000 = .20; issued = 1 - 1800/5000 = .64; RET = .8 x .64 = .512; BS = .2 x .64 = .128.
check arm-neoverse-n2 "frontend_bound=0.160000 bad_speculation=0.128000 backend_bound=0.200000 retiring=0.512000 | "
# Arm cycle accounting: FE stalls = 100/1000 = .10, BE stalls = 600/1000 = .60, issuing = .30.
check arm-cycles "frontend_stalls=0.100000 backend_stalls=0.600000 issuing=0.300000 | "
trees=$( ("$PMCTOOL" stat --topdown-def nosuch -- true 2>&1 || true) | sed -n 's/.*the trees are: //p')
[ "$n" -eq "$(tr ',' '\n' <<<"$trees" | grep -c .)" ] || fail "$n trees have vectors here; pmctool knows: $trees"
ok "$n trees: every node as worked out by hand, inputs found by encoding in hand-written reports"

# The mutation guard through pmctool report: each event of each fixture, scaled by 1.1, moves some node. Exempt: the
# SLOTS group leader of the raw PERF_METRICS trees (perf's shares are over the fields' sum; SLOTS only leads the group).
python3 - "$PMCTOOL" "$fx" "$TMP" <<'PY' || fail "mutation guard"
import glob, json, os, subprocess, sys
pmctool, fx, tmp = sys.argv[1:4]
exempt = {("intel-icl.json", 0), ("intel-spr.json", 0)}

def nodes(path):
    out = subprocess.run([pmctool, "report", "--json", path], capture_output=True, text=True)
    if out.returncode:
        sys.exit("report %s: %s" % (path, out.stderr))
    return [(n["node"], n["value"]) for n in json.loads(out.stdout)["topdown"]["nodes"]]

m = 0
for f in sorted(glob.glob(fx + "/*.json")):
    d = json.load(open(f))
    base = nodes(f)
    for i in range(len(d["events"])):
        if (os.path.basename(f), i) in exempt:
            continue
        e = json.loads(json.dumps(d))
        e["events"][i]["mean"] *= 1.1
        json.dump(e, open(tmp + "/m.json", "w"))
        if nodes(tmp + "/m.json") == base:
            sys.exit("FAIL: %s: event %d (%s) scaled by 1.1 moves no node (a formula ignores it, or it is not found)"
                     % (os.path.basename(f), i, d["events"][i]["name"]))
        m += 1
print("ok: %d events of %d fixtures: each one moves some node of its tree" % (m, len(glob.glob(fx + "/*.json"))))
PY
