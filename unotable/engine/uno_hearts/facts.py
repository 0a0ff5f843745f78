"""UNO Hearts' facts (RULES.md §1) for callers outside a match: see ``GameFacts``."""

from __future__ import annotations

from ..core import TRICK_TAKING, Card, GameFacts
from .cards import DECK, SUIT_LETTERS
from .match import MOON_POINTS


class UnoHeartsFacts(GameFacts):
    """A Wild Draw has no suit of its own: it is played as the suit it calls, never
    follows suit (D-10), beats the natural card of its number, and pulls its number of
    cards from the draw pile into the trick."""

    def lead_suit(self, card: Card, declared: str | None = None) -> str | None:
        return declared if card.wild else card.color

    def follows(self, card: Card, declared: str | None, lead: str) -> bool:
        return not card.wild and card.color == lead

    def trick_strength(self, card: Card, declared: str | None, lead: str) -> int:
        suit = declared if card.wild else card.color
        rank = card.rank
        if suit != lead or not isinstance(rank, int):
            return -1
        return rank * 2 + (1 if card.wild else 0)  # a Wild Draw wins a tie of numbers

    def trick_draws(self, card: Card) -> int:
        rank = card.rank
        return rank if card.wild and isinstance(rank, int) else 0


FACTS = UnoHeartsFacts(
    family=TRICK_TAKING,
    deck=DECK,
    suits=SUIT_LETTERS,
    moon_points=MOON_POINTS,
    moon_option="shoot_the_moon",
    target_option="target",
)
