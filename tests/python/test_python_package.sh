#!/usr/bin/env bash
# The Python package (python/, issue 37) as a user gets it: `pip install --no-build-isolation --no-index .` of the
# repository (pyproject.toml: meson-python builds this meson project with -Dpython=true) into a fresh venv made with
# --system-site-packages, imported from outside the source tree, driving the libpmctool-engine and libpmctool it
# installed beside itself (no variable points at a build tree):
#   0. the wheel holds the package, both libraries and the event sets, and nothing of the command-line tool;
#   1. stat(['true']) counts task-clock and page-faults; instructions is counted where a PMU exists, otherwise
#      'not supported' with the reason pmctool stat prints; to_dict() has every member `pmctool stat --json` writes
#      and the same events, statuses and reasons; repeat, batching and a metric reach the engine; an event set by
#      name is the one installed with the package;
#   2. errors are the engine's kinds with its words: an unknown event is a RequestError about 'events' (exit status
#      2, as pmctool stat exits), a missing command a LaunchError about 'argv' (127), a failing command a Result with
#      its exit_status (a CommandError with check=True), a library that is not there a LibraryNotFound naming it;
#   3. Ctrl-C (SIGINT to the Python process) during stat(["sleep", "37.25"]) ends the command at once and raises
#      StoppedError with what was counted (no command left running);
#   4. pmctool.region() in a child Python process with PMCTOOL_REGIONS_EVENTS=task-clock and PMCTOOL_REGIONS_OUT:
#      region_counts() in process and the report's JSON agree on the calls (5 and 2), task-clock counted;
#   5. the same under `pmctool stat --regions -e task-clock -- python3 script.py` (3 calls, task-clock counted);
#   6. pytest -p pmctool.pytest_plugin --pmctool-events=task-clock,instructions:u: each test in the report with its
#      outcome and counts (a 3000x bigger test > 10x the task-clock), null with the reason where not counted, the
#      variables not inherited by the tests (that part is skipped, with the reason, where pytest is missing);
#   7. (3d) pmctool.compare of two stat reports gives `pmctool compare --json`'s rows, verdicts, p-values and
#      --fail-if judgements and exit statuses (both tests); Results and dicts too; bad options are RequestErrors;
#   8. (3e) pmctool.check() gives `pmctool check --json`'s items, verdicts and titles (its uncore and energy items
#      with the same words); Result.environment is the document's environment, typed;
#   9. the CI gate: pmctool compare --fail-if 'page-faults>+1%' on two plugin reports fails (exit 1, naming the
#      test) when a test does 5% more work and passes on the same tests again; pmctool.compare agrees;
#   and help(pmctool) reads as a manual (its sections), pmctool.version() is `pmctool --version`'s.
source "$PMC_SOURCE_DIR/tests/lib.sh"
# The package builds its own libraries (meson-python, without sanitizers): an ASan tree would build and test the
# same thing again. The plain build runs this test.
sanitized_build && skip "the package builds its own (unsanitized) libraries; the plain build runs this test"
# Debian's python3 (the one python3-venv, python3-pip and python3-mesonpy belong to) where it exists.
PY=${PMC_PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 || true)}
[ -n "$PY" ] || skip "python3 is not installed"
"$PY" -m venv --system-site-packages "$TMP/venv" >"$TMP/venv.log" 2>&1 ||
	skip "'$PY -m venv' cannot make a virtual environment (Debian's python3-venv; setup.sh installs it): $(tail -1 "$TMP/venv.log")"
VPY=$TMP/venv/bin/python
touch "$TMP/venv.made"
"$VPY" -c 'import mesonpy' 2>/dev/null ||
	skip "meson-python is needed to install the package offline (Debian's python3-mesonpy; setup.sh installs it)"

