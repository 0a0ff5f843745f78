"""How strong each computer level is: seeded tournaments with 95% confidence intervals.

    python bench/ai_strength.py [--game G] [--players N] [--games K] [--hard-ms B] [--json]

Every table seats a lineup of levels and plays the same deal seeds once per rotation of
the seats, so every level sits in every seat equally often. Results are per hand:

* UNO and UNO Minecraft: the share of hands a level wins (goes out), Wilson interval.
  An equal seat wins 1/N of the hands.
* UNO Hearts and Wild Twist Hearts: mean points a level scores per hand (lower is
  better), normal-approximation interval.

Tables: for UNO and UNO Minecraft all four levels at one table (hard, normal, easy,
random; 6 players add normal and easy), for classic UNO also one hard seat against three
normal seats (an equal seat would win 25%); for the Hearts games head-to-head tables where
two levels alternate around the table: hard vs normal, normal vs easy, easy vs random.
Every game also plays normal against the first-legal-card baseline, with the margin.
Together they show hard > normal > easy > random. ``--mixed`` adds the all-levels table
to the Hearts games. 4 players always; 2 players (head-to-head pairs) and 6 players too
for uno, uno-minecraft and uno-hearts. ``--games K`` sets the hands per table (default:
per game and table, sized so the whole run takes about 15 minutes on 2 cores). The hard
player runs at ``--hard-ms`` per decision (default 40, below its interactive default of
100, to keep the run short; the output says so).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.ai.search import DEFAULT_BUDGET_MS
from unotable.ai.stats import intervals_clear, mean_interval, wilson_interval
from unotable.ai.tournament import tournament
from unotable.engine import GAME_IDS

UNO_GAMES = ("uno", "uno-minecraft")
EXTRA_COUNTS = ("uno", "uno-minecraft", "uno-hearts")  # also at 2 and 6 players
ORDER = ("hard", "normal", "easy", "random", "first")
PAIRS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"), ("normal", "first"))

# hands per table at 4 players; tables without a hard seat play 4x as many (they are
# cheap), 2- and 6-player tables a quarter
HANDS = {"uno": 1400, "uno-minecraft": 1400, "uno-hearts": 300, "wild-twist-hearts": 300}


def lineups(game: str, players: int, mixed: bool) -> list[tuple[str, tuple[str, ...]]]:
    """The tables of one game at one player count.

    UNO: all levels at one table (hard, normal, easy, random, then normal and easy again
    for a sixth seat), or head-to-head pairs with 2 players. Hearts games: head-to-head
    tables, the two levels alternating around the table (one seat each of four levels
    squeezes hard and normal together near zero points, hiding the difference).
    """
    pairs = [(f"{a} vs {b}", tuple((a, b)[s % 2] for s in range(players))) for a, b in PAIRS]
    if game not in UNO_GAMES or players == 2:
        tables = pairs
        if mixed and players >= 4:
            tables.append(("all levels at one table", ALL_LEVELS[:players]))
        return tables
    tables = [("all levels at one table", ALL_LEVELS[:players])]
    if game == "uno" and players == 4:
        tables.append(("one hard seat vs three normal", ("hard", "normal", "normal", "normal")))
    tables.append(pairs[-1])  # normal vs first
    return tables


ALL_LEVELS = ("hard", "normal", "easy", "random", "normal", "easy", "random", "normal")


def hands_for(game: str, players: int, lineup: tuple[str, ...], override: int | None) -> int:
    if override is not None:
        return override
    base = HANDS[game] if players == 4 else HANDS[game] // 4
    if "hard" not in lineup:
        return base * 4
    if lineup == ("hard", "normal", "normal", "normal"):
        return base * 5 // 7
    return base


def summarize(game: str, results: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    summary = {}
    for level, values in results.items():
        if game in UNO_GAMES:
            low, high = wilson_interval(sum(values), len(values))
            mean = sum(values) / len(values) if values else float("nan")
        else:
            mean, low, high = mean_interval(values)
        summary[level] = {"n": len(values), "mean": mean, "low": low, "high": high}
    return summary


def verdicts(game: str, summary: dict[str, dict[str, float]]) -> list[str]:
    """For each pair of adjacent levels present: is the stronger one clearly ahead?"""
    present = [lvl for lvl in ORDER if lvl in summary]
    lines = []
    for stronger, weaker in pairwise(present):
        a, b = summary[stronger], summary[weaker]
        ahead = a["mean"] > b["mean"] if game in UNO_GAMES else a["mean"] < b["mean"]
        clear = ahead and intervals_clear((a["low"], a["high"]), (b["low"], b["high"]))
        margin = a["mean"] - b["mean"]
        word = "clear" if clear else ("ahead, intervals overlap" if ahead else "NOT ahead")
        lines.append(f"{stronger} vs {weaker}: {word} (margin {margin:+.3f})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_IDS, action="append")
    parser.add_argument("--players", type=int, action="append", help="default 4 (+2, 6)")
    parser.add_argument("--games", type=int, help="hands per table")
    parser.add_argument("--hard-ms", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="one JSON object per table")
    parser.add_argument(
        "--mixed", action="store_true", help="also one table with all four levels together"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    if not args.json:
        print(
            f"hard plays at {args.hard_ms:g} ms per decision here "
            f"(its default in the app is {DEFAULT_BUDGET_MS:g} ms); results are per hand"
        )
    for game in args.game or GAME_IDS:
        counts = args.players or ([4, 2, 6] if game in EXTRA_COUNTS else [4])
        for players in counts:
            if game == "wild-twist-hearts" and players < 4:
                continue
            for title, lineup in lineups(game, players, args.mixed):
                hands = hands_for(game, players, lineup, args.games)
                t0 = time.perf_counter()
                results = tournament(
                    game,
                    lineup,
                    hands,
                    seed=args.seed,
                    hard_ms=args.hard_ms,
                    workers=args.workers,
                )
                summary = summarize(game, results)
                seconds = time.perf_counter() - t0
                report(game, players, title, lineup, hands, summary, seconds, args)
    if not args.json:
        print(f"total {time.perf_counter() - started:.0f} s")
    return 0


def report(
    game: str,
    players: int,
    title: str,
    lineup: tuple[str, ...],
    hands: int,
    summary: dict[str, dict[str, float]],
    seconds: float,
    args: Any,
) -> None:
    checks = verdicts(game, summary)
    if args.json:
        record = {
            "game": game,
            "players": players,
            "table": title,
            "lineup": list(lineup),
            "hands": hands,
            "hard_ms": args.hard_ms,
            "metric": "win_rate" if game in UNO_GAMES else "points_per_hand",
            "levels": summary,
            "checks": checks,
            "seconds": round(seconds, 1),
        }
        print(json.dumps(record), flush=True)
        return
    metric = "win rate per hand" if game in UNO_GAMES else "points per hand (lower wins)"
    print(f"\n{game}, {players} players, {title}: {hands} hands, {metric}, {seconds:.0f} s")
    if game in UNO_GAMES:
        print(f"  (an equal seat wins {1 / players:.3f})")
    for level in ORDER:
        if level in summary:
            s = summary[level]
            print(
                f"  {level:7s} {s['mean']:7.3f}   95% CI [{s['low']:.3f}, {s['high']:.3f}]"
                f"   n={int(s['n'])}"
            )
    for line in checks:
        print("  " + line)
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
