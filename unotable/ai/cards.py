"""What the computer players need to know about a card, read from its notation.

The engines own their card classes; reading ``str(card)`` (the shared notation) keeps the
players independent of how each engine stores a card. Results are cached per card value.
"""

from __future__ import annotations

from typing import Any, NamedTuple

UNO_COLOURS = ("R", "Y", "G", "B")
UNO_HEARTS_SUITS = ("H", "Y", "P", "G")
WILD_TWIST_SUITS = ("C", "D", "H", "S")


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


def uno_card(card: Any) -> UnoCard:
    info = _UNO.get(card)
    if info is None:
        info = _UNO[card] = _parse_uno(str(card))
    return info


def _parse_uno(text: str) -> UnoCard:
    t = text.strip().upper()
    if t in ("W", "WILD"):
        return UnoCard(None, "wild", -1, 50)
    if t in ("W+4", "WD4", "W4"):
        return UnoCard(None, "wd4", -1, 50)
    if t in ("C", "CREEPER"):
        return UnoCard(None, "creeper", -1, 50)
    colour, rest = t[0], t[1:].lstrip("-").strip()
    if rest.isdigit():
        return UnoCard(colour, "num", int(rest), int(rest))
    if rest in ("+2", "D2", "DRAW2", "DRAW-TWO"):
        return UnoCard(colour, "draw2", -1, 20)
    if rest.startswith("SK"):
        return UnoCard(colour, "skip", -1, 20)
    if rest.startswith("R"):
        return UnoCard(colour, "rev", -1, 20)
    raise ValueError(f"not an UNO card: {text!r}")


def trick_card(card: Any) -> TrickCard:
    """A card of UNO Hearts or Wild Twist Hearts (the notations do not overlap)."""
    info = _TRICK.get(card)
    if info is None:
        info = _TRICK[card] = _parse_trick(str(card))
    return info


_FACE = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}


def _parse_trick(text: str) -> TrickCard:
    t = text.strip().upper()
    if t.startswith("WD") and t[2:].isdigit():  # UNO Hearts Wild Draw n
        return TrickCard(None, int(t[2:]), 0, True)
    if len(t) == 2 and t[0] == "W":  # Wild Twist wild of a suit
        suit = t[1]
        return TrickCard(suit, 0, 1 if suit == "H" else 0, True)
    if t[0] in UNO_HEARTS_SUITS and t[1:].isdigit():  # UNO Hearts natural
        suit, rank = t[0], int(t[1:])
        points = 1 if suit == "H" else 13 if (suit == "Y" and rank == 13) else 0
        return TrickCard(suit, rank, points, False)
    suit, face = t[-1], t[:-1]  # Wild Twist natural: rank then suit
    rank = _FACE[face] if face in _FACE else int(face)
    points = 1 if suit == "H" else 13 if (suit == "S" and rank == 12) else 0
    return TrickCard(suit, rank, points, False)
