#!/usr/bin/env bash
# stat --regions and standalone regions, exact without a PMU: the library counts hardware breakpoints on marker
# functions that region bodies call a known number of times (rg-prog.c says how many), so every count is known.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
python3 -c 'import json' || skip "python3 is needed to read the JSON report"

# Nested and repeated regions, exact per region; the whole program beside them.
run_pmc stat --json -o - --regions -e "mem:$A:x,mem:$B:x,page-faults" -- "$RG" basic
expect_rc 0 "basic"
expect_q 'region("inner")["calls"]' 6 "inner entered 6 times"
expect_q 'int(val("inner", "mem:'$A':x"))' 600 "inner counts its own marker calls"
expect_q 'int(val("outer", "mem:'$A':x"))' 630 "outer includes inner (nested)"
expect_q 'int(val("b-only", "mem:'$B':x"))' 7 "b-only counts the other marker"
expect_q 'int(val("outer", "mem:'$B':x"))' 0 "outer never calls marker_b"
expect_q 'int(d["events"][ev("mem:'$A':x")]["mean"])' 635 "the whole program counts the calls outside regions too"
expect_q 'int(d["regions"]["top_level"][ev("mem:'$A':x")]["value"])' 630 "top-level regions sum"
expect_q 'check("region-exceeds-program")' '[]' "top level within the whole program"
expect_q 'd["regions"]["read"]' 'read(2)' "breakpoints are read with read(2)"

# Across batches: three breakpoints with half the debug registers each make two batches; every region's counts
# come from the batch that had the event, and calls are identical in both executions.
run_pmc stat --json -o - --regions -r 2 -e "mem:$A:x,mem:$B:x,mem:$C:x" -- "$RG" basic
expect_rc 0 "batches"
expect_q 'd["batches"]' 2 "two batches"
expect_q 'region("outer")["calls_per_execution"]' '[3, 3, 3, 3]' "calls in each of 2 runs x 2 batches"
expect_q 'int(val("inner", "mem:'$A':x"))' 600 "inner exact across batches"
expect_q 'int(val("b-only", "mem:'$B':x"))' 7 "b-only exact across batches"
expect_q 'int(val("inner", "mem:'$C':x"))' 6 "inner's marker_c, counted in the other batch"
expect_q 'int(val("outer", "mem:'$C':x"))' 6 "outer's marker_c (nested), in the other batch"
expect_q 'check("region-calls-differ")' '[]' "same calls in every batch"

# 4 threads: thread k enters "work" k+1 times with 1000 calls each.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" threads 4
expect_rc 0 "threads"
expect_q 'region("work")["calls"]' 10 "work merged over 4 threads"
expect_q 'int(val("work", "mem:'$A':x"))' 10000 "work's merged count"
# Ordinals follow the threads' first enters (any order): each thread's count is its own calls x 1000.
expect_q 'sorted((int(t["calls"]), int(t["counts"][0]["value"])) for t in region("work")["threads"])' \
	"[(1, 1000), (2, 2000), (3, 3000), (4, 4000)]" "work per thread"
expect_q 'int(val("main", "mem:'$A':x"))' 0 "main's own thread makes no calls (threads count their own)"

# Software events per region: a region that writes N fresh pages takes at least N page faults.
run_pmc stat --json -o - --regions -e page-faults,task-clock -- "$RG" pages 300
expect_rc 0 "pages"
expect_q 'val("touch", "page-faults") >= 300' True "touch has >= 300 page faults"
expect_q 'val("touch", "page-faults") <= d["events"][ev("page-faults")]["mean"]' True "within the whole program's"
expect_q 'val("touch", "task-clock") > 0' True "task-clock per region"

# The program changed its work between batches: flagged.
echo 0 >"$TMP/vary"
run_pmc stat --json -o - --regions -e "mem:$A:x,mem:$B:x,mem:$C:x" -- "$RG" vary "$TMP/vary"
expect_q 'region("vary")["calls_per_execution"]' '[1, 2]' "vary's calls per batch"
expect_q 'len(check("region-calls-differ"))' 1 "calls that differ between batches are flagged"

# Every format has the regions: table blocks, CSV rows with region, thread and calls columns.
run_pmc stat --regions -e "mem:$A:x" -o - -- "$RG" basic
expect_out 'region inner: 6 calls' "table block"
expect_out '600 +mem:' "table count"
run_pmc stat --regions --csv -o - -e "mem:$A:x" -- "$RG" threads 2
expect_out '^region,mem:[^,]*,[^,]*,,,3000,.*,work,all,3' "CSV merged row"
expect_out '^region,mem:[^,]*,[^,]*,,,2000,.*,work,[0-9]+,2[^0-9]' "CSV per-thread row (the thread with 2 calls; ordinals in first-enter order)"

# The shared library behaves the same.
run_pmc stat --json -o - --regions -e "mem:0x$(nm "$PMC_BUILD_DIR/tests/regions/prog/rg-prog-shared" | awk '$3 == "marker_a" { print $1 }'):x" \
	-- "$PMC_BUILD_DIR/tests/regions/prog/rg-prog-shared" basic
