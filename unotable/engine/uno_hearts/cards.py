"""UNO Hearts cards: interned values, the deck, card notation and the pre-built plays.

Four colour suits 0–23 and ten Wild Draw cards. Every play action and play event is
built once at import so the hot path (``legal_actions`` + ``apply``) allocates almost
nothing. Suits are kept as small ints (0 heart, 1 yellow, 2 purple, 3 green; a Wild
Draw's printed suit is 4) so a hand's per-suit counts are one list lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Any

from ..core import Action, Event
from ..errors import NotationError, OptionError

HEART, YELLOW, PURPLE, GREEN, WILD = 0, 1, 2, 3, 4
NO_SUIT = -1
SUIT_LETTERS = ("H", "Y", "P", "G")
SUIT_INDEX = {letter: i for i, letter in enumerate(SUIT_LETTERS)}
SUIT_NAMES = ("heart", "yellow", "purple", "green")
FOLLOW_NAMES = ("hearts", "yellow", "purple", "green")

MAX_SEATS = 8


class Card:
    """One UNO Hearts card. Interned: compare with ``is``; ``str(card)`` is its notation.

    ``suit`` is 0–3 for a natural card and WILD (4) for a Wild Draw; ``rank`` is the
    printed number; ``action`` (natural) or ``actions[suit]`` (Wild Draw, one per call)
    and ``events[seat]`` / ``wild_events[seat][suit]`` are the pre-built play objects.
    """

    __slots__ = (
        "action",
        "actions",
        "color",
        "events",
        "index",
        "points",
        "rank",
        "suit",
        "text",
        "wild",
    )

    index: int
    text: str
    suit: int
    rank: int
    points: int
    wild: bool
    action: Action
    actions: tuple[Action, ...]
    events: tuple[Any, ...]

    def __init__(self, index: int, suit: int, rank: int) -> None:
        self.index = index
        self.suit = suit
        self.rank = rank
        self.wild = suit == WILD
        self.color: str | None = None if self.wild else SUIT_LETTERS[suit]  # Card protocol
        self.text = f"WD{rank}" if self.wild else f"{SUIT_LETTERS[suit]}{rank}"
        if suit == HEART:
            self.points = 1
        elif suit == YELLOW and rank == 13:
            self.points = 13
        else:
            self.points = 0

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # copy/pickle give back the interned card
        return (card_at, (self.index,))


def _build_deck() -> tuple[Card, ...]:
    cards = [Card(0, s, r) for s in range(4) for r in range(24)]
    cards += [Card(0, WILD, r) for r in range(1, 11)]
    for i, card in enumerate(cards):
        card.index = i
    return tuple(cards)


DECK: tuple[Card, ...] = _build_deck()
DECK_RANGE = range(len(DECK))
CARD_BY_TEXT: dict[str, Card] = {c.text: c for c in DECK}
Y13 = CARD_BY_TEXT["Y13"]
P8 = CARD_BY_TEXT["P8"]
G8 = CARD_BY_TEXT["G8"]


def card_at(index: int) -> Card:
    return DECK[index]


def _prebuild() -> None:
    for card in DECK:
        if card.wild:
            card.actions = tuple(Action("play", card=card, choice=s) for s in SUIT_LETTERS)
            card.events = tuple(
                tuple(
                    Event(
                        "play",
                        seat=seat,
                        cards=(card,),
                        count=1,
                        data=MappingProxyType({"declared": s}),
                    )
                    for s in SUIT_LETTERS
                )
                for seat in range(MAX_SEATS)
            )
        else:
            card.action = Action("play", card=card)
            card.actions = ()
            card.events = tuple(
                Event(
                    "play",
                    seat=seat,
                    cards=(card,),
                    count=1,
                    data=MappingProxyType({"declared": None}),
                )
                for seat in range(MAX_SEATS)
            )


_prebuild()


def sort_key(card: Card) -> int:
    return card.index


def parse_card(text: str) -> Card:
    if not isinstance(text, str):
        raise NotationError(f"a card must be written as text, not {type(text).__name__}")
    card = CARD_BY_TEXT.get(text.strip().upper())
    if card is None:
        raise NotationError(
            f"{text!r} is not an UNO Hearts card (H0–H23, Y0–Y23, P0–P23, G0–G23, WD1–WD10)"
        )
    return card


def _cards(items: Sequence[Any], what: str) -> list[Card]:
    result: list[Card] = []
    for item in items:
        if isinstance(item, Card):
            result.append(item)
        elif isinstance(item, str):
            result.append(parse_card(item))
        else:
            raise OptionError(f"{what}: {item!r} is not a card")
    return result
