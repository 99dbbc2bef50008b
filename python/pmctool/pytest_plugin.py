# SPDX-License-Identifier: MIT
"""pytest plugin: the counts of each test, recorded into a JSON report.

    pytest -p pmctool.pytest_plugin --pmctool-events=instructions:u,task-clock [--pmctool-report=pmctool-tests.json]

Each test's call phase (not its fixtures' setup and teardown) runs inside one region of the region library
(libpmctool, through pmctool.region) and its counts are the region's counts after it minus before it, in the thread
that runs the test (threads a test starts are not counted). The report (kind "pytest") lists each test's node id,
outcome and counts; an event the library could not open is a null value with its status and reason, never a 0.
The region library's own report of the session is written next to it (PATH with .regions.json), and says how the
counters were read. The plugin sets PMCTOOL_REGIONS_EVENTS only while it loads the library, so the tests' own
subprocesses do not inherit it.

A CI gate: `pmctool compare --fail-if 'instructions:u>+1%' base.json new.json` reads two such reports (each test's
count of each event is a row "EVENT [NODEID]"); a condition on an EVENT judges every test in both reports and holds
(exit status 1) when one test's count grew past it; 3 when no test's count can be judged (not counted here). The
report carries the engine's environment, so compare warns when base and new come from different machines.

Emulated counts where there is no PMU (a VM, most CI runners):

    pytest -p pmctool.pytest_plugin --pmctool-emulate [--pmctool-events=instructions:u] --pmctool-report=new.json
    pmctool compare --fail-if 'instructions:u@emulated>+1%' base.json new.json

--pmctool-emulate (or the event spelled instructions:u@emulated, as `pmctool stat -e` takes it) runs the session
under valgrind (`valgrind --tool=callgrind --instr-atstart=no -- python3 -m pytest ARGS`, the same arguments less
--pmctool-report, in the same directory): pytest's output and exit status are that session's, and its report,
written in a private directory (0700, removed after), is copied to PATH. Each test's item.runtest() (the test
function through pytest_pyfunc_call, not pytest's bookkeeping around it) runs between pmctool_emulated_begin() and
pmctool_emulated_end() of libpmctool (callgrind's client requests: instrument, count, write the count), and
callgrind's count of it (user-mode instructions of the CPU valgrind emulates, of every thread while the test runs;
not its subprocesses) is the test's value of the event named instructions:u@emulated, each count marked "emulated":
true and the report's environment's backend "valgrind (callgrind)": an emulated count is never passed off as a
counter's (a base counted on a PMU and a new report emulated have no row in common, and compare warns that their
environments differ). Never chosen for you: without it, an instructions:u no counter counts here is null with the
reason (the summary line says --pmctool-emulate would count it). Other events under --pmctool-emulate are null, not
counted, with the reason (count them in a session of their own). No valgrind on PATH is a usage error (exit status
4); valgrind's own messages are shown when the session fails to write its report.

Steady counts: the session runs with address randomization off (personality(2), as setarch -R: that process only),
PYTHONHASHSEED=0 unless it is set, and a gc.collect() before each test. On a quiet machine a test's count then
repeats to the instruction (with randomization on it fell into groups up to a thousand instructions apart); on a
loaded one it moved by up to about 600 instructions (where the interpreter's objects land, which something
time-dependent in the session changes): 0.01% of a 7.6-million-instruction test, so gate at +1% on tests of more
than about 100,000 instructions (an empty test counts about 50,000). The report's "emulation" says which of these
held. Run base and new in the same directory with the same environment and arguments. Valgrind takes a few seconds
to start the session (4 small tests: 7 to 21 s on a loaded 2-core VM) and runs the tests about 80 times slower (a
Python loop of 3,000,000 additions: 0.2 s natively, 16.6 s).
"""
from __future__ import annotations

import ctypes
import errno
import gc
import json
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any, Dict, List, Optional, Tuple

import pytest

from . import _lib
from .regions import (emulated_begin, emulated_end, region, region_counts, regions_finish, regions_read_method,
                      thread_init)

