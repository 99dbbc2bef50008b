#!/usr/bin/env bash
# Issue 39 item 1: where the debug registers accept breakpoints and never fire them (VMs on some AMD Zen 5 hosts), a
# breakpoint's 0 is no count. pmctool probes first (an execute breakpoint on a function of its own, once per process,
# before any workload starts) and then prints every breakpoint event <not counted> with the reason, in every format,
# and no check claims breakpoints were counted. Both outcomes are shown: the machine where breakpoints never fire is
# INJECTED (tests/perf/bp_never_fire.so, LD_PRELOAD: breakpoint opens are answered with the dummy event, which reads
# 0), on any host; the real outcome of this host follows, exact counts where they fire.
source "$PMC_SOURCE_DIR/tests/lib.sh"

INJECT="$PMC_BUILD_DIR/tests/perf/bp_never_fire.so"
PROBE="$PMC_BUILD_DIR/tests/perf/pmc-bp-probe"
[ -f "$INJECT" ] && [ -x "$PROBE" ] || fail "the injection or the probe helper is not built: $INJECT $PROBE"
W=$PMC_WORKLOAD
ADDR=$(nm "$W" | awk '$3 == "bump" { print $1 }')
[ -n "$ADDR" ] || skip "no symbol bump in $W"
BP="mem:0x$ADDR:x"
REASON="this machine's debug registers accept breakpoints but never trigger them: a VM\?"
injected=(env LD_PRELOAD="$INJECT" ASAN_OPTIONS="${ASAN_OPTIONS:-}:verify_asan_link_order=0")

# The formats of one run where breakpoints never fire; $1 says whose machine it is. Runs "${run[@]}".
never_fire_outputs() {
	local who=$1
	set +e
	"${run[@]}" "$PROBE" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 1 "$who: the probe helper"
	expect_out "^$REASON \(an execute breakpoint on a function of pmctool's own counted 0 of 1 call\)" \
		"$who: the probe's verdict"

	set +e
	"${run[@]}" "$PMCTOOL" stat -e "$BP,task-clock" -- "$W" calls 500 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "$who: table"
	expect_err "<not counted> +$BP +\(note 1\)" "$who: the breakpoint is <not counted> in the table"
	expect_err "note 1: $REASON" "$who: the table's note gives the reason"
	expect_err "\[warn\] breakpoints-never-fire: 1 breakpoint event is not counted: $REASON" "$who: a warning"
	grep -qE "^ +0 +$BP" "$TMP/err" && fail "$who: a 0 was printed for the breakpoint"
	grep -qE 'breakpoints (still count|were counted|work without it|too)' "$TMP/err" &&
		fail "$who: a check claims breakpoints count: $(grep breakpoints "$TMP/err")"

	set +e
	"${run[@]}" "$PMCTOOL" stat -x, -e "$BP,instructions,task-clock" -- "$W" calls 500 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "$who: -x"
	expect_err "^<not counted>,,$BP," "$who: -x row"
	expect_err "^# warn breakpoints-never-fire: .*$REASON" "$who: -x gives the reason on a # line"
	grep -qE 'breakpoints (still count|were counted|work without it|too)' "$TMP/err" &&
		fail "$who: -x: a check claims breakpoints count: $(grep breakpoints "$TMP/err")"
	if ! has_hw_pmu; then
		# -x leaves no-hardware-pmu to its <not supported> rows, as perf (issue 34): the table says it
		set +e
		"${run[@]}" "$PMCTOOL" stat -e "$BP,instructions,task-clock" -- "$W" calls 500 >"$TMP/out" 2>"$TMP/err"
		set -e
		expect_err "no-hardware-pmu: .*work without it; breakpoints never fire here" \
			"$who: no-hardware-pmu says breakpoints do not count here"
	fi

	set +e
	"${run[@]}" "$PMCTOOL" stat --csv -o - -e "$BP,task-clock" -- "$W" calls 500 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "$who: CSV"
	expect_out "^summary,$BP,[^,]*,,,,,,,,,not counted,$REASON," "$who: CSV summary row"
	expect_out "^count,$BP,[^,]*,1,1,,,,,,,not counted,$REASON," "$who: CSV count row"

	set +e
	"${run[@]}" "$PMCTOOL" stat --json -o "$TMP/r.json" -I 100 -e "$BP,task-clock" -- "$W" spin 350 >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "$who: JSON with -I"
	python3 - "$TMP/r.json" "$BP" <<'PY' || fail "$who: JSON"
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
final = [d for d in docs if d.get("kind") == "stat"][-1]
ev = [e for e in final["events"] if e["name"] == sys.argv[2]][0]
assert ev["status"] == "not counted" and ev["mean"] is None, ev
assert ev["reason"].startswith("this machine's debug registers accept breakpoints but never trigger them"), ev
assert all(s["value"] is None for s in ev["samples"]), ev["samples"]
assert any(c["name"] == "breakpoints-never-fire" for c in final["checks"]), final["checks"]
ints = [d for d in docs if d.get("kind") == "interval" and d.get("event") == sys.argv[2]]
assert len(ints) >= 2, docs
for r in ints:
    assert r["value"] is None and r["status"] == "not counted", r
print("JSON: not counted, the reason, no value; %d interval records, none with a value" % len(ints))
PY

	set +e
	"${run[@]}" "$PMCTOOL" check --json >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	python3 - "$TMP/out" <<'PY' || fail "$who: pmctool check"
import json, sys
d = json.load(open(sys.argv[1]))
bp = [i for i in d["items"] if i["name"] == "breakpoints"]
assert bp and bp[0]["verdict"] == "degraded", d["items"]
assert "never trigger them" in bp[0]["detail"], bp
for i in d["items"]:
    assert "breakpoints still count" not in i["detail"] and "breakpoints fire" not in i["detail"], i
assert d["overall"]["verdict"] != "trustworthy", d["overall"]
PY
	ok "$who: <not counted> with the reason in the table, -x, CSV and JSON (-I too); check says degraded"
}

