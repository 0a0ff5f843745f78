"""A table that opens over a lobby still filling in leaves the rest of the lobby for later.

Beneath a table, the lobby's seats and options were mounted, styled and laid out for
nothing: as much work as opening the table itself (``--resume`` opens it at once). The
lobby fills in when it shows again, and is then the whole lobby: seats, options, saved
matches, keys that work.
"""

from __future__ import annotations

from pathlib import Path

from test_app_saving import app_in, lobby_ready, wait_for
from test_app_support import controller, make_app, settle

from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.table import TableScreen
from unotable.store.matches import match_path, new_match_id
from unotable.store.saves import MatchRecord, SeatRecord, dumps


def the_lobby(app: object) -> LobbyScreen:
    return next(s for s in app.screen_stack if isinstance(s, LobbyScreen))  # type: ignore[attr-defined]


async def back_to_the_lobby(pilot: object) -> LobbyScreen:
    await pilot.press("q")  # type: ignore[attr-defined]
    dialog = await wait_for(pilot, ChoiceScreen)
    dialog.dismiss("lobby")
    return await lobby_ready(pilot)


def options_shown(lobby: LobbyScreen) -> int:
    return len(lobby.query("#options > *"))


async def test_a_resumed_match_opens_over_a_lobby_that_fills_in_when_shown(
    tmp_path: Path,
) -> None:
    seats = [SeatRecord("Ann", "human"), SeatRecord("Bob", "normal")]
    path = match_path(tmp_path, new_match_id())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(MatchRecord("uno", {}, seats, seed=5, actions=[])), encoding="utf-8")
    app = app_in(tmp_path, resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, TableScreen)
        await settle(pilot)
        lobby = the_lobby(app)
        assert not lobby.filled and not lobby.query(".seat-row"), "filled beneath the table"
        lobby = await back_to_the_lobby(pilot)
        await pilot.pause()
        assert len(lobby.query(".seat-row")) == lobby.seat_count
        assert options_shown(lobby) > 0
        assert lobby.query_one("#continue").display  # the match just left can be continued
        await pilot.press("enter", "enter")  # the game list has the keys: a new match starts
        # (a dialog may be up above its table already: a first card that is a Wild)
        for _ in range(100):
            await pilot.pause()
            if any(isinstance(s, TableScreen) for s in app.screen_stack):
                break
        else:
            raise AssertionError("no table after Enter, Enter in the lobby")


async def test_a_table_opened_at_once_leaves_the_lobbys_options_for_later() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match(controller("uno", ["human", "random", "random"]))
        await wait_for(pilot, TableScreen)
        await settle(pilot)
        assert options_shown(the_lobby(app)) == 0
        lobby = await back_to_the_lobby(pilot)
        await pilot.pause()
        assert options_shown(lobby) > 0
        assert app.focused is lobby.query_one("#games")
