"""An OptionList that takes PgUp/PgDn typed before it is laid out (a key storm found it)."""

from __future__ import annotations

from textual._widget_navigation import Direction
from textual.widgets import OptionList


class Choices(OptionList):
    def _move_page(self, direction: Direction) -> None:
        if self.highlighted not in self._index_to_line or not self._lines:
            return  # nothing laid out yet: there is no page to move by
        super()._move_page(direction)
