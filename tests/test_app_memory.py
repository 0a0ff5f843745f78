"""A session lets go of what it does not need (issue #30): the drawing of screens nobody
sees, and freed memory the C heap still holds."""

from __future__ import annotations

from test_app_support import controller, drawn, make_app, screen_text, settle, start, until
from textual.screen import Screen

from unotable.app.memory import give_back_freed_memory, seen_screens
from unotable.app.screens.help import RulesScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.settings import SettingsScreen
from unotable.app.screens.table import TableScreen


def drawn_lines(screen: Screen[object]) -> int:
    """Rendered lines Textual keeps for the widgets of ``screen``."""
    return sum(len(w._styles_cache._cache) for w in screen.walk_children(with_self=True))


async def test_a_covered_lobby_keeps_no_drawing_and_comes_back_the_same() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "complete", False), "the lobby")
        await settle(pilot)
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        before = screen_text(app)
        assert drawn_lines(lobby) > 0
        await pilot.press("f1")  # the rules: a whole screen over the lobby
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
        await drawn(pilot)
        assert drawn_lines(lobby) == 0
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "the lobby again")
        await drawn(pilot)
        assert screen_text(app) == before


async def test_a_dialog_keeps_the_table_it_shows_dimmed_beneath() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, controller("uno", ["human", "random"], seed=3))
        await settle(pilot)
        lobby = app.screen_stack[0]
        assert drawn_lines(table) > 0
        assert drawn_lines(lobby) == 0  # under the table, nobody sees it
        await pilot.press("o")  # Settings: a dialog over the table
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")
        await drawn(pilot)
        assert seen_screens(app.screen_stack) == [app.screen, table]
        assert drawn_lines(table) > 0
        assert isinstance(table, TableScreen)


def test_freed_memory_is_given_back_on_linux() -> None:
    # glibc's malloc_trim is found and called; elsewhere the call says it could not
    import platform

    assert give_back_freed_memory() is (platform.libc_ver()[0] == "glibc")
