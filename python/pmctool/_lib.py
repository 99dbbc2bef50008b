# SPDX-License-Identifier: MIT
"""Finding and declaring pmctool's two C libraries (ctypes): the engine and the region library.

The engine, libpmctool-engine (include/pmctool_engine.h), is searched in this order:
  1. PMCTOOL_ENGINE_LIB, the path of libpmctool-engine.so (a build tree's build/src/api/libpmctool-engine.so);
  2. this package's own directory, where `pip install .` (meson-python, -Dpython=true) installs it;
  3. the source tree this package was imported from: ../build/src/api/ next to python/ (PYTHONPATH=python);
  4. the system's library path (libpmctool-engine.so.0, Debian's libpmctool0).
The region library, libpmctool (include/pmctool.h), the same way: PMCTOOL_REGIONS_LIB, the package's directory,
build/src/regions/lib/, then libpmctool.so.0. The event sets (`stat(eventset=NAME)`) installed with the package are
in EVENTS_DIR. Nothing is loaded until it is first needed; a library that cannot be found is a LibraryNotFound
naming every place looked at.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from pathlib import Path
from typing import Optional

_HERE = Path(__file__).resolve().parent
_SOURCE_BUILD = _HERE.parent.parent / "build"
EVENTS_DIR = _HERE / "events"


class LibraryNotFound(ImportError):
    """A C library of pmctool's could not be loaded; the message lists where it was looked for and what to set."""


def _load(env: str, built: Path, soname: str) -> ctypes.CDLL:
    installed = _HERE / built.name
    tried = []
    path = os.environ.get(env)
    if path:
        try:
            return ctypes.CDLL(path, use_errno=True)
        except OSError as e:
            raise LibraryNotFound(f"{env}={path}: {e}") from None
    for candidate in (str(installed), str(built), soname):
        if candidate != soname and not os.path.exists(candidate):
            tried.append(f"{candidate} (not there)")
            continue
        try:
            return ctypes.CDLL(candidate, use_errno=True)
        except OSError as e:
            tried.append(f"{candidate} ({e})")
    hint = "/".join(built.parts[-4:]) if built.name.startswith("libpmctool.") else "/".join(built.parts[-3:])
    raise LibraryNotFound(f"{soname} not found: set {env} to its path (in a build tree: build/{hint}); tried "
                          + "; ".join(tried))


# --- include/pmctool_engine.h -------------------------------------------------------------------------------------

class Error_(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("subject", ctypes.c_char * 32), ("detail", ctypes.c_char * 512),
                ("exit_status", ctypes.c_int)]


class Count_(ctypes.Structure):
    _fields_ = [("event", ctypes.c_char_p), ("status", ctypes.c_int), ("value", ctypes.c_double),
                ("running", ctypes.c_double), ("unit", ctypes.c_char_p), ("reason", ctypes.c_char_p)]


class Interval_(ctypes.Structure):
    _fields_ = [("index", ctypes.c_uint), ("start_s", ctypes.c_double), ("end_s", ctypes.c_double),
                ("ncounts", ctypes.c_size_t), ("counts", ctypes.POINTER(Count_))]


# void (*on_interval)(void *ctx, const struct pmctool_interval *iv)
IntervalFn_ = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Interval_))


class Request_(ctypes.Structure):
    _fields_ = [("argv", ctypes.POINTER(ctypes.c_char_p)), ("kernel", ctypes.c_char_p), ("iters", ctypes.c_uint64),
                ("events", ctypes.c_char_p), ("eventset", ctypes.c_char_p),
                ("metrics", ctypes.POINTER(ctypes.c_char_p)), ("runs", ctypes.c_uint), ("batching", ctypes.c_int),
                ("params", ctypes.POINTER(ctypes.c_char_p)),
                ("pids", ctypes.POINTER(ctypes.c_int)), ("npids", ctypes.c_size_t),
                ("tids", ctypes.POINTER(ctypes.c_int)), ("ntids", ctypes.c_size_t),
                ("cpus", ctypes.POINTER(ctypes.c_int)), ("ncpus", ctypes.c_size_t), ("system_wide", ctypes.c_int),
                ("timeout_ms", ctypes.c_uint64), ("interval_ms", ctypes.c_uint64), ("on_interval", IntervalFn_),
                ("interval_ctx", ctypes.c_void_p), ("regions", ctypes.c_int), ("delay_ms", ctypes.c_int64),
                ("control", ctypes.POINTER(ctypes.c_int))]


