"""The app's own work to open: Python function calls and CPU, headless, in one process.

    python bench/app_work.py [--runs 10] [--seats 4]

Two openings, each run ``--runs`` times after one that is not counted (the first start of a
process imports and fills caches, as a session launcher's warm-up does before any fork):

- the lobby: an app started until its seats and options are in;
- a table at once: an app that opens a match's table as soon as it runs (as ``--resume``
  does, and most app tests), until the table has drawn its first snapshot.

Calls are counted by cProfile and vary little from run to run, where CPU time on a shared
machine varies by a third; CPU is measured on runs of their own, without the profiler.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.table import TableScreen
from unotable.controller import Controller, Seat, VirtualClock

SIZE = (80, 24)
STEPS = 500  # pauses of the app's loop: far more than either opening takes


def new_app() -> UnoTableApp:
    return UnoTableApp(use_store=False, prefs=Prefs(speed="instant"))


async def until(pilot: Any, done: Callable[[], bool]) -> None:
    for _ in range(STEPS):
        if done():
            return
        await pilot.pause()
    raise RuntimeError("the app never got there")


async def open_lobby(seats: int) -> None:
    app = new_app()
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: getattr(app.screen, "filled", False))


async def open_table(seats: int) -> None:
    app = new_app()
    kinds = ["human"] + ["random"] * (seats - 1)
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]
    controller = Controller(
        "uno", [Seat(names[i], k) for i, k in enumerate(kinds)], None, 1, clock=VirtualClock()
    )
    async with app.run_test(size=SIZE) as pilot:
        app.start_match(controller)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)


def measure(opening: Callable[[int], Awaitable[None]], seats: int, runs: int) -> tuple[int, float]:
    """(median calls, median CPU seconds) of ``runs`` openings after one not counted."""
    asyncio.run(opening(seats))
    calls = []
    for _ in range(runs):
        profile = cProfile.Profile()
        profile.enable()
        asyncio.run(opening(seats))
        profile.disable()
        calls.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
    cpu = []
    for _ in range(runs):
        start = time.process_time()
        asyncio.run(opening(seats))
        cpu.append(time.process_time() - start)
    return int(statistics.median(calls)), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="counted openings of each kind")
    parser.add_argument("--seats", type=int, default=4, help="seats at the table (2-8)")
    args = parser.parse_args()
    print(f"app openings, median of {args.runs}, {SIZE[0]}x{SIZE[1]}, headless")
    print("| opening | Python calls | CPU |")
    print("|---|---|---|")
    for name, opening in (("the lobby", open_lobby), ("a table at once", open_table)):
        calls, cpu = measure(opening, args.seats, args.runs)
        print(f"| {name} | {calls:,} | {cpu * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
