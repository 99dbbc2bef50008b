#!/usr/bin/env bash
# pmctool stat counts real software events of real commands, checked against independent numbers.
source "$PMC_SOURCE_DIR/tests/lib.sh"
W=${PMC_WORKLOAD:?}

json_get() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
pf() { json_get "$1" '[e for e in d["events"] if e["name"]=="page-faults"][0]["mean"]'; }

# A child that touches N pages takes at least N page faults.
run_pmc stat -e page-faults --json -o "$TMP/p.json" -- "$W" pages 2000
expect_rc 0 "pages"
[ "$(pf "$TMP/p.json")" -ge 2000 ] || fail "page-faults $(pf "$TMP/p.json") < 2000 pages touched"
ok "2000 touched pages gave $(pf "$TMP/p.json") page faults"

# Children (fork) and threads are counted whole: inherit is on.
for mode in fork threads; do
	run_pmc stat -e page-faults --json -o "$TMP/$mode.json" -- "$W" $mode 3000
	expect_rc 0 "$mode"
	[ "$(pf "$TMP/$mode.json")" -ge 3000 ] || fail "$mode: page-faults $(pf "$TMP/$mode.json") < 3000"
	ok "$mode: the pages touched by the $mode were counted ($(pf "$TMP/$mode.json"))"
done

# task-clock agrees with the child's rusage (user + sys from wait4), within 10% + 5 ms.
run_pmc stat -e task-clock --json -o "$TMP/t.json" -- "$W" spin 300
expect_rc 0 "spin"
python3 - "$TMP/t.json" <<'PY' || fail "task-clock disagrees with rusage"
import json, sys
d = json.load(open(sys.argv[1]))
tc = [e for e in d["events"] if e["name"] == "task-clock"][0]["mean"] / 1e9
ru = (d["user_ns"] + d["sys_ns"]) / 1e9
print(f"task-clock {tc:.4f}s rusage {ru:.4f}s")
sys.exit(0 if abs(tc - ru) <= 0.10 * ru + 0.005 and tc > 0.25 else 1)
PY
ok "task-clock matches rusage"

# The default set runs anywhere: software events count, hardware ones are counted or say why not.
run_pmc stat -- ls /
expect_rc 0 "default set"
expect_err "task-clock" "default set shows task-clock"
expect_err "page-faults" "default set shows page-faults"
if ! has_hw_pmu; then
	expect_err "<not supported> +cycles +\\(note [0-9]\\)" "cycles is not supported here, referring to its note"
	expect_err "note [0-9]: no hardware PMU" "the reason is printed once as a note"
	expect_err "no-hardware-pmu" "a check explains the missing PMU"
fi
ok "default set"

# msr/tsc/ counts where the msr PMU exists.
if [ -d /sys/bus/event_source/devices/msr ]; then
	run_pmc stat -e msr/tsc/ -x, -- "$W" spin 50
	expect_rc 0 "msr/tsc/"
	v=$(cut -d, -f1 <"$TMP/err" | head -1)
	[ "$v" -gt 1000000 ] || fail "msr/tsc/ counted $v over 50 ms"
	ok "msr/tsc/ counted $v TSC cycles over 50 ms"
fi

# A breakpoint on a function counts its calls exactly (where breakpoints fire: the probe pmctool runs says).
addr=0x$(nm "$W" | awk '$3 == "bump" { print $1 }')
if breakpoints_fire; then
	run_pmc stat -e "mem:$addr:x" -x, -- "$W" calls 12345
	expect_rc 0 "breakpoint"
	v=$(cut -d, -f1 <"$TMP/err" | head -1)
	[ "$v" = 12345 ] || fail "mem:$addr:x counted $v, expected 12345"
	ok "mem:$addr:x counted exactly 12345 calls"
else
	echo "SKIP (part): the exact breakpoint count: $BP_PROBE"
fi