REGION = "pytest-call"
EMULATED_DIR = "PMCTOOL_PYTEST_EMULATED"  # set in the session run under valgrind: the directory for its counts
EMULATED = "instructions:u@emulated"      # the event's name in the report, as `pmctool stat --emulate` names it
EMULABLE = ("instructions:u", EMULATED)   # the spellings of the one event valgrind counts
BACKEND = "valgrind (callgrind)"
ADDR_NO_RANDOMIZE = 0x0040000             # personality(2): what setarch -R sets, for one process and its children


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("pmctool", "pmctool: counts per test (the region library)")
    g.addoption("--pmctool-events", default=None, metavar="EVENTS",
                help="count these events (as `pmctool stat -e` takes them) over each test's call")
    g.addoption("--pmctool-report", default="pmctool-tests.json", metavar="PATH",
                help="where the counts per test go (JSON, kind 'pytest'; default pmctool-tests.json)")
    g.addoption("--pmctool-emulate", action="store_true", default=False,
                help="where there is no PMU: run the session under valgrind and count each test's user-mode "
                     "instructions there (reported as instructions:u@emulated; needs valgrind)")


def _events(config: Any) -> Tuple[Optional[str], bool]:
    """The events asked for, and whether they are counted emulated (--pmctool-emulate, or an @emulated event)."""
    events = config.getoption("pmctool_events")
    emulate = bool(config.getoption("pmctool_emulate")) or EMULATED in (events or "").split(",")
    if emulate and not events:
        events = "instructions:u"
    return events, emulate


def _report_path(config: Any) -> str:
    path: str = config.getoption("pmctool_report")
    if not path.endswith(".json"):
        raise pytest.UsageError(f"--pmctool-report {path}: the report is JSON, give a name ending in .json")
    return path


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: Any) -> Optional[int]:
    """--pmctool-emulate: this process runs no test; it runs the session under valgrind and returns its status."""
    events, emulate = _events(config)
    if not emulate or os.environ.get(EMULATED_DIR) or config.option.help or config.option.version:
        return None
    return _run_emulated(config, _report_path(config))


def pytest_configure(config: Any) -> None:
    events, emulate = _events(config)
    if not events:
        return
    path = _report_path(config)
    where = os.environ.pop(EMULATED_DIR, None)  # not inherited by the tests' subprocesses
    if emulate and where:
        config.pluginmanager.register(EmulatedRecorder(events, where), "pmctool-recorder")
    elif emulate:
        raise pytest.UsageError("--pmctool-emulate: this session was not started by the plugin under valgrind (a "
                                "plugin earlier in the list ran it?); run pytest with -p pmctool.pytest_plugin")
    else:
        config.pluginmanager.register(Recorder(events, path), "pmctool-recorder")


def _load_counting(events: str, regions_out: str) -> None:
    """Load libpmctool with its variables set (its constructor reads them), then take them back out of the
    environment so that the tests' subprocesses are not counted into the same report."""
    if _lib._regions is not None:
        raise pytest.UsageError("--pmctool-events: libpmctool was loaded before the plugin (pmctool.region used at "
                                "import time?); load the plugin first (-p pmctool.pytest_plugin)")
    saved = {k: os.environ.get(k) for k in ("PMCTOOL_REGIONS_EVENTS", "PMCTOOL_REGIONS_OUT")}
    os.environ["PMCTOOL_REGIONS_EVENTS"] = events
    os.environ["PMCTOOL_REGIONS_OUT"] = regions_out
    try:
        _lib.regions()
    except _lib.LibraryNotFound as e:
        raise pytest.UsageError(f"--pmctool-events: {e}") from None
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


class _Records:
    """What both recorders keep of a session: the events asked for, one record per test's call (its outcome filled
    in from pytest's report of the call), the report's path and the events it was written with."""

    def __init__(self, events: str, path: str) -> None:
        self.events = [e for e in events.split(",") if e]
        self.path = path
        self.tests: List[Dict[str, Any]] = []
        self.by_id: Dict[str, Dict[str, Any]] = {}
        self.events_written: List[Dict[str, Any]] = []

    def _record(self, nodeid: str, **fields: Any) -> None:
        rec = dict(nodeid=nodeid, outcome=fields.pop("outcome", None), **fields)
        self.tests.append(rec)
        self.by_id[nodeid] = rec

    def pytest_runtest_logreport(self, report: Any) -> None:
        rec = self.by_id.get(report.nodeid)
        if rec is not None and report.when == "call":
            rec["outcome"] = report.outcome


