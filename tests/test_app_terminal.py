"""Terminal matters: too small, quitting, themes, ASCII cards, NO_COLOR."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_app_support import controller, make_app, screen_text, settle, start, until

from unotable.app.games import presentation_for
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.table import TableScreen
from unotable.engine import get_game


async def test_too_small_shows_a_notice_and_the_match_waits() -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "first", "first", "first"], seed=2)
    async with app.run_test(size=(70, 20)) as pilot:
        await start(pilot, ctrl)
        await until(pilot, lambda: "too small" in screen_text(app), "no notice")
        moves = len(ctrl.match.history)
        for _ in range(20):  # the computers would have played on by now, were it not paused
            await pilot.pause()
        assert len(ctrl.match.history) == moves  # paused, not playing on unseen
        await pilot.resize_terminal(80, 24)
        table = await settle(pilot)
        assert isinstance(table, TableScreen)
        assert "too small" not in screen_text(app)
        assert table.acting_human() == 0


async def test_quit_asks_first_and_escape_keeps_playing() -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "first"], seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("2")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "not back in the lobby")


def test_ascii_cards_and_monochrome_keep_every_colour_letter() -> None:
    twist = get_game("wild-twist-hearts").parse_card("QS")
    assert presentation_for("wild-twist-hearts", ascii_only=True).label(twist) == "QS"
    assert presentation_for("wild-twist-hearts").label(twist) == "Q♠"
    uno = get_game("uno").parse_card("R+2")
    mono = presentation_for("uno", "monochrome")
    chip = mono.text(uno)
    assert "R+2" in chip.plain
    assert chip.style.color is None and chip.style.bgcolor is None  # no colour at all
    blind = presentation_for("uno", "colour-blind").style(uno)
    assert blind.bgcolor is not None and blind.bgcolor.name == "#d55e00"


async def test_settings_change_the_cards_at_once() -> None:
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="instant"), ascii_cards=False)
    ctrl = controller("wild-twist-hearts", ["human", "first", "first", "first"], seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        assert "♠" in screen_text(app) or "♥" in screen_text(app) or "♣" in screen_text(app)
        app.prefs.card_style = "ascii"
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        table.draw(table.snap)
        await pilot.pause()
        assert not any(symbol in screen_text(app) for symbol in "♠♥♦♣")


def test_no_color_means_monochrome_cards(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    assert app.no_color
    assert app.card_theme == "monochrome"


async def test_ctrl_c_in_a_dialog_asks_and_can_leave() -> None:
    from test_app_dialogs import key_for, with_deal

    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["W", "B3"], ["G1", "G2"]],
        first_discard="R5",
        dealer=1,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press(key_for(table, "W"))  # the Wild: a colour dialog opens
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app.screen.has_class("quit-dialog")
        await pilot.press("2")  # back to the lobby
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "not back in the lobby")
        assert table not in app.screen_stack


async def test_an_option_that_is_off_shows_no_mark() -> None:
    """On or off must not rest on colour alone (monochrome, NO_COLOR)."""
    from textual.app import App

    from unotable.app.widgets.toggle import Toggle

    class One(App[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield Toggle("Shoot the moon", False)

    app = One()
    async with app.run_test(size=(40, 3)) as pilot:
        toggle = app.query_one(Toggle)
        assert "X" not in str(toggle.render())
        toggle.value = True
        await pilot.pause()
        assert "X" in str(toggle.render())


def test_the_lobby_lists_the_engines_games_by_their_names() -> None:
    # The lobby's first frame shows its own table of titles; it must match the engine's.
    from unotable.app.screens.lobby import GAME_TITLES
    from unotable.engine import GAME_IDS

    assert tuple(GAME_TITLES) == GAME_IDS
    assert [GAME_TITLES[g] for g in GAME_IDS] == [get_game(g).name for g in GAME_IDS]


def test_the_lobby_frame_needs_no_engine_store_or_controller() -> None:
    import subprocess
    import sys

    probe = (
        "import sys, unotable.cli, unotable.app.launch, unotable.app.main, "
        "unotable.app.screens.lobby; print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    modules = result.stdout.split()
    assert "unotable.app.screens.lobby" in modules
    heavy = ("unotable.engine", "unotable.store", "unotable.controller", "unotable.ai")
    assert [m for m in modules if m.startswith(heavy)] == []


async def test_saved_settings_apply_once_the_lobby_fills(tmp_path: Path) -> None:
    from unotable.app.prefs import save_prefs

    setup = {"game": "uno-hearts", "seats": [["Ann", "human"], ["Bo", "easy"]] * 2}
    assert save_prefs(Prefs(theme="monochrome", last_setup=setup), tmp_path) is None
    app = UnoTableApp(data_dir=tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause()
            lobby = app.screen
            if isinstance(lobby, LobbyScreen) and lobby.filled:
                break
        assert isinstance(lobby, LobbyScreen) and lobby.filled
        await pilot.pause()
        assert app.prefs.theme == "monochrome"
        assert app._mono_filter is not None  # the filter is on, as when set in Settings
        assert lobby.game_id == "uno-hearts"
        assert [(s.name, s.kind) for s in lobby.seats()] == [
            ("Ann", "human"),
            ("Bo", "easy"),
            ("Ann", "human"),
            ("Bo", "easy"),
        ]