# 1. INJECTED: a machine whose breakpoints never fire, on any host.
run=("${injected[@]}")
never_fire_outputs "injected never-firing breakpoints"

# 1b. --regions, injected: the program's library opened the breakpoint itself; its region counts are no counts either.
RG="$PMC_BUILD_DIR/tests/regions/prog/rg-prog"
if [ -x "$RG" ]; then
	RA=0x$(nm "$RG" | awk '$3 == "marker_a" { print $1 }')
	set +e
	"${injected[@]}" "$PMCTOOL" stat --regions --json -o - -e "mem:$RA:x,page-faults" -- "$RG" basic >"$TMP/out" 2>"$TMP/err"
	RC=$?
	set -e
	expect_rc 0 "--regions with injected never-firing breakpoints"
	python3 - "$TMP/out" "mem:$RA:x" <<'PY' || fail "--regions: a never-firing breakpoint's region counts"
import json, sys
d = json.load(open(sys.argv[1]))
bp = sys.argv[2]
rows = [c for r in d["regions"]["list"] for c in r["counts"] + [c for t in r["threads"] for c in t["counts"]]]
rows += d["regions"]["top_level"] + d["regions"]["pair_cost"]
mine = [c for c in rows if c["event"] == bp]
assert mine and all(c["value"] is None for c in mine), mine
assert any(c["event"] == "page-faults" and c["value"] is not None for c in rows), rows
print("--regions: %d region counts of the breakpoint, none with a value" % len(mine))
PY
	ok "injected: --regions leaves the breakpoint's region counts uncounted, the others counted"
fi

# 2. The probe runs once per process, before the first workload starts, and only where a breakpoint is counted.
if command -v strace >/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -e trace=perf_event_open,clone,clone3,fork,vfork -o "$TMP/st" "$PMCTOOL" stat -r 3 -x, \
		-e "$BP,task-clock" -- "$W" calls 5 >/dev/null 2>&1 || fail "pmctool under strace"
	probes=$(grep -c 'PERF_TYPE_BREAKPOINT.*}, 0, -1, -1,' "$TMP/st" || true)
	[ "$probes" = 1 ] || { cat "$TMP/st" >&2; fail "the probe ran $probes times in one process, expected once"; }
	first_probe=$(grep -n 'PERF_TYPE_BREAKPOINT.*}, 0, -1, -1,' "$TMP/st" | head -n 1 | cut -d: -f1)
	first_fork=$(grep -nE '(clone|clone3|fork|vfork)\(' "$TMP/st" | head -n 1 | cut -d: -f1)
	[ "$first_probe" -lt "${first_fork:-999999}" ] || fail "the probe ran after a process was started"
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" strace -f -e trace=perf_event_open -o "$TMP/st" "$PMCTOOL" stat -x, -e task-clock -- "$W" calls 5 >/dev/null 2>&1 ||
		fail "pmctool under strace"
	! grep -q PERF_TYPE_BREAKPOINT "$TMP/st" || fail "the probe ran without a breakpoint event"
	ok "the probe: once per process for -r 3, before any process starts; not at all without a breakpoint"
fi

# 3. This host, as it is: the same probe the tests of exact breakpoint counts ask (tests/lib.sh breakpoints_fire).
set +e
BP_PROBE=$("$PROBE")
prc=$?
set -e
case $prc in
0)
	run_pmc stat -x, -e "$BP" -- "$W" calls 777
	expect_rc 0 "breakpoints that fire"
	expect_err "^777,,$BP," "a breakpoint that fires counts exactly"
	grep -q 'breakpoints-never-fire' "$TMP/err" && fail "a warning where breakpoints fire"
	run_pmc check --json
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); i=[i for i in d["items"] if i["name"]=="breakpoints"][0]; assert i["verdict"]=="trustworthy", i' \
		"$TMP/out" || fail "check: breakpoints trustworthy where they fire"
	ok "this host: $BP_PROBE; counted exactly (777 of 777), check says trustworthy"
	;;
1)
	run=(env)
	never_fire_outputs "this host (breakpoints never fire here)"
	;;
*)
	ok "this host: $BP_PROBE (no outcome of its own to show)"
	;;
esac
