"""One shared table: one controller, driven by one ``Runner``, for every player at it.

The table owns the match and its connections. Its runner (the same loop as in the app)
asks the computers, deals and puts stand-ins in for players who are away; the table
applies the intents players send, saves after every action before anyone is shown it,
and sends each connection a snapshot built for that connection's seat only: a player's
process never receives another player's cards. Spectators get the public view.

A seat is ``human`` (a remote player's; ``open`` means anyone may take it; ``local``
means it is played hot-seat at the creator's terminal) or a computer level. A human seat
whose player is away waits ``grace`` seconds, shown to the others; after that a Normal
computer plays it, announced, until the player comes back (the controller's presence).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unotable.controller import Controller, Intent
from unotable.controller.runner import Runner
from unotable.controller.wire import encode
from unotable.engine import EngineError
from unotable.store.matches import MatchFile, summary_of

from .protocol import QUICK_PHRASES, clean_text, frame
from .quiet import QuietLog

log = logging.getLogger("unotable.tables")
_quiet = QuietLog(log)  # dropped connections: one line a minute per reason

LOCAL_HOLDER = "local"  # who holds a hot-seat seat: whoever holds seat 0
HAND_OVER_WAIT = 30.0  # seconds the finished hand stays up unless everyone is ready sooner
CHAT_KEPT = 30  # lines a newcomer is shown
CHAT_BURST, CHAT_PER_SECONDS = 5, 10.0  # at most this many lines per window and connection
# Back-pressure: a client that stops reading is dropped past MAX_BUFFERED bytes waiting;
# past SNAPSHOT_BACKLOG it is sent no new snapshot until it drains (the latest then wins).
MAX_BUFFERED = 1024 * 1024
SNAPSHOT_BACKLOG = 32 * 1024
# Rejoin codes: 8 characters of Crockford's base32 (40 bits), read aloud as ABCD-EFGH.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CODE_READ = str.maketrans("ILO", "110")  # Crockford: I and L read as 1, O as 0


def new_code() -> str:
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(8))
    return f"{raw[:4]}-{raw[4:]}"


def normal_code(text: Any) -> str:
    """A code as typed (any case, dashes and spaces optional) in its canonical form, or ""."""
    if not isinstance(text, str):
        return ""
    raw = "".join(ch for ch in text[:40].upper() if ch not in "- ").translate(_CODE_READ)
    return raw if len(raw) == 8 and all(ch in CODE_ALPHABET for ch in raw) else ""


def codes_match(typed: str, code: str) -> bool:
    return bool(typed) and secrets.compare_digest(typed, normal_code(code))


@dataclass
class SeatState:
    name: str
    kind: str  # "human" or a computer level
    open: bool = False  # anyone may take it (else only its holder)
    local: bool = False  # played hot-seat at the terminal of seat 0
    holder: str | None = None  # who sits there: an identity, or None while free
    code: str = field(default_factory=new_code)  # the rejoin code, ABCD-EFGH

    @property
    def human(self) -> bool:
        return self.kind == "human"

    def to_meta(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "open": self.open,
            "local": self.local,
            "holder": self.holder,
            "code": self.code,
        }


class Connection:
    """One player's (or spectator's) link to a table."""

    def __init__(self, writer: asyncio.StreamWriter, clock: Callable[[], float]) -> None:
        self.writer = writer
        self.seat: int | None = None
        self.seats: tuple[int, ...] = ()  # every seat played here: seat, then hot-seat ones
        self.viewer: int | None = None  # hot-seat: who has taken the keyboard
        self.table: Table | None = None
        self.log_sent = 0  # how much of the log this connection has
        self.version_sent: Any = None  # the table's position last sent
        self.presence_sent: Any = None
        self.name = ""  # as a spectator is announced
        self._clock = clock
        self._chat_times: deque[float] = deque(maxlen=CHAT_BURST)
        self.wrong_codes: deque[float] = deque()  # when this connection sent a wrong code
        self._draining: asyncio.Task[None] | None = None
        self.closed = False
        # past SNAPSHOT_BACKLOG the transport pauses, so that drain() waits for the client
        with contextlib.suppress(AttributeError, RuntimeError):
            writer.transport.set_write_buffer_limits(SNAPSHOT_BACKLOG, SNAPSHOT_BACKLOG // 4)

    def buffered(self) -> int:
        """Bytes written to this connection that its client has not read yet."""
        try:
            return int(self.writer.transport.get_write_buffer_size())
        except (AttributeError, RuntimeError):
            return 0

    def send(self, message: dict[str, Any]) -> None:
        self.send_frame(frame(message))

    def send_frame(self, data: bytes) -> None:
        """A frame already encoded (one snapshot frame goes to every spectator in step)."""
        if self.closed or self.writer.is_closing():
            self.closed = True
            return
        if self.buffered() + len(data) > MAX_BUFFERED:
            self.drop(f"more than {MAX_BUFFERED // 1024} KiB unread")
            return
        try:
            self.writer.write(data)
        except (ConnectionError, RuntimeError):
            self.closed = True

    def drop(self, why: str) -> None:
        """End a connection that does not keep up; its buffer is freed at once."""
        self.closed = True
        _quiet.info(("dropped", why), "tables: connection dropped: %s", why)
        with contextlib.suppress(Exception):
            self.writer.transport.abort()
        table = self.table
        if table is not None:  # not from inside the broadcast that found it full
            asyncio.get_running_loop().call_soon(table.leave, self)

    def when_drained(self, then: Callable[[], None]) -> None:
        """Call ``then`` once the client has read what waits (one waiter at a time)."""
        if self._draining is not None or self.closed:
            return

        async def wait() -> None:
            try:
                await self.writer.drain()
            except Exception:  # gone meanwhile: nothing to catch up
                return
            finally:
                self._draining = None
            if not self.closed:
                then()

        self._draining = asyncio.create_task(wait())

    def may_chat(self) -> bool:
        now = self._clock()
        if len(self._chat_times) == CHAT_BURST and now - self._chat_times[0] < CHAT_PER_SECONDS:
            return False
        self._chat_times.append(now)
        return True


class Table:
    def __init__(
        self,
        table_id: str,
        controller: Controller,
        seats: list[SeatState],
        match_file: MatchFile,
        *,
        grace: float,
        started: bool,
        on_change: Callable[[Table], None],
        clock: Callable[[], float] = time.monotonic,
        hand_over_wait: float = HAND_OVER_WAIT,
        turn_time: float | None = None,
    ) -> None:
        """``turn_time``: seconds a player has for a turn before a computer plays it."""
        self.table_id = table_id
        self.controller = controller
        self.seats = seats
        self.match_file = match_file
        self.grace = grace
        self.started = started
        self.on_change = on_change  # the service rewrites the table's listing
        self.clock = clock
        self.connections: set[Connection] = set()
        self.chat: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.closed = False
        self.finished = controller.over
        self.last_activity = clock()  # a human's last action (computers' do not count)
        self.owner: str | None = None  # who created it, for the tables-per-player limit
        # since when no human has been at the table (None: someone is): after the grace it
        # is closed and kept, and meanwhile its runner is paused
        self.deserted_since: float | None = clock()
        # the controller knows who is away, for how long, and when the next hand is dealt
        controller.grace = grace
        controller.hand_over_wait = hand_over_wait
        controller.turn_timeout = turn_time
        self.turn_time = turn_time
        self.runner = self._new_runner()
        self._save_lock = asyncio.Lock()
        self._applied_at = time.monotonic()  # when the latest action was applied
        self._task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Task[None] | None = None  # a paused runner, finishing

    def _new_runner(self) -> Runner:
        return Runner(self.controller, on_change=self._after_action, on_notice=self.system)

    # -- what the lobby lists -----------------------------------------------------------

    def info(self) -> dict[str, Any]:
        c = self.controller
        return {
            "table": self.table_id,
            "game": c.spec.id,
            "options": dict(c.match.options),
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "open": s.open,
                    "local": s.local,
                    "taken": s.holder is not None,
                    "present": self._present(i),
                }
                for i, s in enumerate(self.seats)
            ],
            "hand": c.match.hand_number,
            "started": self.started,
            "over": c.over,
            "watching": len(self.watching()),
        }

    def watching(self) -> list[str]:
        return sorted(conn.name for conn in self.connections if conn.seat is None)

    def humans_here(self) -> bool:
        return any(s.human and self._present(i) for i, s in enumerate(self.seats))

    def free_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.human and s.open and s.holder is None]

    def present(self, seat: int) -> bool:
        return self._present(seat)

    def _present(self, seat: int) -> bool:
        return any(seat in conn.seats and not conn.closed for conn in self.connections)

    def local_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.local]

    # -- seats and connections ------------------------------------------------------------

    def sit(
        self,
        conn: Connection,
        seat: int,
        identity: str | None,
        name: str | None,
        by_code: bool = False,
    ) -> None:
        """Seat ``conn`` at ``seat`` (checked by the service). A returning holder takes
        their seat back from its stand-in. ``by_code``: reclaimed with the rejoin code
        (only ever an away seat), which is then replaced by a new one."""
        state = self.seats[seat]
        if by_code:
            state.code = new_code()
            if identity is not None:
                state.holder = identity
        for other in list(self.connections):  # the same player's older connection
            if other.seat == seat and other is not conn and not by_code:
                other.send({"type": "closed", "reason": "you joined this seat from elsewhere"})
                self.leave(other, quiet=True)
                with contextlib.suppress(Exception):
                    other.writer.close()
        if state.holder is None:
            state.holder = identity or f"code:{state.code}"
            if name:
                state.name = name
                self.controller.seats[seat] = type(self.controller.seats[seat])(name, "human")
            self.system(f"{state.name} sits down.")
        elif self.controller.standing_in(seat):
            self.system(f"{state.name} is back; the computer stands up.")
        for held in [seat, *(self.local_seats() if seat == 0 else [])]:
            self.controller.set_present(held, True)
        self._attach(conn, seat)
        self.deserted_since = None
        if not self.started and all(s.holder is not None for s in self.seats if s.human):
            self.started = True
            self.system("Everyone is seated: the match begins.")
        self.run()
        self.changed()

    def watch(self, conn: Connection, name: str | None = None) -> None:
        conn.name = name or "A spectator"
        self._attach(conn, None)
        self.system(f"{conn.name} is watching.")
        self.changed()

    def _attach(self, conn: Connection, seat: int | None) -> None:
        conn.table = self
        conn.seat = seat
        conn.seats = () if seat is None else (seat, *(self.local_seats() if seat == 0 else []))
        conn.viewer = None
        conn.log_sent = 0
        conn.version_sent = None
        conn.presence_sent = None
        self.connections.add(conn)
        conn.send(
            {
                "type": "joined",
                "table": self.table_id,
                "seat": seat,
                "seats": list(conn.seats),
                **self._code(seat),
            }
        )
        for line in self.chat:
            conn.send(line)

    def _code(self, seat: int | None) -> dict[str, str]:
        return {"code": self.seats[seat].code} if seat is not None else {}

    def leave(self, conn: Connection, quiet: bool = False) -> None:
        if conn not in self.connections:
            return
        self.connections.discard(conn)
        conn.table = None
        for seat in conn.seats:
            if not self._present(seat) and not self.controller.over:
                self.controller.set_present(seat, False)
                if not quiet:
                    self.system(f"{self.seats[seat].name} left; their seat waits for them.")
        if not self.humans_here():
            self._pause()
        self.changed()

    def _pause(self) -> None:
        """No human is left: computers do not play on alone (the service closes the table,
        kept, after the grace). A player sitting down again resumes it."""
        if self.deserted_since is None:
            self.deserted_since = self.clock()
        if self._task is not None:
            self.runner.stop()
            self._stopping, self._task = self._task, None
            self.runner = self._new_runner()

    def start(self, conn: Connection) -> str | None:
        """The creator starts before every open seat is taken; computers sit in for them."""
        if self.started:
            return "the match has already begun"
        if conn.seat != 0:
            return "only the table's creator may start it"
        self.started = True
        for seat in self.free_seats():
            self.controller.stand_in(seat)  # a computer, at once, until someone sits
        self.system("The match begins; computers play the empty seats until someone sits.")
        self.run()
        self.changed()
        return None

    # -- what players send ----------------------------------------------------------------

    async def intent(self, conn: Connection, action: Any, version: Any, seat: Any = None) -> None:
        if conn.seat is None:
            conn.send({"type": "refused", "reason": "spectators watch; they do not play"})
            return
        if seat is None:
            seat = conn.seat
        if seat not in conn.seats:
            conn.send({"type": "refused", "reason": "you may act only for a seat played here"})
            return
        if not self.started:
            conn.send({"type": "refused", "reason": "the match has not begun"})
            return
        if not isinstance(action, str) or not (version is None or isinstance(version, int)):
            conn.send({"type": "refused", "reason": "an intent names an action and a version"})
            return
        if self.controller.standing_in(seat):  # back at the keyboard after missed turns
            self.controller.set_present(seat, True)
            self.system(f"{self.seats[seat].name} is back; the computer stands up.")
            self.changed()
        try:
            self.controller.submit(Intent(seat, action[:40], version))
        except EngineError as error:
            conn.send({"type": "refused", "reason": str(error)})
            return
        self.last_activity = self.clock()
        await self._after_action()

    def mark_ready(self, conn: Connection) -> None:
        if conn.seats and self.controller.hand_over:
            self.controller.ready(conn.seats)
            self.changed()

    def show(self, conn: Connection, seat: Any) -> None:
        """Hot-seat: the player at ``seat`` has taken this terminal's keyboard, so its
        cards may be sent to it now."""
        if seat in conn.seats:
            conn.viewer = seat
            conn.version_sent = None
            self.broadcast()

    def say(self, conn: Connection, text: Any = None, quick: Any = None) -> None:
        if isinstance(quick, int) and 0 <= quick < len(QUICK_PHRASES):
            line = QUICK_PHRASES[quick]
        else:
            line = clean_text(text)
        if not line:
            return
        if not conn.may_chat():
            conn.send({"type": "refused", "reason": "slow down: a few chat lines at a time"})
            return
        who = self.seats[conn.seat].name if conn.seat is not None else "a spectator"
        self._post({"type": "chat", "from": who, "text": line})

    def system(self, text: str) -> None:
        self._post({"type": "chat", "from": None, "text": text})

    def _post(self, message: dict[str, Any]) -> None:
        self.chat.append(message)
        for conn in list(self.connections):
            conn.send(message)

    # -- the driver: the runner ----------------------------------------------------------

    def run(self) -> asyncio.Task[None] | None:
        """Start the table's runner, once the match has begun."""
        if self._task is None and self.started and not self.closed and self.humans_here():
            before, self._stopping = self._stopping, None
            self._task = asyncio.create_task(
                self._drive(self.runner, before), name=f"table {self.table_id}"
            )
        return self._task

    @staticmethod
    async def _drive(runner: Runner, before: asyncio.Task[None] | None) -> None:
        if before is not None:  # a paused runner ends before its successor starts
            with contextlib.suppress(asyncio.CancelledError):
                await before
        await runner.drive()

    @property
    def paused(self) -> bool:
        """No runner drives the match (none yet, or paused with nobody here)."""
        return self._task is None and (self._stopping is None or self._stopping.done())

    async def close(self) -> None:
        self.closed = True
        self.runner.stop()
        for task in (self._task, self._stopping):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for conn in list(self.connections):
            conn.send({"type": "closed", "reason": "the table is closing"})
        self.match_file.close()

    def changed(self) -> None:
        self.runner.wake()
        self.broadcast()
        self.on_change(self)

    async def _after_action(self) -> None:
        """Save, then show: nobody ever sees an action that is not on disk."""
        self._applied_at = time.monotonic()
        c = self.controller
        async with self._save_lock:
            record = c.record_later()  # built in the saving thread, off the table's loop
            if c.over and not self.finished:
                self.finished = True
                await asyncio.to_thread(lambda: self.match_file.finish(record(), c.match))
            elif not c.over:
                summary = summary_of(c.match)
                await asyncio.to_thread(lambda: self.match_file.save(record(), summary))
        self.changed()

    # -- what each connection is shown ----------------------------------------------------

    def _shown_to(self, conn: Connection) -> tuple[int | None, int | None, int, bool]:
        """Whose view the connection is sent, whom to hand the keyboard to, the log it
        already has, and whether it only watches: two connections alike in these are sent
        the same snapshot.

        A terminal with hot-seat seats is sent a seat's cards only while it is that seat's
        turn and its player has taken the keyboard (the ``show`` frame); before that, the
        public view and whom to hand the keyboard to; between turns, the public view. As at
        any hot-seat table, the same player twice in a row keeps the keyboard."""
        c = self.controller
        viewer, handover = conn.seat, None
        if len(conn.seats) > 1:
            turn = c.turn()
            viewer = None
            if self.started and turn.human and turn.seat in conn.seats:
                if conn.viewer == turn.seat:
                    viewer = turn.seat
                else:
                    handover = turn.seat
        return viewer, handover, conn.log_sent, conn.seat is None

    def _snapshot_of(self, shown: tuple[int | None, int | None, int, bool]) -> Any:
        viewer, handover, since, spectator = shown
        # the table's controller knows nothing of terminals: hand-overs are decided here
        snap = self.controller.snapshot(viewer, since=since, spectator=spectator)
        return dataclasses.replace(snap, handover_to=handover)

    def presence(self) -> list[dict[str, Any]]:
        c = self.controller
        result = []
        for i, s in enumerate(self.seats):
            away = c.away(i)
            result.append(
                {
                    "name": s.name,
                    "kind": s.kind,
                    "open": s.open,
                    "taken": s.holder is not None,
                    "present": self._present(i),
                    "back_within": None if away is None else round(away, 1),
                    "stand_in": c.standing_in(i),
                }
            )
        return result

    def broadcast(self) -> None:
        c = self.controller
        ready = c.not_ready() if c.hand_over else ()
        position = (c.version, len(c.match.log), c.match.hand_number, c.hand_over, c.over, ready)
        presence = self.presence()
        watching = self.watching()
        shown = (presence, watching)
        # built and encoded once per kind of viewer: a hundred spectators cost one snapshot
        frames: dict[tuple[int | None, int | None, int, bool], tuple[bytes, int]] = {}
        for conn in list(self.connections):
            if conn.closed or (conn.version_sent == position and conn.presence_sent == shown):
                continue
            if conn.buffered() > SNAPSHOT_BACKLOG:  # not reading: the latest goes later
                conn.when_drained(self.broadcast)
                continue
            key = self._shown_to(conn)
            if key not in frames:
                snap = self._snapshot_of(key)
                message = {
                    "type": "snapshot",
                    "started": self.started,
                    "presence": presence,
                    "watching": watching,
                    "snapshot": encode(snap),
                    "applied": self._applied_at,  # monotonic: how fresh it is (benchmarks)
                }
                frames[key] = (frame(message), snap.log_length)
            data, log_length = frames[key]
            conn.send_frame(data)
            conn.log_sent = log_length
            conn.version_sent = position
            conn.presence_sent = shown
