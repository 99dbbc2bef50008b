#!/bin/bash
# Arm's interconnect (CMN) from the vendor tables (issue 36), with perf 6.1 as the oracle (REFERENCE.md section 12) on
# an injected PMU: the arm_cmn_0 fixture (tests/pmu/sysfs-uncore-cmn, identifier 43401: a CMN-600 r1) answered by
# tests/perf/fake_pmu.so with chosen counts per event. perf keeps its arm64 system-PMU events in
# pmu-events/arch/arm64/VENDOR/NAME/sys/ (no mapfile row names them) with NodeType/EventidCode fields, Unit arm_cmn and
# a Compat regex over the PMU's identifier; this test writes a small table in that layout (no perf table is installed
# here, and this host's perf has x86 tables only, so perf is the oracle through the kernel's spelling of the same
# events: arm_cmn/hnf_cache_miss/, arm_cmn/type=0x5,eventid=0x2/).
# - the sys folder's events and metrics load; an event's NodeType/EventidCode become the family's type=/eventid=;
# - -a -e of the table's names opens what perf opens for the kernel's spellings (type, config, pid, cpu, flags);
# - -M of the table's CMN metric opens the same and computes the value from perf's counts of the same events;
# - Compat is honoured: an event for another CMN revision, or a PMU with no identifier, is not taken from the table.
# Skipped without perf, without a private mount namespace (not root), or without the fake.
. "$PMC_SOURCE_DIR/tests/lib.sh"

. "$PMC_SOURCE_DIR/tests/pmu/perf_oracle_needs.sh"

fx=$TMP/sysfs
mkdir -p "$fx/bus/event_source/devices" "$fx/devices/system/cpu"
online=$(cat /sys/devices/system/cpu/online)
cp /sys/devices/system/cpu/online "$fx/devices/system/cpu/online"
first=${online%%[-,]*}
cp -r "$PMC_SOURCE_DIR/tests/pmu/sysfs-uncore-cmn/bus/event_source/devices/arm_cmn_0" "$fx/bus/event_source/devices/"
echo "$first" >"$fx/bus/event_source/devices/arm_cmn_0/cpumask"
for p in software tracepoint breakpoint; do
	[ -d /sys/bus/event_source/devices/$p ] && cp -rL /sys/bus/event_source/devices/$p "$fx/bus/event_source/devices/" 2>/dev/null || true
done
type=$(cat "$fx/bus/event_source/devices/arm_cmn_0/type")
# hnf_cache_miss (type 5, eventid 1: config 0x10005) reads 250, hnf_slc_sf_cache_access (eventid 2) 1000
inject=(env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_TYPES="$type" PMC_FAKE_PMU_COUNT=7 PMC_FAKE_PMU_COUNTS=0x10005=250,0x20005=1000)
N1=0x00000000410fd0c0

t=$TMP/tables/pmu-events/arch/arm64
mkdir -p "$t/fakearm/fake-n1" "$t/fakearm/cmn/sys"
printf 'Family-model,Version,Filename,EventType\n%s,v1,fakearm/fake-n1,core\n' $N1 >"$t/mapfile.csv"
echo '[ { "EventName": "CPU_CYCLES", "EventCode": "0x11", "BriefDescription": "Fixture: cycles" } ]' \
	>"$t/fakearm/fake-n1/pipeline.json"
