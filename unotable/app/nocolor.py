"""NO_COLOR (https://no-color.org): the screen keeps bold, underline and reverse, no colour.

Textual's own NO_COLOR filter maps every colour to a grey (``38;5;253``), which is
still colour; this one drops foreground and background colours altogether.
"""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter


class StripColour(LineFilter):
    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else style.without_color, control)
            for text, style, control in segments
        ]
