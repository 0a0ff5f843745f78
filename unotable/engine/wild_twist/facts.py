"""Wild Twist Hearts' facts (RULES.md §2) for callers outside a match: see ``GameFacts``."""

from __future__ import annotations

from ..core import TRICK_TAKING, Card, GameFacts
from .cards import DECK, HIGH, LOW, MOON_POINTS, SUIT_LETTERS, WILD_HIGH_VALUE, WILD_LOW_VALUE


class WildTwistFacts(GameFacts):
    """A Wild belongs to its printed suit and is played HIGH (above the ace) or LOW
    (below the 2)."""

    def trick_strength(self, card: Card, declared: str | None, lead: str) -> int:
        if card.color != lead:
            return -1
        if card.wild:
            return self.wild_values.get(declared or "", -1)
        rank = card.rank
        return rank if isinstance(rank, int) else -1


FACTS = WildTwistFacts(
    family=TRICK_TAKING,
    deck=DECK,
    suits=tuple(SUIT_LETTERS),
    wild_values={HIGH: WILD_HIGH_VALUE, LOW: WILD_LOW_VALUE},
    moon_points=MOON_POINTS,
    length_option="length",
)
