"""Start the app (placeholder until the Textual app lands: runs a headless match)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    from unotable import sim

    return sim.run(sim.parse_defaults(["uno", "--players", "4", "--games", "1"]))
