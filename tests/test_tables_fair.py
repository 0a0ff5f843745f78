"""Fair use of shared tables: a cap per player, deserted tables paused and kept, a bounded
restart, rejoin codes that resist guessing, spectators announced."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_tables import WAIT, connect, seat_three, until_true

from unotable.store.matches import match_path
from unotable.tables.service import TableService

TWO = [{"name": "Ann", "kind": "human"}, {"name": "", "kind": "human", "open": True}]
CODE = re.compile(r"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$")


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[TableService]:
    tables = TableService(tmp_path, speed="instant", grace=60.0, hand_over_wait=0.0, clock=clock)
    await tables.start()
    try:
        yield tables
    finally:
        await tables.stop()


async def create(service: TableService, identity: str | None, seed: int = 1) -> Any:
    bot = await connect(service, seed)
    await bot.client.send(
        {"type": "create", "game": "uno", "seats": TWO, "name": "Ann", "identity": identity}
    )
    await bot.until(lambda b: b.snap is not None or b.refusals, play=False)
    return bot


async def test_a_squatter_is_capped_at_its_table_limit(service: TableService) -> None:
    first = await create(service, "ssh:aaaa@10.0.0.1")
    assert first.snap is not None and len(service.tables) == 1
    # a new login from the same address (no key) is the same player for this limit
    again = await create(service, "ssh:bbbb@10.0.0.1", 2)
    assert again.refusals and "open table" in again.refusals[0]
    assert "\n" not in again.refusals[0] and len(service.tables) == 1
    tab = await create(service, "web:cccc@10.0.0.1", 3)
    assert tab.refusals and len(service.tables) == 1
    # a key is its own player, and so is another address
    keyed = await create(service, "key:SHA256:abc@10.0.0.1", 4)
    other = await create(service, "ssh:dddd@10.0.0.2", 5)
    assert keyed.snap is not None and other.snap is not None and len(service.tables) == 3
    # the limit is a setting
    service.max_tables_per_player = 2
    more = await create(service, "ssh:eeee@10.0.0.1", 6)
    assert more.snap is not None and len(service.tables) == 4


async def test_a_table_nobody_is_at_pauses_then_is_closed_and_kept(
    service: TableService, clock: Clock
) -> None:
    ann, bo, cy = await seat_three(service, "uno", {})
    (table,) = service.tables.values()
    await asyncio.gather(*(b.until(lambda b: b.snap.version >= 3) for b in (ann, bo, cy)))
    for bot in (ann, bo, cy):
        await bot.client.close()
    # with every human gone the runner stops: computers do not play the match out
    await until_true(lambda: table.paused and not table.connections)
    assert not table.finished and not table.controller.over
    start = clock.now
    clock.now = start + table.grace - 1
    await service.tidy()
    assert table.table_id in service.tables
    # computers playing alone never count as someone at the table
    clock.now = start + table.grace
    await service.tidy()
    assert table.table_id not in service.tables and table.closed
    assert match_path(service.dir, table.match_file.match_id).exists()  # kept, unfinished
    # listed as closed; joining with a code reopens it where it was
    back = await connect(service, 7)
    await back.client.send({"type": "list"})
    listing = await back.client.receive(timeout=WAIT)
    assert listing is not None
    (entry,) = listing["tables"]
    assert entry["table"] == table.table_id and entry["closed"] is True
    await back.client.send({"type": "join", "table": table.table_id, "code": bo.code})
    await back.until(lambda b: b.snap is not None, play=False)
    assert back.seat == 1 and table.table_id in service.tables
    assert back.snap.version >= 3


async def test_a_restart_reopens_at_most_max_tables_most_recent_first(tmp_path: Path) -> None:
    service = TableService(tmp_path, speed="instant")
    await service.start()
    try:
        for i in range(4):
            bot = await create(service, f"ssh:{i}@10.0.1.{i}", i)
            assert bot.snap is not None
        ids = list(service.tables)
    finally:
        await service.stop()
    # played in the order 2, 0, 3, 1 (1 most recently)
    for age, table_id in enumerate(reversed([ids[2], ids[0], ids[3], ids[1]])):
        meta = json.loads((service.dir / "meta" / f"{table_id}.json").read_text())
        path = match_path(service.dir, meta["match"])
        os.utime(path, (1_000_000 - age * 100, 1_000_000 - age * 100))
    again = TableService(tmp_path, speed="instant", max_tables=2)
    await again.start()
    try:
        assert set(again.tables) == {ids[1], ids[3]}
        listed = {t["table"]: t.get("closed", False) for t in again.listing()}
        assert listed == {ids[1]: False, ids[3]: False, ids[0]: True, ids[2]: True}
        assert all((again.dir / "meta" / f"{t}.json").exists() for t in ids)  # kept
    finally:
        await again.stop()


async def test_a_finished_tables_record_is_removed(service: TableService, tmp_path: Path) -> None:
    bots = await seat_three(service, "wild-twist-hearts", {"length": 1})
    (table,) = service.tables.values()
    meta = service.dir / "meta" / f"{table.table_id}.json"
    assert meta.exists() and bots[1].code in meta.read_text()
    await asyncio.gather(*(b.until(lambda b: b.snap.over) for b in bots))
    await until_true(lambda: table.finished and not meta.exists())
    # and a record left behind by an older server goes at the next start
    stale = service.dir / "meta" / "0badc0de.json"
    stale.write_text(json.dumps({"match": "gone", "started": True, "seats": []}))
    again = TableService(tmp_path / "other", speed="instant")
    again.dir = service.dir
    again.reopen()
    assert not stale.exists()


async def test_rejoin_codes_are_long_new_after_use_limited_and_never_kick(
    service: TableService, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.tables")
    ann, bo, cy = await seat_three(service, "uno", {})
    (table,) = service.tables.values()
    assert CODE.match(bo.code) and len({ann.code, bo.code, cy.code}) == 3
    # Bo is connected: his code does not take his seat from him
    thief = await connect(service, 8)
    await thief.client.send({"type": "join", "table": table.table_id, "code": bo.code})
    await thief.until(lambda b: b.refusals, play=False)
    assert "away" in thief.refusals[0] and table.present(1)
    assert any(c.seat == 1 for c in table.connections)
    # once he is away it does, typed any case, the dash left out; and then it is replaced
    old = bo.code
    await bo.client.close()
    await until_true(lambda: not table.present(1))
    back = await connect(service, 9)
    typed = old.replace("-", "").lower()
    await back.client.send({"type": "join", "table": table.table_id, "code": typed})
    await back.until(lambda b: b.snap is not None, play=False)
    assert back.seat == 1 and CODE.match(back.code) and back.code != old
    # five wrong codes a minute, per connection and per address; each refusal logged
    guesser = await connect(service, 10)
    me = "ssh:guess@10.0.0.9"
    await back.client.close()
    await until_true(lambda: not table.present(1))
    for n in range(5):
        wrong = "0000-000" + str(n)
        await guesser.client.send(
            {"type": "join", "table": table.table_id, "code": wrong, "identity": me}
        )
        await guesser.until(lambda b, n=n: len(b.refusals) > n, play=False)
        assert "not a rejoin code" in guesser.refusals[-1]
    right = {"type": "join", "table": table.table_id, "code": back.code}
    await guesser.client.send({**right, "identity": me})
    await guesser.until(lambda b: len(b.refusals) > 5, play=False)
    assert "wait a minute" in guesser.refusals[-1]
    same_address = await connect(service, 11)
    await same_address.client.send({**right, "identity": "ssh:other@10.0.0.9"})
    await same_address.until(lambda b: b.refusals, play=False)
    assert "wait a minute" in same_address.refusals[-1]
    assert "wrong rejoin code" in caplog.text and "refused unchecked" in caplog.text
    clock.now += 61
    await guesser.client.send({**right, "identity": me})
    await guesser.until(lambda b: b.snap is not None, play=False)
    assert guesser.seat == 1


async def test_spectators_are_announced_and_a_seatless_player_told_of_codes(
    service: TableService,
) -> None:
    ann, bo, _cy = await seat_three(service, "uno", {})
    (table,) = service.tables.values()
    dee = await connect(service, 12)
    await dee.client.send({"type": "watch", "table": table.table_id, "name": "Dee"})
    await ann.until(lambda b: any(m["text"] == "Dee is watching." for m in b.chat))
    frames: list[dict[str, Any]] = []
    while not frames or frames[-1].get("watching") != ["Dee"]:
        message = await ann.client.receive(timeout=WAIT)
        assert message is not None
        if message["type"] == "snapshot":
            frames.append(message)
        await ann.handle(message, play=True)
    assert table.info()["watching"] == 1
    # Bo comes back with another key: no free seat, but his is away; the code is the way
    await bo.client.close()
    await until_true(lambda: not table.present(1))
    other_key = await connect(service, 13)
    await other_key.client.send(
        {"type": "join", "table": table.table_id, "identity": "key:SHA256:new@10.0.0.3"}
    )
    await other_key.until(lambda b: b.refusals, play=False)
    assert "rejoin code (C)" in other_key.refusals[0]
