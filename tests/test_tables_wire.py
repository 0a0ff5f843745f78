"""The shared tables' wire after it was made fast: the same JSON, the same limits.

Snapshots are encoded by ``controller.wire.encode`` (a type-dispatched walk) and written by
msgspec; what goes on the wire must stay exactly what a plain walk and ``json`` made (older
clients read it), and a player's frames must meet the same checks with the same reasons.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from unotable.controller import Controller, Intent
from unotable.controller.clock import VirtualClock
from unotable.controller.runner import Runner
from unotable.controller.seats import Seat
from unotable.controller.snapshot import SeatInfo
from unotable.controller.wire import decode, encode
from unotable.engine import Action, game_ids, get_game
from unotable.tables.client import TableClient
from unotable.tables.protocol import (
    MAX_CLIENT_FRAME,
    MAX_DEPTH,
    MAX_SERVER_FRAME,
    ProtocolError,
    frame,
    nesting,
    read_frame,
)
from unotable.tables.remote import RemoteTable


def played(game: str, seats: int, actions: int, seed: int = 3) -> Controller:
    controller = Controller(
        game,
        [Seat(f"P{i + 1}", "random") for i in range(seats)],
        {},
        seed,
        clock=VirtualClock(),
        speed="instant",
    )
    Runner(controller).run(max_actions=actions)
    return controller


def old_frame(message: dict[str, Any]) -> bytes:
    """A frame as the shared tables wrote it before msgspec."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def snapshot_message(snap: Any, encoded: Any) -> dict[str, Any]:
    return {
        "type": "snapshot",
        "started": True,
        "presence": [{"name": "Zoë", "present": True, "back_within": 12.5, "stand_in": False}],
        "watching": ["A spectator"],
        "snapshot": encoded,
        "applied": 12345.678901,
    }


# -- snapshots: the same data, the same bytes ------------------------------------------


def plain_encode(value: Any) -> Any:
    """The wire's data as the first encoder made it, walking every value: the oracle."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Action):
        return {"$action": str(value)}
    if isinstance(value, tuple | list):
        return [plain_encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return {"$set": sorted((plain_encode(v) for v in value), key=repr)}
    if isinstance(value, Mapping):
        return {"$map": [[plain_encode(k), plain_encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: plain_encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$data": type(value).__name__, "fields": fields}
    return {"$card": str(value)}


@pytest.mark.parametrize("game", sorted(game_ids()))
def test_snapshots_encode_to_the_very_data_and_bytes_of_before(game: str) -> None:
    spec = get_game(game)
    for seats in sorted({spec.min_players, 4, spec.max_players}):
        for actions in (0, 40, 400):
            controller = played(game, seats, actions, seed=seats * 1000 + actions)
            length = len(controller.match.log)
            for viewer in [None, *range(seats)]:
                for since in (0, max(0, length - 3)):
                    snap = controller.snapshot(viewer, since=since, spectator=viewer is None)
                    encoded = encode(snap)
                    assert encoded == plain_encode(snap)
                    message = snapshot_message(snap, encoded)
                    data = frame(message)
                    assert data == old_frame(snapshot_message(snap, plain_encode(snap)))
                    # an older client reads it as it always did
                    assert decode(json.loads(data)["snapshot"], game) == snap


def test_encoding_twice_gives_equal_data_and_shared_parts_are_not_changed() -> None:
    controller = played("uno", 4, 60)
    snap = controller.snapshot(0)
    first = encode(snap)
    second = encode(snap)
    assert first == second == plain_encode(snap)
    assert encode(Intent(1, "R7", 3)) == plain_encode(Intent(1, "R7", 3))
    assert encode(SeatInfo("Ann", "human", "Human")) == plain_encode(
        SeatInfo("Ann", "human", "Human")
    )
    for value in ({3, 10, 2}, frozenset({"b", "a"}), {"x": (1, 2)}, [None, True, 1.5, "é"]):
        assert encode(value) == plain_encode(value)


def test_frames_are_the_json_of_before() -> None:
    messages: list[dict[str, Any]] = [
        {"type": "chat", "from": "Zoë", "text": 'quotes " and \\ and \x1b and \u2028 ✓'},
        {"type": "refused", "reason": "no"},
        {"type": "tables", "tables": [{"table": "ab12cd34", "seats": [], "hand": 3}]},
        {"type": "intent", "action": "W>R", "version": 12, "seat": 0},
        {"type": "joined", "table": "x", "seat": None, "seats": []},
    ]
    for message in messages:
        assert frame(message) == old_frame(message)
        assert json.loads(frame(message)) == message


# -- a player's frames: the same checks and reasons ------------------------------------


async def read(data: bytes, limit: int = MAX_CLIENT_FRAME) -> dict[str, Any] | None:
    reader = asyncio.StreamReader(limit=limit)
    reader.feed_data(data)
    reader.feed_eof()
    return await read_frame(reader, limit)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"x" * 10_000 + b"\n", f"a frame longer than {MAX_CLIENT_FRAME} bytes"),
        (b"not json\n", "a frame that is not JSON"),
        (b"\n", "a frame that is not JSON"),
        (b'{"type":"chat","text":"\xff"}\n', "a frame that is not JSON"),
        (b'{"type":"chat"} {}\n', "a frame that is not JSON"),
        (b"[1,2]\n", "a frame without a type"),
        (b'"chat"\n', "a frame without a type"),
        (b'{"kind":"chat"}\n', "a frame without a type"),
        (b'{"type":7}\n', "a frame without a type"),
        (b'{"type":"chat"', "the connection ended inside a frame"),
    ],
)
async def test_a_bad_frame_is_refused_with_its_reason(data: bytes, reason: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        await read(data)
    assert str(refused.value) == reason


@pytest.mark.parametrize("depth", [MAX_DEPTH, MAX_DEPTH + 1, 500, 1900, 100_000])
async def test_nesting_deeper_than_allowed_is_refused(depth: int) -> None:
    inner = "[" * depth + "]" * depth
    data = f'{{"type":"chat","text":{inner}}}\n'.encode()
    with pytest.raises(ProtocolError) as refused:
        await read(data, limit=len(data) + 1)
    assert str(refused.value) == f"a frame nested deeper than {MAX_DEPTH} levels"


async def test_frames_as_deep_as_allowed_or_with_many_brackets_pass() -> None:
    inner = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    deep = await read(f'{{"type":"chat","text":{inner}}}\n'.encode())
    assert deep is not None and nesting(deep) == MAX_DEPTH
    wide = await read(b'{"type":"chat","text":[' + b",".join([b"[{}]"] * 200) + b"]}\n")
    assert wide is not None and nesting(wide) == 4
    quoted = await read(b'{"type":"chat","text":"' + b"[" * 100 + b'"}\n')
    assert quoted == {"type": "chat", "text": "[" * 100}
    assert await read(b"") is None


def test_nesting_agrees_with_a_plain_recursive_walk() -> None:
    def depth(value: Any) -> int:
        if isinstance(value, dict):
            value = list(value.values())
        if not isinstance(value, list):
            return 0
        return 1 + max((depth(v) for v in value), default=0)

    rng = random.Random(5)

    def make(level: int) -> Any:
        roll = rng.random()
        if level > 40 or roll < 0.3:
            return rng.choice([None, 1, "x", 2.5, True])
        children = [make(level + 1) for _ in range(rng.randint(0, 3))]
        return children if roll < 0.65 else {str(i): c for i, c in enumerate(children)}

    for _ in range(500):
        value = make(0)
        assert nesting(value) == min(depth(value), MAX_DEPTH + 1)
    snap = played("uno-hearts", 8, 200).snapshot(3)
    data = json.loads(frame({"type": "snapshot", "snapshot": encode(snap)}))
    assert nesting(data) == depth(data)


async def test_a_snapshot_frame_reads_back_as_its_snapshot() -> None:
    controller = played("uno", 8, 300)
    snap = controller.snapshot(2)
    data = frame(snapshot_message(snap, encode(snap)))
    assert len(data) < MAX_SERVER_FRAME
    message = await read(data, limit=MAX_SERVER_FRAME)
    assert message is not None
    assert decode(message["snapshot"], "uno") == snap


# -- a player's intent leaves before their screen redraws -------------------------------


class Transport:
    def __init__(self) -> None:
        self.buffered = 0

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return (16 * 1024, 64 * 1024)


class Writer:
    """A client's end of the socket that keeps what was written."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.transport = Transport()
        self.closing = False
        self.drained = 0

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.closing

    async def drain(self) -> None:
        self.drained += 1

    def close(self) -> None:
        self.closing = True

    async def wait_closed(self) -> None:
        return None


