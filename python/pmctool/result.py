# SPDX-License-Identifier: MIT
"""A measurement's result as Python objects: include/pmctool_engine.h's struct pmctool_result, copied out of C."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional

#: A count's status words, as `pmctool stat` prints them (enum pmctool_count_status).
STATUS_WORDS = ("counted", "not counted", "not supported", "not run")
#: A check's severity words (pmctool-checks(7)).
SEVERITY_WORDS = ("info", "warning", "bad")


@dataclass(frozen=True)
class Count:
    """One event's count: ``value`` (mean over the runs, scaled where multiplexed; 0.0 unless counted), ``status``
    ("counted", "not counted", "not supported", "not run"), ``reason`` (why it is not counted, "" when it is),
    ``running`` (the lowest share of its time the event was on a counter, 0..1) and ``unit`` (the engine's struct
    pmctool_count unit, "" for plain counts; to_dict()'s events carry the JSON document's units)."""
    event: str
    status: str
    value: float
    running: float
    unit: str
    reason: str

    @property
    def counted(self) -> bool:
        """True when the event counted (its value is measured)."""
        return self.status == "counted"


def _count_of(counts: List[Count], event: str) -> Count:
    for c in counts:
        if c.event == event:
            return c
    raise KeyError(f"no count of {event!r}: there are {', '.join(c.event for c in counts) or 'none'}")


@dataclass(frozen=True)
class Interval:
    """One interval of stat(..., interval=SECONDS, on_interval=FN), handed to FN as it ends (`pmctool stat -I`):
    ``index`` (1, 2, ...), ``start`` and ``end`` (seconds since counting started) and ``counts``, a list of Count:
    what each event counted in this interval alone (not since the start), scaled where multiplexed, in the order
    asked; an event that was not on a counter in the interval is "not counted" with that reason.
    ``interval["task-clock"]`` is the Count of that event."""
    index: int
    start: float
    end: float
    counts: List[Count]

    def __getitem__(self, event: str) -> Count:
        return _count_of(self.counts, event)

    def __iter__(self) -> Iterator[Count]:
        return iter(self.counts)


@dataclass(frozen=True)
class Region:
    """A region of the command's (stat(..., regions=True); pmctool-regions(7)), merged over its threads as
    `pmctool stat --regions` reports it: ``name``, ``calls`` (enter/leave pairs per execution, mean) and ``counts``,
    {event: the count inside the region per execution (mean), None where it was not measured}, in the result's
    order. ``region["task-clock"]`` is one of them. The JSON document (to_dict()["regions"]) has the rest: calls per
    execution, threads, the pair's own cost, misuse."""
    name: str
    calls: float
    counts: Dict[str, Optional[float]]

    def __getitem__(self, event: str) -> Optional[float]:
        return self.counts[event]


@dataclass(frozen=True)
class Metric:
    """A metric: ``value`` is None when it has none (``reason`` says why); otherwise ``reason`` names what it read."""
    name: str
    value: Any
    unit: str
    reason: str


@dataclass(frozen=True)
class Check:
    """A check pmctool made of the measurement: ``name`` is stable ("multiplexed", "no-hardware-pmu", ...,
    pmctool-checks(7)), ``severity`` "info", "warning" or "bad"."""
    name: str
    severity: str
    message: str


@dataclass(frozen=True)
class Environment:
    """Where a result was measured (the JSON document's "environment"; `pmctool compare` warns when two differ):
    ``cpu`` (model name), ``cpuid`` (vendor-family-model-stepping), ``microcode``, ``hypervisor`` (True in a VM),
    ``kernel`` (release), ``arch``, ``libpfm4`` (release), ``core_pmu`` (libpfm4's name of the core PMU), ``tables``
    (the vendor tables used, or None), ``pmctool`` (version) and ``backend`` ("perf_event", "emulated"). A member the
    report does not give is None."""
    cpu: Any
    cpuid: Any
    microcode: Any
    hypervisor: Any
    kernel: Any
    arch: Any
    libpfm4: Any
    core_pmu: Any
    tables: Any
    pmctool: Any
    backend: Any


@dataclass(frozen=True)
class Result:
    """What pmctool.stat measured: ``counts`` (list of Count, in the order asked), ``metrics``, ``checks``, ``runs``
    (completed; fewer when stopped), ``seconds`` (wall time of one run, mean), ``exit_status`` (the command's first
    failing status, 128 + signal; 0), ``regions`` (list of Region, with stat(..., regions=True); else empty).
    ``result["task-clock"]`` is the Count of that event; ``to_dict()`` is the document `pmctool stat --json` writes
    for the same measurement, ``to_json()`` its text."""
    counts: List[Count]
    metrics: List[Metric]
    checks: List[Check]
    runs: int
    seconds: float
    exit_status: int
    _json: str = field(repr=False, compare=False)
    regions: List[Region] = field(default_factory=list)

    def __getitem__(self, event: str) -> Count:
        return _count_of(self.counts, event)

    def region(self, name: str) -> Region:
        """The Region of that name (KeyError naming those there are when the command entered none of it)."""
        for g in self.regions:
            if g.name == name:
                return g
        raise KeyError(f"no region {name!r}: the result has {', '.join(g.name for g in self.regions) or 'none'}")

    def __iter__(self) -> Iterator[Count]:
        return iter(self.counts)

    def to_json(self) -> str:
        """The `pmctool stat --json` document (text), written by the engine's own JSON writer."""
        return self._json

    def to_dict(self) -> Dict[str, Any]:
        """The `pmctool stat --json` document, parsed (a new dict each call)."""
        return json.loads(self._json)

    @property
    def environment(self) -> Environment:
        """Where it was measured (Environment), from the engine's document."""
        env = self.to_dict().get("environment") or {}
        return Environment(**{f: env.get(f) for f in Environment.__dataclass_fields__})
