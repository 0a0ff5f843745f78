"""Wild Twist Hearts: a 56-card deck with a Wild per suit, played HIGHEST or LOWEST."""

from __future__ import annotations

from typing import Any, ClassVar

from unotable.engine import Event
from unotable.engine.wild_twist import SUIT_LETTERS

from ..words import Seats, plural
from .base import Ask, Dialog
from .tricks import TrickPresentation

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_WORDS = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
SUIT_KEYS = {"C": "suit-green", "D": "suit-blue", "H": "suit-red", "S": "suit-black"}
DECLARATION_WORDS = {"HIGH": "HIGHEST", "LOW": "LOWEST"}


class WildTwistPresentation(TrickPresentation):
    game_id: ClassVar[str] = "wild-twist-hearts"
    title: ClassVar[str] = "Wild Twist Hearts"
    round_word: ClassVar[str] = "Game"

    # -- card faces -----------------------------------------------------------------------

    def label(self, card: Any) -> str:
        """'Q♠' ('QS' in ASCII), 'W♣'."""
        text = str(card.text)
        if self.ascii_only:
            return text
        return text[:-1] + SYMBOLS[SUIT_LETTERS[card.suit]]

    def colour_key(self, card: Any) -> str:
        return SUIT_KEYS[SUIT_LETTERS[card.suit]]

    def letter_colour_key(self, letter: str) -> str:
        return SUIT_KEYS.get(letter, "suit-black")

    def sort_key(self, card: Any, by: str) -> tuple[int, ...]:
        rank = 15 if card.wild else card.rank  # each Wild last in its suit
        return (card.suit, rank) if by == "suit" else (rank, card.suit)

    def choice_word(self, choice: str | None) -> str:
        return "" if choice is None else DECLARATION_WORDS.get(choice, choice)

    def suit_word(self, letter: str | None) -> str:
        if letter is None:
            return ""
        symbol = letter if self.ascii_only else SYMBOLS.get(letter, letter)
        return f"{SUIT_WORDS.get(letter, letter)} {symbol}"

    def play_label(self, card: Any, choice: str | None) -> str:
        """'W♥ HIGHEST'."""
        label = self.label(card)
        return label if choice is None else f"{label} {self.choice_word(choice)}"

    # -- prompts and dialogs --------------------------------------------------------------

    def attempt_choice(self, card: Any) -> str | None:
        return "HIGH" if card.wild else None

    def dialog(self, ask: Ask) -> Dialog | None:
        if any(a.kind == "decline" for a in ask.legal):
            options = []
            for a in ask.legal:
                if a.kind == "decline":
                    options.append(("decline", "Decline: the lowest club opens"))
                else:
                    options.append((str(a), f"Open with {self.play_label(a.card, a.choice)}"))
            return Dialog(
                "You hold the Wild Club",
                options,
                "You may open the game with it as LOWEST, or decline.",
            )
        return super().dialog(ask)

    def declaration(self, card: Any, plays: list[Any], view: Any) -> Dialog:
        return Dialog(
            f"Play {self.label(card)} as HIGHEST or LOWEST?",
            [
                (str(a), "HIGHEST: above the Ace" if a.choice == "HIGH" else "LOWEST: below the 2")
                for a in plays
            ],
            "It only counts when it is of the suit led.",
        )

    # -- the table ------------------------------------------------------------------------

    def trick_notes(self, view: Any, names: Seats) -> list[str]:
        if not view.leftovers_count:
            return []
        cards = plural(view.leftovers_count, "left-over card")
        if view.leftovers_to is not None:
            return [f"{cards} taken by {names.object(view.leftovers_to)}"]
        return [f"{cards} go to the first trick's winner"]

    # -- the log --------------------------------------------------------------------------

    def describe(self, event: Event, names: Seats) -> str | None:
        kind, seat = event.kind, event.seat
        if kind == "opening":
            return f"{names.does(seat, 'holds')} the Wild Club and may open with it"
        if kind == "decline":
            return f"{names.does(seat, 'declines')} to open with the Wild Club"
        return super().describe(event, names)
