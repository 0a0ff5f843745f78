"""Per-seat opponent model for UNO, learned only from what a seat's own views show.

Two habits matter for the Wild Draw Four (RULES D-33):

* how often a seat bluffs (plays it while holding the active colour). Evidence: a
  challenge shows whether it was a bluff. A seat sees the result of its own challenges
  (the offender's hand grows by 4, or its own by 6) and of challenges against its own
  Wild Draw Fours. Kept in two buckets: against a victim on one card (where even careful
  players bluff to stop the win) and otherwise.
* how often a seat challenges. Evidence: what the victim of my Wild Draw Four did.

Each is a Beta posterior per seat. The model carries over between hands of a match (one
player object per seat per match) and needs no hidden information: only hand sizes,
the discard pile and the seat's own decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unotable.engine import Action

from .cards import UNO_COLOURS, uno_card

PER_COLOUR = 25  # cards of each colour in the deck (RULES §3.1)
HONEST_RATE = 0.5  # chance a seat plays a Wild Draw Four it may play honestly
# Beta priors (successes, failures): bluffs are rare except against a seat on one card.
# A holder of the colour nearly always has another play, so even a 1-in-6 prior made
# every Wild Draw Four look guilty: a seat is challenged once it has been seen bluffing.
BLUFF_PRIOR = (1.0, 30.0)
BLUFF_PRIOR_LAST_CARD = (2.0, 2.0)
CHALLENGE_PRIOR = (1.0, 3.0)
# challenging costs 2 extra cards when wrong and swings 8 cards plus the turn when right
CHALLENGE_THRESHOLD = 0.22


@dataclass
class Beta:
    hits: float
    misses: float

    @property
    def mean(self) -> float:
        return self.hits / (self.hits + self.misses)

    def add(self, hit: bool) -> None:
        if hit:
            self.hits += 1.0
        else:
            self.misses += 1.0


@dataclass
class _Pending:
    kind: str  # "challenged" (I challenged) or "played" (I played a Wild Draw Four)
    other: int  # the offender / the victim
    hand_number: int
    sizes: tuple[int, ...]
    last_card: bool  # the victim was on one card
    moves: int = 0  # Seven-O hand moves seen by then: a move since makes sizes unreadable


@dataclass
class UnoOpponents:
    """Bluff and challenge posteriors per seat, fed with every view the seat receives."""

    bluffs: dict[tuple[int, bool], Beta] = field(default_factory=dict)
    challenges: dict[int, Beta] = field(default_factory=dict)
    pending: _Pending | None = None
    observed: int = 0  # pieces of evidence taken in (for tests and stats)

    # -- posteriors ----------------------------------------------------------------------

    def bluff_rate(self, seat: int, last_card: bool) -> float:
        return self._bluff(seat, last_card).mean

    def challenge_rate(self, seat: int) -> float:
        return self._challenge(seat).mean

    def _bluff(self, seat: int, last_card: bool) -> Beta:
        beta = self.bluffs.get((seat, last_card))
        if beta is None:
            beta = self.bluffs[(seat, last_card)] = Beta(
                *(BLUFF_PRIOR_LAST_CARD if last_card else BLUFF_PRIOR)
            )
        return beta

    def _challenge(self, seat: int) -> Beta:
        beta = self.challenges.get(seat)
        if beta is None:
            beta = self.challenges[seat] = Beta(*CHALLENGE_PRIOR)
        return beta

    def bluff_chance(self, view: Any) -> float:
        """P(the Wild Draw Four now played on me is a bluff), from public cards and the model.

        P(the offender holds the colour) comes from how many cards of it are unseen; the
        seat's posterior bluff rate says how often a holder plays it anyway.
        """
        colour = getattr(view, "challenge_color", None)
        if colour is None:
            return 0.0
        offender = (view.seat - view.direction) % view.players
        size = view.hand_sizes[offender]
        held = held_chance(view, colour, size)
        rate = self.bluff_rate(offender, view.hand_sizes[view.seat] <= 1)
        guilty = held * rate
        honest = (1.0 - held) * HONEST_RATE
        return guilty / (guilty + honest) if guilty + honest > 0 else 0.0

    def should_challenge(self, view: Any) -> bool:
        return self.bluff_chance(view) > CHALLENGE_THRESHOLD

    # -- evidence ------------------------------------------------------------------------

    def observe(self, view: Any) -> None:
        """Resolve what my last Wild Draw Four decision showed, from this view's sizes."""
        pending = self.pending
        if pending is None:
            return
        self.pending = None
        if view.hand_number != pending.hand_number or len(view.hand_sizes) != len(pending.sizes):
            return
        if len(getattr(view, "hand_moves", ())) != pending.moves:
            return  # hands changed seats since (RULES §4.2): the sizes say nothing
        me = view.seat
        grew = [now - before for now, before in zip(view.hand_sizes, pending.sizes, strict=True)]
        if pending.kind == "challenged":
            # innocent: I take 6 (and am skipped); guilty: the offender takes 4, I move at once
            if grew[me] >= 6:
                self._bluff(pending.other, pending.last_card).add(False)
                self.observed += 1
            elif grew[pending.other] >= 4:
                self._bluff(pending.other, pending.last_card).add(True)
                self.observed += 1
        else:
            victim = pending.other
            if grew[victim] < 0:
                return  # it stacked on my Wild Draw Four (RULES §4.1): neither answer
            if grew[me] >= 4 or grew[victim] >= 6:
                self._challenge(victim).add(True)
                self.observed += 1
            elif 4 <= grew[victim] <= 5:
                self._challenge(victim).add(False)
                self.observed += 1

    def decided(self, view: Any, action: Action) -> None:
        """Remember a decision whose outcome the next view will show."""
        if action.kind == "challenge":
            offender = (view.seat - view.direction) % view.players
            self.pending = _Pending(
                "challenged",
                offender,
                view.hand_number,
                tuple(view.hand_sizes),
                view.hand_sizes[view.seat] <= 1,
                len(getattr(view, "hand_moves", ())),
            )
        elif action.kind == "play" and uno_card(action.card).kind == "wd4":
            if getattr(view, "options", {}).get("wd4_bluff", True) is False:
                return
            if getattr(view, "pending", None) in ("stack", "challenge"):
                return  # stacked on a pending draw (RULES §4.1): it cannot be challenged
            victim = (view.seat + view.direction) % view.players
            sizes = list(view.hand_sizes)
            sizes[view.seat] -= 1
            self.pending = _Pending(
                "played",
                victim,
                view.hand_number,
                tuple(sizes),
                sizes[victim] <= 1,
                len(getattr(view, "hand_moves", ())),
            )


def held_chance(view: Any, colour: str, size: int) -> float:
    """P(a hand of ``size`` unseen cards holds at least one card of ``colour``)."""
    seen = dict.fromkeys(UNO_COLOURS, 0)
    for card in view.hand:
        c = uno_card(card).colour
        if c is not None:
            seen[c] += 1
    for card in view.discard:
        c = uno_card(card).colour
        if c is not None:
            seen[c] += 1
    unseen = {c: max(0, PER_COLOUR - seen[c]) for c in UNO_COLOURS}
    pool = max(1, sum(unseen.values()) + 8)
    share = unseen[colour] / pool
    return 1.0 - (1.0 - share) ** max(0, size)
