"""Time sources for the table clocks.

Clocks are stored as deadlines (wall-clock seconds since the epoch) derived from the time
stamps in the event log, so they survive a restart. The time source is injectable so tests
move time by hand instead of sleeping.
"""

from __future__ import annotations

import time
from typing import Protocol


class TimeSource(Protocol):
    def now(self) -> float:
        """Seconds since the epoch."""
        ...


class SystemTime:
    """The real wall clock (a deadline must mean the same after a restart)."""

    def now(self) -> float:
        return time.time()


class ManualTime:
    """A clock that moves only when told to: for tests and deterministic scripts."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds

    def set(self, when: float) -> None:
        self._now = when