# Installed from a copy of the repository's files (in a checkout git's list, files not committed yet included): pip
# builds in the tree it is given and meson-python writes its native file there; the source tree stays clean.
mkdir "$TMP/src"
if git -C "$PMC_SOURCE_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$PMC_SOURCE_DIR" ls-files -z --cached --others --exclude-standard |
		(cd "$PMC_SOURCE_DIR" && xargs -0 cp --parents -t "$TMP/src" 2>/dev/null || true)
else
	(cd "$PMC_SOURCE_DIR" && tar -c --exclude='./build*' --exclude=./.git --exclude=__pycache__ .) | tar -x -C "$TMP/src"
fi
[ -f "$TMP/src/pyproject.toml" ] || fail "no pyproject.toml copied from $PMC_SOURCE_DIR"
"$VPY" -m pip install --no-build-isolation --no-index --no-cache-dir --disable-pip-version-check -v "$TMP/src" \
	>"$TMP/pip.log" 2>&1 || { tail -60 "$TMP/pip.log" >&2; fail "pip install --no-build-isolation --no-index . failed"; }
grep -q -- '-Dpython=true' "$TMP/pip.log" ||
	{ tail -30 "$TMP/pip.log" >&2; fail "pip did not build through meson (-Dpython=true)"; }
ok "pip install --no-build-isolation --no-index . (meson-python) into a fresh --system-site-packages venv"
pkg=$("$VPY" -c 'import pmctool, os; print(os.path.dirname(pmctool.__file__))' 2>&1) || fail "import pmctool: $pkg"
for f in libpmctool-engine.so libpmctool.so events/core.set __init__.py py.typed; do
	[ -f "$pkg/$f" ] || fail "the installed package has no $f ($pkg)"
done
stray=$(find "$TMP/venv" -path '*/site-packages' -prune -o -type f -newer "$TMP/venv.made" -print)
[ -z "$stray" ] || fail "the wheel installed files outside the package (parts of the command-line tool?): $stray"
ok "installed: $(cd "$pkg" && ls *.so | tr '\n' ' ')and $(ls "$pkg/events" | wc -l) event files in $pkg"
unset PMCTOOL_ENGINE_LIB PMCTOOL_REGIONS_LIB PMCTOOL_EVENTS_DIR
# The copy it was built from is gone: what follows uses only what pip installed.
rm -rf "$TMP/src"
cd "$TMP"
run_pmc stat --json -o "$TMP/stat.json" -e task-clock,page-faults,instructions -- true
[ "$RC" = 0 ] || [ "$RC" = 3 ] || { cat "$TMP/err" >&2; fail "pmctool stat --json: exit status $RC"; }
"$VPY" - "$TMP/venv" "$TMP/stat.json" "$PMCTOOL" <<'PY' || fail "pmctool.stat and its errors (above)"
import json, os, subprocess, sys
import pmctool
venv, stat_json, pmc = sys.argv[1:4]
assert pmctool.__file__.startswith(venv), ("imported from", pmctool.__file__, "not the venv")
from pmctool import _lib
assert _lib.engine()._name.startswith(venv), ("engine library", _lib.engine()._name)
assert _lib.regions()._name.startswith(venv), ("region library", _lib.regions()._name)
# A set by name, from the package's events/ (the source copy is gone; nothing is installed under the prefix here).
try:
    rs = pmctool.stat(["true"], eventset="core")
    assert rs.counts, rs
except pmctool.NoCountError as e:   # no hardware PMU: the set's events are all hardware ones
    assert "not supported" in e.detail or "not counted" in e.detail, e.detail
cli_version = subprocess.run([pmc, "--version"], capture_output=True, text=True).stdout
assert pmctool.version() in cli_version, (pmctool.version(), cli_version)
import pydoc
manual = pydoc.render_doc(pmctool, renderer=pydoc.plaintext)
assert all(s in manual for s in ("SYNOPSIS", "RESULT", "ERRORS", "REGIONS", "ENVIRONMENT")), "help(pmctool)"

