# SPDX-License-Identifier: MIT
"""count hardware and software events of programs and of Python blocks (pmctool(1) from Python)

SYNOPSIS
    import pmctool
    r = pmctool.stat(["./prog", "arg"], events=["instructions:u", "task-clock"], repeat=5, batching="rerun")
    r["task-clock"].value, r["instructions:u"].status, r.to_dict()
    with pmctool.region("solve"): ...
    [k.name for k in pmctool.kernels() if k.runs_here]; pmctool.stat(kernel="loop", params={"inner": 8})
    pmctool.stat(pids=[1234], timeout=2.5, interval=0.5, on_interval=lambda iv: print(iv.end, iv["task-clock"]))
    pmctool.stat(cpus=[0, 1], timeout=1.0); pmctool.stat(system_wide=True, timeout=1.0)
    pmctool.stat(["./prog"], regions=True).regions; pmctool.stat(["./prog"], delay=0.5)
    c = pmctool.compare(before, after, fail_if="instructions:u>+1%")   # Results, dicts or stat --json paths
    c["instructions:u"].verdict, c.failed
    pmctool.check().verdict, r.environment.cpu
    pmctool.version()

DESCRIPTION
    The Python face of pmctool(1). stat() measures a command as `pmctool stat` does, through the engine's public C
    API (include/pmctool_engine.h, libpmctool-engine), never through the command line: each call forks the command,
    counts it with perf_event_open and returns a Result. region() counts a block of this Python process through the
    region library (include/pmctool.h, libpmctool).

    Nothing is faked. An event this machine cannot count (on a machine without a hardware PMU, any hardware event)
    is a Count whose status is "not supported" or "not counted" and whose reason says why, in the CLI's words.

RESULT
    Result.counts    list of Count: event, status ("counted", "not counted", "not supported", "not run"), value (mean
                     over the runs, scaled when multiplexed), running (lowest share of time on a counter, 0..1),
                     unit ("ns" for the clocks, the PMU's own, "" for plain counts), reason ("" when counted)
    Result.metrics   list of Metric: name, value (None when it has none), unit, reason
    Result.checks    list of Check: name (pmctool-checks(7)), severity ("info", "warning", "bad"), message
    Result.runs, Result.seconds (wall time of one run, mean), Result.exit_status (the command's, 128 + signal)
    Result.regions   with stat(..., regions=True): list of Region: name, calls (per execution), counts ({event: the
                     count inside the region per execution, None where not measured}); Result.region(name)
    Result[event]    the Count of that event
    Result.environment  Environment: cpu, cpuid, microcode, hypervisor, kernel, arch, libpfm4, core_pmu, tables,
                     pmctool, backend (where it was measured)
    Result.to_dict() the document `pmctool stat --json` writes for the same measurement (to_json(): its text)

INTERVALS
    stat(..., interval=SECONDS, on_interval=FN) calls FN(Interval) as each interval ends (`pmctool stat -I`):
    Interval.index (1, 2, ...), .start and .end (seconds since counting started), .counts (list of Count: what each
    event counted in that interval alone), Interval[event]. FN runs in the thread that measures; an exception it
    raises stops the measurement (as Ctrl-C does) and is raised again by stat().

TARGETS
    stat(pids=[...]) or stat(tids=[...]) attaches to running processes or threads, stat(cpus=[...]) counts CPUs and
    stat(system_wide=True) every CPU (these need CAP_PERFMON or kernel.perf_event_paranoid <= 0), with argv=None
    and timeout=SECONDS (or until the tasks end, or Ctrl-C) as `pmctool stat -p/-t/-C/-a --timeout` do.
    delay=SECONDS (-D) starts counting later; delay=-1 with control=(CTL_FD, ACK_FD) (--control fd:) waits for
    'enable' written to CTL.

COMPARE
    compare(a, b, test="welch", alpha=0.05, fail_if=None) -> Comparison: `pmctool compare A B` through the engine
    library (its statistics and its words). Comparison.changes is a list of Change: name, kind ("event", "metric",
    "time"), unit, a, b (means; None where not measured), sd_a, sd_b, runs_a, runs_b, diff (b - a), ratio (b / a),
    p (None when not tested), verdict ("significant", "not significant", "no difference", "not enough runs",
    "not measured"), note. Comparison.conditions: each fail_if condition's holds (True, False, None: cannot be
    judged) and why; exit_status is what `compare --fail-if` exits with (1 holds, 3 cannot be judged, 0).

CHECK
    check(quick=False) -> TrustCheck: `pmctool check` (can counts be trusted here, now?) in this process. .items is a
    list of TrustItem: name ("pmu", "exact:cpu", ...), title, verdict ("trustworthy", "degraded", "unavailable"),
    detail; .verdict the overall one, .summary, .exit_status (0, 10, 11 as pmctool check exits).

ERRORS
    pmctool.Error and one subclass per kind of the engine's errors, each with .subject (the request field:
    "events", "metrics", "argv", "kernel", ...), .detail (the CLI's words), .exit_status (what `pmctool stat` exits
    with) and .result (what was measured, or None):
    RequestError (a wrong field, nothing ran; exit_status 2), LaunchError (no such command: 127, 126),
    NoCountError (no event opened: 3; .result has each event's reason), StoppedError (Ctrl-C; .result holds the
    counts so far), CommandError (with stat(..., check=True), the command failed), SystemFailureError (5).
    LibraryNotFound (an ImportError) when a C library cannot be loaded.

REGIONS
    with pmctool.region("name"): ...   or   @pmctool.region("name")
    Counted only when the process runs with PMCTOOL_REGIONS_EVENTS set (its report written at exit to stderr or
    PMCTOOL_REGIONS_OUT; a .json name gives JSON) or under `pmctool stat --regions -e EVENTS -- python3 script.py`;
    otherwise enter and leave do nothing. region_counts(name) reads this thread's (calls, values) so far,
    regions_read_method() how they were read, regions_finish() writes the report now, thread_init() opens this
    thread's counters before its first region. Counts include the interpreter's work inside the block and the
    ctypes calls of the pair.

PYTEST
    pytest -p pmctool.pytest_plugin --pmctool-events=instructions:u,task-clock --pmctool-report=counts.json
    records each test's counts (its call phase, in a region) into a JSON report (kind "pytest"); an event that
    could not be counted is null with its reason. See pmctool.pytest_plugin.

ENVIRONMENT
    PMCTOOL_ENGINE_LIB    path of libpmctool-engine.so (a build tree's build/src/api/libpmctool-engine.so); without
                          it: the one installed in the package's directory, the source tree's build/ when imported
                          from python/, then the system's library path
    PMCTOOL_REGIONS_LIB   path of libpmctool.so (build/src/regions/lib/libpmctool.so); then the same places
    PMCTOOL_EVENTS_DIR    where stat(eventset=NAME) looks first; then the sets installed with the package
    PMCTOOL_REGIONS_EVENTS, PMCTOOL_REGIONS_OUT   the region library's (pmctool-regions(7))

INSTALL
    pip install --no-build-isolation --no-index .     (from the repository, offline: meson-python builds the
                                                      engine and region libraries into the package; -Dpython=true)

SEE ALSO
    pmctool(1), pmctool-regions(7), pmctool-checks(7), README.md "From Python"
"""
from __future__ import annotations

