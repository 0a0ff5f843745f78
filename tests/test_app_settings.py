"""The Settings dialog: each setting is a one-line chooser (◂ Normal ▸) showing its value in
words, changed from the keyboard or with a click and saved at once. Not Textual's Select,
whose dropdown raised on keys typed before it was laid out (issue 26)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_app_support import make_app, screen_text, until
from textual import events

from unotable.app.main import UnoTableApp
from unotable.app.prefs import theme_names
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


async def open_settings(pilot: Any) -> SettingsScreen:
    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.filled, "the lobby"
    )
    await pilot.press("o")
    await until(
        pilot,
        lambda: isinstance(app.screen, SettingsScreen) and app.focused is not None,
        "the settings",
    )
    return app.screen


def focused_id(app: Any) -> str | None:
    return app.focused.id if app.focused is not None else None


async def test_settings_are_changed_from_the_keyboard_and_saved(data_dir: Path) -> None:
    app = UnoTableApp()
    async with app.run_test(size=(100, 30)) as pilot:
        settings = await open_settings(pilot)
        assert settings.query(Cycle) and focused_id(app) == "theme"
        text = screen_text(app)
        assert "◂ Standard colours ▸" in text and "◂ Normal ▸" in text
        assert "◂ Suit symbols ♠ ♥ ♦ ♣ ▸" in text

        await pilot.press("down")  # ↓ ↑ move between the settings
        await until(pilot, lambda: focused_id(app) == "speed", "on the speed")
        await pilot.press("right")
        await until(pilot, lambda: app.prefs.speed == "fast", "the speed goes up")
        await pilot.press("down", "space")
        await until(pilot, lambda: app.prefs.card_style == "ascii", "ASCII cards")
        await until(
            pilot, lambda: "◂ ASCII letters S H D C ▸" in screen_text(app), "shown in words"
        )
        await pilot.press("up", "up", "left")  # from the first theme back to the last
        last = theme_names()[-1]
        await until(pilot, lambda: app.prefs.theme == last, "the theme goes round")
        await until(pilot, lambda: app.theme == last, "the theme is applied")

        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "closed")
    saved = json.loads((data_dir / "settings.json").read_text())
    assert (saved["theme"], saved["speed"], saved["card_style"]) == (last, "fast", "ascii")


async def test_a_click_changes_a_setting() -> None:
    app = make_app()  # instant computers
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        assert await pilot.click("#speed")
        await until(pilot, lambda: app.prefs.speed == "slow", "the speed goes round")
        assert "◂ Slow ▸" in screen_text(app)
        assert await pilot.click("#close")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "closed")


async def test_keys_typed_faster_than_settings_are_drawn_are_taken() -> None:
    # Textual's Select opened its dropdown on Enter and raised on PgDn that came before the
    # dropdown was laid out; here each burst of keys is queued before any is handled
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        for burst in (["enter", "pagedown"], ["down", "enter", "pageup"], ["up", "end"]):
            for key in burst:
                event = events.Key(key, None)
                event.set_sender(app)
                app._driver.send_message(event)
            for _ in range(2):
                await pilot._wait_for_screen()  # every key queued is handled
            assert isinstance(app.screen, SettingsScreen) and app._exception is None
        await until(pilot, lambda: app.prefs.speed == "slow", "the keys reached the dialog")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "closed")


async def test_two_quick_theme_changes_settle_on_the_second() -> None:
    # Textual tells of each theme change later; a stale word of the first put it back, the
    # second's put that back, and so on forever (a key storm found it)
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_settings(pilot)
        for key in ["right", "right"]:  # both queued before either is handled
            event = events.Key(key, None)
            event.set_sender(app)
            app._driver.send_message(event)
        second = theme_names()[2]
        settled = lambda: app.theme == second and app.prefs.theme == second  # noqa: E731
        await until(pilot, settled, "the second theme")
        for _ in range(10):
            await pilot.pause()
            assert settled(), (app.theme, app.prefs.theme)
