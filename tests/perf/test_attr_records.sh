#!/usr/bin/env bash
# What pmctool asks of the kernel: the -v record of every perf_event_open, compared with expected files.
#
# Each tests/perf/attr/*.attr file is one case: header lines, then the expected records.
#   # cmd: ARGS...        pmctool's arguments (word-split by the shell; $WORKLOAD is pmc-workload)
#   # env: NAME=VALUE     an environment variable for pmctool (repeatable; $PMC_SOURCE_DIR is expanded)
#   # fake-pmu: N         inject the fake PMU (tests/perf/fake_pmu.c, LD_PRELOAD) with N hardware counters per
#                         group: hardware opens are answered the same on every host (a test of logic, not of counts)
#   # user: nobody        run as uid 65534 (needs root and setpriv; skipped otherwise)
#   # paranoid: N         run only where kernel.perf_event_paranoid is N (skipped otherwise)
#   # needs: PMU          run only where /sys/bus/event_source/devices/PMU exists (skipped otherwise)
#   # rc: N               pmctool's expected exit status (default 0)
#   # stderr: ERE         an extended regular expression pmctool's stderr must match (repeatable)
#   # fake-pmu-env: N=V   an environment variable for the injected PMU (see fake_pmu.c; repeatable)
#   # breakpoints: fire   run only where breakpoints fire (the probe pmctool runs first; elsewhere pmctool never opens
#                         a breakpoint, so there are no records to compare: skipped with the probe's line)
#   other '#' lines are comments.
# Records are -v's lines (perf/open.h documents the format), normalised so they are the same on any host and run:
# pid=N (N > 0) -> pid=PID; the n-th distinct fd returned -> FDn, and group_fd=<that fd> -> group_fd=FDn; a dynamic
# PMU type (above 5) -> its sysfs name (type=msr).
# PMC_ATTR_UPDATE=1 rewrites the records of every case that ran from what pmctool printed (review the diff).
source "$PMC_SOURCE_DIR/tests/lib.sh"

FAKE="$PMC_BUILD_DIR/tests/perf/fake_pmu.so"
[ -f "$FAKE" ] || fail "the fake PMU is not built: $FAKE"
WORKLOAD=${PMC_WORKLOAD:?}
chmod 755 "$TMP"

