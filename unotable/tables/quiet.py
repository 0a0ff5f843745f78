"""A log that says a repeated line once a minute, with how many it left out."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable

Clock = Callable[[], float]


class QuietLog:
    """Logs the first line of each kind per ``window`` seconds; repeats are only counted and
    reported with the next line of that kind after the window ("... 42 more like it")."""

    def __init__(
        self, logger: logging.Logger, window: float = 60.0, clock: Clock = time.monotonic
    ) -> None:
        self._log = logger
        self._window = window
        self._clock = clock
        self._kinds: dict[Hashable, tuple[float, int]] = {}  # kind -> (window start, repeats)

    def info(self, kind: Hashable, message: str, *args: object) -> bool:
        """Log unless a line of this kind went out within the window; True if logged."""
        now = self._clock()
        started, repeats = self._kinds.get(kind, (float("-inf"), 0))
        if now - started < self._window:
            self._kinds[kind] = (started, repeats + 1)
            return False
        if len(self._kinds) > 4096:
            self._kinds = {k: v for k, v in self._kinds.items() if now - v[0] < self._window}
        self._kinds[kind] = (now, 0)
        if repeats:
            message += f" (and {repeats} more like it in the last {self._window:g}s)"
        self._log.info(message, *args)
        return True
