"""``unotable`` with no subcommand: open the table (the lobby first).

Only the standard library is imported at the top: the parser is built for every command.
"""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the most recently played saved match straight away",
    )
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where saves, settings and history live (default: $UNOTABLE_DATA_DIR, "
        "else your user data folder, with settings in your user config folder)",
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="draw cards with ASCII letters only (for terminals that mangle suit symbols)",
    )
    parser.add_argument("--seed", type=int, metavar="N", help="deal the first match from this seed")
    parser.add_argument(
        "--debug",
        action="store_true",
        help="on an unexpected error, show its traceback here (else it goes to errors.log)",
    )


def run(args: argparse.Namespace) -> int:
    import sys

    from unotable.terminal import SCRIPTED_USE, terminal_problem

    problem = terminal_problem()
    if problem:
        print(f"unotable: {problem} ({SCRIPTED_USE})", file=sys.stderr)
        return 1
    from pathlib import Path

    from unotable.app.main import UnoTableApp

    data_dir = Path(args.data_dir) if args.data_dir else None
    app = UnoTableApp(
        data_dir=data_dir,
        ascii_cards=bool(args.ascii),
        seed=args.seed,
        resume=bool(args.resume),
        debug=bool(getattr(args, "debug", False)),
    )
    app.run()
    return app.return_code or 0
