"""unotable's themes are Textual themes: the palette, Settings and the settings file offer
the same list, a theme chosen anywhere is kept across restarts, and the cards take the
theme's colours (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_app_support import make_app, until
from textual.command import CommandList, CommandPalette
from textual.theme import BUILTIN_THEMES

from unotable.app.games import presentation_for
from unotable.app.main import UnoTableApp
from unotable.app.prefs import THEMES, Prefs, load_prefs, theme_names
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.settings import SettingsScreen
from unotable.app.widgets.cycle import Cycle
from unotable.store.paths import DATA_DIR_ENV


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder (holding its own settings) from the environment; home untouched."""
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    return tmp_path / "data"


async def lobby_filled(pilot: Any) -> LobbyScreen:
    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.filled, "the lobby"
    )
    return app.screen


def test_every_offered_theme_is_registered() -> None:
    app = make_app()
    assert set(THEMES) <= set(app.available_themes)
    assert set(app.available_themes) == set(theme_names())
    assert set(BUILTIN_THEMES) <= set(theme_names())


async def test_settings_offer_the_palettes_list() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        app.push_screen(SettingsScreen())
        await until(
            pilot,
            lambda: isinstance(app.screen, SettingsScreen) and app.screen.query("#theme"),
            "settings",
        )
        cycle = app.screen.query_one("#theme", Cycle)
        offered = [value for _, value in cycle.choices]
        assert offered == list(theme_names())


async def test_a_theme_from_the_palette_is_kept_across_restarts(data_dir: Path) -> None:
    app = UnoTableApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        assert app.theme == "standard"
        app.action_change_theme()  # the palette's "Theme" command
        await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
        palette = app.screen
        await pilot.press(*"dracula")
        commands = palette.query_one(CommandList)
        await until(
            pilot,
            lambda: (
                commands.option_count == 1
                and "dracula" in str(commands.get_option_at_index(0).prompt)
            ),
            "dracula is listed",
        )
        await pilot.press("enter")
        await until(pilot, lambda: app.prefs.theme == "dracula", "the choice is remembered")
    saved = json.loads((data_dir / "settings.json").read_text())
    assert saved["theme"] == "dracula"

    again = UnoTableApp()
    async with again.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        await until(pilot, lambda: again.theme == "dracula", "the theme is restored")
        assert again.card_theme == "dracula"


def test_an_unknown_theme_in_the_file_falls_back(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"theme": "no-such-theme"}))
    assert load_prefs(tmp_path)[0].theme == "standard"
    (tmp_path / "settings.json").write_text(json.dumps({"theme": "nord"}))
    assert load_prefs(tmp_path)[0].theme == "nord"


def test_cards_take_the_themes_colours() -> None:
    dracula = BUILTIN_THEMES["dracula"]
    cards = presentation_for("uno", "dracula")
    assert cards.palette is not None
    assert cards.palette["red"][0] == dracula.error
    assert cards.palette["green"][0] == dracula.success
    # unotable's own keep their tested palettes; monochrome has none
    assert presentation_for("uno", "colour-blind").palette["red"][0] == "#d55e00"  # type: ignore[index]
    assert presentation_for("uno", "monochrome").palette is None


async def test_monochrome_still_greys_the_screen() -> None:
    app = make_app(theme="monochrome")
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        assert app.theme == "monochrome" and app._mono_filter is not None
        app.theme = "nord"  # as the palette would
        await until(pilot, lambda: app._mono_filter is None, "the grey filter goes")
        assert app.prefs == Prefs(theme="nord", speed="instant")