normalize() {
	local types="" root=/sys
	# a case with a sysfs fixture (# env: PMCTOOL_SYSFS_ROOT=...) names dynamic types after the fixture's PMUs
	for e in "${envs[@]}"; do
		case $e in PMCTOOL_SYSFS_ROOT=*) root=${e#PMCTOOL_SYSFS_ROOT=} ;; esac
	done
	for d in "$root"/bus/event_source/devices/*; do
		[ -r "$d/type" ] && types="$types $(cat "$d/type")=$(basename "$d")"
	done
	grep '^perf_event_open(' | grep -v '\[kept open' | awk -v types="$types" '
		BEGIN { n = split(types, t, " "); for (i = 1; i <= n; i++) { split(t[i], kv, "="); if (kv[1] > 5) name[kv[1]] = kv[2] } }
		{
			if (match($0, /\(type=[0-9]+ /)) {
				ty = substr($0, RSTART + 6, RLENGTH - 7)
				if (ty in name) $0 = substr($0, 1, RSTART + 5) name[ty] substr($0, RSTART + RLENGTH - 1)
			}
			# a tracepoint'"'"'s config is its id in tracefs, which differs between kernels
			if (match($0, /\(type=2 config=0x[0-9a-f]+ /)) $0 = substr($0, 1, RSTART - 1) "(type=2 config=TP " substr($0, RSTART + RLENGTH)
			if (match($0, /pid=[1-9][0-9]*,/)) $0 = substr($0, 1, RSTART - 1) "pid=PID," substr($0, RSTART + RLENGTH)
			if (match($0, /group_fd=[0-9]+,/)) {
				g = substr($0, RSTART + 9, RLENGTH - 10)
				$0 = substr($0, 1, RSTART - 1) "group_fd=" (g in fd ? fd[g] : "FD?") "," substr($0, RSTART + RLENGTH)
			}
			if (match($0, /\) = [0-9]+/)) {
				r = substr($0, RSTART + 4, RLENGTH - 4)
				fd[r] = "FD" (++nfd)
				$0 = substr($0, 1, RSTART - 1) ") = " fd[r] substr($0, RSTART + RLENGTH)
			}
			print
		}'
}

ran=0
for f in "$PMC_SOURCE_DIR"/tests/perf/attr/*.attr; do
	case_name=$(basename "$f" .attr)
	cmd=$(sed -n 's/^# cmd: //p' "$f")
	fake=$(sed -n 's/^# fake-pmu: //p' "$f")
	user=$(sed -n 's/^# user: //p' "$f")
	want_paranoid=$(sed -n 's/^# paranoid: //p' "$f")
	needs=$(sed -n 's/^# needs: //p' "$f")
	want_rc=$(sed -n 's/^# rc: //p' "$f")
	mapfile -t envs < <(sed -n 's/^# env: //p' "$f" | sed "s|\\\$PMC_SOURCE_DIR|$PMC_SOURCE_DIR|g")
	mapfile -t fake_envs < <(sed -n 's/^# fake-pmu-env: //p' "$f")
	mapfile -t want_err < <(sed -n 's/^# stderr: //p' "$f")
	[ -n "$cmd" ] || fail "$case_name: no '# cmd:' line"
	if [ -n "$needs" ] && [ ! -d "/sys/bus/event_source/devices/$needs" ]; then
		echo "skip $case_name: no $needs PMU here"
		continue
	fi
	if [ -n "$(sed -n 's/^# breakpoints: fire$/y/p' "$f")" ] && ! breakpoints_fire; then
		echo "skip $case_name: $BP_PROBE"
		continue
	fi
	if [ -n "$want_paranoid" ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" != "$want_paranoid" ]; then
		echo "skip $case_name: needs kernel.perf_event_paranoid $want_paranoid"
		continue
	fi
	prefix=()
	if [ "$user" = nobody ]; then
		if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
			echo "skip $case_name: needs root and setpriv to run as nobody"
			continue
		fi
		prefix=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all)
	fi
	[ -n "$fake" ] && envs+=("LD_PRELOAD=$FAKE" "PMC_FAKE_PMU_COUNTERS=$fake" "ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0" "${fake_envs[@]}")
	cp "$PMCTOOL" "$TMP/pmctool"
	cp "$WORKLOAD" "$TMP/workload"
	chmod 755 "$TMP/pmctool" "$TMP/workload"
	# shellcheck disable=SC2086 # cmd is word-split on purpose
	set +e
	(cd "$TMP" && env "${envs[@]}" "${prefix[@]}" ./pmctool ${cmd//\$WORKLOAD/.\/workload}) >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc "${want_rc:-0}" "$case_name"
	for re in "${want_err[@]}"; do
		expect_err "$re" "$case_name"
	done
	normalize <"$TMP/err" >"$TMP/got"
	[ -s "$TMP/got" ] || { cat "$TMP/err" >&2; fail "$case_name: -v printed no perf_event_open record"; }
	if [ "${PMC_ATTR_UPDATE:-0}" = 1 ]; then
		{ grep '^#' "$f"; cat "$TMP/got"; } >"$TMP/new" && cat "$TMP/new" >"$f"
		echo "updated $case_name"
	fi
	grep -v '^#' "$f" >"$TMP/want"
	# --per-thread's count of the tasks created (a tracepoint) is opened only where tracefs is readable and opens only
	# where kernel counts are allowed: compared where it opened, left out of both sides elsewhere (the last record)
	tasks_note='[--per-thread: the tasks the command creates'
	if grep -qF "$tasks_note" "$TMP/want" && ! grep -F "$tasks_note" "$TMP/got" | grep -q ') = FD'; then
		echo "note $case_name: the count of tasks created does not open here: its record is not compared"
		grep -vF "$tasks_note" "$TMP/want" >"$TMP/want2" || true
		grep -vF "$tasks_note" "$TMP/got" >"$TMP/got2" || true
		mv "$TMP/want2" "$TMP/want"
		mv "$TMP/got2" "$TMP/got"
	fi
	diff -u "$TMP/want" "$TMP/got" >&2 || fail "$case_name: the records differ from $f (- expected, + got)"
	ok "$case_name: $(wc -l <"$TMP/got") records as expected"
	ran=$((ran + 1))
done
[ "$ran" -gt 0 ] || skip "no case could run here"
