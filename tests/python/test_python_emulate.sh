#!/usr/bin/env bash
# The pytest plugin's emulated counts (issue 37: the gate where there is no PMU), from the source tree's package
# (python/) and this build's libpmctool and libpmctool-engine:
#   1. pytest -p pmctool.pytest_plugin --pmctool-emulate runs the session under valgrind (callgrind): each test's
#      count is instructions:u@emulated, marked emulated, the environment's backend "valgrind (callgrind)"; pytest's
#      exit status and outcomes are that session's; an event other than instructions:u is null with the reason;
#   2. a test doing twice the work counts about twice (1.9 to 2.1 times);
#   3. the gate: pmctool compare --fail-if 'instructions:u@emulated>+1%' passes (exit 0) on the same tests again,
#      whose counts are within 0.05% (the same to the instruction on a quiet machine; the report's name differs),
#      and fails (exit 1, naming the test) when one test does 5% more
#      work; a gate on instructions:u (a counter's) cannot judge the emulated reports (exit 3);
#   4. no valgrind on PATH: exit status 4 (pytest's usage error) with the reason, nothing run;
#   5. without --pmctool-emulate, an instructions:u no counter counts is null and the summary names the option;
#   6. Ctrl-C (SIGINT to the process group, as a terminal sends it) in a test that loops until stopped: pytest's exit
#      status 2, the report written with what was counted, the test's outcome "interrupted", nothing left running.
# Each emulated session is a few seconds (4 tiny tests); the whole test prints its time.
source "$PMC_SOURCE_DIR/tests/lib.sh"
sanitized_build && skip "an ASan libpmctool cannot be loaded into python3; the plain build runs this test"
PY=${PMC_PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 || true)}
[ -n "$PY" ] || skip "python3 is not installed"
"$PY" -c 'import pytest' 2>/dev/null || skip "pytest is not installed (Debian's python3-pytest; setup.sh installs it)"
export PYTHONPATH=$PMC_SOURCE_DIR/python${PYTHONPATH:+:$PYTHONPATH}
export PMCTOOL_REGIONS_LIB=$PMC_BUILD_DIR/src/regions/lib/libpmctool.so
export PMCTOOL_ENGINE_LIB=$PMC_BUILD_DIR/src/api/libpmctool-engine.so
[ -f "$PMCTOOL_REGIONS_LIB" ] && [ -f "$PMCTOOL_ENGINE_LIB" ] ||
	fail "this build has no $PMCTOOL_REGIONS_LIB or $PMCTOOL_ENGINE_LIB"
unset PYTHONHASHSEED PMCTOOL_REGIONS_EVENTS PMCTOOL_REGIONS_OUT PMCTOOL_PYTEST_EMULATED
start=$SECONDS
mkdir "$TMP/pt" "$TMP/vgdir"
cat >"$TMP/pt/test_gate.py" <<'PY'
import os
WORK = int(os.environ.get("GATE_WORK", "20000"))
def loop(n):
    s = 0
    for i in range(n):
        s += i
    return s
def test_work():
    loop(WORK)
def test_steady():
    loop(20000)
def test_twice():
    loop(40000)
def test_fails():
    loop(20000)
    assert 0, "fails on purpose"
PY
pt() { (cd "$TMP/pt" && "$PY" -m pytest -q -p no:cacheprovider -p pmctool.pytest_plugin "$@" test_gate.py); }

# 4 first (quick): valgrind not on PATH (python3 by its absolute path).
rc=0
PATH=$TMP/none pt --pmctool-emulate --pmctool-report="$TMP/pt/none.json" >"$TMP/none.out" 2>&1 || rc=$?
[ $rc = 4 ] || { cat "$TMP/none.out" >&2; fail "--pmctool-emulate without valgrind: exit status $rc, expected 4"; }
grep -q "ERROR: --pmctool-emulate: emulated counts need valgrind (not found on PATH)" "$TMP/none.out" ||
	fail "--pmctool-emulate without valgrind: $(cat "$TMP/none.out")"
[ ! -e "$TMP/pt/none.json" ] || fail "--pmctool-emulate without valgrind wrote a report"
ok "no valgrind on PATH: exit status 4, $(grep -o 'emulated counts need valgrind[^:]*' "$TMP/none.out")"

