"""How good an UNO position is for each seat: the leaf estimate of the hard player's search.

A playout stops after a few rounds; the position it reached is then scored by the chance
of each seat going out first. The chance is a conditional logit (softmax over seats) of a
few facts about each hand: its size (with extra weight for one, two or three cards), the
wilds and Wild Draw Fours it holds, how many colours and action cards it holds, its place
in the turn order, and whether a one- or two-card hand can play on the pile now.

The weights were fitted by maximum likelihood on positions of hands played to the end by
the playout policy itself (30,000 hands per game, 4 players; ``bench/fit_uno_value.py``
regenerates them). On held-out positions the fitted model's log-likelihood of the winner is
-1.200 (UNO) and -1.211 (Minecraft), against -1.301 / -1.324 for hand size alone and
-1.386 for a coin with four sides.

It reads the sampled world's hands: fair, since a sampled world holds only guesses.
"""

from __future__ import annotations

import math
from typing import Any

# size, size==1, size==2, size==3, wilds, Wild Draw Fours, colours, action cards,
# to move, moves next, moved last, one card and to move, one card and can play,
# one card, to move and can play, two cards and to move, two cards and can play
WEIGHTS: dict[str, tuple[float, ...]] = {
    "uno": (
        -0.274, 0.663, 0.137, 0.144, 0.299, 0.563, 0.069, 0.127,
        0.127, 0.031, -0.024, -0.436, 0.889, 6.969, 0.037, 0.48,
    ),
    "uno-minecraft": (
        -0.259, 0.638, 0.123, 0.145, 0.289, 0.491, 0.087, 0.12,
        0.105, 0.024, -0.017, -0.424, 0.841, 7.014, 0.032, 0.453,
    ),
}  # fmt: skip

_SKIP, _REVERSE, _DRAW_TWO, _WD4 = 1, 2, 3, 5  # the engine's card effects


def features(match: Any, seat: int) -> tuple[float, ...]:
    """The facts about ``seat``'s hand the estimate weighs (see WEIGHTS)."""
    n = match.players
    turn = match.current if match.current is not None else seat
    place = ((seat - turn) * match.direction) % n
    hand = match.hands[seat]
    size = len(hand)
    wild = wd4 = action = 0
    colours = 0
    colour = match.color
    top = match.discard[-1] if match.discard else None
    face = top.face if top is not None else None
    playable = 0
    for card in hand:
        if card.is_wild:
            wild += 1
            if card.effect == _WD4:
                wd4 += 1
            playable = 1
        else:
            colours |= 1 << card.color_index
            if card.effect in (_SKIP, _REVERSE, _DRAW_TWO):
                action += 1
            if card.color_index == colour or (face is not None and card.face == face):
                playable = 1
    one, two = size == 1, size == 2
    first = place == 0
    return (
        min(size, 15),
        one,
        two,
        size == 3,
        wild,
        wd4,
        bin(colours).count("1"),
        action,
        first,
        place == 1,
        place == n - 1,
        one and first,
        one and playable,
        one and first and playable,
        two and first,
        two and playable,
    )


def win_chance(match: Any, me: int, game_id: str = "uno") -> float:
    """The estimated chance that ``me`` goes out first from the sampled ``match``."""
    weights = WEIGHTS.get(game_id, WEIGHTS["uno"])
    utilities = [utility(match, s, weights) for s in range(match.players)]
    top = max(utilities)
    exps = [math.exp(u - top) for u in utilities]
    return exps[me] / sum(exps)


def utility(match: Any, seat: int, weights: tuple[float, ...]) -> float:
    """``weights`` times ``features(match, seat)``, written out (the search's hot path)."""
    (w_size, w_one, w_two, w_three, w_wild, w_wd4, w_colours, w_action) = weights[:8]
    (w_first, w_next, w_last, w_one_first, w_one_play, w_one_first_play) = weights[8:14]
    w_two_first, w_two_play = weights[14:16]
    n = match.players
    turn = match.current if match.current is not None else seat
    place = ((seat - turn) * match.direction) % n
    hand = match.hands[seat]
    size = len(hand)
    value = w_size * (size if size < 15 else 15)
    colour = match.color
    face = match.discard[-1].face if match.discard else None
    playable = False
    colours = 0
    for card in hand:
        if card.is_wild:
            value += w_wild
            if card.effect == _WD4:
                value += w_wd4
            playable = True
        else:
            colours |= 1 << card.color_index
            effect = card.effect
            if 0 < effect < 4:  # Skip, Reverse, Draw Two
                value += w_action
            if card.color_index == colour or (face is not None and card.face == face):
                playable = True
    value += w_colours * _BITS[colours]
    if place == 0:
        value += w_first
    elif place == 1:
        value += w_next
    if place == n - 1:
        value += w_last
    if size == 1:
        value += w_one
        if place == 0:
            value += w_one_first
            if playable:
                value += w_one_first_play
        if playable:
            value += w_one_play
    elif size == 2:
        value += w_two
        if place == 0:
            value += w_two_first
        if playable:
            value += w_two_play
    elif size == 3:
        value += w_three
    return value


_BITS = tuple(bin(i).count("1") for i in range(16))
