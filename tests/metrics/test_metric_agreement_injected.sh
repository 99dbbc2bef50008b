#!/usr/bin/env bash
# Issue 33 "Done when": pmctool's metrics agree with Linux perf 6.1's on the same injected counts (REFERENCE.md
# section 12). For each model perf's own tables (built into the installed perf, selected with PERF_CPUID) are printed by
# `perf list --details` under a fixture sysfs `cpu` PMU and turned into a pmu-events tree in $TMP
# (metric_agreement.py tables), so both tools read the same events and formulas. Both run under inject_counts.so: every
# hardware event opens as task-clock and reads a count chosen from its encoding, so both see the same counts. perf
# evaluates its formulas (perf stat -x, -M), pmctool its own evaluation of the same formulas (stat --tables -M --json);
# every metric both evaluate must agree to perf's printed digits, but for one difference by design: perf 6.1 ORs a
# term into the event's own bits (cpu@EXE_ACTIVITY.3_PORTS_UTIL\,umask\=0x80@ opens umask 0x88), where the vendor's
# term (Intel's :u0x80) and pmctool replace them; such metrics are listed, not failed. Metrics on duration_time, msr, cstate or uncore
# events are left out (not injected, or different in two runs). Skips (77) without perf, root or unshare -m.
# PMC_AGREE_MODELS=skl,... picks models; PMC_AGREE_KEEP=DIR keeps the per-model results there.
source "$PMC_SOURCE_DIR/tests/lib.sh"

command -v perf >/dev/null || skip "perf is not installed: its formulas cannot be run"
# The injector is built with the build's sanitizers, and perf (not sanitized) cannot load it: the plain build runs this
sanitized_build && skip "a sanitizer build: perf cannot load the sanitized inject_counts.so"
[ "$(id -u)" = 0 ] || skip "not root: a private mount namespace for the fixture sysfs needs root"
unshare -m true 2>/dev/null || skip "unshare -m is refused here: the fixture sysfs cannot be bind-mounted"
perf stat -e task-clock true >/dev/null 2>&1 || skip "perf stat does not run here (perf_event_paranoid?)"
INJ="$PMC_BUILD_DIR/tests/metrics/inject_counts.so"
[ -f "$INJ" ] || fail "the count injector is not built: $INJ"
PY="$PMC_SOURCE_DIR/tests/metrics/metric_agreement.py"

# sysfs VENDOR DIR: this machine's PMUs but its core PMU, and a fixture `cpu` PMU (type 4, PERF_TYPE_RAW) with the
# vendor's format fields and, for Intel, the top-down pseudo-events perf's Ice Lake and later formulas name.
sysfs() {
	local d dev=$2/bus/event_source/devices
	mkdir -p "$dev/cpu/format" "$dev/cpu/events"
	for d in /sys/bus/event_source/devices/*; do
		case ${d##*/} in cpu | cpu_core | cpu_atom | armv8* | ibs* | amd_*) continue ;; esac
		cp -rL "$d" "$dev/" 2>/dev/null || true
	done
	# perf reads the SMT state from the real /sys; pmctool from its sysfs root: the same files (SMT=1: on for both,
	# in_ns binds the fixture's smt/active over the real one)
	mkdir -p "$2/devices/system/cpu/smt"
	for d in smt/active possible online; do
		cat "/sys/devices/system/cpu/$d" >"$2/devices/system/cpu/$d" 2>/dev/null || true
	done
	[ -z "${SMT:-}" ] || echo "$SMT" >"$2/devices/system/cpu/smt/active"
	echo 4 >"$dev/cpu/type"
	echo "config:8-15" >"$dev/cpu/format/umask"
	echo "config:18" >"$dev/cpu/format/edge"
	echo "config:23" >"$dev/cpu/format/inv"
	echo "config:24-31" >"$dev/cpu/format/cmask"
	echo "event=0x3c" >"$dev/cpu/events/cpu-cycles"
	echo "event=0xc0" >"$dev/cpu/events/instructions"
	if [ "$1" = amd ]; then
		echo "config:0-7,32-35" >"$dev/cpu/format/event"
		return
	fi
	echo "config:0-7" >"$dev/cpu/format/event"
	echo "config:21" >"$dev/cpu/format/any"
	echo "config:19" >"$dev/cpu/format/pc"
	echo "config1:0-63" >"$dev/cpu/format/offcore_rsp"
	echo "config1:0-15" >"$dev/cpu/format/ldlat"
	echo "config1:0-23" >"$dev/cpu/format/frontend"
	echo "config:32" >"$dev/cpu/format/in_tx"
	echo "config:33" >"$dev/cpu/format/in_tx_cp"
	[ "${3:-}" = topdown ] || return 0
	echo "event=0x00,umask=0x4" >"$dev/cpu/events/slots"
	local i=0 n
	for n in retiring bad-spec fe-bound be-bound heavy-ops br-mispredict fetch-lat mem-bound; do
		echo "event=0x00,umask=0x8$i" >"$dev/cpu/events/topdown-$n"
		i=$((i + 1))
	done
}

