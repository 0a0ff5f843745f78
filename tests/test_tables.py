"""Shared tables: several clients at one table over the local socket, one controller."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from unotable.controller.wire import encode
from unotable.engine import OUT_OF_TURN_KINDS, get_game
from unotable.tables import table as table_module
from unotable.tables.client import TableClient, snapshot_of
from unotable.tables.service import TableService

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up
HEARTS = {"uno-hearts", "wild-twist-hearts"}


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    tables = TableService(tmp_path, speed="instant", grace=60.0, hand_over_wait=0.0)
    await tables.start()
    try:
        yield tables
    finally:
        await tables.stop()


def cards_in(frame: Any) -> set[str]:
    """Every card named anywhere in an encoded frame."""
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            if "$card" in item:
                found.add(item["$card"])
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(frame)
    return found


class PrivacyWatch:
    """Checks every snapshot as the table sends it, against the match at that moment:
    a seat's frame holds none of the cards in another seat's hand, except cards that seat
    once held itself (it passed them) and cards everyone saw (a spectator's snapshot names
    them); a spectator's frame holds no hand at all."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.frames = 0
        self.held: dict[int, set[str]] = {}
        original = table_module.Connection.send_frame
        watch = self

        def send_frame(conn: Any, data: bytes) -> None:
            # every frame goes through here, a snapshot frame shared by alike viewers too
            message = json.loads(data)
            if message.get("type") == "snapshot" and conn.table is not None:
                watch.check(conn.table.controller, conn.seat, message)
            original(conn, data)

        monkeypatch.setattr(table_module.Connection, "send_frame", send_frame)

    def check(self, controller: Any, seat: int | None, message: dict[str, Any]) -> None:
        self.frames += 1
        match = controller.match
        hands = {s: [str(c) for c in match.view(s).hand] for s in range(match.players)}
        snap = snapshot_of(json.loads(json.dumps(message)))
        assert snap.viewer == seat
        if seat is None:
            assert not snap.view.hand
            return
        assert sorted(str(c) for c in snap.view.hand) == sorted(hands[seat])
        self.held.setdefault(seat, set()).update(hands[seat])
        if match.spec.id in HEARTS:  # every card is unique: none of another hand may show
            shown = cards_in(message["snapshot"])
            public = cards_in(encode(controller.snapshot(None)))  # drawn face up, and so on
            for other, cards in hands.items():
                if other != seat:
                    leaked = (shown & set(cards)) - self.held[seat] - public
                    assert not leaked, f"seat {seat} was sent seat {other}'s {sorted(leaked)}"


class Bot:
    """A client that plays a random playable card when it has one, otherwise draws."""

    def __init__(self, client: TableClient, seed: int) -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.seat: int | None = None
        self.code: str | None = None
        self.snap: Any = None
        self.presence: Any = None
        self.refusals: list[str] = []
        self.chat: list[dict[str, Any]] = []
        self.frames = 0
        self.acted: int | None = None

    async def until(self, check: Any, play: bool = True) -> None:
        """Read frames (playing when it is this seat's turn) until ``check(self)``."""
        deadline = asyncio.get_running_loop().time() + WAIT
        if play and self.snap is not None:
            await self.act()  # a turn that came while this bot was not playing
        while not check(self):
            left = deadline - asyncio.get_running_loop().time()
            assert left > 0, f"seat {self.seat}: timed out; last {self.snap}"
            message = await self.client.receive(timeout=left)
            assert message is not None, "the table closed the connection"
            # a frame is progress: only a table that says nothing for WAIT is stuck
            deadline = asyncio.get_running_loop().time() + WAIT
            await self.handle(message, play)

    async def handle(self, message: dict[str, Any], play: bool) -> None:
        kind = message["type"]
        self.frames += 1
        if kind == "joined":
            self.seat, self.code = message["seat"], message.get("code")
        elif kind == "refused":
            self.refusals.append(message["reason"])
        elif kind == "chat":
            self.chat.append(message)
        elif kind == "snapshot":
            self.snap = snapshot_of(message)
            self.presence = message["presence"]
            assert self.snap.viewer == self.seat
            if play:
                await self.act()

    async def act(self) -> None:
        if self.snap.hand_over:
            await self.client.send({"type": "ready"})
        elif self.snap.my_turn and self.acted != self.snap.version:
            self.acted = self.snap.version
            await self.client.intent(self.choose(), self.snap.version)

    def choose(self) -> str:
        legal = [a for a in self.snap.actions if a.kind not in OUT_OF_TURN_KINDS]
        plays = [a for a in legal if a.kind not in ("draw", "pass", "keep")]
        return str(self.rng.choice(plays or legal))