class Recorder(_Records):
    """The plugin's state for one session: the events, the per-test deltas, the report's path."""

    def __init__(self, events: str, path: str) -> None:
        super().__init__(events, path)
        self.regions_out = path[: -len(".json")] + ".regions.json"
        _load_counting(events, self.regions_out)
        thread_init()  # this thread's counters opened now, not inside the first test

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Any:
        _, before = region_counts(REGION)
        with region(REGION):
            yield
        _, after = region_counts(REGION)
        before = before or [0] * len(after)  # no counts before the thread's first entry
        self._record(item.nodeid, values=[a - b for a, b in zip(after, before)] if after else None)

    def _statuses(self) -> List[Dict[str, Any]]:
        """Each event's status from the region library's report: null counts of our region mean not opened."""
        try:
            with open(self.regions_out, encoding="utf-8") as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            return [{"name": ev, "status": "not counted", "reason": f"the region library wrote no report ({e})"}
                    for ev in self.events]
        rg = {r["name"]: r for r in doc.get("regions", {}).get("list", [])}
        counts = {c["event"]: c for c in rg.get(REGION, {}).get("counts", [])}
        why = {}
        for chk in doc.get("checks", []):
            if chk.get("name") == "regions-not-counted":
                ev, _, reason = chk.get("message", "").partition(": ")  # one check per event
                why[ev] = reason
        out = []
        for ev in self.events:
            c = counts.get(ev)
            if c is not None and c.get("value") is not None:
                out.append({"name": ev, "status": "counted", "reason": ""})
            else:
                out.append({"name": ev, "status": "not counted",
                            "reason": why.get(ev, "the region library did not count it (see its report)")})
        return out

    @staticmethod
    def _environment() -> Optional[Dict[str, Any]]:
        """Where the counts were made, in the engine's words (the stat document's "environment" of a 'true'); None
        when the engine library is not there."""
        from .errors import Error
        from .measure import stat
        try:
            env: Optional[Dict[str, Any]] = stat(["true"], events="task-clock").to_dict().get("environment")
            return env
        except (Error, _lib.LibraryNotFound, OSError):
            return None

    def pytest_sessionfinish(self, session: Any) -> None:
        method = regions_read_method()
        regions_finish()
        events = self._statuses()
        tests = []
        for rec in self.tests:
            vals: Optional[List[int]] = rec["values"]
            tests.append({"nodeid": rec["nodeid"], "outcome": rec["outcome"], "counts": [
                {"event": ev["name"],
                 "value": vals[i] if vals is not None and i < len(vals) and ev["status"] == "counted" else None}
                for i, ev in enumerate(events)]})
        doc = {"schema_version": 1, "kind": "pytest", "region": REGION, "read": method, "events": events,
               "environment": self._environment(), "regions_report": self.regions_out, "tests": tests}
        _write_report(self.path, doc)
        self.events_written = events

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_line(f"pmctool: counts of {len(self.tests)} test(s) ({', '.join(self.events)}) in "
                                    f"{self.path}")
        if self._uncounted("instructions:u"):
            terminalreporter.write_line("pmctool: instructions:u was not counted here (no counter for it); "
                                        "--pmctool-emulate counts it under valgrind, as instructions:u@emulated")

    def _uncounted(self, event: str) -> bool:
        return any(e["name"] == event and e["status"] != "counted" for e in self.events_written)


def _write_report(path: str, doc: Dict[str, Any]) -> None:
    """The report, whole or not at all (a temporary file renamed over it)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def _without_report(args: Any) -> List[str]:
    """The session's arguments less --pmctool-report: the session under valgrind writes its report into the private
    directory (then copied to PATH), so that the name of the report, which differs between base and new, does not
    move where the interpreter's objects land (up to a thousand instructions a test)."""
    out: List[str] = []
    it = iter(args)
    for a in it:
        if a == "--pmctool-report":
            next(it, None)  # its value
        elif not a.startswith("--pmctool-report="):
            out.append(a)
    return out


