"""Every seat around the table: name, kind, cards, points, dealer and whose turn it is."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

HEARTS_GAMES = ("uno-hearts", "wild-twist-hearts")


class SeatsPanel(Static):
    def show(
        self,
        view: Any,
        names: list[str],
        kinds: list[str],
        turn: int | None,
        viewer: int | None,
        ascii_only: bool,
    ) -> None:
        self.update(
            render_seats(view, names, kinds, turn, viewer, ascii_only, self.size.width or 40)
        )
        self.border_title = seats_title(view, ascii_only)


def seats_title(view: Any, ascii_only: bool) -> str:
    direction = getattr(view, "direction", 1)
    if direction > 0:
        arrow = "v" if ascii_only else "↓"
        return f"Seats · play goes {arrow} clockwise"
    arrow = "^" if ascii_only else "↑"
    return f"Seats · play goes {arrow} counter-clockwise"


def render_seats(
    view: Any,
    names: list[str],
    kinds: list[str],
    turn: int | None,
    viewer: int | None,
    ascii_only: bool,
    width: int = 38,
) -> Text:
    """One line per seat: turn arrow, dealer D, name, kind, cards, points, flags."""
    hearts = view.game in HEARTS_GAMES
    name_width = 8 if width < 46 else 12
    text = Text()
    if hearts:
        header = f"   {'Player':<{name_width}} {'Kind':<6} Cards Trk Pts Tot."
    else:
        header = f"   {'Player':<{name_width}} {'Kind':<6} Cards Score"
    text.append(header + "\n", style=Style(dim=True))
    exposed = getattr(view, "exposed", None)
    revealed = getattr(view, "revealed", ())
    for seat in range(view.players):
        mine = seat == turn
        marker = (">" if ascii_only else "▶") if mine else " "
        dealer = "D" if seat == view.dealer else " "
        name = names[seat][:name_width]
        kind = kinds[seat][:6]
        cards = view.hand_sizes[seat]
        line = f"{marker}{dealer} {name:<{name_width}} {kind:<6} {cards:>5}"
        if hearts:
            tricks = view.tricks_won[seat]
            points = view.hand_points_visible[seat]
            line += f" {tricks:>3} {points:>3} {view.scores[seat]:>4}"
        else:
            line += f" {view.scores[seat]:>5}"
        flags = []
        if not hearts:
            if exposed == seat:
                flags.append("no UNO!")
            elif cards == 1:
                flags.append("UNO")
            if revealed and revealed[seat]:
                flags.append(f"C x{revealed[seat]}")
        style = Style(bold=True, reverse=True) if mine else Style()
        if seat == viewer and not mine:
            style = Style(bold=True)
        text.append(line, style=style)
        if flags:
            text.append(" " + " ".join(flags), style=Style(bold=True))
        if seat < view.players - 1:
            text.append("\n")
    text.append("\n\nD deals · ", style=Style(dim=True))
    text.append(f"{'>' if ascii_only else '▶'} to play", style=Style(dim=True))
    return text
