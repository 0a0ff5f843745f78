"""What the two Hearts games share: the trick in the middle, trick and point columns,
leading and following, shooting the moon."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from unotable.engine import Event

from ..words import Seats, plural
from .base import NOT_MINE, Ask, Dialog, GamePresentation, SeatRow

NAME_WIDTH = 9  # a player's name in the trick grid


def grid_tail(grid: Text) -> int:
    """The width of the grid's last line so far."""
    return cell_len(grid.plain.rsplit("\n", 1)[-1])


class TrickPresentation(GamePresentation):
    has_tricks: ClassVar[bool] = True
    seat_columns: ClassVar[tuple[tuple[str, int], ...]] = (("Trk", 3), ("Pts", 3), ("Tot.", 4))
    trick_label_width: ClassVar[int] = 3  # the deck's widest card label: "10♥", "Y13"

    # -- prompts and dialogs --------------------------------------------------------------

    def status(self, view: Any, name: str, uno_marked: bool) -> str:
        you = "" if name == "You" else f", {name}"
        if not any(a.kind == "play" for a in view.legal):
            return f"Make your choice in the dialog{you}."
        if view.lead_suit:
            suit = self.suit_word(view.lead_suit)
            return f"Your turn{you}: follow {suit} if you can ({self.keys_hint()})."
        text = f"Your lead{you} ({self.keys_hint()})."
        if not view.hearts_broken:
            text += " Hearts are not broken yet."
        return text

    def dialog(self, ask: Ask) -> Dialog | None:
        if any(a.kind == "moon" for a in ask.legal):
            points = ask.moon_points
            return Dialog(
                "You shot the moon!",
                [
                    ("moon:self", f"Take {points} off my own total"),
                    ("moon:others", f"Add {points} to everyone else"),
                ],
                "Choose how to score it.",
            )
        return None

    # -- the table ------------------------------------------------------------------------

    def centre(self, view: Any, names: Seats, width: int) -> tuple[str, Text]:
        if view.phase in ("hand_over", "over"):  # "over": the match's last hand
            title = f"{self.round_word} {view.hand_number} · over"
        else:
            title = f"{self.round_word} {view.hand_number} · trick {len(view.tricks) + 1}"
        return title, self.trick(view, names, width)

    def trick(self, view: Any, names: Seats, width: int) -> Text:
        text = Text()
        if view.lead_suit:
            text.append(" Lead: ")
            text.append_text(self.colour_chip(view.lead_suit))
        else:
            leader = view.current if view.current is not None else view.leader
            text.append(f" Lead: {names.subject(leader)}", style=Style(dim=True))
        text.append("  Hearts broken" if view.hearts_broken else "  Hearts not broken")
        text.append("\n")
        plays = list(view.trick)
        if not plays and view.last_trick is not None and view.tricks:
            # Between tricks, the one just taken stays in view so it can be followed.
            _, winner, plays = view.last_trick
            took = f" {names.does(winner, 'took')} the last trick:\n"
            text.append(took, style=Style(italic=True))
        elif not plays:
            text.append(" (no cards played to this trick yet)", style=Style(dim=True))
        text.append_text(self.trick_grid(plays, names, width))
        extra = self.trick_notes(view, names)
        if extra:
            text.append("\n " + " · ".join(extra), style=Style(dim=True))
        return text

    def trick_grid(self, plays: list[Any], names: Seats, width: int) -> Text:
        """The cards of a trick in fixed columns, two per line when they fit: as wide as
        the deck's widest card, so no column moves when a 10 joins. A declared wild wider
        than that ("W♣ LOWEST") takes a line of its own, and the columns stay put."""
        if not plays:
            return Text()
        column = 1 + NAME_WIDTH + 1 + self.trick_label_width + 2 + 1  # its cell and a gap
        per_line = 2 if 2 * column <= width + 1 else 1
        grid = Text()
        placed = 0  # cells on the current line
        for seat, card, declared in plays:
            cell = Text(f" {names.subject(seat)[:NAME_WIDTH]:<{NAME_WIDTH}} ")
            cell.append_text(self.text(card, choice=declared))
            wide = cell.cell_len >= column
            if placed and (wide or placed == per_line):
                grid.append("\n")
                placed = 0
            if placed:
                grid.append(" " * (column - grid_tail(grid)))
            grid.append_text(cell)
            placed = per_line if wide else placed + 1
        grid.append("\n")
        return grid

    def trick_notes(self, view: Any, names: Seats) -> list[str]:
        """Dim notes under the trick: a draw pile, left-over cards."""
        return []

    def seat_row(self, view: Any, seat: int) -> SeatRow:
        return SeatRow(
            [
                str(view.tricks_won[seat]),
                str(view.hand_points_visible[seat]),
                str(view.scores[seat]),
            ]
        )

    # -- the log --------------------------------------------------------------------------

    def describe(self, event: Event, names: Seats) -> str | None:
        kind, seat, data = event.kind, event.seat, event.data
        if kind == "hearts_broken":
            return "Hearts are broken"
        if kind == "trick_won":
            points = data.get("points", 0)
            extra = f" ({plural(points, 'point')})" if points else ""
            leftovers = data.get("leftovers")
            tail = ""
            if leftovers:
                tail = f", and the {plural(leftovers, 'card')} left from the deal, unseen"
            return f"{names.does(seat, 'takes')} trick {data.get('trick', '')}{extra}{tail}"
        if kind == "moon":
            choice = data.get("choice")
            if choice is None:
                return f"{names.subject(seat)} shot the moon!"
            if choice == "self":
                takes = names.verb(seat, "takes")
                return (
                    f"{names.subject(seat)} shot the moon and {takes} points off "
                    f"{names.their(seat)} own total"
                )
            return f"{names.subject(seat)} shot the moon: everyone else takes the points"
        return NOT_MINE

    def goal(self, options: Any, hands_played: int) -> str:
        if "length" in options:
            left = options["length"] - hands_played
            return f"{plural(left, self.round_word.lower())} to go."
        return super().goal(options, hands_played)
