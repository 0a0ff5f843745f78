"""Fixed yardsticks for bench/ai_strength.py: the bot a club player writes in an hour.

Simple, sensible heuristics and nothing else; they never change with the levels they
measure. They see only their seat's view, like every player.

* UNO (both decks): play the card that keeps the colour I hold most; an action card
  (Skip, Reverse, Draw Two, Wild Draw Four) at the next player when it is on few cards;
  wilds last; always call UNO, always catch, never challenge, never bluff.
* Hearts games (UNO Hearts, Wild Twist Hearts): duck under the card winning the trick,
  dump the highest points when void, lead low; pass the three highest cards.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from unotable.ai.cards import trick_card, uno_card
from unotable.engine import Action

OUT_OF_TURN = ("uno", "catch")


class UnoReference:
    level = "reference"

    def wants_to_act(self, view: Any) -> bool:
        return bool(view.legal)

    def choose(self, view: Any) -> Action:
        legal = list(view.legal)
        for action in legal:
            if action.kind in OUT_OF_TURN:
                return action  # call late / catch whenever offered
        kinds = {a.kind for a in legal}
        held = Counter(uno_card(c).colour for c in view.hand if uno_card(c).colour)
        if "accept" in kinds:
            return next(a for a in legal if a.kind == "accept")
        if "color" in kinds:
            return max((a for a in legal if a.kind == "color"), key=lambda a: held[a.choice])
        plays = [a for a in legal if a.kind == "play" and (a.uno or not _has_uno_twin(a, legal))]
        if not plays:
            return next((a for a in legal if a.kind in ("keep", "draw", "pass")), legal[0])
        victim = view.hand_sizes[(view.seat + view.direction) % view.players]
        active = view.active_color

        def score(action: Action) -> float:
            info = uno_card(action.card)
            colour = info.colour or action.choice
            left = held[colour] - (1 if info.colour == colour else 0)
            value = float(left)
            if info.kind in ("skip", "rev", "draw2", "wd4") and victim <= 2:
                value += 10.0
            if info.colour is None:
                value -= 20.0  # wilds last
                if info.kind == "wd4" and held[active] > 0:
                    value -= 100.0  # never bluff
            return value + info.points / 100.0

        return max(plays, key=score)


def _has_uno_twin(action: Action, legal: list[Action]) -> bool:
    """``R7`` when ``R7!`` (play and call UNO) is also legal: always take the call."""
    return any(a.uno and a.card == action.card and a.choice == action.choice for a in legal)


class HeartsReference:
    level = "reference"

    def wants_to_act(self, view: Any) -> bool:
        return bool(view.legal)

    def choose(self, view: Any) -> Action:
        legal = list(view.legal)
        first = legal[0]
        if first.kind == "give":
            return max(legal, key=lambda a: sum(_rank(c, None) + 20 * _points(c) for c in a.cards))
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            for action in legal:
                if action.kind == "decline" or action.choice == "self":
                    return action
            return first
        lead = view.lead_suit
        if not view.trick or lead is None:
            return min(plays, key=lambda a: (_points(a.card), _rank(a.card, a.choice)))
        following = [
            a for a in plays if trick_card(a.card).suit == lead
        ]  # a called wild never follows
        if not following:  # void: dump the most points, then the highest card
            return max(plays, key=lambda a: (_points(a.card), _rank(a.card, a.choice)))
        in_suit = [(c, d) for _s, c, d in view.trick if _suit_of(c, d) == lead]
        best = max((_rank(card, declared) for card, declared in in_suit), default=-1)
        under = [a for a in following if _rank(a.card, a.choice) < best]
        if under:
            return max(under, key=lambda a: _rank(a.card, a.choice))
        return min(following, key=lambda a: (_points(a.card), _rank(a.card, a.choice)))


def _points(card: Any) -> int:
    return trick_card(card).points


def _rank(card: Any, declared: str | None) -> int:
    info = trick_card(card)
    if info.wild and info.suit is not None:  # Wild Twist: high or low as declared
        return 15 if declared == "HIGH" else 1
    return info.rank


def _suit_of(card: Any, declared: str | None) -> str | None:
    info = trick_card(card)
    if info.suit is None:  # UNO Hearts Wild Draw: the called suit
        return declared
    return info.suit


def reference_bot(game_id: str) -> Any:
    if game_id in ("uno", "uno-minecraft"):
        return UnoReference()
    return HeartsReference()
