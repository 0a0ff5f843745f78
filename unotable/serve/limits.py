"""Abuse limits for the SSH table, kept free of networking so they can be tested with a fake clock.

- ``GuessPenalty``: each source address may have its passwords checked at a steady rate.
- ``LoginGate``: caps connections that have not logged in yet, in total and per address.
- ``QuietLog``: the first of a kind of log line per window is written, repeats are counted.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable

Clock = Callable[[], float]


class GuessPenalty:
    """A leaky bucket per address: each password check costs ``60 / per_minute`` seconds of debt,
    which drains in real time. An address may be checked while its debt stays within
    ``burst`` checks, so typos are free and a guesser gets ``per_minute`` checks a minute."""

    def __init__(self, per_minute: int, burst: int, clock: Clock = time.monotonic) -> None:
        self.cost = 60.0 / per_minute
        self._limit = burst * self.cost
        self._clock = clock
        self._paid_until: dict[str, float] = {}

    def wait(self, address: str) -> float:
        """Seconds until ``address`` may have a password checked again (0 if it may now)."""
        owed = self._paid_until.get(address, 0.0) - self._clock()
        return max(0.0, owed + self.cost - self._limit)

    def take(self, address: str) -> bool:
        """Charge one check to ``address``; False (nothing charged) while it must wait."""
        now = self._clock()
        if len(self._paid_until) > 4096:
            self._paid_until = {a: t for a, t in self._paid_until.items() if t > now}
        if self.wait(address) > 0:
            return False
        self._paid_until[address] = max(now, self._paid_until.get(address, now)) + self.cost
        return True

    def refund(self, address: str) -> None:
        """A right password costs nothing."""
        if address in self._paid_until:
            self._paid_until[address] -= self.cost


class LoginGate:
    """Connections that have not logged in yet, at most ``total`` and ``per_address`` each.

    When the total is reached, the oldest pending connection of the address holding the
    most is dropped to make room: a flood evicts itself, not the player who just arrived.
    """

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self._pending: OrderedDict[Hashable, str] = OrderedDict()  # oldest first
        self._count: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._pending)

    def admit(self, key: Hashable, address: str) -> tuple[bool, Hashable | None]:
        """(admitted, a pending key to drop to make room, if any)."""
        if self._count.get(address, 0) >= self.per_address:
            return False, None
        evicted = None
        if len(self._pending) >= self.total:
            busiest = max(self._count, key=lambda a: self._count[a])
            evicted = next(k for k, a in self._pending.items() if a == busiest)
            self.leave(evicted)
        self._pending[key] = address
        self._count[address] = self._count.get(address, 0) + 1
        return True, evicted

    def leave(self, key: Hashable) -> None:
        """The connection logged in or closed."""
        address = self._pending.pop(key, None)
        if address is None:
            return
        self._count[address] -= 1
        if not self._count[address]:
            del self._count[address]


# one line a minute per kind of refusal: shared with the tables' service
from unotable.tables.quiet import QuietLog  # noqa: E402

__all__ = ["GuessPenalty", "LoginGate", "QuietLog"]
