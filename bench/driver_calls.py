"""Engine calls per human action: what one key press costs the driver and the screen.

One human (seat 0) plays against Normal computers at a ``LocalTable``, as in the app. For
each human decision it does what a key press does: the screen sends the intent; the table
applies it, builds one snapshot for the screen and wakes its runner, whose next step is
asked once. ``legal_actions`` and ``view`` calls are counted at the engine's match class
(calls the engine makes inside ``view`` included), and snapshots at the controller.

    python bench/driver_calls.py [--players 8] [--hands 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections import Counter
from collections.abc import Callable
from typing import Any

from unotable.controller import Controller, Intent, LocalTable, News, Seat, VirtualClock
from unotable.engine import GAME_IDS, OUT_OF_TURN_KINDS, get_game

COUNTED = ("legal_actions", "view")
REPORTED = (*COUNTED, "snapshot")


def count_calls(
    cls: type, counts: Counter[str], names: tuple[str, ...] = COUNTED
) -> Callable[[], None]:
    """Wrap the counted methods of ``cls``; returns a function that unwraps them."""
    originals: dict[str, Any] = {}
    for name in names:
        original = getattr(cls, name)
        originals[name] = original

        def wrapper(self: Any, *args: Any, _name: str = name, _f: Any = original, **kw: Any) -> Any:
            counts[_name] += 1
            return _f(self, *args, **kw)

        setattr(cls, name, wrapper)

    def restore() -> None:
        for name, original in originals.items():
            setattr(cls, name, original)

    return restore


def measure(game: str, players: int, hands: int, seed: int) -> dict[str, Any]:
    seats = [Seat("You", "human")] + [Seat(f"C{i}", "normal") for i in range(1, players)]
    options = {"length": hands} if game == "wild-twist-hearts" else None
    ctrl = Controller(game, seats, options, seed, clock=VirtualClock(), speed="instant")
    table = LocalTable(ctrl)
    shown: list[News] = []
    table.listen(shown.append)
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    restore = count_calls(type(ctrl.match), counts)
    restore_snapshots = count_calls(Controller, counts, ("snapshot",))
    per_press: list[Counter[str]] = []
    computer_actions = 0
    computer_counts: Counter[str] = Counter()
    try:
        while not ctrl.over and len(ctrl.hand_results) < hands:
            before = ctrl.version
            counts.clear()
            turn = table.runner.run()
            computer_counts += counts
            computer_actions += ctrl.version - before
            if turn.over or turn.seat is None:
                break
            snap = table.snapshot if shown else ctrl.snapshot(ctrl.screen_seat())
            choices = [a for a in snap.actions if a.kind not in OUT_OF_TURN_KINDS]
            counts.clear()
            # one key press: the intent, the one snapshot the screen draws, the next step
            table.send(Intent(0, str(rng.choice(choices)), snap.version))
            ctrl.next_step()
            per_press.append(Counter(counts))
    finally:
        restore()
        restore_snapshots()
    result: dict[str, Any] = {"game": game, "players": players, "presses": len(per_press)}
    for name in REPORTED:
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
        f"{'game':<18} {'presses':>7}  snapshots per press (mean/max)  "
        "legal_actions per press (mean/max)  views per press (mean/max)"
    )
    for game in GAME_IDS:
        players = max(get_game(game).min_players, min(args.players, get_game(game).max_players))
        r = measure(game, players, args.hands, args.seed)
        print(
            f"{game:<18} {r['presses']:>7}  {r['snapshot_mean']:>10.2f} / {r['snapshot_max']:<17}"
            f"  {r['legal_actions_mean']:>12.2f} / {r['legal_actions_max']:<19}"
            f"  {r['view_mean']:>8.2f} / {r['view_max']}"
        )


if __name__ == "__main__":
    main()
