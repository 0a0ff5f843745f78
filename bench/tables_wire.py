"""The shared tables' wire, in one process: what a frame costs, and a key's round trip.

    python bench/tables_wire.py [--seats 4 8] [--moves 200] [--think-ms 20] [--json]

Two parts, no SSH and no screens:

- **frames**: real snapshots of UNO and UNO Hearts at 4 and 8 seats (computers play 150
  actions first), for seat 0: the whole log (a player sitting down) and one action's frame
  (what every move sends). Service side: ``Controller.snapshot`` and snapshot -> frame
  bytes as this checkout's table does it, beside the old way (a plain walk of every value,
  as ``controller.wire.encode`` was in 1.0.0, and ``json.dumps``). Client side: frame
  bytes -> Snapshot as this checkout's client does it (``protocol.read_frame`` on a
  stream, then ``client.snapshot_of``), beside the old way (``json.loads``, the old
  nesting walk, ``controller.wire.decode``).
- **round trip**: a ``TableService`` on a Unix socket and one table of ``--seats`` human
  players, each a ``RemoteTable`` (what the table screen talks to) in this same process.
  The player whose turn it is acts ``--think-ms`` after their snapshot came (a random
  playable card, else draw/keep/pass). Timed per move: the intent sent until the table
  service starts on it (``Table.intent``); the match saved (in its thread); the frames
  built and written (``Table.broadcast``); the player's own ``RemoteTable`` holding the new
  snapshot (own), and each other player's (others); and on every client, a frame read
  until its snapshot is published (``handle``/``flush``: decoding it, and the log).

Run it in an older checkout too (``PYTHONPATH=<that checkout> python bench/tables_wire.py``)
to compare: it only uses what both have.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.controller import Controller, Intent, Ready
from unotable.controller.clock import VirtualClock
from unotable.controller.runner import Runner
from unotable.controller.seats import Seat
from unotable.controller.wire import decode as wire_decode
from unotable.engine import OUT_OF_TURN_KINDS, Action
from unotable.store.matches import MatchFile
from unotable.tables import client as client_module
from unotable.tables import protocol
from unotable.tables import table as table_module
from unotable.tables.client import TableClient
from unotable.tables.remote import RemoteTable
from unotable.tables.service import TableService


def timed(work: Callable[[], Any], budget: float = 0.3) -> float:
    """Milliseconds per call of ``work``: the best of a few rounds (least disturbed)."""
    work()
    calls = 1
    while True:
        start = time.perf_counter()
        for _ in range(calls):
            work()
        spent = time.perf_counter() - start
        if spent > budget / 10 or calls > 100_000:
            break
        calls *= 2
    best = spent / calls
    for _ in range(4):
        start = time.perf_counter()
        for _ in range(calls):
            work()
        best = min(best, (time.perf_counter() - start) / calls)
    return best * 1000


def played(game: str, seats: int, actions: int = 150) -> Controller:
    controller = Controller(
        game,
        [Seat(f"P{i + 1}", "random") for i in range(seats)],
        {},
        seed=7,
        clock=VirtualClock(),
        speed="instant",
    )
    Runner(controller).run(max_actions=actions)
    return controller


def presence(seats: int) -> list[dict[str, Any]]:
    state = {"kind": "human", "open": True, "taken": True, "present": True}
    return [
        {"name": f"P{i + 1}", **state, "back_within": None, "stand_in": False} for i in range(seats)
    ]


def old_nesting(value: Any) -> int:
    """``protocol.nesting`` as it was: each value pushed and popped on its own."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        deepest = max(deepest, depth)
        if depth > protocol.MAX_DEPTH:
            break
        stack.extend((child, depth + 1) for child in item)
    return deepest


def frame_figures(game: str, seats: int) -> list[dict[str, Any]]:
    controller = played(game, seats)
    length = controller.snapshot(0).log_length
    read_loop = asyncio.new_event_loop()
    try:
        return [
            one_frame(game, seats, controller, label, since, read_loop)
            for label, since in (("whole log", 0), ("one action", max(0, length - 3)))
        ]
    finally:
        read_loop.close()


