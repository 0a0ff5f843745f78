"""UNO cards: interned values, the two decks, card notation and the pre-built actions.

There is exactly one object per distinct card; a deck holds the same object several
times, so cards compare and hash by identity. ``str(card)`` is its notation.
"""

from __future__ import annotations

from typing import Any, Final

from ..core import Action
from ..errors import NotationError

COLORS: Final = ("R", "Y", "G", "B")
COLOR_NAMES: Final = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
COLOR_INDEX: Final = {c: i for i, c in enumerate(COLORS)}

# What a card does when played; small ints keep the hot path cheap.
NUMBER: Final = 0
SKIP: Final = 1
REVERSE: Final = 2
DRAW_TWO: Final = 3
WILD: Final = 4
WILD_DRAW_FOUR: Final = 5
CREEPER: Final = 6

_SYMBOL_TEXT = {SKIP: "skip", REVERSE: "rev", DRAW_TWO: "+2"}
# a card's ``kind``: what it does, as a word
KIND_WORDS: Final = {
    NUMBER: "num",
    SKIP: "skip",
    REVERSE: "rev",
    DRAW_TWO: "draw2",
    WILD: "wild",
    WILD_DRAW_FOUR: "wd4",
    CREEPER: "creeper",
}
_EFFECT_NAMES = {
    NUMBER: "number",
    SKIP: "Skip",
    REVERSE: "Reverse",
    DRAW_TWO: "Draw Two",
    WILD: "Wild",
    WILD_DRAW_FOUR: "Wild Draw Four",
    CREEPER: "Creeper",
}


class UnoCard:
    """One distinct UNO card. Never build one: use the module's interned cards."""

    __slots__ = (
        "color",
        "color_index",
        "effect",
        "face",
        "index",
        "is_wild",
        "kind",
        "points",
        "rank",
        "text",
        "wild",
    )

    def __init__(self, index: int, color: str | None, effect: int, number: int = 0) -> None:
        self.index = index
        self.color = color
        self.color_index = -1 if color is None else COLOR_INDEX[color]
        self.effect = effect
        self.kind: str = KIND_WORDS[effect]
        self.is_wild = self.wild = color is None
        if effect == NUMBER:
            self.face: str | None = str(number)
            self.points = number
            self.text = f"{color}{number}"
        elif effect in _SYMBOL_TEXT:
            self.face = _SYMBOL_TEXT[effect]
            self.points = 20
            sep = "" if effect == DRAW_TWO else "-"
            self.text = f"{color}{sep}{self.face}"
        else:
            self.face = None  # wild cards match nothing by face
            self.points = 50
            self.text = {WILD: "W", WILD_DRAW_FOUR: "W+4", CREEPER: "C"}[effect]
        # the Card protocol's rank: the number, or the symbol ("skip", "+2"); None for wilds
        self.rank: int | str | None = number if effect == NUMBER else self.face

    @property
    def name(self) -> str:
        """Player words: 'red 7', 'yellow Skip', 'Wild Draw Four'."""
        if self.color is None:
            return _EFFECT_NAMES[self.effect]
        what = self.face if self.effect == NUMBER else _EFFECT_NAMES[self.effect]
        return f"{COLOR_NAMES[self.color]} {what}"

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"UnoCard({self.text!r})"

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (card_named, (self.text,))

    def __copy__(self) -> UnoCard:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> UnoCard:
        return self


def _build_cards() -> tuple[UnoCard, ...]:
    cards: list[UnoCard] = []
    for color in COLORS:
        for number in range(10):
            cards.append(UnoCard(len(cards), color, NUMBER, number))
        for effect in (SKIP, REVERSE, DRAW_TWO):
            cards.append(UnoCard(len(cards), color, effect))
    for effect in (WILD, WILD_DRAW_FOUR, CREEPER):
        cards.append(UnoCard(len(cards), None, effect))
    return tuple(cards)


ALL_CARDS: Final = _build_cards()  # sorted: by colour, then face; wilds last
BY_TEXT: Final = {c.text: c for c in ALL_CARDS}
WILD_CARD: Final = BY_TEXT["W"]
WD4: Final = BY_TEXT["W+4"]
CREEPER_CARD: Final = BY_TEXT["C"]
CLASSIC_CARDS: Final = tuple(c for c in ALL_CARDS if c is not CREEPER_CARD)


def card_named(text: str) -> UnoCard:
    """The interned card with exactly this notation (for unpickling)."""
    return BY_TEXT[text]


def _deck(with_creepers: bool) -> tuple[UnoCard, ...]:
    deck: list[UnoCard] = []
    for card in ALL_CARDS:
        if card.effect == NUMBER:
            deck += [card] * (1 if card.face == "0" else 2)
        elif card.effect == CREEPER:
            deck += [card] * (4 if with_creepers else 0)
        elif card.is_wild:
            deck += [card] * 4
        else:
            deck += [card] * 2
    return tuple(deck)


