"""The middle of the table: the discard pile or the current trick, and the recent lines."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..games import GamePresentation
from ..words import Seats
from .rows import rows

RECENT_STYLE = Style(italic=True)


class CenterPanel(Static):
    _shown: tuple[Any, list[str], GamePresentation, list[str]] | None = None

    def show(self, view: Any, names: list[str], game: GamePresentation, recent: list[str]) -> None:
        self._shown = (view, names, game, recent)
        width = self.content_size.width or 38
        title, body = game.centre(view, Seats(names), width)
        self.border_title = title
        lines = self._fitting(body, recent[-6:], width)
        if lines:
            body.append("\n")
            for line in lines:
                body.append("\n" + line, style=RECENT_STYLE)
        self.update(body, layout=False)  # a fixed box: its size never follows its text

    def on_resize(self) -> None:
        # the hand grew a row and took one from this box: fit the same lines again
        if self._shown is not None:
            self.show(*self._shown)

    def _fitting(self, body: Text, recent: list[str], width: int) -> list[str]:
        """The newest of ``recent`` that fit under ``body`` whole, wrapped as shown: a big
        hand leaves the box few rows, and the newest line must never be the one cut off."""
        height = self.content_size.height
        if not height or not recent:
            return recent  # not laid out yet: the next snapshot fits them
        console = self.app.console
        room = height - rows(console, body, width) - 1  # (a blank row above them)
        fitting: list[str] = []
        for line in reversed(recent):
            taken = rows(console, line, width)
            if taken > room:
                break
            fitting.append(line)
            room -= taken
        fitting.reverse()
        return fitting
