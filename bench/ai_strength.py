"""How strong the computer levels are: duplicate tables against fixed opponents.

    python bench/ai_strength.py [--game G] [--deals N] [--hard-ms B] [--workers W]
                                [--options stack=any,seven_o=on] [--table F:O]
                                [--write-docs] [--json]

Format (4 players): one focal player against three copies of an opponent. Every deal is
replayed four times, the focal player in each seat, the same cards in the same seats, so
the luck of the deal cancels. The unit of the statistics is the deal:

* UNO and UNO Minecraft: the share of the four replays the focal player wins (goes out).
* UNO Hearts and Wild Twist Hearts: the focal player's mean points per hand (lower wins).

Each table is compared with its mirror (the opponent in the focal seat too, same deals):
the per-deal difference focal minus mirror, with a 95% normal interval over deals. For
UNO the mirror is exactly 0.25. Positive is better in UNO, negative in the Hearts games.

Tables per game: hard vs three normal, hard vs three reference bots, normal vs three
reference bots (the reference bots are fixed yardsticks in bench/reference_bots.py).
The run records its settings and the CPU share it got. ``--write-docs`` merges the
results into bench/ai_strength.json and rewrites the tables in docs/ai.md from it, so
games run separately still land in one set of tables.

``--options`` plays under table options, UNO's house rules (RULES §4) above all:
``--options stack=any,seven_o=on --table hard:normal --table normal:easy`` is the house
rules ladder. Such a run is stored and shown apart from the rulebook's tables, under the
game and its options.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import resource
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_bots import reference_bot

from unotable.ai.levels import build
from unotable.ai.search import DEFAULT_BUDGET_MS
from unotable.ai.stats import mean_interval
from unotable.engine import GAME_IDS, SHEDDING, get_game
from unotable.tournament import tournament_options

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "ai_strength.json"
DOCS = ROOT / "docs" / "ai.md"
START, END = "<!-- ai_strength:start -->", "<!-- ai_strength:end -->"
PLAYERS = 4
TABLES = (("hard", "normal"), ("hard", "reference"), ("normal", "reference"))
# deals per table: sized so hard at its default budget takes about ten minutes a game on
# the shared 2 cores, with intervals narrow enough for the effects measured
DEALS = {"uno": 200, "uno-minecraft": 200, "uno-hearts": 100, "wild-twist-hearts": 100}
HARD_MS = DEFAULT_BUDGET_MS  # the shipped hard player, as a user meets it


# -- one hand -------------------------------------------------------------------------------


def parse_options(text: str | None) -> dict[str, Any]:
    """``stack=any,seven_o=on`` as options: on/off and true/false are booleans, whole
    numbers ints, the rest words."""
    words: dict[str, Any] = {"on": True, "off": False, "true": True, "false": False}
    options: dict[str, Any] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, _eq, value = (part.strip() for part in item.partition("="))
        options[name] = int(value) if value.isdigit() else words.get(value.lower(), value)
        if name == "stack" and isinstance(options[name], bool):
            options[name] = "any" if options[name] else "off"
    return options


def options_key(options: dict[str, Any]) -> str:
    """How a run's options are named in the results and the docs (empty: the rulebook)."""
    shown = {True: "on", False: "off"}
    return ",".join(
        f"{k}={shown.get(v, v) if isinstance(v, bool) else v}" for k, v in options.items()
    )


def deal_hand(game_id: str, seed: int, players: int, options: dict[str, Any] | None = None) -> Any:
    """A match of one hand, dealt from ``seed``, for the duplicate format."""
    table = {**tournament_options(game_id, 1), **(options or {})}
    return get_game(game_id).new_match(players, table, seed=seed)


def play_out(match: Any, players: Sequence[Any]) -> Any:
    """Play ``match``'s hand with ``players`` (one per seat, in order); its HandResult.

    The one place a match is driven: ``unotable.tournament.drive``, the runner on a
    virtual clock.
    """
    from unotable.tournament import drive

    return drive(match, players, max_hands=1).hands[0]


def play_hand(
    game_id: str, seed: int, players: Sequence[Any], options: dict[str, Any] | None = None
) -> Any:
    """Deal one hand from ``seed`` and play it with ``players``; the engine's HandResult."""
    return play_out(deal_hand(game_id, seed, len(players), options), players)


