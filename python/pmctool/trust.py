# SPDX-License-Identifier: MIT
"""pmctool.check: `pmctool check`'s trust check through the engine library's pmctool_check (include/pmctool_engine.h).

The measurements and the judgements are info/check.c's; nothing is judged in Python.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import List

from . import _lib
from .errors import BY_KIND, SystemFailureError

#: The verdicts, as `pmctool check` words them (enum pmctool_trust_verdict's order).
TRUST_VERDICTS = ("trustworthy", "degraded", "unavailable")


@dataclass(frozen=True)
class TrustItem:
    """One item of the check: ``name`` (stable: "pmu", "exact:cpu", "read-paths", ...), ``title``, ``verdict`` (one
    of TRUST_VERDICTS) and ``detail`` (what was measured; why degraded or unavailable)."""
    name: str
    title: str
    verdict: str
    detail: str


@dataclass(frozen=True)
class TrustCheck:
    """What pmctool.check found: ``items``, ``verdict`` (the overall one), ``summary`` and ``exit_status`` (what
    `pmctool check` exits with: 0 trustworthy, 10 degraded, 11 unavailable). ``trust["pmu"]`` is that item."""
    items: List[TrustItem]
    verdict: str
    summary: str
    exit_status: int

    def __getitem__(self, name: str) -> TrustItem:
        for it in self.items:
            if it.name == name:
                return it
        raise KeyError(f"no item {name!r}: the check has {', '.join(it.name for it in self.items)}")

    @property
    def trustworthy(self) -> bool:
        """True when every item is trustworthy."""
        return self.verdict == "trustworthy"


def _text(b: bytes) -> str:
    return b.decode("utf-8", "replace") if b else ""


def check(quick: bool = False) -> TrustCheck:
    """Can counts be trusted on this machine, now? `pmctool check` in this process: the loop kernel (exact counts
    known) on every core type and through both read paths, the fixed counters, a multiplexed run, the counter width,
    the NMI watchdog; each item judged. A few seconds; quick=True: only the probe, the exact counts and the read
    paths (what `stat --check` runs). The items that time a launched loop count it in a forked child of this
    process (no exec); the uncore and energy items are informational, as the command's."""
    lib = _lib.engine()
    out = ctypes.POINTER(_lib.Trust_)()
    err = _lib.Error_()
    kind = lib.pmctool_check(1 if quick else 0, ctypes.byref(out), ctypes.byref(err))
    if kind:
        raise BY_KIND.get(kind, SystemFailureError)(_text(err.subject), _text(err.detail), err.exit_status)
    try:
        t = out.contents
        items = [TrustItem(_text(t.items[i].name), _text(t.items[i].title), _text(t.items[i].verdict_word),
                           _text(t.items[i].detail)) for i in range(t.nitems)]
        return TrustCheck(items, _text(t.overall_word), _text(t.summary), t.exit_status)
    finally:
        lib.pmctool_trust_free(out)
