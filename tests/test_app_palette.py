"""The command palette has entries for unotable's own actions (issue 28)."""

from __future__ import annotations

from typing import Any

from test_app_support import controller, make_app, settle, start, until
from textual.command import CommandList, CommandPalette

from unotable.app.screens.help import KeysScreen, RulesScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.settings import SettingsScreen

EVERYWHERE = {"Keys list", "Settings", "Statistics", "Rules: UNO", "Rules: UNO Hearts"}


async def lobby_filled(pilot: Any) -> LobbyScreen:
    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, LobbyScreen) and app.screen.filled, "the lobby"
    )
    return app.screen


def titles(app: Any) -> set[str]:
    return {command.title for command in app.get_system_commands(app.screen)}


async def run_command(pilot: Any, title: str) -> None:
    """Open the palette with its key, type ``title``, and press Enter on it."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    commands = app.screen.query_one(CommandList)
    await pilot.press(*title)

    def listed() -> bool:
        first = commands.get_option_at_index(0) if commands.option_count else None
        return first is not None and str(first.prompt).split("\n")[0] == title

    await until(pilot, listed, f"{title!r} listed first")
    commands.highlighted = 0
    await pilot.press("enter")


async def test_the_lobby_palette_lists_the_apps_actions() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        listed = titles(app)
        assert EVERYWHERE | {"New match", "Rules: Wild Twist Hearts"} <= listed
        assert "Theme" in listed and "Quit" in listed  # Textual's stay
        # no saved match and no server: nothing to continue, no shared tables
        assert not {"Continue", "Saved matches", "Shared tables"} & listed


async def test_a_rules_command_opens_that_games_rules() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        await run_command(pilot, "Rules: UNO Hearts")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules page")
        assert app.screen.game == "uno-hearts"


async def test_new_match_from_the_palette_starts_one() -> None:
    from unotable.app.screens.table import TableScreen

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        await run_command(pilot, "New match")
        await until(
            pilot, lambda: any(isinstance(s, TableScreen) for s in app.screen_stack), "a table"
        )


async def test_at_the_table_the_palette_opens_keys_and_settings() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        table = await start(pilot, controller("uno", ["human", "normal", "normal"]))
        await settle(pilot)
        listed = titles(app)
        assert listed >= EVERYWHERE and "New match" not in listed
        await run_command(pilot, "Keys list")
        await until(pilot, lambda: isinstance(app.screen, KeysScreen), "the keys")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "back at the table")
        await run_command(pilot, "Settings")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "the settings")


async def test_served_players_keep_the_apps_own_commands() -> None:
    app = make_app()
    app.served = True
    async with app.run_test(size=(100, 30)) as pilot:
        await lobby_filled(pilot)
        listed = titles(app)
        assert EVERYWHERE | {"New match"} <= listed
        assert "Screenshot" not in listed  # Textual's file-writing ones stay filtered
