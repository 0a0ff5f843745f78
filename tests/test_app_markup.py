"""Player text is shown as text: names, chat lines and table names that look like Textual
markup ([/x], [bold red], [@click=...]) or are very long reach every surface literally, and
nothing raises (issue 26: one player's name used to crash every other player's list)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from match_driver import played
from test_app_dialogs import with_deal
from test_app_shared import open_shared_tables, serve_tables, until
from test_app_support import make_app, screen_text, settle
from test_tables import connect

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.saved import SavedMatchesScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.shared import SeatPlanScreen, SharedTablesScreen
from unotable.app.screens.stats import StatsScreen
from unotable.app.screens.table import TableScreen
from unotable.controller import Controller, Seat, VirtualClock
from unotable.store import history
from unotable.store.matches import MatchFile, summary_of
from unotable.store.record import SeatRecord

CLOSING, STYLED, CLICK = "[/x]", "[bold red]x", "[@click=app.quit]x"
LONG = "N" * 3000
NASTY = (CLOSING, STYLED, CLICK, LONG)


def shows(app: Any, *texts: str) -> None:
    text = screen_text(app)
    for wanted in texts:
        assert wanted in text, f"{wanted!r} not shown literally in:\n{text}"


def visible(text: str) -> list[str]:
    """What must be on the screen: the long name wraps, so its words are looked for."""
    return ["N" * 40] if LONG in text else [text]


async def shown(pilot: Any, *texts: str) -> None:
    """Waits until every one of ``texts`` is on the screen, as typed."""
    app = pilot.app
    await until(pilot, lambda: all(t in screen_text(app) for t in texts), f"{texts} not shown")


async def test_notifications_show_player_text_literally() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        for text in NASTY:
            app.screen.notify(f"Bo says: {text}", timeout=30)  # Widget.notify asks for markup
            await shown(pilot, *visible(f"Bo says: {text}"))
            app.clear_notifications()
            app.notify(text, title=text[:20], timeout=30)
            await shown(pilot, *visible(text))
            app.clear_notifications()
        assert app.return_code is None  # [@click=app.quit] did not quit


async def test_dialogs_and_hand_over_show_names_literally() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        for name in NASTY:
            app.push_screen(
                ChoiceScreen(name, [("a", name), ("b", "Back")], explanation=f"{name} left.")
            )
            await shown(pilot, *visible(name))
            app.pop_screen()
            app.push_screen(HandOverScreen(name, exposed=name))
            await shown(pilot, *visible(f"Pass to {name}"))
            app.pop_screen()


async def test_saved_matches_list_shows_names_literally(tmp_path: Path) -> None:
    seats = [Seat(CLOSING, "human"), Seat(STYLED, "easy"), Seat(CLICK, "easy"), Seat(LONG, "easy")]
    ctrl = Controller("uno", seats, None, 5, clock=VirtualClock(), speed="instant")
    MatchFile.create(tmp_path).save(ctrl.to_record(), summary_of(ctrl.match))
    app = UnoTableApp(data_dir=tmp_path, prefs=Prefs(speed="instant"))
    async with app.run_test(size=(160, 40)) as pilot:
        app.push_screen(SavedMatchesScreen())
        await until(pilot, lambda: isinstance(app.screen, SavedMatchesScreen), "no list")
        await shown(pilot, f"{CLOSING}, {STYLED}, {CLICK}, NNNN")
        assert app.return_code is None


async def test_stats_show_names_literally(tmp_path: Path) -> None:
    record, match = played("uno", 4, seed=2, options={"target": 40})
    record.seats = [SeatRecord(n, "human") for n in NASTY]
    history.record_finished(record, tmp_path, match)
    app = UnoTableApp(data_dir=tmp_path, prefs=Prefs(speed="instant"))
    async with app.run_test(size=(160, 50)) as pilot:
        app.push_screen(StatsScreen(tmp_path))
        await until(pilot, lambda: isinstance(app.screen, StatsScreen), "no stats")
        await shown(pilot, CLOSING, STYLED, CLICK)


async def test_lobby_seats_panel_and_scoreboard_show_names_literally() -> None:
    # a one-card deal: the hand is over after a single play, and the scoreboard opens.
    # (The human is plain "Ann": the table screen's own hand title and status line are
    # another change, see table.py.)
    seats = [Seat("Ann", "human"), Seat(CLOSING, "first"), Seat(STYLED, "first")]
    everyone = [*seats, Seat(CLICK, "first")]
    ctrl = Controller("uno", everyone, None, 1, clock=VirtualClock(), speed="instant")
    hands = [["R7"], ["G1", "G2"], ["B1", "B2"], ["Y1", "Y2"]]
    ctrl = with_deal(ctrl, hands=hands, first_discard="R5", dealer=3)
    setup = {"game": "uno", "seats": [[n, "human"] for n in NASTY], "options": {}}
    app = make_app(last_setup=setup)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await shown(pilot, "Start")  # the lobby, with the names in its seat fields
        app.start_match(ctrl)
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        await shown(pilot, CLOSING, STYLED[:8])  # the seats panel cuts names to its column
        await pilot.press("1")
        await settle(pilot)
        assert isinstance(app.screen, ScoreboardScreen)
        await shown(pilot, CLOSING, STYLED, CLICK)
        assert app.return_code is None


async def test_shared_tables_list_and_chat_show_names_literally(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table whose seats are named like markup does not crash anyone's list (J), and a
    chat line like markup reaches the table's players as text."""
    service = await serve_tables(tmp_path, monkeypatch)
    squatter = await connect(service, 1)
    seats = [
        {"name": CLOSING, "kind": "human"},
        {"name": "", "kind": "human", "open": True},
        {"name": STYLED, "kind": "easy"},
        {"name": CLICK, "kind": "easy"},
    ]
    await squatter.client.send(
        {"type": "create", "game": "uno", "seats": seats, "name": CLOSING, "options": {}}
    )
    await squatter.until(lambda b: b.snap is not None, play=False)
    setup = {"game": "uno", "seats": [["You", "human"], [LONG[:12], "human"]], "options": {}}
    app = make_app(last_setup=setup)
    try:
        async with app.run_test(size=(140, 40), notifications=True) as pilot:
            await open_shared_tables(pilot)
            clipped = CLICK[:16]  # the server keeps 16 characters of a name
            await until(pilot, lambda: clipped in screen_text(app), "no table listed")
            shows(app, CLOSING, STYLED)
            # the seat plan of a new table names the lobby's seats as typed
            app.screen.setup = {**setup, "seats": [{"name": CLOSING}, {"name": STYLED, "open": 1}]}
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            shows(app, f"2  {STYLED}: open for a friend")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, SharedTablesScreen), "no list")
            await pilot.press("enter")  # sit at the open seat
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            for line in (f"{CLOSING} boom", f"{STYLED} hi", f"{CLICK} click"):  # table.py's
                await squatter.client.send({"type": "chat", "text": line})
                await until(pilot, lambda line=line: line in screen_text(app), f"no {line!r}")
            assert app.return_code is None
    finally:
        await squatter.client.close()
        await service.stop()
        await asyncio.sleep(0)