expect_q 'int(val("inner", d["events"][0]["name"]))' 600 "shared libpmctool"

# Built without PMCTOOL_MARKERS the markers vanish: the program runs, writes nothing, and pmctool says so.
run_pmc stat --json -o - --regions -e page-faults -- "$PMC_BUILD_DIR/tests/regions/prog/rg-prog-off" basic
expect_rc 0 "no markers"
expect_q 'd["regions"]["list"]' '[]' "no regions without the define"
expect_q 'len(check("regions-silent"))' 1 "a silent program is flagged"

# Standalone: the environment names the events (a breakpoint and a generic name); the program reports at exit.
PMCTOOL_REGIONS_EVENTS="mem:$A:x,page-faults" "$RG" basic 2>"$TMP/sa" || fail "standalone run failed"
grep -qE '^inner +0 +6 +600 ' "$TMP/sa" || { cat "$TMP/sa"; fail "standalone: inner 6 calls 600"; }
ok "standalone report on stderr"
PMCTOOL_REGIONS_EVENTS="mem:$A:x" PMCTOOL_REGIONS_OUT="$TMP/sa.txt" "$RG" threads 4 2>"$TMP/sa"
[ ! -s "$TMP/sa" ] || fail "standalone with PMCTOOL_REGIONS_OUT wrote to stderr"
grep -qE '^work +all +10 +10000' "$TMP/sa.txt" || { cat "$TMP/sa.txt"; fail "standalone threads merged"; }
ok "standalone report in PMCTOOL_REGIONS_OUT, threads merged"
# A FIFO with no reader never hangs the program's exit (open(2) blocked there): the report goes to stderr, saying why,
# for the text and the JSON report alike.
mkfifo "$TMP/rg.fifo"
for fmt in text json; do
	set +e
	PMCTOOL_REGIONS_FORMAT=$fmt PMCTOOL_REGIONS_EVENTS="mem:$A:x" PMCTOOL_REGIONS_OUT="$TMP/rg.fifo" \
		timeout 20 "$RG" basic 2>"$TMP/sa"; rc=$?
	set -e
	[ "$rc" -ne 124 ] || fail "standalone $fmt report to a FIFO without a reader: the program hung at exit"
	[ "$rc" -eq 0 ] || { cat "$TMP/sa"; fail "standalone $fmt report to a FIFO without a reader: exit $rc"; }
	grep -q "no process has the FIFO open for reading; it follows on stderr" "$TMP/sa" &&
		grep -q "inner" "$TMP/sa" || { cat "$TMP/sa"; fail "standalone $fmt report to a FIFO: not on stderr"; }
done
ok "standalone report to a FIFO without a reader: on stderr, the program's exit never hangs"
PMCTOOL_REGIONS_EVENTS="bogus-event" "$RG" basic 2>"$TMP/sa" || fail "a bad event list stopped the program"
grep -q "not counting: PMCTOOL_REGIONS_EVENTS: 'bogus-event'" "$TMP/sa" || { cat "$TMP/sa"; fail "bad list not told"; }
ok "a bad event list is told, the program runs"
"$RG" basic 2>"$TMP/sa" || fail "unmeasured run failed"
[ ! -s "$TMP/sa" ] || fail "without the environment the program wrote: $(cat "$TMP/sa")"
ok "without pmctool or the environment the program runs normally, counting nothing"

if [ -x "$PMC_BUILD_DIR/tests/regions/prog/rg-cxx" ]; then
	PMCTOOL_REGIONS_EVENTS=page-faults "$PMC_BUILD_DIR/tests/regions/prog/rg-cxx" >"$TMP/cxx" 2>"$TMP/sa"
	grep -q "cxx ok 1" "$TMP/cxx" && grep -qE '^cxx-handle +0 +3 ' "$TMP/sa" || { cat "$TMP/cxx" "$TMP/sa"; fail "C++"; }
	ok "C++: the header, handles and macros"
fi

# An event the kernel refuses: the library standalone and pmctool --regions say why in pmctool's own words (on a
# machine without a PMU "no hardware PMU: ...", never perf_event_open's raw errno text).
run_pmc stat -e instructions -- true
why=$(sed -n 's/^ *note [0-9]*: //p' "$TMP/out" "$TMP/err" | head -1)
if [ -z "$why" ]; then
	echo "note: instructions opened here: no refusal to compare"
else
	PMCTOOL_REGIONS_EVENTS=instructions,page-faults "$RG" basic 2>"$TMP/sa" || fail "a refused event stopped the program"
	grep -qF "instructions: not counted: $why" "$TMP/sa" || { cat "$TMP/sa"; fail "standalone: not pmctool's words ($why)"; }
	run_pmc stat --regions -e instructions,page-faults -- "$RG" basic
	grep -qF "regions-not-counted: the program could not open instructions for its regions: $why" "$TMP/err" "$TMP/out" ||
		{ cat "$TMP/err"; fail "stat --regions: not pmctool's words ($why)"; }
	ok "a refused event, standalone and under pmctool: '$why', as pmctool stat says"
fi
