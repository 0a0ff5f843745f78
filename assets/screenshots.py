"""Regenerate the README's screenshots (SVG exported by Textual) into this folder.

Run: .venv/bin/python assets/screenshots.py
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.table import TableScreen
from unotable.controller import Controller, Seat
from unotable.engine import get_game

HERE = Path(__file__).resolve().parent
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]


def seats(kinds: list[str]) -> list[Seat]:
    return [Seat(NAMES[i], kind) for i, kind in enumerate(kinds)]


async def waiting_for_human(pilot: Any) -> None:
    app = pilot.app
    for _ in range(2000):
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return
        if screen.acting_human() is not None and not screen._dialog_open:
            return


async def shoot(
    name: str, size: tuple[int, int], controller: Controller | None = None, keys: str = ""
) -> None:
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="instant"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        if controller is not None:
            app.start_match(controller)
            await waiting_for_human(pilot)
        for key in keys:
            await pilot.press(key)
            await waiting_for_human(pilot)
        app.save_screenshot(str(HERE / f"{name}.svg"))


async def main() -> None:
    await shoot("lobby", (80, 24))
    computers = ["human", "normal", "normal", "normal"]
    await shoot("table-uno", (80, 24), Controller("uno", seats(computers), None, 7))
    eight = ["human"] + ["normal"] * 7
    await shoot("table-uno-hearts", (120, 40), Controller("uno-hearts", seats(eight), None, 7))
    await shoot(
        "table-wild-twist", (80, 24), Controller("wild-twist-hearts", seats(computers), None, 3)
    )
    two = seats(["human", "human", "normal"])
    await shoot("handover", (80, 24), Controller("uno", two, None, 7))
    # A one-card deal, so the scoreboard comes after a single play.
    short = Controller("uno", seats(["human", "normal", "normal"]), None, 1)
    short.match = get_game("uno").from_deal(
        3, seed=1, hands=[["R7"], ["G1", "G2"], ["B1", "B2"]], first_discard="R5", dealer=2
    )
    await shoot("scoreboard", (80, 24), short, keys="1")


if __name__ == "__main__":
    asyncio.run(main())
