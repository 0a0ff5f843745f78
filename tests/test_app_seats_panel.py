"""The seats panel fits its box (no row wraps, flags included, at 80 columns and 8 seats),
and the status line in ASCII names no keys the keymap may have changed."""

from __future__ import annotations

import dataclasses

from unotable.app.games import presentation_for
from unotable.app.widgets.seats import render_seats
from unotable.engine import get_game

NAMES = ["Annabelle", "Bartholomew Jones", "Cy", "Dimitrios", "Ed", "Florentina", "Gil", "Hal"]


def test_an_uno_flag_at_eight_seats_leaves_every_row_on_one_line() -> None:
    match = get_game("uno").new_match(8, seed=3)
    view = match.view(0)
    sizes = list(view.hand_sizes)
    sizes[3] = 1  # Dimitrios is down to one card: the UNO flag shows
    view = dataclasses.replace(view, hand_sizes=tuple(sizes))
    game = presentation_for("uno")
    width = 38  # the panel's text at 80 columns
    text = render_seats(view, NAMES, ["human"] + ["normal"] * 7, 2, 0, game, width)
    rows = text.plain.split("\n")
    assert any(row.endswith(" UNO") for row in rows), rows
    assert all(len(row) <= width for row in rows), [r for r in rows if len(r) > width]
    # the names give up the room, and a cut name says it was cut
    assert any("…" in row for row in rows)


def test_the_ascii_status_does_not_promise_number_keys() -> None:
    """The pick keys may be remapped (to letters): the status names no digits for them."""
    match = get_game("uno").new_match(3, seed=3)
    view = match.view(match.current)
    status = presentation_for("uno", ascii_only=True).status(view, "Ana", False)
    assert "arrows and Enter" in status and "1-9" not in status, status
