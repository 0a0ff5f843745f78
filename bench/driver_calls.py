"""Engine calls per human action: what one key press costs the driver and the screen.

One human (seat 0) plays against Normal computers through the controller. For each human
decision it does what the table does for a key press: send the intent, take the snapshot
for the screen, ask when the next computer is due. ``legal_actions`` and ``view`` calls
are counted at the engine's match class (calls the engine makes inside ``view`` included).

    python bench/driver_calls.py [--players 8] [--hands 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from unotable.controller import Controller, Intent, Seat, VirtualClock
from unotable.engine import GAME_IDS, OUT_OF_TURN_KINDS, get_game

COUNTED = ("legal_actions", "view")


def count_calls(match_class: type, counts: Counter[str]) -> Callable[[], None]:
    """Wrap the counted methods of ``match_class``; returns a function that unwraps them."""
    originals: dict[str, Any] = {}
    for name in COUNTED:
        original = getattr(match_class, name)
        originals[name] = original

        def wrapper(self: Any, *args: Any, _name: str = name, _f: Any = original) -> Any:
            counts[_name] += 1
            return _f(self, *args)

        setattr(match_class, name, wrapper)

    def restore() -> None:
        for name, original in originals.items():
            setattr(match_class, name, original)

    return restore


def measure(game: str, players: int, hands: int, seed: int) -> dict[str, Any]:
    seats = [Seat("You", "human")] + [Seat(f"C{i}", "normal") for i in range(1, players)]
    options = {"length": hands} if game == "wild-twist-hearts" else None
    ctrl = Controller(game, seats, options, seed, clock=VirtualClock(), speed="instant")
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    restore = count_calls(type(ctrl.match), counts)
    per_press: list[Counter[str]] = []
    computer_actions = 0
    computer_counts: Counter[str] = Counter()
    log_seen = 0
    try:
        while not ctrl.over and len(ctrl.hand_results) < hands:
            before = ctrl.version
            counts.clear()
            turn = ctrl.run()
            computer_counts += counts
            computer_actions += ctrl.version - before
            if turn.over or turn.seat is None:
                break
            snap = ctrl.snapshot(ctrl.screen_seat(), since=log_seen)
            choices = [a for a in snap.actions if a.kind not in OUT_OF_TURN_KINDS]
            counts.clear()
            # one key press: the intent, the snapshot the screen draws, the next wake-up
            ctrl.submit(Intent(0, str(rng.choice(choices)), snap.version))
            snap = ctrl.snapshot(ctrl.screen_seat(), since=snap.log_length)
            ctrl.next_due()
            per_press.append(Counter(counts))
            log_seen = snap.log_length
    finally:
        restore()
    result: dict[str, Any] = {"game": game, "players": players, "presses": len(per_press)}
    for name in COUNTED:
        values = [c[name] for c in per_press] or [0]
        result[f"{name}_mean"] = statistics.fmean(values)
        result[f"{name}_max"] = max(values)
        result[f"{name}_per_computer_action"] = computer_counts[name] / max(1, computer_actions)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(
        f"{'game':<18} {'presses':>7}  legal_actions per press (mean/max)  "
        "views per press (mean/max)  legal per computer action"
    )
    for game in GAME_IDS:
        players = max(get_game(game).min_players, min(args.players, get_game(game).max_players))
        r = measure(game, players, args.hands, args.seed)
        print(
            f"{game:<18} {r['presses']:>7}  {r['legal_actions_mean']:>12.2f} / "
            f"{r['legal_actions_max']:<17}  {r['view_mean']:>8.2f} / {r['view_max']:<13}  "
            f"{r['legal_actions_per_computer_action']:.2f}"
        )


if __name__ == "__main__":
    main()
