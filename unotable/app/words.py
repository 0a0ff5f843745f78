"""Player words shared by every game: seats named in the right person, a/an, plurals.

A seat named "You", or the seat of the player the screen shows (the viewer), is the
player reading the screen, so it takes the second person: "You play", "your Wild Draw
Four", "Cleo catches you", "You win the match!".
"""

from __future__ import annotations

from collections.abc import Sequence

YOU = "You"
_IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}


def second_person(verb: str) -> str:
    """'plays' -> 'play', 'catches' -> 'catch', 'is' -> 'are' (other words unchanged)."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith(("ches", "shes", "sses", "xes", "zes")):
        return verb[:-2]
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def article(word: str) -> str:
    """'a' or 'an' before ``word`` as it is read aloud: 'an 8', 'a Skip', 'an Ace'."""
    spoken_vowel = word[:1].lower() in "aeio8" or word in ("11", "18")
    return "an" if spoken_vowel else "a"


def plural(count: int, noun: str, many: str | None = None) -> str:
    """'1 card', '3 cards'."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


class Seats:
    """The names at the table, each in the right grammatical person."""

    def __init__(self, names: Sequence[str], viewer: int | None = None) -> None:
        self.names = list(names)
        self.viewer = viewer

    def name(self, seat: object) -> str | None:
        """The name at ``seat``, or None when ``seat`` is no seat at this table."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return None

    def is_you(self, seat: object) -> bool:
        name = self.name(seat)
        return name is not None and (name == YOU or seat == self.viewer)

    def subject(self, seat: object) -> str:
        return YOU if self.is_you(seat) else self.name(seat) or "?"

    def object(self, seat: object) -> str:
        return "you" if self.is_you(seat) else self.subject(seat)

    def possessive(self, seat: object) -> str:
        """'your' or "Ann's"."""
        return "your" if self.is_you(seat) else f"{self.subject(seat)}'s"

    def their(self, seat: object) -> str:
        """The pronoun after the seat has been named: 'your' or 'their'."""
        return "your" if self.is_you(seat) else "their"

    def verb(self, seat: object, third_person: str) -> str:
        """The verb agreeing with the seat: 'play' for You, 'plays' for Ann."""
        return second_person(third_person) if self.is_you(seat) else third_person

    def does(self, seat: object, third_person: str) -> str:
        """Subject and verb: 'You play' or 'Ann plays'."""
        return f"{self.subject(seat)} {self.verb(seat, third_person)}"

    def all_do(self, seats: Sequence[int], third_person: str) -> str:
        """'You and Ann win', 'Ann wins', 'You win': the verb agrees with all of them."""
        named = [s for s in seats if self.name(s) is not None]
        who = " and ".join(self.subject(s) for s in named) or "?"
        if len(named) == 1:
            return f"{who} {self.verb(named[0], third_person)}"
        return f"{who} {second_person(third_person)}"
