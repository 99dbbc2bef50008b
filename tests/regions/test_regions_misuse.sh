#!/usr/bin/env bash
# Bad use of regions: documented behaviour (pmctool-regions(7)), never a crash or a lost report.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
python3 -c 'import json' || skip "python3 is needed to read the JSON report"

# exit() inside a region: the region is reported as not left; what was closed before is counted.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" noleave
expect_rc 0 "noleave"
expect_q 'int(val("closed", "mem:'$A':x"))' 3 "the closed region is counted"
expect_q 'region("open")["not_left"]' 1 "the open region is reported not left"
expect_q 'len(check("region-not-left"))' 1 "and warned about"

# Leaves of regions not entered (never, or not the innermost): ignored and counted.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" badleave
expect_q 'd["regions"]["misuse"]["unmatched_leaves"]' 2 "two unmatched leaves"
expect_q 'd["regions"]["misuse"]["invalid_handles"]' 1 "one invalid handle"
expect_q 'region("x")["calls"], region("y")["calls"]' '(1, 1)' "x and y still counted once each"
expect_q 'len(check("region-misuse"))' 1 "misuse warned about"

# More than PMCTOOL_REGIONS_MAX names and a name too long: refused, the rest counted.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" toomany
expect_q 'len(d["regions"]["list"])' 256 "256 regions kept"
expect_q 'd["regions"]["misuse"]["refused_names"]' 45 "44 names over the limit and one too long refused"
expect_q 'int(val("r255", "mem:'$A':x"))' 1 "the last region that fits is counted"

# Deeper than PMCTOOL_REGION_DEPTH_MAX: the extra enters and their leaves are ignored.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" deep
expect_q 'region("deep")["calls"]' 64 "64 levels counted"
expect_q 'd["regions"]["misuse"]["too_deep"]' 6 "6 enters ignored"

# fork inside a region: the child reports its own regions (process p1); its leave of the parent's region is
# unmatched; the parent's region is whole.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" fork
expect_q 'int(val("parent", "mem:'$A':x"))' 10 "the parent's region"
expect_q 'int(val("child", "mem:'$A':x", "p1.0"))' 50 "the child's region, as process p1"
expect_q 'd["regions"]["processes_max"]' 2 "two processes wrote results"
expect_q 'd["regions"]["misuse"]["unmatched_leaves"]' 1 "the child's leave of the parent's region"
expect_q 'len(check("regions-silent"))' 0 "no process silent when the child calls exit()"
# The child ends with _exit: its results cannot be written (no exit handlers run), and pmctool says so, naming it
# a process, never as if the child had counted nothing (pmctool-regions(7), MISUSE).
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" fork _exit
expect_q 'int(val("parent", "mem:'$A':x"))' 10 "the parent's region, with a child that _exits"
expect_q 'd["regions"]["processes_max"]' 1 "only the parent wrote results"
expect_q 'len(check("regions-silent"))' 1 "the silent child said"
expect_q '"1 process counted regions and ended without exit()" in check("regions-silent")[0]' True \
	"the check's words"

# A thread that exits inside a region: reported not left; the other thread's regions counted.
run_pmc stat --json -o - --regions -e "mem:$A:x" -- "$RG" threadexit
expect_q 'region("dying")["not_left"]' 1 "the dying thread's region"
expect_q 'int(val("after", "mem:'$A':x"))' 4 "the region after it"

# A program killed inside a region writes nothing: pmctool says so, and the whole program's counts stay.
run_pmc stat --json -o - --regions -e "mem:$A:x,page-faults" -- sh -c "\"$RG\" noleave; kill -9 \$\$"
expect_q 'd["events"][1]["status"]' ok "the whole program's counts are kept"
expect_q 'd["regions"]["executions"]' 1 "one execution"
