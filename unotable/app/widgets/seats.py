"""Every seat around the table: name, kind, cards, the game's columns, dealer and turn."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..games import GamePresentation

NAME_MAX = 16  # a name column wider than this leaves the panel's columns far apart


def cut(name: str, width: int, more: str = "…") -> str:
    """``name`` in ``width`` columns: whole, or cut with ``more`` so nobody mistakes a cut
    name ("guest-a2") for another player's whole one."""
    return name if len(name) <= width else name[: width - 1] + more


class SeatsPanel(Static):
    def show(
        self,
        view: Any,
        names: list[str],
        kinds: list[str],
        turn: int | None,
        viewer: int | None,
        game: GamePresentation,
    ) -> None:
        width = self.content_size.width or 38
        # a fixed box: its size never follows its text, so no layout of the whole screen
        self.update(render_seats(view, names, kinds, turn, viewer, game, width), layout=False)
        self.border_title = seats_title(game.direction(view), game.ascii_only)


def seats_title(direction: int, ascii_only: bool) -> str:
    """Short enough for the 40-column panel at 80 columns."""
    if direction > 0:
        return f"Seats · {'v' if ascii_only else '↓'} clockwise"
    return f"Seats · {'^' if ascii_only else '↑'} counter-clockwise"


def render_seats(
    view: Any,
    names: list[str],
    kinds: list[str],
    turn: int | None,
    viewer: int | None,
    game: GamePresentation,
    width: int = 38,
) -> Text:
    """One line per seat: turn arrow, dealer D, name, kind, cards, the game's columns, flags.
    Names get the room the columns leave (up to 16), and a longer one ends in an ellipsis."""
    columns = " ".join(f"{title:>{size}}" for title, size in game.seat_columns)
    fixed = len(f"   {'':<6} Cards {columns}") + 1
    rows = [game.seat_row(view, seat) for seat in range(view.players)]
    # a flag ("UNO") goes after the columns: the names give up room for it, so no row wraps
    flags = max((len(" " + " ".join(row.flags)) for row in rows if row.flags), default=0)
    name_width = max(6, min(NAME_MAX, width - fixed - flags))
    more = "~" if game.ascii_only else "…"
    text = Text()
    text.append(f"   {'Player':<{name_width}} {'Kind':<6} Cards {columns}\n", style=Style(dim=True))
    pointer = ">" if game.ascii_only else "▶"
    for seat in range(view.players):
        mine = seat == turn
        marker = pointer if mine else " "
        dealer = "D" if seat == view.dealer else " "
        row = rows[seat]
        cells = " ".join(
            f"{cell:>{size}}" for cell, (_, size) in zip(row.cells, game.seat_columns, strict=True)
        )
        line = (
            f"{marker}{dealer} {cut(names[seat], name_width, more):<{name_width}} "
            f"{kinds[seat][:6]:<6} "
            f"{view.hand_sizes[seat]:>5} {cells}"
        )
        style = Style(bold=True, reverse=True) if mine else Style()
        if seat == viewer and not mine:
            style = Style(bold=True)
        text.append(line, style=style)
        if row.flags:
            text.append(" " + " ".join(row.flags), style=Style(bold=True))
        if seat < view.players - 1:
            text.append("\n")
    text.append("\n\nD deals · ", style=Style(dim=True))
    text.append(f"{pointer} to play", style=Style(dim=True))
    return text
