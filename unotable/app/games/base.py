"""What every game's presentation provides: card faces, prompts, dialogs, panels and words.

One subclass per game (see the registry in ``__init__``); the screens ask it and never
branch on the game. Colour is never the only signal: every card label carries its colour
letter or suit symbol.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text

from unotable.engine import Action, Event

from ..words import Seats

# colour key -> (background, foreground) per theme; every pair reaches WCAG AA (4.5:1),
# which tests/test_app_presentation.py checks. Textual's themes: see palette_for.
PALETTES: dict[str, dict[str, tuple[str, str]]] = {
    "standard": {
        "red": ("#c62828", "#ffffff"),
        "yellow": ("#f9d71c", "#000000"),
        "green": ("#2e9d3a", "#000000"),
        "blue": ("#1e5bc6", "#ffffff"),
        "purple": ("#8e44ad", "#ffffff"),
        "wild": ("#303030", "#ffffff"),
        "suit-red": ("#f2f2f2", "#c62828"),
        "suit-black": ("#f2f2f2", "#000000"),
        "suit-blue": ("#f2f2f2", "#c62828"),  # two-colour deck: diamonds red, clubs black
        "suit-green": ("#f2f2f2", "#000000"),
    },
    # Okabe-Ito colours, distinguishable with the common colour-vision deficiencies;
    # Wild Twist uses a four-colour deck so no two suits share a colour. As suit text
    # on white they are darkened just enough to stay readable.
    "colour-blind": {
        "red": ("#d55e00", "#000000"),
        "yellow": ("#f0e442", "#000000"),
        "green": ("#009e73", "#000000"),
        "blue": ("#0072b2", "#ffffff"),
        "purple": ("#cc79a7", "#000000"),
        "wild": ("#303030", "#ffffff"),
        "suit-red": ("#f2f2f2", "#b04a00"),
        "suit-black": ("#f2f2f2", "#000000"),
        "suit-blue": ("#f2f2f2", "#0066a8"),
        "suit-green": ("#f2f2f2", "#007a5a"),
    },
}
# A card that cannot be played now: grey, but still readable.
DIM_COLOURS = ("#262626", "#a8a8a8")
# Where a Textual theme's colours go on the cards: the theme colour nearest in hue to
# each card colour (a theme's "error" is its red). Hues in degrees.
CARD_HUES = {"red": 0, "yellow": 55, "green": 125, "blue": 215, "purple": 285}
SUIT_FACE = "#f2f2f2"


def palette_for(theme: str) -> dict[str, tuple[str, str]] | None:
    """The card colours of a theme: unotable's own, or taken from a Textual theme's
    colours. None: monochrome."""
    if theme == "monochrome":
        return None
    if theme in PALETTES:
        return PALETTES[theme]
    return _theme_palette(theme)


@cache
def _theme_palette(theme: str) -> dict[str, tuple[str, str]]:
    from textual.color import Color
    from textual.theme import BUILTIN_THEMES

    palette = dict(PALETTES["standard"])
    source = BUILTIN_THEMES.get(theme)
    if source is None:
        return palette
    names = ("error", "warning", "success", "primary", "secondary", "accent")
    candidates = {}
    for name in names:
        value = getattr(source, name)
        if isinstance(value, str) and value.startswith("#"):  # not "ansi_red": no RGB
            h, s, _ = Color.parse(value).hsl
            if s >= 0.3:
                candidates[name] = (h * 360, value)
    for key, hue in CARD_HUES.items():
        near = [
            (min(abs(h - hue), 360 - abs(h - hue)), name, value)
            for name, (h, value) in candidates.items()
        ]
        near = [n for n in near if n[0] <= 35]
        if not near:
            continue  # the theme has no such colour: the standard one
        _, name, value = min(near)
        del candidates[name]  # two card colours never share one theme colour
        palette[key] = (value, _readable_on(value))
    # suit letters on a light card face: the theme's red, darkened until readable
    palette["suit-red"] = palette["suit-blue"] = (SUIT_FACE, _darkened(palette["red"][0]))
    return palette


def _luminance(colour: str) -> float:
    from textual.color import Color

    def channel(c: int) -> float:
        c8 = c / 255
        return c8 / 12.92 if c8 <= 0.03928 else ((c8 + 0.055) / 1.055) ** 2.4

    r, g, b = Color.parse(colour).rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(one: str, other: str) -> float:
    a, b = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _readable_on(background: str) -> str:
    """Black or white, whichever reads better: one of them always reaches 4.5:1."""
    return max(("#000000", "#ffffff"), key=lambda text: _contrast(text, background))


def _darkened(colour: str) -> str:
    from textual.color import Color

    shade = Color.parse(colour)
    while _contrast(shade.hex, SUIT_FACE) < 4.5:
        shade = shade.darken(0.05)
    return shade.hex


@dataclass(frozen=True)
class Dialog:
    """A question for a human: a title, a line of explanation, (key, label) answers."""

    title: str
    options: list[tuple[str, str]]
    explanation: str = ""


@dataclass(frozen=True)
class Ask:
    """What a presentation needs to word a dialog for the human at ``seat``."""

    view: Any
    legal: list[Action]
    names: Seats
    seat: int
    uno_marked: bool = False
    moon_points: int = 0


@dataclass(frozen=True)
class SeatRow:
    """One seat's game columns (after name, kind and cards) and its flags."""

    cells: list[str]
    flags: list[str] = field(default_factory=list)