# 5. Never emulated silently: without the option instructions:u is a counter's or null with its reason.
rc=0
pt --pmctool-events=instructions:u --pmctool-report="$TMP/pt/native.json" >"$TMP/native.out" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$TMP/native.out" >&2; fail "pytest with the plugin: exit status $rc, expected 1 (a test fails)"; }
"$PY" - "$TMP/pt/native.json" "$TMP/native.out" <<'PY' || fail "the plugin without --pmctool-emulate (above)"
import json, sys
d, out = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
(ev,) = d["events"]
assert ev["name"] == "instructions:u" and d["environment"]["backend"] == "perf_event", (ev, d["environment"])
assert all("emulated" not in c for t in d["tests"] for c in t["counts"]), d["tests"]
if ev["status"] == "counted":
    print("ok: without --pmctool-emulate instructions:u is counted by a counter here")
else:
    assert all(t["counts"][0]["value"] is None for t in d["tests"]) and ev["reason"], d
    assert "--pmctool-emulate counts it under valgrind" in out, out
    print("ok: without --pmctool-emulate instructions:u is null (%s) and the summary names --pmctool-emulate"
          % ev["reason"])
PY

command -v valgrind >/dev/null || skip "valgrind is not installed (Debian's valgrind; setup.sh installs it): parts 1-3"
rc=0
"$PY" -c 'from pmctool.regions import emulated_begin; import errno, sys; sys.exit(emulated_begin() == -errno.ENOSYS)' ||
	rc=$?
[ $rc = 0 ] || skip "this libpmctool was built without valgrind's callgrind.h (Debian's valgrind): parts 1-3"

# 1-3. Three emulated sessions: base, the same again, and test_work doing 5% more.
for run in base again more; do
	work=20000
	[ $run = more ] && work=21000
	t0=$SECONDS
	rc=0
	GATE_WORK=$work TMPDIR=$TMP/vgdir pt --pmctool-emulate --pmctool-events=instructions:u,task-clock \
		--pmctool-report="$TMP/pt/$run.json" >"$TMP/$run.out" 2>&1 || rc=$?
	[ $rc = 1 ] || { cat "$TMP/$run.out" >&2; fail "the emulated session ($run): exit status $rc, expected 1"; }
	grep -q "^pmctool: counts of 4 test(s) (instructions:u, task-clock): instructions:u@emulated, emulated by" \
		"$TMP/$run.out" &&
		grep -q "^pmctool: --pmctool-emulate: the counts per test are in $TMP/pt/$run.json" "$TMP/$run.out" ||
		fail "the emulated session's summary ($run): $(tail -5 "$TMP/$run.out")"
	[ -z "$(ls -A "$TMP/vgdir")" ] || fail "the plugin left valgrind's directory behind: $(ls -A "$TMP/vgdir")"
	echo "the emulated session ($run): $((SECONDS - t0)) s"
done
"$PY" - "$TMP/pt/base.json" "$TMP/pt/again.json" <<'PY' || fail "the emulated report (above)"
import json, sys
d, again = (json.load(open(p)) for p in sys.argv[1:3])
assert d["kind"] == "pytest" and d["environment"]["backend"] == "valgrind (callgrind)", d["environment"]
ev = {e["name"]: e for e in d["events"]}
assert list(ev) == ["instructions:u@emulated", "task-clock"], list(ev)
assert ev["instructions:u@emulated"]["status"] == "counted" and ev["instructions:u@emulated"]["emulated"] is True, ev
tc = ev["task-clock"]
assert tc["status"] == "not counted" and "--pmctool-emulate" in tc["reason"] and tc["emulated"] is False, tc
t = {x["nodeid"].split("::")[1]: x for x in d["tests"]}
assert sorted(t) == ["test_fails", "test_steady", "test_twice", "test_work"], sorted(t)
assert t["test_fails"]["outcome"] == "failed" and t["test_work"]["outcome"] == "passed", t
v = {}
for name, x in t.items():
    (c, n) = x["counts"]
    assert c["event"] == "instructions:u@emulated" and c["emulated"] is True and isinstance(c["value"], int), c
    assert c["value"] > 0 and n["event"] == "task-clock" and n["value"] is None, (c, n)
    v[name] = c["value"]
ratio = v["test_twice"] / v["test_steady"]
assert 1.9 < ratio < 2.1, ("twice the work is not about twice the count", v)
w = {x["nodeid"].split("::")[1]: x["counts"][0]["value"] for x in again["tests"]}
spread = max(abs(w[k] - v[k]) / v[k] for k in v)
em = d["emulation"]
assert em["backend"] == "valgrind (callgrind)" and em["hash_seed"] == "0", em
# The same to the instruction on a quiet machine; on a loaded one a few hundred instructions apart (0.01% here).
assert spread < 0.0005, ("the same tests again differ", v, w, em)
print("ok: emulated counts per test: steady %d, twice %d (x%.3f), fails %d; the same again: %s (largest "
      "difference %.4f%%; address randomization %s); task-clock null: %s" % (v["test_steady"], v["test_twice"],
      ratio, v["test_fails"], "identical" if v == w else w, 100 * spread,
      {False: "off", True: "on", None: "?"}[em["address_randomization"]], tc["reason"]))
