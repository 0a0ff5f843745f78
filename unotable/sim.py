"""``unotable sim``: play complete matches headless and summarise them.

Computer players see only ``match.view(seat)``. After every action, the seats that
may act out of turn (a late UNO call, a catch) are asked in seat order from the
next player; a player whose ``wants_to_act(view)`` is False lets the chance pass.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS

MAX_ACTIONS_PER_MATCH = 2_000_000  # a guard against an engine that never ends


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id: uno, uno-minecraft, uno-hearts, wild-twist-hearts")
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
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option target=200 (repeatable)",
    )


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
                    "player": f"Seat {seat}",
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
    from unotable.engine import GAME_IDS, OptionError, get_game

    if args.game not in GAME_IDS:
        raise SimError(f"unknown game {args.game!r}; choose one of {', '.join(GAME_IDS)}")
    spec = get_game(args.game)
    if not spec.min_players <= args.players <= spec.max_players:
        raise SimError(
            f"--players must be {spec.min_players} to {spec.max_players} for {args.game}, "
            f"not {args.players}"
        )
    if args.games < 1:
        raise SimError(f"--games must be 1 or more, not {args.games}")
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


def play_match(match: Any, players: list[Any], summary: Summary) -> None:
    """Play one match to its end, asking out-of-turn seats after every action."""
    n = match.players
    timings = summary.timings
    actions = 0
    while not match.over:
        seat = match.current
        if seat is None:  # several seats act at once: ask them in seat order
            actors = match.actors()
            if not actors:
                raise RuntimeError(f"match seed {match.seed}: nobody can act")
            seat = actors[0]
        _decide(match, players, seat, timings, required=True)
        actions += 1
        # out-of-turn actions, offered in seat order from the next player
        nxt = match.current
        if nxt is not None:
            for i in range(n):
                other = (nxt + i) % n
                if match.over:
                    break
                legal = match.legal_actions(other)
                if any(a.kind in OUT_OF_TURN_KINDS for a in legal):
                    actions += _decide(match, players, other, timings, required=False)
        if actions > MAX_ACTIONS_PER_MATCH:
            raise RuntimeError(f"match seed {match.seed} did not end")
    summary.decisions += len(match.history)


def _decide(
    match: Any, players: list[Any], seat: int, timings: dict[str, list[float]], required: bool
) -> int:
    player = players[seat]
    view = match.view(seat)
    start = time.perf_counter()
    if not required and not player.wants_to_act(view):
        timings.setdefault(player.level, []).append((time.perf_counter() - start) * 1000)
        return 0  # offered a call or catch, it lets the chance pass
    action = player.choose(view)
    timings.setdefault(player.level, []).append((time.perf_counter() - start) * 1000)
    if action not in view.legal:
        if required:
            raise RuntimeError(f"seat {seat} ({player.level}) chose an illegal {action}")
        return 0
    if not required and action.kind not in OUT_OF_TURN_KINDS:
        return 0  # asked about a call or catch, it chose to do neither
    match.apply(seat, action)
    return 1


def simulate(
    spec: Any,
    options: dict[str, Any],
    levels: list[str],
    games: int,
    seed: int,
    progress: Any = None,
) -> Summary:
    from unotable.ai import make_player

    players_n = len(levels)
    summary = Summary(spec.id, players_n, games, seed, levels)
    summary.wins = [0] * players_n
    summary.points = [0] * players_n
    seeds = random.Random(seed)
    start = time.perf_counter()
    for number in range(games):
        match_seed = seeds.randrange(2**63)
        match = spec.new_match(players_n, options, seed=match_seed)
        players = [
            make_player(level, spec.id, (match_seed + seat) % 2**63)
            for seat, level in enumerate(levels)
        ]
        play_match(match, players, summary)
        summary.hands += len(match.hand_results)
        for winner in match.winners:
            summary.wins[winner] += 1
        for seat, total in enumerate(match.scores):
            summary.points[seat] += total
        if progress is not None:
            progress(number + 1, time.perf_counter() - start)
    summary.seconds = time.perf_counter() - start
    return summary


def run(args: argparse.Namespace) -> int:
    try:
        spec, options, levels = check_args(args)
    except SimError as exc:
        print(f"unotable sim: error: {exc}", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.progress import Progress

    err = Console(stderr=True)
    bar: dict[str, Any] = {}

    def progress(done: int, elapsed: float) -> None:
        # only runs longer than a second get a bar, and only on a terminal
        if not err.is_terminal or (elapsed < 1.0 and "bar" not in bar):
            return
        if "bar" not in bar:
            bar["bar"] = Progress(console=err, transient=True)
            bar["bar"].start()
            bar["task"] = bar["bar"].add_task(f"{spec.id}", total=args.games)
        bar["bar"].update(bar["task"], completed=done)

    try:
        summary = simulate(spec, options, levels, args.games, args.seed, progress)
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
            str(row["seat"]),
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
