#!/bin/bash
# The vendor tables' uncore events and bandwidth metrics (issue 36 item 2), with perf 6.1 as the oracle
# (REFERENCE.md section 12) on an injected PMU: the SKX fixture's six uncore_imc boxes (tests/pmu/uncore_fixture.sh)
# answered by tests/perf/fake_pmu.so, every box reading N. A table of this test's own (perf's pmu-events layout, a
# Skylake-SP mapfile row; PMCTOOL_CPUID picks it) names the memory controller's CAS counts as perf's skylakex tables
# do (Unit iMC, event 0x4, umask 0x3 / 0xc) and a DRAM bandwidth metric in perf's language over the family's sysfs
# aliases (uncore_imc@cas_count_read@) and duration_time; perf runs with its own skylakex tables (PERF_CPUID).
# - a table uncore name opens what perf opens for it: once per box, on the cpumask CPU, the family's encoding;
# - -M DRAM_BW_Use evaluates: CAS counts as counted (not the aliases' .scale) x 64 bytes over duration_time in
#   seconds, as perf 6.1 evaluates its own DRAM_BW_Use on the same counts (both runs' bytes = value x time);
# - a metric over the table's names (UNC_M_CAS_COUNT.RD) evaluates on the same merged rows.
# Skipped without perf, without a private mount namespace (not root), or without the fake.
. "$PMC_SOURCE_DIR/tests/lib.sh"

. "$PMC_SOURCE_DIR/tests/pmu/perf_oracle_needs.sh"

. "$PMC_SOURCE_DIR/tests/pmu/uncore_fixture.sh"
for p in software tracepoint breakpoint; do
	[ -d /sys/bus/event_source/devices/$p ] && cp -rL /sys/bus/event_source/devices/$p "$fx/bus/event_source/devices/" 2>/dev/null || true
done
N=1000000
types=$(cat "$fx"/bus/event_source/devices/{uncore_imc_*,power}/type | paste -sd,)
inject=(env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_TYPES="$types" PMC_FAKE_PMU_COUNT=$N)
SKX=GenuineIntel-6-55-4

t=$TMP/tables/pmu-events/arch/x86
mkdir -p "$t/fakeskx"
printf 'Family-model,Version,Filename,EventType\nGenuineIntel-6-55-[01234],v1,fakeskx,core\n' >"$t/mapfile.csv"
cat >"$t/fakeskx/uncore-memory.json" <<'J'
[
  { "EventName": "UNC_M_CAS_COUNT.RD", "EventCode": "0x04", "UMask": "0x03", "Unit": "iMC", "PerPkg": "1",
    "BriefDescription": "Fixture: read CAS commands" },
  { "EventName": "UNC_M_CAS_COUNT.WR", "EventCode": "0x04", "UMask": "0x0C", "Unit": "iMC", "PerPkg": "1",
    "BriefDescription": "Fixture: write CAS commands" },
  { "EventName": "UNC_M_FAKE_FILTERED", "EventCode": "0x05", "UMask": "0x01", "PortMask": "0x02", "Unit": "iMC",
    "BriefDescription": "Fixture: a field pmctool does not spell as a term (left out, counted)" }
]
J
cat >"$t/fakeskx/metrics.json" <<'J'
[
  { "MetricName": "DRAM_BW_Use", "MetricGroup": "Memory_BW",
    "MetricExpr": "64 * (uncore_imc@cas_count_read@ + uncore_imc@cas_count_write@) / 1e9 / duration_time",
    "BriefDescription": "Fixture: DRAM bandwidth in GB/s" },
  { "MetricName": "DRAM_Read_BW", "MetricGroup": "Memory_BW",
    "MetricExpr": "64 * UNC_M_CAS_COUNT.RD / 1e9 / duration_time",
    "BriefDescription": "Fixture: DRAM read bandwidth in GB/s, over the table's own names" }
]
J
pmc=(env PMCTOOL_CPUID=$SKX PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat --tables "$TMP/tables/pmu-events")

PMCTOOL_CPUID=$SKX "$PMCTOOL" tables --tables "$TMP/tables/pmu-events" >"$TMP/tables.txt" 2>&1 || true
grep -q 'uncore-memory.json: 2 events, 0 metrics, 1 uncore events left out' "$TMP/tables.txt" ||
	{ cat "$TMP/tables.txt" >&2; fail "tables: the two CAS events not loaded, or the filtered one not counted as left out"; }
ok "tables: a table's uncore events load as their family's terms; one with a field not spelt as a term is left out and counted"

# 1. What is opened for a table's uncore name: perf's opens (its skylakex tables) and pmctool's (this table).
perf_opens() {
	"${inject[@]}" PERF_CPUID=$SKX unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' /sys/bus/event_source/devices &&
		perf stat -vv -a -e '$1' true" 2>&1 |
		awk '/^  type /{t=$2} /^  config /{c=$2} /sys_perf_event_open: /{print t, c, "pid=" $3, "cpu=" $5, "flags=" $9}' | sort
}
perf_opens unc_m_cas_count.rd >"$TMP/perf"
"${inject[@]}" "${pmc[@]}" -v -a -e UNC_M_CAS_COUNT.RD -- true 2>&1 |
	sed -n 's/^perf_event_open(type=\([0-9]*\) config=\([0-9a-fx]*\) .*, pid=\(-*[0-9]*\), cpu=\([0-9]*\), group_fd=\(-*[0-9]*\), flags=\([0-9a-fx]*\)).*/\1 \2 pid=\3 cpu=\4 flags=\6/p' |
	sort >"$TMP/pmc"
