"""The computer players under the UNO house rules (RULES §4): each level stacks, swaps and
weighs a 7 or a 0 sensibly, the hard player's search handles the new actions, and the
memory of who lacks which colour follows hands that change seats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.ai.levels import build
from unotable.ai.rollout import UnoPlayout
from unotable.ai.uno import Memory
from unotable.engine import get_game
from unotable.tournament import drive

ALL_ON = {"stack": "any", "seven_o": True, "draw_to_match": True}
# five cards each, none twice in a deal (the deck has two of each): nobody is near going out
FILL = ["G1", "G2", "G3", "G4", "G6"]
MORE = ["G7", "G8", "G9", "Y8", "Y9"]
PILE = ["B6", "B7", "B8", "B9", "B6", "B7", "B8", "B9"]


def choose(level: str, match: Any, seat: int, seed: int = 1) -> str:
    player = build(level, "uno", seed, worlds=20) if level == "hard" else build(level, "uno", seed)
    return str(player.choose(match.view(seat)))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_stacks_rather_than_take_a_big_draw(deal: Any, level: str) -> None:
    hands = [["R+2", *FILL], ["B+2", "Y1", "Y2", "Y5", "Y7"], ["Y+2", *FILL], MORE]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    match.apply(1, "B+2")  # four cards aimed at seat 2, who holds a Draw Two
    assert choose(level, match, 2) == "Y+2"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_swaps_with_the_seat_holding_the_fewest_cards(deal: Any, level: str) -> None:
    hands = [["R7", "B1", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"], ["G1"], MORE]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R7")
    assert choose(level, match, 0) == "swap:2"


def test_normal_breaks_a_swap_tie_by_the_cards_it_knows(deal: Any) -> None:
    hands = [["R7", "R1", "W", "W+4"], ["Y1", "Y2", "Y3"], ["G1", "G5", "G9"], MORE]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:1")  # seat 1 now holds R1, W, W+4, and seat 0 knows it
    view = match.view(0)
    assert view.hand_sizes[1] == view.hand_sizes[2] == 3
    brain = build("normal", "uno", 1).brain
    assert brain.swap_score(view, 1) > brain.swap_score(view, 2)


def test_normal_plays_a_seven_for_a_short_hand_and_keeps_it_from_long_ones(deal: Any) -> None:
    mine = ["R7", "R6", "B2", "B3", "B4"]
    short = deal([mine, ["G9"], ["Y1", "Y2", "Y3"], MORE], pile=PILE, seven_o=True)
    assert choose("normal", short, 0) == "R7"  # takes the one-card hand
    long = [mine, [*FILL, "Y1", "Y2"], [*FILL, "Y3", "Y4"], [*MORE, "Y5", "Y6"]]
    assert choose("normal", deal(long, pile=PILE, seven_o=True), 0) == "R6"
    assert choose("normal", deal(long, pile=PILE), 0) == "R7"  # (without Seven-O: points)


def test_normal_keeps_a_zero_that_would_hand_the_next_seat_a_short_hand(deal: Any) -> None:
    hands = [["R0", "Y9"], ["Y1", "Y2", "Y3", "Y4", "Y5"], FILL, MORE]
    off = deal(hands, first="R5", pile=PILE)
    assert choose("normal", off, 0) == "R0!"
    match = deal(hands, first="R5", pile=PILE, seven_o=True)
    assert choose("normal", match, 0) == "draw"  # not Y9 to the next seat and 5 cards back


def test_normal_draws_to_match_only_as_a_last_resort(deal: Any) -> None:
    hands = [["W", "B1", "B2", "B3", "B4", "Y7"], FILL, FILL, MORE]
    brain = build("normal", "uno", 1).brain
    off = deal(hands, first="R5", pile=PILE).view(0)
    on = deal(hands, first="R5", pile=PILE, draw_to_match=True).view(0)
    assert brain.draw_limit(off) == brain.draw_threshold
    assert brain.draw_limit(on) < brain.draw_threshold - 30  # a poor play beats a long draw


def test_normal_stacks_a_wd4_rather_than_challenge_an_unlikely_bluff(deal: Any) -> None:
    hands = [["W+4", *FILL], ["W+4", "Y1", "Y2", "Y5", "Y7"], FILL, MORE]
    match = deal(hands, first="B5", pile=PILE, stack="same")
    match.apply(0, "W+4>G")
    assert choose("normal", match, 1).startswith("W+4>Y")  # and names its colour


def test_the_playout_policy_stacks_and_swaps_to_the_fewest(deal: Any) -> None:
    policy = UnoPlayout()
    hands = [["R+2", *FILL], ["B+2", "Y1", "Y2"], FILL, ["G9"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    legal = match.legal_actions(1)
    assert str(policy(match, 1, list(legal), random.Random(1))) == "B+2"
    sevens = deal([["R7", *FILL], FILL, ["Y1", "Y2"], ["G9"]], pile=PILE, seven_o=True)
    sevens.apply(0, "R7")
    legal = sevens.legal_actions(0)
    assert str(policy(sevens, 0, list(legal), random.Random(1))) == "swap:3"


def test_memory_follows_a_hand_to_its_new_seat() -> None:
    memory = Memory()
    memory.hand_number = 1
    memory.voids = {1: {"R"}, 2: {"G"}}
    view = type(
        "V",
        (),
        {
            "hand_number": 1,
            "hand_moves": ((0, 2, 1, 3),),
            "seat": 0,
            "current": 1,
            "pending": None,
            "options": {},
        },
    )()
    memory.observe(view)
    assert memory.lacks(2) == frozenset({"R"}) and memory.lacks(1) == frozenset({"G"})
    assert memory.moves_seen == 1
    passed = type(
        "V", (), {**view.__class__.__dict__, "hand_moves": ((0, 2, 1, 3), (1, 2, 3, 0))}
    )()
    memory.observe(passed)
    assert memory.lacks(3) == frozenset({"R"}) and memory.lacks(2) == frozenset({"G"})


@pytest.mark.parametrize("game", ["uno", "uno-minecraft"])
def test_hard_searches_every_house_rule_without_error(game: str) -> None:
    seen: set[str] = set()
    for seed in range(3):
        match = get_game(game).new_match(4, {"target": 1, **ALL_ON}, seed=seed)
        players = [
            build(level, game, seed * 4 + s, worlds=8)
            if level == "hard"
            else build(level, game, seed * 4 + s)
            for s, level in enumerate(["hard", "normal", "hard", "easy"])
        ]
        log = drive(match, players, max_hands=1)
        seen |= {a.kind for _s, a in log.decisions}
        for player in players:
            assert getattr(player.brain, "errors", []) == []
        assert log.hands
    assert {"play", "draw", "swap"} <= seen
