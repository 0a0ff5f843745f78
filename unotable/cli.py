"""Command line: ``unotable`` opens the table; subcommands run headless tools.

Each subcommand lives in its own module with ``configure(parser)`` and ``run(args)``;
modules are imported only when their command runs, so start-up stays fast.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from typing import NoReturn

# subcommand -> (module, one-line help)
SUBCOMMANDS = {
    "sim": ("unotable.sim", "play complete matches headless and print a summary"),
    "replay": ("unotable.replay", "step through a saved match"),
    "serve": ("unotable.serve", "host the table over SSH or in a browser"),
    "paths": ("unotable.locations", "print where settings, saves and logs are kept"),
}
APP_MODULE = "unotable.app.launch"

# kept here too: the tests and other programs found them in cli first


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit status 2, never a traceback."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(argv: list[str] | None = None) -> Parser:
    """The parser; only the subcommand named in ``argv`` (if any) is configured in full."""
    parser = Parser(prog="unotable", description="A terminal card table for UNO and Hearts.")
    parser.add_argument("--version", action=VersionAction)
    import_module(APP_MODULE).configure(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    wanted = next((a for a in argv or () if a in SUBCOMMANDS), None)
    for name, (module, help_text) in SUBCOMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        if argv is None or name == wanted:
            import_module(module).configure(sub_parser)
    return parser


class VersionAction(argparse.Action):
    """--version, looked up only when asked for (importlib.metadata is slow to import)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(_version())  # to stdout, as argparse's own version action does
        parser.exit(0)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"unotable {version('unotable')}"
    except PackageNotFoundError:
        return "unotable (not installed)"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    module = SUBCOMMANDS[args.command][0] if args.command else APP_MODULE
    try:
        if args.command == "replay" and args.text:
            # every step in the table's words: the app has them (replay sits below it)
            from unotable.app.transcript import transcript

            return int(import_module(module).run(args, words=transcript) or 0)
        return int(import_module(module).run(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
