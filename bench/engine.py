"""Engine speed: random legal moves straight on the match, no views.

    python bench/engine.py [--game G] [--players N] [--seconds S] [--json]
                           [--options stack=any,seven_o=on,draw_to_match=on]

The player is RLCard's random agent: a random card play if there is one, otherwise a
random other action. Only the seat whose turn it is acts. Prints hands/s and
decisions/s (one decision = one legal_actions + apply) per game and player count.
``--options`` sets table options (UNO's house rules, RULES §4: ``--options
stack=any,seven_o=on,draw_to_match=on``); ``on``/``off`` and whole numbers are converted.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typing import Any

from unotable.engine import GAME_IDS, OptionError, get_game


def parse_options(text: str | None) -> dict[str, Any]:
    """``stack=any,seven_o=on`` as options: on/off and true/false are booleans."""
    words: dict[str, Any] = {"on": True, "off": False, "true": True, "false": False}
    options: dict[str, Any] = {}
    for item in (text or "").split(","):
        if not item.strip():
            continue
        name, _eq, value = item.partition("=")
        value = value.strip()
        options[name.strip()] = words.get(value.lower(), value)
        if value.isdigit():
            options[name.strip()] = int(value)
    return options


def table_options(spec: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options this game has, checked (``stack=off`` stays a word for a choice)."""
    known = {o.name: o for o in spec.options}
    chosen = {}
    for name, value in options.items():
        if name not in known:
            continue  # another game's option
        if known[name].kind == "choice" and isinstance(value, bool):
            value = "on" if value else "off"
        chosen[name] = value
    return spec.check_options(chosen)


class Player:
    """RLCard's random agent on the match itself, resumable: ``play(n)`` makes n more
    decisions, dealing each next hand and starting a new match after the last."""

    def __init__(
        self, game_id: str, players: int, options: dict[str, Any] | None = None, seed: int = 1
    ) -> None:
        self.spec = get_game(game_id)
        self.players = players
        self.options = table_options(self.spec, options or {})
        self.rng = random.Random(seed)
        self.match = self.spec.new_match(players, self.options, seed=seed)
        self.decisions = 0
        self.hands_before = 0  # the hands of the matches already over

    @property
    def hands(self) -> int:
        return self.hands_before + len(self.match.hand_results)

    def play(self, count: int) -> None:
        match = self.match
        spec, players, options = self.spec, self.players, self.options
        rng = self.rng
        choice = rng.choice
        for _ in range(count):
            seat = match.current
            if seat is None and match.hand_over:  # between hands: deal the next one
                match.next_hand()
                seat = match.current
            if seat is None:  # over: count its hands and start another
                self.hands_before += len(match.hand_results)
                match = spec.new_match(players, options, seed=rng.randrange(2**32))
                seat = match.current
            assert seat is not None
            legal = match.legal_actions(seat)
            plays = [a for a in legal if a.kind == "play"]
            match.apply(seat, choice(plays or legal))
        self.match = match
        self.decisions += count


def run_one(
    game_id: str,
    players: int,
    seconds: float,
    seed: int = 1,
    options: dict[str, Any] | None = None,
) -> dict[str, object]:
    player = Player(game_id, players, options, seed)
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        player.play(1000)
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    hands, decisions = player.hands, player.decisions
    return {
        "game": game_id,
        "players": players,
        "hands": hands,
        "decisions": decisions,
        "seconds": round(elapsed, 3),
        "hands_per_s": round(hands / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine speed with random legal moves.")
    parser.add_argument("--game", choices=GAME_IDS, help="one game (default: all four)")
    parser.add_argument("--players", type=int, help="one player count (default: 2, 4 and 8)")
    parser.add_argument("--seconds", type=float, default=2.0, help="per game and count")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument(
        "--options", help="table options, e.g. stack=any,seven_o=on,draw_to_match=on"
    )
    args = parser.parse_args(argv)
    options = parse_options(args.options)
    games = [args.game] if args.game else list(GAME_IDS)
    rows = []
    for game_id in games:
        try:
            spec = get_game(game_id)
        except (ImportError, AttributeError) as exc:  # another engine not written yet
            print(f"skipping {game_id}: {exc}", file=sys.stderr)
            continue
        counts = [args.players] if args.players else [2, 4, 8]
        for players in counts:
            try:
                spec.check_players(players)
            except OptionError:
                continue
            row = run_one(game_id, players, args.seconds, options=options)
            rows.append(row)
            if args.json:
                print(json.dumps(row), flush=True)
    if not args.json:
        print(
            f"{'game':<20}{'players':>8}{'hands':>9}{'decisions':>11}{'hands/s':>10}{'decisions/s':>13}"
        )
        for r in rows:
            print(
                f"{r['game']:<20}{r['players']:>8}{r['hands']:>9}{r['decisions']:>11}"
                f"{r['hands_per_s']:>10}{r['decisions_per_s']:>13}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
