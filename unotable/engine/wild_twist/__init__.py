"""Wild Twist Hearts (RULES.md §2): ``SPECS``, cards, the match, its view, search help.

``match.py`` holds the rules; ``determinize.py`` deals what a seat cannot see, for search.
"""

from __future__ import annotations

from .match import (
    DECK,
    GAME_ID,
    MOON_POINTS,
    SPECS,
    SUIT_LETTERS,
    Card,
    WildTwistMatch,
    WildTwistView,
    determinize,  # a full match consistent with one seat's view
    parse_card,
)

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
