"""How cards look: a short label that always names the colour or suit, and a style.

Pure functions from a card (the engines' interned card objects) to text and rich styles,
per game, theme and card style. Colour is never the only signal: every label carries
its colour letter or suit symbol.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

# colour key -> (background, foreground) per theme; "white" cards carry a coloured suit
_PALETTES: dict[str, dict[str, tuple[str, str]]] = {
    "standard": {
        "red": ("#c62828", "#ffffff"),
        "yellow": ("#f9d71c", "#000000"),
        "green": ("#2e9d3a", "#000000"),
        "blue": ("#1e5bc6", "#ffffff"),
        "purple": ("#8e44ad", "#ffffff"),
        "wild": ("#303030", "#ffffff"),
        "suit-red": ("#f2f2f2", "#c62828"),
        "suit-black": ("#f2f2f2", "#000000"),
        "suit-blue": ("#f2f2f2", "#c62828"),
        "suit-green": ("#f2f2f2", "#000000"),
    },
    # Okabe-Ito colours, distinguishable with the common colour-vision deficiencies;
    # Wild Twist uses a four-colour deck so no two suits share a colour.
    "colour-blind": {
        "red": ("#d55e00", "#000000"),
        "yellow": ("#f0e442", "#000000"),
        "green": ("#009e73", "#000000"),
        "blue": ("#0072b2", "#ffffff"),
        "purple": ("#cc79a7", "#000000"),
        "wild": ("#303030", "#ffffff"),
        "suit-red": ("#f2f2f2", "#d55e00"),
        "suit-black": ("#f2f2f2", "#000000"),
        "suit-blue": ("#f2f2f2", "#0072b2"),
        "suit-green": ("#f2f2f2", "#009e73"),
    },
}

UNO_COLOURS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
COLOUR_WORDS = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}
HEARTS_SUITS = ("H", "Y", "P", "G")  # UNO Hearts suit index -> letter
HEARTS_COLOURS = {"H": "red", "Y": "yellow", "P": "purple", "G": "green"}
HEARTS_WORDS = {"H": "Hearts", "Y": "Yellow", "P": "Purple", "G": "Green"}
TWIST_SUITS = "CDHS"
TWIST_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
TWIST_WORDS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
TWIST_COLOURS = {"C": "suit-green", "D": "suit-blue", "H": "suit-red", "S": "suit-black"}
DECLARATION_WORDS = {"HIGH": "HIGHEST", "LOW": "LOWEST"}


class CardStyle:
    """Labels and styles for one game, theme and card style (unicode or ascii)."""

    def __init__(self, game: str, theme: str = "standard", ascii_only: bool = False) -> None:
        self.game = game
        self.theme = theme
        self.ascii_only = ascii_only
        self.palette = _PALETTES.get(theme)  # None: monochrome

    # -- words ----------------------------------------------------------------------------

    def label(self, card: Any) -> str:
        """The card's short face: 'R7', 'R+2', 'Wild+4', 'Y13', 'WD7', 'Q♠' / 'QS'."""
        text = str(card)
        if self.game in ("uno", "uno-minecraft"):
            return {"W": "Wild", "W+4": "Wild+4", "C": "Creeper"}.get(text, text)
        if self.game == "wild-twist-hearts":
            suit = text[-1]
            if self.ascii_only:
                return text
            return text[:-1] + TWIST_SYMBOLS.get(suit, suit)
        return text

    def colour_key(self, card: Any) -> str:
        if self.game in ("uno", "uno-minecraft"):
            color = getattr(card, "color", None)
            return UNO_COLOURS.get(color or "", "wild")
        if self.game == "uno-hearts":
            if getattr(card, "wild", False):
                return "wild"
            return HEARTS_COLOURS[HEARTS_SUITS[card.suit]]
        if self.game == "wild-twist-hearts":
            return TWIST_COLOURS[TWIST_SUITS[card.suit]]
        return "wild"

    def choice_word(self, choice: str | None) -> str:
        """A declared colour, suit or HIGH/LOW in player words."""
        if choice is None:
            return ""
        if self.game in ("uno", "uno-minecraft"):
            return COLOUR_WORDS.get(choice, choice)
        if self.game == "uno-hearts":
            return HEARTS_WORDS.get(choice, choice)
        return DECLARATION_WORDS.get(choice, choice)

    def suit_word(self, letter: str | None) -> str:
        if letter is None:
            return ""
        if self.game == "wild-twist-hearts":
            symbol = letter if self.ascii_only else TWIST_SYMBOLS.get(letter, letter)
            return f"{TWIST_WORDS.get(letter, letter)} {symbol}"
        if self.game == "uno-hearts":
            return f"{HEARTS_WORDS.get(letter, letter)} ({letter})"
        return f"{COLOUR_WORDS.get(letter, letter)} ({letter})"

    def play_label(self, card: Any, choice: str | None) -> str:
        """A played card with its declaration: 'Wild→R', 'WD7→H', 'W♥ HIGH'."""
        label = self.label(card)
        if choice is None:
            return label
        arrow = "->" if self.ascii_only else "→"
        if self.game == "wild-twist-hearts":
            return f"{label} {DECLARATION_WORDS.get(choice, choice)}"
        return f"{label}{arrow}{choice}"

    # -- styles ---------------------------------------------------------------------------

    def style(self, card: Any, *, dim: bool = False, choice: str | None = None) -> Style:
        key = self.colour_key(card)
        if choice is not None and self.game in ("uno", "uno-minecraft", "uno-hearts"):
            key = (UNO_COLOURS if self.game != "uno-hearts" else HEARTS_COLOURS).get(choice, key)
        return self.colour_style(key, dim=dim)

    def colour_style(self, key: str, *, dim: bool = False) -> Style:
        if self.palette is None:
            return Style(dim=True) if dim else Style(bold=True, reverse=True)
        if dim:
            return Style(color="#808080", bgcolor="#262626")
        background, foreground = self.palette[key]
        return Style(color=foreground, bgcolor=background, bold=True)

    def text(self, card: Any, *, dim: bool = False, choice: str | None = None) -> Text:
        """The card as a padded chip: ' R7 ' in its colours."""
        return Text(f" {self.play_label(card, choice)} ", style=self.style(card, dim=dim))

    def colour_chip(self, letter: str) -> Text:
        """An active colour or led suit as a chip with its word: ' Red (R) '."""
        if self.game in ("uno", "uno-minecraft"):
            key = UNO_COLOURS.get(letter, "wild")
        elif self.game == "uno-hearts":
            key = HEARTS_COLOURS.get(letter, "wild")
        else:
            key = TWIST_COLOURS.get(letter, "suit-black")
        return Text(f" {self.suit_word(letter)} ", style=self.colour_style(key))


def sort_cards(cards: tuple[Any, ...], game: str, by: str) -> list[Any]:
    """The hand in display order: by colour/suit then value, or by value then colour."""
    if by == "suit":
        return sorted(cards, key=lambda c: _suit_rank(c, game))
    return sorted(cards, key=lambda c: _suit_rank(c, game)[::-1])


def _suit_rank(card: Any, game: str) -> tuple[int, int]:
    if game in ("uno", "uno-minecraft"):
        color = getattr(card, "color", None)
        if not color:
            return (4, 13 + card.index)  # wilds after every colour and every value
        return ("RYGB".index(color), card.index % 13)
    if game == "uno-hearts":
        return (card.suit, card.rank)
    rank = card.rank if not card.wild else 15
    return (card.suit, rank)
