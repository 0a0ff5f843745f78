"""Events in player words, for the log panel and the table's notices."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unotable.engine import Event

from .cards import CardStyle

_PENALTY_REASONS = {
    "draw_two": "a Draw Two",
    "wild_draw_four": "a Wild Draw Four",
    "challenge": "a failed bluff",
    "catch": "being caught without calling UNO",
}


# kinds whose line names at most the acting seat
_PLAIN_LINES = {
    "creeper": "{who} drew a Creeper! Everyone sees it; three more cards",
    "skip": "{who} is skipped",
    "exposed": "{who} has one card and did not call UNO: catch them!",
    "keep": "{who} keeps the drawn card",
    "accept": "{who} accepts the Wild Draw Four",
    "reshuffle": "The discard pile is shuffled into a new draw pile",
    "dealer": "{who} deals first",
    "hearts_broken": "Hearts are broken",
    "pass_chosen": "{who} has chosen three cards to pass",
    "opening": "{who} holds the Wild Club and may open with it",
    "decline": "{who} declines to open with the Wild Club",
}

_YOU_VERBS = {"is": "are", "has": "have", "passes": "pass", "catches": "catch"}


def _you(line: str | None) -> str | None:
    """Grammar for a seat named "You": "You plays" -> "You play", "You is" -> "You are"."""
    if line is None or not line.startswith("You "):
        return line
    verb, _, rest = line[4:].partition(" ")
    fixed = _YOU_VERBS.get(verb) or (verb[:-1] if verb.endswith("s") else verb)
    return f"You {fixed} {rest}".rstrip()


def describe(event: Event, names: Sequence[str], cards: CardStyle) -> str | None:
    """One log line for ``event`` (already redacted for the viewer), or None to omit it."""
    return _you(_describe(event, names, cards))


def _describe(event: Event, names: Sequence[str], cards: CardStyle) -> str | None:
    kind = event.kind
    who = _seat_name(names, event.seat) or ""
    data: Any = event.data

    def card_list() -> str:
        return " ".join(cards.label(c) for c in event.cards)

    def shown() -> str:
        return f": {card_list()}" if event.cards else ""

    def named(key: str) -> str:
        name = _seat_name(names, data.get(key))
        return "?" if name is None else name

    if kind in _PLAIN_LINES:
        return _PLAIN_LINES[kind].format(who=who)
    if kind == "play":
        wild = event.cards and _is_wild(event)
        choice = data.get("declared") or (data.get("color") if wild else None)
        text = f"{who} plays {cards.play_label(event.cards[0], choice)}"
        return text + " and calls UNO!" if data.get("uno") else text
    if kind == "draw":
        count = event.count
        noun = "card" if count == 1 else "cards"
        return f"{who} draws {count} {noun}{shown()}"
    if kind == "bonus":
        return f"{who} takes {event.count} bonus cards for the Creeper{shown()}"
    if kind == "penalty":
        reason = _PENALTY_REASONS.get(data.get("reason", ""), data.get("reason", "a penalty"))
        return f"{who} must draw {event.count} for {reason}"
    if kind == "reverse":
        return "Play reverses: now " + (
            "clockwise" if data.get("direction", 1) > 0 else "counter-clockwise"
        )
    if kind == "uno":
        return f"{who} calls UNO!" + (" (late, but safe)" if data.get("late") else "")
    if kind == "catch":
        return f"{who} catches {named('target')}: two cards for not calling UNO"
    if kind == "pass" and "to" not in data:
        return f"{who} passes (nothing left to draw)"
    if kind == "pass":
        return f"{who} passes three cards to {named('to')}{shown()}"
    if kind == "challenge":
        verdict = "it was a bluff!" if data.get("guilty") else "it was legal"
        return f"{who} challenges {named('target')}'s Wild Draw Four: {verdict}"
    if kind == "reveal":
        return f"{who} shows their hand: {card_list()}" if event.cards else None
    if kind == "color":
        return f"{who} chooses {cards.choice_word(data.get('color'))}"
    if kind == "flip":
        return f"First card turned up: {card_list()}"
    if kind == "flip_return":
        return f"{card_list()} goes back into the pile; turning up another"
    if kind == "deal":
        number = data.get("hand") or data.get("hand_number")
        if event.cards:
            return f"Hand {number}: you are dealt {card_list()}" if number else None
        return None
    if kind == "hand":
        return f"You are dealt {card_list()}" if event.cards else None
    if kind == "trick_won":
        points = data.get("points", 0)
        extra = f" ({points} point{'s' if points != 1 else ''})" if points else ""
        leftovers = data.get("leftovers")
        tail = f", and the {leftovers} card(s) left from the deal, unseen" if leftovers else ""
        return f"{who} takes trick {data.get('trick', '')}{extra}{tail}"
    if kind == "draw_to_pile":
        listed = card_list() or f"{event.count} cards"
        return f"{who} draws {event.count} into their trick pile: {listed}"
    if kind == "pass_hand":
        direction = data.get("direction")
        if direction == "swap":
            return "Pass Hand! The two hands are swapped"
        return f"Pass Hand! {who} sends every hand to the {direction}"
    if kind == "moon":
        choice = data.get("choice")
        if choice is None:
            return f"{who} shot the moon!"
        if choice == "self":
            return f"{who} shot the moon and takes points off their own total"
        return f"{who} shot the moon: everyone else takes the points"
    if kind == "hand_end":
        winner = _seat_name(names, data.get("winner"))
        if winner is not None:
            return f"{winner} wins the hand"
        return "The hand is over"
    if kind == "match_end":
        winners = [names[s] for s in data.get("winners", ()) if s < len(names)]
        return "Match over: " + " and ".join(winners) + (" win" if len(winners) > 1 else " wins")
    if kind in ("dealer_draw",):
        return None
    return f"{who} {kind.replace('_', ' ')} {card_list()}".strip()


def _seat_name(names: Sequence[str], seat: object) -> str | None:
    """The name at ``seat``, or None when ``seat`` is no seat at this table."""
    return names[seat] if isinstance(seat, int) and seat < len(names) else None


def _is_wild(event: Event) -> bool:
    card = event.cards[0]
    return getattr(card, "is_wild", False) or getattr(card, "wild", False)
