"""The engines' fast paths agree with the checked ones, over thousands of seeded games.

UNO and Wild Twist Hearts send an action by the seat to move from ``apply()`` straight
to its rule handler; here every action, legal or not, goes both that way and through
the generic ``Match.apply`` (all checks first) on a twin match, and the two must return
the same events, raise the same errors and end in the same state. Wild Twist keeps each
hand's play actions beside it, and the deal shuffle is random.shuffle's, inlined.
Failure messages name the seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.engine import Action, Event, IllegalAction, Match, get_game
from unotable.engine.core import shuffle
from unotable.engine.uno.cards import (
    ALL_CARDS,
    COLOR_CHOICES,
    PLAYS,
    PLAYS_UNO,
)
from unotable.engine.wild_twist.cards import DECK, suit_plays

UNO_OTHERS = [Action(kind) for kind in ("draw", "keep", "pass", "challenge", "accept", "uno")]
UNO_ACTIONS = [a for card in ALL_CARDS for a in PLAYS[card.index] + PLAYS_UNO[card.index]]
UNO_ACTIONS += [*COLOR_CHOICES, *UNO_OTHERS, Action("catch", target=1), Action("play")]
WILD_TWIST_ACTIONS = [a for card in DECK for a in card.plays]
WILD_TWIST_ACTIONS += [Action("decline"), Action("moon", choice="self"), Action("play")]
WILD_TWIST_ACTIONS += [Action("play", card=DECK[0], uno=True), Action("play", card=ALL_CARDS[0])]

CONFIGS = [
    ("uno", 2, {}),
    ("uno", 4, {"wd4_bluff": False, "scoring": "running"}),
    ("uno-minecraft", 3, {}),
    ("wild-twist-hearts", 4, {}),
    ("wild-twist-hearts", 5, {"no_points_first_trick": True}),
    ("wild-twist-hearts", 8, {}),
]
DECISIONS = 5_000  # per configuration: 30,000 compared decisions in all


def snapshot(match: Match) -> dict[str, Any]:
    """Everything the match holds; the log and history by length (events are compared)."""
    state = dict(vars(match))
    for cls in type(match).__mro__:  # the engines keep their table state in slots
        for name in getattr(cls, "__slots__", ()):
            state[name] = getattr(match, name)
    state["rng"] = match.rng.getstate()
    state["log"] = len(match.log)
    state["history"] = len(match.history)
    return state


def refusal(match: Match, seat: Any, action: Any, checked: bool) -> str | None:
    try:
        if checked:
            Match.apply(match, seat, action)
        else:
            match.apply(seat, action)
    except IllegalAction as error:
        return str(error)
    return None


@pytest.mark.parametrize(("game_id", "players", "options"), CONFIGS)
def test_fast_apply_agrees_with_checked_apply(game_id, players, options):
    spec = get_game(game_id)
    pool = WILD_TWIST_ACTIONS if game_id == "wild-twist-hearts" else UNO_ACTIONS
    rng = random.Random(f"{game_id}-{players}")
    decisions = 0
    while decisions < DECISIONS:
        seed = rng.randrange(2**32)
        fast = spec.new_match(players, options, seed=seed)
        slow = spec.new_match(players, options, seed=seed)
        while not fast.over and decisions < DECISIONS:
            if fast.hand_over:
                assert fast.next_hand() == slow.next_hand(), seed
                continue
            seat = fast.current if fast.current is not None else fast.actors()[0]
            legal = fast.legal_actions(seat)
            assert legal == slow.legal_actions(seat), seed
            # a few wrong tries first: refused alike, with the same words, changing nothing
            for _ in range(3):
                who = rng.choice([seat, seat, (seat + 1) % players, players, -1, True])
                action = rng.choice(pool)
                if who is not True and 0 <= who < players and action in fast.legal_actions(who):
                    continue
                before = snapshot(fast)
                message = refusal(fast, who, action, checked=False)
                assert message is not None, (seed, who, action)
                assert message == refusal(slow, who, action, checked=True), (seed, who, action)
                assert snapshot(fast) == before, (seed, who, action)
            action = rng.choice(legal)
            assert fast.apply(seat, action) == Match.apply(slow, seat, action), (seed, action)
            assert snapshot(fast) == snapshot(slow), (seed, action)
            if game_id == "wild-twist-hearts":
                assert fast.plays == [suit_plays(suits) for suits in fast.hands], seed
            decisions += 1


def test_shuffle_is_random_shuffle():
    for seed in range(300):
        for size in (0, 1, 2, 3, 7, 56, 108, 112, 300):
            ours, theirs = list(range(size)), list(range(size))
            rng_ours, rng_theirs = random.Random(seed), random.Random(seed)
            shuffle(rng_ours, ours)
            rng_theirs.shuffle(theirs)
            assert ours == theirs, (seed, size)
            assert rng_ours.getstate() == rng_theirs.getstate(), (seed, size)


def test_shuffle_leaves_other_generators_to_their_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x: Any) -> None:  # type: ignore[override]
            Counting.calls += 1
            super().shuffle(x)

    shuffle(Counting(1), list(range(10)))
    assert Counting.calls == 1


@pytest.mark.parametrize("game_id", ["uno", "uno-minecraft"])
def test_clones_sharing_a_generator_each_draw_their_own(game_id):
    """A clone shares the rng until one side draws; both still play exactly as a replay."""
    spec = get_game(game_id)
    for seed in range(30):
        rng = random.Random(seed)
        match = spec.new_match(2, seed=seed)
        clones = []
        for step in range(600):
            if match.over:
                break
            if match.hand_over:
                match.next_hand()
                continue
            if step % 50 == 0:
                clones.append((match.clone(), len(match.history)))
            seat = match.current if match.current is not None else match.actors()[0]
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        # each clone, played on with the same actions (dealing when due), ends as the match
        for clone, start in clones:
            for seat, action in match.history[start:]:
                if clone.hand_over:
                    clone.next_hand()
                clone.apply(seat, action)
            if clone.hand_over and not match.hand_over:  # the match dealt last
                clone.next_hand()
            assert clone.state_key() == match.state_key(), (seed, start)
        replay = spec.new_match(2, seed=seed)
        for seat, action in match.history:
            if replay.hand_over:
                replay.next_hand()
            replay.apply(seat, action)
        if replay.hand_over and not match.hand_over:
            replay.next_hand()
        assert replay.state_key() == match.state_key(), seed


def test_make_event_builds_the_same_frozen_event():
    """The engines' cheap event builder gives exactly what Event(...) gives."""
    from dataclasses import FrozenInstanceError

    from unotable.engine import core

    assert core._FAST_EVENTS  # the twin's slots match Event's, so the fast way is on
    cases = [
        ("draw", 1, ("R7",), 1, {"reason": "turn"}, frozenset({1})),
        ("trick_won", 2, ("2C", "QS"), 2, {"points": 13}, None),
        ("match_end", None, (), 0, core.EMPTY, None),
    ]
    for args in cases:
        made, built = core.make_event(*args), Event(*args)
        assert made.__class__ is Event and made == built and repr(made) == repr(built)
        assert made.seen_by(0) == built.seen_by(0)
        with pytest.raises(FrozenInstanceError):
            made.kind = "other"  # type: ignore[misc]
    assert core.make_event("pass", 3) == Event("pass", 3)
