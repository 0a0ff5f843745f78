"""A headless match that autosaves after every action, for the kill -9 tests::

    python tests/match_driver.py --data-dir D --game uno --seed 7 --actions 200
    python tests/match_driver.py --data-dir D --resume --actions 400

It drives the match only through the Controller, and saves it as the app does: through
the store's MatchFile (lock held) and the background AutosaveWriter. Every seat is a
"human" whose move the driver picks at random, from a generator seeded by the match seed
and the action count, so a run that is killed and resumed makes exactly the moves an
uninterrupted run makes. ``--computers`` seats computer players instead (the runner).
Prints ``<count> <seat> <action>`` once each action is on disk.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from unotable.ai.baseline import choose_random_playing
from unotable.controller import Controller
from unotable.controller.seats import Seat
from unotable.engine import GAME_IDS
from unotable.store.matches import MatchFile, most_recent, summary_of
from unotable.store.record import MatchRecord
from unotable.store.writer import AutosaveWriter


def driver_move(controller: Controller, seed: int) -> tuple[int, str]:
    """The driver's move for the seat the controller waits on."""
    turn = controller.turn()
    assert turn.seat is not None
    rng = random.Random(seed * 1_000_003 + controller.version)
    return turn.seat, str(choose_random_playing(rng, controller.legal(turn.seat)))


def new_controller(
    game: str, players: int, seed: int, options: dict[str, Any] | None, kind: str = "human"
) -> Controller:
    seats = [Seat(f"Bot {i + 1}", kind) for i in range(players)]
    return Controller(game, seats, dict(options or {}), seed, speed="instant")


def play(controller: Controller, until: int | None) -> None:
    """Driver moves until the match has ``until`` actions or is over."""
    submit = getattr(controller, "submit", controller.apply)  # submit in the new API
    while not controller.over and (until is None or controller.version < until):
        turn = controller.run()  # nothing to do when every seat is the driver's
        if turn.over:
            break
        submit(*driver_move(controller, controller.match.seed))


def played(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    until: int | None = None,
) -> tuple[MatchRecord, Any]:
    """A record and its match after driver moves (to the end, or to ``until`` actions)."""
    controller = new_controller(game, players, seed, options)
    play(controller, until)
    return controller.to_record(), controller.match


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    kind = "random" if args.computers else "human"
    if args.resume:
        saved, _ = most_recent(args.data_dir)
        if saved is None:
            print("no saved match", file=sys.stderr)
            return 1
        match_file = MatchFile.open(args.data_dir, saved.match_id)
        controller = Controller.from_record(match_file.load(), speed="instant")
    else:
        match_file = MatchFile.create(args.data_dir)
        controller = new_controller(args.game, args.players, args.seed, args.options, kind)
    writer = AutosaveWriter(on_error=lambda message: print(message, file=sys.stderr))

    def on_action(c: Controller) -> None:
        record = c.to_record()
        if record.finished:
            writer.finish(match_file, record, c.match)
        else:
            writer.save(match_file, record, summary_of(c.match))
        writer.flush()  # acknowledged only once on disk
        seat, text = record.actions[-1]
        print(len(record.actions), seat, text, flush=True)

    controller.on_action = on_action
    play(controller, args.actions)
    writer.release(match_file)
    writer.flush()
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="match_driver.py")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--game", choices=GAME_IDS, default="uno")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", dest="options", type=_option, action="append", default=[])
    parser.add_argument("--actions", type=int, default=None, help="stop at this many actions")
    parser.add_argument("--resume", action="store_true", help="continue the most recent match")
    parser.add_argument("--computers", action="store_true", help="computer seats play")
    return parser


def _option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the value is not JSON") from None


if __name__ == "__main__":
    sys.exit(main())
