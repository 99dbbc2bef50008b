# SPDX-License-Identifier: MIT
"""pmctool.stat: one measurement through the engine's public C API (pmctool_measure), its result copied into Python.

The engine runs in a worker thread so that Ctrl-C (KeyboardInterrupt in the calling thread) can stop it the way it
stops `pmctool stat`: pmctool_engine_stop ends the command's process group and what was counted comes back, in a
StoppedError's ``result``. Measurements in one process are made one at a time (a module lock).
"""
from __future__ import annotations

import ctypes
import os
import signal
import threading
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from . import _lib
from .errors import BY_KIND, CommandError, Error, NoCountError, RequestError, StoppedError, SystemFailureError
from .result import SEVERITY_WORDS, STATUS_WORDS, Check, Count, Metric, Result

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


def _metric_args(metrics: Union[None, str, Sequence[str], Mapping[str, str]]) -> Optional[List[str]]:
    if isinstance(metrics, Mapping):
        return [f"{k}={v}" for k, v in metrics.items()]
    return _list_arg("metrics", metrics)


def _copy(lib: ctypes.CDLL, res: "ctypes._Pointer[_lib.Result_]") -> Result:
    r = res.contents
    counts = [Count(_text(c.event), STATUS_WORDS[c.status] if 0 <= c.status < len(STATUS_WORDS) else str(c.status),
                    c.value, c.running, _text(c.unit), _text(c.reason)) for c in r.counts[:r.ncounts]]
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
    return Result(counts, metrics, checks, r.runs, r.seconds, r.exit_status, text)


def stat(argv: Optional[Sequence[StrPath]] = None, *, events: Union[None, str, Sequence[str]] = None,
         eventset: Optional[str] = None, metrics: Union[None, str, Sequence[str], Mapping[str, str]] = None,
         repeat: int = 1, batching: str = "auto", kernel: Optional[str] = None, iters: int = 0,
         check: bool = False) -> Result:
    """Measure a command (or a built-in kernel) as `pmctool stat` does and return its Result.

    argv      the command and its arguments, e.g. ["./prog", "arg"] (searched in PATH like the CLI does)
    events    event names as `stat -e` takes them: a list, or one comma-separated string; None: the default set
    eventset  a named set (`stat -g`, `pmctool sets`) instead of events
    metrics   ["NAME=FORMULA", ...] or {"NAME": "FORMULA"} (`stat --metric`), e.g. "ipc={instructions}/{cycles}"
    repeat    runs of the command (`stat -r`); counts are means over the runs
    batching  "auto", "rerun" (more events than counters: run again per batch) or "multiplex" (`stat --batching`)
    kernel    a built-in kernel (`pmctool kernels`) run in this process instead of argv; iters its iterations
    check     raise CommandError (with the result) when the command fails; by default its status is
              result.exit_status and the counts stand, as `pmctool stat` prints them

    Raises RequestError (a wrong field: ``subject`` names it; nothing ran), LaunchError (no such command),
    NoCountError (no event could be opened; ``result`` says why per event), StoppedError (Ctrl-C; ``result`` holds
    what was counted), SystemFailureError. An event this machine cannot count is not an error: its Count has the status
    "not supported" or "not counted" and the reason, as the CLI prints it.

    This program's own subprocesses are not the engine's: they are neither signalled nor reaped by stat(), and the
    process is a child subreaper only while a measured command runs (to end what the command leaves behind).
    """
    if (argv is None) == (kernel is None):
        raise _refuse("argv" if kernel is None else "kernel", "give a command (argv) or a kernel, one of the two")
    if isinstance(argv, (str, bytes)):
        raise _refuse("argv", f"argv is a list: [{argv!r}] for a command without arguments")
    if batching not in BATCHING:
        raise _refuse("batching", f"unknown batching '{batching}': auto, rerun or multiplex")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= 2**32 - 1:
        raise _refuse("runs", f"repeat is a number of runs, 1 or more, not {repeat!r}")
    if isinstance(iters, bool) or not isinstance(iters, int) or not 0 <= iters < 2**64:
        raise _refuse("iters", f"iters is a number of iterations, 0 (the kernel's default) or more, not {iters!r}")
    ev = _list_arg("events", events)
    mx = _metric_args(metrics)
    keep: List[Any] = []  # the C strings, alive until pmctool_measure returns
    rq = _lib.Request_()
    if argv is not None:
        keep.append(_strings([os.fsencode(a) for a in argv]))
        rq.argv = ctypes.cast(keep[-1], ctypes.POINTER(ctypes.c_char_p))
    if kernel is not None:
        rq.kernel = kernel.encode()
        rq.iters = iters
    if ev is not None:
        rq.events = ",".join(ev).encode()
    if eventset is not None:
        # A set installed with the package (pip install .) is found there unless PMCTOOL_EVENTS_DIR names another
        # place; any other name goes to the engine as it is (the installed and the source tree's sets).
        packaged = _lib.EVENTS_DIR / f"{eventset}.set"
        if "/" not in eventset and not os.environ.get("PMCTOOL_EVENTS_DIR") and packaged.is_file():
            eventset = str(packaged)
        rq.eventset = eventset.encode()
    if mx is not None:
        keep.append(_strings([m.encode() for m in mx]))
        rq.metrics = ctypes.cast(keep[-1], ctypes.POINTER(ctypes.c_char_p))
    rq.runs = repeat
    rq.batching = BATCHING[batching]
    return _measure(rq, check)


def _measure(rq: "_lib.Request_", check: bool) -> Result:
    lib = _lib.engine()
    with _serial:
        e = lib.pmctool_engine_new()
        if not e:
            raise MemoryError("pmctool_engine_new: out of memory")
        try:
            res = ctypes.POINTER(_lib.Result_)()
            err = _lib.Error_()
            box: Dict[str, int] = {}

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
