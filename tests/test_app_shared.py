"""A shared table in the app: the lobby's Shared tables list, creating one, playing at it
while another client (a second terminal) sits at the same table."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_app_support import make_app, play_one, screen_text
from test_tables import Bot, connect

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.shared import (
    SeatPlanScreen,
    SharedTablesScreen,
    describe_setup,
    table_line,
)
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import HandView
from unotable.store.matches import list_matches
from unotable.tables.service import TableService

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up


async def until(pilot: Any, check: Any, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not check():
        assert loop.time() < deadline, what
        await pilot.pause(0.01)


async def serve_tables(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, seed: int = 1
) -> TableService:
    """A table service, and this process's app told it is served, as Ann, beside it.

    Its tables deal from ``seed``, not a random one: a first card that opens a dialog at
    once (a Wild to choose a colour for) comes on every run or on none."""
    fixed = SimpleNamespace(randbits=lambda _bits: seed, token_hex=secrets.token_hex)
    monkeypatch.setattr("unotable.tables.service.secrets", fixed)
    service = TableService(data_dir, speed="instant", grace=60.0, hand_over_wait=0.0)
    await service.start()
    monkeypatch.setenv("UNOTABLE_SERVED", "1")
    monkeypatch.setenv("UNOTABLE_TABLES", str(service.socket_path))
    monkeypatch.setenv("UNOTABLE_PLAYER", "Ann")
    # a loaded test machine may answer a join slowly; the list's patience is not under test
    monkeypatch.setattr("unotable.app.screens.shared.ANSWER_SECONDS", WAIT)
    return service


async def open_shared_tables(pilot: Any) -> None:
    """The list of the server's shared tables: a served player's first screen (or, from
    the lobby, J)."""
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, SharedTablesScreen)
            or (isinstance(app.screen, LobbyScreen) and app.screen.filled)
        ),
        "neither the list nor the lobby",
    )
    if isinstance(app.screen, LobbyScreen):
        await pilot.press("j")
    await until(pilot, lambda: isinstance(app.screen, SharedTablesScreen), "no list")


async def test_create_a_shared_table_and_play_with_a_second_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    setup = {
        "game": "uno-hearts",
        "seats": [["You", "human"], ["Bo", "human"], ["Cy", "normal"], ["Di", "normal"]],
        "options": {},
    }
    app = make_app(last_setup=setup)
    bo: Bot | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            await until(pilot, lambda: "No shared table yet" in screen_text(app), "empty list")
            await pilot.press("n")  # a new shared table from the lobby's setup
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")  # Bo's seat open for a friend, as it is
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            (table,) = service.tables.values()
            assert [s.name for s in table.seats[:2]] == ["Ann", "Bo"]
            assert table.seats[1].open and not table.started
            await until(pilot, lambda: "Waiting for players" in screen_text(app), "no wait")

            # Bo, in another terminal, finds the table in the list and sits down
            bo = await connect(service, 2)
            await bo.client.send({"type": "list"})
            listed = await bo.client.receive(timeout=WAIT)
            assert listed is not None and listed["tables"][0]["seats"][1]["open"]
            await bo.client.send({"type": "join", "table": table.table_id, "name": "Bo"})
            bo_plays = asyncio.ensure_future(
                bo.until(lambda b: bool(b.snap and b.snap.hand_results))
            )
            await until(pilot, lambda: table.started, "the match did not begin")

            # Ann plays her turns with keys; Bo's cards never reach her screen
            screen = app.screen
            assert isinstance(screen, TableScreen) and screen.shared
            turns = 0
            while not table.controller.match.hand_results:
                await until(
                    pilot,
                    lambda: (
                        screen.acting_human() is not None or table.controller.match.hand_results
                    ),
                    "Ann was never asked",
                )
                if table.controller.match.hand_results:
                    break
                mine = {str(c) for c in table.controller.match.view(0).hand}
                shown = {str(c) for c in screen.query_one(HandView).cards}
                assert shown == mine
                bos = {str(c) for c in table.controller.match.view(1).hand}
                assert not shown & bos
                before = screen.snap.version
                await play_one(pilot)
                turns += 1
                if app.screen is not screen:
                    continue  # a dialog (a wild's colour): answered in the next round

                def moved(before: int = before) -> bool:
                    return screen.snap.version > before or bool(table.controller.match.hand_results)

                await until(pilot, moved, "Ann's card was not played")
            assert turns >= 10
            await asyncio.wait_for(bo_plays, WAIT)
            # an illegal attempt is refused with the reason, nothing sent
            assert screen.snap.undo_refused
            await pilot.press("q")
            await pilot.pause()
            await pilot.press("2")  # back: to the list of shared tables, her seat kept
            await until(pilot, lambda: isinstance(app.screen, SharedTablesScreen), "not back")
            await until(pilot, lambda: table.controller.away(0) is not None, "not away")
            await until(pilot, lambda: "Ann" in screen_text(app), "the table is not listed")
            # and she sits down again at her own seat (her name is her identity here: code)
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "not rejoined")
            assert table.controller.away(0) is None and app.screen.table.seat == 0
    finally:
        if bo is not None:
            await bo.client.close()
        await service.stop()


async def test_a_table_with_no_seat_for_others_is_not_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    app = make_app()  # the default lobby: one human, three computers
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: "no seat for a friend" in screen_text(app), "no reason")
            assert not service.tables
    finally:
        await service.stop()


async def test_hot_seat_players_share_one_terminal_at_a_shared_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ann and Cy play hot-seat at one terminal while Bo joins from his own: the keyboard
    is handed over between Ann and Cy, and each sees only their own cards."""
    service = await serve_tables(tmp_path, monkeypatch)
    setup = {
        "game": "uno",
        "seats": [["You", "human"], ["Cy", "human"], ["Bo", "human"], ["Di", "normal"]],
        "options": {},
    }
    app = make_app(last_setup=setup)
    bo: Bot | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("down", "enter")  # Cy: played here
            assert "Cy: here, at this keyboard" in screen_text(app)
            await pilot.press("home", "enter")  # create the table
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            (table,) = service.tables.values()
            assert table.seats[1].local and not table.seats[1].open
            assert table.seats[2].open and table.free_seats() == [2]
            assert "Cy (hot-seat)" in table_line(table.info(), {})  # as the list shows it

            # nobody else takes a seat played at Ann's terminal, even naming it
            intruder = await connect(service, 3)
            await intruder.client.send({"type": "join", "table": table.table_id, "seat": 1})
            await intruder.until(lambda b: b.refusals, play=False)
            assert "creator's terminal" in intruder.refusals[0]
            await intruder.client.close()

            bo = await connect(service, 2)
            await bo.client.send({"type": "join", "table": table.table_id, "name": "Bo"})
            bo_plays = asyncio.ensure_future(
                bo.until(lambda b: bool(b.snap and b.snap.hand_results))
            )
            await until(pilot, lambda: table.started, "the match did not begin")

            # the table screen, under Ann's hand-over if that came first
            screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
            handed_to: list[str] = []
            turns = {0: 0, 1: 0}
            match = table.controller.match
            while not match.hand_results and sum(turns.values()) < 10:
                await until(
                    pilot,
                    lambda: (
                        isinstance(app.screen, HandOverScreen)
                        or screen.acting_human() is not None
                        or bool(match.hand_results)
                    ),
                    "nobody at Ann's terminal was asked",
                )
                if match.hand_results:
                    break
                if isinstance(app.screen, HandOverScreen):
                    # the curtain: nobody's cards are on the terminal
                    assert screen.snap.viewer is None
                    handed_to.append(table.seats[match.current].name)
                    await pilot.press("enter")
                    continue
                seat = screen.acting_human()
                assert seat in (0, 1) and seat == match.current
                shown = {str(c) for c in screen.query_one(HandView).cards}
                assert shown == {str(c) for c in match.view(seat).hand}
                assert not shown - {str(c) for c in match.view(seat).hand}
                before = screen.snap.version
                await play_one(pilot)
                turns[seat] += 1
                if app.screen is not screen:
                    continue  # a dialog: answered in the next round

                def moved(before: int = before) -> bool:
                    return screen.snap.version > before or bool(match.hand_results)

                await until(pilot, moved, "the card was not played")
            assert turns[0] > 0 and turns[1] > 0
            assert {"Ann", "Cy"} <= set(handed_to)
            assert bo.snap is not None and bo.snap.viewer == 2  # Bo's own seat, his own cards
            bo_plays.cancel()
    finally:
        if bo is not None:
            await bo.client.close()
        await service.stop()


