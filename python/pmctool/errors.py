# SPDX-License-Identifier: MIT
"""pmctool's errors as Python exceptions: one class per kind of include/pmctool_engine.h's struct pmctool_error.

Every one carries the engine's words: ``subject`` (the request field it is about: "events", "metrics", "argv",
"kernel", "eventset", "batching", "params", "pids", "tids", "cpus", "system_wide", "timeout_ms", "interval_ms",
"on_interval", "regions", "delay_ms", "control", ..., or ""), ``detail`` (what is wrong and what to do, as `pmctool stat` prints it),
``exit_status`` (the status `pmctool stat` exits with for the same request, pmctool(1)) and, where something was
measured, ``result`` (a pmctool.Result: the counts until a stop, the per-event reasons when nothing counted).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Optional, Type

if TYPE_CHECKING:
    from .result import Result


class Error(Exception):
    """Base class of pmctool's errors: ``kind``, ``subject``, ``detail``, ``exit_status`` and ``result`` (or None)."""

    kind: int = -1
    word: str = "error"

    def __init__(self, subject: str, detail: str, exit_status: int, result: Optional["Result"] = None) -> None:
        super().__init__(f"{subject}: {detail}" if subject else detail)
        self.subject = subject
        self.detail = detail
        self.exit_status = exit_status
        self.result = result


class RequestError(Error):
    """A field of the request is wrong (an unknown event, a bad formula, no command): nothing ran."""
    kind, word = 1, "request"


class LaunchError(Error):
    """The command was not found or could not be executed (subject "argv"; exit_status 127 or 126)."""
    kind, word = 2, "launch"


class NoCountError(Error):
    """Nothing could be counted at all: ``result`` says why, per event (its counts' ``reason``)."""
    kind, word = 3, "nocount"


class StoppedError(Error):
    """The measurement was stopped (Ctrl-C in Python, or pmctool_engine_stop): ``result`` holds what was counted."""
    kind, word = 4, "stopped"


class CommandError(Error):
    """The command failed (raised by stat(..., check=True) only): ``result`` has its counts and its exit_status."""
    kind, word = 5, "command"


class SystemFailureError(Error):
    """Out of memory, or a system error pmctool could not work around."""
    kind, word = 6, "system"


BY_KIND: Dict[int, Type[Error]] = {c.kind: c for c in (RequestError, LaunchError, NoCountError, StoppedError,
                                                       CommandError, SystemFailureError)}
