"""Undo: one human against computers takes back their last decision and what followed."""

from __future__ import annotations

from typing import Any

import pytest
from test_app_support import controller, make_app, play_one, settle, start

from unotable.app.screens.table import TableScreen
from unotable.controller import Controller, Seat, VirtualClock
from unotable.engine import IllegalAction
from unotable.store.saves import dumps, loads


def human_turn(ctrl: Controller) -> int:
    turn = ctrl.run()
    assert turn.human and turn.seat is not None
    return turn.seat


def decide(ctrl: Controller, seat: int) -> None:
    legal = [a for a in ctrl.legal(seat) if a.kind not in ("uno", "catch")]
    ctrl.submit(seat, legal[0])


@pytest.mark.parametrize("game", ["uno", "uno-minecraft", "uno-hearts", "wild-twist-hearts"])
def test_undo_returns_to_the_position_before_the_last_decision(game: str) -> None:
    ctrl = controller(game, ["human", "normal", "easy", "random"], seed=4)
    seat = human_turn(ctrl)
    decide(ctrl, seat)
    seat = human_turn(ctrl)
    before = ctrl.view(seat)
    history = list(ctrl.match.history)
    decide(ctrl, seat)
    ctrl.run()  # the computers answer
    assert len(ctrl.match.history) > len(history)
    undo = ctrl.undo()
    assert ctrl.match.history[: undo.at] == history[: undo.at]
    assert len(ctrl.match.history) == len(history) and ctrl.view(seat) == before
    assert undo.taken_back[0][0] == seat
    # the same choice again plays out exactly as before: undo cannot fish for a new draw
    assert ctrl.turn().seat == seat and ctrl.turn().human


def test_a_forced_keep_goes_back_with_its_draw() -> None:
    ctrl = controller("uno", ["human", "first"], seed=2)
    for _ in range(200):
        seat = human_turn(ctrl)
        before = len(ctrl.match.history)
        ctrl.submit(seat, "draw")
        kinds = [a.kind for _, a in ctrl.match.history[before:]]
        if kinds[:2] == ["draw", "keep"]:  # the controller kept an unplayable card
            break
        if ctrl.turn().seat == seat and ctrl.match.view(seat).pending == "drawn":
            ctrl.submit(seat, "keep")
    else:
        pytest.fail("never drew an unplayable card")
    ctrl.run()
    ctrl.undo()
    assert len(ctrl.match.history) == before
    assert "draw" in {a.kind for a in ctrl.legal(seat)}


def test_undo_is_refused_in_hot_seat_when_served_and_before_any_decision() -> None:
    hot = controller("uno", ["human", "human", "normal"], seed=1)
    assert "hot-seat" in (hot.undo_refused() or "")
    with pytest.raises(IllegalAction):
        hot.undo()
    solo = controller("uno", ["human", "normal"], seed=1)
    solo.run()
    assert "no decision" in (solo.undo_refused() or "")
    decide(solo, 0)
    assert solo.undo_refused() is None
    solo.undo_allowed = False
    assert "served" in (solo.undo_refused() or "")


def test_undos_are_saved_and_survive_a_round_trip() -> None:
    ctrl = controller("uno-hearts", ["human", "normal", "normal"], seed=7)
    seat = human_turn(ctrl)
    decide(ctrl, seat)
    ctrl.run()
    undo = ctrl.undo()
    record = loads(dumps(ctrl.to_record()))
    assert record.undos == [(undo.at, list(undo.taken_back))]
    again = Controller.from_record(record, clock=VirtualClock())
    assert again.undos == ctrl.undos
    assert again.match.history == ctrl.match.history


def test_a_stale_computer_decision_is_dropped_after_an_undo() -> None:
    ctrl = controller("uno", ["human", "normal", "normal"], seed=3)
    seat = human_turn(ctrl)
    decide(ctrl, seat)
    ask = ctrl.asks()[0]
    request = ctrl.request_for(ask)
    action = ctrl.think(request)
    ctrl.undo()
    assert ctrl.deliver(request, action) == []


async def test_z_takes_back_the_last_move_at_the_table() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        table = await start(pilot, controller("uno", ["human", "normal", "normal"], seed=5))
        await settle(pilot)
        await play_one(pilot)
        screen: Any = await settle(pilot)
        assert isinstance(screen, TableScreen)
        moved = len(table.table.controller.match.history)
        assert table.check_action("undo", ()) is True
        await pilot.press("z")
        await settle(pilot)
        assert len(table.table.controller.match.history) < moved
        assert table.table.controller.undos
        # the footer offers Undo only while there is something of the human's to take back
        assert table.check_action("undo", ()) is (table.snap.undo_refused is None)


async def test_undo_is_not_offered_in_hot_seat() -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        seats = [Seat("Ann", "human"), Seat("Bob", "human"), Seat("Cy", "normal")]
        ctrl = Controller("uno", seats, None, 2, clock=VirtualClock(), speed="instant")
        table = await start(pilot, ctrl)
        await pilot.pause()
        assert table.check_action("undo", ()) is False
        history = list(ctrl.match.history)
        await pilot.press("z")
        await pilot.pause()
        assert ctrl.match.history == history and not ctrl.undos


def test_a_replay_shows_where_a_move_was_taken_back() -> None:
    from unotable.replay.frames import Replay

    ctrl = controller("uno", ["human", "normal", "normal"], seed=6)
    seat = human_turn(ctrl)
    decide(ctrl, seat)
    ctrl.run()
    undo = ctrl.undo()
    replay = Replay(ctrl.to_record(), None)
    text = replay.frame(undo.at).text()
    first_seat, first_action = undo.taken_back[0]
    assert f"undo   taken back: {ctrl.seats[first_seat].name} {first_action}" in text
    assert all("undo" not in replay.frame(n).text() for n in range(undo.at))
