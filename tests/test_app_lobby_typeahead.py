"""Keys typed while the lobby fills in (its seats and options come just after its first
frame) act once it has, in order, instead of doing nothing: a player who types ahead over
SSH, or presses a key the moment the lobby shows, is not ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_app_support import make_app, screen_text
from textual import events

from unotable.app.screens.lobby import MAX_TYPED_AHEAD, LobbyScreen
from unotable.app.screens.shared import SharedTablesScreen


async def until_shown(pilot: object, done: object, what: str) -> None:
    for _ in range(200):
        if done():  # type: ignore[operator]
            return
        await pilot.pause()  # type: ignore[attr-defined]
    raise AssertionError(f"{what} never came:\n{screen_text(pilot.app)}")  # type: ignore[attr-defined]


async def test_a_key_typed_while_the_lobby_fills_in_acts_once_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    app.tables_socket = str(tmp_path / "tables.sock")  # served: J lists the shared tables
    # (a served player starts at the list; here the lobby is the first screen, as for a
    # player who went back to it)
    monkeypatch.setattr(app, "_open_shared_tables_first", lambda: None)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and not lobby.filled  # still filling in
        await pilot.press("j")  # needs the lobby's seats and options: it used to do nothing
        await until_shown(
            pilot, lambda: isinstance(app.screen, SharedTablesScreen), "the Shared tables list"
        )


async def test_keys_typed_ahead_act_in_the_order_they_were_typed() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and not lobby.filled
        await pilot.press("plus", "plus", "minus")  # 4 seats, 5, 6, then 5
        await until_shown(pilot, lambda: lobby.filled and lobby.seat_count == 5, "5 seats")


async def test_a_flood_of_keys_while_the_lobby_fills_in_is_not_all_kept() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen) and not lobby.filled
        for _ in range(5 * MAX_TYPED_AHEAD):  # as the app hands them on, before any await
            assert lobby.holds(events.Key("down", None))
        assert len(lobby._typed_ahead) == MAX_TYPED_AHEAD
        await until_shown(pilot, lambda: lobby.complete, "the whole lobby")
        assert lobby._typed_ahead == []  # replayed, then let go
        await pilot.press("o")  # and the lobby still answers
        await until_shown(pilot, lambda: app.screen is not lobby, "Settings")