r = pmctool.stat(["true"], events=["task-clock", "page-faults", "instructions"], repeat=3, batching="rerun",
                 metrics={"faults_per_ms": "{page-faults} / ({task-clock} / 1e6)"})
assert r.runs == 3 and r.exit_status == 0 and r.seconds > 0, r
for ev in ("task-clock", "page-faults"):
    c = r[ev]
    assert c.status == "counted" and c.value > 0 and c.reason == "" and 0 < c.running <= 1, c
ins = r["instructions"]
if ins.status == "counted":
    assert ins.value > 0 and ins.reason == "" and 0 < ins.running <= 1, ins
else:
    assert ins.status in ("not supported", "not counted") and ins.value == 0 and ins.reason, ins
m = [x for x in r.metrics if x.name == "faults_per_ms"]
assert m and m[0].value is not None and m[0].value > 0, r.metrics

d, cli = r.to_dict(), json.load(open(stat_json))
assert d == json.loads(r.to_json()) and d["kind"] == "stat", "to_dict is the JSON document"
assert not set(cli) - set(d), ("members pmctool stat --json writes and to_dict() lacks", set(cli) - set(d))
assert d["runs"]["count"] == 3, d["runs"]
for mine, theirs, typed in zip(d["events"], cli["events"], r.counts):
    assert mine["name"] == theirs["name"] == typed.event, (mine["name"], theirs["name"], typed.event)
    assert mine["status"] == theirs["status"], (mine["name"], mine["status"], theirs["status"])
    assert typed.status == {"ok": "counted"}.get(mine["status"], mine["status"]), (mine["status"], typed.status)
    assert mine["reason"] == theirs["reason"], (mine["name"], mine["reason"], theirs["reason"])
    assert (mine["reason"] or "") == typed.reason, (mine["reason"], typed.reason)
print("ok: stat(['true']): task-clock %.0f, page-faults %.1f counted over %d runs; instructions %s%s; to_dict() "
      "has stat --json's %d members, its events, statuses and reasons"
      % (r["task-clock"].value, r["page-faults"].value, r.runs, ins.status,
         " (%s)" % ins.reason if ins.reason else "", len(cli)))

try:
    pmctool.stat(["true"], events="task-clock,no-such-event")
    raise AssertionError("an unknown event was not refused")
except pmctool.RequestError as e:
    assert e.subject == "events" and "no-such-event" in e.detail and e.exit_status == 2 and e.result is None, vars(e)
    refused = e
run = subprocess.run([pmc, "stat", "-e", "task-clock,no-such-event", "--", "true"], capture_output=True, text=True)
assert run.returncode == refused.exit_status and refused.detail in run.stderr, (run.returncode, run.stderr, refused.detail)
try:
    pmctool.stat(["/nonexistent/pmctool-py"], events="task-clock")
    raise AssertionError("a missing command was not refused")
except pmctool.LaunchError as e:
    assert e.subject == "argv" and e.exit_status == 127 and "/nonexistent/pmctool-py" in e.detail, vars(e)
f = pmctool.stat(["sh", "-c", "exit 7"], events="task-clock")
assert f.exit_status == 7 and f["task-clock"].status == "counted", f
try:
    pmctool.stat(["sh", "-c", "exit 7"], events="task-clock", check=True)
    raise AssertionError("check=True did not raise for a failing command")
except pmctool.CommandError as e:
    assert e.result is not None and e.result.exit_status == 7 and e.exit_status == 7, vars(e)
try:
    pmctool.stat(["true"], batching="sometimes")
    raise AssertionError("a wrong batching was not refused")
except pmctool.RequestError as e:
    assert e.subject == "batching" and e.exit_status == 2, vars(e)
print("ok: errors: RequestError 'events' (exit status 2, the CLI's words), LaunchError 'argv' (127), a failing "
      "command's exit_status 7 (CommandError with check=True), RequestError 'batching'")
PY

