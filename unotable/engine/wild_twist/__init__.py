"""Wild Twist Hearts (RULES.md §2): ``SPECS``, cards, the match, its view, search help.

``match.py`` holds the rules; ``determinize.py`` deals what a seat cannot see, for search.
"""

from __future__ import annotations

from . import determinize as _submodule  # noqa: F401  (loaded before the name is bound)
from .match import (
    DECK,
    GAME_ID,
    MOON_POINTS,
    SPECS,
    SUIT_LETTERS,
    Card,
    WildTwistMatch,
    WildTwistView,
    parse_card,
)
from .match import determinize as _determinize

# Loading the submodule binds the package's ``determinize`` to the module; the function,
# a full match consistent with one seat's view, takes the name back for good.
determinize = _determinize

__all__ = [
    "DECK",
    "GAME_ID",
    "MOON_POINTS",
    "SPECS",
    "SUIT_LETTERS",
    "Card",
    "WildTwistMatch",
    "WildTwistView",
    "determinize",
    "parse_card",
]
