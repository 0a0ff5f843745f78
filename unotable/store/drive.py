"""A headless match that autosaves after every action, for the kill -9 test and for trying
the store by hand::

    python -m unotable.store.drive --data-dir D --game uno --seed 7 --actions 200
    python -m unotable.store.drive --data-dir D --resume --actions 400

Moves are random legal ones, but each is drawn from a generator seeded by the match seed
and the action's index, so a run that is killed and resumed makes exactly the moves an
uninterrupted run makes. Prints ``<count> <seat> <action>`` after each saved action.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from unotable.ai.baseline import choose_random_playing
from unotable.engine import GAME_IDS, Match

from .history import record_finished
from .record import MatchRecord, SeatRecord
from .saves import SaveError, autosave, clear_autosave, new_match, resume_autosave


def move_for(match: Match, seed: int) -> tuple[int, str]:
    """The driver's move in this position: a seat that may act and one of its actions."""
    rng = random.Random(seed * 1_000_003 + len(match.history))
    seat = rng.choice(match.actors())
    action = choose_random_playing(rng, match.legal_actions(seat))
    return seat, str(action)


def play(
    record: MatchRecord,
    match: Match,
    until: int | None,
    after_action: Callable[[MatchRecord, Match], None] = lambda record, match: None,
) -> None:
    """Play driver moves on ``match`` until it has ``until`` actions or is over."""
    while not match.over and (until is None or len(record.actions) < until):
        seat, text = move_for(match, record.seed)
        match.apply(seat, text)
        record.actions.append((seat, text))
        after_action(record, match)


def new_record(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any] | list[tuple[str, Any]] | None = None,
) -> MatchRecord:
    seats = [SeatRecord(f"Bot {i + 1}", "random") for i in range(players)]
    started = datetime.now(UTC).isoformat(timespec="seconds")
    return MatchRecord(game, dict(options or {}), seats, seed, started=started)


def played(
    game: str,
    players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    until: int | None = None,
) -> tuple[MatchRecord, Match]:
    """A record and its match after driver moves (to the end, or to ``until`` actions)."""
    record = new_record(game, players, seed, options)
    match = new_match(record)
    play(record, match, until)
    record.finished = match.over
    return record, match


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        resumed = resume_autosave(args.data_dir) if args.resume else None
    except SaveError as exc:
        print(exc, file=sys.stderr)
        return 1
    if resumed is None:
        record = new_record(args.game, args.players, args.seed, args.options)
        match = new_match(record)
        autosave(record, args.data_dir)
    else:
        record, match = resumed
    if args.controller:
        record, match = _run_controller(record, args.data_dir, args.actions)
    else:

        def save_and_report(record: MatchRecord, match: Match) -> None:
            record.finished = match.over
            _save_and_report(record, args.data_dir)

        play(record, match, args.actions, save_and_report)
    if match.over:
        record_finished(record, args.data_dir, match)
        clear_autosave(args.data_dir)
    return 0


def _save_and_report(record: MatchRecord, data_dir: Path) -> None:
    autosave(record, data_dir)
    seat, text = record.actions[-1]
    print(len(record.actions), seat, text, flush=True)


def _run_controller(
    record: MatchRecord, data_dir: Path, until: int | None
) -> tuple[MatchRecord, Match]:
    """Play with the app's controller and its computer players, saving as the app does."""
    from unotable.controller import Controller

    class Enough(Exception):
        pass

    def on_action(controller: Controller) -> None:
        current = controller.to_record()
        _save_and_report(current, data_dir)
        if until is not None and len(current.actions) >= until:
            raise Enough

    controller = Controller.from_record(record, on_action=on_action)
    with contextlib.suppress(Enough):
        controller.run_computers()
    return controller.to_record(), controller.match


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m unotable.store.drive")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--game", choices=GAME_IDS, default="uno")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--option",
        dest="options",
        type=_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a table option; the value is JSON (--option target=150)",
    )
    parser.add_argument("--actions", type=int, default=None, help="stop at this many actions")
    parser.add_argument("--resume", action="store_true", help="continue the autosaved match")
    parser.add_argument(
        "--controller",
        action="store_true",
        help="play through the app's controller and its computer players (seats' kinds)",
    )
    return parser


def _option(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    try:
        return name, json.loads(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: the value is not JSON") from None


if __name__ == "__main__":
    sys.exit(main())
