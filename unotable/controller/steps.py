"""What happens next at a table: the one answer every driver acts on.

``Controller.next_step()`` returns exactly one of these; the ``Runner`` carries it out
(inline on a virtual clock in sim, tests and benchmarks; with a worker thread for the
thinking in the app and the server). Nothing else decides when a computer moves.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Ask:
    """One computer the driver will ask, and from when (clock time)."""

    seat: int
    kind: str  # "react" (a late UNO call or a catch) or "turn"
    due: float


@dataclass(frozen=True, slots=True)
class Deal:
    """The finished hand has been seen (or its wait ran out): deal the next one."""


@dataclass(frozen=True, slots=True)
class Think:
    """A computer's turn is due now: think (possibly in another thread), then deliver."""

    ask: Ask


@dataclass(frozen=True, slots=True)
class React:
    """A computer may call UNO late or catch an exposed seat now (a reaction window)."""

    ask: Ask


@dataclass(frozen=True, slots=True)
class StandIn:
    """A human seat's player has been away past the grace: a computer plays it now."""

    seat: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """A human let their turn's time run out: a computer plays that one turn for them."""

    seat: int


@dataclass(frozen=True, slots=True)
class AskHuman:
    """The table waits for these humans (a decision, or being ready for the next hand).

    ``until``: when something else falls due anyway (a computer's reaction, a stand-in,
    the finished hand's time limit); None if only a human can move the table on.
    """

    seats: tuple[int, ...]
    until: float | None = None


@dataclass(frozen=True, slots=True)
class WaitUntil:
    """Nothing to do before ``at`` (clock time): a computer's pause, so humans can follow."""

    at: float


@dataclass(frozen=True, slots=True)
class Over:
    """The match has ended."""


Step = Deal | Think | React | StandIn | TimeOut | AskHuman | WaitUntil | Over
