#!/bin/bash
# perf 6.1 as the oracle for what is opened for non-core PMUs (REFERENCE.md section 12), with an injected PMU: the
# SKX fixture's uncore_imc boxes and power PMU (cpumask rewritten to this machine's first online CPU, so that opening
# on every CPU instead of the cpumask's would show) are
# bind-mounted over /sys/bus/event_source/devices in a private mount namespace for perf and given to pmctool as its
# sysfs root; tests/perf/fake_pmu.so answers the opens of those PMU types (PMC_FAKE_PMU_TYPES) so that both tools go
# through every CPU. pmctool must open exactly the (type, config, pid, cpu, group, flags, read_format) perf opens for
# -a -e uncore_imc/cas_count_read/ (perf's family spelling; pmctool's box spellings uncore_imc_0..5) and for
# -a -e power/energy-pkg/. Skipped without perf, without a private mount namespace (not root), or without the fake.
. "$PMC_SOURCE_DIR/tests/lib.sh"

FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
command -v perf >/dev/null || skip "no perf"
[ -f "$FAKE" ] || skip "no fake PMU ($FAKE)"
unshare -m true 2>/dev/null || skip "no private mount namespace here (needs root)"

. "$PMC_SOURCE_DIR/tests/pmu/uncore_fixture.sh"
for p in software tracepoint breakpoint; do
	[ -d /sys/bus/event_source/devices/$p ] && cp -rL /sys/bus/event_source/devices/$p "$fx/bus/event_source/devices/" 2>/dev/null || true # some files are unreadable