# A library that is not there: a LibraryNotFound (an ImportError) naming the variable, at first use.
out=$(PMCTOOL_ENGINE_LIB=$TMP/none.so "$VPY" -c 'import pmctool
try:
    pmctool.version()
except pmctool.LibraryNotFound as e:
    print("refused:", e)' 2>&1)
case $out in "refused: PMCTOOL_ENGINE_LIB=$TMP/none.so: "*) ok "a missing engine library: $out" ;;
*) fail "PMCTOOL_ENGINE_LIB naming no library: $out" ;; esac

# 3. Ctrl-C: the SIGINT a terminal sends the Python process (the command runs in its own process group).
"$VPY" - <<'PY' || fail "Ctrl-C during pmctool.stat (above)"
import os, signal, subprocess, threading, time
import pmctool
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
t0 = time.monotonic()
try:
    pmctool.stat(["sleep", "37.25"], events="task-clock")
    raise AssertionError("not stopped")
except pmctool.StoppedError as e:
    took = time.monotonic() - t0
    assert took < 10, took
    assert e.exit_status == 130 and e.result is not None and e.result.to_dict()["partial"] is True, vars(e)
    left = subprocess.run(["pgrep", "-f", "-x", "sleep 37.25"], capture_output=True, text=True).stdout
    assert not left, ("a command left running", left)
    print("ok: Ctrl-C after 0.5 s stopped 'sleep 37.25' in %.1f s: StoppedError, exit_status 130, a partial result "
          "(task-clock %s)" % (took, e.result["task-clock"].status))
PY

# 3b. This program's own subprocesses are not the engine's: one that exited before stat() keeps its status for
# Popen.wait(), and the process is no subreaper after (the engine made it one for good and reaped with waitpid(-1)).
"$VPY" - <<'PY' || fail "a Python subprocess's status after pmctool.stat (above)"
import ctypes, subprocess, time
import pmctool
p = subprocess.Popen(["sh", "-c", "exit 3"])
time.sleep(0.3)
pmctool.stat(["true"], events="task-clock")
assert p.wait() == 3, ("the subprocess's status was taken", p.returncode)
libc = ctypes.CDLL(None)
flag = ctypes.c_int(-1)
PR_GET_CHILD_SUBREAPER = 37
assert libc.prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0 and flag.value == 0, flag.value
print("ok: a subprocess that exited before pmctool.stat() keeps its status (3); the process is no subreaper after")
PY

# 3c. The built-in kernels: the names `pmctool kernels` lists, and one that runs here measured by name.
"$PMCTOOL" kernels 2>/dev/null | grep -E '^[a-z0-9][a-z0-9_.-]*$' >"$TMP/kernels.txt" || true
"$VPY" - "$TMP/kernels.txt" <<'PY' || fail "pmctool.kernels() (above)"
import sys
import pmctool
ks = pmctool.kernels()
cli = open(sys.argv[1]).read().split()
assert [k.name for k in ks] == cli, ([k.name for k in ks], cli)
k = next(k for k in ks if k.runs_here)
r = pmctool.stat(kernel=k.name, iters=1000, events="task-clock")
assert r["task-clock"].counted and r["task-clock"].unit == "ns", r["task-clock"]
print("ok: pmctool.kernels(): %d kernels, as `pmctool kernels` lists them; %s measured by name (task-clock %.0f ns)"
      % (len(ks), k.name, r["task-clock"].value))
PY

# 3d. pmctool.compare: `pmctool compare A B`'s rows, statistics, verdict words and --fail-if judgements, through the
# engine library; two real stat reports of different commands (true: ~48 page faults; ls: more).
run_pmc stat --json -o "$TMP/cmp-a.json" -r 3 -e task-clock,page-faults -- true
expect_rc 0 "pmctool stat --json (true)"
run_pmc stat --json -o "$TMP/cmp-b.json" -r 3 -e task-clock,page-faults -- ls /
expect_rc 0 "pmctool stat --json (ls)"
i=0
for t in welch mann-whitney; do
	for cond in 'page-faults>+1%' 'page-faults<-50%' 'no-such-event>+1%'; do
		i=$((i + 1))
		run_pmc compare --json -o "$TMP/cmp-$i.json" --test "$t" --fail-if "$cond" "$TMP/cmp-a.json" "$TMP/cmp-b.json"
		echo "$t $cond $RC $TMP/cmp-$i.json" >>"$TMP/cmp.list"
	done