async def test_a_served_player_starts_at_the_shared_tables_and_the_lobby_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A served player's first screen is the server's shared tables; the lobby beneath is
    laid out only if they go to it (Esc), so a player who only joins never runs it."""
    service = await serve_tables(tmp_path, monkeypatch)
    app = make_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "No shared table yet" in screen_text(app), "no list")
            assert isinstance(app.screen, SharedTablesScreen)
            lobby = app.screen_stack[0]
            assert isinstance(lobby, LobbyScreen)
            assert not lobby.filled and not lobby.query(".seat-row")
            assert "esc Lobby" in screen_text(app)  # the keys say where Esc goes
            await pilot.press("escape")
            await until(pilot, lambda: app.screen is lobby and lobby.complete, "no lobby")
            assert len(lobby.query(".seat-row")) == 4
            await pilot.press("j")  # and back to the list, as before
            await until(pilot, lambda: isinstance(app.screen, SharedTablesScreen), "no list")
    finally:
        await service.stop()


async def test_a_too_small_terminal_is_told_so_on_the_first_screen_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The list is a served player's first screen: below 80x24 it says what the lobby
    says (it showed nothing at all: every screen's content hides at that size)."""
    service = await serve_tables(tmp_path, monkeypatch)
    app = make_app()
    try:
        async with app.run_test(size=(60, 20)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, SharedTablesScreen), "no list")
            await until(pilot, lambda: "too small" in screen_text(app), "a blank screen")
            await pilot.resize_terminal(80, 24)
            await until(pilot, lambda: "No shared table yet" in screen_text(app), "no list")
    finally:
        await service.stop()


