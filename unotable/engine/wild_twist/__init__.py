"""Wild Twist Hearts (RULES.md §2): ``SPECS`` for the registry, cards, view, search help.

Hearts for 4–8 players with the 52-card deck plus four suit Wilds played HIGH or LOW.

>>> from unotable.engine import get_game
>>> hands = [["2C", "AH"], ["3C", "QS"], ["4C", "KH"], ["5C", "2H"]]
>>> match = get_game("wild-twist-hearts").from_deal(4, hands=hands, dealer=3)
>>> match.current, [str(a) for a in match.legal_actions(0)]  # the lowest club leads
(0, ['2C'])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..core import GameSpec, OptionSpec
from .cards import DECK, SUIT_LETTERS, Card, parse_card
from .determinize import determinize as _determinize
from .facts import FACTS
from .match import GAME_ID, GAME_NAME, WildTwistMatch
from .view import WildTwistView


def determinize(
    view: WildTwistView,
    rng: random.Random,
    avoid: Mapping[int, frozenset[str]] | Sequence[frozenset[str]] | None = None,
) -> WildTwistMatch:
    """A full match consistent with ``view``, unseen cards dealt at random (for search).

    See :mod:`unotable.engine.wild_twist.determinize`.
    """
    return _determinize(SPECS[GAME_ID], view, rng, avoid)


SPECS: dict[str, GameSpec] = {
    GAME_ID: GameSpec(
        id=GAME_ID,
        name=GAME_NAME,
        description="Hearts with four suit Wilds played HIGH or LOW; fewest points wins.",
        min_players=4,
        max_players=8,
        options=(
            OptionSpec(
                name="length",
                label="Games",
                kind="int",
                default=3,
                help="How many games (deals) the match lasts: Short 1, Medium 3, Long 5.",
                minimum=1,
                maximum=99,
            ),
            OptionSpec(
                name="no_points_first_trick",
                label="No points on the first trick",
                kind="bool",
                default=False,
                help="A player who cannot follow the first trick must discard a card "
                "that is not a heart or the Q♠, if they hold one.",
            ),
        ),
        match_class=WildTwistMatch,
        facts=FACTS,
        determinizer=determinize,
    )
}


__all__ = [
    "DECK",
    "SPECS",
    "SUIT_LETTERS",
    "Card",
    "WildTwistMatch",
    "WildTwistView",
    "determinize",
    "parse_card",
]
