# SPDX-License-Identifier: MIT
"""pmctool.region: named regions of the calling Python process, counted by the region library (include/pmctool.h).

libpmctool counts only when the process was started with PMCTOOL_REGIONS_EVENTS set (it then writes its report at
exit to stderr or PMCTOOL_REGIONS_OUT, a path template; a .json name gives JSON), or under
`pmctool stat --regions -e EVENTS -- python3 script.py`. Otherwise every enter and leave returns at once and nothing is
counted. The counts include the Python interpreter's own work between enter and leave: a region pair from Python costs
about 8,000 user-mode instructions (two ctypes calls and the with statement; CPython 3.11 on x86-64, valgrind's exact
count: 7,893 with counting off, 8,198 counting task-clock through read(2), 12,115 and 12,420 when the region object
is made in the loop) where the C pair costs 108 and 413 on the same machine (98 on the arm64 rig with in-process
reads). The cost is steady, so a steady block still subtracts it out run to run. bench/region_cost_python.sh
measures it.
"""
from __future__ import annotations

import ctypes
import os
import threading
from contextlib import ContextDecorator
from typing import Any, Dict, List, Optional, Tuple

from . import _lib
from .errors import RequestError

NAME_MAX = 63    # PMCTOOL_REGION_NAME_MAX: bytes of a region name
EVENTS_MAX = 16  # PMCTOOL_REGION_EVENTS_MAX: events counted per region

_handles: Dict[str, int] = {}
_handles_lock = threading.Lock()


def _handle(name: str) -> int:
    h = _handles.get(name)
    if h is None:
        if not isinstance(name, str):
            raise RequestError("region", f"a region name is a string, not {name!r}", 2)
        with _handles_lock:
            h = _lib.regions().pmctool_region(name.encode())
            if h < 0:
                raise RequestError("region", f"region name {name!r} refused: empty, over {NAME_MAX} bytes, or one "
                                   "region more than the 256 a process may have", 2)
            _handles[name] = h
    return h


class region(ContextDecorator):
    """Count a block (or, as a decorator, a function) of this Python process as the region NAME:

        with pmctool.region("solve"):
            solve()

    Regions nest and repeat; each thread counts its own. Nothing is counted unless the process runs with
    PMCTOOL_REGIONS_EVENTS set (e.g. PMCTOOL_REGIONS_EVENTS=task-clock,instructions:u PMCTOOL_REGIONS_OUT=r.json
    python3 script.py) or under `pmctool stat --regions -e EVENTS -- python3 script.py`: then the report (per region:
    calls, counts per event) is written at exit, and region_counts(NAME) reads this thread's counts so far.
    The name is looked up once (a lock) and cached; enter and leave are one ctypes call each.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._handle = _handle(name)
        self._lib = _lib.regions()

    def __enter__(self) -> "region":
        self._lib.pmctool_region_enter(self._handle)
        return self

    def __exit__(self, *exc: Any) -> None:
        self._lib.pmctool_region_leave(self._handle)


def region_counts(name: str) -> Tuple[int, List[int]]:
    """The calling thread's counts of region NAME so far (its completed entries): (calls, values in the order of the
    events). (0, []) when counting is off. A value of an event this thread could not open is 0 (the report says why)."""
    calls = ctypes.c_ulonglong()
    values = (ctypes.c_ulonglong * EVENTS_MAX)()
    n = _lib.regions().pmctool_region_counts(_handle(name), ctypes.byref(calls), values, EVENTS_MAX)
    if n < 0:
        raise RequestError("region", f"region {name!r}: no counts ({n})", 2)
    return calls.value, list(values[:n])


def regions_read_method() -> str:
    """How this thread has read its region counters: "in process" (RDPMC, mrs: no system call), "read(2)",
    "in process and read(2)", or "none" (counting is off, or no region entered yet)."""
    m: Optional[bytes] = _lib.regions().pmctool_regions_read_method()
    return m.decode() if m else "none"


def regions_finish() -> None:
    """Write the region report now (it is otherwise written at exit) and stop counting; later regions do nothing."""
    rc = _lib.regions().pmctool_regions_finish()
    if rc < 0:
        raise OSError(-rc, f"pmctool_regions_finish: {os.strerror(-rc)}")


def thread_init() -> bool:
    """Open the calling thread's counters now rather than on its first region (keeps that cost out of the first
    region). True when they are open; False when counting is off or they could not be opened (the report says why)."""
    return _lib.regions().pmctool_thread_init() == 0


def _emulated_fn(name: str) -> Any:
    lib = _lib.regions()
    try:
        f = getattr(lib, name)
    except AttributeError:
        raise _lib.LibraryNotFound(f"{lib._name} has no {name} (a libpmctool older than this package): reinstall "
                                   "the package, or set PMCTOOL_REGIONS_LIB to a newer build's") from None
    f.restype = ctypes.c_int
    f.argtypes = []
    return f


def emulated_begin() -> int:
    """Under `valgrind --tool=callgrind --instr-atstart=no`: start counting this process's instructions (callgrind's
    counts zeroed). 0; -ENODEV when not under valgrind; -ENOSYS when libpmctool was built without valgrind's
    callgrind.h. The pytest plugin's --pmctool-emulate uses it around each test."""
    r: int = _emulated_fn("pmctool_emulated_begin")()
    return r


def emulated_end() -> int:
    """Stop counting and have callgrind write the count since emulated_begin() to its output file (its "totals:"
    line). 0 or the negative errno emulated_begin() gives."""
    r: int = _emulated_fn("pmctool_emulated_end")()
    return r
