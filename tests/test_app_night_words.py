"""Person-aware wording: the reader is "you" (issue 27, item 4)."""

from __future__ import annotations

from typing import Any

from test_app_dialogs import with_deal
from test_app_night_lobby import lobby_on
from test_app_support import make_app, screen_text, settle, start, until
from textual.widgets import Input

from unotable.app.games import presentation_for
from unotable.app.games.base import Ask
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.words import Seats
from unotable.controller import Controller, Seat, VirtualClock
from unotable.engine import get_game


def test_the_viewer_and_a_seat_named_you_take_the_second_person() -> None:
    seats = Seats(["Ann", "You", "Cy"], viewer=2)
    assert seats.does(0, "wins") == "Ann wins"
    assert seats.does(1, "wins") == "You win"
    assert seats.does(2, "draws") == "You draw"
    assert seats.object(2) == "you"
    assert seats.all_do([0], "wins") == "Ann wins"
    assert seats.all_do([1], "wins") == "You win"
    assert seats.all_do([0, 2], "wins") == "Ann and You win"


def challenge_words(names: list[str], viewer: int) -> str:
    """The challenge dialog as the challenged player (seat 1) sees it; seat 0 played it."""
    match = get_game("uno").from_deal(
        3,
        {},
        1,
        hands=[["W+4", "R1"], ["R2", "G3"], ["B1", "B2"]],
        first_discard="R5",
        dealer=2,
    )
    match.apply(
        0, next(a for a in match.legal_actions(0) if a.card and a.card.is_wild and a.choice == "G")
    )
    legal = match.legal_actions(1)
    assert {a.kind for a in legal} >= {"challenge"}
    game = presentation_for("uno")
    asked = game.dialog(Ask(match.view(1), legal, Seats(names, viewer), 1))
    assert asked is not None
    return " | ".join([asked.title, *[label for _, label in asked.options], asked.explanation])


def test_the_challenge_names_the_player_who_played_it() -> None:
    words = challenge_words(["Ann", "Bo", "Cy"], viewer=1)
    assert "Challenge Ann" in words
    assert "if you think Ann held a Red card. If so, Ann draws 4" in words
    # a seat named "You" is the reader: never "You draws", never "think You held"
    words = challenge_words(["You", "Bo", "Cy"], viewer=1)
    assert "You draws" not in words and "think You" not in words and "Challenge You" not in words


async def test_you_win_the_match() -> None:
    seats = [Seat("You", "human"), Seat("Bo", "first"), Seat("Cy", "first")]
    ctrl = Controller("uno", seats, {"target": 1}, 1, clock=VirtualClock(), speed="instant")
    ctrl = with_deal(ctrl, hands=[["R7"], ["G1", "G2"], ["B1", "B2"]], first_discard="R5", dealer=2)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "the scoreboard")
        await pilot.pause()
        text = screen_text(app)
        assert "You win the match!" in text
        assert "You wins" not in text


async def test_hot_seat_players_are_asked_their_names_and_they_are_remembered() -> None:
    setup: dict[str, Any] = {
        "game": "uno",
        "seats": [["You", "human"], ["Ada", "human"], ["Ben", "normal"]],
        "options": {},
    }
    app = make_app(last_setup=setup)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await lobby_on(pilot, "uno")
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is lobby  # not started: "You" would be everyone
        assert "Two or more people play: please type a" in screen_text(app)
        field = lobby.query_one("#seat-name-0", Input)
        assert field.has_focus
        await pilot.press(*["backspace"] * 3, "Z", "o", "e")
        lobby.action_start()  # S would type into the name
        await until(pilot, lambda: app.screen is not lobby, "the match started")
        await settle(pilot)
        assert app.prefs.last_setup["seats"][:2] == [["Zoe", "human"], ["Ada", "human"]]