import ctypes
import dataclasses

from . import _lib
from ._lib import LibraryNotFound
from .errors import (CommandError, Error, LaunchError, NoCountError, RequestError, StoppedError,
                     SystemFailureError)
from .compare import VERDICTS, Change, Comparison, Condition, compare
from .measure import stat
from .regions import region, region_counts, regions_finish, regions_read_method, thread_init
from .result import Check, Count, Environment, Interval, Metric, Region, Result
from .trust import TRUST_VERDICTS, TrustCheck, TrustItem, check

__version__ = "0.1.0"

__all__ = ["stat", "check", "TrustCheck", "TrustItem", "TRUST_VERDICTS", "Environment", "compare", "Comparison",
           "Change", "Condition", "VERDICTS", "region", "region_counts", "regions_read_method", "regions_finish",
           "thread_init", "version", "kernels", "Kernel", "Result", "Count", "Metric", "Check", "Interval", "Region",
           "Error", "RequestError", "LaunchError", "NoCountError", "StoppedError", "CommandError", "SystemFailureError",
           "LibraryNotFound"]


@dataclasses.dataclass(frozen=True)
class Kernel:
    """A built-in kernel (``pmctool kernels``): ``name`` is what ``stat(kernel=...)`` takes; ``runs_here`` whether
    this CPU has the instructions it needs; ``exact`` whether its instruction and branch counts are exact (an
    assembly kernel)."""
    name: str
    desc: str
    runs_here: bool
    exact: bool


def kernels() -> list[Kernel]:
    """The built-in kernels, in ``pmctool kernels``' order; measure one with ``stat(kernel=NAME)``."""
    lib, out, i = _lib.engine(), [], 0
    info = _lib.KernelInfo_()
    while lib.pmctool_kernel_at(i, ctypes.byref(info)) == 0:
        out.append(Kernel(info.name.decode(), (info.desc or b"").decode(), bool(info.runs_here), bool(info.exact)))
        i += 1
    return out


def version() -> str:
    """The engine's version (pmctool_version(): what `pmctool --version` prints); loads libpmctool-engine."""
    v: bytes = _lib.engine().pmctool_version()
    return v.decode()
