#!/usr/bin/env bash
# Regions used from a signal handler (rg-prog signal: a SIGPROF handler every 50 us enters "handler" while the thread
# loops over "main-loop"): no phantom second thread, no lost call, nothing "entered and not left"; every handler run
# is either counted or refused and counted as such (its enter and its leave), whether the timer starts after
# pmctool_thread_init or before the thread's first use. Breakpoints on the markers make every count exact.
# Also every pointer argument of the public API: pmctool_region_counts(h, NULL, NULL, 16) is -EINVAL, not a crash.
source "$PMC_SOURCE_DIR/tests/lib.sh"
source "$PMC_SOURCE_DIR/tests/regions/lib_regions.sh"
breakpoints_fire_or_skip # its counts are exact breakpoint counts: where breakpoints fire
python3 -c 'import json' || skip "python3 is needed to read the JSON report"
N=20000
for run in 1 2 3; do
	for early in "" early; do
		PMCTOOL_REGIONS_EVENTS="mem:$A:x,mem:$B:x" PMCTOOL_REGIONS_OUT="$TMP/sa.json" "$RG" signal $N $early \
			>"$TMP/o" 2>"$TMP/e" || { cat "$TMP/o" "$TMP/e" >&2; fail "signal $early: exit status $?"; }
		handled=$(sed -n 's/^handled \([0-9]*\) calls \([0-9]*\)$/\1/p' "$TMP/o")
		grep -q "^handled [0-9]* calls $N\$" "$TMP/o" || fail "signal $early: counts() gave another number of calls"
		[ "${handled:-0}" -gt 0 ] || fail "signal $early: the handler never ran"
		python3 - "$TMP/sa.json" "$N" "$handled" "$A" <<'PY' || fail "signal $early, run $run"
import json, sys
d = json.load(open(sys.argv[1]))
n, handled, a = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
regs = {r["name"]: r for r in d["regions"]["list"]}
loop, hand = regs["main-loop"], regs["handler"]
mis = d["regions"]["misuse"]
assert [t["thread"] for t in loop["threads"]] == ["0"], ("a phantom thread", loop["threads"])
assert all(t["thread"] == "0" for t in hand["threads"]), ("a phantom thread", hand["threads"])
assert loop["calls"] == n, ("main-loop calls lost", loop["calls"])
val = lambda r, e: next(c["value"] for c in r["counts"] if c["event"] == e)
ev_a = next(e["name"] for e in d["events"] if a[2:].lstrip("0") in e["name"])
assert val(loop, ev_a) == 10 * n, ("main-loop's marker calls", val(loop, ev_a))
assert loop["not_left"] == 0 and hand["not_left"] == 0, "entered and not left"
assert mis["unmatched_leaves"] == 0, mis
assert mis["refused_calls"] % 2 == 0 and hand["calls"] + mis["refused_calls"] // 2 == handled, \
    ("handler runs neither counted nor refused", hand["calls"], mis["refused_calls"], handled)
print("handled", handled, "counted", hand["calls"], "refused", mis["refused_calls"] // 2)
PY
	done
done
ok "a signal handler's regions: $N main-loop calls exact, no phantom thread, each handler run counted or refused"

# Under pmctool: the refused calls reach the report as a misuse check.
run_pmc stat --json -o "$TMP/st.json" --regions -e "mem:$A:x" -- "$RG" signal $N early
expect_rc 0 "stat --regions, signal"
cp "$TMP/st.json" "$TMP/out"
expect_q 'region("main-loop")["calls"]' $N "stat --regions: main-loop calls exact with a handler"
expect_q '[t["thread"] for t in region("main-loop")["threads"]]' "['0']" "stat --regions: no phantom thread"
