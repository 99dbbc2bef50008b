#!/usr/bin/env bash
# pmctool.stat with every field of the engine's request (include/pmctool_engine.h, issue 37), on the build tree's
# libpmctool-engine (the package's install is test_python_package's part): software events, counted everywhere; a
# hardware event counted or 'not supported' with the reason. Each part compared with `pmctool stat` where cheap:
#   1. targets (pids, tids, cpus, system_wide) with timeout: a busy child attached for 0.3 s (task-clock, switches,
#      page-faults counted), CPU 0 and every CPU for 0.2 s; to_dict()'s members, target, events, statuses and
#      reasons are the CLI's for the same options;
#   2. interval + on_interval: `sleep 0.65` at 0.1 s gives 5..8 typed Intervals in order (index 1.., start < end,
#      task-clock counted in ns each), as many as the document's target.intervals and as `stat -I 100` writes, with
#      the same events; attached to the child with a timeout, each interval has its task-clock;
#   3. an exception raised in on_interval stops the measurement (no command left running, no call after it) and is
#      re-raised by stat() itself; the next measurement is not stopped;
#   4. params (a dict, a list, a string): the workload `stat -k loop --param inner=8` names;
#   5. regions=True of rg-prog: Result.regions typed (inner 6 calls, outer 3, b-only 1), equal to to_dict()'s
#      regions.list (calls, counts, None where NaN) and to `stat --regions`' names and calls;
#   6. delay (0.2 s, and -1 with control descriptors: 'enable' written at 0.2 s, 'ack' read back), timeout with a
#      command (ended by the timeout as the CLI says);
#   7. every wrong field a RequestError naming it (exit_status 2, no result), and `pmctool stat` exits 2 where the
#      same options have a CLI spelling.
source "$PMC_SOURCE_DIR/tests/lib.sh"
# The library is loaded into python3, which has no sanitizer runtime: the plain build runs this test.
sanitized_build && skip "an ASan libpmctool-engine cannot be loaded into python3; the plain build runs this test"
PY=${PMC_PYTHON:-$( [ -x /usr/bin/python3 ] && echo /usr/bin/python3 || command -v python3 || true)}
[ -n "$PY" ] || skip "python3 is not installed"
lib=$PMC_BUILD_DIR/src/api/libpmctool-engine.so.0
[ -f "$lib" ] || lib=$PMC_BUILD_DIR/src/api/libpmctool-engine.so
[ -f "$lib" ] || skip "no libpmctool-engine in $PMC_BUILD_DIR/src/api (a static build has none)"
export PMCTOOL_ENGINE_LIB=$lib PYTHONPATH=$PMC_SOURCE_DIR/python RG_PROG=$PMC_BUILD_DIR/tests/regions/prog/rg-prog
cd "$TMP"
"$PY" - "$PMCTOOL" <<'PY' || fail "pmctool.stat's request fields (above)"
import json, math, os, re, subprocess, sys, threading, time
import pmctool

pmc = sys.argv[1]
EV = "task-clock,context-switches,page-faults,instructions"
ROOT = os.geteuid() == 0


