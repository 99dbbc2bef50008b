#!/bin/bash
# stat --emulate and instructions:u@emulated: valgrind (lackey) counts a command's user-mode instructions where no
# counter does. Exact on a program of known count (emu-loop: 2N + 5), cross-checked by a hardware execute breakpoint
# (a real kernel counter: N executions of the loop's first instruction); reported as emulated, with its slowdown;
# never mixed with counters; refused with the reason where it cannot be done.
. "$PMC_SOURCE_DIR/tests/lib.sh"

command -v valgrind >/dev/null || skip "valgrind is not installed (setup.sh installs it)"
case "${ASAN_OPTIONS:-}:$(readelf -s "$PMCTOOL" 2>/dev/null | grep -c __asan_init)" in
*:0) ;;
*) echo "note: sanitizer build: the emulated runs are checked in the plain build only" ;;
esac
LOOP=$PMC_BUILD_DIR/tests/run/emu-loop
[ -x "$LOOP" ] || skip "emu-loop is built on x86-64 only (this is $(uname -m))"

# emu-loop with no argument: N = 1,000,000; with two: 3,000,000. perf's -x for one, the table for the other.
run_pmc stat --emulate -x, -- "$LOOP"
expect_rc 0 "stat --emulate -x, emu-loop"
got=$(awk -F, '$3 == "instructions:u@emulated" { print $1 }' "$TMP/err")
[ "$got" = 2000005 ] || { cat "$TMP/err" >&2; fail "emu-loop with N=1000000: instructions:u@emulated $got, expected 2N+5 = 2000005"; }
ok "emu-loop N=1000000 (-x): instructions:u@emulated $got = 2N + 5 exactly"
run_pmc stat --emulate -- "$LOOP" a b
expect_rc 0 "stat --emulate emu-loop a b"
expect_err '^ +6,000,005 +instructions:u@emulated' "N=3000000: 2N + 5 = 6,000,005"
expect_err 'emulated: counted by valgrind \(lackey\), an emulator, not a counter' "the check names the emulator"
expect_err '[0-9.]+x slower' "the slowdown"
ok "emu-loop N=3000000 (table): 6,000,005 exactly, emulated and its slowdown said"

# The same loop through a real kernel counting path: an execute breakpoint on its first instruction counts N (where
# breakpoints fire: the probe pmctool runs says).
addr=$(nm "$LOOP" | awk '$3 == "body" { print $1 }')
if breakpoints_fire; then
	run_pmc stat -x, -e "mem:0x$addr:x" -- "$LOOP"
	expect_rc 0 "breakpoint on emu-loop's body"
	bp=$(awk -F, '$3 ~ /^mem:/ { print $1 }' "$TMP/err")
	[ "$bp" = 1000000 ] || { cat "$TMP/err" >&2; fail "breakpoint count $bp, expected 1000000"; }
	ok "cross-check: the breakpoint counts N = $bp executions of the loop body (2 instructions each: 2N + 5 = $((2 * bp + 5)))"
else
	echo "SKIP (part): the breakpoint cross-check: $BP_PROBE"
fi

# The spelling per event, -r, JSON: the class says emulated, the constant holds valgrind's time.
run_pmc stat -e instructions:u@emulated -r 2 --json -- "$LOOP"
expect_rc 0 "-e instructions:u@emulated -r 2 --json"
python3 - "$TMP/err" <<'PY' || fail "JSON of an emulated count"
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d["events"] if e["name"] == "instructions:u@emulated"]
assert len(e) == 1, d["events"]
e = e[0]
assert e["class"] == "emulated" and e["type"] == 0 and e["config"] == "0x1" and e["exclude_kernel"], e
assert e["n"] == 2 and e["min"] == e["max"] == 2000005, e
assert d["constants"]["EMULATED_WALL_NS"] > 0
assert any(c["name"] == "emulated" for c in d["checks"])
PY
ok "JSON: class emulated, encoding of instructions:u, both runs 2000005, EMULATED_WALL_NS"

# The command's exit status is the native run's; its stderr is its own (valgrind's messages go elsewhere).
run_pmc stat --emulate -- sh -c 'echo to-stderr >&2; exit 3'
expect_rc 3 "the command's exit status"
[ "$(grep -c '^to-stderr$' "$TMP/err")" = 2 ] || { cat "$TMP/err" >&2; fail "the command's stderr: expected its line twice (native, emulated)"; }
grep -q '^==[0-9]*==' "$TMP/err" && { cat "$TMP/err" >&2; fail "valgrind's own messages reached the command's stderr"; }
ok "exit status 3 kept; valgrind's messages kept out of the command's stderr"

# An image replaced by exec is not counted by valgrind (it sums an image when it ends): said, never hidden.
run_pmc stat --emulate -- sh -c "exec $LOOP"
expect_rc 0 "sh -c exec emu-loop"
expect_err "emulated-exec: 'sh' replaced itself with exec" "the exec warning"
ok "exec: warned that the shell's own instructions are not in the count"

# Refusals: an event that cannot be emulated, a counter beside an emulated count, a kernel, no valgrind.
run_pmc stat -e cycles:u@emulated -- true
expect_rc 2 "cycles:u@emulated"
expect_err "'cycles:u@emulated' cannot be emulated: .*only instructions:u" "names the event and what can be"
run_pmc stat --emulate -e instructions:u,task-clock -- true
expect_rc 2 "--emulate with task-clock"
expect_err "'task-clock' cannot be emulated" "names the event"
run_pmc stat -e task-clock,instructions:u@emulated -- true
expect_rc 2 "a counter beside an emulated event"
expect_err "measured alone" "says why"
run_pmc stat --emulate -k loop
expect_rc 2 "--emulate -k loop"
expect_err "emulated counts are of a command" "says what emulation measures"
PATH=/nonexistent run_pmc stat --emulate -- /bin/true
expect_rc 2 "no valgrind on PATH"
expect_err "need valgrind \(not found on PATH\)" "says what to install"
ok "refusals: cycles@emulated, a counter beside it, -k, no valgrind: exit 2 with the reason"
