"""The app's own work to open, and to play: Python function calls and CPU, headless, in
one process.

    python bench/app_work.py [--runs 10] [--seats 4] [--moves 300]

Three pieces of work, each run ``--runs`` times after one that is not counted (the first
start of a process imports and fills caches, as a session launcher's warm-up does before
any fork):

- the lobby: an app started until its seats and options are in;
- a table at once: an app that opens a match's table as soon as it runs (as ``--resume``
  does, and most app tests), until the table has drawn its first snapshot;
- moves: that table played for ``--moves`` moves (one human, who plays the first card
  that plays, draws otherwise, and answers every dialog with its first choice, and random
  computers), less the opening; printed per move, with the screen's layouts in all.

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
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import NUMBER_KEYS, HandView
from unotable.controller import Controller, Seat, VirtualClock

SIZE = (80, 24)
STEPS = 500  # pauses of the app's loop: far more than either opening takes (or a move)
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]


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
    controller = Controller(
        "uno", [Seat(NAMES[i], k) for i, k in enumerate(kinds)], None, 1, clock=VirtualClock()
    )
    async with app.run_test(size=SIZE) as pilot:
        app.start_match(controller)
        await until(pilot, lambda: isinstance(app.screen, TableScreen) and app.screen.is_mounted)


async def play(seats: int, moves: int) -> int:
    """Open a table at once and play it for ``moves`` moves; the screen's layouts."""
    from textual.screen import Screen

    app = new_app()
    kinds = ["human"] + ["random"] * (seats - 1)
    controller = Controller(
        "uno", [Seat(NAMES[i], k) for i, k in enumerate(kinds)], {"target": 10_000}, 5,
        clock=VirtualClock(),
    )  # fmt: skip
    layouts = [0]
    laid_out = Screen._refresh_layout

    def counted(screen: Any, *args: Any, **kwargs: Any) -> None:
        layouts[0] += 1
        laid_out(screen, *args, **kwargs)

    Screen._refresh_layout = counted  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.start_match(controller)
            await until(pilot, lambda: isinstance(app.screen, TableScreen))
            for _ in range(STEPS * moves):
                if len(controller.match.history) >= moves:
                    return layouts[0]
                await decide(pilot, app.screen)
    finally:
        Screen._refresh_layout = laid_out  # type: ignore[method-assign]
    raise RuntimeError("the match never got there")


async def decide(pilot: Any, screen: Any) -> None:
    """The human's next key, if the app waits for one."""
    await pilot.pause()
    if isinstance(screen, ChoiceScreen):
        await pilot.press("1")
    elif not isinstance(screen, TableScreen):
        await pilot.press("enter")  # the hand's results
    elif screen.snapshot is not None and screen.snap.my_turn:
        hand = screen.query_one(HandView)
        playable = sorted(i for i in hand.playable if i < len(NUMBER_KEYS))
        await pilot.press(NUMBER_KEYS[playable[0]] if playable else "d")


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
    parser.add_argument("--moves", type=int, default=300, help="moves played at the table")
    args = parser.parse_args()
    print(f"app work, median of {args.runs}, {args.seats} seats, {SIZE[0]}x{SIZE[1]}, headless")
    print("| work | Python calls | CPU |")
    print("|---|---|---|")
    opened = {}
    for name, opening in (("the lobby", open_lobby), ("a table at once", open_table)):
        opened[name] = calls, cpu = measure(opening, args.seats, args.runs)
        print(f"| {name} | {calls:,} | {cpu * 1000:.0f} ms |")
    layouts: list[int] = []

    async def moves(seats: int) -> None:
        layouts.append(await play(seats, args.moves))

    calls, cpu = measure(moves, args.seats, args.runs)
    calls -= opened["a table at once"][0]
    cpu -= opened["a table at once"][1]
    print(
        f"| a move (of {args.moves}; layouts of the screen in all: "
        f"{statistics.median(layouts):.0f}) | {calls / args.moves:,.0f} | "
        f"{cpu / args.moves * 1000:.1f} ms |"
    )


if __name__ == "__main__":
    main()
