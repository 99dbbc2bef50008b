# SPDX-License-Identifier: MIT
"""pmctool.stat: one measurement through the engine's public C API (pmctool_measure), its result copied into Python.

The engine runs in a worker thread so that Ctrl-C (KeyboardInterrupt in the calling thread) can stop it the way it
stops `pmctool stat`: pmctool_engine_stop ends the command's process group and what was counted comes back, in a
StoppedError's ``result``. Measurements in one process are made one at a time (a module lock).
"""
from __future__ import annotations

import ctypes
import math
import os
import signal
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

from . import _lib
from .errors import BY_KIND, CommandError, Error, NoCountError, RequestError, StoppedError, SystemFailureError
from .result import SEVERITY_WORDS, STATUS_WORDS, Check, Count, Interval, Metric, Region, Result

BATCHING = {"auto": 0, "rerun": 1, "multiplex": 2}
EXIT_USAGE, EXIT_INTERNAL = 2, 5  # pmctool(1)'s exit statuses for a wrong request and a system error

_serial = threading.Lock()
StrPath = Union[str, bytes, "os.PathLike[str]"]


def _text(b: Optional[bytes]) -> str:
    return b.decode("utf-8", "replace") if b else ""


def _strings(items: Sequence[bytes]) -> "ctypes.Array[ctypes.c_char_p]":
    arr = (ctypes.c_char_p * (len(items) + 1))(*items)
    arr[len(items)] = None
    return arr


def _refuse(subject: str, detail: str) -> RequestError:
    return RequestError(subject, detail, EXIT_USAGE)


def _list_arg(name: str, value: Union[None, str, Sequence[str]]) -> Optional[List[str]]:
    if value is None:
        return None
    if isinstance(value, str):
        return [value]
    if not all(isinstance(v, str) for v in value):
        raise _refuse(name, f"{name} is a list of strings (or one string), not {value!r}")
    return list(value)


def _pairs(name: str, value: Union[None, str, Sequence[str], Mapping[str, Any]]) -> Optional[List[str]]:
    """["NAME=VALUE", ...] of a mapping {NAME: VALUE}, a list of "NAME=VALUE" or one of them."""
    if isinstance(value, Mapping):
        return [f"{k}={v}" for k, v in value.items()]
    return _list_arg(name, value)


def _ids(name: str, value: Union[None, int, Sequence[int]], what: str) -> Optional[List[int]]:
    """A list of ids (pids, tids, cpus): one int or a non-empty sequence of them; the engine checks their values."""
    if value is None:
        return None
    items = [value] if isinstance(value, int) else value
    if (isinstance(items, (str, bytes)) or not all(isinstance(v, int) and not isinstance(v, bool) for v in items)
            or not all(-2**31 <= v < 2**31 for v in items)):
        raise _refuse(name, f"{name} is a list of {what} (or one), not {value!r}")
    if not items:
        raise _refuse(name, f"{name} is empty: give at least one of the {what}, or leave {name} out")
    return list(items)


def _ms(name: str, subject: str, seconds: Optional[float], lo: float, hi: float) -> int:
    """Seconds (a float) as the request's whole milliseconds, lo..hi seconds; None: 0 (the field's default)."""
    if seconds is None:
        return 0
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not lo <= seconds <= hi:
        raise _refuse(subject, f"{name} is in seconds, from {lo:g} to {hi:g}, not {seconds!r}")
    return round(seconds * 1000)


def _fd(name: str, f: Any) -> int:
    fd = f.fileno() if hasattr(f, "fileno") else f
    if isinstance(fd, bool) or not isinstance(fd, int) or not -2**31 <= fd < 2**31:
        raise _refuse("control", f"control is (CTL, ACK): {name} a file descriptor (or a file), not {f!r}")
    return fd


def _control(control: Any) -> Optional[List[int]]:
    """(CTL, ACK) as the request's {CTL, ACK}: descriptors or files, ACK None or -1 for none."""
    if control is None:
        return None
    if isinstance(control, (str, bytes)) or not isinstance(control, Sequence) or len(control) != 2:
        raise _refuse("control", f"control is (CTL, ACK): two file descriptors (ACK None for none), not {control!r}")
    return [_fd("CTL", control[0]), -1 if control[1] is None else _fd("ACK", control[1])]