cat >"$t/fakearm/cmn/sys/cmn.json" <<'J'
[
  { "EventName": "hnf_cache_miss", "EventidCode": "0x1", "NodeType": "0x5", "Unit": "arm_cmn",
    "Compat": "(434|436|43c|43a).*", "BriefDescription": "Fixture: SLC misses (the kernel has this alias too)" },
  { "EventName": "hnf_slc_sf_cache_access", "EventidCode": "0x2", "NodeType": "0x5", "Unit": "arm_cmn",
    "Compat": "(434|436|43c|43a).*", "BriefDescription": "Fixture: SLC accesses (no sysfs alias: the table's only)" },
  { "EventName": "hnf_other_revision", "EventidCode": "0x3f", "NodeType": "0x5", "Unit": "arm_cmn",
    "Compat": "43c.*", "BriefDescription": "Fixture: an event of another CMN revision" }
]
J
cat >"$t/fakearm/cmn/sys/metric.json" <<'J'
[
  { "MetricName": "slc_miss_rate", "MetricExpr": "hnf_cache_miss / hnf_slc_sf_cache_access", "ScaleUnit": "100%",
    "MetricGroup": "cmn", "Unit": "arm_cmn", "Compat": "(434|436|43c|43a).*",
    "BriefDescription": "Fixture: system level cache miss rate" }
]
J
pmc=(env PMCTOOL_CPUID=$N1 PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL")
tabs=(--tables "$TMP/tables/pmu-events")

"${pmc[@]}" tables "${tabs[@]}" >"$TMP/tables.txt" 2>&1 || true
grep -q 'cmn/sys/cmn.json: 3 events, 0 metrics' "$TMP/tables.txt" && grep -q 'cmn/sys/metric.json: 0 events, 1 metrics' "$TMP/tables.txt" ||
	{ cat "$TMP/tables.txt" >&2; fail "tables: perf's arm64 sys folder (CMN events and metrics) not read"; }
"${pmc[@]}" encode "${tabs[@]}" hnf_slc_sf_cache_access >"$TMP/enc" 2>&1 || { cat "$TMP/enc" >&2; fail "encode hnf_slc_sf_cache_access"; }
grep -q '^  canonical  arm_cmn/type=0x5,eventid=0x2/$' "$TMP/enc" && grep -q '^  config     0x20005$' "$TMP/enc" ||
	{ cat "$TMP/enc" >&2; fail "encode: the table's NodeType/EventidCode are not arm_cmn's type=/eventid= terms"; }
ok "tables: perf's arm64 sys folder loads; a CMN event's NodeType/EventidCode are the arm_cmn family's type=/eventid="

perf_opens() {
	"${inject[@]}" unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' /sys/bus/event_source/devices &&
		perf stat -vv -a -e '$1' true" 2>&1 |
		awk '/^  type /{t=$2} /^  config /{c=$2} /sys_perf_event_open: /{print t, c, "pid=" $3, "cpu=" $5, "flags=" $9}' | sort
}
pmc_opens() {
	"${inject[@]}" "${pmc[@]}" stat "${tabs[@]}" -v -a "$@" -- true 2>&1 |
		sed -n 's/^perf_event_open(type=\([0-9]*\) config=\([0-9a-fx]*\) .*, pid=\(-*[0-9]*\), cpu=\([0-9]*\), group_fd=\(-*[0-9]*\), flags=\([0-9a-fx]*\)).*/\1 \2 pid=\3 cpu=\4 flags=\6/p' | sort
}

# 1. -a -e the table's names: perf's opens for the kernel's spellings of the same two events.
perf_opens 'arm_cmn/hnf_cache_miss/,arm_cmn/type=0x5,eventid=0x2/' >"$TMP/perf"
pmc_opens -e hnf_cache_miss,hnf_slc_sf_cache_access >"$TMP/pmc"
[ "$(wc -l <"$TMP/perf")" -eq 2 ] || { cat "$TMP/perf" >&2; fail "perf: not 2 opens for the two arm_cmn events"; }
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool's opens for the table's CMN names differ from perf's (- perf, + pmctool)"
ok "-a -e hnf_cache_miss,hnf_slc_sf_cache_access from the table: perf 6.1's opens (arm_cmn_0's type, config 0x10005/0x20005, cpumask CPU $first) [injected PMU]"

# 2. -M slc_miss_rate: the same opens, and the value from perf's counts of the same events.
pmc_opens -M slc_miss_rate >"$TMP/pmcm"
diff -u "$TMP/perf" "$TMP/pmcm" >&2 || fail "-M slc_miss_rate: pmctool's opens differ from perf's (- perf, + pmctool)"
"${inject[@]}" unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' /sys/bus/event_source/devices &&
	perf stat -x, -a -e arm_cmn/hnf_cache_miss/,arm_cmn/type=0x5,eventid=0x2/ true" >"$TMP/perf.csv" 2>&1
"${inject[@]}" "${pmc[@]}" stat "${tabs[@]}" -a -M slc_miss_rate --json -o "$TMP/pmc.json" -- true 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "pmctool stat -M slc_miss_rate failed"; }
python3 - "$TMP/perf.csv" "$TMP/pmc.json" <<'PY' || { cat "$TMP/perf.csv" >&2; fail "slc_miss_rate is not perf's counts' ratio"; }
import json, sys
rows = [l.strip().split(",") for l in open(sys.argv[1]) if l.count(",") >= 5]
miss = next(float(r[0]) for r in rows if r[2] == "arm_cmn/hnf_cache_miss/")
acc = next(float(r[0]) for r in rows if r[2] == "arm_cmn/type=0x5")  # perf's -x, does not quote the name's comma
assert (miss, acc) == (250, 1000), ("the injected counts", miss, acc)
d = json.load(open(sys.argv[2]))
ev = {e["name"]: e["mean"] for e in d["events"]}
assert ev == {"hnf_cache_miss": 250, "hnf_slc_sf_cache_access": 1000}, ("rows named as the formula writes them", ev)
m = next(m for m in d["metrics"] if m["name"] == "slc_miss_rate")
assert abs(m["value"] - 100 * miss / acc) < 1e-9 and m["unit"] == "%", m
PY
ok "-M slc_miss_rate (the table's CMN metric): perf's opens, and 100 x miss/access on perf's counts = 25 % [injected counts]"

# 3. Compat: an event for another revision (43c*) is not this CMN-600's; a PMU without an identifier file matches
# nothing (perf's rule). Both are said, and the name stays unknown rather than encoded by a guess.
"${pmc[@]}" encode "${tabs[@]}" hnf_other_revision >"$TMP/other" 2>&1 && { cat "$TMP/other" >&2; fail "another revision's event was encoded"; }
grep -q "is for arm_cmn PMUs whose identifier matches '43c.\*': this one's is '43401'" "$TMP/other" ||
	{ cat "$TMP/other" >&2; fail "no note naming the Compat and the identifier"; }
rm "$fx/bus/event_source/devices/arm_cmn_0/identifier"
"${pmc[@]}" encode "${tabs[@]}" hnf_slc_sf_cache_access >"$TMP/noid" 2>&1 && { cat "$TMP/noid" >&2; fail "a PMU without identifier took a Compat event"; }
grep -q "arm_cmn_0 has no identifier file" "$TMP/noid" || { cat "$TMP/noid" >&2; fail "no note about the missing identifier"; }
ok "Compat: another revision's event and a PMU without identifier are not taken from the table, and the note says why"