def plain_encode(value: Any) -> Any:
    """The wire's data as the first encoder made it, walking every value (the old way)."""
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


def one_frame(
    game: str,
    seats: int,
    controller: Controller,
    label: str,
    since: int,
    read_loop: asyncio.AbstractEventLoop,
) -> dict[str, Any]:
    snap = controller.snapshot(0, since=since)

    def message(encoded: Any) -> dict[str, Any]:
        return {
            "type": "snapshot",
            "started": True,
            "presence": presence(seats),
            "watching": [],
            "snapshot": encoded,
            "applied": 1234.5,
        }

    def old_frame() -> bytes:
        text = json.dumps(message(plain_encode(snap)), separators=(",", ":"), ensure_ascii=False)
        return text.encode() + b"\n"

    # as this checkout's Table.broadcast makes a frame (the names it imports)
    table_frame, table_encode = vars(table_module)["frame"], vars(table_module)["encode"]

    def new_frame() -> bytes:
        return bytes(table_frame(message(table_encode(snap))))

    data = new_frame()
    assert json.loads(data) == json.loads(old_frame())

    def old_read() -> Any:
        parsed = json.loads(data)
        old_nesting(parsed)
        return wire_decode(parsed["snapshot"], game)

    async def read_one() -> None:  # as this checkout's client reads it
        reader = asyncio.StreamReader(limit=protocol.MAX_SERVER_FRAME)
        reader.feed_data(data)
        parsed = await protocol.read_frame(reader, protocol.MAX_SERVER_FRAME)
        assert parsed is not None
        client_module.snapshot_of(parsed)

    def new_read() -> None:
        read_loop.run_until_complete(read_one())

    assert old_read() == snap
    return {
        "game": game,
        "seats": seats,
        "frame": label,
        "log_events": len(snap.events),
        "bytes": len(data),
        "snapshot_ms": round(timed(lambda: controller.snapshot(0, since=since)), 3),
        "encode_old_ms": round(timed(old_frame), 3),
        "encode_ms": round(timed(new_frame), 3),
        "decode_old_ms": round(timed(old_read), 3),
        "decode_ms": round(timed(new_read), 3),
    }


# -- the round trip ----------------------------------------------------------------------


class Clocks:
    """Moments of the move in flight, and the figures gathered."""

    def __init__(self) -> None:
        self.sent: float | None = None  # the intent left its player
        self.version: int = -1  # the version the intent answered
        self.actor: int | None = None
        self.seen: dict[int, float] = {}
        self.at_service: float | None = None
        self.save: list[float] = []
        self.broadcast: list[float] = []
        self.service_total: list[float] = []  # Table.intent entered -> its broadcast done
        self.to_service: list[float] = []
        self.own: list[float] = []
        self.others: list[float] = []
        self.client_frame: list[float] = []  # handle + flush, per frame
        self.frame_bytes: list[int] = []
        self.in_intent = False