def _count(c: "_lib.Count_") -> Count:
    return Count(_text(c.event), STATUS_WORDS[c.status] if 0 <= c.status < len(STATUS_WORDS) else str(c.status),
                 c.value, c.running, _text(c.unit), _text(c.reason))


def _copy(lib: ctypes.CDLL, res: "ctypes._Pointer[_lib.Result_]") -> Result:
    r = res.contents
    counts = [_count(c) for c in r.counts[:r.ncounts]]
    metrics = [Metric(_text(m.name), m.value if m.valid else None, _text(m.unit), _text(m.reason))
               for m in r.metrics[:r.nmetrics]]
    checks = [Check(_text(k.name), SEVERITY_WORDS[k.severity] if 0 <= k.severity < 3 else str(k.severity),
                    _text(k.message)) for k in r.checks[:r.nchecks]]
    doc, size = ctypes.c_void_p(), ctypes.c_size_t()
    rc = lib.pmctool_result_json(res, ctypes.byref(doc), ctypes.byref(size))
    if rc != 0:
        raise SystemFailureError("", f"the result's JSON document could not be written: {os.strerror(-rc)}",
                                 EXIT_INTERNAL)
    try:
        text = ctypes.string_at(doc.value, size.value).decode("utf-8", "replace")
    finally:
        _lib.free(doc.value)
    names = [c.event for c in counts]
    regions = [Region(_text(g.name), g.calls,
                      {ev: None if math.isnan(g.values[i]) else g.values[i] for i, ev in enumerate(names)})
               for g in r.regions[:r.nregions]]
    return Result(counts, metrics, checks, r.runs, r.seconds, r.exit_status, text, regions)


