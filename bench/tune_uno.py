"""Tune a hand-written UNO strategy by duplicate play against three copies of an opponent.

    python bench/tune_uno.py [--game G] [--deals N] [--opponent normal|reference]
                             [--brain normal|hard|search] [--worlds W] [--workers K]
                             CONFIG [CONFIG ...]

Each CONFIG is a JSON object of attribute overrides for the brain (``'{}'`` is the brain
as shipped), e.g. ``'{"action_hold": 3}'``. ``normal`` and ``hard`` are the hand-written
strategies (``hard`` is the prior hard searches on); ``search`` is the hard player itself,
searching a fixed number of sampled worlds a decision (``--worlds``) so runs repeat
exactly, with its search settings overridden, e.g. ``'{"uno_colours": 4}'``.

Every config plays the same deals, each deal four times with the tuned brain in each seat
(the duplicate format of ai_strength.py), so configs are compared on common deals: the
line after the first config also prints the paired difference from the first one, with
its 95% interval. Rule-based brains take about 2.5 ms a hand, so 5,000 deals (20,000
hands) separate a 0.005 change in win rate; the search at 100 worlds plays 2,000 deals in
about seven minutes on two cores.
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
from unotable.ai.search import SearchBrain
from unotable.ai.stats import mean_interval
from unotable.ai.uno import HardUnoBrain, UnoBrain

BRAINS = {"normal": UnoBrain, "hard": HardUnoBrain}
CHOICES = (*BRAINS, "search")
DEAL_BASE = 91_000_003  # deals apart from ai_strength.py's, so tuning does not fit its tables


def unknown_settings(brain: str, overrides: dict[str, Any]) -> list[str]:
    # the search's settings are set per instance, so ask an instance
    target = SearchBrain("uno", HardUnoBrain()) if brain == "search" else BRAINS[brain]
    return [name for name in overrides if not hasattr(target, name)]


def tuned_player(
    brain: str, overrides: dict[str, Any], game_id: str, seed: int, worlds: int
) -> Any:
    if brain == "search":
        player = build("hard", game_id, seed, worlds=worlds)
    else:
        call, late, catch = KNOBS["normal"]
        player = ComputerPlayer(
            "tuned", game_id, seed, BRAINS[brain](), call_uno=call, late_call=late, catch=catch
        )
    for name, value in overrides.items():
        setattr(player.brain, name, value)
    return player


def opponent_player(kind: str, game_id: str, seed: int) -> Any:
    return reference_bot(game_id) if kind == "reference" else build(kind, game_id, seed)


def deal_edge(task: tuple[str, str, dict[str, Any], str, int, int]) -> float:
    """The tuned brain's win share over the four replays of one deal, minus 0.25."""
    game_id, brain, overrides, opponent, deal, worlds = task
    wins = 0.0
    for seat in range(PLAYERS):
        players = [
            tuned_player(brain, overrides, game_id, deal, worlds)
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
    parser.add_argument("--brain", choices=CHOICES, default="hard")
    parser.add_argument("--worlds", type=int, default=100, help="search: worlds a decision")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.deals < 2 or args.worlds < 1 or args.workers < 1:
        parser.error("--deals must be at least 2, --worlds and --workers at least 1")
    try:
        configs = [json.loads(text) for text in args.configs]
    except json.JSONDecodeError as error:
        parser.error(f"a config is not JSON: {error}")
    if not all(isinstance(c, dict) for c in configs):
        parser.error("each config must be a JSON object, e.g. '{\"action_hold\": 3}'")
    for overrides in configs:
        unknown = unknown_settings(args.brain, overrides)
        if unknown:
            parser.error(f"{args.brain} has no setting {', '.join(unknown)}")
    runs = [
        (
            f"{args.brain} {json.dumps(overrides)}",
            [
                (args.game, args.brain, overrides, args.opponent, DEAL_BASE + d, args.worlds)
                for d in range(args.deals)
            ],
        )
        for overrides in configs
    ]
    chunk = 4 if args.brain == "search" else 25  # a searched deal takes about 0.2 s
    compare_on_common_deals(args.workers, deal_edge, runs, chunk, f"{args.deals} deals")
    return 0


if __name__ == "__main__":
    sys.exit(main())
