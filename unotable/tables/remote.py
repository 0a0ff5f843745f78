"""A seat at a shared table, as the table screen sees it: a ``Table``.

``RemoteTable`` holds exactly what this seat was sent (its own cards, never another
player's), tells its listeners of every frame as news, and turns the screen's commands
into frames. It drives nothing: the table's own runner, in the server, does.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from typing import Any

from unotable.controller.snapshot import (
    Command,
    Intent,
    Leave,
    News,
    Ready,
    Say,
    SetSpeed,
    SkipAhead,
    Snapshot,
    StartNow,
    TakeBack,
    TookKeyboard,
)
from unotable.controller.table import Newsroom
from unotable.engine import Event

from .client import TableClient, snapshot_of
from .protocol import ProtocolError

UNDO_REFUSED = "Undo is off at a shared table: the others have seen the move."
RECENT_CHAT = 6  # chat lines a screen that starts listening late is shown


class RemoteTable(Newsroom):
    shared = True

    def __init__(
        self,
        client: TableClient,
        joined: dict[str, Any],
        first: dict[str, Any],
        early: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    ):
        """``joined`` and ``first``: the table's ``joined`` frame and its first snapshot;
        ``early``: frames that came between them (chat lines said before this seat sat)."""
        self.client = client
        self.table_id: str = joined["table"]
        self.seat: int | None = joined["seat"]
        # every seat played at this terminal: the player's own, then hot-seat ones
        self.seats: tuple[int, ...] = tuple(
            joined.get("seats") or ([] if self.seat is None else [self.seat])
        )
        self.rejoin_code: str | None = joined.get("code")
        self._shown: int | None = None  # a hand-over told to the table, until its answer
        super().__init__()
        self.presence: list[dict[str, Any]] = []
        self._presence_at = time.monotonic()
        self.started = False
        self.chat: list[dict[str, Any]] = []
        self.closed_reason: str | None = None
        self._events: list[Event] = []
        self._pending: int | None = None  # the version an intent answered, until news
        self._latest: Snapshot = self._take(first)
        self._snapshot = self._shown_snapshot()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._unpublished = False  # a snapshot taken in but not yet told to the listeners
        self.draws = 0  # snapshots told to the listeners (tests count them)
        for message in early:
            if message.get("type") == "chat":
                self.chat.append(message)  # nobody listens yet: kept for recent_chat()

    @property
    def game_id(self) -> str:
        return self._latest.game

    # -- frames from the table ------------------------------------------------------------

    def _take(self, message: dict[str, Any]) -> Snapshot:
        snap = snapshot_of(message)
        del self._events[snap.log_start :]
        self._events.extend(snap.events)
        self.presence = message.get("presence", [])
        self._presence_at = time.monotonic()
        self.started = bool(message.get("started"))
        return snap

    def _shown_snapshot(self) -> Snapshot:
        """The latest snapshot with this terminal's whole log. While an intent or a
        hand-over is on its way, the seat is not asked again."""
        snap = self._latest
        waiting_human = snap.waiting_human and self._pending != snap.version and self.started
        handover = snap.handover_to if snap.handover_to != self._shown else None
        return dataclasses.replace(
            snap,
            events=tuple(self._events),
            log_start=0,
            log_length=len(self._events),
            handover_to=handover,
            waiting_human=waiting_human,
            spectator=self.seat is None,
            undo_refused=UNDO_REFUSED,
        )

    def _publish(self) -> None:
        self._unpublished = False
        self._snapshot = self._shown_snapshot()
        self.draws += 1
        self._tell(News("snapshot", self._snapshot))

    def _publish_later(self) -> None:
        """Drawn by ``flush`` once no further frame is already here: a burst of snapshots is
        drawn once, as its newest, so a slow screen never holds the reading back."""
        self._unpublished = True

    def flush(self) -> None:
        """Tell the listeners the newest snapshot, if one is waiting."""
        if self._unpublished:
            self._publish()

    def recent_chat(self, count: int = RECENT_CHAT) -> list[tuple[str | None, str]]:
        """The table's last chat lines as (sender, text): for a screen that starts listening
        after they came (a joiner sees what was said, "the server restarted" among it)."""
        return [(m.get("from"), str(m.get("text", ""))) for m in self.chat[-count:]]

    def handle(self, message: dict[str, Any]) -> str | None:
        """Take one frame in and tell the listeners; what kind of news it was. A snapshot
        is told at the next ``flush`` (the pump's, once the frames already here are read);
        other news first flushes the one before it, so the listeners keep the table's order."""
        kind = message.get("type")
        if kind == "snapshot":
            self._latest = self._take(message)
            self._pending = None
            self._shown = None
            self._publish_later()
            return "snapshot"
        self.flush()
        if kind == "refused":
            self._pending = None
            self._snapshot = self._shown_snapshot()
            self._tell(News("refused", text=str(message.get("reason", ""))))
            self._tell(News("snapshot", self._snapshot))
            return "refused"
        if kind == "chat":
            self.chat.append(message)
            del self.chat[: -RECENT_CHAT * 10]  # a long night's chat is not all kept
            sender = message.get("from")
            self._tell(News("chat", text=str(message.get("text", "")), sender=sender))
            return "chat"
        if kind == "closed":
            self.closed_reason = str(message.get("reason", "the table closed"))
            self._tell(News("closed", text=self.closed_reason))
            return "closed"
        return None

    async def pump(self) -> None:
        """Read the table's frames until it closes."""
        try:
            while True:
                message = await self.client.receive()
                if message is None:
                    break
                self.handle(message)
                if not self.client.buffered():
                    self.flush()  # nothing more already here: draw the newest now
        except (ConnectionError, ValueError, ProtocolError) as error:
            reason = str(error) or "the connection to the table was lost"
        else:
            reason = "the table closed the connection"
        self.flush()
        if self.closed_reason is None:
            self.closed_reason = reason
            self._tell(News("closed", text=reason))

    def _send(self, message: dict[str, Any]) -> None:
        """Written at once, so that an intent is on its way before this terminal redraws
        (a screen draws a snapshot in the listener's call); drained later if it must be."""
        try:
            full = self.client.post(message)
        except ConnectionError:
            return  # the pump tells the screen that the table is gone
        if not full:
            return

        async def drain() -> None:
            with contextlib.suppress(ConnectionError):
                await self.client.writer.drain()

        task = asyncio.get_running_loop().create_task(drain())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def leave(self) -> None:
        with contextlib.suppress(ConnectionError):
            await self.client.send({"type": "bye"})
        await self.client.close()

    # -- what the screen sends ------------------------------------------------------------

    def send(self, command: Command) -> None:
        if isinstance(command, Intent):
            self._intent(command)
        elif isinstance(command, Ready):
            self._send({"type": "ready"})
        elif isinstance(command, TookKeyboard):
            self._took_keyboard(command)
        elif isinstance(command, Say):
            self._send({"type": "chat", "text": command.text, "quick": command.quick})
        elif isinstance(command, StartNow):
            self._send({"type": "start"})
        elif isinstance(command, Leave):
            task = asyncio.get_running_loop().create_task(self.leave())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif isinstance(command, TakeBack):
            self._tell(News("refused", text=UNDO_REFUSED))
        elif isinstance(command, SkipAhead | SetSpeed):
            self._tell(News("refused", text="the table's own pace holds for everyone"))

    def _intent(self, intent: Intent) -> None:
        """Send this seat's choice; one that the snapshot does not allow is refused here."""
        snap = self._latest
        reason = None
        if intent.seat not in self.seats or intent.seat != snap.viewer:
            reason = "you may act only for your own seat"
        elif not self.started:
            reason = "the match has not begun: waiting for players to sit down"
        elif intent.action not in {str(a) for a in snap.actions}:
            reason = f"{intent.action} is not allowed now"
        if reason is not None:
            self._tell(News("refused", text=reason))
            return
        self._pending = snap.version
        self._send(
            {
                "type": "intent",
                "action": intent.action,
                "version": snap.version,
                "seat": intent.seat,
            }
        )
        self._publish()

    def _took_keyboard(self, command: TookKeyboard) -> None:
        """A hot-seat player took the keyboard: the table may send their cards now."""
        snap = self._latest
        if command.catch and snap.exposed is not None and command.seat in snap.catchers:
            self._send(
                {
                    "type": "intent",
                    "action": f"catch:{snap.exposed}",
                    "version": snap.version,
                    "seat": command.seat,
                }
            )
        if command.seat in self.seats and len(self.seats) > 1:
            self._shown = command.seat
            self._send({"type": "show", "seat": command.seat})
            self._publish()

    # -- words for the screen -------------------------------------------------------------

    def seat_labels(self) -> list[str]:
        """The seats' kind column at a shared table: who is here, away or still to come."""
        labels = []
        for info, state in zip(self._latest.seats, self.presence, strict=False):
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
        return labels or [s.label for s in self._latest.seats]

    def counts_down(self) -> bool:
        return any(state.get("back_within") is not None for state in self.presence)

    def waiting_words(self, seat: int) -> str:
        """What the others are told while a player's decision is awaited."""
        name = self._latest.name(seat)
        if not self.started:
            return "Waiting for players to sit down."
        state = self.presence[seat] if seat < len(self.presence) else {}
        back = state.get("back_within")
        if back is not None:
            left = max(0, int(back - (time.monotonic() - self._presence_at)))
            return f"{name} left; their seat waits {left} s more, then a computer plays it."
        return f"Waiting for {name}."
