"""The findings of issue 13, pinned on fixed positions (no clocks: fixed world counts).

Normal always calls UNO; UNO playouts bluff a Wild Draw Four only against a seat on its
last card; challenges follow the per-seat posterior; hard searches from the first card;
the search's override needs an edge that survives the number of candidates; Hearts hard
never second-guesses throwing the 13-point card on another seat's trick.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from unotable.ai.levels import build
from unotable.ai.opponents import UnoOpponents
from unotable.ai.rollout import UnoPlayout
from unotable.ai.search import choose, override_bound
from unotable.engine import Action, get_game

SEVEN = (
    ["B1", "B2", "B3", "B4", "B5", "B9", "B9"],
    ["Y1", "Y2", "Y3", "Y4", "Y5", "Y9", "Y9"],
    ["Y1", "Y2", "Y3", "Y4", "Y5", "G9", "G9"],
)


def test_normal_and_hard_always_call_uno(deal: Any) -> None:
    match = deal([["R7", "G3"], SEVEN[0], SEVEN[1], SEVEN[2]], first="R1")
    view = match.view(0)
    assert {str(a) for a in view.legal} >= {"R7", "R7!"}
    for level in ("normal", "hard"):
        for seed in range(40):
            settings = {"worlds": 4} if level == "hard" else {}
            action = build(level, "uno", seed, **settings).choose(view)
            assert action.kind != "play" or action.uno, f"{level} seed {seed}: {action}"


def _wd4_position(deal: Any, victim_cards: int) -> Any:
    victim = ["G1", "G2", "G3", "G4", "G5", "G1", "G2"][:victim_cards]
    return deal([["W+4", "R5", "B9"], victim, SEVEN[1], SEVEN[2]], first="R1")


def test_uno_playout_bluffs_only_against_a_seat_on_its_last_card(deal: Any) -> None:
    policy = UnoPlayout()
    for cards, bluffs in ((3, False), (1, True)):
        match = _wd4_position(deal, cards)
        legal = match.legal_actions(0)
        chosen = {str(policy(match, 0, list(legal), random.Random(s))) for s in range(20)}
        assert any(c.startswith("W+4") for c in chosen) is bluffs, (cards, chosen)


def _challenge_view(offender_cards: int, my_cards: int = 5) -> Any:
    return SimpleNamespace(
        seat=1,
        players=4,
        direction=1,
        challenge_color="R",
        hand_sizes=(offender_cards, my_cards, 6, 6),
        hand=("G1", "G2", "B3", "B4", "Y5")[:my_cards],
        discard=("R1", "W+4"),
    )


def test_challenges_follow_the_seat_posterior() -> None:
    model = UnoOpponents()
    view = _challenge_view(offender_cards=5)
    assert not model.should_challenge(view)  # a fresh seat is presumed honest
    for _ in range(3):
        model._bluff(0, False).add(True)  # seat 0 was caught bluffing three times
    assert model.should_challenge(view)
    assert model.bluff_rate(2, False) == UnoOpponents().bluff_rate(2, False)  # seat 0 only
    # against a seat on its last card even careful players bluff: challenge at once
    assert UnoOpponents().should_challenge(_challenge_view(5, my_cards=1))


def test_hard_searches_from_the_first_card() -> None:
    spec = get_game("uno")
    searched_early = 0
    for seed in range(6):
        match = spec.new_match(4, {"target": 10000}, seed=seed)
        player = build("hard", "uno", seed, worlds=6)
        for _ in range(8):
            seat = match.current
            view = match.view(seat)
            if seat == 0 and view.pending is None and len(view.legal) > 2:
                player.brain.last_stats = {}
                match.apply(seat, player.choose(view))
                if player.brain.last_stats and min(view.hand_sizes) >= 6:
                    assert player.brain.last_stats["worlds"] == 6
                    searched_early += 1
                    break
            else:
                match.apply(seat, build("normal", "uno", seed).choose(view))
    assert searched_early >= 3


def test_override_needs_an_edge_that_survives_many_candidates() -> None:
    assert override_bound(2) < override_bound(6) < override_bound(16)
    # candidate 1 is ahead of the default (0) by 0.1 with spread 0.4 over 60 worlds:
    # z = 1.94 standard errors, enough against one rival, not against fifteen
    n, mean, sd = 60, 0.1, 0.4
    total, total_sq = mean * n, (sd * sd * (n - 1) / n + mean * mean) * n
    diffs, diffs_sq = [0.0, total], [0.0, total_sq]
    assert choose(diffs, diffs_sq, n, [0, 1], 0, override_bound(2)) == 1
    assert choose(diffs, diffs_sq, n, [0, 1], 0, override_bound(16)) == 0


def test_hearts_hard_throws_the_13_point_card_without_searching() -> None:
    player = build("hard", "wild-twist-hearts", 1, worlds=4)
    view = SimpleNamespace(trick=((2, "5D", None),), lead_suit="D")
    throw = Action("play", card="QS")
    assert not player.brain.searchable(view, [throw, Action("play", card="2C")], throw)
    keep = Action("play", card="2C")
    assert player.brain.dumps_top_card(view, keep) is False


@pytest.mark.parametrize(("game", "players"), [("uno", 4), ("uno-minecraft", 3), ("uno", 2)])
def test_the_playout_policys_fast_path_chooses_as_the_generic_one(game: str, players: int) -> None:
    # Search playouts read the engine's card attributes directly; every choice must be the
    # one the name-reading policy makes, over whole seeded hands.
    from unotable.ai.rollout import _engine_uno_policy, _generic_uno_policy, turn_actions

    compared = 0
    for seed in range(60):
        match = get_game(game).new_match(players, {"target": 10000}, seed=seed)
        rng = random.Random(seed)
        while not match.hand_results:
            seat = match.current if match.current is not None else match.actors()[0]
            legal = turn_actions(match.legal_actions(seat))
            fast = _engine_uno_policy(match, seat, legal)
            assert fast == _generic_uno_policy(match, seat, legal), f"seed {seed}: {legal}"
            compared += 1
            match.apply(seat, fast if rng.random() < 0.7 else rng.choice(legal))
    assert compared > 1000


PILE = [
    "Y6",
    "Y6",
    "Y7",
    "Y7",
    "Y8",
    "Y8",
    "B6",
    "B6",
    "B7",
    "B7",
    "B8",
    "B8",
    "G7",
    "G7",
    "G3",
    "R1",
    "R2",
    "R3",
    "R4",
    "R6",
]


def test_a_seat_that_drew_is_sampled_without_a_playable_card(deal: Any) -> None:
    from unotable.ai.search import refine
    from unotable.engine.uno import determinize
    from unotable.engine.uno.cards import MATCH

    # seat 1 holds no red, no 7 and no wild: on R7 it must draw
    hands = [["R7", "G3", "B4"], ["G1", "G2", "G4", "G5", "G6", "G8", "G9"], SEVEN[0], SEVEN[1]]
    match = deal(hands, first="R5", pile=PILE)
    hard = build("hard", "uno", 1, worlds=2)
    normal = build("normal", "uno", 1)
    first = match.view(0)
    seven = next(a for a in first.legal if str(a) == "R7")
    hard.brain.prior.memory.after(first, seven)
    match.apply(0, seven)
    while match.current != 0:
        seat = match.current
        match.apply(seat, normal.choose(match.view(seat)))
    view = match.view(0)
    memory = hard.brain.prior.memory
    memory.observe(view)
    assert "R" in memory.lacks(1)
    blocked = hard.brain.blocked(view)
    top, colour = blocked[1]
    for seed in range(30):
        world = determinize(view, random.Random(seed))
        cards = sorted(c.index for h in world.hands for c in h) + sorted(
            c.index for c in world.draw_pile
        )
        refine(world, blocked, random.Random(seed))
        assert not any(MATCH[top][colour][c.index] for c in world.hands[1])
        assert len(world.hands[1]) == view.hand_sizes[1]
        after = sorted(c.index for h in world.hands for c in h) + sorted(
            c.index for c in world.draw_pile
        )
        assert sorted(after) == sorted(cards)  # the same cards, only moved


def test_hard_keeps_action_cards_for_defence_while_nobody_is_close(deal: Any) -> None:
    from unotable.ai.uno import HardUnoBrain, UnoBrain

    mine = ["R-skip", "R3", "G5", "B6"]
    quiet = deal([mine, SEVEN[0], SEVEN[1], SEVEN[2]], first="R7")
    view = quiet.view(0)
    rng = random.Random(1)
    assert str(UnoBrain().decide(view, view.legal, rng)) == "R-skip"
    assert str(HardUnoBrain().decide(view, view.legal, rng)) == "R3"
    # the next seat on two cards: the Skip is what it was kept for
    close = deal([mine, ["B1", "B2"], SEVEN[1], SEVEN[2]], first="R7")
    view = close.view(0)
    assert str(HardUnoBrain().decide(view, view.legal, rng)) == "R-skip"
    # the lobby's hard player searches on top of this prior
    assert isinstance(build("hard", "uno", 1).brain.prior, HardUnoBrain)
