"""Without colour (NO_COLOR) the pass-three dialog still shows which cards are marked
(issue 27, item 6)."""

from __future__ import annotations

import pytest
from test_app_dialogs import with_deal
from test_app_support import controller, make_app, screen_text, settle, start

from unotable.app.screens.passing import PassCardsScreen


async def test_marked_cards_read_as_chosen_without_colour(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    ctrl = with_deal(
        controller("uno-hearts", ["human", "first", "first"], seed=1, pass_three=True),
        hands=[["Y5", "Y6", "Y7"], ["P1", "Y1", "Y2"], ["P2", "Y3", "Y4"]],
        dealer=2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        assert isinstance(await settle(pilot), PassCardsScreen)
        assert app.no_color
        await pilot.press("down", "space")  # the second card: Y6
        await pilot.pause()
        rows = [line for line in screen_text(app).splitlines() if "▐X▌" in line]
        marked = [line for line in rows if "chosen" in line]
        assert len(rows) == 3 and len(marked) == 1 and " Y6 " in marked[0], rows
        await pilot.press("space")  # unmarked again
        await pilot.pause()
        assert "[chosen]" not in screen_text(app)
