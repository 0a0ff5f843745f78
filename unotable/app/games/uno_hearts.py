"""UNO Hearts: four coloured suits, Wild Draws that call a suit, Pass Hand and pass three."""

from __future__ import annotations

from typing import Any, ClassVar

from unotable.engine import Event
from unotable.engine.uno_hearts import SUIT_LETTERS

from ..words import Seats
from .base import Ask, Dialog
from .tricks import TrickPresentation

SUIT_KEYS = {"H": "red", "Y": "yellow", "P": "purple", "G": "green"}
SUIT_WORDS = {"H": "Hearts", "Y": "Yellow", "P": "Purple", "G": "Green"}


class UnoHeartsPresentation(TrickPresentation):
    game_id: ClassVar[str] = "uno-hearts"
    title: ClassVar[str] = "UNO Hearts"
    trick_label_width: ClassVar[int] = len("WD7→H")  # a called suit fits the column too
    option_words: ClassVar[dict[str, dict[Any, str]]] = {
        "moon_mode": {
            "shooter_choice": "shooter picks",
            "others_plus_20": "+20 to others",
            "self_minus_20": "−20 to shooter",
        }
    }
    option_help: ClassVar[dict[str, str]] = {
        "moon_mode": "a moon shot scores −20 to the shooter or +20 to everyone else: the "
        "shooter picks, or it is always one of the two (2 players: any hand where only one "
        "player took points counts)"
    }

    # -- card faces -----------------------------------------------------------------------

    def label(self, card: Any) -> str:
        """'Y13', 'H5', 'WD7'."""
        return str(card.text)

    def colour_key(self, card: Any) -> str:
        return "wild" if card.wild else SUIT_KEYS[SUIT_LETTERS[card.suit]]

    def letter_colour_key(self, letter: str) -> str:
        return SUIT_KEYS.get(letter, "wild")

    def declared_colour_key(self, card: Any, choice: str | None) -> str:
        return self.letter_colour_key(choice) if choice is not None else self.colour_key(card)

    def sort_key(self, card: Any, by: str) -> tuple[int, ...]:
        # a Wild Draw's suit number comes after the four suits
        return (card.suit, card.rank) if by == "suit" else (card.rank, card.suit)

    def choice_word(self, choice: str | None) -> str:
        return "" if choice is None else SUIT_WORDS.get(choice, choice)

    def suit_word(self, letter: str | None) -> str:
        return "" if letter is None else f"{SUIT_WORDS.get(letter, letter)} ({letter})"

    # -- prompts and dialogs --------------------------------------------------------------

    def attempt_choice(self, card: Any) -> str | None:
        return "Y" if card.wild else None

    def dialog(self, ask: Ask) -> Dialog | None:
        if any(a.kind == "direction" for a in ask.legal):
            n, seat, names = len(ask.names.names), ask.seat, ask.names
            left, right = names.subject((seat + 1) % n), names.subject((seat - 1) % n)
            return Dialog(
                "Pass Hand! Which way do all hands go?",
                [
                    ("direction:left", f"Left: each hand moves on, yours to {left}"),
                    ("direction:right", f"Right: back the other way, yours to {right}"),
                ],
                "Every player passes their whole hand; then you lead.",
            )
        return super().dialog(ask)

    def declaration(self, card: Any, plays: list[Any], view: Any) -> Dialog:
        return Dialog(
            f"Play {self.label(card)}: call which suit?",
            [(str(a), self.suit_word(a.choice)) for a in plays],
            "Only suits you hold no natural card of can be called.",
        )

    # -- the table ------------------------------------------------------------------------

    def trick_notes(self, view: Any, names: Seats) -> list[str]:
        return [f"Draw pile {view.draw_pile_size}"]

    # -- the log --------------------------------------------------------------------------

    def describe(self, event: Event, names: Seats) -> str | None:
        kind, seat, data = event.kind, event.seat, event.data
        shown = f": {self.card_list(event.cards)}" if event.cards else ""
        if kind == "pass_chosen":
            return f"{names.does(seat, 'has')} chosen three cards to pass"
        if kind == "pass":
            to = names.object(data.get("to"))
            return f"{names.does(seat, 'passes')} three cards to {to}{shown}"
        if kind == "draw_to_pile":
            listed = self.card_list(event.cards) or f"{event.count} cards"
            return (
                f"{names.does(seat, 'draws')} {event.count} into {names.their(seat)} "
                f"trick pile: {listed}"
            )
        if kind == "pass_hand":
            direction = data.get("direction")
            if direction == "swap":
                return "Pass Hand! The two hands are swapped"
            return f"Pass Hand! {names.does(seat, 'sends')} every hand to the {direction}"
        return super().describe(event, names)