PY
run_pmc compare --fail-if 'instructions:u@emulated>+1%' "$TMP/pt/base.json" "$TMP/pt/again.json"
expect_rc 0 "the emulated gate on the same tests again"
grep -q 'does not hold: none of 4 tests' "$TMP/out" || fail "the gate's condition: $(grep -A2 Conditions "$TMP/out")"
run_pmc compare --fail-if 'instructions:u@emulated>+1%' "$TMP/pt/base.json" "$TMP/pt/more.json"
expect_rc 1 "the emulated gate on a test doing 5% more work"
grep -Eq 'holds: 1 of 4 tests: \[test_gate.py::test_work\] changed \+[45]\.[0-9]+%' "$TMP/out" ||
	fail "the gate does not name the test that grew by about 5%: $(grep -A2 Conditions "$TMP/out")"
ok "the gate: $(grep -o 'holds: 1 of 4 tests.*' "$TMP/out")"
run_pmc compare --fail-if 'instructions:u>+1%' "$TMP/pt/base.json" "$TMP/pt/more.json"
expect_rc 3 "a counter's instructions:u gate on emulated reports"
ok "a gate on instructions:u (a counter's) cannot judge emulated reports (exit 3): $(head -c 200 "$TMP/err")"

# 6. Ctrl-C once the test that loops until stopped runs (it says so with a file).
cat >"$TMP/pt/test_stop.py" <<'PY'
import os
def test_quick():
    sum(range(1000))
def test_until_stopped():
    s = 0
    for i in range(200000):  # far more than test_quick before saying so: its count so far is larger however soon
        s += i               # the signal comes
    open(os.environ["STOP_MARKER"], "w").close()
    while True:
        s += 1
PY
rc=0
(cd "$TMP/pt" && STOP_MARKER=$TMP/pt/stop.mark TMPDIR=$TMP/vgdir "$PY" - "$TMP/pt/stop.mark" "$PY" -m pytest -q \
	-p no:cacheprovider -p pmctool.pytest_plugin --pmctool-emulate --pmctool-report="$TMP/pt/stop.json" test_stop.py \
	>"$TMP/stop.out" 2>&1 <<'PY') || rc=$?
import os, signal, subprocess, sys, time
marker, cmd = sys.argv[1], sys.argv[2:]
# A terminal's Ctrl-C: SIGINT (not ignored, as it is for a background job of a script) to the process group.
p = subprocess.Popen(cmd, start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
t0 = time.monotonic()
while not os.path.exists(marker) and p.poll() is None and time.monotonic() - t0 < 240:
    time.sleep(0.1)
os.killpg(p.pid, signal.SIGINT)
try:
    rc = p.wait(timeout=120)
except subprocess.TimeoutExpired:
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    sys.exit("pytest under valgrind did not stop on SIGINT within 120 s (killed)")
try:
    os.killpg(p.pid, 0)
    sys.exit("a process of the session is left running after Ctrl-C")
except ProcessLookupError:
    pass
sys.exit(rc)
PY
[ $rc = 2 ] || { cat "$TMP/stop.out" >&2; fail "Ctrl-C in the emulated session: exit status $rc, expected 2"; }
[ -z "$(ls -A "$TMP/vgdir")" ] || fail "the plugin left valgrind's directory behind after Ctrl-C: $(ls -A "$TMP/vgdir")"
"$PY" - "$TMP/pt/stop.json" <<'PY' || { cat "$TMP/stop.out" >&2; fail "the report after Ctrl-C (above)"; }
import json, sys
t = {x["nodeid"].split("::")[1]: x for x in json.load(open(sys.argv[1]))["tests"]}
q, s = t["test_quick"], t["test_until_stopped"]
assert q["outcome"] == "passed" and q["counts"][0]["value"] > 0, q
assert s["outcome"] == "interrupted" and s["counts"][0]["value"] > q["counts"][0]["value"], s
print("ok: Ctrl-C: exit status 2, the report written: test_quick %d, test_until_stopped interrupted after %d "
      "instructions; nothing left running" % (q["counts"][0]["value"], s["counts"][0]["value"]))
PY
ok "the whole test: $((SECONDS - start)) s"
