"""``unotable replay FILE [--as SEAT]``: step through a saved match, forward and back.

A finished match shows every hand face up; an unfinished one only what one seat saw.
Standard library only at the top: the CLI imports this module to build its parser.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Keys: right or l next action, left or h back, PgDn/PgUp ten at a time, "
        "Home/End first and last, q quit."
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="a saved match (.json)")
    parser.add_argument(
        "--as",
        dest="as_seat",
        metavar="SEAT",
        help="show only what this seat saw (a seat number or name); "
        "required for an unfinished match",
    )
    parser.add_argument(
        "--text", action="store_true", help="print every step instead of opening the viewer"
    )


def run(args: argparse.Namespace, words: Callable[[Any], Iterable[str]] | None = None) -> int:
    """``words``: each step of a replay as text, for --text (the command line gives the
    app's, in the table's words); without it, the steps in notation."""
    from unotable.store.saves import SaveError

    from .frames import ReplayError, SeatError, load_replay

    try:
        replay = load_replay(args.file, args.as_seat)
    except (ReplayError, SaveError) as exc:
        message = " ".join(str(exc).split())  # one line, whatever the engine said
        print(f"unotable replay: error: {message}", file=sys.stderr)
        # a missing or unknown --as is a usage error; a file that cannot be replayed is not
        return 2 if isinstance(exc, SeatError) else 1
    if args.text:
        if words is None:
            words = _notation
        try:
            for block in words(replay):
                print(block, end="\n\n")
            sys.stdout.flush()
        except BrokenPipeError:  # e.g. piped into head
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    from unotable.terminal import terminal_problem

    problem = terminal_problem("the replay viewer")
    if problem:
        print(f"unotable replay: {problem} (--text prints every step instead)", file=sys.stderr)
        return 1
    from .viewer import ReplayApp

    ReplayApp(replay).run()
    return 0


def _notation(replay: Any) -> Iterator[str]:
    """Each step in the engine's notation (the replay's own frames)."""
    for number in range(len(replay)):
        yield replay.frame(number).text()
