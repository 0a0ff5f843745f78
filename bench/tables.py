"""Shared tables under load: many tables of remote players on one server.

    python bench/tables.py [--tables 10] [--players 4] [--seconds 30] [--speed fast]
                           [--think-ms 200] [--game uno] [--json]

Starts the table service in its own process (as ``unotable serve`` runs it), then connects
``tables x players`` clients from this process: each table is created by one client and
its other seats taken by the others, every seat a remote player. A client answers its turn
after ``--think-ms`` (a quick human). Latency is measured per frame a player receives:
from the moment the table applied the action to the moment the frame is read (both on
this machine's monotonic clock). Prints p50/p95/p99/max, frames and actions per second,
and the server's memory (RSS) at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.tables.client import TableClient

OUT_OF_TURN = {"uno", "catch"}


def fields(data: dict[str, Any]) -> dict[str, Any]:
    return data["fields"]


class Player:
    def __init__(self, client: TableClient, seed: int, think: float, latencies: list[float]):
        self.client = client
        self.rng = random.Random(seed)
        self.think = think
        self.latencies = latencies
        self.seat: int | None = None
        self.frames = 0
        self.acted: Any = None

    async def run(self, stop: float) -> None:
        while time.monotonic() < stop:
            try:
                message = await self.client.receive(timeout=max(0.05, stop - time.monotonic()))
            except TimeoutError:
                break
            if message is None:
                break
            if message["type"] == "joined":
                self.seat = message["seat"]
            if message["type"] != "snapshot":
                continue
            self.latencies.append(time.monotonic() - message["applied"])
            self.frames += 1
            snap = fields(message["snapshot"])
            if snap["hand_over"] and not snap["over"]:
                await self.client.send({"type": "ready"})
                continue
            mine = snap["waiting_on"] == self.seat and snap["waiting_human"]
            if not mine or self.acted == snap["version"]:
                continue
            self.acted = snap["version"]
            legal = [a["$action"] for a in fields(snap["view"])["legal"]]
            turn = [a for a in legal if a.split(":")[0] not in OUT_OF_TURN]
            plays = [a for a in turn if a not in ("draw", "pass", "keep")]
            choice = self.rng.choice(plays or turn)
            asyncio.get_running_loop().call_later(
                self.think,
                lambda c=choice, v=snap["version"]: asyncio.ensure_future(self._send(c, v)),
            )

    async def _send(self, action: str, version: int) -> None:
        with contextlib.suppress(ConnectionError):  # the bench may end meanwhile
            await self.client.intent(action, version)


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(prefix="unotable-bench-tables-"))
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "unotable.tables", "--data-dir", str(data), "--speed", args.speed),
        *("--max-tables", str(args.tables), "--grace", "600"),
        stdout=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None
    await server.stdout.readline()
    socket_path = data / "tables" / "tables.sock"
    rss_empty_kib = _rss_kib(server.pid)
    latencies: list[float] = []
    players: list[Player] = []
    think = args.think_ms / 1000
    seats = [{"name": f"P{i + 1}", "kind": "human", "open": i > 0} for i in range(args.players)]
    for t in range(args.tables):
        creator = Player(await TableClient.connect(socket_path), t * 100, think, latencies)
        await creator.client.send({"type": "create", "game": args.game, "seats": seats})
        table_id = None
        while table_id is None:
            message = await creator.client.receive(timeout=10)
            assert message is not None
            if message["type"] == "joined":
                creator.seat = message["seat"]
                table_id = message["table"]
        players.append(creator)
        for k in range(1, args.players):
            joiner = Player(await TableClient.connect(socket_path), t * 100 + k, think, latencies)
            await joiner.client.send({"type": "join", "table": table_id})
            players.append(joiner)
    latencies.clear()  # measure the tables at play, not the seating
    started = time.monotonic()
    await asyncio.gather(*(p.run(started + args.seconds) for p in players))
    elapsed = time.monotonic() - started
    rss_kib = _rss_kib(server.pid)
    for player in players:
        await player.client.close()
    server.terminate()
    await server.wait()
    ordered = sorted(latencies)

    def pct(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    return {
        "tables": args.tables,
        "players_per_table": args.players,
        "game": args.game,
        "speed": args.speed,
        "think_ms": args.think_ms,
        "seconds": round(elapsed, 1),
        "frames": len(ordered),
        "frames_per_s": round(len(ordered) / elapsed, 1),
        "latency_ms": {
            "p50": round(pct(0.50), 1),
            "p95": round(pct(0.95), 1),
            "p99": round(pct(0.99), 1),
            "max": round(ordered[-1] * 1000, 1),
            "mean": round(statistics.fmean(ordered) * 1000, 1),
        },
        "server_rss_mib": round(rss_kib / 1024, 1),
        "server_rss_empty_mib": round(rss_empty_kib / 1024, 1),
        "per_table_kib": round((rss_kib - rss_empty_kib) / args.tables),
    }


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--speed", default="fast")
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument("--game", default="uno")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(result))
    else:
        lat = result["latency_ms"]
        print(
            f"{result['tables']} tables x {result['players_per_table']} remote players, "
            f"{result['game']}, {result['seconds']} s: {result['frames']} frames "
            f"({result['frames_per_s']}/s); update latency p50 {lat['p50']} ms, "
            f"p95 {lat['p95']} ms, p99 {lat['p99']} ms, max {lat['max']} ms; "
            f"server RSS {result['server_rss_mib']} MiB ({result['server_rss_empty_mib']} MiB "
            f"with no table, {result['per_table_kib']} KiB a table)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
