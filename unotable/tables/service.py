"""The shared tables of one server: created, listed, joined and reopened here.

It runs inside the server's process (``unotable serve``), so a table outlives any one
player's connection; players' tables processes are clients on a local socket that only
the server's account may open. Each table's match is saved in ``<data>/tables/matches``
after every action and its seats in ``<data>/tables/meta``; after a restart (even a
kill -9) the service reopens the ``max_tables`` most recent unfinished tables at their last
action, seats and rejoin codes included, and players sit down again; the others are listed
as closed, and joining one reopens it.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import os
import re
import secrets
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unotable.controller import Controller
from unotable.controller.seats import SEAT_KINDS, Seat
from unotable.engine import EngineError, game_ids, get_game
from unotable.store.files import atomic_write
from unotable.store.matches import MatchFile, MatchGone, MatchInUse, match_path, summary_of
from unotable.store.saves import SaveError

from . import (
    DEFAULT_GRACE,
    DEFAULT_IDLE_CLOSE,
    DEFAULT_MAX_SEATS,
    DEFAULT_MAX_TABLES,
    DEFAULT_MAX_TABLES_PER_PLAYER,
    DEFAULT_TURN_TIME,
    MAX_TURN_TIME,
    MIN_TURN_TIME,
)
from .protocol import (
    MAX_CLIENT_FRAME,
    ProtocolError,
    check_client_frame,
    clean_text,
    read_frame,
)
from .quiet import QuietLog
from .table import (
    LOCAL_HOLDER,
    Connection,
    SeatState,
    Table,
    codes_match,
    new_code,
    normal_code,
)

log = logging.getLogger("unotable.tables")

SOCKET_NAME = "tables.sock"
META_DIR = "meta"
MAX_NAME = 16
MAX_CONNECTIONS = 200
_TABLE_ID = re.compile(r"^[0-9a-f]{8}$")
WRONG_CODES, WRONG_CODE_WINDOW = 5, 60.0  # wrong rejoin codes a minute, per connection/address


class TableService:
    def __init__(
        self,
        data_dir: Path,
        *,
        max_tables: int = DEFAULT_MAX_TABLES,
        max_seats: int = DEFAULT_MAX_SEATS,
        grace: float = DEFAULT_GRACE,
        idle_close: float = DEFAULT_IDLE_CLOSE,
        speed: str = "normal",
        clock: Callable[[], float] = time.monotonic,
        hand_over_wait: float | None = None,
        turn_time: float | None = DEFAULT_TURN_TIME,
        max_tables_per_player: int = DEFAULT_MAX_TABLES_PER_PLAYER,
    ) -> None:
        """``turn_time``: seconds a player has for a turn before a computer plays it, for
        tables whose creator does not choose (None or 0: no limit).
        ``max_tables_per_player``: open tables one identity may have created (0: no limit)."""
        self.dir = Path(data_dir) / "tables"
        self.turn_time = turn_time or None
        self.max_tables = max_tables
        self.max_tables_per_player = max_tables_per_player
        self.max_seats = max_seats
        self.grace = grace
        self.idle_close = idle_close
        self.speed = speed
        self.clock = clock
        self.hand_over_wait = hand_over_wait
        self.tables: dict[str, Table] = {}
        self.closed_tables: dict[str, dict[str, Any]] = {}  # kept on disk, listed as closed
        self._wrong_codes: dict[str, deque[float]] = {}  # per address
        self._ended = 0  # connections ended since the last tidy
        self.connections: set[Connection] = set()
        self._server: asyncio.AbstractServer | None = None
        self._tidy_task: asyncio.Task[None] | None = None
        # refusals and wrong rejoin codes: one line a minute per kind, repeats counted
        self.quiet = QuietLog(log, clock=clock)

    @property
    def socket_path(self) -> Path:
        return self.dir / SOCKET_NAME

    # -- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Reopen saved tables, then listen on the local socket (owner only)."""
        self.dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(self.dir, 0o700)
        self.reopen()
        path = self.socket_path
        with contextlib.suppress(FileNotFoundError):
            path.unlink()  # a socket left by a killed server
        old_umask = os.umask(0o177)
        try:
            self._server = await asyncio.start_unix_server(
                self._serve, path=str(path), limit=MAX_CLIENT_FRAME
            )
        finally:
            os.umask(old_umask)
        self._tidy_task = asyncio.create_task(self._tidy_loop(), name="tables tidy")

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._tidy_task is not None:
            self._tidy_task.cancel()
        for table in list(self.tables.values()):
            await table.close()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                conn.writer.close()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()

    def reopen(self) -> None:
        """Reopen the ``max_tables`` most recently played tables; list the rest as closed."""
        meta_dir = self.dir / META_DIR
        if not meta_dir.is_dir():
            return
        found: list[tuple[float, str, dict[str, Any]]] = []
        for path in meta_dir.glob("*.json"):
            table_id = path.stem
            if not _TABLE_ID.match(table_id) or table_id in self.tables:
                continue
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
                played = match_path(self.dir, meta["match"]).stat().st_mtime
            except FileNotFoundError:  # finished (or deleted): its rejoin codes go too
                log.info("table %s is over; its record is removed", table_id)
                path.unlink(missing_ok=True)
                continue
            except (OSError, ValueError, KeyError, TypeError) as error:
                log.info("table %s not reopened: %s", table_id, error)
                continue
            found.append((played, table_id, meta))
        found.sort(key=lambda item: item[0], reverse=True)
        for _, table_id, meta in found:
            if len(self.tables) < self.max_tables and self._reopen(table_id, meta, restarted=True):
                continue
            self.closed_tables[table_id] = _closed_info(table_id, meta)
        if self.closed_tables:
            log.info(
                "%d table(s) kept closed (at most %d open)",
                len(self.closed_tables),
                self.max_tables,
            )

    def _reopen(self, table_id: str, meta: dict[str, Any], restarted: bool = False) -> bool:
        try:
            match_file = MatchFile.open(self.dir, meta["match"])
            controller = Controller.from_record(match_file.load(), speed=self.speed)
            seats = [SeatState(**s) for s in meta["seats"]]
        except (OSError, ValueError, KeyError, TypeError, SaveError, MatchGone) as error:
            log.info("table %s not reopened: %s", table_id, error)
            return False
        except MatchInUse:
            log.info("table %s is open in another server", table_id)
            return False
        for state in seats:
            if not normal_code(state.code):  # an older, weaker code
                state.code = new_code()
        turn_time = meta.get("turn_time", self.turn_time)
        for seat, state in enumerate(seats):
            if state.human and state.holder is not None:
                controller.set_present(seat, False)  # everyone must sit down again
        table = self._make_table(
            table_id,
            controller,
            seats,
            match_file,
            meta["started"],
            turn_time,
            owner=meta.get("owner"),
        )
        self.closed_tables.pop(table_id, None)
        if restarted:
            table.system("The server restarted: the table is back at its last action.")
        log.info("table %s reopened at action %d", table_id, controller.version)
        return True

    def _closed(self, table_id: str) -> Table | None:
        """A table kept closed, reopened for a player who asks for it (if there is room)."""
        if table_id not in self.closed_tables:
            return None
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this server runs at most {self.max_tables} tables; try later")
        try:
            path = self.dir / META_DIR / f"{table_id}.json"
            meta = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            log.info("table %s not reopened: %s", table_id, error)
            self.closed_tables.pop(table_id, None)
            return None
        if not self._reopen(table_id, meta):
            self.closed_tables.pop(table_id, None)
            return None
        return self.tables[table_id]

    def _make_table(
        self,
        table_id: str,
        controller: Controller,
        seats: list[SeatState],
        match_file: MatchFile,
        started: bool,
        turn_time: float | None = None,
        owner: str | None = None,
    ) -> Table:
        controller.undo_allowed = False
        extra = {} if self.hand_over_wait is None else {"hand_over_wait": self.hand_over_wait}
        table = Table(
            table_id,
            controller,
            seats,
            match_file,
            grace=self.grace,
            started=started,
            on_change=self._write_meta,
            clock=self.clock,
            turn_time=turn_time,
            **extra,
        )
        table.owner = owner
        self.tables[table_id] = table
        self._write_meta(table)
        table.run()
        return table

    def _write_meta(self, table: Table) -> None:
        meta = {
            "table": table.table_id,
            "match": table.match_file.match_id,
            "started": table.started,
            "turn_time": table.turn_time,
            "owner": table.owner,
            "game": table.controller.spec.id,  # for the listing while it is closed
            "options": dict(table.controller.match.options),
            "hand": table.controller.match.hand_number,
            "seats": [s.to_meta() for s in table.seats],
        }
        path = self.dir / META_DIR / f"{table.table_id}.json"
        if table.finished:  # over: its record (rejoin codes) goes
            if getattr(table, "_meta_written", None) is not None:
                path.unlink(missing_ok=True)
                table._meta_written = None  # type: ignore[attr-defined]
            return
        text = json.dumps(meta, indent=1)
        if getattr(table, "_meta_written", None) == text:
            return
        atomic_write(path, text)
        os.chmod(path, 0o600)  # rejoin codes are in it
        table._meta_written = text  # type: ignore[attr-defined]

    async def _tidy_loop(self) -> None:
        while True:
            await asyncio.sleep(5)
            await self.tidy()

    async def tidy(self) -> None:
        """Close (and keep) tables no human has been at for the grace, or nobody at all for
        ``idle_close`` seconds (0: never); and finished tables everyone has left. Memory
        freed by connections that ended is given back to the system."""
        if self._ended:
            self._ended = 0
            _give_back_memory()
        now = self.clock()
        for table in list(self.tables.values()):
            deserted = not table.connections
            idle = self.idle_close > 0 and now - table.last_activity >= self.idle_close
            gone = table.deserted_since
            no_human = not table.finished and gone is not None and now - gone >= table.grace
            if no_human or (deserted and (table.finished or idle)):
                del self.tables[table.table_id]
                await table.close()
                why = "over" if table.finished else "no player" if no_human else "idle"
                log.info("table %s closed (%s)", table.table_id, why)
                if not table.finished:
                    self.closed_tables[table.table_id] = {**table.info(), "closed": True}

    # -- what players ask -----------------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        """Open tables, then those kept closed (``closed``: joining one reopens it)."""
        open_ = [t.info() for t in self.tables.values() if not t.closed]
        return open_ + list(self.closed_tables.values())

    def create(self, message: dict[str, Any], conn: Connection) -> Table:
        """A new table from a lobby's choice; its creator sits at seat 0."""
        owner = _owner(message)
        cap = self.max_tables_per_player
        if owner is not None and cap > 0:
            mine = sum(
                1
                for t in self.tables.values()
                if t.owner == owner and not t.closed and not t.finished
            )
            if mine >= cap:
                raise ValueError(
                    f"you have {mine} open table(s) here, the most one player may; "
                    "play or leave it (a table nobody is at closes after the grace)"
                )
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this server runs at most {self.max_tables} tables; try later")
        game = message.get("game")
        if game not in game_ids():
            raise ValueError("no such game")
        spec = get_game(game)
        raw_seats = message.get("seats")
        if not isinstance(raw_seats, list) or not (
            spec.min_players <= len(raw_seats) <= spec.max_players
        ):
            raise ValueError(f"{spec.name} seats {spec.min_players} to {spec.max_players}")
        if len(raw_seats) > self.max_seats:
            raise ValueError(
                f"tables on this server seat at most {self.max_seats}; "
                f"take {len(raw_seats) - self.max_seats} seat(s) out in the lobby"
            )
        seats: list[SeatState] = []
        for i, raw in enumerate(raw_seats):
            if not isinstance(raw, dict) or raw.get("kind") not in SEAT_KINDS:
                raise ValueError(f"seat {i + 1}: a human or a computer level")
            name = clean_text(raw.get("name"), MAX_NAME) or f"Seat {i + 1}"
            local = bool(raw.get("here")) and i > 0 and raw["kind"] == "human"
            seats.append(
                SeatState(
                    name,
                    raw["kind"],
                    open=bool(raw.get("open")) and i > 0 and not local,
                    local=local,
                    holder=LOCAL_HOLDER if local else None,
                )
            )
        if not seats[0].human:
            raise ValueError("the first seat is the creator's: a human")
        for state in seats[1:]:
            if state.human and not (state.open or state.local):
                raise ValueError(
                    "a human seat at a shared table is open for others, or played here"
                )
        if not any(state.open for state in seats):
            raise ValueError("a shared table needs a seat open for others")
        options = message.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("options are a map")
        turn_time = _turn_time(message["turn_time"]) if "turn_time" in message else self.turn_time
        seed = secrets.randbits(63)
        controller = Controller(
            game, [Seat(s.name, s.kind) for s in seats], options, seed, speed=self.speed
        )
        match_file = MatchFile.create(self.dir)
        # saved at once, so that a table nobody has played at yet reopens too
        match_file.save(controller.to_record(), summary_of(controller.match))
        table_id = secrets.token_hex(4)
        while table_id in self.tables:
            table_id = secrets.token_hex(4)
        table = self._make_table(
            table_id,
            controller,
            seats,
            match_file,
            started=False,
            turn_time=turn_time,
            owner=owner,
        )
        log.info("table %s created: %s, %d seats", table_id, game, len(seats))
        return table

    def find(self, message: dict[str, Any]) -> Table:
        table_id = str(message.get("table"))
        table = self.tables.get(table_id) or self._closed(table_id)
        if table is None or table.closed:
            raise ValueError("no such table")
        return table

    def join(self, message: dict[str, Any], conn: Connection) -> None:
        table = self.find(message)
        identity = _identity(message)
        typed = message.get("code")
        code = normal_code(typed)
        seat = message.get("seat")
        name = clean_text(message.get("name"), MAX_NAME) or None
        by_code = False
        if seat is None:
            seat = self._own_seat(table, identity)
            if seat is None and isinstance(typed, str) and typed:
                self._may_guess(table, message, conn)
                seat = self._code_seat(table, code)
                if seat is None:
                    self._wrong_code(table, message, conn)
                    raise ValueError("that is not a rejoin code of this table")
                by_code = True
            if seat is None:
                free = table.free_seats()
                if not free:
                    raise ValueError(self._no_seat(table))
                seat = free[0]
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ValueError("no such seat")
        state = table.seats[seat]
        if not state.human:
            raise ValueError("a computer plays that seat")
        if state.local:
            raise ValueError("that seat is played at its creator's terminal")
        if state.holder is not None and not by_code:
            if identity is None or state.holder != identity:
                if not (isinstance(typed, str) and typed):
                    raise ValueError("that seat is taken")
                self._may_guess(table, message, conn)
                if not codes_match(code, state.code):
                    self._wrong_code(table, message, conn)
                    raise ValueError("that seat is taken")
                by_code = True
        elif state.holder is None and not state.open:
            raise ValueError("that seat is not open")
        if by_code and table.present(seat):  # a code never takes a seat from its player
            raise ValueError(
                "that seat's player is at the table; a rejoin code takes back only "
                "a seat whose player is away"
            )
        table.sit(conn, seat, identity, name, by_code=by_code)

    @staticmethod
    def _no_seat(table: Table) -> str:
        away = any(
            s.human and s.holder is not None and not s.local and not table.present(i)
            for i, s in enumerate(table.seats)
        )
        if away:
            return (
                "no free seat at this table; if one of its seats is yours, take it back "
                "with its rejoin code (C); or watch (W)"
            )
        return "no free seat at this table; you may watch (W)"

    @staticmethod
    def _own_seat(table: Table, identity: str | None) -> int | None:
        for i, state in enumerate(table.seats):
            if state.holder is None or state.local:
                continue
            if identity is not None and state.holder == identity:
                return i
        return None

    @staticmethod
    def _code_seat(table: Table, code: str) -> int | None:
        for i, state in enumerate(table.seats):
            if state.holder is not None and not state.local and codes_match(code, state.code):
                return i
        return None

    def _may_guess(self, table: Table, message: dict[str, Any], conn: Connection) -> None:
        """Refuse a code, unchecked, after WRONG_CODES wrong ones within the window from
        this connection or from this address."""
        now = self.clock()
        address = _address(message)
        for times in (conn.wrong_codes, self._wrong_codes.get(address or "")):
            while times and now - times[0] >= WRONG_CODE_WINDOW:
                times.popleft()
            if times is not None and len(times) >= WRONG_CODES:
                self._log_wrong_code(table, message, "refused unchecked: too many")
                raise ValueError(f"{WRONG_CODES} wrong rejoin codes within a minute; wait a minute")

    def _wrong_code(self, table: Table, message: dict[str, Any], conn: Connection) -> None:
        now = self.clock()
        conn.wrong_codes.append(now)
        address = _address(message)
        if address:
            if len(self._wrong_codes) > 4096:  # forget addresses with no recent guesses
                self._wrong_codes = {
                    a: t
                    for a, t in self._wrong_codes.items()
                    if t and now - t[-1] < WRONG_CODE_WINDOW
                }
            self._wrong_codes.setdefault(address, deque()).append(now)
        self._log_wrong_code(table, message, "wrong")

    # -- one connection -------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(writer, self.clock)
        if len(self.connections) >= MAX_CONNECTIONS:
            conn.send({"type": "closed", "reason": "the server is full"})
            writer.close()
            return
        self.connections.add(conn)
        try:
            while True:
                message = await read_frame(reader, MAX_CLIENT_FRAME)
                if message is None:
                    break
                await self._handle(check_client_frame(message), conn)
                await writer.drain()
        except ProtocolError as error:
            conn.send({"type": "closed", "reason": str(error)})
            log.info("tables: connection closed: %s", error)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.connections.discard(conn)
            self._ended += 1
            if conn.table is not None:
                conn.table.leave(conn)
            conn.closed = True
            with contextlib.suppress(Exception):
                writer.close()

    async def _handle(self, message: dict[str, Any], conn: Connection) -> None:
        kind = message["type"]
        table = conn.table
        if kind == "list":
            conn.send({"type": "tables", "tables": self.listing()})
        elif kind in ("create", "join", "watch"):
            if table is not None:
                table.leave(conn)
            try:
                if kind == "create":
                    new = self.create(message, conn)
                    new.sit(conn, 0, _identity(message), clean_text(message.get("name"), 16))
                elif kind == "join":
                    self.join(message, conn)
                else:
                    found = self.find(message)
                    found.watch(conn, clean_text(message.get("name"), MAX_NAME) or None)
            except (ValueError, TypeError, EngineError) as error:
                conn.send({"type": "refused", "reason": str(error)})
                self._log_refusal(kind, message, str(error))
        elif table is None:
            conn.send({"type": "refused", "reason": "join a table first"})
        elif kind == "intent":
            await table.intent(
                conn, message.get("action"), message.get("version"), message.get("seat")
            )
        elif kind == "show":
            table.show(conn, message.get("seat"))
        elif kind == "ready":
            table.mark_ready(conn)
        elif kind == "chat":
            table.say(conn, message.get("text"), message.get("quick"))
        elif kind == "start":
            problem = table.start(conn)
            if problem:
                conn.send({"type": "refused", "reason": problem})
        elif kind == "bye":
            table.leave(conn)

    def _log_wrong_code(self, table: Table, message: dict[str, Any], what: str) -> None:
        """A rejoin code that matched no seat (a typo, or someone guessing), or one refused
        unchecked after too many."""
        who = _raw_identity(message) or clean_text(message.get("name"), MAX_NAME) or "-"
        self.quiet.info(
            ("code", what, table.table_id),
            "tables: %s rejoin code at table %s from %r",
            what,
            table.table_id,
            who[:80],
        )

    def _log_refusal(self, kind: str, message: dict[str, Any], reason: str) -> None:
        table = clean_text(str(message.get("table", "-")), 16) or "-"
        who = _raw_identity(message) or clean_text(message.get("name"), MAX_NAME) or "-"
        self.quiet.info(
            ("refused", kind, table, reason),
            "tables: refused %s table=%s from %r: %s",
            kind,
            table,
            who[:80],
            reason,
        )