class Metric_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("unit", ctypes.c_char_p), ("reason", ctypes.c_char_p),
                ("valid", ctypes.c_int), ("value", ctypes.c_double)]


class Check_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("severity", ctypes.c_int), ("message", ctypes.c_char_p)]


class KernelInfo_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("desc", ctypes.c_char_p), ("runs_here", ctypes.c_int),
                ("exact", ctypes.c_int)]


class Region_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("calls", ctypes.c_double), ("values", ctypes.POINTER(ctypes.c_double))]


class Result_(ctypes.Structure):
    _fields_ = [("ncounts", ctypes.c_size_t), ("nmetrics", ctypes.c_size_t), ("nchecks", ctypes.c_size_t),
                ("counts", ctypes.POINTER(Count_)), ("metrics", ctypes.POINTER(Metric_)),
                ("checks", ctypes.POINTER(Check_)), ("runs", ctypes.c_uint), ("seconds", ctypes.c_double),
                ("exit_status", ctypes.c_int), ("nregions", ctypes.c_size_t), ("regions", ctypes.POINTER(Region_))]


class CompareOptions_(ctypes.Structure):
    _fields_ = [("test", ctypes.c_char_p), ("alpha", ctypes.c_double), ("fail_if", ctypes.POINTER(ctypes.c_char_p))]


class CompareRow_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("unit", ctypes.c_char_p), ("kind", ctypes.c_char_p),
                ("measured_a", ctypes.c_int), ("measured_b", ctypes.c_int),
                ("a", ctypes.c_double), ("b", ctypes.c_double), ("sd_a", ctypes.c_double), ("sd_b", ctypes.c_double),
                ("runs_a", ctypes.c_size_t), ("runs_b", ctypes.c_size_t), ("diff", ctypes.c_double),
                ("ratio", ctypes.c_double), ("p", ctypes.c_double), ("verdict", ctypes.c_int),
                ("verdict_word", ctypes.c_char_p), ("note", ctypes.c_char_p)]


class CompareCond_(ctypes.Structure):
    _fields_ = [("text", ctypes.c_char_p), ("holds", ctypes.c_int), ("why", ctypes.c_char_p)]


class Comparison_(ctypes.Structure):
    _fields_ = [("nrows", ctypes.c_size_t), ("nconds", ctypes.c_size_t), ("rows", ctypes.POINTER(CompareRow_)),
                ("conds", ctypes.POINTER(CompareCond_)), ("test", ctypes.c_char_p), ("alpha", ctypes.c_double),
                ("env_same", ctypes.c_int), ("env_diff", ctypes.c_char_p), ("exit_status", ctypes.c_int)]


class TrustItem_(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("title", ctypes.c_char_p), ("verdict", ctypes.c_int),
                ("verdict_word", ctypes.c_char_p), ("detail", ctypes.c_char_p)]


class Trust_(ctypes.Structure):
    _fields_ = [("nitems", ctypes.c_size_t), ("items", ctypes.POINTER(TrustItem_)), ("overall", ctypes.c_int),
                ("overall_word", ctypes.c_char_p), ("summary", ctypes.c_char_p), ("exit_status", ctypes.c_int)]


_lock = threading.Lock()
_engine: Optional[ctypes.CDLL] = None
_regions: Optional[ctypes.CDLL] = None
_libc = ctypes.CDLL(None)
_libc.free.argtypes = [ctypes.c_void_p]
_libc.free.restype = None


