"""``unotable paths``: where unotable keeps its files, one labelled line each.

Standard library only at the top: the CLI imports this module to build its parser.
"""

from __future__ import annotations

import argparse
from pathlib import Path

NO_LOG = "none (unotable writes no log file; unotable serve logs to stderr)"


def configure(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a subparser's default would replace the root parser's --data-dir
    parser.add_argument(
        "--data-dir",
        metavar="DIR",
        default=argparse.SUPPRESS,
        help="the data folder to describe (as given to unotable --data-dir)",
    )


def locations(data_dir: Path | None = None) -> dict[str, str]:
    """Label -> location: the settings' folder, the data folder, the log."""
    from unotable.store.paths import config_dir, default_data_dir

    data = Path(data_dir).expanduser() if data_dir else default_data_dir()
    return {"config": str(config_dir(data)), "data": str(data), "log": NO_LOG}


def run(args: argparse.Namespace) -> int:
    data_dir = getattr(args, "data_dir", None)
    for label, where in locations(Path(data_dir) if data_dir else None).items():
        print(f"{label}: {where}")
    return 0
