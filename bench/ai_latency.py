"""Milliseconds per computer decision, per level and game (median and p95).

    python bench/ai_latency.py [--game G] [--players N] [--seconds S] [--hard-ms B] [--json]
                               [--write-docs]

Plays seeded one-hand matches (one hard seat; the others normal, easy and random) and
times every ``choose`` call. Decisions with a single legal action are answered without
thinking and are left out of the figures (their count is printed). Targets on this
2-core machine: easy and normal under 2 ms; hard at its default budget p95 at most
150 ms at 8 players. ``--write-docs`` rewrites the latency table in docs/ai.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.ai.levels import build
from unotable.ai.search import DEFAULT_BUDGET_MS
from unotable.engine import GAME_IDS, get_game
from unotable.tournament import drive, tournament_options

LEVELS = ("hard", "normal", "easy")
DOCS = Path(__file__).resolve().parent.parent / "docs" / "ai.md"
START, END = "<!-- ai_latency:start -->", "<!-- ai_latency:end -->"


class Timed:
    """Wraps a player and times its real decisions (two or more legal actions)."""

    def __init__(self, player: Any, sink: dict[str, list[float]], trivial: dict[str, int]) -> None:
        self.player = player
        self.level = player.level
        self.sink = sink
        self.trivial = trivial

    def choose(self, view: Any) -> Any:
        start = time.perf_counter()
        action = self.player.choose(view)
        elapsed = (time.perf_counter() - start) * 1000.0
        if len(view.legal) > 1:
            self.sink.setdefault(self.level, []).append(elapsed)
        else:
            self.trivial[self.level] = self.trivial.get(self.level, 0) + 1
        return action

    def wants_to_act(self, view: Any) -> bool:
        return bool(self.player.wants_to_act(view))


def measure(game: str, players: int, seconds: float, hard_ms: float) -> dict[str, Any]:
    spec = get_game(game)
    times: dict[str, list[float]] = {}
    trivial: dict[str, int] = {}
    lineup = [*LEVELS, "random", "normal", "easy", "normal", "easy"][:players]
    deadline = time.perf_counter() + seconds
    seed = 0
    while time.perf_counter() < deadline:
        seed += 1
        match = spec.new_match(players, tournament_options(game, 1), seed=seed)
        seats = []
        for s in range(players):
            level = lineup[(s + seed) % players]
            if level == "random":
                from unotable.ai import make_player

                seats.append(Timed(make_player("random", game, s), times, trivial))
            else:
                player = build(level, game, seed * 10 + s, budget_ms=hard_ms)
                seats.append(Timed(player, times, trivial))
        drive(match, seats, max_hands=1)
    figures = {}
    for level in LEVELS:
        values = sorted(times.get(level, []))
        if not values:
            continue
        p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
        figures[level] = {
            "decisions": len(values),
            "single_choice": trivial.get(level, 0),
            "median_ms": round(statistics.median(values), 3),
            "p95_ms": round(p95, 3),
            "max_ms": round(values[-1], 3),
        }
    return {"game": game, "players": players, "hard_budget_ms": hard_ms, "levels": figures}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_IDS, action="append")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="per game (default 4)")
    parser.add_argument("--hard-ms", type=float, default=DEFAULT_BUDGET_MS)
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument("--write-docs", action="store_true", help="update docs/ai.md")
    args = parser.parse_args(argv)
    results = []
    for game in args.game or GAME_IDS:
        players = max(args.players, get_game(game).min_players)
        result = measure(game, players, args.seconds, args.hard_ms)
        results.append(result)
        if args.json:
            print(json.dumps(result))
            continue
        print(f"{game}, {players} players, hard budget {args.hard_ms:g} ms")
        for level, f in result["levels"].items():
            print(
                f"  {level:7s} median {f['median_ms']:8.3f} ms   p95 {f['p95_ms']:8.3f} ms   "
                f"max {f['max_ms']:8.3f} ms   ({f['decisions']} decisions, "
                f"{f['single_choice']} single-choice not counted)"
            )
    if args.write_docs:
        write_docs(results, args)
    return 0


def write_docs(results: list[dict[str, Any]], args: argparse.Namespace) -> None:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        f"{args.seconds:g} s per game, nice {os.nice(0)}, load average {load} at the end, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:",
        "",
        "| game | players | hard median / p95 / max | normal median / p95 | easy median / p95 |",
        "| --- | --- | --- | --- | --- |",
    ]
    for r in results:
        f = r["levels"]
        h, n, e = f.get("hard", {}), f.get("normal", {}), f.get("easy", {})
        lines.append(
            f"| {r['game']} | {r['players']} | {h.get('median_ms', 0):.1f} / "
            f"{h.get('p95_ms', 0):.1f} / {h.get('max_ms', 0):.1f} ms ({h.get('decisions', 0)}) "
            f"| {n.get('median_ms', 0):.3f} / {n.get('p95_ms', 0):.3f} ms "
            f"| {e.get('median_ms', 0):.3f} / {e.get('p95_ms', 0):.3f} ms |"
        )
    text = DOCS.read_text()
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    DOCS.write_text(f"{head}{START}\n" + "\n".join(lines) + f"\n{END}{tail}")


if __name__ == "__main__":
    sys.exit(main())
