"""A hint in player words: ``unotable.ai.hint`` says what and why as data, this words it.

Cards are named by the game's presentation (its labels, as the hand shows them), colours
and suits by its words, seats by name in the right person.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from unotable.ai.hint import Hint, ReasonPart

from .games import GamePresentation
from .words import Seats, plural


def suit_name(game: GamePresentation, letter: str | None) -> str:
    """A colour or suit as said in a sentence: 'red', 'yellow', 'spades'."""
    word = game.suit_word(letter)
    return word.split(" ")[0].lower() if word else ""


def hint_sentence(hint: Hint, game: GamePresentation, names: Sequence[str]) -> str:
    """'Play R7: it keeps red, the colour you hold most'."""
    seats = Seats(names)
    head = _head(hint, game, seats)
    reasons = [r for r in (_reason(p, hint, game, seats) for p in hint.reason_parts) if r]
    if not reasons:
        return head
    return f"{head}: {' and '.join(reasons)}"


def _head(hint: Hint, game: GamePresentation, seats: Seats) -> str:
    action, verb = hint.action, hint.verb
    label = game.play_label(action.card, action.choice) if action.card is not None else ""
    if verb == "play":
        return f"Play {label}" + (" and call UNO" if action.uno else "")
    if verb in ("lead", "follow"):
        return f"{'Lead' if verb == 'lead' else 'Play'} {label}"
    if verb == "dump":
        return f"Dump the {label}"
    if verb == "discard":
        return f"Discard {label}"
    if verb == "draw":
        return "Draw a card (D)"
    if verb == "pass":
        return "Pass (D)"
    if verb == "keep":
        return "Keep the card you drew"
    if verb == "uno":
        return "Call UNO now (U)"
    if verb == "catch":
        return f"Catch {seats.object(action.target)} (C)"
    if verb == "challenge":
        return "Challenge the Wild Draw Four"
    if verb == "accept":
        taken = [p.count for p in hint.reason_parts if p.kind in ("take_draw", "keep_wd4")]
        if taken:  # a pending draw (stacking)
            return f"Take the {plural(taken[0], 'card')} (D)"
        return "Accept the Wild Draw Four"
    if verb == "stack":
        return f"Stack {label}" + (" and call UNO" if action.uno else "")
    if verb == "swap":
        return f"Swap hands with {seats.object(action.target)}"
    if verb == "colour":
        return f"Choose {suit_name(game, action.choice)}"
    return f"Choose {action}"


def _reason(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    wording = _REASONS.get(part.kind)
    return wording(part, hint, game, seats) if wording else ""


def _label(game: GamePresentation, card: Any) -> str:
    return game.label(card) if card is not None else "?"


def _most_colour(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    colour = suit_name(game, part.suit)
    verb = "switches to" if part.change else "keeps"
    return f"it {verb} {colour}, the colour you hold most ({part.count} left)"


def _attack(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    who = seats.subject(part.seat)
    return f"it hits {who}, who has {plural(part.count, 'card')} left"


def _dump_points(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    if game.has_uno_calls:
        return f"it sheds {part.count} points from your hand"
    return f"it gets rid of {plural(part.count, 'point')}"


def _winning(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    return f"{seats.does(part.seat, 'is')} winning the trick with {_label(game, part.card)}"


def _under(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    return f"it stays under {seats.possessive(part.seat)} {_label(game, part.card)}"


def _forced_over(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    return (
        f"every {suit_name(game, part.suit)} card you hold beats "
        f"{seats.possessive(part.seat)} {_label(game, part.card)}"
    )


def _challenge(part: ReasonPart, hint: Hint, game: GamePresentation, seats: Seats) -> str:
    colour = suit_name(game, part.suit)
    return f"{seats.subject(part.seat)} may well have held a {colour} card"


def _fixed(text: str) -> Callable[[ReasonPart, Hint, GamePresentation, Seats], str]:
    return lambda part, hint, game, seats: text


_REASONS: dict[str, Callable[[ReasonPart, Hint, GamePresentation, Seats], str]] = {
    # UNO
    "uno_call": _fixed("it leaves you one card"),
    "attack": _attack,
    "most_colour": _most_colour,
    "saves_wild": _fixed("it saves your wild for later"),
    "dump_points": _dump_points,
    "only_play": _fixed("it is the only card you can play"),
    "matches": lambda p, h, g, s: f"it matches the pile ({suit_name(g, p.suit)})",
    "draw_nothing_playable": _fixed("nothing in your hand matches"),
    "draw_keep_wild": _fixed("your only plays are better kept for later"),
    "nothing_to_draw": _fixed("nothing matches and there is nothing to draw"),
    "keep_drawn": _fixed("playing it now would not help you"),
    "play_drawn": _fixed("the card you just drew can be played"),
    "late_uno": _fixed("you have one card and did not call UNO: call before you are caught"),
    "catch": lambda p, h, g, s: f"{s.does(p.seat, 'has')} one card and did not call UNO",
    "challenge": _challenge,
    "accept": _fixed("a failed challenge would cost you 6 cards"),
    # UNO house rules (RULES §4)
    "stack": lambda p, h, g, s: (
        f"the draw grows to {plural(p.count, 'card')} and goes on to {s.object(p.seat)}"
    ),
    "take_draw": _fixed("you have nothing to stack on it"),
    "keep_wd4": lambda p, h, g, s: (
        f"{plural(p.count, 'card')} is a small draw: keep your Wild Draw Four for later"
    ),
    "swap_fewest": lambda p, h, g, s: f"{s.does(p.seat, 'has')} the fewest cards ({p.count})",
    "seven_swap": lambda p, h, g, s: (
        f"with the 7 you can take {s.possessive(p.seat)} hand of {plural(p.count, 'card')}"
    ),
    "zero_pass": lambda p, h, g, s: (
        f"the 0 brings you {s.possessive(p.seat)} hand of {plural(p.count, 'card')}"
    ),
    "choose_colour": lambda p, h, g, s: (
        f"you hold {plural(p.count, suit_name(g, p.suit) + ' card')}"
    ),
    # Hearts
    "void": lambda p, h, g, s: f"you are void in {suit_name(g, p.suit)}",
    "winning": _winning,
    "under": _under,
    "trick_points": lambda p, h, g, s: f"the trick holds {plural(p.count, 'point')}",
    "take_safe": _fixed("you play last and the trick holds no points"),
    "forced_over": _forced_over,
    "shed_high": lambda p, h, g, s: (
        f"a high {suit_name(g, p.suit)} card is safe to shed while the suit is fresh"
    ),
    "high_card": lambda p, h, g, s: (
        f"it beats {plural(p.count, 'unseen card')} of its suit and could win a trick later"
    ),
    "makes_void": lambda p, h, g, s: f"it leaves you void in {suit_name(g, p.suit)}",
    "safe_low": lambda p, h, g, s: f"{plural(p.count, 'card')} still out beat it",
    "nobody_follows": lambda p, h, g, s: f"nobody else can follow {suit_name(g, p.suit)}",
    "moon_stop": lambda p, h, g, s: (
        f"{s.subject(p.seat)} has taken every point so far: taking one stops the moon"
    ),
    "other": _fixed(""),
}


def kinds_worded() -> frozenset[str]:
    """Every reason kind this module words (tests check none is missing)."""
    return frozenset(_REASONS)
