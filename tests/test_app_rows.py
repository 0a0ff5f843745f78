"""The row counts the table fits its boxes with (remembered per text and width) are the
rows Rich wraps the text to."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from unotable.app.widgets.rows import rows

LINES = [
    "",
    "Ann plays R5.",
    "Bartholomew Jones draws a card and keeps it; the next player is skipped, then UNO!",
    "Your turn: play a card matching Yellow or a Wild Draw Four (←/→ and Enter), or D.",
    "one\ntwo\nthree",
    "x" * 200,
]


def test_rows_are_the_rows_rich_wraps_to() -> None:
    console = Console(width=80)
    for width in (10, 38, 78):
        for line in LINES:
            expected = len(Text(line).wrap(console, width))
            assert rows(console, line, width) == expected, (line, width)
            styled = Text(line, style="bold")  # styles do not change the wrap
            assert rows(console, styled, width) == expected
            assert rows(console, line, width) == expected  # remembered: the same


def test_a_text_that_does_not_wrap_is_counted_apart() -> None:
    console = Console(width=80)
    line = "word " * 30
    wrapped = rows(console, line, 20)
    unwrapped = rows(console, Text(line, no_wrap=True), 20)
    assert wrapped > 1 and unwrapped == len(Text(line, no_wrap=True).wrap(console, 20))
