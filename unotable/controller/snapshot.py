"""What one viewer may see and do now (a Snapshot), and what they send back (an Intent).

Both are immutable plain data: ``wire.encode``/``wire.decode`` turn them into JSON-ready
values and back, so a later client in another process draws exactly what the app draws.
A snapshot never holds more than its viewer may know: it is built from the engine's
``view(viewer)`` (``view(None)`` for a spectator or a hidden hot-seat screen).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from unotable.engine import Action, Event, HandResult, View


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    kind: str  # "human" or a computer level
    label: str  # "Human", "Normal", ...
    playing_as: str | None = None  # the level really playing, when a fallback stands in

    @property
    def human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True, slots=True)
class Snapshot:
    version: int  # actions applied so far; an intent names the version it answers
    game: str
    viewer: int | None  # whose private cards this holds; None: nobody's (spectator)
    seats: tuple[SeatInfo, ...]
    view: View  # the engine's view for ``viewer``
    waiting_on: int | None  # the seat whose decision the table waits on (None: nobody's)
    waiting_human: bool
    hand_over: bool  # a hand has ended: its table stays readable until the next deal
    over: bool
    handover_to: int | None  # hot-seat: this human must take the keyboard before cards show
    exposed: int | None  # the seat that may be caught for a missed UNO call
    catchers: tuple[int, ...]  # humans who may catch it now
    late_caller: int | None  # the exposed seat, if it is a human who may still call UNO
    kept: Any  # the card ``viewer`` drew and had to keep (only theirs to know), or None
    events: tuple[Event, ...]  # the log from ``log_start`` on, as ``viewer`` may see it
    log_start: int
    log_length: int
    hand_results: tuple[HandResult, ...]
    winners: tuple[int, ...]
    # the current hand's latest events as ``viewer`` may see them (the centre's lines),
    # whatever this viewer was or was not sent before (a joiner sees them too)
    recent: tuple[Event, ...] = ()
    not_ready: tuple[int, ...] = ()  # between hands: the humans the next deal waits for
    deal_in: float | None = None  # between hands: seconds until it is dealt anyway
    spectator: bool = False  # the viewer watches: it has no seat at this table
    fast_forward: bool = False  # computers play without pauses until a human decides
    undo_refused: str | None = "Undo is not offered here."  # why not; None: it is allowed
    turn_ends_in: float | None = None  # seconds the awaited human has left (time-outs on)
    shown: Event | None = None  # hot-seat: a hand shown to the viewer alone, until Seen

    @property
    def my_turn(self) -> bool:
        """The viewer's decision is awaited (and their cards are theirs to see)."""
        return self.viewer is not None and self.waiting_on == self.viewer and self.waiting_human

    @property
    def actions(self) -> tuple[Action, ...]:
        """Everything the viewer may do now, out-of-turn calls and catches included."""
        return self.view.legal

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.seats[seat].name


@dataclass(frozen=True, slots=True)
class Intent:
    """A human's choice: ``action`` in notation, for ``seat``, answering ``version``.

    ``version`` None means "whatever the table shows now" (local keyboards); a remote
    client names the version it saw, so a stale click is refused instead of misapplied.
    """

    seat: int
    action: str
    version: int | None = None


# What else a viewer may ask of a table: each is an intent too, never a write to the
# controller's fields. A table answers each with news (a snapshot, a refusal, a notice).


@dataclass(frozen=True, slots=True)
class Ready:
    """The finished hand has been seen at this terminal: deal the next when all are."""


@dataclass(frozen=True, slots=True)
class TookKeyboard:
    """Hot-seat: ``seat``'s player has the keyboard (catching ``exposed`` first if asked)."""

    seat: int
    catch: bool = False


@dataclass(frozen=True, slots=True)
class Seen:
    """Hot-seat: ``seat``'s player has seen the hand shown to them alone."""

    seat: int


@dataclass(frozen=True, slots=True)
class SkipAhead:
    """Computers play without pauses until the next human decision."""


@dataclass(frozen=True, slots=True)
class SetSpeed:
    speed: str


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take back this human's last decision (one human against computers only)."""


@dataclass(frozen=True, slots=True)
class Say:
    """A chat line (shared tables): free text or one of the quick phrases."""

    text: str | None = None
    quick: int | None = None


@dataclass(frozen=True, slots=True)
class StartNow:
    """A shared table's creator starts before every open seat is taken."""


@dataclass(frozen=True, slots=True)
class Leave:
    """This terminal leaves the table."""


Command = (
    Intent | Ready | TookKeyboard | Seen | SkipAhead | SetSpeed | TakeBack | Say | StartNow | Leave
)


@dataclass(frozen=True, slots=True)
class News:
    """What a table tells the screens watching it.

    ``kind``: "snapshot" (``snapshot`` is the newest for this terminal), "refused" (an
    intent was not taken: ``text`` says why), "notice" (a line for this terminal only),
    "chat" (``text``, from ``sender``; None for the table itself) or "closed" (``text``).
    """

    kind: str
    snapshot: Snapshot | None = None
    text: str = ""
    sender: str | None = None
