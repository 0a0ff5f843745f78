"""Determinization for UNO Hearts: a full match consistent with one seat's view.

The search AI samples many of these per decision, so this builds the match state
directly (no replay) from the view's public table and the seat's own knowledge.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from ..core import GameSpec
from ..tricks import lowest_seats, suit_bits, void_mask
from .cards import DECK, G8, P8, SUIT_INDEX, SUIT_LETTERS, Card, sort_key
from .facts import FACTS
from .match import GAME_ID, PHASE_HAND_OVER, PHASE_OVER, PHASE_PASS, RNG_SEEDED, UnoHeartsMatch
from .view import UnoHeartsView

_SUIT_BITS = suit_bits(SUIT_LETTERS)


def determinize(
    spec: GameSpec,
    view: UnoHeartsView,
    rng: random.Random,
    avoid: Mapping[int, frozenset[str]] | Sequence[frozenset[str]] | None = None,
) -> UnoHeartsMatch:
    """See :func:`unotable.engine.uno_hearts.determinize`."""
    if view.game != GAME_ID:
        raise ValueError(f"not an UNO Hearts view: {view.game!r}")
    n = view.players
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to build a match around")
    me: int = view.seat
    if avoid is None:
        avoid = view.voids
    elif isinstance(avoid, Mapping):
        avoid = [avoid.get(s, frozenset()) for s in range(n)]
    known = view.known_hands

    out: set[Card] = set(view.hand)
    for trick_pile in view.taken:
        out.update(trick_pile)
    for _, card, _ in view.trick:
        out.add(card)
    for cards in known:
        out.update(cards)
    rand = rng.random
    pool = [c for c in DECK if c not in out]
    keys = [rand() for _ in pool]  # shuffle by random keys: faster than rng.shuffle
    pool = [pool[i] for i in sorted(range(len(pool)), key=keys.__getitem__)]

    hands: list[list[Card]] = [list(view.hand) if s == me else list(known[s]) for s in range(n)]
    shuffled = pool
    # most constrained seats choose first, so their allowed cards are not used up
    order = sorted((s for s in range(n) if s != me), key=lambda s: -len(avoid[s]))
    stuck = False
    for seat in order:
        need = view.hand_sizes[seat] - len(hands[seat])
        if need <= 0:
            continue
        banned = avoid[seat]
        if not banned:
            hands[seat] += pool[:need]
            pool = pool[need:]
            continue
        taken: list[Card] = []
        rest: list[Card] = []
        for card in pool:
            if len(taken) < need and (card.wild or card.text[0] not in banned):
                taken.append(card)
            else:
                rest.append(card)
        if len(taken) < need:  # greedy failed: fill up for now, try an exact deal below
            stuck = True
            extra = rest[: need - len(taken)]
            taken += extra
            rest = rest[len(extra) :]
        hands[seat].extend(taken)
        pool = rest
    if stuck:
        needs = {s: view.hand_sizes[s] - len(known[s]) for s in order}
        exact = _deal_exact(shuffled, needs, avoid)
        if exact is not None:  # None: the avoid sets contradict the view; keep the greedy deal
            dealt, pool = exact
            for seat in order:
                hands[seat] = list(known[seat]) + dealt[seat]
    pile = pool[: view.draw_pile_size]

    match = object.__new__(UnoHeartsMatch)
    match.spec = spec
    match.players = n
    match.options = MappingProxyType(dict(view.options))
    match.seed = rng.randrange(2**63)
    match.rng = rng  # a placeholder: the match seeds its own rng when it first deals
    match._rng_mode = RNG_SEEDED
    match.hand_number = view.hand_number
    match.scores = list(view.scores)
    match.hand_results = list(view.hand_results)
    match.history = []
    match.log = []
    options = view.options
    match.target = options["target"]
    match.pass_three = options["pass_three"]
    match.moon_mode = options["moon_mode"] if options["shoot_the_moon"] else None
    match._init_state()
    match.winners = ()
    if view.phase == PHASE_OVER:
        match.winners = lowest_seats(view.scores)
    match._hand_over = view.phase == PHASE_HAND_OVER  # next_hand() deals the next one

    match.phase = view.phase
    match._current = view.current
    match.dealer = view.dealer
    match._set_hands(hands)
    mine = match.seen[me]
    for cards in known:
        mine.update(cards)
    match.draw_pile = pile
    match.leader = view.leader
    match.hearts_broken = view.hearts_broken
    match.taken = [list(t) for t in view.taken]
    match.hand_points = list(view.hand_points_visible)
    match.tricks_won = list(view.tricks_won)
    match.tricks = list(view.tricks)
    match.last_trick = view.last_trick
    match.voids = [void_mask(v, _SUIT_BITS) for v in view.voids]
    match.pass_hands = list(view.pass_hands)
    match.moon_shooter = view.moon_shooter
    match.received[me] = view.received

    _restore_trick(match, view)
    match.passes[me] = view.passed or None
    if view.phase == PHASE_PASS:
        pending = set(view.pass_pending)
        for seat in range(n):
            if seat != me and seat not in pending:  # chose already, we cannot know what
                match.passes[seat] = tuple(sorted(rng.sample(match.hands[seat], 3), key=sort_key))
    return match


def _restore_trick(match: UnoHeartsMatch, view: UnoHeartsView) -> None:
    """The running trick's lead, best card, draw total and pass flag, from its plays."""
    match.trick = list(view.trick)
    if view.trick:
        _leader, first, led_as = view.trick[0]
        match.lead = SUIT_INDEX[led_as] if led_as is not None else first.suit
        match.best_seat = FACTS.trick_winner(view.trick)
        match.best_rank = next(c.rank for s, c, _d in view.trick if s == match.best_seat)
    for _seat, card, _declared in view.trick:
        rank = card.rank
        if card.wild:
            match.trick_wild_sum += rank
        else:
            match.trick_points += card.points
            if card is P8 or card is G8:
                match.trick_pass = True


def _deal_exact(
    pool: list[Card], needs: dict[int, int], avoid: Sequence[frozenset[str]]
) -> tuple[dict[int, list[Card]], list[Card]] | None:
    """Cards for every seat's need, none of a suit it avoids, by augmenting paths.

    Only called when the greedy deal fails, so speed matters little. Returns the cards
    per seat and the cards left over (in pool order), or None if no such deal exists.
    """
    owner: dict[Card, int] = {}

    def allowed(card: Card, seat: int) -> bool:
        return card.wild or card.text[0] not in avoid[seat]

    def augment(seat: int, visited: set[Card]) -> bool:
        for card in pool:
            if card in visited or not allowed(card, seat):
                continue
            visited.add(card)
            holder = owner.get(card)
            if holder is None or augment(holder, visited):
                owner[card] = seat
                return True
        return False

    for seat, need in needs.items():
        for _ in range(max(need, 0)):
            if not augment(seat, set()):
                return None
    dealt: dict[int, list[Card]] = {seat: [] for seat in needs}
    rest: list[Card] = []
    for card in pool:
        holder = owner.get(card)
        if holder is None:
            rest.append(card)
        else:
            dealt[holder].append(card)
    return dealt, rest
