"""What the screen shows at the seams (between hands, on joining, when watching) comes from
the table's newest snapshot, never from what an earlier one left behind."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from test_app_dialogs import with_deal
from test_app_shared import open_shared_tables, serve_tables, until
from test_app_support import controller, make_app, play_one, screen_text, settle, start
from test_tables import Bot, connect, deal_seed, seat_three
from textual import events

from unotable.app.describe import describe
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.shared import SeatPlanScreen
from unotable.app.screens.stats import StatsScreen
from unotable.app.screens.table import TableScreen
from unotable.controller import Intent
from unotable.tables.client import TableClient
from unotable.tables.remote import RemoteTable
from unotable.tables.service import TableService


class Progress:
    """A play loop's bound that is not the clock: it fails only when nothing moved at the
    table for many turns of the loop (a hang), however slow the machine is."""

    def __init__(self, state: Any, patience: int = 3000) -> None:
        self.state = state
        self.patience = patience
        self.last = state()
        self.still = 0

    def check(self, what: str) -> None:
        now = self.state()
        self.still = 0 if now != self.last else self.still + 1
        self.last = now
        assert self.still < self.patience, f"{what}: nothing moved at the table"


async def test_the_results_close_when_a_shared_table_deals_the_next_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The table deals hand 2 by itself (no wait here): the "hand is over" dialog must not
    # stay up over the new hand, eating the keys meant for it.
    service = await serve_tables(tmp_path, monkeypatch)
    seats = [["You", "human"], ["Bo", "human"], ["Cy", "first"]]
    app = make_app(last_setup={"game": "uno", "seats": seats, "options": {}})
    bo: Bot | None = None
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")  # Bo's seat open for a friend
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            (table,) = service.tables.values()
            bo = await connect(service, 2)
            await bo.client.send({"type": "join", "table": table.table_id, "name": "Bo"})
            bo_plays = asyncio.ensure_future(
                bo.until(lambda b: bool(b.snap and b.snap.view.hand_number >= 2))
            )
            (table,) = service.tables.values()
            moves = Progress(
                lambda: (table.controller.match.hand_number, len(table.controller.match.history))
            )
            while table.controller.match.hand_number < 2:
                moves.check("hand 1 never ended")
                screen = app.screen
                mine = isinstance(screen, TableScreen) and screen.acting_human() is not None
                if mine:
                    await play_one(pilot)
                elif not isinstance(screen, TableScreen | ScoreboardScreen):
                    await play_one(pilot)  # the game's own question (a challenge, a colour)
                else:
                    await pilot.pause(0.01)
            await until(pilot, lambda: table.controller.match.hand_number >= 2, "no hand 2")
            await until(
                pilot,
                lambda: (
                    isinstance(app.screen, TableScreen) and app.screen.snap.view.hand_number == 2
                ),
                "the results of hand 1 stayed up over hand 2",
            )
            assert "The hand is over" not in screen_text(app)
            await bo_plays
    finally:
        if bo is not None:
            await bo.client.close()
        await service.stop()


def test_a_card_kept_last_hand_is_not_in_the_next_hands_status() -> None:
    # Ana has nothing to play, draws Y9 (no match either) and keeps it; Bo goes out.
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["B3", "G2"], ["R2"]],
        first_discard="R5",
        dealer=1,
        draw_pile=["Y9", "B1", "B2", "B4", "B5", "B6"],
    )
    ctrl.submit(Intent(0, "draw"))
    assert ctrl.snapshot(0).kept is not None  # "You drew Y9: it does not match ..."
    ctrl.run(deal=False)
    assert ctrl.hand_over
    ctrl.next_hand()
    for _ in range(50):  # every position of the new hand up to Ana's own turn
        snap = ctrl.snapshot(0)
        assert snap.kept is None, f"hand {snap.view.hand_number} still says Ana kept a card"
        if snap.my_turn or ctrl.over:
            break
        ctrl.run(max_actions=1)


async def test_a_table_opened_mid_hand_shows_the_latest_moves() -> None:
    # Like a player joining (or rejoining) a table already in play: the centre's recent
    # lines come with the first snapshot, not only from moves made after it.
    ctrl = controller("uno", ["first", "first", "human"], seed=7)
    ctrl.run()  # the computers move before the human's first turn
    played = [e for e in ctrl.match.log if e.kind == "play"]
    assert played, "the deal gave the computers no move"
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        last = describe(played[-1], table.names(), table.card_style)
        assert last and last in screen_text(app)


async def test_a_spectator_is_told_they_watch_not_to_take_the_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    players: list[Bot] = []
    try:
        players = await seat_three(service, "uno", {})
        (table,) = service.tables.values()
        client = await TableClient.connect(service.socket_path)
        await client.send({"type": "watch", "table": table.table_id})
        joined = await _frame(client, "joined")
        first = await _frame(client, "snapshot")
        remote = RemoteTable(client, joined, first)
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            app.start_shared(remote)
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            await until(pilot, lambda: "watching" in screen_text(app), "no watching words")
            assert "takes the keyboard" not in screen_text(app)
            # leaving a shared table promises only what it does (no Continue, no save here)
            await pilot.press("q")
            await until(pilot, lambda: app.screen.has_class("quit-dialog"), "no leave dialog")
            words = screen_text(app)
            assert "Saved matches" not in words and "rejoin code" in words
    finally:
        for bot in players:
            await bot.client.close()
        await service.stop()


async def _frame(client: TableClient, kind: str) -> dict[str, Any]:
    for _ in range(100):
        message = await client.receive(timeout=20)
        assert message is not None, "the table closed"
        if message.get("type") == kind:
            return message
    raise AssertionError(f"no {kind} frame")


class SlowBot(Bot):
    """Plays its turns but is never ready for the next hand (a player away from the keys)."""

    async def act(self) -> None:
        if not self.snap.hand_over:
            await super().act()


async def test_after_next_hand_the_screen_says_whom_it_waits_for_and_how_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    deal_seed(monkeypatch, 2)  # a short hand: 3 to 4 times quicker than most deals
    service = TableService(tmp_path, speed="instant", grace=60.0, hand_over_wait=30.0)
    await service.start()
    bots: list[Bot] = []
    try:
        ann = SlowBot(await TableClient.connect(service.socket_path), 1)
        seats = [
            {"name": "Ann", "kind": "human"},
            {"name": "", "kind": "human", "open": True},
            {"name": "Comp", "kind": "easy"},
        ]
        await ann.client.send({"type": "create", "game": "uno", "seats": seats, "name": "Ann"})
        await ann.until(lambda b: b.snap is not None, play=False)
        bots.append(ann)
        (table,) = service.tables.values()
        client = await TableClient.connect(service.socket_path)
        await client.send({"type": "join", "table": table.table_id, "name": "Bo"})
        joined = await _frame(client, "joined")
        remote = RemoteTable(client, joined, await _frame(client, "snapshot"))
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            app.start_shared(remote)
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            screen = app.screen
            plays = asyncio.ensure_future(ann.until(lambda b: b.snap.hand_over))
            moves = Progress(
                lambda: (table.controller.match.hand_number, len(table.controller.match.history))
            )
            while not isinstance(app.screen, ScoreboardScreen):
                moves.check("the hand never ended")
                if app.screen is screen and screen.acting_human() is None:
                    await pilot.pause(0.01)
                else:
                    await play_one(pilot)
            await plays
            await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "no results")
            await pilot.press("enter")  # Bo is ready; Ann is not
            await until(pilot, lambda: app.screen is screen, "the results stayed up")
            await until(
                pilot,
                lambda: "dealt when Ann is ready, or in" in screen_text(app),
                "the screen does not say whom the deal waits for",
            )
    finally:
        for bot in bots:
            await bot.client.close()
        await service.stop()


@pytest.mark.parametrize("kind", ["refused", "snapshot", "notice"])
async def test_news_for_a_table_screen_being_closed_draws_nothing(kind: str) -> None:
    """A key storm once failed the app: the table refused a key just as its screen was
    closing, and the screen, its panels already gone, tried to draw the refusal."""
    from unotable.controller.snapshot import News

    app = make_app()
    ctrl = controller("uno", ["human", "random", "random"], seed=5)
    async with app.run_test(size=(100, 30)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        app.pop_screen()  # its panels are removed over the next turns of the loop
        news = News(kind=kind, snapshot=table.snap, text="not now")
        while table.is_attached:
            table._news(news)  # news in flight: at any of those turns
            await asyncio.sleep(0)
    assert app.return_value is None  # no error ended the app


@pytest.mark.parametrize(
    "gone", ["#table-top", "#status", "#hand", "#center", "#tracker", "#log", "#keys"]
)
async def test_news_for_a_table_whose_panels_are_being_removed_draws_nothing(gone: str) -> None:
    """An app closing (Ctrl+Q, or q in the lobby) removes a table's panels one by one while
    the table is still among its screens. A computer's move told to it then raised
    NoMatches in the table's worker, and the app ended with that error (a key storm met
    it on a busy machine, '#status' gone while the seats were still there: Textual removes
    them in no order to rely on). A table with any of its panels gone draws nothing."""
    import dataclasses

    from unotable.controller import News

    ctrl = controller("uno", ["human", "random", "random"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await table.query_one(gone).remove()  # as the app's closing does
        newer = dataclasses.replace(table.snap, version=table.snap.version + 1)
        table._news(News("snapshot", snapshot=newer))
        table._tick_shared()  # a shared table's countdown, from its timer
        await pilot.pause()
        assert table.snapshot is newer and app.is_running and app._exception is None


async def test_quitting_as_a_table_opens_ends_the_app_cleanly() -> None:
    """Quitting (Ctrl+Q, a served player hanging up) in the moment after Start, before the
    table had drawn: the closing app resized the half-built table, whose ``on_resize``
    looked up its log, not mounted yet, and the app ended with NoMatches instead of
    quietly."""
    ctrl = controller("uno", ["human", "random", "random"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_match(ctrl)  # and the app closes at once, as run_test's end does
    assert app._exception is None


async def test_quitting_as_the_lobby_fills_in_ends_the_app_cleanly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Quitting (a served player hanging up at login) while the lobby fills in its seats,
    after the first frame: the app stopped before the seats' buttons were built, the fill
    went on to look for them, and the app ended with NoMatches ('#continue') instead of
    quietly."""
    right_side = LobbyScreen._right_side

    def quit_while_filling(lobby: LobbyScreen) -> Any:
        lobby.app.call_later(lobby.app.exit)  # as the seats are being mounted
        return right_side(lobby)

    monkeypatch.setattr(LobbyScreen, "_right_side", quit_while_filling)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert app._exception is None


async def test_a_key_queued_behind_quit_opens_nothing() -> None:
    """Keys typed together, Q then T (or typed ahead while the lobby filled in, and read
    again in order): T reached an app already closing, pushed the stats screen, whose
    widgets were never built, and the app ended with NoMatches ('#players')."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "complete", False), "the lobby")
        app.post_message(events.Key("q", "q"))
        app.post_message(events.Key("t", "t"))
        for _ in range(5):
            await pilot.pause()
    assert app._exception is None
    assert not any(isinstance(s, StatsScreen) for s in app.screen_stack)