# in_ns SYSFS CMD...: CMD with the fixture sysfs bind-mounted over the real one.
in_ns() {
	local fx=$1
	shift
	SMT=${SMT:-} unshare -m sh -c 'mount --bind "$0" /sys/bus/event_source/devices &&
		{ [ -z "$SMT" ] || mount --bind "$1" /sys/devices/system/cpu/smt/active; } && shift && exec "$@"' \
		"$fx/bus/event_source/devices" "$fx/devices/system/cpu/smt/active" "$@"
}

# model NAME CPUID LIBPFM_FORCE_PMU VENDOR [topdown] [-a]: with -a both count every CPU (#core_wide 1). Each of
# pmctool's reports is also evaluated again by pmctool report (issue 33 item 3: table metrics recomputed from the
# report's counts with the report's #smt_on and #core_wide), and those values must agree with perf's too.
model() {
	local name=$1 cpuid=$2 force=$3 vendor=$4 td=${5:-} M="$TMP/$1" list
	local -a wide=()
	[ "${6:-}" != -a ] || wide=(-a)
	mkdir -p "$M"
	sysfs "$vendor" "$M/sys" "$td"
	PERF_CPUID=$cpuid in_ns "$M/sys" perf list --details >"$M/list.txt" 2>/dev/null || true
	PERF_CPUID=$cpuid in_ns "$M/sys" perf list --details metrics >"$M/metrics.txt" 2>/dev/null || true
	python3 "$PY" tables "$M/list.txt" "$M/metrics.txt" "$cpuid" "$M/tables" >"$M/tables.log" ||
		fail "$name: perf's tables could not be read: $(cat "$M/tables.log")"
	python3 "$PY" names "$M/tables" >"$M/names"
	[ -s "$M/names" ] || fail "$name: perf $(perf version) lists no metrics for $cpuid"
	local mty
	mty=$(cat "$M/sys/bus/event_source/devices/msr/type" 2>/dev/null || echo 0)
	# batches of 15 metrics: one perf and one pmctool run each; a batch perf refuses is retried metric by metric
	split -l 15 "$M/names" "$M/batch."
	: >"$M/perf.vals"
	for b in "$M"/batch.*; do
		list=$(paste -sd, "$b")
		if ! LD_PRELOAD="$INJ" PMC_INJECT_TYPES="$mty" PERF_CPUID="$cpuid" \
			in_ns "$M/sys" perf stat "${wide[@]}" -x, -M "$list" -- true >/dev/null 2>"$b.perf"; then
			: >"$b.perf"
			while read -r m; do
				LD_PRELOAD="$INJ" PMC_INJECT_TYPES="$mty" PERF_CPUID="$cpuid" \
					in_ns "$M/sys" perf stat "${wide[@]}" -x, -M "$m" -- true </dev/null >/dev/null 2>>"$b.perf" || true
			done <"$b"
		fi
		python3 "$PY" perfcsv "$b.perf" >>"$M/perf.vals"
		env LD_PRELOAD="$INJ" PMC_INJECT_TYPES="$mty" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0" \
			PMCTOOL_CPUID="$cpuid" LIBPFM_FORCE_PMU="$force" PMCTOOL_SYSFS_ROOT="$M/sys" \
			"$PMCTOOL" stat "${wide[@]}" --tables "$M/tables" -M "$list" --json -o "$b.json" -- true 2>"$b.err" ||
			fail "$name: pmctool stat -M $list failed: $(tail -3 "$b.err")"
		"$PMCTOOL" report --tables "$M/tables" --json -o "$b.replay" "$b.json" 2>"$b.err" ||
			fail "$name: pmctool report of stat -M $list failed: $(tail -3 "$b.err")"
	done
	python3 "$PY" compare --tables "$M/tables" "$M/names" "$M/perf.vals" "$M"/batch.*.replay >"$M/replay" ||
		{ sed -n '1,40p' "$M/replay" >&2; FAILED+=" $name(report)"; }
	if grep -q "as the report gives it" "$M"/batch.*.replay; then
		python3 -c 'import json, sys
for f in sys.argv[1:]:
    for m in json.load(open(f))["metrics"]:
        if m["description"].startswith("as the report gives it"):
            print("  report copied %s: %s" % (m["name"], m["description"]), file=sys.stderr)' "$M"/batch.*.replay
		FAILED+=" $name(report copied a metric)"
	fi
	python3 "$PY" compare --tables "$M/tables" "$M/names" "$M/perf.vals" "$M"/batch.*.json >"$M/compare" && rc=0 || rc=$?
	echo "# $name ($cpuid, $(head -1 "$M/tables.log")): $(head -1 "$M/compare"); pmctool report: $(head -1 "$M/replay")"
	grep "by design" "$M/compare" || true
	if [ -n "${PMC_AGREE_KEEP:-}" ]; then
		mkdir -p "$PMC_AGREE_KEEP" && cp "$M/compare" "$PMC_AGREE_KEEP/$name.compare" &&
			cp "$M/replay" "$PMC_AGREE_KEEP/$name.replay" && cp "$M/perf.vals" "$PMC_AGREE_KEEP/$name.perf.vals"
	fi
	grep -q "^agree [1-9]" "$M/compare" || fail "$name: no metric agrees: $(head -5 "$M/compare")"
	if [ "$rc" != 0 ]; then
		sed -n '2,40p' "$M/compare" >&2
		FAILED+=" $name"
		return
	fi
	ok "$name: every metric both evaluate agrees with perf ($(head -1 "$M/compare"))"
}

FAILED=
want() { [ -z "${PMC_AGREE_MODELS:-}" ] || [[ ",$PMC_AGREE_MODELS," == *",$1,"* ]]; }
want skl && model skl GenuineIntel-6-5E-3 skl intel
want skl-a && model skl-a GenuineIntel-6-5E-3 skl intel "" -a
# SMT on and -a: #core_wide 1, so CORE_CLKS is CPU_CLK_UNHALTED.THREAD_ANY / 2 (AnyThread counts), for stat and report
want skl-smt-a && SMT=1 model skl-smt-a GenuineIntel-6-5E-3 skl intel "" -a
want icl && model icl GenuineIntel-6-7E-5 icl intel topdown
want spr && model spr GenuineIntel-6-8F-4 spr intel topdown
want zen3 && model zen3 AuthenticAMD-25-21-0 amd64_fam19h_zen3 amd # perf 6.1 gives Zen 4 the same folder

[ -z "$FAILED" ] || fail "pmctool and perf disagree on metrics of:$FAILED (the lines above name them)"
