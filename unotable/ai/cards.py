"""What the computer players need to know about a card, read from the engine's card.

The engines own their cards and the rules' facts (``GameSpec.facts``); this only
reshapes a card's own fields (the ``Card`` protocol, and an UNO card's ``kind``) into
the small records the strategies use. Results are cached per card value.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from unotable.engine import Card, NotationError, get_game

UNO_COLOURS: tuple[str, ...] = get_game("uno").facts.suits


class UnoCard(NamedTuple):
    colour: str | None  # None for Wild, Wild Draw Four and Creeper
    kind: str  # "num", "skip", "rev", "draw2", "wild", "wd4", "creeper"
    number: int  # face number for number cards, -1 otherwise
    points: int


class TrickCard(NamedTuple):
    suit: str | None  # None for an UNO Hearts Wild Draw (its suit is called when played)
    rank: int  # printed rank; ace 14 in Wild Twist; a Wild Draw's number; 0 for Wild Twist wilds
    points: int
    wild: bool


_UNO: dict[Any, UnoCard] = {}
_TRICK: dict[Any, TrickCard] = {}


def uno_card(card: Card | str) -> UnoCard:
    """An UNO card's record; notation is read by the engine's parser (tests, tools)."""
    info = _UNO.get(card)
    if info is None:
        if isinstance(card, str):
            info = _UNO[card] = uno_card(get_game("uno-minecraft").parse_card(card))
            return info
        kind: str = getattr(card, "kind", "wild" if card.wild else "num")
        rank = card.rank
        number = rank if kind == "num" and isinstance(rank, int) else -1
        info = _UNO[card] = UnoCard(card.color, kind, number, card.points)
    return info


def trick_card(card: Card | str) -> TrickCard:
    """A trick-taking game's card (UNO Hearts, Wild Twist Hearts); notation is read by
    the engines' parsers, whose notations do not overlap (tests, tools)."""
    info = _TRICK.get(card)
    if info is None:
        if isinstance(card, str):
            info = _TRICK[card] = trick_card(_parse_trick(card))
            return info
        rank = card.rank
        info = _TRICK[card] = TrickCard(
            card.color, rank if isinstance(rank, int) else 0, card.points, card.wild
        )
    return info


def _parse_trick(text: str) -> Card:
    try:
        return get_game("uno-hearts").parse_card(text)
    except NotationError:
        return get_game("wild-twist-hearts").parse_card(text)
