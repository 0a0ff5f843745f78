"""The middle of the table: the discard pile or the current trick, and the recent lines."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from textual.widgets import Static

from ..games import GamePresentation
from ..words import Seats


class CenterPanel(Static):
    def show(self, view: Any, names: list[str], game: GamePresentation, recent: list[str]) -> None:
        title, body = game.centre(view, Seats(names), self.content_size.width or 38)
        self.border_title = title
        if recent:
            body.append("\n")
            for line in recent[-6:]:
                body.append("\n" + line, style=Style(italic=True))
        self.update(body, layout=False)  # a fixed box: its size never follows its text
