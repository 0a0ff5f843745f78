"""The shared tables of one server: created, listed, joined and reopened here.

It runs inside the server's process (``unotable serve``), so a table outlives any one
player's connection; players' tables processes are clients on a local socket that only
the server's account may open. Each table's match is saved in ``<data>/tables/matches``
after every action and its seats in ``<data>/tables/meta``; after a restart (even a
kill -9) the service reopens every unfinished table at its last action, seats and rejoin
codes included, and players sit down again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unotable.controller import Controller
from unotable.controller.seats import SEAT_KINDS, Seat
from unotable.engine import EngineError, game_ids, get_game
from unotable.store.files import atomic_write
from unotable.store.matches import MatchFile, MatchGone, MatchInUse, summary_of
from unotable.store.saves import SaveError

from . import (
    DEFAULT_GRACE,
    DEFAULT_IDLE_CLOSE,
    DEFAULT_MAX_SEATS,
    DEFAULT_MAX_TABLES,
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
from .table import LOCAL_HOLDER, Connection, SeatState, Table

log = logging.getLogger("unotable.tables")

SOCKET_NAME = "tables.sock"
META_DIR = "meta"
MAX_NAME = 16
MAX_CONNECTIONS = 200
_TABLE_ID = re.compile(r"^[0-9a-f]{8}$")


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
    ) -> None:
        """``turn_time``: seconds a player has for a turn before a computer plays it, for
        tables whose creator does not choose (None or 0: no limit)."""
        self.dir = Path(data_dir) / "tables"
        self.turn_time = turn_time or None
        self.max_tables = max_tables
        self.max_seats = max_seats
        self.grace = grace
        self.idle_close = idle_close
        self.speed = speed
        self.clock = clock
        self.hand_over_wait = hand_over_wait
        self.tables: dict[str, Table] = {}
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
        meta_dir = self.dir / META_DIR
        if not meta_dir.is_dir():
            return
        for path in sorted(meta_dir.glob("*.json")):
            table_id = path.stem
            if not _TABLE_ID.match(table_id) or table_id in self.tables:
                continue
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))
                match_file = MatchFile.open(self.dir, meta["match"])
                controller = Controller.from_record(match_file.load(), speed=self.speed)
                seats = [SeatState(**s) for s in meta["seats"]]
            except (OSError, ValueError, KeyError, TypeError, SaveError, MatchGone) as error:
                log.info("table %s not reopened: %s", table_id, error)
                continue
            except MatchInUse:
                log.info("table %s is open in another server", table_id)
                continue
            turn_time = meta.get("turn_time", self.turn_time)
            table = self._make_table(
                table_id, controller, seats, match_file, meta["started"], turn_time
            )
            for seat, state in enumerate(seats):
                if state.human and state.holder is not None:
                    controller.set_present(seat, False)  # everyone must sit down again
            table.system("The server restarted: the table is back at its last action.")
            log.info("table %s reopened at action %d", table_id, controller.version)

    def _make_table(
        self,
        table_id: str,
        controller: Controller,
        seats: list[SeatState],
        match_file: MatchFile,
        started: bool,
        turn_time: float | None = None,
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
            "seats": [s.to_meta() for s in table.seats],
        }
        text = json.dumps(meta, indent=1)
        if getattr(table, "_meta_written", None) == text:
            return
        path = self.dir / META_DIR / f"{table.table_id}.json"
        if table.finished:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        atomic_write(path, text)
        os.chmod(path, 0o600)  # rejoin codes are in it
        table._meta_written = text  # type: ignore[attr-defined]

    async def _tidy_loop(self) -> None:
        while True:
            await asyncio.sleep(5)
            await self.tidy()

    async def tidy(self) -> None:
        """Close tables nobody has been at for ``idle_close`` seconds (0: never; saves stay),
        and finished tables everyone has left."""
        now = self.clock()
        for table in list(self.tables.values()):
            deserted = not table.connections
            idle = self.idle_close > 0 and now - table.last_activity >= self.idle_close
            if deserted and (table.finished or idle):
                del self.tables[table.table_id]
                await table.close()
                why = "over" if table.finished else "idle"
                log.info("table %s closed (%s)", table.table_id, why)

    # -- what players ask -----------------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        return [t.info() for t in self.tables.values() if not t.closed]

    def create(self, message: dict[str, Any], conn: Connection) -> Table:
        """A new table from a lobby's choice; its creator sits at seat 0."""
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
            table_id, controller, seats, match_file, started=False, turn_time=turn_time
        )
        log.info("table %s created: %s, %d seats", table_id, game, len(seats))
        return table

    def join(self, message: dict[str, Any], conn: Connection) -> None:
        table = self.tables.get(str(message.get("table")))
        if table is None or table.closed:
            raise ValueError("no such table")
        identity = _identity(message)
        code = message.get("code")
        seat = message.get("seat")
        name = clean_text(message.get("name"), MAX_NAME) or None
        if seat is None:
            seat = self._own_seat(table, identity, code)
            if seat is None and isinstance(code, str) and code:
                self._log_wrong_code(table, message)
            if seat is None:
                free = table.free_seats()
                if not free:
                    raise ValueError("no free seat at this table; you may watch")
                seat = free[0]
        if not isinstance(seat, int) or not 0 <= seat < len(table.seats):
            raise ValueError("no such seat")
        state = table.seats[seat]
        if not state.human:
            raise ValueError("a computer plays that seat")
        if state.local:
            raise ValueError("that seat is played at its creator's terminal")
        if state.holder is not None:
            mine = (identity is not None and state.holder == identity) or (
                isinstance(code, str) and secrets.compare_digest(code, state.code)
            )
            if not mine:
                if isinstance(code, str) and code:
                    self._log_wrong_code(table, message)
                raise ValueError("that seat is taken")
        elif not state.open:
            raise ValueError("that seat is not open")
        table.sit(conn, seat, identity, name)

    @staticmethod
    def _own_seat(table: Table, identity: str | None, code: Any) -> int | None:
        for i, state in enumerate(table.seats):
            if state.holder is None or state.local:
                continue
            if identity is not None and state.holder == identity:
                return i
            if isinstance(code, str) and secrets.compare_digest(code, state.code):
                return i
        return None

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
                    found = self.tables.get(str(message.get("table")))
                    if found is None:
                        raise ValueError("no such table")
                    found.watch(conn)
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

    def _log_wrong_code(self, table: Table, message: dict[str, Any]) -> None:
        """A rejoin code that matched no seat: a typo, or someone guessing."""
        who = _identity(message) or clean_text(message.get("name"), MAX_NAME) or "-"
        self.quiet.info(
            ("code", table.table_id),
            "tables: wrong rejoin code at table %s from %r",
            table.table_id,
            who[:80],
        )

    def _log_refusal(self, kind: str, message: dict[str, Any], reason: str) -> None:
        table = clean_text(str(message.get("table", "-")), 16) or "-"
        who = _identity(message) or clean_text(message.get("name"), MAX_NAME) or "-"
        self.quiet.info(
            ("refused", kind, table, reason),
            "tables: refused %s table=%s from %r: %s",
            kind,
            table,
            who[:80],
            reason,
        )


def _identity(message: dict[str, Any]) -> str | None:
    identity = message.get("identity")
    return identity[:200] if isinstance(identity, str) and identity else None


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
