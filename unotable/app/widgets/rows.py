"""How many rows a text takes wrapped to a width, counted once per text and width.

The table asks it for the same few texts at every move (the recent lines, the pile, the
status line) to fit them in their boxes, and wrapping them with Rich each time was the
largest part of drawing a move.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

_KEPT = 512  # texts remembered (some 80 KiB): the lines of the last hundred moves or so
_rows: dict[tuple[str, int, bool | None, str | None], int] = {}


def rows(console: Console, text: Text | str, width: int) -> int:
    """The rows ``text`` takes wrapped to ``width`` columns, as ``Text.wrap`` wraps it."""
    if isinstance(text, str):
        key = (text, width, None, None)
    else:
        key = (text.plain, width, text.no_wrap, text.overflow)
    count = _rows.get(key)
    if count is None:
        if len(_rows) >= _KEPT:
            _rows.clear()  # cheaper than keeping an order; refilled within a move or two
        wrapped = (Text(text) if isinstance(text, str) else text).wrap(console, width)
        count = _rows[key] = len(wrapped)
    return count
