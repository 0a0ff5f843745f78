"""Snapshots (pytest-textual-snapshot): lobby, every table at 80x24 and 120x40, dialogs.

Deterministic: fixed seeds and names, and "first" computers, which always do the same.
Update after an intended change with ``pytest tests/test_app_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_app_support import controller, footer_drawn, make_app, settle

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]


def table_app(game: str, seats: int, seed: int = 7, humans: int = 1, **options: Any) -> Any:
    app = make_app()
    kinds = ["human"] * humans + ["first"] * (seats - humans)
    ctrl = controller(game, kinds, seed=seed, **options)

    async def before(pilot: Any) -> None:
        pilot.app.start_match(ctrl)
        await settle(pilot)
        await footer_drawn(pilot)

    return app, before


@pytest.mark.parametrize("game", ["uno", "uno-minecraft", "uno-hearts", "wild-twist-hearts"])
@pytest.mark.parametrize(("seats", "size"), [(4, (80, 24)), (8, (80, 24)), (8, (120, 40))])
def test_table(snap_compare: Any, game: str, seats: int, size: tuple[int, int]) -> None:
    app, before = table_app(game, seats)
    assert snap_compare(app, terminal_size=size, run_before=before)


def test_lobby(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24))


def test_hand_over(snap_compare: Any) -> None:
    app, before = table_app("uno", 3, humans=2)
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_scoreboard(snap_compare: Any) -> None:
    # A one-card deal: the hand is over after a single play.
    from test_app_dialogs import with_deal

    app = make_app()
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1),
        hands=[["R7"], ["G1", "G2"], ["B1", "B2"]],
        first_discard="R5",
        dealer=2,
    )

    async def before(pilot: Any) -> None:
        pilot.app.start_match(ctrl)
        await settle(pilot)
        await pilot.press("1")
        await settle(pilot)
        await footer_drawn(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_rules_help(snap_compare: Any) -> None:
    assert snap_compare(make_app(), terminal_size=(80, 24), press=["f1"])


def test_too_small(snap_compare: Any) -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "first", "first"], seed=7)

    async def before(pilot: Any) -> None:
        pilot.app.start_match(ctrl)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(60, 20), run_before=before)