done
"$VPY" - "$TMP/cmp-a.json" "$TMP/cmp-b.json" "$TMP/cmp.list" <<'PY' || fail "pmctool.compare vs pmctool compare"
import json, math, sys
import pmctool
a, b, runs = sys.argv[1:4]
n = 0
for line in open(runs):
    test, cond, rc, out = line.split()
    cli = json.load(open(out))
    c = pmctool.compare(a, b, test=test, fail_if=cond)
    assert c.exit_status == int(rc), (test, cond, c.exit_status, rc, c.conditions)
    assert c.test == cli["test"] and c.alpha == cli["alpha"], (c.test, cli["test"])
    assert [x.name for x in c.changes] == [r["name"] for r in cli["rows"]], ([x.name for x in c.changes], cli["rows"])
    for mine, theirs in zip(c.changes, cli["rows"]):
        assert mine.verdict == theirs["verdict"] and mine.verdict in pmctool.VERDICTS, (mine, theirs)
        assert mine.kind == theirs["kind"] and mine.runs_a == theirs["n_a"] == 3, (mine, theirs)
        for k in ("a", "b", "p", "diff"):
            x, y = getattr(mine, k), theirs[k]
            assert (x is None and y is None) or math.isclose(x, y, rel_tol=1e-12), (k, mine, theirs)
    (cc,), (tc,) = c.conditions, cli["conditions"]
    assert cc.text == tc["condition"] == cond and cc.why == tc["why"], (cc, tc)
    assert {True: "holds", False: "does not hold", None: "cannot judge"}[cc.holds] == tc["state"], (cc, tc)
    n += 1
pf = pmctool.compare(a, b)["page-faults"]
assert pf.verdict == "significant" and pf.b > pf.a, pf
# Results and dicts as well as paths; a Result against itself is no difference.
r = pmctool.stat(["true"], events="task-clock,page-faults", repeat=2)
same = pmctool.compare(r, r.to_dict())
assert all(x.verdict == "no difference" for x in same.changes if x.kind == "event"), same.changes
for bad, subject in (({"test": "t"}, "test"), ({"alpha": 1.5}, "alpha"), ({"fail_if": "x"}, "fail_if")):
    try:
        pmctool.compare(a, b, **bad)
        raise AssertionError(f"{bad} accepted")
    except pmctool.RequestError as e:
        assert e.subject == subject and e.exit_status == 2 and e.detail, (bad, e.subject, e.detail)
try:
    pmctool.compare({"kind": "sweep"}, b)
    raise AssertionError("a document that is not a stat report accepted")
except pmctool.RequestError as e:
    assert e.subject == "a" and "stat report" in e.detail, e.detail
print(f"ok: pmctool.compare: {n} comparisons with pmctool compare's rows, verdicts, p-values and --fail-if exit "
      f"statuses (page-faults {pf.a:.0f} -> {pf.b:.0f}: {pf.verdict}); bad options are RequestErrors")
PY

