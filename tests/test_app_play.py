"""Playing through the interface with the keyboard only (Textual pilot)."""

from __future__ import annotations

import pytest
from test_app_support import controller, make_app, own_turn, play_one, settle, start, until

from unotable.app.screens.scoreboard import ScoreboardScreen

GAMES = [
    ("uno", 4, 10, {}),
    ("uno-minecraft", 3, 22, {}),
    ("uno-hearts", 4, 5, {"pass_three": True, "shoot_the_moon": True}),
    ("wild-twist-hearts", 4, 5, {"length": 1}),
]


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES)
async def test_a_complete_hand_with_keys_only(
    game: str, players: int, seed: int, options: dict
) -> None:
    app = make_app()
    ctrl = controller(game, ["human"] + ["random"] * (players - 1), seed=seed, **options)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        for _ in range(800):
            screen = await play_one(pilot)
            if isinstance(screen, ScoreboardScreen):
                break
        else:
            raise AssertionError("the hand did not end")
        assert len(ctrl.hand_results) == 1
        humans_moves = [a for s, a in ctrl.match.history if s == 0]
        assert humans_moves, "the human never acted"


async def test_scoreboard_shows_the_finished_hand_and_q_offers_to_leave() -> None:
    from test_app_dialogs import with_deal

    from unotable.app.screens.common import ChoiceScreen

    app = make_app()
    # a one-card deal: the hand is over after the human's single play
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=3, target=500),
        hands=[["R7"], ["G1", "G2"], ["B1", "B2"]],
        first_discard="R5",
        dealer=2,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("1")
        screen = await settle(pilot)
        assert isinstance(screen, ScoreboardScreen)
        # the finished table waits behind the scores: nothing of the next hand is dealt
        assert ctrl.hand_over and ctrl.match.hand_number == 1
        assert "q" in screen.active_bindings
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the leave dialog")
        await pilot.press("1")  # keep playing: the scores come back
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "the scores")
        assert ctrl.hand_over
        await pilot.press("enter")
        await until(pilot, lambda: not ctrl.hand_over, "the next hand")
        assert ctrl.match.hand_number == 2


async def test_back_in_the_lobby_the_game_list_has_the_keys() -> None:
    from unotable.app.screens.lobby import LobbyScreen

    def in_lobby() -> bool:
        return isinstance(app.screen, LobbyScreen)

    def games_focused() -> bool:
        return app.focused is not None and app.focused.id == "games"

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: in_lobby() and app.screen.filled, "the lobby filled in")
        await pilot.press("enter", "enter")  # one human against three computers
        await until(pilot, lambda: not in_lobby(), "the table")
        await own_turn(pilot)
        await pilot.press("q")
        await until(pilot, lambda: app.screen.has_class("quit-dialog"), "the leave dialog")
        await pilot.press("2")  # back to the lobby
        await until(pilot, lambda: in_lobby() and games_focused(), "the game list focused")
        assert isinstance(app.screen, LobbyScreen)
        assert app.focused is not None and app.focused.id == "games"
        await pilot.press("down")  # and the keys move through it
        assert app.focused.id == "games"


async def test_plus_and_minus_change_the_seats_from_the_keyboard() -> None:
    from textual.widgets import Static

    from unotable.app.screens.lobby import LobbyScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, LobbyScreen) and app.screen.filled:
                break
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        start_count = lobby.seat_count
        await pilot.press("plus", "plus")
        assert lobby.seat_count == start_count + 2
        await pilot.press(*["plus"] * 10)  # stops at the game's maximum
        assert lobby.seat_count == lobby.spec.max_players
        await pilot.press(*["minus"] * 10)
        assert lobby.seat_count == lobby.spec.min_players
        await pilot.pause()
        shown = [row for row in lobby.query(".seat-row") if row.display]
        assert len(shown) == lobby.spec.min_players
        message = lobby.query_one("#lobby-message", Static)
        assert f"at least {lobby.spec.min_players} players" in str(message.render())