done
types=$(cat "$fx"/bus/event_source/devices/{uncore_imc_*,power}/type | paste -sd,)
inject=(env LD_PRELOAD="$FAKE" PMC_FAKE_PMU_TYPES="$types" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0")

# perf -vv: an attr block (type, config, read_format...) before each "sys_perf_event_open: pid P cpu C group_fd G
# flags F" line. One line per open: type config pid cpu group flags read_format.
perf_opens() {
	"${inject[@]}" unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' /sys/bus/event_source/devices &&
		perf stat -vv ${2:--a} -e '$1' true" 2>&1 |
		awk '/^  type /{t=$2; rf="0x0"} /^  config /{c=$2}
		     /^  read_format /{rf=($2 == "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING") ? "0x3" : $2}
		     /sys_perf_event_open: /{print t, c, "pid=" $3, "cpu=" $5, "group=" $7, "flags=" $9, "rf=" rf}' | sort
}
pmc_opens() {
	"${inject[@]}" env PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -v ${2:--a} -e "$1" -- true 2>&1 |
		sed -n 's/^perf_event_open(type=\([0-9]*\) config=\([0-9a-fx]*\) .* read_format=\([0-9a-fx]*\) .*, pid=\(-*[0-9]*\), cpu=\([0-9]*\), group_fd=\(-*[0-9]*\), flags=\([0-9a-fx]*\)).*/\1 \2 pid=\4 cpu=\5 group=\6 flags=\7 rf=\3/p' | sort
}

perf_opens uncore_imc/cas_count_read/ >"$TMP/perf"
boxes=$(cd "$fx/bus/event_source/devices" && ls -d uncore_imc_* | sed 's|$|/cas_count_read/|' | paste -sd,)
pmc_opens "$boxes" >"$TMP/pmc"
[ -s "$TMP/perf" ] || fail "perf opened nothing (its parse failed?)"
n=$(wc -l <"$TMP/perf")
[ "$n" -eq 6 ] || { cat "$TMP/perf" >&2; fail "perf: $n opens"; }
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool opens differ from perf's for uncore_imc/cas_count_read/ (- perf, + pmctool)"
ok "uncore_imc/cas_count_read/ -a: the same $n opens as perf 6.1 (6 boxes on the cpumask CPU, none elsewhere) [injected PMU]"

perf_opens power/energy-pkg/ >"$TMP/perf"
pmc_opens power/energy-pkg/ >"$TMP/pmc"
[ -s "$TMP/perf" ] || fail "perf opened nothing for power/energy-pkg/"
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool opens differ from perf's for power/energy-pkg/"
ok "power/energy-pkg/ -a: the same opens as perf 6.1 [injected PMU]"

# Values from injected counts (fake_pmu's PMC_FAKE_PMU_COUNT: every box and the power PMU read N): perf's scaled
# values (its -x, first field, 2 decimals) and pmctool's metrics from the same counts, perf's family spelling on both
# sides; the boxes summed into one row.
N=1000000
perf_vals() {
	"${inject[@]}" PMC_FAKE_PMU_COUNT=$N unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' \
		/sys/bus/event_source/devices && perf stat -x, -a -e uncore_imc/cas_count_read/,power/energy-pkg/ true" 2>&1 |
		awk -F, '{print $3, $1, $2}' | sort
}
perf_vals >"$TMP/perf"
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -a \
	-e uncore_imc/cas_count_read/,power/energy-pkg/ --json -o "$TMP/pmc.json" -- true 2>"$TMP/err" ||
	{ cat "$TMP/err" >&2; fail "pmctool stat with injected counts failed"; }
python3 - "$TMP/pmc.json" <<'PY' | sort >"$TMP/pmc"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [e for e in d["events"] if e["name"] == "uncore_imc/cas_count_read/"]
assert len(rows) == 1 and rows[0]["mean"] == 6 * 1000000, rows  # one merged row: 6 boxes x N
for m in d["metrics"]:
    if m["unit"] in ("MiB", "Joules"):
        v = m["value"]
        print(m["name"], "%.2f" % v, m["unit"])
PY
[ -s "$TMP/perf" ] || fail "perf printed no values"
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool's scaled values from injected counts differ from perf 6.1's (- perf, + pmctool)"
grep -q '366.21 MiB' "$TMP/pmc" || fail "6 boxes x $N CAS x 64 bytes is 366.21 MiB"
ok "uncore_imc/cas_count_read/ and power/energy-pkg/ from injected counts ($N a box): one merged row, the same MiB and Joules as perf 6.1 [injected counts]"

# --no-merge (perf's option): the six boxes in their own rows, each N.
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat --no-merge -a -x, \
	-e uncore_imc/cas_count_read/ -- true 2>"$TMP/nm" >/dev/null || { cat "$TMP/nm" >&2; fail "--no-merge failed"; }
[ "$(grep -c "^$N,,uncore_imc_[0-5]/cas_count_read/," "$TMP/nm")" -eq 6 ] || { cat "$TMP/nm" >&2; fail "--no-merge: not 6 box rows"; }
ok "--no-merge keeps the 6 boxes apart [injected counts]"

# For a command (no -a): perf counts uncore system-wide on the cpumask CPUs; pmctool the same, and says so first.
perf_opens uncore_imc/cas_count_read/,power/energy-pkg/ " " >"$TMP/perf"
pmc_opens uncore_imc/cas_count_read/,power/energy-pkg/ " " >"$TMP/pmc"
[ "$(wc -l <"$TMP/perf")" -eq 7 ] || { cat "$TMP/perf" >&2; fail "perf: not 7 opens for a command"; }
diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "pmctool's opens for a command differ from perf's (- perf, + pmctool)"
"${inject[@]}" PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -e uncore_imc/cas_count_read/ -- true 2>"$TMP/cmd" >/dev/null ||
	{ cat "$TMP/cmd" >&2; fail "stat for a command failed"; }
grep -q "uncore counts the whole socket while the command runs.*perf_event_paranoid <= 0 or CAP_PERFMON" "$TMP/cmd" ||
	{ cat "$TMP/cmd" >&2; fail "no note on system-wide counting and its privilege"; }
ok "uncore for a command: perf 6.1's opens (system-wide on the cpumask CPU), said with the privilege it needs [injected PMU]"

# A bare alias word names the family that has it (perf's resolution): cas_count_read is the six boxes, summed.
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' \
	/sys/bus/event_source/devices && perf stat -x, -a -e cas_count_read true" 2>&1 | cut -d, -f1,2 >"$TMP/perf"
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -a -x, -e cas_count_read -- true \
	2>"$TMP/bare" >/dev/null || { cat "$TMP/bare" >&2; fail "bare alias word failed"; }
grep -q "^6000000,,cas_count_read," "$TMP/bare" || { cat "$TMP/bare" >&2; fail "cas_count_read: not one row of 6 x $N"; }
grep -q "^,,,,,366.211,MiB cas_count_read$" "$TMP/bare" || { cat "$TMP/bare" >&2; fail "cas_count_read: no 366.211 MiB"; }
grep -qx "366.21,MiB" "$TMP/perf" || { cat "$TMP/perf" >&2; fail "perf's cas_count_read is not 366.21 MiB"; }
ok "bare alias cas_count_read: one row of the 6 boxes, 366.21 MiB as perf 6.1 [injected counts]"

# -I: one record per interval for the family (the boxes summed), --per-socket: one row per socket.
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -a -I 100 -x, \
	-e uncore_imc/cas_count_read/ -- sleep 0.15 2>"$TMP/iv" >/dev/null || { cat "$TMP/iv" >&2; fail "-I failed"; }
first_iv=$(grep -m1 ',uncore_imc/cas_count_read/,' "$TMP/iv")
[ "$(grep -c "^${first_iv%%,*}," "$TMP/iv")" -eq 1 ] || { cat "$TMP/iv" >&2; fail "-I: not one record in the first interval"; }
case "$first_iv" in *",6000000,"*) ;; *) cat "$TMP/iv" >&2; fail "-I: first interval not 6 x $N: $first_iv" ;; esac
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -a --per-socket --json -o "$TMP/ps.json" \
	-e uncore_imc/cas_count_read/ -- true 2>"$TMP/err" || { cat "$TMP/err" >&2; fail "--per-socket failed"; }
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
rows = [(e["scope"]["kind"], e["mean"]) for e in d["events"]]
assert rows == [("all", 6e6), ("socket", 6e6)], rows' "$TMP/ps.json" || fail "--per-socket: not one summed row per scope"
ok "-I: one summed record per interval; --per-socket: one summed row per socket [injected counts]"
"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -a -x, \
	-e uncore_imc/cas_count_read/,uncore_imc/cas_count_read/ -- true 2>"$TMP/twice" >/dev/null || fail "twice failed"