async def connect(service: TableService, seed: int) -> Bot:
    return Bot(await TableClient.connect(service.socket_path), seed)


async def seat_three(service: TableService, game: str, options: dict[str, Any]) -> list[Bot]:
    """Ann creates a table (her, two open seats, a computer); Bo and Cy list and join."""
    players = 4
    seats = [
        {"name": "Ann", "kind": "human"},
        {"name": "", "kind": "human", "open": True},
        {"name": "", "kind": "human", "open": True},
        {"name": "Comp", "kind": "normal"},
    ][:players]
    ann = await connect(service, 1)
    await ann.client.send(
        {"type": "create", "game": game, "options": options, "seats": seats, "name": "Ann"}
    )
    await ann.until(lambda b: b.snap is not None, play=False)
    bots = [ann]
    for seed, name in ((2, "Bo"), (3, "Cy")):
        bot = await connect(service, seed)
        await bot.client.send({"type": "list"})
        message = await bot.client.receive(timeout=WAIT)
        assert message is not None and message["type"] == "tables"
        (listed,) = message["tables"]
        assert listed["game"] == game and listed["started"] is False
        await bot.client.send({"type": "join", "table": listed["table"], "name": name})
        await bot.until(lambda b: b.snap is not None, play=False)
        bots.append(bot)
    return bots


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("uno", {}),
        ("uno-minecraft", {}),
        ("uno-hearts", {"pass_three": True}),
        ("wild-twist-hearts", {"length": 1}),
    ],
)
async def test_three_clients_play_a_full_hand_at_one_table(
    service: TableService, monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, Any]
) -> None:
    watch = PrivacyWatch(monkeypatch)
    bots = await seat_three(service, game, options)
    assert [b.seat for b in bots] == [0, 1, 2]
    (table,) = service.tables.values()
    assert table.started  # the last open seat taken: the match begins
    assert [s.name for s in table.controller.seats][:3] == ["Ann", "Bo", "Cy"]
    await asyncio.gather(*(b.until(lambda b: bool(b.snap.hand_results)) for b in bots))
    assert watch.frames > 50
    match = table.controller.match
    assert match.hand_results
    # every seat saw the same finished hand, and the save holds every action
    for bot in bots:
        assert bot.snap.hand_results[0] == match.hand_results[0]
    if table.finished:  # a one-hand match: it went to the history
        assert list((service.dir / "history").glob("*.json"))
    else:
        record = table.match_file.load()
        history = [(seat, str(action)) for seat, action in match.history]
        assert record.actions and record.actions == history[: len(record.actions)]
    for bot in bots:
        await bot.client.close()