[ "$(wc -l <"$TMP/perf")" -eq 6 ] || { cat "$TMP/perf" >&2; fail "perf: not 6 opens for unc_m_cas_count.rd (its skylakex tables?)"; }
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool's opens for the table's UNC_M_CAS_COUNT.RD differ from perf's for unc_m_cas_count.rd (- perf, + pmctool)"
ok "UNC_M_CAS_COUNT.RD from a table: the same 6 opens as perf 6.1's unc_m_cas_count.rd (each box, cpumask CPU, config 0x304) [injected PMU]"

# 2. perf's own DRAM_BW_Use on N a box: bytes = value (GB/s) x duration_time must be 64 x 2 x 6 N.
"${inject[@]}" PERF_CPUID=$SKX unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' /sys/bus/event_source/devices &&
	perf stat -x, -a -M DRAM_BW_Use sleep 0.1" >"$TMP/perf.csv" 2>&1
python3 - "$TMP/perf.csv" $N <<'PY' || { cat "$TMP/perf.csv" >&2; fail "perf's DRAM_BW_Use is not 64-byte CAS counts over duration_time in seconds"; }
import sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.count(",") >= 5]
v = next(float(r[5]) for r in rows if len(r) > 6 and r[6] == "DRAM_BW_Use")
ns = next(float(r[0]) for r in rows if r[2] == "duration_time")
want = 64 * 2 * 6 * int(sys.argv[2]) / 1e9
assert abs(v * ns / 1e9 - want) / want < 0.01, (v, ns, want)
PY
ok "perf 6.1's DRAM_BW_Use x duration_time = 64 B x the 12 N CAS counts: raw counts, not the aliases' MiB [injected counts]"

# 3. pmctool's DRAM_BW_Use and DRAM_Read_BW from this table on the same counts: the same definition.
"${inject[@]}" "${pmc[@]}" -a -M DRAM_BW_Use,DRAM_Read_BW --json -o "$TMP/pmc.json" -- sleep 0.1 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "pmctool stat -M DRAM_BW_Use failed"; }
python3 - "$TMP/pmc.json" $N <<'PY' || fail "pmctool's DRAM bandwidth metrics differ from perf's definition"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
m = {x["name"]: x for x in d["metrics"]}
ev = {e["name"]: e["mean"] for e in d["events"]}
assert ev.get("UNC_M_CAS_COUNT.RD") == 6 * n, ("the table's name: one row of the six boxes", ev)
assert m["DRAM_BW_Use"]["value"] is not None and m["DRAM_Read_BW"]["value"] is not None, m
# the same time under both: DRAM_BW_Use counts reads and writes, DRAM_Read_BW reads alone
assert abs(m["DRAM_BW_Use"]["value"] / m["DRAM_Read_BW"]["value"] - 2) < 1e-9, m
# and the bytes over the counting time the alias rate metric uses: 64 x 6N over GB/s = seconds of counting
rate = next(x["value"] for x in d["metrics"] if x["name"] == "cas_count_read per second")  # MiB/s of the 6 boxes
secs = 6 * n * 64 / 2**20 / rate
assert abs(m["DRAM_Read_BW"]["value"] * secs - 64 * 6 * n / 1e9) < 1e-6 * 64 * 6 * n / 1e9, (m, secs)
PY
ok "pmctool -M DRAM_BW_Use and a metric over the table's UNC_M_CAS_COUNT.RD: 64 B x raw CAS counts over duration_time, as perf [injected counts]"

# 4. encode names them too: the first box's encoding, the family's spelling as the canonical name.
PMCTOOL_CPUID=$SKX PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" encode --tables "$TMP/tables/pmu-events" UNC_M_CAS_COUNT.WR \
	uncore_imc/cas_count_read/ >"$TMP/enc" 2>&1 || { cat "$TMP/enc" >&2; fail "encode of uncore names failed"; }
grep -q '^  canonical  uncore_imc/event=0x4,umask=0xc/$' "$TMP/enc" && grep -q '^  config     0xc04$' "$TMP/enc" &&
	grep -q '^  canonical  uncore_imc/cas_count_read/$' "$TMP/enc" || { cat "$TMP/enc" >&2; fail "encode: not the family's encoding"; }
ok "encode: a table's uncore name and a family spelling give the family's encoding"

