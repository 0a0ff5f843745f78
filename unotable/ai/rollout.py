"""Fast playout policies for the search player, one per game family.

They run inside sampled worlds (determinized matches built from the searching seat's
view), so reading the sampled match's state is fair: it holds only guesses. They use the
engines' plain attributes when present and fall back to a random legal card otherwise.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS, SHEDDING, Action, get_game

from .cards import UNO_COLOURS, uno_card

Policy = Callable[[Any, int, list[Action], random.Random], Action]


def turn_actions(legal: list[Action]) -> list[Action]:
    """Drop late calls and catches: playouts call UNO with the play and never catch."""
    if any(a.kind in OUT_OF_TURN_KINDS for a in legal):
        kept = [a for a in legal if a.kind not in OUT_OF_TURN_KINDS]
        return kept or legal
    return legal


class UnoPlayout:
    """The normal strategy's main terms, read straight from the sampled match.

    It respects legality the way a careful player does: a Wild Draw Four played while
    holding the active colour is a bluff, made only against a seat on its last card (the
    one case normal bluffs in). A victim challenges with its seat's posterior challenge
    rate (``challenge_rates``, set by the search from its opponent model), so a bluff in
    a playout costs what it costs at the table. Everyone calls UNO with the play.

    House rules (RULES §4): a pending draw is stacked on whenever a card allows it, a 7
    swaps with the seat holding the fewest cards, and under Seven-O a 7 or a 0 is scored
    by the hand it brings in.
    """

    def __init__(self) -> None:
        self.challenge_rates: dict[int, float] = {}
        self.default_challenge = 0.25

    def __call__(self, match: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
        first = legal[0].kind
        if first in ("challenge", "accept"):  # (a stacking play, when there is one, is first)
            rate = self.challenge_rates.get(seat, self.default_challenge)
            wanted = "challenge" if rng.random() < rate else "accept"
            return next((a for a in legal if a.kind == wanted), legal[0])
        return uno_policy(match, seat, legal, rng)


def holds_active(match: Any, seat: int) -> bool:
    """Whether ``seat`` holds a card of the active colour in the sampled match."""
    hands = getattr(match, "hands", None)
    colour = getattr(match, "color", None)
    if hands is None or colour is None:
        return False
    return any(getattr(card, "color_index", -1) == colour for card in hands[seat])


def uno_policy(match: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """Normal's main terms; a bluffed Wild Draw Four only against a seat on one card."""
    hands = getattr(match, "hands", None)
    if hands is not None and type(match).__module__ == _ENGINE:
        return _engine_uno_policy(match, seat, legal)
    return _generic_uno_policy(match, seat, legal)


_ENGINE = "unotable.engine.uno.match"
_NUMBER, _SKIP, _REVERSE, _DRAW_TWO, _WD4 = 0, 1, 2, 3, 5  # the engine's card effects
_COLOUR_INDEX = {c: i for i, c in enumerate(UNO_COLOURS)}