def stat(argv: Optional[Sequence[StrPath]] = None, *, events: Union[None, str, Sequence[str]] = None,
         eventset: Optional[str] = None, metrics: Union[None, str, Sequence[str], Mapping[str, str]] = None,
         repeat: int = 1, batching: str = "auto", kernel: Optional[str] = None, iters: int = 0,
         params: Union[None, str, Sequence[str], Mapping[str, Any]] = None,
         pids: Union[None, int, Sequence[int]] = None, tids: Union[None, int, Sequence[int]] = None,
         cpus: Union[None, int, Sequence[int]] = None, system_wide: bool = False, timeout: Optional[float] = None,
         interval: Optional[float] = None, on_interval: Optional[Callable[[Interval], Any]] = None,
         delay: Optional[float] = None, control: Optional[Sequence[Any]] = None, regions: bool = False,
         check: bool = False) -> Result:
    """Measure a command, running processes or CPUs (or a built-in kernel) as `pmctool stat` does; return a Result.

    argv      the command and its arguments, e.g. ["./prog", "arg"] (searched in PATH like the CLI does); None with
              kernel, or with targets alone (pids, tids, cpus, system_wide: then give timeout, or the measurement
              lasts until the tasks end or Ctrl-C)
    events    event names as `stat -e` takes them: a list, or one comma-separated string; None: the default set
    eventset  a named set (`stat -g`, `pmctool sets`) instead of events
    metrics   ["NAME=FORMULA", ...] or {"NAME": "FORMULA"} (`stat --metric`), e.g. "ipc={instructions}/{cycles}"
    repeat    runs of the command (`stat -r`); counts are means over the runs
    batching  "auto", "rerun" (more events than counters: run again per batch) or "multiplex" (`stat --batch`)
    kernel    a built-in kernel (`pmctool kernels`) run in this process instead of argv; iters its iterations
    params    the kernel's parameters (`stat --param`): {"inner": 8}, ["inner=8"] or "inner=8"
    pids      running processes to attach to, their threads and what they start (`stat -p`): a pid or a list
    tids      running threads to attach to (`stat -t`)
    cpus      count everything on these CPUs (`stat -C`), beside argv or alone; system_wide=True: on every online
              CPU (`stat -a`). Both need CAP_PERFMON or kernel.perf_event_paranoid <= 0 (else NoCountError says so)
    timeout   stop counting after this many seconds (`stat --timeout`; a command is then sent SIGTERM)
    interval  seconds, 0.01 or more (`stat -I`): on_interval(Interval) is called as each interval ends, with what
              each event counted in it; it runs in the measuring thread, and should it raise, the measurement is
              stopped as Ctrl-C stops it and stat() raises that exception once the engine has returned
    delay     counting starts this many seconds after the command starts (`stat -D`); -1: at 'enable' on control
    control   (CTL, ACK) file descriptors (or files) this program holds open (`stat --control fd:CTL,ACK`): the
              commands 'enable', 'disable', 'stop', 'ping' are read from CTL, 'ack' written to ACK (None: none)
    regions   count the command's libpmctool regions too (`stat --regions`, pmctool-regions(7)): Result.regions
    check     raise CommandError (with the result) when the command fails; by default its status is
              result.exit_status and the counts stand, as `pmctool stat` prints them

    Raises RequestError (a wrong field: ``subject`` names it as the engine's request does: "pids", "cpus",
    "timeout_ms" for timeout, "interval_ms" for interval, "delay_ms" for delay, "runs" for repeat, ...; nothing ran),
    LaunchError (no such command), NoCountError (no event could be opened; ``result`` says why per event),
    StoppedError (Ctrl-C; ``result`` holds what was counted), SystemFailureError. An event this machine cannot count
    is not an error: its Count has the status "not supported" or "not counted" and the reason, as the CLI prints it.

    This program's own subprocesses are not the engine's: they are neither signalled nor reaped by stat(), and the
    process is a child subreaper only while a measured command runs (to end what the command leaves behind).
    """
    pid_l, tid_l, cpu_l = _ids("pids", pids, "process ids"), _ids("tids", tids, "thread ids"), _ids("cpus", cpus,
                                                                                                  "CPU numbers")
    targets = pid_l is not None or tid_l is not None or cpu_l is not None or bool(system_wide)
    if argv is not None and kernel is not None:
        raise _refuse("kernel", "give a command (argv) or a kernel, not both")
    if argv is None and kernel is None and not targets:
        raise _refuse("argv", "give a command (argv), a kernel, or targets (pids, tids, cpus, system_wide)")
    if isinstance(argv, (str, bytes)):
        raise _refuse("argv", f"argv is a list: [{argv!r}] for a command without arguments")
    if batching not in BATCHING:
        raise _refuse("batching", f"unknown batching '{batching}': auto, rerun or multiplex")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= 2**32 - 1:
        raise _refuse("runs", f"repeat is a number of runs, 1 or more, not {repeat!r}")
    if isinstance(iters, bool) or not isinstance(iters, int) or not 0 <= iters < 2**64:
        raise _refuse("iters", f"iters is a number of iterations, 0 (the kernel's default) or more, not {iters!r}")
    if on_interval is not None and not callable(on_interval):
        raise _refuse("on_interval", f"on_interval is a function called with each Interval, not {on_interval!r}")
    if on_interval is not None and interval is None:
        raise _refuse("on_interval", "on_interval is called at the end of each interval: give interval (seconds)")
    ev = _list_arg("events", events)
    mx = _pairs("metrics", metrics)
    px = _pairs("params", params)
    keep: List[Any] = []  # the C strings and arrays, alive until pmctool_measure returns
    rq = _lib.Request_()
    rq.timeout_ms = _ms("timeout", "timeout_ms", timeout, 0.001, 2**40 / 1000)
    rq.interval_ms = _ms("interval", "interval_ms", interval, 0.01, 3600)
    rq.delay_ms = -1 if delay == -1 and not isinstance(delay, bool) else _ms("delay (or -1)", "delay_ms", delay, 0,
                                                                             86400)
    if argv is not None:
        keep.append(_strings([os.fsencode(a) for a in argv]))
        rq.argv = ctypes.cast(keep[-1], ctypes.POINTER(ctypes.c_char_p))
    if kernel is not None:
        rq.kernel = kernel.encode()
        rq.iters = iters
    elif iters:
        raise _refuse("iters", "iters is the number of iterations of a kernel: give kernel too")
    if ev is not None:
        rq.events = ",".join(ev).encode()
    if eventset is not None:
        # A set installed with the package (pip install .) is found there unless PMCTOOL_EVENTS_DIR names another
        # place; any other name goes to the engine as it is (the installed and the source tree's sets).
        packaged = _lib.EVENTS_DIR / f"{eventset}.set"
        if "/" not in eventset and not os.environ.get("PMCTOOL_EVENTS_DIR") and packaged.is_file():
            eventset = str(packaged)
        rq.eventset = eventset.encode()
    for field, strings in (("metrics", mx), ("params", px)):
        if strings is not None:
            keep.append(_strings([m.encode() for m in strings]))
            setattr(rq, field, ctypes.cast(keep[-1], ctypes.POINTER(ctypes.c_char_p)))
    for field, ids in (("pids", pid_l), ("tids", tid_l), ("cpus", cpu_l), ("control", _control(control))):
        if ids is not None:
            keep.append((ctypes.c_int * len(ids))(*ids))
            setattr(rq, field, ctypes.cast(keep[-1], ctypes.POINTER(ctypes.c_int)))
            if field != "control":
                setattr(rq, "n" + field, len(ids))
    rq.system_wide = bool(system_wide)
    rq.regions = bool(regions)
    rq.runs = repeat
    rq.batching = BATCHING[batching]
    return _measure(rq, check, on_interval)