def instrument(clocks: Clocks) -> Callable[[], None]:
    """Wrap the service's and the clients' steps with timers; returns the undo."""
    saved: list[tuple[Any, str, Any]] = []

    def wrap(owner: Any, name: str, make: Callable[[Any], Any]) -> None:
        original = getattr(owner, name)
        saved.append((owner, name, original))
        setattr(owner, name, make(original))

    def intent(original: Any) -> Any:
        async def timed_intent(self: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            if clocks.sent is not None and clocks.at_service is None:
                clocks.at_service = start
                clocks.to_service.append(start - clocks.sent)
            clocks.in_intent = True
            try:
                return await original(self, *args, **kwargs)
            finally:
                clocks.in_intent = False
                clocks.service_total.append(time.perf_counter() - start)

        return timed_intent

    def broadcast(original: Any) -> Any:
        def timed_broadcast(self: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(self)
            finally:
                if clocks.in_intent:
                    clocks.broadcast.append(time.perf_counter() - start)

        return timed_broadcast

    def save(original: Any) -> Any:
        def timed_save(self: Any, *args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(self, *args, **kwargs)
            finally:
                clocks.save.append(time.perf_counter() - start)

        return timed_save

    def send_frame(original: Any) -> Any:
        def counted(self: Any, data: bytes) -> Any:
            if data.startswith(b'{"type":"snapshot"'):
                clocks.frame_bytes.append(len(data))
            return original(self, data)

        return counted

    wrap(table_module.Table, "intent", intent)
    wrap(table_module.Table, "broadcast", broadcast)
    wrap(MatchFile, "save", save)
    wrap(table_module.Connection, "send_frame", send_frame)

    def undo() -> None:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)

    return undo


class Player:
    def __init__(
        self, remote: RemoteTable, clocks: Clocks, rng: random.Random, think: float
    ) -> None:
        self.remote = remote
        self.clocks = clocks
        self.rng = rng
        self.think = think
        self.acted: Any = None
        self.readied: Any = None
        self.moves = 0
        remote.listen(self.news)

    @property
    def seat(self) -> int:
        assert self.remote.seat is not None
        return self.remote.seat

    def news(self, news: Any) -> None:
        if news.kind != "snapshot" or news.snapshot is None:
            return
        snap = news.snapshot
        clocks = self.clocks
        fresh = clocks.sent is not None and snap.version > clocks.version
        if fresh and self.seat not in clocks.seen:
            clocks.seen[self.seat] = time.perf_counter()
        loop = asyncio.get_running_loop()
        if snap.hand_over and not snap.over and self.readied != snap.version:
            self.readied = snap.version
            loop.call_later(self.think, self.remote.send, Ready())
        elif snap.my_turn and self.acted != snap.version:
            self.acted = snap.version
            loop.call_later(self.think, self.act)

    def act(self) -> None:
        snap = self.remote.snapshot
        if not snap.my_turn or self.remote._pending == snap.version:
            return
        legal = [str(a) for a in snap.actions if a.kind not in OUT_OF_TURN_KINDS]
        if not legal:
            return
        plays = [a for a in legal if a not in ("draw", "keep", "pass")]
        choice = self.rng.choice(plays or legal)
        clocks = self.clocks
        clocks.sent = time.perf_counter()
        clocks.version = snap.version
        clocks.actor = self.seat
        clocks.seen = {}
        clocks.at_service = None
        self.moves += 1
        self.remote.send(Intent(self.seat, choice))


async def timed_pump(remote: RemoteTable, clocks: Clocks) -> None:
    """``RemoteTable.pump``, timing each frame from its read to its snapshot published."""
    client = remote.client
    while True:
        try:
            message = await client.receive()
        except (ConnectionError, ValueError, protocol.ProtocolError):
            return
        if message is None:
            return
        start = time.perf_counter()
        remote.handle(message)
        if not client.buffered():
            remote.flush()
        clocks.client_frame.append(time.perf_counter() - start)


async def round_trip(game: str, seats: int, moves: int, think: float, seed: int) -> dict[str, Any]:
    clocks = Clocks()
    data = Path(tempfile.mkdtemp(prefix="unotable-bench-wire-"))
    service = TableService(data, speed="instant", grace=600.0, hand_over_wait=0.0)
    await service.start()
    undo = instrument(clocks)
    players: list[Player] = []
    pumps: list[asyncio.Task[None]] = []
    try:
        wanted = [{"name": f"P{i + 1}", "kind": "human", "open": i > 0} for i in range(seats)]
        rng = random.Random(seed)
        table_id = ""
        for i in range(seats):
            client = await TableClient.connect(service.socket_path)
            if i == 0:
                await client.send({"type": "create", "game": game, "seats": wanted, "name": "P1"})
            else:
                await client.send({"type": "join", "table": table_id, "name": f"P{i + 1}"})
            joined = await _frame(client, "joined")
            table_id = joined["table"]
            first = await _frame(client, "snapshot")
            remote = RemoteTable(client, joined, first)
            players.append(Player(remote, clocks, random.Random(rng.random()), think))
        for player in players:
            pumps.append(asyncio.create_task(timed_pump(player.remote, clocks)))
        clocks.client_frame.clear()
        clocks.frame_bytes.clear()
        clocks.save.clear()
        for player in players:  # whoever's turn it is starts
            if player.remote.snapshot.my_turn:
                player.acted = player.remote.snapshot.version
                asyncio.get_running_loop().call_later(think, player.act)
        done = 0
        deadline = time.monotonic() + 120
        while done < moves and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
            if clocks.sent is None or len(clocks.seen) < seats:
                continue
            sent = clocks.sent
            for seat, at in clocks.seen.items():
                (clocks.own if seat == clocks.actor else clocks.others).append(at - sent)
            clocks.sent = None
            done += 1
            (table,) = service.tables.values()
            if table.controller.over:
                break
    finally:
        undo()
        for task in pumps:
            task.cancel()
        for player in players:
            await player.remote.client.close()
        await service.stop()
    return {
        "game": game,
        "seats": seats,
        "moves": done,
        "own_ms": _spread(clocks.own),
        "others_ms": _spread(clocks.others),
        "to_service_ms": _spread(clocks.to_service),
        "service_intent_ms": _spread(clocks.service_total),
        "save_ms": _spread(clocks.save),
        "broadcast_ms": _spread(clocks.broadcast),
        "client_frame_ms": _spread(clocks.client_frame),
        "frame_bytes_mean": round(statistics.fmean(clocks.frame_bytes or [0])),
    }


async def _frame(client: TableClient, kind: str) -> dict[str, Any]:
    for _ in range(100):
        message = await client.receive(timeout=20)
        assert message is not None, "the table closed"
        if message.get("type") == kind:
            return message
    raise AssertionError(f"no {kind} frame")


def _spread(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    ordered = sorted(values)

    def pct(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 3)

    return {"p50": pct(0.5), "p95": pct(0.95), "max": pct(1.0), "n": len(ordered)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[4, 8])
    parser.add_argument("--games", nargs="+", default=["uno", "uno-hearts"])
    parser.add_argument("--moves", type=int, default=200, help="per table (default 200)")
    parser.add_argument("--think-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--part", choices=("frames", "trip", "both"), default="both")
    args = parser.parse_args()
    result: dict[str, Any] = {"frames": [], "round_trip": []}
    if args.part in ("frames", "both"):
        for game in args.games:
            for seats in args.seats:
                result["frames"].extend(frame_figures(game, seats))
    if args.part in ("trip", "both"):
        for seats in args.seats:
            trip = round_trip("uno", seats, args.moves, args.think_ms / 1000, args.seed)
            result["round_trip"].append(asyncio.run(trip))
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    if result["frames"]:
        print("frames, seat 0 (ms per frame; old: controller.wire + json)")
        print(
            f"{'game':<11} {'seats':>5} {'frame':<10} {'bytes':>7} {'snapshot':>8} "
            f"{'encode old':>10} {'encode':>7} {'decode old':>10} {'decode':>7}"
        )
        for row in result["frames"]:
            print(
                f"{row['game']:<11} {row['seats']:>5} {row['frame']:<10} {row['bytes']:>7} "
                f"{row['snapshot_ms']:>8.3f} {row['encode_old_ms']:>10.3f} "
                f"{row['encode_ms']:>7.3f} {row['decode_old_ms']:>10.3f} {row['decode_ms']:>7.3f}"
            )
    for trip in result["round_trip"]:
        print(
            f"\nround trip, {trip['game']} {trip['seats']} seats, {trip['moves']} moves "
            f"(ms p50 / p95 / max; {trip['frame_bytes_mean']} bytes a snapshot frame)"
        )
        for key, label in (
            ("own_ms", "key -> own snapshot"),
            ("others_ms", "key -> others' snapshot"),
            ("to_service_ms", "key -> at the service"),
            ("service_intent_ms", "service: intent -> frames written"),
            ("save_ms", "  of which the save (thread)"),
            ("broadcast_ms", "  of which broadcast (build, encode, write)"),
            ("client_frame_ms", "client: frame read -> snapshot published"),
        ):
            s = trip[key]
            if s:
                print(f"  {label:<44} {s['p50']:>8.3f} / {s['p95']:>8.3f} / {s['max']:>8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
