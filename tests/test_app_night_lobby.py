"""The lobby at 80 columns: option values in words, never cut, never identifiers
(issue 27, item 7)."""

from __future__ import annotations

from typing import Any

from test_app_support import make_app, screen_text, until
from textual.widgets import OptionList

from unotable.app.screens.lobby import LobbyScreen
from unotable.app.widgets.cycle import Cycle


async def lobby_on(pilot: Any, game: str) -> LobbyScreen:
    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.filled, "the lobby"
    )
    lobby: LobbyScreen = app.screen
    games = lobby.query_one("#games", OptionList)
    ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
    games.highlighted = ids.index(game)
    await until(pilot, lambda: lobby.game_id == game and lobby.query("#options Cycle"), "options")
    return lobby


async def test_moon_scoring_reads_in_words_and_fits_80_columns() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await lobby_on(pilot, "uno-hearts")
        cycle = next(c for c in lobby.query(Cycle) if (c.id or "").endswith("-moon_mode"))
        cycle.scroll_visible(animate=False)
        seen = []
        for _ in cycle.choices:
            await pilot.pause()
            text = screen_text(app)
            label = cycle.choices[cycle.index][0]
            assert f"◂ {label} ▸" in text, label  # whole, arrows and all
            seen.append(label)
            cycle.action_step(1)
        assert seen == ["shooter picks", "+20 to others", "−20 to shooter"]
        text = screen_text(app)
        for name in ("shooter_choice", "others_plus_20", "self_minus_20", "_"):
            assert name not in text, name