async def test_a_new_table_from_the_first_screen_takes_the_players_last_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """N on the list a served player starts at: the game, options and seats they last
    set in the lobby (remembered in their settings), with their own name in seat 1."""
    service = await serve_tables(tmp_path, monkeypatch)
    setup = {
        "game": "uno-minecraft",
        "seats": [["You", "human"], ["Bo", "human"], ["Cy", "easy"]],
        "options": {"uno-minecraft": {"target": 200, "stack": "any"}, "uno": {"target": 50}},
    }
    app = make_app(last_setup=setup)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "No shared table yet" in screen_text(app), "no list")
            listing = app.screen
            assert isinstance(listing, SharedTablesScreen)
            assert describe_setup(listing.setup) == "UNO Minecraft, 3 seats, 1 for friends"
            assert "UNO Minecraft" in screen_text(app)  # named in the empty list's hint
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            (table,) = service.tables.values()
            info = table.info()
            assert info["game"] == "uno-minecraft"
            assert info["options"]["target"] == 200 and info["options"]["stack"] == "any"
            assert [(s["name"], s["kind"], s["open"]) for s in info["seats"]] == [
                ("Ann", "human", False),
                ("Bo", "human", True),
                ("Cy", "easy", False),
            ]
            assert not app.screen_stack[0].filled  # the lobby was never needed
    finally:
        await service.stop()


async def test_settings_from_another_version_give_a_new_table_the_games_defaults(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    setup = {
        "game": "uno",
        "seats": [["You", "human"], ["Bo", "human"]],
        "options": {"uno": {"target": "a lot", "stack": "sometimes"}},
    }
    app = make_app(last_setup=setup)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "No shared table yet" in screen_text(app), "no list")
            listing = app.screen
            assert isinstance(listing, SharedTablesScreen)
            assert listing.setup["options"]["target"] == 500  # the rulebook's
            assert listing.setup["options"]["stack"] == "off"
    finally:
        await service.stop()


async def test_a_served_player_with_a_match_to_continue_arrives_at_the_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where they have something to do: their own unfinished match, Continue at hand."""
    mine = tmp_path / "player"
    # seed 3: the same deal every run, and no dialog before the human's first turn
    first = UnoTableApp(data_dir=mine, prefs=Prefs(speed="instant"), seed=3)
    async with first.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(first.screen, "complete", False), "no lobby")
        await pilot.press("s")  # one human against three computers
        await until(
            pilot,
            lambda: (
                isinstance(first.screen, TableScreen) and first.screen.acting_human() is not None
            ),
            "the human was never asked",
        )
        await pilot.press("d")  # an action: the match is saved
        await until(pilot, lambda: bool(list_matches(mine).matches), "never saved")
        assert first.writer.flush(10)
    (tmp_path / "service").mkdir()
    service = await serve_tables(tmp_path / "service", monkeypatch)
    app = UnoTableApp(data_dir=mine, prefs=Prefs(speed="instant"))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: getattr(app.screen, "complete", False), "no lobby")
            assert isinstance(app.screen, LobbyScreen) and len(app.screen_stack) == 1
            assert "Continue" in screen_text(app)
    finally:
        await service.stop()
