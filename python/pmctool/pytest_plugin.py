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

Not yet: emulated counts where there is no PMU (the region library has no emulated mode; `pmctool stat --emulate`
counts whole commands).
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Optional

import pytest

from . import _lib
from .regions import region, region_counts, regions_finish, regions_read_method, thread_init

REGION = "pytest-call"


def pytest_addoption(parser: Any) -> None:
    g = parser.getgroup("pmctool", "pmctool: counts per test (the region library)")
    g.addoption("--pmctool-events", default=None, metavar="EVENTS",
                help="count these events (as `pmctool stat -e` takes them) over each test's call")
    g.addoption("--pmctool-report", default="pmctool-tests.json", metavar="PATH",
                help="where the counts per test go (JSON, kind 'pytest'; default pmctool-tests.json)")


def pytest_configure(config: Any) -> None:
    events = config.getoption("pmctool_events")
    if not events:
        return
    path = config.getoption("pmctool_report")
    if not path.endswith(".json"):
        raise pytest.UsageError(f"--pmctool-report {path}: the report is JSON, give a name ending in .json")
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


class Recorder:
    """The plugin's state for one session: the events, the per-test deltas, the report's path."""

    def __init__(self, events: str, path: str) -> None:
        self.events = [e for e in events.split(",") if e]
        self.path = path
        self.regions_out = path[: -len(".json")] + ".regions.json"
        self.tests: List[Dict[str, Any]] = []
        self.by_id: Dict[str, Dict[str, Any]] = {}
        _load_counting(events, self.regions_out)
        thread_init()  # this thread's counters opened now, not inside the first test

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: Any) -> Any:
        _, before = region_counts(REGION)
        with region(REGION):
            yield
        _, after = region_counts(REGION)
        before = before or [0] * len(after)  # no counts before the thread's first entry
        rec = {"nodeid": item.nodeid, "outcome": None,
               "values": [a - b for a, b in zip(after, before)] if after else None}
        self.tests.append(rec)
        self.by_id[item.nodeid] = rec

    def pytest_runtest_logreport(self, report: Any) -> None:
        rec = self.by_id.get(report.nodeid)
        if rec is not None and report.when == "call":
            rec["outcome"] = report.outcome

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
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, self.path)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        terminalreporter.write_line(f"pmctool: counts of {len(self.tests)} test(s) ({', '.join(self.events)}) in "
                                    f"{self.path}")
