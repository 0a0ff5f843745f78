"""A checkbox whose mark shows only when it is on, so its state never rests on colour alone."""

from __future__ import annotations

from textual.widgets import Checkbox


class Toggle(Checkbox):
    @property  # type: ignore[override]
    def BUTTON_INNER(self) -> str:  # Textual reads the mark from this name
        return "X" if self.value else " "