def shedding(game_id: str) -> bool:
    """Whether going out wins a hand (UNO), rather than taking the fewest points."""
    return get_game(game_id).facts.family == SHEDDING


def outcome(game_id: str, result: Any, seat: int) -> float:
    """A shedding game: 1 if ``seat`` went out; a trick-taking game: the points it scored."""
    if shedding(game_id):
        return 1.0 if result.notes.get("winner") == seat else 0.0
    return float(result.points[seat])


# -- players -----------------------------------------------------------------------------------


def make(kind: str, game_id: str, seed: int, hard_ms: float) -> Any:
    if kind == "reference":
        return reference_bot(game_id)
    if kind == "hard":
        return build("hard", game_id, seed, budget_ms=hard_ms)
    return build(kind, game_id, seed)


def deal_value(
    game_id: str,
    focal: str,
    opponent: str,
    deal_seed: int,
    hard_ms: float,
    options: dict[str, Any] | None = None,
) -> tuple[float, float]:
    """(focal mean over the four seats, mirror mean per seat) for one deal.

    Players are fresh for every hand and seeded by the deal, so the mirror's four seats
    are identical players and one hand gives its per-seat mean.
    """
    values = []
    for seat in range(PLAYERS):
        players = [
            make(focal if s == seat else opponent, game_id, deal_seed, hard_ms)
            for s in range(PLAYERS)
        ]
        values.append(outcome(game_id, play_hand(game_id, deal_seed, players, options), seat))
    mirror_players = [make(opponent, game_id, deal_seed, hard_ms) for _ in range(PLAYERS)]
    mirror = play_hand(game_id, deal_seed, mirror_players, options)
    mirror_mean = sum(outcome(game_id, mirror, s) for s in range(PLAYERS)) / PLAYERS
    return sum(values) / PLAYERS, mirror_mean


def _deal_task(args: tuple[str, str, str, int, float, dict[str, Any]]) -> tuple[float, float]:
    return deal_value(*args)


# -- a table ------------------------------------------------------------------------------------


