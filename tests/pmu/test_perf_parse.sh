#!/bin/bash
# Issue 22 item 3: every perf spelling pmctool prints (encode's "perf" line and the perf member of encode --json and of
# the plan's JSON, stat --dry-run --json) is one perf's own parser accepts, and perf parses it to pmctool's config and
# config1. perf finds PMUs in sysfs, so each fixture core PMU (tests/pmu/sysfs: x86 cpu; tests/pmu/sysfs-armv8:
# armv8_pmuv3_0) is bind-mounted over /sys/bus/event_source/devices, beside copies of this machine's own PMUs, in a
# private mount namespace (REFERENCE.md section 12): perf then parses the spelling and fails only the open ("not
# supported" on a machine without that PMU), while a spelling it cannot parse fails with "event syntax error" or
# "Cannot find PMU". The same with a hybrid fixture (tests/pmu/sysfs-adl). Skips (77) without perf, root or unshare.
. "$PMC_SOURCE_DIR/tests/lib.sh"

command -v perf >/dev/null || skip "perf is not installed: perf's parser cannot be run"
[ "$(id -u)" = 0 ] || skip "not root: a private mount namespace for the fixture sysfs needs root"
unshare -m true 2>/dev/null || skip "unshare -m is refused here: the fixture sysfs cannot be bind-mounted"
perf stat -e task-clock true >/dev/null 2>&1 || skip "perf stat does not run here (perf_event_paranoid?)"

# spellings FIXTURE EVENT...: 'TYPE CONFIG CONFIG1 SPELLING' for each perf spelling pmctool prints of the events, from
# encode --json and the plan's JSON (stat --dry-run --json with all the events), without duplicates.
spellings() {
	local fx=$1
	shift
	PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/$fx "$PMCTOOL" encode --json "$@" >"$TMP/enc.json" ||
		fail "$fx: pmctool encode $* failed: $(cat "$TMP/enc.json")"
	PMCTOOL_SYSFS_ROOT=$PMC_SOURCE_DIR/tests/pmu/$fx "$PMCTOOL" stat --dry-run --json --counters 4 \
		-e "$(IFS=,; echo "$*")" -- true >"$TMP/plan.json" 2>"$TMP/plan.err" ||
		fail "$fx: pmctool stat --dry-run --json failed: $(cat "$TMP/plan.err")"
	python3 - "$TMP/enc.json" "$TMP/plan.json" <<'EOF'
import json, sys
seen = set()
enc = json.load(open(sys.argv[1]))["events"]
plan = json.load(open(sys.argv[2]))
evs = enc + plan["every_batch"] + [e for b in plan["batches"] for e in b]
for e in evs:
    if e["perf"] is None:
        sys.exit("no perf spelling for %s" % e["name"])
    if e["perf"] in seen:
        continue
    seen.add(e["perf"])
    print(e["type"], e["config"], e["config1"], e["perf"])
EOF
}

# perf_tree FIXTURE DIR: this machine's PMUs without its core PMUs, and the fixture's core PMU(s).
perf_tree() {
	local d
	mkdir -p "$2"
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in cpu | cpu_core | cpu_atom | armv8*) continue ;; esac
		cp -rL "$d" "$2/" 2>/dev/null || true
	done
	for d in "$PMC_SOURCE_DIR/tests/pmu/$1/bus/event_source/devices"/*; do
		[ -e "$2/${d##*/}" ] || cp -r "$d" "$2/"
	done
}

# check FIXTURE LIBPFM_FORCE_PMU EVENT...: perf parses every spelling to pmctool's config and config1.
check() {
	local fx=$1 force=$2 n=0 type config config1 sp
	shift 2
	if [ -n "$force" ]; then export LIBPFM_FORCE_PMU=$force; else unset LIBPFM_FORCE_PMU; fi
	spellings "$fx" "$@" >"$TMP/$fx.list" || fail "$fx: $(cat "$TMP/$fx.list")"
	perf_tree "$fx" "$TMP/tree-$fx"
	# One namespace for all spellings; perf's attr print (-vv) and its messages per spelling into $TMP/perf-N.
	unshare -m bash -c 'mount --bind "$1" /sys/bus/event_source/devices || exit 1
		n=0
		while read -r type config config1 sp; do
			n=$((n + 1))
			perf stat -vv -e "$sp" true >"$2/perf-$n" 2>&1
		done < "$3"' sh "$TMP/tree-$fx" "$TMP" "$TMP/$fx.list" || fail "$fx: cannot bind-mount the fixture sysfs"
	while read -r type config config1 sp; do
		n=$((n + 1))
		out=$TMP/perf-$n
		if grep -qE "event syntax error|Cannot find PMU|Invalid event|Unknown event|unknown term|parser error" "$out"; then
			fail "$fx: perf rejects pmctool's spelling '$sp': $(grep -m3 -E 'error|Cannot|Invalid|Unknown|unknown' "$out")"
		fi
		grep -q "perf_event_attr:" "$out" || fail "$fx: perf did not parse '$sp' to an attr: $(head -n 5 "$out")"
		[ "$type" = 5 ] && continue # breakpoints: bp_addr, not config
		got=$(awk '/^perf_event_attr:/ { n++ } n == 1 && $1 == "config" { print $2; exit }' "$out")
		got1=$(awk '/^perf_event_attr:/ { n++ } n == 1 && /config1 }/ { print $NF; exit }' "$out")
		# generic events (type 0, 3) on a hybrid machine: perf puts the core PMU's type in config bits 32-63
		mask=-1
		[ "$type" = 0 ] || [ "$type" = 3 ] && mask=0xffffffff
		[ $((${got:-0} & mask)) = $((config & mask)) ] && [ $((${got1:-0})) = $((config1)) ] ||
			fail "$fx: perf parses '$sp' to config ${got:-0} config1 ${got1:-0}, pmctool's is $config $config1"
	done <"$TMP/$fx.list"
	[ "$n" -gt 0 ] || fail "$fx: no spelling checked"
	ok "$fx: perf parses all $n perf spellings pmctool prints to pmctool's config and config1: $(cut -d' ' -f4 "$TMP/$fx.list" | tr '\n' ' ')"
}

check sysfs hsw r53010e r08:u UOPS_ISSUED:ANY:u 'uops_issued.any<1' INST_RETIRED:ANY_P UNHALTED_REFERENCE_CYCLES \
	'cpu/event=0xb7,umask=0x01,offcore_rsp=0x10001/' cpu/ref-cycles/ 'cpu/edge,event=0x0e,umask=1,cmask=1/' \
	cycles instructions:u ref-cycles msr/tsc/ task-clock L1-dcache-load-misses 'mem:0x401136:xu'
check sysfs-armv8 "" r08:u r11 r10:k armv8_pmuv3_0/event=0x08/u armv8_pmuv3_0/inst_retired/u \
	armv8_pmuv3_0/config=0x8/u 'armv8_pmuv3_0/l1d_cache,long/' armv8_pmuv3_0/cpu_cycles/ cycles:u instructions \
	task-clock
# A hybrid machine's copies (cpu_core/..., cpu_atom/...; tests/pmu/sysfs-adl), as the plan prints them.
check sysfs-adl icl r08:u cycles INST_RETIRED:ANY_P cpu_atom/event=0xc0/ 'cpu_core/event=0xcd,umask=0x1,ldlat=3/'