def _give_back_memory() -> None:
    """glibc keeps freed heap (send buffers of clients gone) unless asked to return it."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def _raw_identity(message: dict[str, Any]) -> str | None:
    """``who@address`` as the server gave the player's process (``who`` alone from older
    servers): ``key:<fingerprint>``, ``web:<tab>`` or ``ssh:<session>``."""
    identity = message.get("identity")
    return identity[:200] if isinstance(identity, str) and identity else None


def _identity(message: dict[str, Any]) -> str | None:
    """Who holds a seat: the identity without the address it came from."""
    identity = _raw_identity(message)
    return identity.rpartition("@")[0] or identity if identity else None


def _address(message: dict[str, Any]) -> str | None:
    identity = _raw_identity(message)
    return identity.rpartition("@")[2] if identity and "@" in identity else None


def _owner(message: dict[str, Any]) -> str | None:
    """Whose tables count together for the per-player limit: a key, else the address
    (a password or open login, or a browser tab, can be had anew at will)."""
    who, address = _identity(message), _address(message)
    if who is not None and who.startswith("key:"):
        return who
    return f"addr:{address}" if address else who


def _closed_info(table_id: str, meta: dict[str, Any]) -> dict[str, Any]:
    """A kept table's listing entry, from its record alone."""
    seats = [
        {
            "name": s.get("name", "?"),
            "kind": s.get("kind", "human"),
            "open": bool(s.get("open")),
            "local": bool(s.get("local")),
            "taken": s.get("holder") is not None,
            "present": False,
        }
        for s in meta.get("seats", [])
        if isinstance(s, dict)
    ]
    return {
        "table": table_id,
        "game": str(meta.get("game", "?")),
        "options": meta.get("options") or {},
        "seats": seats,
        "hand": meta.get("hand", 0),
        "started": bool(meta.get("started")),
        "over": False,
        "watching": 0,
        "closed": True,
    }


async def open_shared_tables(data_dir: Path, **settings: Any) -> tuple[TableService | None, Path]:
    """The shared tables for a server on ``data_dir``: started here, or, when another server
    on the same data dir runs them already (its socket answers), that one's. Returns the
    service started (None if borrowed) and the socket players connect to."""
    service = TableService(data_dir, **settings)
    path = service.socket_path
    if path.exists():
        try:
            _, writer = await asyncio.open_unix_connection(str(path))
        except OSError:
            pass  # left by a server that is gone
        else:
            writer.close()
            return None, path
    await service.start()
    return service, path


def _turn_time(value: Any) -> float | None:
    """A table's time for a turn: None or 0 is no limit, else MIN..MAX_TURN_TIME seconds."""
    if value is None or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("a turn's time is a number of seconds, or 0 for no limit")
    if not MIN_TURN_TIME <= value <= MAX_TURN_TIME:
        raise ValueError(
            f"a turn's time is {MIN_TURN_TIME} to {MAX_TURN_TIME} seconds, or 0 for no limit"
        )
    return float(value)