# 5. AMD: the Zen fixture's data fabric (amd_df, 12-bit event field split over config bits 0-7 and 32-35), a table of
# this test's own naming the eight DRAM channels' beats as perf's amdzen3 tables do (Unit DFPMC, umask 0x38), and a
# die's DRAM bytes metric with a ScaleUnit of 64 B in MiB: pmctool opens (successfully) the events perf opens and
# prints perf's value. The fake data fabric takes groups of 4: both tools' weak group of 8 falls back to single events.
zx=$TMP/zen
mkdir -p "$zx/bus/event_source/devices" "$zx/devices/system/cpu"
cp /sys/devices/system/cpu/online "$zx/devices/system/cpu/online"
for d in amd_df amd_l3 power; do
	cp -r "$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-zen/bus/event_source/devices/$d" "$zx/bus/event_source/devices/"
	echo "$first" >"$zx/bus/event_source/devices/$d/cpumask"
done
for p in software tracepoint breakpoint; do
	[ -d /sys/bus/event_source/devices/$p ] && cp -rL /sys/bus/event_source/devices/$p "$zx/bus/event_source/devices/" 2>/dev/null || true
done
ZEN=AuthenticAMD-25-1-1
zt=$TMP/zentables/pmu-events/arch/x86
mkdir -p "$zt/fakezen3"
printf 'Family-model,Version,Filename,EventType\nAuthenticAMD-25-[[:xdigit:]]+,v1,fakezen3,core\n' >"$zt/mapfile.csv"
python3 - "$zt/fakezen3" <<'PY'
import json, sys
codes = [0x07, 0x47, 0x87, 0xc7, 0x107, 0x147, 0x187, 0x1c7]
ev = [{"EventName": "dram_channel_data_controller_%d" % i, "EventCode": "0x%x" % c, "UMask": "0x38", "Unit": "DFPMC",
       "PerPkg": "1", "BriefDescription": "Fixture: DRAM channel %d beats" % i} for i, c in enumerate(codes)]
json.dump(ev, open(sys.argv[1] + "/data-fabric.json", "w"))
m = [{"MetricName": "nps1_die_to_dram", "MetricGroup": "data_fabric", "ScaleUnit": "6.1e-5MiB",
      "MetricExpr": " + ".join("dram_channel_data_controller_%d" % i for i in range(8)),
      "BriefDescription": "Fixture: DRAM bytes of a die"}]
json.dump(m, open(sys.argv[1] + "/metrics.json", "w"))
PY
ztypes=$(cat "$zx"/bus/event_source/devices/{amd_df,amd_l3,power}/type | paste -sd,)
zinject=(env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_TYPES="$ztypes" PMC_FAKE_PMU_COUNT=$N)
"${zinject[@]}" PERF_CPUID=$ZEN unshare -m sh -c "mount --bind '$zx/bus/event_source/devices' /sys/bus/event_source/devices &&
	perf stat -vv -a -M nps1_die_to_dram true" 2>&1 |
	awk '/^  type /{t=$2} /^  config /{c=$2} /sys_perf_event_open: .* = [0-9]+$/{print t, c, "cpu=" $5}' | sort -u >"$TMP/zperf"
"${zinject[@]}" PMCTOOL_CPUID=$ZEN PMCTOOL_SYSFS_ROOT="$zx" "$PMCTOOL" stat --tables "$TMP/zentables/pmu-events" -v -a \
	-M nps1_die_to_dram -- true 2>&1 |
	sed -n 's/^perf_event_open(type=\([0-9]*\) config=\([0-9a-fx]*\) .*, cpu=\([0-9]*\), group_fd=.*) = [0-9][0-9]*$/\1 \2 cpu=\3/p' |
	sort -u >"$TMP/zpmc"
[ "$(wc -l <"$TMP/zperf")" -eq 8 ] || { cat "$TMP/zperf" >&2; fail "perf: not 8 data fabric opens for nps1_die_to_dram"; }
diff -u "$TMP/zperf" "$TMP/zpmc" >&2 || fail "pmctool's data fabric opens differ from perf's (- perf, + pmctool)"
"${zinject[@]}" PERF_CPUID=$ZEN unshare -m sh -c "mount --bind '$zx/bus/event_source/devices' /sys/bus/event_source/devices &&
	perf stat -x, -a -M nps1_die_to_dram true" 2>&1 | awk -F, '$7 ~ /nps1_die_to_dram/ { print $6, $7 }' >"$TMP/zperfv"
"${zinject[@]}" PMCTOOL_CPUID=$ZEN PMCTOOL_SYSFS_ROOT="$zx" "$PMCTOOL" stat --tables "$TMP/zentables/pmu-events" -a \
	-M nps1_die_to_dram --json -o "$TMP/zen.json" -- true 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "pmctool -M nps1_die_to_dram failed"; }
python3 -c 'import json, sys
m = next(m for m in json.load(open(sys.argv[1]))["metrics"] if m["name"] == "nps1_die_to_dram")
print("%.1f" % m["value"], m["unit"] + "  nps1_die_to_dram")' "$TMP/zen.json" >"$TMP/zpmcv"
[ -s "$TMP/zperfv" ] || fail "perf printed no nps1_die_to_dram"
diff -u "$TMP/zperfv" "$TMP/zpmcv" >&2 || fail "nps1_die_to_dram differs from perf 6.1's (- perf, + pmctool)"
ok "AMD data fabric from a table: perf 6.1's 8 opens (12-bit events split by amd_df's format) and its value, $(cat "$TMP/zpmcv") [injected counts]"