def _interval(iv: "_lib.Interval_") -> Interval:
    return Interval(iv.index, iv.start_s, iv.end_s, [_count(c) for c in iv.counts[:iv.ncounts]])


def _measure(rq: "_lib.Request_", check: bool, on_interval: Optional[Callable[[Interval], Any]] = None) -> Result:
    lib = _lib.engine()
    with _serial:
        e = lib.pmctool_engine_new()
        if not e:
            raise MemoryError("pmctool_engine_new: out of memory")
        try:
            res = ctypes.POINTER(_lib.Result_)()
            err = _lib.Error_()
            box: Dict[str, int] = {}
            raised: List[BaseException] = []  # what on_interval raised: never into C, re-raised below

            def deliver(ctx: Optional[int], iv: "ctypes._Pointer[_lib.Interval_]") -> None:
                if raised:
                    return
                try:
                    on_interval(_interval(iv.contents))  # type: ignore[misc]
                except BaseException as ex:  # noqa: B902 (SystemExit too: it must not unwind through C)
                    raised.append(ex)
                    lib.pmctool_engine_stop(e, signal.SIGINT)

            # The C function pointer lives in this frame (and rq holds it) until pmctool_measure has returned.
            fn = _lib.IntervalFn_(deliver) if on_interval is not None else _lib.IntervalFn_()
            rq.on_interval = fn
            done = threading.Event()

            def work() -> None:
                try:
                    box["kind"] = lib.pmctool_measure(e, ctypes.byref(rq), ctypes.byref(res), ctypes.byref(err))
                finally:
                    done.set()

            worker = threading.Thread(target=work, name="pmctool-measure", daemon=True)
            worker.start()
            interrupted = False
            # Waited for on an Event, not with join(): an interrupted join() of Python 3.11 and older marks a thread
            # that still runs as ended (bpo-45274's fix), and the engine would be freed under it.
            while not done.is_set():
                try:
                    done.wait()
                except KeyboardInterrupt:  # stop it as Ctrl-C stops pmctool stat: what was counted comes back
                    interrupted = True
                    lib.pmctool_engine_stop(e, signal.SIGINT)
            worker.join()
            kind = box.get("kind", 6)
            result = None
            if res:
                try:
                    result = _copy(lib, res)
                finally:
                    lib.pmctool_result_free(res)
        finally:
            lib.pmctool_engine_free(e)
    if raised:
        raise raised[0]
    if kind == 0 and interrupted:
        raise StoppedError("", "interrupted (Ctrl-C) as the measurement ended: the result is whole", 128 + 2, result)
    if kind == 0 or (kind == CommandError.kind and not check):
        assert result is not None
        return result
    detail = _text(err.detail)
    if not detail and kind == NoCountError.kind and result is not None:  # the engine's reasons are per event
        detail = "no event could be counted: " + "; ".join(f"{c.event}: {c.reason or c.status}" for c in result)
    elif not detail and kind == StoppedError.kind:
        detail = (f"stopped by signal {err.exit_status - 128} after {result.runs if result else 0} run(s): the "
                  "result holds what was counted until then")
    cls = BY_KIND.get(kind, Error)
    raise cls(_text(err.subject), detail, err.exit_status, result)
