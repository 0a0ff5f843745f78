"""Determinization for Wild Twist Hearts: a full match consistent with one seat's view.

The search AI calls :func:`determinize` many times per decision, so the common case
(no constraints beyond hand sizes) is a shuffle and slices; voids and the facts the
opening reveals are honoured by a constrained random deal, with an exact matching as
the fallback.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from ..core import GameSpec, Match
from ..tricks import lowest_seats, suit_bits, void_mask
from .cards import (
    CLUBS,
    DECK,
    SUIT_LETTERS,
    WILD_CLUB,
    Card,
    by_suit_with_plays,
    sort_key,
)
from .facts import FACTS
from .match import WildTwistMatch
from .view import CompletedTrick, WildTwistView

Avoid = Mapping[int, frozenset[str]] | Sequence[frozenset[str]]
_SUIT_BIT = suit_bits(SUIT_LETTERS)


def determinize(
    spec: GameSpec, view: WildTwistView, rng: random.Random, avoid: Avoid | None = None
) -> WildTwistMatch:
    """A full match consistent with ``view``; what the seat cannot see is dealt at random.

    Kept: this seat's hand, every public card, hand sizes, the leftovers' count and
    taker, shown voids, and what the opening revealed (who held the Wild Club; natural
    clubs below the opening club lie in the leftovers). ``avoid[s]`` (suit letters)
    is honoured whenever the unseen cards allow.
    """
    n = view.players
    match = _blank(spec, view, rng)
    if view.phase == "over":
        match.winners = lowest_seats(view.scores)
        match.hands = [[[], [], [], []] for _ in range(n)]
        match.plays = [[[], [], [], []] for _ in range(n)]
        return match

    if view.seat is None:
        raise ValueError("a spectator's view has no hand to build a match around")
    me: int = view.seat
    seen: set[Card] = set(view.hand)
    for _leader, _winner, plays in view.tricks:
        seen.update(entry[1] for entry in plays)
    seen.update(entry[1] for entry in view.trick)
    pool = [card for card in DECK if card not in seen]

    lefts = n  # destination index of the leftovers
    capacity = list(view.hand_sizes)
    capacity[me] = 0
    capacity.append(view.leftovers_count)
    fixed: list[list[Card]] = [[] for _ in range(n + 1)]
    fixed[me] = list(view.hand)

    def place(card: Card, dest: int) -> None:
        if card in pool and capacity[dest] > 0:
            pool.remove(card)
            capacity[dest] -= 1
            fixed[dest].append(card)

    masks = [void_mask(suits, _SUIT_BIT) for suits in view.voids]
    points_only = _points_only_seats(view)
    soft = list(masks)
    if avoid is not None:
        items = avoid.items() if isinstance(avoid, Mapping) else enumerate(avoid)
        for seat, suits in items:
            if 0 <= seat < n and seat != me:
                soft[seat] |= void_mask(suits, _SUIT_BIT)
    masks.append(0)
    soft.append(0)
    points_only.append(False)

    # the opening is public: who was offered the Wild Club choice, and which club opened
    if WILD_CLUB in pool:
        place(WILD_CLUB, lefts if view.opening_holder is None else view.opening_holder)
    first = _first_lead(view)
    if first is not None:
        if not first.wild and first.suit == CLUBS:
            for card in _natural_clubs_below(pool, first.rank):
                place(card, lefts)
    elif view.phase == "play" and view.current is not None:
        _place_forced_opener(view, pool, capacity, rng, place)
    elif view.phase == "opening" and view.current == me:
        _place_for_own_opening(view, pool, soft, rng, place)

    dealt = None
    if not any(soft) and not any(points_only):
        dealt = _deal_free(pool, capacity, rng)
    else:
        # the soft wishes first, then only the facts; give up only if the view contradicts itself
        for constraint in (soft, masks) if soft != masks else (masks,):
            dealt = _deal_constrained(pool, capacity, constraint, points_only, rng)
            dealt = dealt or _deal_exact(pool, capacity, constraint, points_only, rng)
            if dealt is not None:
                break
        if dealt is None:
            dealt = _deal_free(pool, capacity, rng)

    hands: list[list[list[Card]]] = []
    match.plays = []
    for seat in range(n):
        hand, hand_plays = by_suit_with_plays(fixed[seat] + dealt[seat])
        hands.append(hand)
        match.plays.append(hand_plays)
    match.hands = hands
    match.leftovers = fixed[lefts] + dealt[lefts]
    if view.phase == "moon":  # the shooter is choosing: the game has been counted
        match.pending_points = list(view.hand_points_visible)
        if view.leftovers_to is not None:
            match.pending_points[view.leftovers_to] += sum(c.points for c in match.leftovers)
    if view.phase == "play" and first is None and view.current is not None:
        clubs = [c for c in hands[view.current][CLUBS] if not c.wild]
        match.forced_lead = clubs[0] if clubs else None
    return match


def _blank(spec: GameSpec, view: WildTwistView, rng: random.Random) -> WildTwistMatch:
    """A match holding every public fact of ``view``; hands and leftovers still to fill."""
    n = view.players
    match = object.__new__(WildTwistMatch)
    Match.__init__(match, spec, n, dict(view.options), rng.getrandbits(63))
    match.length = view.length
    match.no_points_first_trick = view.no_points_first_trick
    match.hand_size = 56 // n
    match.last_trick = view.last_trick
    match.dealer = view.dealer
    match.hand_number = view.hand_number
    match.scores = list(view.scores)
    match.hand_results = list(view.hand_results)
    match.phase = view.phase
    match._hand_over = view.phase == "hand_over"  # next_hand() deals the next game
    match.current = view.current
    match.leader = view.leader
    match.sizes = list(view.hand_sizes)
    match.leftovers = []
    match.leftovers_to = view.leftovers_to
    match.out_of_play = []  # every card is in a hand, the leftovers or a trick
    match.trick = list(view.trick)
    match.lead_suit = -1
    match.best_value = 0
    match.best_seat = 0
    if view.trick:
        _leader, first, led_as = view.trick[0]
        match.lead_suit = first.suit
        lead = FACTS.lead_suit(first, led_as) or ""
        winner = FACTS.trick_winner(view.trick)
        for seat, card, declared in view.trick:
            if seat == winner:
                match.best_value = FACTS.trick_strength(card, declared, lead)
                match.best_seat = seat
    tricks: list[CompletedTrick] = list(view.tricks)
    match.tricks = tricks
    match.taken = [list(t) for t in view.taken]
    match.points_visible = list(view.hand_points_visible)
    match.tricks_won = list(view.tricks_won)
    match.void_masks = [void_mask(suits, _SUIT_BIT) for suits in view.voids]
    match.hearts_broken = view.hearts_broken
    match.moon_shooter = view.moon_shooter
    match.pending_points = []
    match.opening_declined = view.opening_declined
    match.opening_holder = view.opening_holder
    match.forced_lead = None
    return match


def _first_lead(view: WildTwistView) -> Card | None:
    first: Card | None = None  # the views hold any game's cards; this one holds ours
    if view.tricks:
        first = view.tricks[0][2][0][1]
    elif view.trick:
        first = view.trick[0][1]
    return first


def _natural_clubs_below(pool: list[Card], rank: int) -> list[Card]:
    return sorted(
        (c for c in pool if c.suit == CLUBS and not c.wild and c.rank < rank), key=sort_key
    )


def _place_forced_opener(
    view: WildTwistView,
    pool: list[Card],
    capacity: list[int],
    rng: random.Random,
    place: Callable[[Card, int], None],
) -> None:
    """Before the first lead, the seat to lead holds the lowest natural club in any hand."""
    opener = view.current
    assert opener is not None
    own = [c.rank for c in view.hand if c.suit == CLUBS and not c.wild]
    lefts = len(capacity) - 1
    if opener == view.seat:
        below = _natural_clubs_below(pool, min(own) if own else 15)
        for card in below:
            place(card, lefts)
        return
    candidates = _natural_clubs_below(pool, min(own) if own else 15)
    if not candidates:
        return
    choice = rng.randrange(min(capacity[lefts] + 1, len(candidates)))
    for card in candidates[:choice]:
        place(card, lefts)
    place(candidates[choice], opener)


def _place_for_own_opening(
    view: WildTwistView,
    pool: list[Card],
    soft: list[int],
    rng: random.Random,
    place: Callable[[Card, int], None],
) -> None:
    """The Wild Club holder's choices show whether it also holds the lowest natural club."""
    own = [c.rank for c in view.hand if c.suit == CLUBS and not c.wild]
    below = _natural_clubs_below(pool, min(own) if own else 15)
    if any(a.kind == "decline" for a in view.legal):
        if own and below:  # another hand holds a lower club
            others = [s for s in range(view.players) if s != view.seat and view.hand_sizes[s]]
            wanted = [s for s in others if not soft[s] & 1 << CLUBS]
            place(rng.choice(below), rng.choice(wanted or others))
        return
    for card in below:
        place(card, view.players)