class GamePresentation(ABC):
    """Words and looks for one game, in one card theme and card style (unicode or ascii)."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    round_word: ClassVar[str] = "Hand"  # what one deal is called: "Hand", "Game"
    has_tricks: ClassVar[bool] = False  # trick-taking: the last-trick key works
    has_uno_calls: ClassVar[bool] = False  # the UNO call and catch keys work
    # event kinds worth a line in the centre's recent lines as well as in the log
    seat_columns: ClassVar[tuple[tuple[str, int], ...]] = (("Score", 5),)

    def __init__(self, theme: str = "standard", ascii_only: bool = False) -> None:
        self.theme = theme
        self.ascii_only = ascii_only
        self.palette = palette_for(theme)  # None: monochrome

    # -- card faces -----------------------------------------------------------------------

    @abstractmethod
    def label(self, card: Any) -> str:
        """The card's short face, always naming its colour or suit: 'R7', 'Q♠'."""

    @abstractmethod
    def colour_key(self, card: Any) -> str:
        """The palette entry the card is drawn in."""

    @abstractmethod
    def letter_colour_key(self, letter: str) -> str:
        """The palette entry of a colour or suit letter ('R', 'H', 'S')."""

    @abstractmethod
    def sort_key(self, card: Any, by: str) -> tuple[int, ...]:
        """Display order: ``by`` is "suit" (colour or suit, then value) or "value"."""

    @abstractmethod
    def suit_word(self, letter: str | None) -> str:
        """A colour or suit in words with its letter or symbol: 'Red (R)', 'Spades ♠'."""

    def choice_word(self, choice: str | None) -> str:
        """A declared colour, suit or HIGH/LOW in player words."""
        return "" if choice is None else choice

    def play_label(self, card: Any, choice: str | None) -> str:
        """A played card with its declaration: 'Wild→R', 'WD7→H'."""
        label = self.label(card)
        if choice is None:
            return label
        return f"{label}{'->' if self.ascii_only else '→'}{choice}"

    def declared_colour_key(self, card: Any, choice: str | None) -> str:
        """The palette entry of a played card: a wild takes the colour it was declared."""
        return self.colour_key(card)

    def sort(self, cards: Iterable[Any], by: str) -> list[Any]:
        return sorted(cards, key=lambda card: self.sort_key(card, by))

    # -- styles ---------------------------------------------------------------------------

    def style(self, card: Any, *, dim: bool = False, choice: str | None = None) -> Style:
        return self.colour_style(self.declared_colour_key(card, choice), dim=dim)

    def colour_style(self, key: str, *, dim: bool = False) -> Style:
        if self.palette is None:
            return Style(dim=True) if dim else Style(bold=True, reverse=True)
        background, foreground = DIM_COLOURS if dim else self.palette[key]
        return Style(color=foreground, bgcolor=background, bold=not dim)

    def text(self, card: Any, *, dim: bool = False, choice: str | None = None) -> Text:
        """The card as a padded chip: ' R7 ' in its colours."""
        return Text(f" {self.play_label(card, choice)} ", style=self.style(card, dim=dim))

    def colour_chip(self, letter: str) -> Text:
        """An active colour or led suit as a chip with its word: ' Red (R) '."""
        return Text(
            f" {self.suit_word(letter)} ", style=self.colour_style(self.letter_colour_key(letter))
        )

    # -- prompts and dialogs --------------------------------------------------------------

    @abstractmethod
    def status(self, view: Any, name: str, uno_marked: bool) -> str:
        """The status line for the human whose turn it is (``view`` is theirs)."""

    def key_word(self, action: str, view: Any, kinds: set[str]) -> str | None:
        """What the keys bar calls the table's ``action`` now, when the binding's own
        description would say less (``kinds``: the kinds of the acting human's actions)."""
        return None

    def keys_hint(self) -> str:
        return (
            "←/→ and Enter, or its number"
            if not self.ascii_only
            else "arrows and Enter, or its key"
        )

    def attempt_choice(self, card: Any) -> str | None:
        """The declaration to try with a card that is not playable (to get the reason)."""
        return None

    def dialog(self, ask: Ask) -> Dialog | None:
        """The dialog for a choice that is not a card from the hand, if this game has it."""
        return None

    def declaration(self, card: Any, plays: list[Action], view: Any) -> Dialog:
        """Which colour, suit or HIGHEST/LOWEST a wild is played as."""
        label = self.label(card)
        return Dialog(f"Play {label} as?", [(str(a), self.choice_word(a.choice)) for a in plays])

    # -- the table ------------------------------------------------------------------------

    @abstractmethod
    def centre(self, view: Any, names: Seats, width: int) -> tuple[str, Text]:
        """The middle of the table (pile or trick) and its border title."""

    def direction(self, view: Any) -> int:
        """Which way play goes: +1 clockwise, -1 counter-clockwise."""
        return 1

    def seat_row(self, view: Any, seat: int) -> SeatRow:
        """This game's columns and flags for one seat."""
        return SeatRow([str(view.scores[seat])])

    # -- the scoreboard -------------------------------------------------------------------

    def lowest_wins(self, options: Any) -> bool:
        return True

    def goal(self, options: Any, hands_played: int) -> str:
        """How far the match still has to go, in a sentence."""
        if "target" in options:
            return f"The match ends at {options['target']} points."
        return ""

    # -- the lobby ------------------------------------------------------------------------

    # a choice option's values in words (option name -> value -> words), and help that
    # replaces the engine's where that names values: the engine's values are identifiers
    option_words: ClassVar[dict[str, dict[Any, str]]] = {}
    option_help: ClassVar[dict[str, str]] = {}

    @classmethod
    def choice_label(cls, option: str, value: Any) -> str:
        return cls.option_words.get(option, {}).get(value) or str(value).replace("_", " ")

    @classmethod
    def house_rules(cls, options: Any) -> str:
        """The house rules a match plays with, in words ("House rules: Stacking (any),
        Seven-O"); empty when it plays by the rulebook alone."""
        on = [words for words, _ in cls.house_rules_on(options)]
        return f"House rules: {', '.join(on)}" if on else ""

    @classmethod
    def house_rules_on(cls, options: Any) -> list[tuple[str, Any]]:
        """Each house rule ``options`` turn on: its words ("Stacking (any)") and its
        OptionSpec (RULES §4: the engine's options of group "house")."""
        from unotable.engine import get_game

        options = options if isinstance(options, Mapping) else {}
        on = []
        for option in get_game(cls.game_id).options:
            value = options.get(option.name, option.default)
            if option.group != "house" or value == option.default:
                continue
            said = "" if option.kind == "bool" else f" ({cls.choice_label(option.name, value)})"
            on.append((option.label + said, option))
        return on

    # -- the log --------------------------------------------------------------------------

    def describe(self, event: Event, names: Seats) -> str | None:
        """This game's line for ``event``; NOT_MINE when the shared lines word it."""
        return NOT_MINE

    def card_list(self, cards: Sequence[Any]) -> str:
        return " ".join(self.label(card) for card in cards)


NOT_MINE: Any = object()  # describe(): the event is worded by the shared lines