def cli(*args, rc=0):
    """`pmctool stat ARGS --json -o F`: its document (rc: the status it must exit with)."""
    out = os.path.abspath("cli-%d.json" % time.monotonic_ns())
    run = subprocess.run([pmc, "stat", "--json", "-o", out, *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == rc, (args, run.returncode, run.stderr)
    with open(out) as f:
        lines = f.read().splitlines()
    return [json.loads(x) for x in lines]


def same_as_cli(r, doc, what):
    """to_dict() and the CLI's document: the same members, target, and per event the same status and reason."""
    d = r.to_dict()
    assert set(d) == set(doc), (what, set(d) ^ set(doc))
    for k in ("kind", "ended_by", "aggregation"):
        assert d["target"][k] == doc["target"][k], (what, k, d["target"], doc["target"])
    assert [(e["name"], e["status"], e["reason"]) for e in d["events"]] == \
        [(e["name"], e["status"], e["reason"]) for e in doc["events"]], (what, d["events"], doc["events"])


def hardware_counted_or_said(c):
    if c.status != "counted":
        assert c.status == "not supported" and c.value == 0 and len(c.reason) > 10, c


def busy_child():  # on a CPU most of the time, switching out now and then
    busy = "import time\nwhile True:\n    sum(range(20000))\n    time.sleep(0.0001)"
    return subprocess.Popen([sys.executable, "-c", busy])


# ---- 1. targets with a timeout -------------------------------------------------------------------------------------
child = busy_child()
try:
    time.sleep(0.1)
    for kw, opts in (({"pids": [child.pid]}, ["-p", str(child.pid)]), ({"tids": child.pid}, ["-t", str(child.pid)])):
        r = pmctool.stat(events=EV, timeout=0.3, **kw)
        tc, cs = r["task-clock"], r["context-switches"]
        assert tc.status == "counted" and 1e6 < tc.value < 10e9 and tc.unit == "ns", (kw, tc)
        assert (cs.status == "counted" and cs.value >= 1) or (not ROOT and cs.status == "not supported"), (kw, cs)
        assert r["page-faults"].status == "counted", r["page-faults"]
        hardware_counted_or_said(r["instructions"])
        assert r.runs == 1 and 0.25 < r.seconds < 10 and r.exit_status == 0, r
        same_as_cli(r, cli(*opts, "--timeout", "300", "-e", EV)[-1], kw)
        print("ok: %s for 0.3 s: task-clock %.1f ms, context-switches %.0f, page-faults %.0f, instructions %s; "
              "to_dict() is `stat %s --timeout 300 --json`'s shape" % (list(kw)[0], tc.value / 1e6, cs.value,
              r["page-faults"].value, r["instructions"].status, opts[0]))
finally:
    child.kill()
    child.wait()
for kw, opts in (({"cpus": [0]}, ["-C", "0"]), ({"system_wide": True}, ["-a"])):
    try:
        r = pmctool.stat(events="task-clock,context-switches", timeout=0.2, **kw)
    except pmctool.NoCountError as e:  # CPU-wide counting needs privilege: the error names it
        assert not ROOT and "perf_event_paranoid" in e.detail, vars(e)
        print("ok: %s refused without privilege: %s" % (list(kw)[0], e.detail[:80]))
        continue
    tc = r["task-clock"]
    assert tc.status == "counted" and 100e6 < tc.value < 5e9 * os.cpu_count(), (kw, tc)
    assert 0.19 <= r.seconds < 10, r.seconds
    same_as_cli(r, cli(*opts, "--timeout", "200", "-e", "task-clock,context-switches")[-1], kw)
    print("ok: %s for 0.2 s: task-clock %.1f ms in %.3f s; to_dict() is `stat %s --timeout 200`'s shape"
          % (kw, tc.value / 1e6, r.seconds, opts[0]))

# ---- 2. intervals ----------------------------------------------------------------------------------------------------
seen = []
r = pmctool.stat(["sleep", "0.65"], events="task-clock,context-switches", interval=0.1, on_interval=seen.append)
assert 5 <= len(seen) <= 8, [(iv.index, iv.end) for iv in seen]
assert all(isinstance(iv, pmctool.Interval) for iv in seen)
assert [iv.index for iv in seen] == list(range(1, len(seen) + 1)), [iv.index for iv in seen]
assert all(iv.start < iv.end for iv in seen) and all(a.end <= b.start + 1e-9 for a, b in zip(seen, seen[1:])), seen
assert all(iv["task-clock"].counted and iv["task-clock"].unit == "ns" for iv in seen), seen
assert seen[-1].end >= 0.6 and r["task-clock"].counted, (seen[-1], r["task-clock"])
assert r.to_dict()["target"]["intervals"] == len(seen), (r.to_dict()["target"], len(seen))
recs = cli("-I", "100", "-e", "task-clock,context-switches", "--", "sleep", "0.65")
ivs = [x for x in recs if x["kind"] == "interval"]
n_cli = max(x["interval"] for x in ivs)
assert 5 <= n_cli <= 8 and recs[-1]["target"]["intervals"] == n_cli, (n_cli, recs[-1]["target"])
assert sorted({x["event"] for x in ivs}) == sorted(c.event for c in seen[0]), (ivs[0], seen[0])
assert {x["unit"] for x in ivs if x["event"] == "task-clock"} == {seen[0]["task-clock"].unit}
print("ok: sleep 0.65 at 0.1 s: %d Intervals in order, the last ending at %.3f s (stat -I 100: %d), each with "
      "task-clock in ns" % (len(seen), seen[-1].end, n_cli))
child = busy_child()
try:
    time.sleep(0.1)
    seen = []
    r = pmctool.stat(pids=child.pid, events="task-clock", timeout=0.35, interval=0.1, on_interval=seen.append)
finally:
    child.kill()
    child.wait()
assert 3 <= len(seen) <= 5 and all(iv["task-clock"].value > 0 for iv in seen), seen
print("ok: attached for 0.35 s at 0.1 s: %d intervals, task-clock %s ms"
      % (len(seen), ", ".join("%.1f" % (iv["task-clock"].value / 1e6) for iv in seen)))

# ---- 3. on_interval raising ------------------------------------------------------------------------------------------
for exc, where in ((ValueError("bad interval"), "command"), (SystemExit(4), "command"),
                   (RuntimeError("attached"), "pids")):
    calls = []

    def raising(iv, exc=exc, calls=calls):
        calls.append(iv.index)
        if iv.index == 2:
            raise exc

    child = busy_child() if where == "pids" else None
    kw = {"pids": [child.pid], "timeout": 5.37} if child else {"argv": ["sleep", "5.37"]}
    t0 = time.monotonic()
    try:
        pmctool.stat(events="task-clock", interval=0.1, on_interval=raising, **kw)
        raise AssertionError("the callback's exception was not raised")
    except BaseException as e:
        took = time.monotonic() - t0
        assert e is exc, (e, exc)
    finally:
        if child:
            child.kill()
            child.wait()
    assert calls == [1, 2] and took < 4, (calls, took)
    left = subprocess.run(["pgrep", "-f", "-x", "sleep 5.37"], capture_output=True, text=True).stdout
    assert not left, ("a command left running", left)
    print("ok: %s raised by on_interval (%s) after 2 intervals: stopped in %.2f s, re-raised by stat(), nothing left "
          "running" % (type(exc).__name__, where, took))
assert pmctool.stat(["true"], events="task-clock")["task-clock"].counted  # the next one is not stopped

# ---- 4. params -------------------------------------------------------------------------------------------------------
def unpinned(workload):  # the CPU the kernel ran on is where the scheduler put it
    return re.sub(r", cpu [0-9]+", "", workload)


want = unpinned(cli("-k", "loop", "--param", "inner=8", "--iters", "1000", "-e", "task-clock")[-1]["workload"])
for params in ({"inner": 8}, ["inner=8"], "inner=8"):
    w = unpinned(pmctool.stat(kernel="loop", params=params, iters=1000, events="task-clock").to_dict()["workload"])
    assert "inner=8" in w and w == want, (params, w, want)
print("ok: params {'inner': 8}, ['inner=8'], 'inner=8': workload %r, as stat -k loop --param inner=8" % want)

# ---- 5. regions ------------------------------------------------------------------------------------------------------
rg = os.environ["RG_PROG"]
if os.access(rg, os.X_OK):
    r = pmctool.stat([rg, "basic"], events="task-clock,instructions", regions=True)
    calls = {g.name: g.calls for g in r.regions}
    assert calls == {"inner": 6, "outer": 3, "b-only": 1}, calls
    inner = r.region("inner")
    assert isinstance(inner, pmctool.Region) and 0 < inner["task-clock"] < r["task-clock"].value, inner
    if not r["instructions"].counted:
        assert inner["instructions"] is None, inner
    doc = r.to_dict()["regions"]["list"]
    assert [(g["name"], g["calls"], {c["event"]: c["value"] for c in g["counts"]}) for g in doc] == \
        [(g.name, g.calls, g.counts) for g in r.regions], (doc, r.regions)
    theirs = cli("--regions", "-e", "task-clock,instructions", "--", rg, "basic")[-1]["regions"]
    assert set(theirs) == set(r.to_dict()["regions"]), set(theirs) ^ set(r.to_dict()["regions"])
    assert [(g["name"], g["calls"]) for g in theirs["list"]] == [(g.name, g.calls) for g in r.regions], theirs
    print("ok: regions of rg-prog basic: %s; inner's task-clock %.0f ns of %.0f; to_dict()'s list and "
          "`stat --regions`' names and calls agree" % (calls, inner["task-clock"], r["task-clock"].value))
else:
    print("SKIP (part 5 only): no %s" % rg)

# ---- 6. delay, control, timeout ------------------------------------------------------------------------------------
r = pmctool.stat(["sleep", "0.5"], events="task-clock", delay=0.2)
delayed = r.to_dict()["counting_ns"]["delayed"]
assert 0.19e9 <= delayed < 5e9 and any(c.name == "counting-paused" for c in r.checks), (delayed, r.checks)
assert [c.name for c in r.checks] == [c["name"] for c in cli("-D", "200", "-e", "task-clock", "--", "sleep",
                                                             "0.5")[-1]["checks"]], r.checks
ctl_r, ctl_w = os.pipe()
ack_r, ack_w = os.pipe()
got = []


def controller():
    time.sleep(0.2)
    os.write(ctl_w, b"enable\n")
    got.append(os.read(ack_r, 16))


t = threading.Thread(target=controller)
t.start()
try:
    r = pmctool.stat(["sleep", "0.6"], events="task-clock", delay=-1, control=(ctl_r, ack_w))
except pmctool.NoCountError as e:  # sleep may never be on a CPU while counting is on
    r = e.result
t.join()
for fd in (ctl_r, ctl_w, ack_r, ack_w):
    os.close(fd)
assert got == [b"ack\n"], got
assert any(c.name == "counting-paused" and "delayed" in c.message for c in r.checks), r.checks
print("ok: delay 0.2 s: %.0f ms delayed (stat -D 200: the same checks); delay -1 with control: 'enable' at 0.2 s "
      "acknowledged %r, counting paused until then" % (delayed / 1e6, got[0]))
t0 = time.monotonic()
r = pmctool.stat(["sleep", "5.38"], events="task-clock", timeout=0.3)
took = time.monotonic() - t0
doc = cli("--timeout", "300", "-e", "task-clock", "--", "sleep", "5.38")[-1]
assert took < 4 and r.exit_status == doc["exit_status"], (took, r.exit_status, doc["exit_status"])
assert r.to_dict()["target"]["ended_by"] == doc["target"]["ended_by"], (r.to_dict()["target"], doc["target"])
assert [c.name for c in r.checks] == [c["name"] for c in doc["checks"]], (r.checks, doc["checks"])
print("ok: timeout 0.3 s of sleep 5.38: ended in %.2f s by %r, exit_status %d, checks %s, as stat --timeout 300"
      % (took, doc["target"]["ended_by"], r.exit_status, [c.name for c in r.checks]))

# ---- 7. wrong fields -------------------------------------------------------------------------------------------------
T = ["true"]
BAD = [  # (stat's keywords, the subject, `pmctool stat` options meaning the same, or None)
    (dict(pids=[-3]), "pids", ["-p", "-3"]),
    (dict(pids=[]), "pids", None),
    (dict(pids="12"), "pids", None),
    (dict(tids=[-3]), "tids", ["-t", "-3"]),
    (dict(cpus=[-3]), "cpus", ["-C", "-3"]),
    (dict(cpus=[True]), "cpus", None),
    (dict(cpus=[2**40]), "cpus", None),
    (dict(system_wide=True, cpus=[0]), "system_wide", None),  # the CLI counts -a -C 0 as -C 0
    (dict(pids=[1], cpus=[0]), "pids", ["-p", "1", "-C", "0"]),
    (dict(kernel="loop", pids=[1]), "kernel", None),
    (dict(cpus=[0], repeat=3), "runs", ["-C", "0", "-r", "3"]),
    (dict(argv=T, interval=0.005), "interval_ms", ["-I", "5", "true"]),
    (dict(argv=T, interval=True), "interval_ms", None),
    (dict(argv=T, on_interval=print), "on_interval", None),
    (dict(argv=T, interval=0.1, on_interval=5), "on_interval", None),
    (dict(argv=T, timeout=0), "timeout_ms", ["--timeout", "0", "true"]),
    (dict(argv=T, timeout="1"), "timeout_ms", None),
    (dict(argv=T, timeout=math.inf), "timeout_ms", None),
    (dict(argv=T, regions=True, system_wide=True), "regions", ["--regions", "-a", "true"]),
    (dict(kernel="loop", regions=True), "regions", None),
    (dict(argv=T, regions=True, delay=0.01), "regions", ["--regions", "-D", "10", "true"]),
    (dict(argv=T, delay=-2), "delay_ms", ["-D", "-2", "true"]),
    (dict(argv=T, delay=-1), "delay_ms", ["-D", "-1", "true"]),
    (dict(argv=T, delay=math.nan), "delay_ms", None),
    (dict(argv=T, control=(-1, -1)), "control", None),
    (dict(argv=T, control=(0,)), "control", None),
    (dict(argv=T, control="0,1"), "control", None),
    (dict(argv=T, control=(object(), None)), "control", None),
    (dict(events="task-clock"), "argv", None),
    (dict(argv=T, kernel="loop"), "kernel", None),
    (dict(kernel="loop", params=["nosuch=1"]), "params", ["-k", "loop", "--param", "nosuch=1"]),
    (dict(kernel="loop", params={"inner": "abc"}), "params", ["-k", "loop", "--param", "inner=abc"]),
    (dict(kernel="loop", params=[8]), "params", None),
    (dict(argv=T, params="inner=8"), "params", None),
    (dict(argv=T, iters=5), "iters", None),
]
n_cli = 0
for kw, subject, opts in BAD:
    try:
        pmctool.stat(**kw)
        raise AssertionError("not refused: %r" % kw)
    except pmctool.RequestError as e:
        assert e.subject == subject and e.exit_status == 2 and e.result is None and len(e.detail) > 10, (kw, vars(e))
    if opts:
        run = subprocess.run([pmc, "stat", *opts], capture_output=True, text=True, timeout=30)
        assert run.returncode == 2, (opts, run.returncode, run.stderr)
        n_cli += 1
print("ok: %d wrong fields, each a RequestError naming it (exit_status 2, no result); `pmctool stat` exits 2 on the "
      "%d with a CLI spelling" % (len(BAD), n_cli))
PY