def seated(writer: Writer) -> RemoteTable:
    controller = Controller(
        "uno",
        [Seat("Ann", "human"), Seat("Bo", "random"), Seat("Cy", "random")],
        {},
        11,
        clock=VirtualClock(),
        speed="instant",
    )
    turn = Runner(controller).run()
    assert turn.seat == 0 and turn.human
    snap = controller.snapshot(0)
    first = {"type": "snapshot", "started": True, "presence": [], "snapshot": encode(snap)}
    joined = {"type": "joined", "table": "t1", "seat": 0, "seats": [0]}
    client = TableClient(asyncio.StreamReader(), writer)  # type: ignore[arg-type]
    return RemoteTable(client, json.loads(frame(joined)), json.loads(frame(first)))


async def test_an_intent_is_written_before_the_screen_is_told() -> None:
    writer = Writer()
    remote = seated(writer)
    written_when_told: list[int] = []
    remote.listen(lambda news: written_when_told.append(len(writer.written)))
    action = str(remote.snapshot.actions[0])
    remote.send(Intent(0, action))
    assert written_when_told == [1]  # the screen redraws with the intent already sent
    sent = json.loads(writer.written[0])
    assert sent == {
        "type": "intent",
        "action": action,
        "version": remote.snapshot.version,
        "seat": 0,
    }
    assert not remote.snapshot.waiting_human  # not asked again while it is on its way
    assert writer.drained == 0  # nothing waits to be read: no drain needed


async def test_a_full_send_buffer_is_drained_and_a_closed_one_is_not_written() -> None:
    writer = Writer()
    remote = seated(writer)
    writer.transport.buffered = 100 * 1024  # the table is not reading
    remote.send(Intent(0, str(remote.snapshot.actions[0])))
    assert len(writer.written) == 1
    await asyncio.gather(*remote._tasks)
    assert writer.drained == 1
    closed = Writer()
    remote = seated(closed)
    closed.closing = True
    remote.send(Intent(0, str(remote.snapshot.actions[0])))
    assert closed.written == []  # gone: the pump tells the screen, nothing is raised here
