"""Tune a hand-written UNO strategy by duplicate play against three copies of an opponent.

    python bench/tune_uno.py [--game G] [--deals N] [--opponent normal|reference]
                             [--brain normal|hard] [--workers W] CONFIG [CONFIG ...]

Each CONFIG is a JSON object of attribute overrides for the brain (``'{}'`` is the brain
as shipped), e.g. ``'{"action_hold": 3}'``. Every config plays the same deals, each deal
four times with the tuned brain in each seat (the duplicate format of ai_strength.py), so
configs are compared on common deals: the line after the first config also prints the
paired difference from the first one, with its 95% interval. Rule-based brains take about
2.5 ms a hand, so 5,000 deals (20,000 hands) separate a 0.005 change in win rate.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import PLAYERS, outcome, play_hand
from reference_bots import reference_bot

from unotable.ai.base import ComputerPlayer
from unotable.ai.levels import KNOBS, build
from unotable.ai.stats import mean_interval
from unotable.ai.uno import HardUnoBrain, UnoBrain

BRAINS = {"normal": UnoBrain, "hard": HardUnoBrain}
DEAL_BASE = 91_000_003  # deals apart from ai_strength.py's, so tuning does not fit its tables


def unknown_settings(brain: str, overrides: dict[str, Any]) -> list[str]:
    return [name for name in overrides if not hasattr(BRAINS[brain], name)]


def tuned_player(brain: str, overrides: dict[str, Any], game_id: str, seed: int) -> Any:
    strategy = BRAINS[brain]()
    for name, value in overrides.items():
        setattr(strategy, name, value)
    call, late, catch = KNOBS["normal"]
    return ComputerPlayer(
        "tuned", game_id, seed, strategy, call_uno=call, late_call=late, catch=catch
    )


def opponent_player(kind: str, game_id: str, seed: int) -> Any:
    return reference_bot(game_id) if kind == "reference" else build(kind, game_id, seed)


def deal_edge(task: tuple[str, str, dict[str, Any], str, int]) -> float:
    """The tuned brain's win share over the four replays of one deal, minus 0.25."""
    game_id, brain, overrides, opponent, deal = task
    wins = 0.0
    for seat in range(PLAYERS):
        players = [
            tuned_player(brain, overrides, game_id, deal)
            if s == seat
            else opponent_player(opponent, game_id, deal)
            for s in range(PLAYERS)
        ]
        wins += outcome(game_id, play_hand(game_id, deal, players), seat)
    return wins / PLAYERS - 1 / PLAYERS


def interval(values: list[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% normal interval)."""
    mean, low, _high = mean_interval(values)
    return mean, mean - low


def compare_on_common_deals(
    workers: int, worker: Any, runs: list[tuple[str, list[Any]]], chunksize: int, tail: str
) -> None:
    """Print each run's per-deal edges (``worker`` over its tasks, on ``workers``
    processes) as mean ± 95% half-width and, after the first run, the paired difference
    from the first: every run plays the same deals. ``tail`` ends each line."""
    first: list[float] | None = None
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for label, tasks in runs:
            started = time.perf_counter()
            edges = pool.map(worker, tasks, chunksize=chunksize)
            mean, half = interval(edges)
            line = f"{label}: {mean:+.4f} ± {half:.4f} per hand"
            if first is None:
                first = edges
            else:
                diffs = [a - b for a, b in zip(edges, first, strict=True)]
                paired, paired_half = interval(diffs)
                line += f"; against the first {paired:+.4f} ± {paired_half:.4f}"
            seconds = time.perf_counter() - started
            print(f"{line} ({tail}, {seconds:.0f} s)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("configs", nargs="+", help="JSON objects of brain settings")
    parser.add_argument("--game", choices=("uno", "uno-minecraft"), default="uno")
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--opponent", choices=("normal", "easy", "reference"), default="normal")
    parser.add_argument("--brain", choices=tuple(BRAINS), default="hard")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        configs = [json.loads(text) for text in args.configs]
    except json.JSONDecodeError as error:
        parser.error(f"a config is not JSON: {error}")
    if not all(isinstance(c, dict) for c in configs):
        parser.error("each config must be a JSON object, e.g. '{\"action_hold\": 3}'")
    for overrides in configs:
        unknown = unknown_settings(args.brain, overrides)
        if unknown:
            parser.error(f"{BRAINS[args.brain].__name__} has no setting {', '.join(unknown)}")
    runs = [
        (
            f"{args.brain} {json.dumps(overrides)}",
            [
                (args.game, args.brain, overrides, args.opponent, DEAL_BASE + d)
                for d in range(args.deals)
            ],
        )
        for overrides in configs
    ]
    compare_on_common_deals(args.workers, deal_edge, runs, 25, f"{args.deals} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
