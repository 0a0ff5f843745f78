"""A seat at a shared table, as the table screen sees it.

``RemoteTable`` answers the part of the controller's interface the table screen uses, from
the snapshots the table sends this seat; it drives nothing (the table's own controller,
in the server, does) and turns the screen's intents into frames. It holds exactly what
this seat was sent: its own cards, never another player's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import Any

from unotable.controller.clock import RealClock
from unotable.controller.pacing import Pace
from unotable.controller.snapshot import Intent, Snapshot
from unotable.engine import Action, Event, IllegalAction

from .client import TableClient, snapshot_of

UpdateHandler = Callable[[str], None]  # "snapshot", "refused", "chat" or "closed"


class RemoteTable:
    shared = True
    undo_allowed = False

    def __init__(self, client: TableClient, joined: dict[str, Any], first: dict[str, Any]):
        """``joined`` and ``first``: the table's ``joined`` frame and its first snapshot."""
        self.client = client
        self.table_id: str = joined["table"]
        self.seat: int | None = joined["seat"]
        # every seat played at this terminal: the player's own, then hot-seat ones
        self.seats: tuple[int, ...] = tuple(
            joined.get("seats") or ([] if self.seat is None else [self.seat])
        )
        self._shown: int | None = None  # a hand-over told to the table, until its answer
        self.code: str | None = joined.get("code")
        self.on_update: UpdateHandler = lambda kind: None
        self.fast_forward = False
        self.pace = Pace("normal")  # the screen reads it; the server sets the real pace
        self.clock = RealClock()
        self.presence: list[dict[str, Any]] = []
        self.started = False
        self.chat: list[dict[str, Any]] = []
        self.refusal: str | None = None
        self.closed_reason: str | None = None
        self._events: list[Event] = []
        self._snap: Snapshot = self._take(first)
        self._pending: int | None = None  # the version an intent answered, until news
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- frames from the table ------------------------------------------------------------

    def _take(self, message: dict[str, Any]) -> Snapshot:
        snap = snapshot_of(message)
        del self._events[snap.log_start :]
        self._events.extend(snap.events)
        self.presence = message.get("presence", [])
        self._presence_at = time.monotonic()
        self.started = bool(message.get("started"))
        return snap

    def handle(self, message: dict[str, Any]) -> str | None:
        """Take one frame in; what kind of news it was (None: nothing to show)."""
        kind = message.get("type")
        if kind == "snapshot":
            self._snap = self._take(message)
            self._pending = None
            self._shown = None
            return "snapshot"
        if kind == "refused":
            self.refusal = str(message.get("reason", ""))
            self._pending = None
            return "refused"
        if kind == "chat":
            self.chat.append(message)
            return "chat"
        if kind == "closed":
            self.closed_reason = str(message.get("reason", "the table closed"))
            return "closed"
        return None

    async def pump(self) -> None:
        """Read the table's frames until it closes, telling ``on_update`` of each."""
        try:
            while True:
                message = await self.client.receive()
                if message is None:
                    break
                news = self.handle(message)
                if news:
                    self.on_update(news)
        except (ConnectionError, ValueError) as error:
            self.closed_reason = str(error) or "the connection to the table was lost"
        if self.closed_reason is None:
            self.closed_reason = "the table closed the connection"
        self.on_update("closed")

    def _send(self, message: dict[str, Any]) -> None:
        async def send() -> None:
            with contextlib.suppress(ConnectionError):
                await self.client.send(message)

        task = asyncio.get_running_loop().create_task(send())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def leave(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self.client.send({"type": "bye"})
        await self.client.close()

    def say(self, text: str | None = None, quick: int | None = None) -> None:
        self._send({"type": "chat", "text": text, "quick": quick})

    def start_now(self) -> None:
        self._send({"type": "start"})

    # -- what the table screen asks -------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self._snap.game

    @property
    def version(self) -> int:
        return self._snap.version

    @property
    def over(self) -> bool:
        return self._snap.over

    @property
    def hand_over(self) -> bool:
        return self._snap.hand_over

    @property
    def hand_results(self) -> list[Any]:
        return list(self._snap.hand_results)

    def name(self, seat: int | None) -> str:
        return self._snap.name(seat)

    def snapshot(self, viewer: int | None = None, since: int = 0) -> Snapshot:
        """The latest snapshot for this terminal, with the log from ``since`` on. The table
        says whose cards it shows (``viewer``): the player's own, or, with hot-seat seats,
        the one who took the keyboard. While an intent or a hand-over is on its way the
        seat is not asked again."""
        snap = self._snap
        waiting_human = snap.waiting_human and self._pending != snap.version
        if not self.started:
            waiting_human = False
        handover = snap.handover_to if snap.handover_to != self._shown else None
        return dataclasses.replace(
            snap,
            events=tuple(self._events[since:]),
            log_start=since,
            log_length=len(self._events),
            handover_to=handover,
            waiting_human=waiting_human,
        )

    def screen_seat(self) -> int | None:
        return self._snap.viewer

    def legal(self, seat: int) -> list[Action]:
        return list(self._snap.actions) if seat == self._snap.viewer else []

    def submit(self, intent: Intent | tuple[int, Action | str]) -> list[Event]:
        """Send this seat's choice; one that the snapshot does not allow is refused here."""
        if isinstance(intent, tuple):
            intent = Intent(intent[0], str(intent[1]))
        if intent.seat not in self.seats or intent.seat != self._snap.viewer:
            raise IllegalAction("you may act only for your own seat")
        if not self.started:
            raise IllegalAction("the match has not begun: waiting for players to sit down")
        allowed = {str(a) for a in self._snap.actions}
        if intent.action not in allowed:
            raise IllegalAction(f"{intent.action} is not allowed now")
        self._pending = self._snap.version
        self.refusal = None
        self._send(
            {
                "type": "intent",
                "action": intent.action,
                "version": self._snap.version,
                "seat": intent.seat,
            }
        )
        return []

    def next_hand(self) -> list[Event]:
        self._send({"type": "ready"})
        return []

    def next_due(self) -> float | None:
        return None  # the table's computers move in the server, not here

    def due_ask(self) -> None:
        return None

    def show_to(self, seat: int) -> None:
        """A hot-seat player took the keyboard: the table may send their cards now."""
        if seat in self.seats and len(self.seats) > 1:
            self._shown = seat
            self._send({"type": "show", "seat": seat})

    def undo_refused(self) -> str | None:
        return "Undo is off at a shared table: the others have seen the move."

    def undo(self) -> Any:
        raise IllegalAction(self.undo_refused() or "")

    def seat_labels(self) -> list[str]:
        """The seats' kind column at a shared table: who is here, away or still to come."""
        labels = []
        for info, state in zip(self._snap.seats, self.presence, strict=False):
            if state.get("stand_in"):
                labels.append("Comp.")
            elif info.kind != "human":
                labels.append(info.label)
            elif not state.get("taken"):
                labels.append("Open")
            elif not state.get("present"):
                labels.append("Away")
            else:
                labels.append("Human")
        return labels

    def waiting_words(self, seat: int) -> str:
        """What the others are told while a player's decision is awaited."""
        name = self.name(seat)
        if not self.started:
            return "Waiting for players to sit down."
        state = self.presence[seat] if seat < len(self.presence) else {}
        back = state.get("back_within")
        if back is not None:
            left = max(0, int(back - (time.monotonic() - self._presence_at)))
            return f"{name} left; their seat waits {left} s more, then a computer plays it."
        return f"Waiting for {name}."