def engine() -> ctypes.CDLL:
    """libpmctool-engine, loaded and declared on first use."""
    global _engine
    with _lock:
        if _engine is None:
            lib = _load("PMCTOOL_ENGINE_LIB", _SOURCE_BUILD / "src" / "api" / "libpmctool-engine.so",
                        "libpmctool-engine.so.0")
            lib.pmctool_engine_new.restype = ctypes.c_void_p
            lib.pmctool_engine_new.argtypes = []
            lib.pmctool_engine_free.restype = None
            lib.pmctool_engine_free.argtypes = [ctypes.c_void_p]
            lib.pmctool_engine_stop.restype = None
            lib.pmctool_engine_stop.argtypes = [ctypes.c_void_p, ctypes.c_int]
            lib.pmctool_measure.restype = ctypes.c_int
            lib.pmctool_measure.argtypes = [ctypes.c_void_p, ctypes.POINTER(Request_),
                                            ctypes.POINTER(ctypes.POINTER(Result_)), ctypes.POINTER(Error_)]
            lib.pmctool_result_json.restype = ctypes.c_int
            lib.pmctool_result_json.argtypes = [ctypes.POINTER(Result_), ctypes.POINTER(ctypes.c_void_p),
                                                ctypes.POINTER(ctypes.c_size_t)]
            lib.pmctool_result_free.restype = None
            lib.pmctool_result_free.argtypes = [ctypes.POINTER(Result_)]
            lib.pmctool_version.restype = ctypes.c_char_p
            lib.pmctool_version.argtypes = []
            lib.pmctool_kernel_at.restype = ctypes.c_int
            lib.pmctool_kernel_at.argtypes = [ctypes.c_size_t, ctypes.POINTER(KernelInfo_)]
            lib.pmctool_compare.restype = ctypes.c_int
            lib.pmctool_compare.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.POINTER(CompareOptions_),
                                            ctypes.POINTER(ctypes.POINTER(Comparison_)), ctypes.POINTER(Error_)]
            lib.pmctool_comparison_free.restype = None
            lib.pmctool_comparison_free.argtypes = [ctypes.POINTER(Comparison_)]
            lib.pmctool_check.restype = ctypes.c_int
            lib.pmctool_check.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.POINTER(Trust_)), ctypes.POINTER(Error_)]
            lib.pmctool_trust_free.restype = None
            lib.pmctool_trust_free.argtypes = [ctypes.POINTER(Trust_)]
            _engine = lib
        return _engine


def free(ptr: int) -> None:
    """free(3) of what the engine allocated for the caller (pmctool_result_json's document)."""
    _libc.free(ptr)


# --- include/pmctool.h --------------------------------------------------------------------------------------------

def regions() -> ctypes.CDLL:
    """libpmctool (the region library), loaded and declared on first use."""
    global _regions
    with _lock:
        if _regions is None:
            lib = _load("PMCTOOL_REGIONS_LIB", _SOURCE_BUILD / "src" / "regions" / "lib" / "libpmctool.so",
                        "libpmctool.so.0")
            lib.pmctool_region.restype = ctypes.c_int
            lib.pmctool_region.argtypes = [ctypes.c_char_p]
            for f in (lib.pmctool_region_enter, lib.pmctool_region_leave):
                f.restype = None
                f.argtypes = [ctypes.c_int]
            lib.pmctool_thread_init.restype = ctypes.c_int
            lib.pmctool_thread_init.argtypes = []
            lib.pmctool_regions_read_method.restype = ctypes.c_char_p
            lib.pmctool_regions_read_method.argtypes = []
            lib.pmctool_region_counts.restype = ctypes.c_int
            lib.pmctool_region_counts.argtypes = [ctypes.c_int, ctypes.POINTER(ctypes.c_ulonglong),
                                                  ctypes.POINTER(ctypes.c_ulonglong), ctypes.c_int]
            lib.pmctool_regions_finish.restype = ctypes.c_int
            lib.pmctool_regions_finish.argtypes = []
            _regions = lib
        return _regions