async def test_a_spectator_sees_the_public_table_only(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    watch = PrivacyWatch(monkeypatch)
    bots = await seat_three(service, "uno-hearts", {})
    (table,) = service.tables.values()
    viewer = await connect(service, 9)
    await viewer.client.send({"type": "watch", "table": table.table_id})
    await asyncio.gather(
        *(b.until(lambda b: len(b.snap.view.tricks) >= 2) for b in bots),
        viewer.until(lambda v: v.snap is not None and len(v.snap.view.tricks) >= 2, play=False),
    )
    assert viewer.seat is None and viewer.code is None and not viewer.snap.view.hand
    await viewer.client.intent("draw")
    await viewer.until(lambda v: v.refusals)
    assert "spectators" in viewer.refusals[0]
    assert watch.frames > 0


async def test_a_dropped_player_rejoins_and_after_the_grace_a_computer_plays(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    PrivacyWatch(monkeypatch)
    service.grace = 0.3
    bots = await seat_three(service, "uno", {})
    ann, bo, cy = bots
    (table,) = service.tables.values()
    table.grace = 0.3
    # Bo drops at once (in the middle of whatever is going on)
    code = bo.code
    await bo.client.close()
    # the others see Bo away with a countdown, then a computer standing in
    await asyncio.gather(
        ann.until(lambda b: b.presence and b.presence[1]["stand_in"]),
        cy.until(lambda b: b.presence and b.presence[1]["stand_in"]),
    )
    assert any("plays for Bo" in m["text"] for m in ann.chat)
    # the stand-in plays Bo's turns: the match goes on past them
    version = table.controller.version
    await asyncio.gather(
        ann.until(lambda b: b.snap.version > version + 8 or bool(b.snap.hand_results)),
        cy.until(lambda b: b.snap.version > version + 8 or bool(b.snap.hand_results)),
    )
    assert table.controller.fallbacks.get(1) == "normal"
    # Bo comes back with the rejoin code (a new connection, another terminal)
    back = await connect(service, 5)
    await back.client.send({"type": "join", "table": table.table_id, "code": code})
    await back.until(lambda b: b.snap is not None, play=False)
    assert back.seat == 1 and not table.controller.standing_in(1)
    assert 1 not in table.controller.fallbacks
    # a stranger without the code cannot take the seat
    stranger = await connect(service, 6)
    await stranger.client.send({"type": "join", "table": table.table_id, "seat": 1})
    await stranger.until(lambda b: b.refusals, play=False)
    assert "taken" in stranger.refusals[0]


async def test_limits_and_bad_frames(service: TableService) -> None:
    service.max_tables = 1
    bots = await seat_three(service, "uno", {})
    another = await connect(service, 7)
    seats = [{"name": "X", "kind": "human"}, {"name": "Y", "kind": "easy"}]
    await another.client.send({"type": "create", "game": "uno", "seats": seats})
    await another.until(lambda b: b.refusals, play=False)
    assert "at most 1 tables" in another.refusals[0]
    # a table with more seats than the server allows is refused with what to do
    service.max_tables, service.max_seats = 10, 2
    three = [*seats, {"name": "Z", "kind": "easy"}]
    await another.client.send({"type": "create", "game": "uno", "seats": three})
    await another.until(lambda b: len(b.refusals) > 1, play=False)
    assert "seat at most 2" in another.refusals[1] and len(service.tables) == 1
    # chat: control characters stripped, length cut, bursts refused
    await another.client.send({"type": "watch", "table": next(iter(service.tables))})
    await bots[0].client.send(
        {"type": "chat", "text": "hi \x1b[2J\x1b]0;pwned\x07there" + "!" * 500}
    )
    await another.until(lambda b: any(m["from"] == "Ann" for m in b.chat), play=False)
    line = next(m["text"] for m in another.chat if m["from"] == "Ann")
    assert "\x1b" not in line and "\x07" not in line and len(line) <= 120
    assert line.startswith("hi [2J]0;pwnedthere")
    for _ in range(8):
        await bots[0].client.send({"type": "chat", "quick": 0})
    await bots[0].until(lambda b: any("slow down" in r for r in b.refusals))
    # a frame that is too long, or not JSON, ends only that connection, with a reason
    for junk in (b"x" * 10_000 + b"\n", b"not json\n", b'{"type": "shell"}\n', b"[1,2]\n"):
        bad = await TableClient.connect(service.socket_path)
        bad.writer.write(junk)
        await bad.writer.drain()
        message = await bad.receive(timeout=WAIT)
        assert message is not None and message["type"] == "closed", junk[:20]
        assert await bad.receive(timeout=WAIT) is None
    # the socket is the server account's alone
    mode = stat.S_IMODE(os.stat(service.socket_path).st_mode)
    assert mode & 0o077 == 0 and stat.S_IMODE(os.stat(service.dir).st_mode) == 0o700
    # and the table played on through all of it
    assert service.tables and not next(iter(service.tables.values())).closed


async def test_a_killed_server_reopens_its_tables_at_the_last_action(tmp_path: Path) -> None:
    def start() -> Any:
        return asyncio.create_subprocess_exec(
            sys.executable,
            *("-m", "unotable.tables", "--data-dir", str(tmp_path), "--speed", "instant"),
            stdout=asyncio.subprocess.PIPE,
        )

    server = await start()
    assert server.stdout is not None
    await asyncio.wait_for(server.stdout.readline(), WAIT)
    socket_path = tmp_path / "tables" / "tables.sock"
    ann = Bot(await TableClient.connect(socket_path), 1)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human", "open": True}]
    await ann.client.send({"type": "create", "game": "uno", "seats": seats, "name": "Ann"})
    bo = Bot(await TableClient.connect(socket_path), 2)
    await ann.until(lambda b: b.snap is not None, play=False)
    await bo.client.send({"type": "list"})
    table_id = (await bo.client.receive(timeout=WAIT))["tables"][0]["table"]  # type: ignore[index]
    await bo.client.send({"type": "join", "table": table_id, "name": "Bo"})
    await asyncio.gather(
        *(b.until(lambda b: b.snap is not None and b.snap.version >= 12) for b in (ann, bo))
    )
    seen = max(ann.snap.version, bo.snap.version)
    server.send_signal(signal.SIGKILL)
    await server.wait()

    server = await start()
    assert server.stdout is not None
    await asyncio.wait_for(server.stdout.readline(), WAIT)
    try:
        back = Bot(await TableClient.connect(socket_path), 3)
        await back.client.send({"type": "join", "table": table_id, "code": ann.code})
        await back.until(lambda b: b.snap is not None, play=False)
        assert back.seat == 0
        # every action a player was shown was saved first: the table is at least there
        assert back.snap.version >= seen
        record_actions = back.snap.version
        spec = get_game("uno")
        assert spec.id == back.snap.game and record_actions >= 12
        assert any("restarted" in m["text"] for m in back.chat)
    finally:
        server.send_signal(signal.SIGTERM)
        await asyncio.wait_for(server.wait(), WAIT)


async def test_an_idle_table_closes_and_its_save_reopens_it(tmp_path: Path) -> None:
    now = [0.0]
    service = TableService(tmp_path, speed="instant", idle_close=60.0, clock=lambda: now[0])
    await service.start()
    try:
        ann = await connect(service, 1)
        seats = [{"name": "Ann", "kind": "human"}, {"name": "Bo", "kind": "human", "open": True}]
        await ann.client.send({"type": "create", "game": "uno", "seats": seats})
        await ann.until(lambda b: b.snap is not None, play=False)
        (table_id,) = service.tables
        now[0] = 59.0
        await service.tidy()
        assert table_id in service.tables  # someone is there
        await ann.client.close()
        await until_true(lambda: not service.tables[table_id].connections)
        await service.tidy()
        assert table_id in service.tables  # not idle long enough
        now[0] = 200.0
        await service.tidy()
        assert table_id not in service.tables  # closed; its save stays
    finally:
        await service.stop()
    again = TableService(tmp_path, speed="instant")
    await again.start()
    try:
        assert table_id in again.tables  # reopened from its save
    finally:
        await again.stop()


async def until_true(check: Any) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not check():
        assert asyncio.get_running_loop().time() < deadline
        await asyncio.sleep(0.01)


def deal_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Tables created from now on deal with ``seed`` (a server picks a random one): a test
    can then choose a short hand."""
    from secrets import token_hex
    from types import SimpleNamespace

    from unotable.tables import service as service_module

    monkeypatch.setattr(
        service_module, "secrets", SimpleNamespace(randbits=lambda _bits: seed, token_hex=token_hex)
    )
