"""A fifth game, registered from here, plays a whole hand everywhere a match is played.

The Crazy Eights of test_game_facts.py gets an engine spec, a minimal presentation and
no strategy of its own (so the generic one): `sim`, the runner and the table screen
must play it with nothing under unotable/ changed for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from rich.text import Text
from test_app_support import (
    controller,
    make_app,
    own_turn,
    play_one,
    screen_text,
    settle,
    start,
    until,
)
from test_game_facts import EIGHTS

from unotable.ai.strategies import GENERIC, strategy_for
from unotable.app.games import (
    GamePresentation,
    game_titles,
    register_presentation,
    unregister_presentation,
)
from unotable.app.screens.help import KeysScreen, RulesScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.table import TableScreen
from unotable.controller import Controller, Runner, Seat, VirtualClock
from unotable.engine import GameSpec, game_ids, register_game, unregister_game

SUIT_KEYS = {"C": "suit-black", "D": "suit-red", "H": "suit-red", "S": "suit-black"}


class EightsPresentation(GamePresentation):
    """Only what the base class leaves abstract: faces, the status line and the pile."""

    game_id: ClassVar[str] = EIGHTS.id
    title: ClassVar[str] = "Crazy Eights"

    def label(self, card: Any) -> str:
        return str(card.text)

    def colour_key(self, card: Any) -> str:
        return "wild" if card.wild else SUIT_KEYS[card.color]

    def letter_colour_key(self, letter: str) -> str:
        return SUIT_KEYS.get(letter, "wild")

    def sort_key(self, card: Any, by: str) -> tuple[int, ...]:
        key = ("CDHS".index(card.color), card.rank)
        return key if by == "suit" else key[::-1]

    def suit_word(self, letter: str | None) -> str:
        return "" if letter is None else letter

    def status(self, view: Any, name: str, uno_marked: bool) -> str:
        return f"Your turn, {name}: match {view.suit} or {view.top.rank}, or D to draw."

    def centre(self, view: Any, names: Any, width: int) -> tuple[str, Text]:
        return f"Hand {view.hand_number}", Text(f" Pile: {view.top.text}, suit {view.suit}")


@pytest.fixture
def eights() -> Iterator[GameSpec]:
    register_game(EIGHTS)
    register_presentation(EIGHTS.id, EightsPresentation)
    yield EIGHTS
    unregister_presentation(EIGHTS.id)
    unregister_game(EIGHTS.id)


def test_the_fifth_game_uses_only_the_registries(eights: GameSpec) -> None:
    assert eights.id in game_ids() and game_titles()[eights.id] == "Crazy Eights"
    assert strategy_for(eights.id) is GENERIC


def test_sim_plays_a_registered_game(eights: GameSpec, capsys: Any) -> None:
    import json

    from unotable.cli import main

    argv = ["sim", eights.id, "--players", "3", "--games", "2", "--seed", "3"]
    argv += ["--ai", "random,normal,hard", "--option", "target=60", "--json"]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["game"], result["games"]) == (eights.id, 2)
    assert result["hands"] >= 2 and result["decisions"] > result["hands"]
    assert sum(s["wins"] for s in result["seats"]) >= 2


def test_sim_still_refuses_an_unknown_game(capsys: Any) -> None:
    from unotable.cli import main

    assert main(["sim", EIGHTS.id, "--json"]) == 2
    assert "unknown game" in capsys.readouterr().err


def test_the_runner_plays_a_registered_game_to_its_end(eights: GameSpec) -> None:
    seats = [Seat(f"Seat {i + 1}", level) for i, level in enumerate(("easy", "normal", "hard"))]
    ctrl = Controller(eights.id, seats, {"target": 60}, 9, clock=VirtualClock(), speed="instant")
    Runner(ctrl).run()
    assert ctrl.over and ctrl.match.winners
    assert ctrl.hand_results and max(ctrl.match.scores) >= 60


async def test_the_table_screen_plays_a_hand_of_a_registered_game(eights: GameSpec) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        table = await start(pilot, controller(eights.id, ["human", "normal", "easy"], seed=2))
        assert table.game_id == eights.id
        await own_turn(pilot)
        # the panels and pages every game has: tracker, hint, log, keys, rules
        await pilot.press("k", "h", "g")
        await settle(pilot)
        assert "Hint:" in screen_text(pilot.app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, KeysScreen), "the keys")
        await pilot.press("escape", "f1")
        await until(pilot, lambda: isinstance(pilot.app.screen, RulesScreen), "the rules")
        assert "Crazy Eights" in screen_text(pilot.app)
        await pilot.press("escape")
        for _ in range(300):
            screen = await settle(pilot)
            if isinstance(screen, ScoreboardScreen):
                break
            if isinstance(screen, TableScreen) and screen.snap.over:
                break
            await play_one(pilot)
        else:
            raise AssertionError("the hand never ended")
        assert isinstance(pilot.app.screen, ScoreboardScreen)
        assert table.snap.view.hand_number == 1 and table.snap.hand_over


async def test_the_lobby_lists_a_registered_game_once_it_fills(eights: GameSpec) -> None:
    from textual.widgets import OptionList, Static

    from unotable.app.screens.lobby import LobbyScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await until(
            pilot,
            lambda: isinstance(pilot.app.screen, LobbyScreen) and pilot.app.screen.filled,
            "the lobby filled",
        )
        lobby = pilot.app.screen
        games = lobby.query_one("#games", OptionList)
        ids = [games.get_option_at_index(i).id for i in range(games.option_count)]
        assert ids == list(game_ids())
        games.highlighted = ids.index(eights.id)
        await until(pilot, lambda: lobby.game_id == eights.id, "the game picked")
        desc = lobby.query_one("#game-desc", Static)
        await until(pilot, lambda: str(desc.render()) == eights.description, "its description")
