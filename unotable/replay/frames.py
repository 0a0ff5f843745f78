"""A saved match as a sequence of frames: the deal, then the table after each action.

The controller replays the record (as it rebuilds any saved match); frames are built on
demand from checkpoints (a fork every ``CHECKPOINT_EVERY`` actions), so stepping back
through a long match never replays it from the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from unotable.controller import Controller, Snapshot, VirtualClock
from unotable.engine import Event, HandResult
from unotable.store.record import MatchRecord
from unotable.store.saves import SaveError, load_file

CHECKPOINT_EVERY = 64
# View fields not in the table summary: shown elsewhere, fixed, or long histories
_NOT_IN_TABLE = frozenset(
    {"game", "seat", "players", "hand", "legal", "options", "hand_results", "tricks"}
)
_EMPTY_TEXTS = frozenset({"-", "[]", ""})


class ReplayError(Exception):
    """The file or the seat asked for cannot be replayed; the message says why, on one line."""


class SeatError(ReplayError):
    """The seat asked for (``--as``) is missing or matches no seat: a usage error."""


@dataclass(frozen=True)
class Frame:
    number: int  # 0: the deal, before any action
    total: int  # number of actions in the match
    actor: str | None  # "Ada (seat 1)"; None for the deal
    action: str | None  # the action in notation (redacted when not the viewer's to see)
    events: tuple[str, ...]
    hands: tuple[tuple[str, str], ...]  # (seat label, cards) for every hand shown
    table: tuple[str, ...]  # the public state, one "name: value" per line
    undos: tuple[str, ...] = ()  # take-backs that returned the match to this step

    def text(self) -> str:
        title = f"Step {self.number}/{self.total}"
        lines = [
            f"{title}: the deal" if self.actor is None else f"{title}: {self.actor} {self.action}"
        ]
        lines += [f"  event  {e}" for e in self.events]
        lines += [f"  hand   {label}: {cards}" for label, cards in self.hands]
        lines += [f"  table  {line}" for line in self.table]
        lines += [f"  undo   {line}" for line in self.undos]
        return "\n".join(lines)


@dataclass(frozen=True)
class Step:
    """One step as the engine has it, for words made elsewhere (``replay --text`` words
    it as the table does): who acted, the events and hands shown, the table after it."""

    number: int  # 0: the deal, before any action
    total: int  # number of actions in the match
    seat: int | None  # who acted; None for the deal
    action: str | None  # the action in notation (redacted when not the viewer's to see)
    events: tuple[Event, ...]  # as the viewer may see them
    hands: tuple[tuple[int, tuple[Any, ...]], ...]  # (seat, cards) for every hand shown
    snapshot: Snapshot  # the table after the step, as the viewer saw it
    undos: tuple[tuple[tuple[int, str], ...], ...] = ()  # take-backs that came back here


class Replay:
    """Frames of one record, as everyone sees them (``viewer`` None) or as one seat did."""

    def __init__(self, record: MatchRecord, viewer: int | None) -> None:
        self.record = record
        self.viewer = viewer
        table = _table_from(record)
        self._checkpoints: dict[int, Controller] = {0: table.fork()}
        self._log_ends = [len(table.match.log)]  # after the deal, then after each action
        for number, (seat, text) in enumerate(record.actions, 1):
            _replay(table, number, seat, text)
            self._log_ends.append(len(table.match.log))
            if number % CHECKPOINT_EVERY == 0:
                self._checkpoints[number] = table.fork()
        self._final = table
        self._cache: dict[int, Frame] = {}

    @property
    def finished(self) -> bool:
        return self._final.over

    def __len__(self) -> int:
        return len(self.record.actions) + 1

    def frame(self, number: int) -> Frame:
        if not 0 <= number < len(self):
            raise IndexError(number)
        if number not in self._cache:
            self._cache[number] = self._build(number)
        return self._cache[number]

    def _table_after(self, number: int) -> Controller:
        start = number - number % CHECKPOINT_EVERY
        table = self._checkpoints[start].fork()
        for index in range(start, number):
            seat, text = self.record.actions[index]
            _replay(table, index + 1, seat, text)
        return table

    def seat_label(self, seat: int) -> str:
        return f"{self.record.seats[seat].name} (seat {seat})"

    def step(self, number: int) -> Step:
        """The step ``number``: the deal (0), or the table after that many actions."""
        if not 0 <= number < len(self):
            raise IndexError(number)
        table = self._table_after(number)
        seat = action = None
        if number:
            seat, action = self.record.actions[number - 1]
            if self.viewer is not None and seat != self.viewer:
                action = _redact_action(action)
        start = self._log_ends[number - 1] if number else 0
        log = self._final.match.log[start : self._log_ends[number]]
        if self.viewer is not None:
            log = [event.seen_by(self.viewer) for event in log]
        shown = range(len(self.record.seats)) if self.viewer is None else (self.viewer,)
        hands = tuple((s, tuple(table.view(s).hand)) for s in shown)
        snapshot = table.snapshot(self.viewer, since=len(table.match.log))
        undos = tuple(tuple(back) for at, back in self.record.undos if at == number)
        return Step(number, len(self) - 1, seat, action, tuple(log), hands, snapshot, undos)

    def _build(self, number: int) -> Frame:
        step = self.step(number)
        actor = None if step.seat is None else self.seat_label(step.seat)
        events = tuple(self._event_text(e) for e in step.events)
        hands = tuple(
            (self.seat_label(s), " ".join(str(c) for c in cards) or "(none)")
            for s, cards in step.hands
        )
        view = step.snapshot.view
        table = tuple(
            f"{name}: {text}"
            for name, text in (
                (f.name, _value_text(getattr(view, f.name)))
                for f in fields(view)
                if f.name not in _NOT_IN_TABLE
            )
            if text not in _EMPTY_TEXTS
        )
        undos = tuple(self._undo_text(back) for back in step.undos)
        return Frame(number, step.total, actor, step.action, events, hands, table, undos)

    def _undo_text(self, taken_back: tuple[tuple[int, str], ...]) -> str:
        """A take-back that returned the match here, as the viewer may read it."""
        moves = [
            f"{self.record.seats[seat].name} "
            + (text if self.viewer is None or seat == self.viewer else _redact_action(text))
            for seat, text in taken_back
        ]
        return "taken back: " + ", ".join(moves)

    def _event_text(self, event: Event) -> str:
        parts = [event.kind]
        if event.seat is not None and 0 <= event.seat < len(self.record.seats):
            parts.append(self.seat_label(event.seat))
        if event.cards:
            parts.append(" ".join(str(c) for c in event.cards))
        elif event.count:
            parts.append(f"{event.count} card{'s' if event.count != 1 else ''}")
        parts += [f"{key}={_value_text(value)}" for key, value in event.data.items()]
        return " · ".join(parts)


def _table_from(record: MatchRecord) -> Controller:
    try:
        return Controller.from_record(record, clock=VirtualClock(), upto=0)
    except Exception as exc:  # an engine that cannot start it, for whatever reason
        raise SaveError(f"the match cannot be set up again: {exc}") from exc


def _replay(table: Controller, number: int, seat: int, text: str) -> None:
    from unotable.engine.replay import ReplayError

    try:
        table.replay(seat, text, number)
    except ReplayError as exc:
        raise SaveError(str(exc)) from exc


def _redact_action(text: str) -> str:
    # cards passed by another seat are secret (the public only knows how many)
    if text.lower().startswith("give:"):
        return f"give: {len(text.split(','))} cards"
    return text


def _value_text(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, HandResult):
        return (
            f"hand {value.number}: points {_value_text(value.points)}, "
            f"totals {_value_text(value.totals)}"
        )
    if isinstance(value, str | int | float | bool):
        return str(value)
    if isinstance(value, Mapping):
        return ", ".join(f"{k}={_value_text(v)}" for k, v in value.items()) or "-"
    if isinstance(value, tuple | list | frozenset | set):
        items = [_value_text(v) for v in value]
        return ("[" + " ".join(items) + "]") if items else "[]"
    return str(value)


def parse_seat(text: str, record: MatchRecord) -> int:
    """A seat given as its number or its player's name; ReplayError if no seat matches."""
    if text.strip().isdigit():
        seat = int(text)
        if 0 <= seat < record.players:
            return seat
        raise SeatError(f"there is no seat {seat}; seats are 0 to {record.players - 1}")
    names = [i for i, s in enumerate(record.seats) if s.name.casefold() == text.casefold()]
    if len(names) == 1:
        return names[0]
    listed = ", ".join(f"{i} {s.name}" for i, s in enumerate(record.seats))
    if names:
        raise SeatError(f"several seats are called {text!r}; give a number ({listed})")
    raise SeatError(f"no seat is called {text!r} (seats: {listed})")


def load_replay(path: Path, as_seat: str | None) -> Replay:
    """The replay of the saved match in ``path``; ReplayError or SaveError if it has none."""
    try:
        # the store's safe reader: a FIFO or a huge file is refused at once, unread
        record = load_file(path)
    except FileNotFoundError as exc:
        raise ReplayError(f"cannot read {path}: {exc.strerror or exc}") from exc
    except SaveError as exc:
        raise ReplayError(f"{path} cannot be replayed: {exc}") from exc
    try:
        viewer = None if as_seat is None else parse_seat(as_seat, record)
        replay = Replay(record, viewer)
    except SaveError as exc:
        raise ReplayError(f"{path} cannot be replayed: {exc}") from exc
    if viewer is None and not replay.finished:
        raise SeatError(
            f"{path} is a match still in play: say whose view to show with --as SEAT "
            f"(seats: {', '.join(f'{i} {s.name}' for i, s in enumerate(record.seats))})"
        )
    return replay
