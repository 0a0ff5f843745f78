"""Time for the driver: real in the app, virtual in tests, ``sim`` and benchmarks.

Only pacing reads the clock (when a computer acts, how long humans get to catch first);
no rule does. A virtual clock never sleeps: it jumps to the next moment something is due.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()


class VirtualClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go back")
        self._now += seconds

    def advance_to(self, moment: float) -> None:
        self._now = max(self._now, moment)
