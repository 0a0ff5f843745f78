"""Wild Twist Hearts cards: the 56 interned cards, notation and the pre-built plays.

The 52-card deck plus the Wild Heart, Wild Diamond, Wild Spade and Wild Club. A Wild
belongs to its printed suit and is played as HIGH (above the ace) or LOW (below the 2).
Play actions, trick entries and play events are built once at import so the hot path
(``legal_actions`` + ``apply``) allocates almost nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final

from ..core import Action, Event
from ..errors import NotationError, OptionError

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
SUIT_LETTERS: Final = "CDHS"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_TEXT: Final = {11: "J", 12: "Q", 13: "K", 14: "A"}
HIGH: Final = "HIGH"
LOW: Final = "LOW"
DECLARATIONS: Final = (HIGH, LOW)
WILD_HIGH_VALUE: Final = 15  # above the ace
WILD_LOW_VALUE: Final = 1  # below the 2
MOON_POINTS: Final = 27  # 14 hearts + the Q♠
MOON_CHOICES: Final = ("self", "others")


class Card:
    """One of the 56 cards. Interned: compare with ``is``; ``str(card)`` is its notation."""

    __slots__ = ("color", "index", "plays", "points", "rank", "suit", "text", "wild")

    index: int  # 0..55, suit-major; the Wild is the last of its suit
    suit: int  # CLUBS, DIAMONDS, HEARTS or SPADES
    rank: int  # 2..14 for natural cards, 0 for a Wild
    wild: bool
    points: int
    text: str
    plays: tuple[Action, ...]  # the play actions of this card (a Wild has HIGH and LOW)

    def __init__(self, suit: int, rank: int) -> None:
        self.suit = suit
        self.rank = rank
        self.wild = rank == 0
        self.color: str | None = SUIT_LETTERS[suit]  # Card protocol: a suit wild has its suit
        letter = SUIT_LETTERS[suit]
        if self.wild:
            self.text = "W" + letter
            self.index = suit * 14 + 13
            self.plays = (
                Action("play", card=self, choice=HIGH),
                Action("play", card=self, choice=LOW),
            )
        else:
            self.text = RANK_TEXT.get(rank, str(rank)) + letter
            self.index = suit * 14 + rank - 2
            self.plays = (Action("play", card=self),)
        if suit == HEARTS:
            self.points = 1
        elif suit == SPADES and rank == 12:
            self.points = 13
        else:
            self.points = 0

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Card({self.text})"

    # interned: copies and pickles are the same object
    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (parse_card, (self.text,))


DECK: Final[tuple[Card, ...]] = tuple(
    Card(suit, rank) for suit in range(4) for rank in (*range(2, 15), 0)
)
assert all(card.index == i for i, card in enumerate(DECK))
WILD_CLUB: Final = DECK[CLUBS * 14 + 13]
TOTAL_POINTS: Final = sum(card.points for card in DECK)
assert TOTAL_POINTS == MOON_POINTS

_CARD_BY_TEXT: dict[str, Card] = {}
for _card in DECK:
    _CARD_BY_TEXT[_card.text] = _card
    if _card.rank == 10:
        _CARD_BY_TEXT["T" + SUIT_LETTERS[_card.suit]] = _card


def parse_card(text: str) -> Card:
    """The card ``text`` names: ``2C``, ``10H`` (or ``TH``), ``QS``, ``WH``; any case."""
    if not isinstance(text, str):
        raise NotationError(f"card notation must be text, not {type(text).__name__}")
    card = _CARD_BY_TEXT.get(text.strip().upper())
    if card is None:
        raise NotationError(
            f"{text!r} is not a Wild Twist card: write rank then suit (2C, 10H, QS, AD) "
            "or a Wild (WH, WD, WS, WC)"
        )
    return card


# display order: by suit, then rank, each Wild last in its suit (at C speed)
sort_key: Final = attrgetter("index")


def by_suit(cards: Iterable[Card]) -> list[list[Card]]:
    """A hand as the engine keeps it: one sorted list per suit."""
    suits: list[list[Card]] = [[], [], [], []]
    for card in sorted(cards, key=sort_key):
        suits[card.suit].append(card)
    return suits


def suit_plays(suits: list[list[Card]]) -> list[list[Action]]:
    """Per suit list of a hand, its cards' play actions in order (kept beside the hand)."""
    return [[a for card in suit for a in card.plays] for suit in suits]


def by_suit_with_plays(cards: Iterable[Card]) -> tuple[list[list[Card]], list[list[Action]]]:
    """``by_suit(cards)`` and its ``suit_plays``, in one pass (for dealing)."""
    suits: list[list[Card]] = [[], [], [], []]
    plays: list[list[Action]] = [[], [], [], []]
    for card in sorted(cards, key=sort_key):
        suit = card.suit
        suits[suit].append(card)
        plays[suit] += card.plays
    return suits, plays


DECLINE: Final = Action("decline")
MOON_SELF: Final = Action("moon", choice="self")
MOON_OTHERS: Final = Action("moon", choice="others")
WILD_CLUB_LOW: Final = WILD_CLUB.plays[1]
ACTION_CHOICES: Final = MappingProxyType({"play": DECLARATIONS, "moon": MOON_CHOICES})
# accept the rulebook's words too
DECLARATION_ALIASES: Final = {"HIGHEST": HIGH, "H": HIGH, "LOWEST": LOW, "L": LOW}


def play_key(card: Card, declared: str | None) -> int:
    return card.index * 2 + (declared == LOW)


def _build_play_tables(
    seats: int,
) -> tuple[tuple[tuple[tuple[int, Card, str | None], ...], ...], tuple[tuple[Event, ...], ...]]:
    """Per seat, the trick entry and the play event of every (card, declaration)."""
    entries = []
    events = []
    for seat in range(seats):
        seat_entries: list[tuple[int, Card, str | None]] = []
        seat_events: list[Event] = []
        for card in DECK:
            # two slots per card, indexed by play_key; a natural card's second is unused
            for declared in (HIGH, LOW) if card.wild else (None, None):
                seat_entries.append((seat, card, declared))
                data = MappingProxyType({"card": card.text, "declared": declared})
                seat_events.append(Event("play", seat=seat, cards=(card,), count=1, data=data))
        entries.append(tuple(seat_entries))
        events.append(tuple(seat_events))
    return tuple(entries), tuple(events)


TRICK_ENTRIES, PLAY_EVENTS = _build_play_tables(8)


def as_card(item: Any) -> Card:
    if isinstance(item, Card):
        return item
    if isinstance(item, str):
        return parse_card(item)
    raise OptionError(f"not a card: {item!r}")
