"""What a session gives back while it plays (issue #30: memory per served player).

Each served player is a process of its own, so what one app keeps and does not need is
multiplied by the players at a server. Two things it can let go of:

- the drawing of screens nobody sees: Textual keeps every widget's rendered lines, also on
  the lobby and the Shared tables list under a table, for as long as the screen lives. A
  covered screen is drawn whole again when it comes back, so its lines are only memory;
- memory Python has freed but the C allocator still holds (glibc keeps freed blocks of its
  heap for later): ``malloc_trim`` hands the unused pages back to the system.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from textual.screen import ModalScreen

if TYPE_CHECKING:
    from textual.screen import Screen


def seen_screens(stack: Sequence[Screen[object]]) -> list[Screen[object]]:
    """The top screen, and the screens it shows through (a dialog shows the screen
    beneath it, dimmed; a dialog on a dialog both)."""
    seen: list[Screen[object]] = []
    for screen in reversed(stack):
        seen.append(screen)
        if not isinstance(screen, ModalScreen):
            break
    return seen


def forget_hidden_drawing(stack: Sequence[Screen[object]]) -> int:
    """Drop the rendered lines of every screen in ``stack`` that cannot be seen; the
    number of lines let go."""
    seen = {id(screen) for screen in seen_screens(stack)}
    dropped = 0
    for screen in stack:
        if id(screen) in seen:
            continue
        for widget in screen.walk_children(with_self=True):
            lines = getattr(widget, "_styles_cache", None)  # Textual's, per widget
            if lines is not None and lines._cache:
                dropped += len(lines._cache)
                lines.clear()
    if dropped:
        give_back_freed_memory()
    return dropped


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim  # glibc's; the program's own
    except (OSError, AttributeError, TypeError):  # no such call, or no CDLL(None) (Windows)
        return None
    return trim


def give_back_freed_memory() -> bool:
    """Hand the C heap's free pages back to the system (glibc); False where there is no
    such call (macOS, musl): nothing is lost, the memory is only kept for later."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
