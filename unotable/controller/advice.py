"""Advice for a human at the table: what the Normal computer would do in their place.

The screens reach the computer players only through here: a hint is computed from the
viewer's own view (the same one the screen draws), so it never knows more than they do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from unotable.ai.hint import Hint
    from unotable.engine import View


def hint_for(view: View, game_id: str) -> Hint | None:
    """What Normal would do with ``view`` and why; None if it has nothing to say."""
    from unotable.ai.hint import hint

    return hint(view, game_id)
