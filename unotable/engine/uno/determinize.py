"""Sample a full match consistent with what one seat knows (for search players).

What a seat knows of the others' hands is ``view.known``: the cards a challenge showed
it, the Creepers revealed to all, and with Seven-O (RULES §4.2) the whole hand it gave
away and whatever it knew of a hand that moved; every such card is dealt to the seat now
holding it. The rest of each hand is unseen and dealt at random.

Who knows what goes into the sampled match too, as far as the seat can tell: what all
know (``view.known_to_all``: revealed Creepers, in the hand now holding them) is public
there, the rest of ``view.known`` is the seat's own. What the others know privately (a
hand they gave away, a hand a challenge showed them) is left out: the view does not carry
it and often cannot (when a hand that someone once saw reaches this seat, which of its
cards were drawn since is the former holder's secret), no card's place depends on it, and
the playouts read the sampled hands themselves rather than anyone's knowledge.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from operator import attrgetter

from ..core import GameSpec, Match
from .cards import COLOR_INDEX, MATCH, WD4, UnoCard
from .match import PENDING_CHALLENGE, PENDING_DRAWN, UnoMatch
from .view import UnoView


def determinize(
    spec: GameSpec,
    view: UnoView,
    rng: random.Random,
    avoid: Mapping[int, frozenset[str]] | None = None,
) -> UnoMatch:
    """A match agreeing with ``view``: the viewer's hand, every public card, hand sizes,
    draw pile size and known cards; unseen cards go at random to the other hands and
    the draw pile. ``avoid[s]`` names colours seat s probably lacks (dropped when
    impossible). The match plays on normally; its own rng is drawn from ``rng``.
    """
    if view.phase in ("over", "hand_over"):
        raise ValueError("no hand is being played: there is nothing to determinize")
    if view.seat is None:
        raise ValueError("a spectator's view has no hand to build a match around")
    cls = spec.match_class
    assert issubclass(cls, UnoMatch)
    match = cls.__new__(cls)
    Match.__init__(match, spec, view.players, dict(view.options), rng.getrandbits(63))
    match._reset_table()
    n = view.players
    me: int = view.seat
    match.hand_number = view.hand_number
    match.scores = list(view.scores)
    match.hand_results = [view.last_hand] if view.last_hand is not None else []
    match.dealer = view.dealer
    match.direction = view.direction
    match.current = view.current
    match.discard = list(view.discard)
    match.color = COLOR_INDEX[view.active_color] if view.active_color else 0
    match.pending = view.pending
    match.exposed = view.exposed
    match.passes = view.passes
    match.revealed = list(view.revealed)
    match.draw_count = view.pending_draw
    if view.pending_draw and len(view.discard) > 1 and view.current is not None:
        match.draw_by = (view.current - view.direction) % view.players
    match.hand_moves = list(view.hand_moves)

    pool = Counter(cls.DECK)
    pool.subtract(view.hand)
    pool.subtract(view.discard)
    hands: list[list[UnoCard]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    to_all = view.known_to_all
    for seat, cards in enumerate(view.known):
        public = list(to_all[seat]) if seat < len(to_all) else []
        if seat == me:
            match.public_known[me] = public if to_all else list(cards)  # as all know them
            continue
        for card in cards:
            if pool[card] > 0 and len(hands[seat]) < view.hand_sizes[seat]:
                pool[card] -= 1
                hands[seat].append(card)
        # what everyone knows stays everyone's, in the hand that holds it now (not the
        # hand that revealed it: RULES §4.2); the rest of what we know is ours alone
        held = Counter(hands[seat])
        shown: list[UnoCard] = []
        for card in public:
            if held[card] > 0:
                held[card] -= 1
                shown.append(card)
        match.public_known[seat] = shown
        if len(hands[seat]) > len(shown):
            match.private_known[seat][me] = list(hands[seat])
    unseen = list(pool.elements())
    rng.shuffle(unseen)

    current = view.current
    if view.pending == PENDING_DRAWN and current is not None:
        if current == me:
            match.drawn = view.drawn
        elif unseen:
            # the card the current seat just drew: any unseen card (shuffled above); one
            # it may play if it drew to match (H-3: the run stops at a playable card)
            at = len(unseen) - 1
            if match.draw_to_match:
                top, colour = view.discard[-1].index, match.color
                for i in range(len(unseen) - 1, -1, -1):
                    card = unseen[i]
                    if MATCH[top][colour][card.index] and (card is not WD4 or match.bluff_allowed):
                        at = i
                        break
            card = unseen.pop(at)
            match.drawn = card
            hands[current].append(card)

    avoid = avoid or {}
    for seat in range(n):
        if seat == me:
            continue
        need = view.hand_sizes[seat] - len(hands[seat])
        if need <= 0:
            continue
        lacks = avoid.get(seat)
        if lacks:
            fits = [i for i, c in enumerate(unseen) if c.color not in lacks]
            if len(fits) >= need:
                chosen = set(fits[:need])
                hands[seat] += [unseen[i] for i in fits[:need]]
                unseen = [c for i, c in enumerate(unseen) if i not in chosen]
                continue
        hands[seat] += unseen[:need]
        del unseen[:need]
    match.hands = [sorted(h, key=attrgetter("index")) for h in hands]
    match.draw_pile = unseen[: view.draw_pile_size]
    match.out_of_play = unseen[view.draw_pile_size :]

    if view.pending == PENDING_CHALLENGE and current is not None:
        offender = (current - view.direction) % n
        color = COLOR_INDEX[view.challenge_color or "R"]
        match.wd4_player = offender
        match.wd4_color = color
        match.wd4_hand = tuple(match.hands[offender])
        match.wd4_guilty = any(c.color_index == color for c in match.hands[offender])
    return match