def run_table(
    game_id: str,
    focal: str,
    opponent: str,
    deals: int,
    seed: int,
    hard_ms: float,
    workers: int,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    house = dict(options or {})
    tasks = [(game_id, focal, opponent, seed * 1_000_003 + d, hard_ms, house) for d in range(deals)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            pairs = pool.map(_deal_task, tasks, chunksize=1)
    else:
        pairs = [_deal_task(t) for t in tasks]
    focal_values = [p[0] for p in pairs]
    diffs = [p[0] - p[1] for p in pairs]
    mean, low, high = mean_interval(focal_values)
    dmean, dlow, dhigh = mean_interval(diffs)
    mirror = sum(p[1] for p in pairs) / len(pairs)
    better = dlow > 0 if shedding(game_id) else dhigh < 0
    worse = dhigh < 0 if shedding(game_id) else dlow > 0
    return {
        "game": game_id,
        "options": options_key(house),
        "focal": focal,
        "opponent": opponent,
        "deals": deals,
        "hands": deals * PLAYERS,
        "focal_mean": mean,
        "focal_ci": [low, high],
        "mirror_mean": mirror,
        "diff": dmean,
        "diff_ci": [dlow, dhigh],
        "verdict": "clearly better" if better else "clearly worse" if worse else "not separated",
        "seconds": round(time.perf_counter() - started, 1),
    }


def cpu_share(wall: float) -> dict[str, float]:
    """CPU seconds this run got (itself and its worker processes) per wall second."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    return {
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(wall, 1),
        "cpu_per_wall": round(cpu / wall, 2) if wall > 0 else 0.0,
    }


# -- docs ---------------------------------------------------------------------------------------


def render(results: dict[str, Any]) -> str:
    lines = []
    # the rulebook's tables first, then each game's runs under other options
    keys = [g for g in GAME_IDS if g in results]
    keys += [k for g in GAME_IDS for k in sorted(results) if k.startswith(f"{g} ")]
    for key in keys:
        entry = results[key]
        game = key.split(" ", 1)[0]
        s = entry["settings"]
        metric = "win rate per hand" if shedding(game) else "points per hand (lower wins)"
        title = key if " " not in key else f"{game}, options {key.split(' ', 1)[1]}"
        lines.append(
            f"**{title}** ({metric}; {s['players']} players; hard at {s['hard_ms']:g} ms per "
            f"decision; seed {s['seed']}; {s['workers']} workers at nice {s['nice']}; "
            f"CPU share {s['cpu']['cpu_per_wall']:.2f} of a core over "
            f"{s['cpu']['wall_seconds']:.0f} s; "
            f"{s['date']})"
        )
        lines.append("")
        lines.append(
            "| focal vs three | deals (hands) | focal [95%] | mirror "
            "| focal − mirror [95%] | verdict |"
        )
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for t in entry["tables"]:
            lines.append(
                f"| {t['focal']} vs {t['opponent']} | {t['deals']} ({t['hands']}) | "
                f"{t['focal_mean']:.3f} [{t['focal_ci'][0]:.3f}, {t['focal_ci'][1]:.3f}] | "
                f"{t['mirror_mean']:.3f} | {t['diff']:+.3f} [{t['diff_ci'][0]:+.3f}, "
                f"{t['diff_ci'][1]:+.3f}] | {t['verdict']} |"
            )
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_docs(results: dict[str, Any]) -> None:
    text = DOCS.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"{DOCS} lacks the {START} / {END} markers")
    head, rest = text.split(START, 1)
    _old, tail = rest.split(END, 1)
    DOCS.write_text(f"{head}{START}\n{render(results)}{END}{tail}")


# -- main ---------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=GAME_IDS, action="append")
    parser.add_argument("--deals", type=int, help="deals per table (each played 4 + 1 times)")
    parser.add_argument("--hard-ms", type=float, default=HARD_MS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--table", action="append", help="focal:opponent, e.g. hard:normal")
    parser.add_argument("--json", action="store_true", help="one JSON object per table")
    parser.add_argument(
        "--options", help="table options, e.g. stack=any,seven_o=on (UNO's house rules)"
    )
    parser.add_argument(
        "--write-docs", action="store_true", help=f"update {RESULTS.name} and docs/ai.md"
    )
    args = parser.parse_args(argv)
    tables = [tuple(t.split(":", 1)) for t in args.table] if args.table else list(TABLES)
    options = parse_options(args.options)
    stored: dict[str, Any] = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    for game in args.game or GAME_IDS:
        started = time.perf_counter()
        rusage_before = cpu_share(1.0)["cpu_seconds"]
        deals = args.deals or DEALS[game]
        done = []
        for focal, opponent in tables:
            table = run_table(
                game, focal, opponent, deals, args.seed, args.hard_ms, args.workers, options
            )
            done.append(table)
            show(table, args.json)
        wall = time.perf_counter() - started
        cpu = cpu_share(wall)
        cpu["cpu_seconds"] = round(cpu["cpu_seconds"] - rusage_before, 1)
        cpu["cpu_per_wall"] = round(cpu["cpu_seconds"] / wall, 2) if wall > 0 else 0.0
        settings = {
            "players": PLAYERS,
            "deals": deals,
            "hard_ms": args.hard_ms,
            "seed": args.seed,
            "workers": args.workers,
            "nice": os.nice(0),
            "cpu": cpu,
            "load_average": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        }
        if not args.json:
            print(f"  settings: {json.dumps(settings)}", flush=True)
        key = f"{game} {options_key(options)}" if options else game
        settings["options"] = dict(options)
        stored[key] = {"settings": settings, "tables": done}
        if args.write_docs:
            RESULTS.write_text(json.dumps(stored, indent=1) + "\n")
            write_docs(stored)
    return 0


def show(table: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(table), flush=True)
        return
    house = f" [{table['options']}]" if table.get("options") else ""
    print(
        f"{table['game']}{house}: {table['focal']} vs 3 {table['opponent']}, "
        f"{table['deals']} deals "
        f"({table['hands']} hands): focal {table['focal_mean']:.3f} "
        f"[{table['focal_ci'][0]:.3f}, {table['focal_ci'][1]:.3f}], "
        f"mirror {table['mirror_mean']:.3f}, "
        f"diff {table['diff']:+.3f} [{table['diff_ci'][0]:+.3f}, {table['diff_ci'][1]:+.3f}] "
        f"{table['verdict']} ({table['seconds']:.0f} s)",
        flush=True,
    )


if __name__ == "__main__":
    sys.exit(main())