# 3e. pmctool.check: `pmctool check --json`'s items, verdicts and details (the uncore and energy items word for
# word: they are facts of the machine); and a result's typed environment is its document's.
check_rc=0
"$PMCTOOL" check --json >"$TMP/check.json" 2>"$TMP/check.err" || check_rc=$?
PATH=/usr/bin:/bin "$VPY" - "$TMP/check.json" "$check_rc" <<'PY' || fail "pmctool.check() (above)"
import json, sys
import pmctool
cli, cli_rc = json.load(open(sys.argv[1])), int(sys.argv[2])
t = pmctool.check()
cli_items = cli["items"]
assert [i.name for i in t.items] == [i["name"] for i in cli_items], ([i.name for i in t.items], cli_items)
for mine, theirs in zip(t.items, cli_items):
    assert mine.verdict == theirs["verdict"] and mine.verdict in pmctool.TRUST_VERDICTS, (mine, theirs)
    assert mine.title == theirs["title"] and mine.detail, (mine, theirs)
    if mine.name in ("pmu", "instructions", "uncore", "energy"):  # facts of the machine, not counts: the same words
        assert mine.detail == theirs["detail"], (mine.detail, theirs["detail"])
assert t.exit_status in (0, 10, 11) and t.verdict in pmctool.TRUST_VERDICTS and t.summary, t
if t["pmu"].verdict == "unavailable":  # no PMU: pmctool check exits 11 too (its uncore items cannot raise that)
    assert t.exit_status == cli_rc == 11 and t.verdict == cli["overall"]["verdict"], (t, cli_rc, cli["overall"])
r = pmctool.stat(["true"], events="task-clock")
env, doc = r.environment, r.to_dict()["environment"]
assert all(getattr(env, k) == v for k, v in doc.items() if k in pmctool.Environment.__dataclass_fields__), (env, doc)
assert env.arch and env.kernel and env.backend == "perf_event", env
print(f"ok: pmctool.check(): {len(t.items)} items as pmctool check gives them ("
      + ", ".join(f"{i.name} {i.verdict}" for i in t.items) + f"), overall {t.verdict}, exit status {t.exit_status}; "
      f"environment {env.arch} {env.kernel} {env.backend}")
PY

# 4. Regions of a Python process, counted by libpmctool standalone.
PMCTOOL_REGIONS_EVENTS=task-clock PMCTOOL_REGIONS_OUT=$TMP/regions.json "$VPY" - <<'PY' >"$TMP/rg.out" ||
import pmctool
for _ in range(5):
    with pmctool.region("py-loop"):
        sum(range(20000))

@pmctool.region("py-func")
def f():
    return sum(range(1000))

f(); f()
calls, values = pmctool.region_counts("py-loop")
assert calls == 5 and len(values) == 1 and values[0] > 0, (calls, values)
print("in process:", calls, values[0], pmctool.regions_read_method())
PY
	fail "pmctool.region in a Python process: $(cat "$TMP/rg.out")"
"$VPY" - "$TMP/regions.json" <<'PY' || fail "the region report of a Python process ($TMP/regions.json)"
import json, sys
rg = {r["name"]: r for r in json.load(open(sys.argv[1]))["regions"]["list"]}
assert rg["py-loop"]["calls"] == 5 and rg["py-func"]["calls"] == 2, {k: v["calls"] for k, v in rg.items()}
tc = [c for c in rg["py-loop"]["counts"] if c["event"] == "task-clock"]
assert tc and tc[0]["value"] > 0, rg["py-loop"]["counts"]
print("ok: pmctool.region in Python: py-loop 5 calls, py-func 2 calls, task-clock %d ns in py-loop" % tc[0]["value"])
PY
ok "region_counts in process: $(cat "$TMP/rg.out")"
# The installed libpmctool's emulated spans (pytest --pmctool-emulate; test_python_emulate.sh drives them): natively
# -ENODEV, -ENOSYS when meson-python built it without valgrind's callgrind.h.
em=$("$VPY" -c 'from pmctool.regions import emulated_begin; print(emulated_begin())' 2>&1)
case $em in
-19) ok "the installed libpmctool has pmctool_emulated_begin (natively -ENODEV)" ;;
-38) echo "note: the installed libpmctool was built without valgrind's callgrind.h: no --pmctool-emulate" ;;
*) fail "pmctool.regions.emulated_begin() in the installed package: $em" ;;
esac