def _same_addresses() -> Any:
    """For the session under valgrind: address randomization off in that process only (personality(2), as setarch
    -R does; no system setting changes). With it on, a test's count falls in one of a few groups up to a thousand
    instructions apart (where the interpreter's objects land); with it off every run counts the same."""
    personality = ctypes.CDLL(None, use_errno=True).personality  # looked up before the fork
    personality.restype = ctypes.c_int
    personality.argtypes = [ctypes.c_ulong]

    def no_randomization() -> None:
        cur = personality(0xFFFFFFFF)
        if cur != -1:
            personality(cur | ADDR_NO_RANDOMIZE)  # refused (a seccomp policy): the report says randomization was on
    return no_randomization


def _randomized() -> Optional[bool]:
    """Whether this process's addresses are randomized (its personality), None when it cannot be read."""
    try:
        with open("/proc/self/personality", encoding="ascii") as f:
            return not int(f.read().strip(), 16) & ADDR_NO_RANDOMIZE
    except (OSError, ValueError):
        return None


def _run_emulated(config: Any, path: str) -> int:
    """The session again under valgrind (callgrind, instrumenting only between each test's begin and end), with
    the same arguments in the same directory; its exit status. Valgrind's files go to a private directory, removed
    after."""
    vg = shutil.which("valgrind")
    if not vg:
        raise pytest.UsageError("--pmctool-emulate: emulated counts need valgrind (not found on PATH): install it "
                                "(Debian: apt-get install valgrind), or count instructions:u with a hardware counter "
                                "where the machine has one")
    try:
        rc = emulated_begin()  # natively: -ENODEV when the helper is there and works
    except _lib.LibraryNotFound as e:
        raise pytest.UsageError(f"--pmctool-emulate: {e}") from None
    if rc == -errno.ENOSYS:
        raise pytest.UsageError("--pmctool-emulate: this libpmctool was built without valgrind's callgrind.h "
                                f"({_lib.regions()._name}): install valgrind (Debian: valgrind), then the package "
                                "again")
    where = tempfile.mkdtemp(prefix="pmctool-pytest-")  # 0700, ours
    try:
        _write_report(os.path.join(where, "environment.json"), {"environment": Recorder._environment()})
        cmd = [vg, "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={where}/cg.%p",
               f"--log-file={where}/vg.%p.log", sys.executable, "-m", "pytest",
               *_without_report(config.invocation_params.args)]
        env = dict(os.environ, **{EMULATED_DIR: where})
        env.setdefault("PYTHONHASHSEED", "0")
        sys.stderr.write(f"pmctool: --pmctool-emulate: the session runs under valgrind (callgrind), much slower; "
                         f"each test's instructions:u@emulated goes to {path}\n")
        sys.stderr.flush()
        child = subprocess.Popen(cmd, env=env, cwd=str(config.invocation_params.dir), preexec_fn=_same_addresses())
        try:
            status = child.wait()
        except KeyboardInterrupt:  # the session got the SIGINT too: it writes what it counted and ends
            try:
                status = child.wait(timeout=60)
            except (KeyboardInterrupt, subprocess.TimeoutExpired):
                child.kill()
                status = child.wait()
        if not os.path.exists(os.path.join(where, "written")):
            logs = sorted(f for f in os.listdir(where) if f.startswith("vg."))
            tail = ""
            if logs:
                with open(os.path.join(where, logs[0]), encoding="utf-8", errors="replace") as f:
                    tail = "".join(f.readlines()[-8:])
            sys.stderr.write(f"pmctool: --pmctool-emulate: the session under valgrind ended (exit status {status}) "
                             f"without writing {path}; valgrind's log:\n{tail}")
            return status if status > 0 else int(pytest.ExitCode.INTERNAL_ERROR)
        tmp = path + ".tmp"
        shutil.copyfile(os.path.join(where, "report.json"), tmp)
        os.replace(tmp, path)
        sys.stderr.write(f"pmctool: --pmctool-emulate: the counts per test are in {path}\n")
        return status
    finally:
        shutil.rmtree(where, ignore_errors=True)