def _engine_uno_policy(match: Any, seat: int, legal: list[Action]) -> Action:
    """``_generic_uno_policy`` reading the engine's card attributes (the playouts' hot path):
    the same choice, without parsing card names."""
    hands = match.hands
    hand = hands[seat]
    held = [0, 0, 0, 0]
    for card in hand:
        if not card.is_wild:
            held[card.color_index] += 1
    n = match.players
    size = len(hand)
    victim_size = len(hands[(seat + match.direction) % n])
    danger = min(len(h) for i, h in enumerate(hands) if i != seat)
    attack = _ATTACK[min(victim_size, 5)]
    wild_cost = (7.0 if size > 3 else 2.0) if size > 1 and danger > 2 else 0.0
    seven_o = getattr(match, "seven_o", False)
    bluff: bool | None = None
    best: Action | None = None
    best_score = -1e9
    fallback: Action | None = None
    for action in legal:
        kind = action.kind
        if kind == "play":
            card = action.card
            effect = card.effect
            if seven_o and effect == _NUMBER and card.points in (0, 7) and size > 1:
                score = _seven_o_bonus(match, seat, int(card.points), size - 1)
                score += held[card.color_index] * 2.0 - 2.0
                if action.uno:
                    score += 0.1
                if score > best_score:
                    best, best_score = action, score
                continue
            if card.is_wild:
                score = held[_COLOUR_INDEX.get(action.choice, 0)] * 2.0 + card.points * 0.04
                score -= wild_cost
                if effect == _WD4:
                    if bluff is None:
                        bluff = held[match.color] > 0
                    if bluff:
                        if victim_size > 1:
                            continue
                        score += 6.0
                    score += attack * 1.2
            else:
                score = held[card.color_index] * 2.0 - 2.0 + card.points * 0.04
            if effect == _DRAW_TWO:
                score += attack * 1.3
            elif effect == _SKIP or (effect == _REVERSE and n == 2):
                score += attack
            if action.uno:
                score += 0.1
            if score > best_score:
                best, best_score = action, score
        elif kind == "color":
            if fallback is None or held[_COLOUR_INDEX.get(action.choice, 0)] > (
                held[_COLOUR_INDEX.get(fallback.choice, 0)] if fallback.kind == "color" else 0
            ):
                fallback = action
        elif kind == "swap":
            if (
                fallback is None
                or fallback.kind != "swap"
                or len(hands[action.target]) < len(hands[fallback.target])
            ):
                fallback = action  # H-2: the fewest cards
        elif kind == "accept" or fallback is None:
            fallback = action
    if best is not None:
        return best
    return fallback if fallback is not None else legal[0]


def _seven_o_bonus(match: Any, seat: int, number: int, after: int) -> float:
    """H-2 in a playout: a 7 takes the shortest other hand; a 0 brings in the hand of the
    seat behind and gives mine to the next seat (a short one nearly wins it the hand)."""
    hands = match.hands
    n = match.players
    if number == 7:
        return 3.0 * (after - min(len(h) for i, h in enumerate(hands) if i != seat))
    behind = len(hands[(seat - match.direction) % n])
    return 3.0 * (after - behind) - _ATTACK[min(after, 5)] * 1.5


def _generic_uno_policy(match: Any, seat: int, legal: list[Action]) -> Action:
    best: Action | None = None
    best_score = -1e9
    hands = getattr(match, "hands", None)
    held = dict.fromkeys(UNO_COLOURS, 0)
    n = match.players
    direction = getattr(match, "direction", 1)
    victim_size, danger, size = 7, 7, 7
    if hands is not None:
        for card in hands[seat]:
            colour = uno_card(card).colour
            if colour is not None:
                held[colour] += 1
        size = len(hands[seat])
        victim_size = len(hands[(seat + direction) % n])
        danger = min(len(h) for i, h in enumerate(hands) if i != seat)
    attack = _ATTACK[min(victim_size, 5)]
    bluff: bool | None = None  # worked out only when a Wild Draw Four is on offer
    fallback: Action | None = None
    for action in legal:
        kind = action.kind
        if kind == "play":
            info = uno_card(action.card)
            colour = info.colour or action.choice or ""
            score = held.get(colour, 0) * 2.0 + info.points * 0.04
            if info.colour is None:
                if size > 1 and danger > 2:
                    score -= 7.0 if size > 3 else 2.0
                if info.kind == "wd4":
                    if bluff is None:
                        bluff = holds_active(match, seat)
                    if bluff:
                        if victim_size > 1:
                            continue  # a bluff is not free: the victim may challenge
                        score += 6.0
                    score += attack * 1.2
            elif info.colour == colour:
                score -= 2.0  # the card itself leaves the colour count
            if info.kind == "draw2":
                score += attack * 1.3
            elif info.kind == "skip" or (info.kind == "rev" and n == 2):
                score += attack
            if action.uno:
                score += 0.1
            if score > best_score:
                best, best_score = action, score
        elif kind == "color":
            if fallback is None or held.get(action.choice or "", 0) > held.get(
                fallback.choice or "", 0
            ):
                fallback = action
        elif kind == "swap" and hands is not None:
            if (
                fallback is None
                or fallback.kind != "swap"
                or len(hands[action.target]) < len(hands[fallback.target])
            ):
                fallback = action  # H-2: the fewest cards
        elif kind == "accept" or fallback is None:
            fallback = action
    if best is not None:
        return best
    return fallback if fallback is not None else legal[0]


_ATTACK = (12.0, 12.0, 7.0, 2.5, 2.5, 0.6)  # by the next hand's size, as normal weighs it


