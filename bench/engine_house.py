"""The engine's cost with UNO's house rules (RULES §4) against the rules off, per decision.

    python bench/engine_house.py [--game G] [--players N] [--decisions D]
                                 [--instructions [--jobs J] | --cards] [--json]

bench/engine.py's loop exactly (RLCard's random agent on the match itself, one decision =
one legal_actions + apply, new matches from the same seeds), for a fixed number of
decisions instead of a time, in five configurations: rules off, ``stack=any``,
``seven_o``, ``draw_to_match`` and all three.

By default the five run side by side in slices of 2,000 decisions (so that a busy
machine's load falls on all alike) and it prints decisions per CPU second and each
one's ratio to the rules off. ``--instructions`` counts instead, with valgrind's
callgrind, the instructions per decision (a run of D decisions less a run of none, so
Python's start-up and imports drop out): the same on every run, where timings on a
shared machine vary by a third. ``--cards`` shows instead what the decisions do, the
same decisions untimed: cards moved (drawn, a Creeper's bonus cards included, or passed on
in a Seven-O swap or pass) and reshuffles per decision, and the share of decisions that
play a card (the dearest kind: a draw to match is followed by a play where a plain draw is
often followed by a cheap keep). ``--config`` plays one configuration and exits (what
``--instructions`` runs under callgrind).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine import Player, parse_options  # bench/engine.py

CONFIGS = {
    "off": "",
    "stack": "stack=any",
    "seven_o": "seven_o=on",
    "draw_to_match": "draw_to_match=on",
    "all three": "stack=any,seven_o=on,draw_to_match=on",
}
SLICE = 2_000


def timed(game_id: str, players: int, decisions: int) -> dict[str, Any]:
    """Decisions per CPU second of each configuration, run side by side in slices."""
    runners = {
        name: Player(game_id, players, parse_options(text)) for name, text in CONFIGS.items()
    }
    cpu = dict.fromkeys(runners, 0.0)
    done = 0
    while done < decisions:
        step = min(SLICE, decisions - done)
        for name, runner in runners.items():
            start = time.process_time()
            runner.play(step)
            cpu[name] += time.process_time() - start
        done += step
    rate = {name: decisions / max(cpu[name], 1e-9) for name in runners}
    return {
        "game": game_id,
        "players": players,
        "decisions": decisions,
        "per_cpu_second": {name: round(r) for name, r in rate.items()},
        "ratio": {name: round(r / rate["off"], 3) for name, r in rate.items()},
    }


def moved(game_id: str, players: int, decisions: int) -> dict[str, Any]:
    """Per configuration, what its decisions do (``--cards``), the very decisions timed."""
    cards: dict[str, float] = {}
    reshuffles: dict[str, float] = {}
    plays: dict[str, float] = {}
    for name, text in CONFIGS.items():
        runner = Player(game_id, players, parse_options(text))
        moves = shuffles = played = 0
        for _ in range(decisions):
            match = runner.match
            before = len(match.log)
            runner.play(1)
            if runner.match is not match:  # a new match began
                match, before = runner.match, 0
            played += match.history[-1][1].kind == "play"
            for event in match.log[before:]:
                if event.kind in ("draw", "bonus", "received"):
                    moves += event.count
                shuffles += event.kind == "reshuffle"
        cards[name] = round(moves / decisions, 2)
        reshuffles[name] = round(shuffles / decisions, 4)
        plays[name] = round(played / decisions, 3)
    return {
        "game": game_id,
        "players": players,
        "decisions": decisions,
        "cards": cards,
        "reshuffles": reshuffles,
        "plays": plays,
    }


def _collected(args: list[str]) -> int:
    """Instructions callgrind counted running this file with ``args``."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, __file__, *args]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # (the same dict layouts every run)
    out = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"no callgrind total in: {out.stderr[-500:]}")
    return int(found.group(1))


def counted(game_id: str, players: int, decisions: int, jobs: int) -> dict[str, Any]:
    """Instructions per decision of each configuration (callgrind; start-up subtracted)."""
    base = ["--game", game_id, "--players", str(players)]
    runs = {
        (name, n): [*base, "--config", name, "--decisions", str(n)]
        for name in CONFIGS
        for n in (0, decisions)
    }
    with ThreadPoolExecutor(jobs) as pool:
        totals = dict(zip(runs, pool.map(_collected, runs.values()), strict=True))
    per = {name: (totals[name, decisions] - totals[name, 0]) // decisions for name in CONFIGS}
    return {
        "game": game_id,
        "players": players,
        "decisions": decisions,
        "instructions": per,
        "ratio": {name: round(v / per["off"], 3) for name, v in per.items()},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="UNO's engine cost with the house rules.")
    parser.add_argument("--game", choices=("uno", "uno-minecraft"), help="default: both")
    parser.add_argument("--players", type=int, help="default: 2, 4 and 8")
    parser.add_argument("--decisions", type=int, default=None, help="per configuration")
    parser.add_argument("--instructions", action="store_true", help="count with callgrind")
    parser.add_argument("--jobs", type=int, default=2, help="callgrind runs at once")
    parser.add_argument("--cards", action="store_true", help="what the decisions do")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--config", choices=CONFIGS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.config is not None:  # one run, for callgrind
        Player(args.game or "uno", args.players or 4, parse_options(CONFIGS[args.config])).play(
            args.decisions or 0
        )
        return 0
    games = [args.game] if args.game else ["uno", "uno-minecraft"]
    counts = [args.players] if args.players else [2, 4, 8]
    for game_id in games:
        for players in counts:
            if args.cards:
                row = moved(game_id, players, args.decisions or 60_000)
                cells = "  ".join(
                    f"{name} {row['cards'][name]} cards, {row['reshuffles'][name]} reshuffles, "
                    f"{row['plays'][name]:.0%} plays"
                    for name in CONFIGS
                )
            else:
                if args.instructions:
                    row = counted(game_id, players, args.decisions or 30_000, args.jobs)
                    figures = row["instructions"]
                else:
                    row = timed(game_id, players, args.decisions or 60_000)
                    figures = row["per_cpu_second"]
                cells = "  ".join(
                    f"{name} {figures[name]:,}"
                    + ("" if name == "off" else f" ({row['ratio'][name]})")
                    for name in CONFIGS
                )
            print(json.dumps(row) if args.json else f"{game_id} {players}: {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
