#!/usr/bin/env bash
# Many threads starting and ending at once (rg-prog burst N: half start as they are made, half together after a
# barrier): no crash, and every thread's calls and counts in the report. A thread's end once unmapped, a second time,
# address ranges that a starting thread had just been given for its counter pages (it crashed in refresh). A CPU hog
# keeps the other core busy so starts and ends interleave; exact breakpoint counts say no thread was lost.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
python3 -c 'import json' || skip "python3 is needed to read the JSON report"
N=${PMC_BURST_THREADS:-1000}
REPS=${PMC_BURST_REPS:-10}
# Each thread opens 2 descriptors: 1,000 alive at once need more than the usual 1,024.
[ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge $((3 * N)) ] || ulimit -n $((3 * N)) 2>/dev/null ||
	skip "the descriptor limit ($(ulimit -n)) is below $((3 * N)) and cannot be raised"

yes >/dev/null &
HOG=$!
trap 'rc=$?; kill $HOG 2>/dev/null || true; wait $HOG 2>/dev/null || true; rm -rf "$TMP"; exit $rc' EXIT

# Standalone: the library alone writes its report at exit.
for i in $(seq "$REPS"); do
	rm -f "$TMP/sa.txt"
	rc=0
	PMCTOOL_REGIONS_EVENTS="mem:$A:x,task-clock" PMCTOOL_REGIONS_OUT="$TMP/sa.txt" "$RG" burst "$N" 2>"$TMP/err" || rc=$?
	[ $rc -eq 0 ] || { cat "$TMP/err" >&2; fail "standalone burst of $N threads, run $i: exit status $rc"; }
	grep -qE "^burst +all +$((3 * N)) +$((30 * N)) " "$TMP/sa.txt" ||
		{ grep -E 'all|not counted' "$TMP/sa.txt" >&2; fail "standalone burst, run $i: not every thread's calls"; }
	[ "$(grep -cE '^burst +[0-9]+ +3 +30 ' "$TMP/sa.txt")" -eq "$N" ] ||
		fail "standalone burst, run $i: not $N thread rows of 3 calls and 30 marker calls"
done
ok "standalone: $REPS runs of $N concurrent threads, each with $((3 * N)) calls and $((30 * N)) marker calls"

# Under pmctool: the results go through the channel.
for i in $(seq $(( (REPS + 1) / 2 ))); do
	run_pmc stat --json -o - --regions -e "mem:$A:x,task-clock" -- "$RG" burst "$N"
	expect_rc 0 "stat --regions, burst of $N threads, run $i"
	expect_q '(region("burst")["calls"], int(val("burst", "mem:'$A':x")), len(region("burst")["threads"]))' \
		"($((3 * N)), $((30 * N)), $N)" "stat --regions, burst of $N threads, run $i"
done
