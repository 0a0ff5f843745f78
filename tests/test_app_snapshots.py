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


def challenge_table(size: tuple[int, int]) -> tuple[Any, Any]:
    """Cy plays a Wild Draw Four on Ana, who holds the dialog to challenge or accept."""
    from test_app_dialogs import with_deal

    app = make_app()
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1),
        hands=[["R1", "G1", "G2"], ["R2", "B7", "B8"], ["W+4", "Y3", "Y4"]],
        first_discard="R5",
        dealer=2,
    )

    async def before(pilot: Any) -> None:
        pilot.app.start_match(ctrl)
        await settle(pilot)
        await pilot.press("1")  # R1; Bo plays R2, Cy the Wild Draw Four on red
        await settle(pilot)
        await footer_drawn(pilot)

    return app, before


def test_challenge_dialog_names_the_colour_on_the_pile(snap_compare: Any) -> None:
    app, before = challenge_table((80, 24))
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_log_wraps_long_lines(snap_compare: Any) -> None:
    app, first = challenge_table((120, 40))

    async def before(pilot: Any) -> None:
        await first(pilot)
        await pilot.press("1")  # challenge: it was legal, so Ana draws six
        await settle(pilot)
        await footer_drawn(pilot)

    assert snap_compare(app, terminal_size=(120, 40), run_before=before)


def test_no_color(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app, before = table_app("uno", 4)
    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_eight_seats_with_a_wild_in_the_trick(snap_compare: Any) -> None:
    from test_app_dialogs import with_deal

    from unotable.engine.wild_twist import DECK

    # Bo holds the Wild Club and opens with it as LOWEST; Cy (the human) plays next
    cards = [str(c) for c in DECK if str(c) != "WC"]
    hands = [cards[i * 7 : i * 7 + 7] for i in range(8)]
    hands[1][0], spare = "WC", hands[1][0]
    hands[7][6:] = [spare]
    hands[7] = hands[7][:7]
    kinds = ["first", "first", "human", "first", "first", "first", "first", "first"]
    app = make_app()
    ctrl = with_deal(controller("wild-twist-hearts", kinds, seed=7), hands=hands, dealer=0)

    async def before(pilot: Any) -> None:
        pilot.app.start_match(ctrl)
        await settle(pilot)
        await footer_drawn(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)
