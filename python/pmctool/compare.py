# SPDX-License-Identifier: MIT
"""pmctool.compare: `pmctool compare A B` through the engine library's pmctool_compare (include/pmctool_engine.h).

The statistics, the verdict words and the --fail-if conditions are the command's own (src/report/multi.c); nothing is
judged in Python.
"""
from __future__ import annotations

import ctypes
import json
import math
import os
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Union

from . import _lib
from .errors import BY_KIND, RequestError, SystemFailureError
from .result import Result

#: The verdicts, as `pmctool compare` words them (enum pmctool_verdict's order).
VERDICTS = ("significant", "not significant", "no difference", "not enough runs", "not measured")

Report = Union[Result, Mapping[str, Any], str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Change:
    """One row of a comparison (an event, a metric or the wall time), B against A: ``a`` and ``b`` (means over the
    runs; None where not measured), ``sd_a``/``sd_b`` (None with one run), ``runs_a``/``runs_b``, ``diff`` (b - a)
    and ``ratio`` (b / a; None when a is 0 or a side is missing), ``p`` (the test's two-sided p-value, None when not
    tested), ``verdict`` (one of VERDICTS: `pmctool compare`'s word) and ``note`` (why not tested or not measured)."""
    name: str
    kind: str
    unit: str
    a: Optional[float]
    b: Optional[float]
    sd_a: Optional[float]
    sd_b: Optional[float]
    runs_a: int
    runs_b: int
    diff: Optional[float]
    ratio: Optional[float]
    p: Optional[float]
    verdict: str
    note: str

    @property
    def significant(self) -> bool:
        """True when the test says the change is not noise."""
        return self.verdict == "significant"


@dataclass(frozen=True)
class Condition:
    """A ``fail_if`` condition ("instructions:u>+1%"), judged as `compare --fail-if` judges it: ``holds`` True (the
    gate fails), False, or None when it cannot be judged (``why`` says why)."""
    text: str
    holds: Optional[bool]
    why: str


@dataclass(frozen=True)
class Comparison:
    """What pmctool.compare found: ``changes`` (one per event, metric and the wall time, A's order), ``conditions``,
    ``test`` ("welch-t", "mann-whitney-u"), ``alpha``, ``same_environment`` (True, False, None when a report does
    not say; ``environment_differences`` says how) and ``exit_status`` (what `pmctool compare` exits with: 1 when a
    condition holds, 3 when one cannot be judged, else 0). ``comparison["instructions"]`` is that row."""
    changes: List[Change]
    conditions: List[Condition]
    test: str
    alpha: float
    same_environment: Optional[bool]
    environment_differences: str
    exit_status: int

    def __getitem__(self, name: str) -> Change:
        for c in self.changes:
            if c.name == name:
                return c
        raise KeyError(f"no row {name!r}: the comparison has {', '.join(c.name for c in self.changes)}")

    @property
    def failed(self) -> bool:
        """True when a fail_if condition holds or cannot be judged (exit_status is not 0)."""
        return self.exit_status != 0


def _document(side: str, r: Report) -> bytes:
    if isinstance(r, Result):
        return r.to_json().encode()
    if isinstance(r, Mapping):
        return json.dumps(r).encode()
    if isinstance(r, (str, os.PathLike)):
        try:
            with open(r, "rb") as f:
                return f.read()
        except OSError as e:
            raise RequestError(side, f"report {side}: {os.fsdecode(r)}: {e.strerror}", 2) from None
    raise RequestError(side, f"report {side}: a Result, a dict (a stat --json document) or a path, not "
                             f"{type(r).__name__}", 2)


def _num(x: float) -> Optional[float]:
    return None if math.isnan(x) else x


def _text(b: Optional[bytes]) -> str:
    return b.decode("utf-8", "replace") if b else ""


def compare(a: Report, b: Report, *, test: str = "welch", alpha: float = 0.05,
            fail_if: Union[None, str, Sequence[str]] = None) -> Comparison:
    """Compare two stat results as `pmctool compare A B` does: B against A, each event, metric and the wall time.

    a, b      a Result of pmctool.stat, its to_dict(), or the path of a `pmctool stat --json` file
    test      "welch" (Welch's t-test) or "mann-whitney" (needs 4 runs a side), as `compare --test`
    alpha     the significance level, as `compare --alpha`
    fail_if   `compare --fail-if` conditions: "instructions:u>+1%", "task-clock<-5%", "cycles>+3sd"

    A change is judged only with enough runs on both sides (``stat(..., repeat=N)``). Raises RequestError (subject
    "a", "b", "test", "alpha" or "fail_if") for a report that is not a stat document or a bad option.
    """
    docs = (_document("a", a), _document("b", b))
    conds = [fail_if] if isinstance(fail_if, str) else list(fail_if or [])
    arr = (ctypes.c_char_p * (len(conds) + 1))(*[c.encode() for c in conds], None)
    opt = _lib.CompareOptions_(test.encode(), alpha, ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p)))
    lib = _lib.engine()
    out = ctypes.POINTER(_lib.Comparison_)()
    err = _lib.Error_()
    kind = lib.pmctool_compare(docs[0], docs[1], ctypes.byref(opt), ctypes.byref(out), ctypes.byref(err))
    if kind:
        raise BY_KIND.get(kind, SystemFailureError)(_text(err.subject), _text(err.detail), err.exit_status)
    try:
        c = out.contents
        changes = []
        for i in range(c.nrows):
            r = c.rows[i]
            changes.append(Change(
                _text(r.name), _text(r.kind), _text(r.unit),
                r.a if r.measured_a else None, r.b if r.measured_b else None, _num(r.sd_a), _num(r.sd_b),
                r.runs_a, r.runs_b, _num(r.diff), _num(r.ratio), _num(r.p), _text(r.verdict_word), _text(r.note)))
        conditions = [Condition(_text(c.conds[i].text), None if c.conds[i].holds < 0 else bool(c.conds[i].holds),
                                _text(c.conds[i].why)) for i in range(c.nconds)]
        return Comparison(changes, conditions, _text(c.test), c.alpha,
                          None if c.env_same < 0 else bool(c.env_same), _text(c.env_diff), c.exit_status)
    finally:
        lib.pmctool_comparison_free(out)