# 5. The same regions under `pmctool stat --regions` (pmctool hands the Python process its events and reads them).
cat >"$TMP/rg.py" <<'PY'
import pmctool
for _ in range(3):
    with pmctool.region("py-block"):
        sum(range(20000))
PY
run_pmc stat --regions --json -o "$TMP/cli-regions.json" -e task-clock -- "$VPY" "$TMP/rg.py"
expect_rc 0 "pmctool stat --regions -- python3 (pmctool.region)"
"$VPY" - "$TMP/cli-regions.json" <<'PY' || fail "pmctool stat --regions of a Python process ($TMP/cli-regions.json)"
import json, sys
d = json.load(open(sys.argv[1]))
rg = {r["name"]: r for r in d["regions"]["list"]}
assert rg["py-block"]["calls"] == 3, {k: v["calls"] for k, v in rg.items()}
tc = [c for c in rg["py-block"]["counts"] if c["event"] == "task-clock"]
assert tc and tc[0]["value"] > 0, rg["py-block"]["counts"]
print("ok: pmctool stat --regions -- python3: py-block 3 calls, task-clock %d ns" % tc[0]["value"])
PY

# 6. The pytest plugin: each test's counts (its call phase) in the report, null with the reason where not counted.
if ! "$VPY" -c 'import pytest' 2>/dev/null; then
	echo "SKIP (part 6 only): pytest is not installed (Debian's python3-pytest; setup.sh installs it)"
	exit 0
fi
mkdir "$TMP/pt"
cat >"$TMP/pt/test_demo.py" <<'PY'
import os
def test_small():
    assert sum(range(1000)) == 499500
def test_big():
    assert sum(range(3000000)) > 0
def test_env_not_inherited():
    assert "PMCTOOL_REGIONS_EVENTS" not in os.environ
def test_fails():
    assert 0
PY
rc=0
(cd "$TMP/pt" && "$VPY" -m pytest -q -p no:cacheprovider -p pmctool.pytest_plugin \
	--pmctool-events=task-clock,instructions:u --pmctool-report="$TMP/pt/counts.json" test_demo.py >"$TMP/pt.out" 2>&1) ||
	rc=$?
[ $rc = 1 ] || { cat "$TMP/pt.out" >&2; fail "pytest with the plugin: exit status $rc, expected 1 (one test fails)"; }
grep -q "^pmctool: counts of 4 test(s) (task-clock, instructions:u) in $TMP/pt/counts.json" "$TMP/pt.out" ||
	fail "pytest's summary lacks the plugin's line: $(tail -3 "$TMP/pt.out")"
"$VPY" - "$TMP/pt/counts.json" <<'PY' || fail "the plugin's report ($TMP/pt/counts.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kind"] == "pytest" and [e["name"] for e in d["events"]] == ["task-clock", "instructions:u"], d["events"]
ev = {e["name"]: e for e in d["events"]}
assert ev["task-clock"]["status"] == "counted", ev
t = {x["nodeid"].split("::")[1]: x for x in d["tests"]}
assert sorted(t) == ["test_big", "test_env_not_inherited", "test_fails", "test_small"], sorted(t)
assert t["test_fails"]["outcome"] == "failed" and t["test_small"]["outcome"] == "passed", t
tc = {k: v["counts"][0]["value"] for k, v in t.items()}
assert all(isinstance(v, int) and v > 0 for v in tc.values()), tc
assert tc["test_big"] > 10 * tc["test_small"], ("3000 times the work is not 10 times the task-clock", tc)
ins = [v["counts"][1]["value"] for v in t.values()]
if ev["instructions:u"]["status"] == "counted":
    assert all(isinstance(v, int) and v > 0 for v in ins), ins
else:
    assert all(v is None for v in ins) and ev["instructions:u"]["reason"], (ins, ev["instructions:u"])
print("ok: pytest -p pmctool.pytest_plugin: 4 tests, task-clock small %d big %d ns; instructions:u %s%s"
      % (tc["test_small"], tc["test_big"], ev["instructions:u"]["status"],
         " (null: %s)" % ev["instructions:u"]["reason"] if ins[0] is None else ""))