[ "$(grep -c "^6000000,,uncore_imc/cas_count_read/," "$TMP/twice")" -eq 2 ] ||
	{ cat "$TMP/twice" >&2; fail "the same family spelling twice: not two rows of 6 x $N"; }
ok "the same family spelling given twice: two rows, each its own 6 boxes [injected counts]"

# A cpumask of two CPUs, for a command: one system-wide copy per box and CPU (perf's 12 opens), summed into one row
# (12 x N, the MiB perf prints); --no-merge sums each box's CPUs into that box's row.
cpu_on() { [ -d /sys/devices/system/cpu/cpu$1 ] && [ "$(cat /sys/devices/system/cpu/cpu$1/online 2>/dev/null || echo 1)" = 1 ]; }
if cpu_on 0 && cpu_on 1; then
	for d in "$fx"/bus/event_source/devices/{uncore_imc_*,power}; do echo 0-1 >"$d/cpumask"; done
	perf_opens uncore_imc/cas_count_read/ " " >"$TMP/perf"
	pmc_opens uncore_imc/cas_count_read/ " " >"$TMP/pmc"
	[ "$(wc -l <"$TMP/perf")" -eq 12 ] || { cat "$TMP/perf" >&2; fail "perf: not 12 opens with cpumask 0-1"; }
	diff -u "$TMP/perf" "$TMP/pmc" >&2 || fail "cpumask 0-1: pmctool's opens differ from perf's"
	"${inject[@]}" PMC_FAKE_PMU_COUNT=$N unshare -m sh -c "mount --bind '$fx/bus/event_source/devices' \
		/sys/bus/event_source/devices && perf stat -x, -e uncore_imc/cas_count_read/ true" 2>&1 | cut -d, -f1,2 >"$TMP/perf"
	grep -qx "732.42,MiB" "$TMP/perf" || { cat "$TMP/perf" >&2; fail "perf: not 732.42 MiB"; }
	"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat -x, -e uncore_imc/cas_count_read/ \
		-- true 2>"$TMP/two" >/dev/null || { cat "$TMP/two" >&2; fail "cpumask 0-1 failed"; }
	grep -q "^12000000,,uncore_imc/cas_count_read/," "$TMP/two" && grep -q "^,,,,,732.422,MiB " "$TMP/two" ||
		{ cat "$TMP/two" >&2; fail "cpumask 0-1: not one row of 12 x $N = 732.42 MiB"; }
	"${inject[@]}" PMC_FAKE_PMU_COUNT=$N PMCTOOL_SYSFS_ROOT="$fx" "$PMCTOOL" stat --no-merge -x, \
		-e uncore_imc/cas_count_read/ -- true 2>"$TMP/two" >/dev/null || { cat "$TMP/two" >&2; fail "--no-merge failed"; }
	[ "$(grep -c "^2000000,,uncore_imc_[0-5]/cas_count_read/," "$TMP/two")" -eq 6 ] ||
		{ cat "$TMP/two" >&2; fail "cpumask 0-1 --no-merge: not 6 box rows of 2 x $N"; }
	ok "cpumask 0-1 for a command: perf's 12 opens, one row of 732.42 MiB as perf; --no-merge: a row per box [injected counts]"
fi
