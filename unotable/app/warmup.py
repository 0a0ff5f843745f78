"""Run the app once, headless, in the session launcher before it forks any session.

Each session would otherwise work out again what every app start works out: the app's CSS
parsed for the standard theme (kept once per process, see ``stylesheet.py``), and the
caches Textual and Rich fill as a first screen is laid out and drawn. Done in the launcher,
that work is shared with every session it forks (copy-on-write), so a login costs less.
"""

from __future__ import annotations

import asyncio
from typing import Any

WARM_UP_SIZE = (80, 24)
WARM_UP_STEPS = 500  # pauses of the app's loop: far more than a lobby takes to fill in


def open_lobby() -> None:
    """Start an app with no files, let its lobby fill in, and end it; on its own event
    loop, closed after, so the launcher keeps no loop (nor its descriptors) to fork."""
    from .main import UnoTableApp
    from .prefs import Prefs

    async def until_filled(pilot: Any) -> None:
        for _ in range(WARM_UP_STEPS):
            await pilot.pause()
            if getattr(pilot.app.screen, "complete", False):  # seats and options in
                break
        pilot.app.exit()

    app = UnoTableApp(use_store=False, prefs=Prefs())
    loop = asyncio.new_event_loop()
    try:
        app.run(headless=True, size=WARM_UP_SIZE, auto_pilot=until_filled, loop=loop)
    finally:
        loop.close()