CLASSIC_DECK: Final = _deck(False)
MINECRAFT_DECK: Final = _deck(True)
assert len(CLASSIC_DECK) == 108 and len(MINECRAFT_DECK) == 112


# -- notation ---------------------------------------------------------------------------
# Parsing ignores case, spaces, '-' and '_', and knows a few long names:
# "r7", "Red 7", "y skip", "YS", "g reverse", "b draw two", "wild", "wd4", "+4", "creeper".

_COLOR_WORDS = {"r": "R", "red": "R", "y": "Y", "yellow": "Y", "g": "G", "green": "G"}
_COLOR_WORDS |= {"b": "B", "blue": "B"}
_FACE_WORDS = {
    "skip": "skip",
    "s": "skip",
    "rev": "rev",
    "reverse": "rev",
    "+2": "+2",
    "d2": "+2",
    "draw2": "+2",
    "drawtwo": "+2",
    "dt": "+2",
}
_WILD_WORDS = {
    "w": "W",
    "wild": "W",
    "w+4": "W+4",
    "wd4": "W+4",
    "w4": "W+4",
    "+4": "W+4",
    "wilddraw4": "W+4",
    "wilddrawfour": "W+4",
    "wild+4": "W+4",
    "c": "C",
    "creeper": "C",
}


def _alias_table() -> dict[str, UnoCard]:
    table: dict[str, UnoCard] = {}
    for word, text in _WILD_WORDS.items():
        table[word] = BY_TEXT[text]
    for color_word, color in _COLOR_WORDS.items():
        for number in range(10):
            table[f"{color_word}{number}"] = BY_TEXT[f"{color}{number}"]
        for face_word, face in _FACE_WORDS.items():
            card = BY_TEXT[f"{color}{face}" if face == "+2" else f"{color}-{face}"]
            table[f"{color_word}{face_word}"] = card
    return table


_ALIASES: Final = _alias_table()
_STRIP = str.maketrans("", "", " -_\t")


def parse_card(text: str, with_creepers: bool = True) -> UnoCard:
    """The card ``text`` names; NotationError if none (or a Creeper in classic UNO)."""
    if not isinstance(text, str):
        raise NotationError(f"card notation must be text, not {type(text).__name__}")
    card = BY_TEXT.get(text) or _ALIASES.get(text.lower().translate(_STRIP))
    if card is None:
        raise NotationError(
            f"{text!r} is not an UNO card (write R7, B+2, Y-skip, G-rev, W, W+4"
            + (", C)" if with_creepers else ")")
        )
    if card is CREEPER_CARD and not with_creepers:
        raise NotationError("there is no Creeper (C) in classic UNO")
    return card


# -- pre-built actions: the hot path hands these out and allocates nothing -------------


def _plays(uno: bool) -> tuple[tuple[Action, ...], ...]:
    table: list[tuple[Action, ...]] = []
    for card in ALL_CARDS:
        if card.is_wild:
            table.append(tuple(Action("play", card=card, choice=c, uno=uno) for c in COLORS))
        else:
            table.append((Action("play", card=card, uno=uno),))
    return tuple(table)


PLAYS: Final = _plays(False)  # by card index: the play actions (one per colour for wilds)
PLAYS_UNO: Final = _plays(True)  # the same, calling UNO
DRAW: Final = Action("draw")
KEEP: Final = Action("keep")
PASS: Final = Action("pass")
CHALLENGE: Final = Action("challenge")
ACCEPT: Final = Action("accept")
UNO_CALL: Final = Action("uno")
COLOR_CHOICES: Final = tuple(Action("color", choice=c) for c in COLORS)
CATCH: Final = tuple(Action("catch", target=s) for s in range(16))
SWAP: Final = tuple(Action("swap", target=s) for s in range(16))  # Seven-O (RULES §4.2)


def _match_table() -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """MATCH[top.index][active colour index][card.index]: may card go on top (§3.5)."""
    rows = []
    for top in ALL_CARDS:
        per_color = []
        for ci in range(4):
            per_color.append(
                tuple(
                    card.is_wild
                    or card.color_index == ci
                    or (top.face is not None and card.face == top.face)
                    for card in ALL_CARDS
                )
            )
        rows.append(tuple(per_color))
    return tuple(rows)


MATCH: Final = _match_table()


def _turn_plays() -> tuple[tuple[tuple[tuple[tuple[Action, ...] | None, ...], ...], ...], ...]:
    """TURN_PLAYS[two][top.index][active colour index][card.index]: the card's plays.

    None where the card does not match; with ``two`` (two cards held) the UNO-calling
    plays follow, so a turn's legal plays are a lookup per distinct card held.
    """
    return tuple(
        tuple(
            tuple(
                tuple(
                    PLAYS[i] + (PLAYS_UNO[i] if two else ()) if ok else None
                    for i, ok in enumerate(MATCH[top.index][ci])
                )
                for ci in range(4)
            )
            for top in ALL_CARDS
        )
        for two in (False, True)
    )


TURN_PLAYS: Final = _turn_plays()
