"""``unotable sim``: play complete matches headless and summarise them.

Every match is driven by the controller on a virtual clock, exactly as the app drives
it: the same order of turns, late UNO calls and catches, with no waiting.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "game",
        help="game id: uno, uno-minecraft, uno-hearts, wild-twist-hearts, or a registered game",
    )
    parser.add_argument("--players", type=int, default=4, help="seats at the table (default 4)")
    parser.add_argument("--games", type=int, default=10, help="matches to play (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--ai",
        default="random",
        metavar="LEVELS",
        help="computer level, or a comma list with one level per seat (default random)",
    )
    parser.add_argument(
        "--hard-worlds",
        type=int,
        default=HARD_WORLDS,
        metavar="N",
        help=f"deals a Hard seat samples per decision (default {HARD_WORLDS}): the same seed "
        "then gives the same output on any machine",
    )
    parser.add_argument(
        "--hard-ms",
        type=float,
        default=None,
        metavar="MS",
        help="give Hard a time budget per decision instead, as in the app "
        "(stronger on a fast machine, but no longer reproducible)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option target=200 (repeatable)",
    )


HARD_WORLDS = 40  # per decision: about 40 ms at the 95th percentile on a 2-core machine


class SimError(Exception):
    """A bad argument, reported in one line."""


@dataclass
class Summary:
    game: str
    players: int
    games: int
    seed: int
    levels: list[str]
    hands: int = 0
    decisions: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    timings: dict[str, list[float]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "hands": self.hands,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "seats": [
                {
                    "seat": seat,
                    "player": f"Seat {seat + 1}",
                    "ai": self.levels[seat],
                    "wins": self.wins[seat],
                    "win_rate": round(self.wins[seat] / self.games, 4),
                    "mean_points": round(self.points[seat] / self.games, 2),
                }
                for seat in range(self.players)
            ],
            "decision_ms": {
                level: {"p50": _percentile(ms, 50), "p95": _percentile(ms, 95)}
                for level, ms in sorted(self.timings.items())
            },
        }


def _percentile(values: list[float], pct: int) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered) + 0.5) - 1))
    return round(ordered[index], 4)


def parse_option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise SimError(f"--option needs NAME=VALUE, not {text!r}")
    value: Any = raw.strip()
    if value.lower() in ("true", "yes", "on"):
        value = True
    elif value.lower() in ("false", "no", "off"):
        value = False
    elif value.lstrip("-").isdigit():
        value = int(value)
    return name.strip(), value


def check_args(args: argparse.Namespace) -> tuple[Any, dict[str, Any], list[str]]:
    """The game spec, checked options and one level per seat; SimError if anything is off."""
    from unotable.ai import LEVELS
    from unotable.engine import OptionError, game_ids, get_game

    if args.game not in game_ids():
        raise SimError(f"unknown game {args.game!r}; choose one of {', '.join(game_ids())}")
    spec = get_game(args.game)
    if not spec.min_players <= args.players <= spec.max_players:
        raise SimError(
            f"--players must be {spec.min_players} to {spec.max_players} for {args.game}, "
            f"not {args.players}"
        )
    if args.games < 1:
        raise SimError(f"--games must be 1 or more, not {args.games}")
    if args.hard_worlds < 1:
        raise SimError(f"--hard-worlds must be 1 or more, not {args.hard_worlds}")
    if args.hard_ms is not None and not args.hard_ms > 0:
        raise SimError(f"--hard-ms must be more than 0, not {args.hard_ms:g}")
    levels = [level.strip() for level in args.ai.split(",")]
    for level in levels:
        if level not in LEVELS:
            raise SimError(f"unknown computer level {level!r}; choose from {', '.join(LEVELS)}")
    if len(levels) == 1:
        levels *= args.players
    if len(levels) != args.players:
        raise SimError(f"--ai needs 1 level or one per seat ({args.players}), not {len(levels)}")
    try:
        options = spec.check_options(dict(parse_option(o) for o in args.option))
    except OptionError as exc:
        raise SimError(str(exc)) from None
    return spec, options, levels


def new_table(
    spec: Any,
    options: dict[str, Any],
    levels: list[str],
    seed: int,
    hard: dict[str, Any] | None = None,
) -> Any:
    """A controller for one match between computers on a virtual clock.

    ``hard``: the Hard seats' search settings (``worlds`` for a fixed number of sampled
    deals, reproducible; ``budget_ms`` for the clock). None: the app's own Hard.
    """
    from unotable.ai.levels import build
    from unotable.controller import Controller, Seat, VirtualClock, computer_seed

    seats = [Seat(f"Seat {i + 1}", level) for i, level in enumerate(levels)]
    computers = {
        i: build("hard", spec.id, computer_seed(seed, i), **hard)
        for i, level in enumerate(levels)
        if level == "hard" and hard is not None
    }
    return Controller(
        spec.id, seats, options, seed, clock=VirtualClock(), speed="instant", computers=computers
    )


def simulate(
    spec: Any,
    options: dict[str, Any],
    levels: list[str],
    games: int,
    seed: int,
    progress: Any = None,
    hard: dict[str, Any] | None = None,
) -> Summary:
    from unotable.controller import Runner

    players_n = len(levels)
    summary = Summary(spec.id, players_n, games, seed, levels)
    summary.wins = [0] * players_n
    summary.points = [0] * players_n
    seeds = random.Random(seed)
    timings = summary.timings

    def timed(seat: int, action: Any, seconds: float) -> None:
        timings.setdefault(levels[seat], []).append(seconds * 1000)

    start = time.perf_counter()
    for number in range(games):
        controller = new_table(spec, options, levels, seeds.randrange(2**63), hard)
        controller.on_decision = timed
        runner = Runner(controller)
        while not controller.over:  # a hand at a time, so the progress bar moves
            runner.run(max_hands=1)
            if progress is not None:
                progress(number, summary.hands + len(controller.hand_results))
        match = controller.match
        summary.decisions += len(match.history)
        summary.hands += len(match.hand_results)
        for winner in match.winners:
            summary.wins[winner] += 1
        for seat, total in enumerate(match.scores):
            summary.points[seat] += total
        if progress is not None:
            progress(number + 1, summary.hands)
    summary.seconds = time.perf_counter() - start
    return summary


def run(args: argparse.Namespace) -> int:
    try:
        spec, options, levels = check_args(args)
    except SimError as exc:
        print(f"unotable sim: error: {exc}", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    err = Console(stderr=True)
    bar: dict[str, Any] = {}

    def progress(games_done: int, hands: int) -> None:
        # a bar only on a terminal: a pipe or a file gets nothing but the result
        if not err.is_terminal:
            return
        if "bar" not in bar:
            bar["bar"] = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("matches · {task.fields[hands]} hands"),
                TimeElapsedColumn(),
                console=err,
                transient=True,
            )
            bar["bar"].start()
            bar["task"] = bar["bar"].add_task(spec.id, total=args.games, hands=0)
        bar["bar"].update(bar["task"], completed=games_done, hands=hands)

    try:
        hard = {"worlds": args.hard_worlds} if args.hard_ms is None else {"budget_ms": args.hard_ms}
        summary = simulate(spec, options, levels, args.games, args.seed, progress, hard)
    finally:
        if "bar" in bar:
            bar["bar"].stop()
    if args.json:
        print(json.dumps(summary.as_json()))
    else:
        _print_table(summary)
    return 0


def _print_table(summary: Summary) -> None:
    from rich.console import Console
    from rich.table import Table

    data = summary.as_json()
    decisions_per_hand = summary.decisions / summary.hands if summary.hands else 0.0
    table = Table(title=f"{summary.game}, {summary.players} players, seed {summary.seed}")
    for heading in ("seat", "player", "ai", "wins", "win rate", "mean points"):
        table.add_column(heading, justify="left" if heading in ("player", "ai") else "right")
    for row in data["seats"]:
        table.add_row(
            str(row["seat"] + 1),
            row["player"],
            row["ai"],
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{row['mean_points']:.1f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"{summary.games} matches, {summary.hands} hands, "
        f"{decisions_per_hand:.1f} decisions per hand, {summary.seconds:.2f} s"
    )
    for level, ms in data["decision_ms"].items():
        console.print(f"{level}: decision p50 {ms['p50']:.3f} ms, p95 {ms['p95']:.3f} ms")
