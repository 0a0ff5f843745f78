"""A turn's time at a shared table: a player who never acts cannot stop the table."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_tables import seat_three

from unotable.controller import Controller, Seat, VirtualClock
from unotable.controller.steps import AskHuman, TimeOut
from unotable.tables.service import TableService


@pytest.fixture
async def quick(tmp_path: Path) -> AsyncIterator[TableService]:
    tables = TableService(tmp_path, speed="instant", grace=60.0, hand_over_wait=0.0, turn_time=0.3)
    await tables.start()
    try:
        yield tables
    finally:
        await tables.stop()


async def test_a_player_who_never_acts_gets_a_computer_for_that_turn_then_goes_away(
    quick: TableService,
) -> None:
    ann, bo, cy = await seat_three(quick, "uno", {})
    (table,) = quick.tables.values()
    # Bo is connected but never plays: each of his turns runs out, and a computer plays it
    await ann.until(lambda b: any("time ran out" in m["text"] for m in b.chat))
    await cy.until(lambda b: b.presence and b.presence[1]["stand_in"])
    assert any("missed two turns" in m["text"] for m in cy.chat)
    assert table.controller.standing_in(1)
    # his next intent brings him back: his seat is his again
    await bo.until(lambda b: b.snap is not None and b.snap.my_turn is False, play=False)
    await bo.client.send({"type": "intent", "action": "draw", "version": None, "seat": 1})
    await ann.until(lambda b: any("is back" in m["text"] for m in b.chat))


def test_the_turn_runs_out_only_at_its_deadline_and_never_without_a_limit() -> None:
    def table(limit: float | None) -> tuple[Controller, VirtualClock]:
        clock = VirtualClock()
        seats = [Seat("Ann", "human"), Seat("Cy", "normal")]
        ctrl = Controller("uno", seats, None, 3, clock=clock, speed="instant")
        ctrl.turn_timeout = limit
        ctrl.run()
        return ctrl, clock

    ctrl, clock = table(None)
    assert isinstance(ctrl.next_step(), AskHuman)  # no limit: the table just waits
    clock.advance(10_000)
    assert isinstance(ctrl.next_step(), AskHuman) and ctrl.snapshot(0).turn_ends_in is None

    ctrl, clock = table(60.0)
    deadline = ctrl.turn_deadline()
    assert deadline is not None and ctrl.snapshot(0).turn_ends_in == 60.0
    assert ctrl.next_step() == AskHuman((0,), deadline)
    clock.advance_to(deadline - 0.1)
    assert isinstance(ctrl.next_step(), AskHuman)
    clock.advance_to(deadline)
    assert ctrl.next_step() == TimeOut(0)
    before = ctrl.version
    ctrl.time_out(0)
    assert ctrl.version > before and ctrl.missed_turns(0) == 1
    assert not ctrl.standing_in(0)  # one miss: still theirs