class EmulatedRecorder(_Records):
    """In the session valgrind runs: each test's call between emulated_begin() and emulated_end(), its count read
    back from the file callgrind writes at the end (its "totals:" line)."""

    def __init__(self, events: str, where: str) -> None:
        super().__init__(events, os.path.join(where, "report.json"))  # the process that started this one copies it
        self.where = where                                               # to PATH
        self.why = ""
        try:
            with open(os.path.join(where, "environment.json"), encoding="utf-8") as f:
                self.environment = json.load(f)["environment"]
        except (OSError, ValueError, KeyError):
            self.environment = None
        if self.environment is not None:
            self.environment = dict(self.environment, backend=BACKEND)

    def _count(self) -> Optional[int]:
        """The count callgrind wrote at the end of the test (one file), the file removed; None (self.why says why)
        when there is none."""
        prefix = f"cg.{os.getpid()}."
        dumps = [f for f in os.listdir(self.where) if f.startswith(prefix)]
        values = []
        for name in dumps:
            p = os.path.join(self.where, name)
            with open(p, encoding="utf-8", errors="replace") as f:
                total = [ln.split(":", 1)[1] for ln in f if ln.startswith(("totals:", "summary:"))]
            os.unlink(p)
            if total:
                values.append(int(total[-1].split()[0]))
        if len(values) != 1:
            self.why = (f"callgrind wrote {len(values)} counts for one test in {self.where} (files {dumps}): not a "
                        "session the plugin started under valgrind --tool=callgrind?")
            return None
        return values[0]

    def _counted(self, item: Any, runtest: Any) -> None:
        """item.runtest() (the test function through pytest_pyfunc_call, nothing of pytest's bookkeeping around it:
        PYTEST_CURRENT_TEST's setenv costs more or less by where the kernel put the stack) between begin and end."""
        gc.collect()  # the collector's counters from 0: its passes fall at the same places in the test each run
        rc = emulated_begin()
        outcome = None
        try:
            runtest()
        except KeyboardInterrupt:  # Ctrl-C: what it counted so far, said to be so
            outcome = "interrupted"
            raise
        finally:
            rc = emulated_end() if rc == 0 else rc
            value = self._count() if rc == 0 else None
            if rc != 0:
                self.why = f"pmctool_emulated_begin/end: {os.strerror(-rc)} (not under valgrind?)"
            self._record(item.nodeid, outcome=outcome, value=value)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Any:
        runtest = item.runtest
        item.runtest = lambda: self._counted(item, runtest)
        try:
            yield
        finally:
            del item.runtest  # the instance's own attribute: the class's method again

    def _event(self, ev: str) -> Dict[str, Any]:
        if ev in EMULABLE:
            ok = any(t["value"] is not None for t in self.tests) or not self.tests
            return {"name": EMULATED, "status": "counted" if ok else "not counted", "emulated": True,
                    "reason": "" if ok else self.why}
        why = ("valgrind counts user-mode instructions only: write instructions:u" if ev.startswith("instructions")
               else f"not counted under --pmctool-emulate (the tests ran under valgrind, which counts only "
                    f"instructions:u): count {ev} in a session without it")
        return {"name": ev, "status": "not counted", "emulated": False, "reason": why}

    def pytest_sessionfinish(self, session: Any) -> None:
        events: List[Dict[str, Any]] = []
        for ev in self.events:
            e = self._event(ev)
            if all(x["name"] != e["name"] for x in events):
                events.append(e)
        tests = [{"nodeid": t["nodeid"], "outcome": t["outcome"], "counts": [
            {"event": e["name"], "value": t["value"] if e["emulated"] and e["status"] == "counted" else None,
             "emulated": e["emulated"]} for e in events]} for t in self.tests]
        doc = {"schema_version": 1, "kind": "pytest", "region": None, "read": "emulated: " + BACKEND,
               "events": events, "environment": self.environment, "regions_report": None,
               "emulation": {"backend": BACKEND, "address_randomization": _randomized(),
                             "hash_seed": os.environ.get("PYTHONHASHSEED")}, "tests": tests}
        _write_report(self.path, doc)
        self.events_written = events
        with open(os.path.join(self.where, "written"), "w", encoding="utf-8"):
            pass

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_line(f"pmctool: counts of {len(self.tests)} test(s) ({', '.join(self.events)}): "
                                    f"{EMULATED}, emulated by {BACKEND}, not a counter's")
