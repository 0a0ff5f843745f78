"""Placeholder: 'serve' is being built."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    print("unotable serve: not available yet")
    return 2