def hearts_policy(match: Any, seat: int, legal: list[Action], rng: random.Random) -> Action:
    """The normal strategy's habits, with the sampled world's hands telling who is void.

    Hot: it reads the engines' card attributes (suit index, rank, points, wild) directly.
    """
    first = legal[0]
    if first.kind != "play":
        for action in legal:
            if action.kind == "decline" or action.choice in ("self", "left"):
                return action
        if first.kind == "give":
            return max(legal, key=lambda a: sum(c.rank for c in a.cards))
        return first
    trick = match.trick
    counts = getattr(match, "counts", None)  # UNO Hearts keeps per-suit counts
    if not trick:
        return min(legal, key=_lead_cost)
    lead_card, lead_declared = trick[0][1], trick[0][2]
    lead = _suit(lead_card, lead_declared)
    best = -1
    points = 0
    for _seat, card, declared in trick:
        points += card.points
        if counts is not None and card.wild:
            points += 1  # a Wild Draw pulls cards into the taker's pile
        if _suit(card, declared) == lead:
            value = _power(card, declared)
            if value > best:
                best = value
    top = first.card
    if top.suit != lead or (counts is not None and top.wild):
        return max(legal, key=_uh_discard if counts is not None else _wt_discard)
    n = match.players
    later = [(seat + k) % n for k in range(1, n - len(trick))]
    if counts is not None:
        void_later = any(counts[s][lead] == 0 for s in later)
        danger_suit, heart = 1, 0
    else:
        hands = match.hands
        void_later = any(not hands[s][lead] for s in later)
        danger_suit, heart = 3, 2
    at_risk = points > 0 or void_later or lead == heart or (lead == danger_suit and bool(later))
    under = [a for a in legal if _power(a.card, a.choice) < best]
    if at_risk or (counts is not None and later):
        if under:
            return max(under, key=lambda a: (a.card.points >= 13, _power(a.card, a.choice)))
        if later:
            return min(legal, key=lambda a: _power(a.card, a.choice) + 80 * _cost(a))
    # nothing at stake (or last to play): win it with the highest card worth shedding
    return max(legal, key=lambda a: _power(a.card, a.choice) - 80 * _cost(a))


_UH_SUITS = {"H": 0, "Y": 1, "P": 2, "G": 3}


def _suit(card: Any, declared: str | None) -> int:
    if card.suit == 4:  # UNO Hearts Wild Draw: the called suit
        return _UH_SUITS.get(declared or "", -1)
    return int(card.suit)


def _power(card: Any, declared: str | None) -> int:
    if card.wild:
        if card.suit == 4:
            return int(card.rank) * 2 + 1  # UNO Hearts: wilds win ties
        return 31 if declared == "HIGH" else 1  # Wild Twist: above the ace / below the 2
    return int(card.rank) * 2


def _cost(action: Action) -> int:
    """Cards not to spend on a trick I take: points, Wild Twist wilds."""
    card = action.card
    return int(card.points) + (1 if card.wild and card.suit != 4 else 0)


def _lead_cost(action: Action) -> float:
    card = action.card
    value = float(_power(card, action.choice))
    if card.wild and card.suit != 4:
        value = 60.0 if action.choice == "HIGH" else 8.0
    if card.points:
        value += 80.0
    return value


def _discard_priority(action: Action, danger_suit: int, danger_rank: int) -> float:
    card = action.card
    points = int(card.points)
    rank = int(card.rank)
    if points >= 13:
        return 1000.0
    if card.wild:
        return 150.0 if points else -10.0 + rank * 0.1
    if card.suit == danger_suit and rank > danger_rank:
        return 500.0 + rank  # the cards that would catch the 13-point card
    if points:
        return 200.0 + rank
    return 100.0 + rank


def _uh_discard(action: Action) -> float:
    return _discard_priority(action, 1, 13)  # yellow above the Yellow 13


def _wt_discard(action: Action) -> float:
    return _discard_priority(action, 3, 12)  # spades above the queen


def policy_for(game_id: str) -> Policy:
    """A fresh policy (the UNO one carries per-seat challenge rates)."""
    return UnoPlayout() if get_game(game_id).facts.family == SHEDDING else hearts_policy
