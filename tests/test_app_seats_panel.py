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


STATUS_WIDTH = 78  # the status line's text at 80 columns (a column of padding each side)


def _two_card_turns(game_id: str, count: int) -> list[object]:
    """Views of a player to act with two cards and a card to play, from seeded matches."""
    views = []
    for seed in range(200):
        match = get_game(game_id).new_match(4, seed=seed)
        for _ in range(400):
            if not match.actors() or len(views) >= count:
                break  # the hand is over: one hand a seed is enough
            seat = match.actors()[0]
            view = match.view(seat)
            legal = match.legal_actions(seat)
            plays = [a for a in legal if a.kind == "play"]
            if len(view.hand) == 2 and plays and view.pending is None:
                views.append(view)
            match.apply(seat, (plays or legal)[0])
        if len(views) >= count:
            break
    return views


def test_the_two_card_reminder_keeps_the_status_to_two_rows() -> None:
    """A turn with two cards left adds the UNO reminder: the turn's words then leave out
    the keys (the keys bar shows them), so the status line keeps its two rows and the
    table is not laid out anew, and moved under the eye, on each such turn."""
    from rich.console import Console
    from rich.text import Text

    console = Console(width=STATUS_WIDTH)
    for game_id in ("uno", "uno-minecraft"):
        game = presentation_for(game_id)
        views = _two_card_turns(game_id, 30)
        assert len(views) == 30
        for view in views:
            for name in ("You", "Florentina"):  # (a much longer name may take a third row)
                for marked in (False, True):
                    words = game.status(view, name, marked)
                    rows = Text(words).wrap(console, STATUS_WIDTH)
                    assert len(rows) <= 2, (name, marked, words)
                    assert "UNO" in words.split("\n")[-1], words