PY

# 7. The CI gate: `pmctool compare --fail-if EVENT>+1%` on two plugin reports (base, new) judges every test. A test
# made to do more work (touching 5% more pages: page-faults, which count exactly here as instructions do on a PMU)
# fails the gate (exit 1, the test named); the same tests again pass it (exit 0); an event no test counted cannot be
# judged (exit 3, as compare says for an event measured in neither).
cat >"$TMP/pt/test_gate.py" <<'PY'
import mmap, os
PAGES = int(os.environ.get("GATE_PAGES", "2000"))
def touch(n):
    # Fresh anonymous pages of their own, one fault each: a bytearray may reuse heap pages an earlier test touched
    # (glibc raises its mmap threshold after a free), which made the same test fault 933 and 996 times.
    m = mmap.mmap(-1, n * 4096)
    if hasattr(mmap, "MADV_NOHUGEPAGE"):
        m.madvise(mmap.MADV_NOHUGEPAGE)  # one fault per 4 KiB page, transparent huge pages or not
    for i in range(0, n * 4096, 4096):
        m[i] = 1
    m.close()
def test_work():
    touch(PAGES)
def test_steady():
    touch(1000)
PY
for run in base again more; do
	pages=2000
	[ "$run" = more ] && pages=2100
	(cd "$TMP/pt" && GATE_PAGES=$pages "$VPY" -m pytest -q -p no:cacheprovider -p pmctool.pytest_plugin \
		--pmctool-events=page-faults,instructions:u --pmctool-report="$TMP/pt/$run.json" test_gate.py \
		>"$TMP/pt-$run.out" 2>&1) || { cat "$TMP/pt-$run.out" >&2; fail "pytest with the plugin ($run)"; }
done
run_pmc compare --fail-if 'page-faults>+1%' "$TMP/pt/base.json" "$TMP/pt/again.json"
expect_rc 0 "the gate on the same tests twice"
expect_out 'page-faults \[test_gate.py::test_work\] ' "compare of two plugin reports lists each test's row"
grep -q 'does not hold: none of 2 tests' "$TMP/out" || fail "the gate's condition: $(grep -A2 Conditions "$TMP/out")"
run_pmc compare --fail-if 'page-faults>+1%' "$TMP/pt/base.json" "$TMP/pt/more.json"
expect_rc 1 "the gate on a test doing 5% more work"
grep -Eq 'holds: 1 of 2 tests: \[test_gate.py::test_work\] changed \+[0-9.]+%' "$TMP/out" ||
	fail "the gate does not name the test that grew: $(grep -A2 Conditions "$TMP/out")"
if "$VPY" -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["events"][1]["status"] == "counted")' \
	"$TMP/pt/base.json"; then
	run_pmc compare --fail-if 'instructions:u>+1%' "$TMP/pt/base.json" "$TMP/pt/more.json"
	expect_rc 3 "a gate on an event no test counted"
	grep -q "no test's 'instructions:u' was measured in both reports" "$TMP/err" ||
		fail "the unjudged gate's message: $(cat "$TMP/err")"
fi
"$VPY" - "$TMP/pt/base.json" "$TMP/pt/more.json" <<'PY' || fail "pmctool.compare of two plugin reports"
import sys
import pmctool
c = pmctool.compare(sys.argv[1], sys.argv[2], fail_if="page-faults>+1%")
assert c.exit_status == 1 and c.conditions[0].holds, c.conditions
w = c["page-faults [test_gate.py::test_work]"]
assert w.b > w.a * 1.03 and c.same_environment is True, (w, c.same_environment)
print(f"ok: the gate: page-faults of test_work {w.a:.0f} -> {w.b:.0f} fails 'page-faults>+1%' (exit 1); the same "
      f"tests again pass it (exit 0); pmctool.compare agrees")
PY