def _points_only_seats(view: WildTwistView) -> list[bool]:
    """With no points on the first trick, a point discard there shows only points remain."""
    result = [False] * view.players
    if not view.no_points_first_trick:
        return result
    plays = view.tricks[0][2] if view.tricks else view.trick
    if not plays:
        return result
    lead = plays[0][1].suit
    for seat, card, _declared in plays[1:]:
        if card.suit != lead and card.points:
            result[seat] = True
    return result


def _deal_free(pool: list[Card], capacity: list[int], rng: random.Random) -> list[list[Card]]:
    cards = pool[:]
    rng.shuffle(cards)
    dealt = []
    start = 0
    for size in capacity:
        dealt.append(cards[start : start + size])
        start += size
    return dealt


def _allowed_by_kind(
    masks: list[int], points_only: list[bool], capacity: list[int]
) -> list[list[int]]:
    """Where a card may go, by its kind: suit * 2 + (1 if it carries points)."""
    places = range(len(capacity))
    return [
        [
            d
            for d in places
            if capacity[d] and not masks[d] >> (kind >> 1) & 1 and (kind & 1 or not points_only[d])
        ]
        for kind in range(8)
    ]


def _kind(card: Card) -> int:
    return card.suit * 2 + (card.points > 0)


def _deal_constrained(
    pool: list[Card],
    capacity: list[int],
    masks: list[int],
    points_only: list[bool],
    rng: random.Random,
) -> list[list[Card]] | None:
    """Most constrained cards first, each to an allowed place weighted by free room."""
    allowed = _allowed_by_kind(masks, points_only, capacity)
    width = [len(dests) for dests in allowed]
    # cards of one kind are interchangeable, so their order needs no shuffle
    cards = sorted(pool, key=lambda card: width[card.suit * 2 + (card.points > 0)])
    room = capacity[:]
    dealt: list[list[Card]] = [[] for _ in capacity]
    uniform = rng.random
    for card in cards:
        dests = allowed[card.suit * 2 + (card.points > 0)]
        total = 0
        for d in dests:
            total += room[d]
        if not total:
            return None
        pick = int(uniform() * total)  # randrange is several times slower
        for d in dests:
            pick -= room[d]
            if pick < 0:
                break
        room[d] -= 1
        dealt[d].append(card)
    return dealt


def _deal_exact(
    pool: list[Card],
    capacity: list[int],
    masks: list[int],
    points_only: list[bool],
    rng: random.Random,
) -> list[list[Card]] | None:
    """A deal meeting the constraints by augmenting paths, or None if none exists."""
    dealt: list[list[Card]] = [[] for _ in capacity]
    allowed = _allowed_by_kind(masks, points_only, capacity)

    def seat_card(card: Card, visited: set[int]) -> bool:
        dests = allowed[_kind(card)][:]
        rng.shuffle(dests)
        for d in dests:
            if d in visited:
                continue
            visited.add(d)
            if len(dealt[d]) < capacity[d]:
                dealt[d].append(card)
                return True
            for other in dealt[d]:
                if seat_card(other, visited):
                    dealt[d].remove(other)
                    dealt[d].append(card)
                    return True
        return False

    cards = pool[:]
    rng.shuffle(cards)
    for card in cards:
        if not seat_card(card, set()):
            return None
    return dealt
