"""Hypothesis: any text and any action, for every game, fails only in the named ways."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unotable.engine import GAME_IDS, Action, IllegalAction, NotationError, get_game
from unotable.engine.core import BARE_KINDS, CHOICE_KINDS

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


def _cards_of_every_game() -> list:
    cards = []
    for game_id in GAME_IDS:
        spec = get_game(game_id)
        match = spec.new_match(spec.max_players, seed=0)
        for seat in range(match.players):
            cards += match.view(seat).hand
    return cards


CARDS = _cards_of_every_game()
KINDS = sorted(BARE_KINDS | CHOICE_KINDS | {"play", "catch", "give", "bogus"})
WORDS = ["R", "Y", "G", "B", "H", "S", "C", "D", "HIGH", "LOW", "left", "right", "self", "x"]

notation_text = st.one_of(
    st.text(max_size=20),
    st.text(alphabet="RYGBWCrygbwc0123456789+-!>: skiprevdrawcolorcatchgive,", max_size=14),
    st.sampled_from(["W>G", "W+4>R!", "catch:1", "color:G", "give:H3,Y13,P8", "moon:self"]),
)
actions = st.builds(
    Action,
    kind=st.sampled_from(KINDS),
    card=st.one_of(st.none(), st.sampled_from(CARDS), st.integers(), st.text(max_size=3)),
    choice=st.one_of(st.none(), st.sampled_from(WORDS)),
    target=st.one_of(st.none(), st.integers(min_value=-2, max_value=9)),
    cards=st.lists(st.sampled_from(CARDS), max_size=4).map(tuple),
    uno=st.booleans(),
)


def snapshot(match) -> tuple:
    views = tuple(match.view(s) for s in range(match.players))
    exact = match.state_key() if hasattr(match, "state_key") else None
    return views, exact, len(match.log), len(match.history), match.rng.getstate()


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(text=notation_text)
def test_any_text_parses_or_raises_notation_error(game_id, text):
    spec = get_game(game_id)
    for parse in (spec.parse_card, spec.parse_action):
        try:
            result = parse(text)
        except NotationError:
            continue
        assert result is not None
    try:
        action = spec.parse_action(text)
    except NotationError:
        return
    assert spec.parse_action(str(action)) == action


@pytest.mark.parametrize("game_id", GAME_IDS)
@FUZZ
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=120),
    attempts=st.lists(
        st.tuples(
            st.integers(min_value=-1, max_value=8),
            st.one_of(actions, notation_text, st.just("legal")),
        ),
        min_size=1,
        max_size=12,
    ),
)
def test_any_action_is_applied_or_rejected_without_change(game_id, seed, steps, attempts):
    spec = get_game(game_id)
    players = spec.min_players + seed % (spec.max_players - spec.min_players + 1)
    match = spec.new_match(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.over:
            break
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.current if match.current is not None else match.actors()[0]
        legal = match.legal_actions(seat)
        match.apply(seat, rng.choice([a for a in legal if a.kind == "play"] or legal))
    for seat, action in attempts:
        if action == "legal":  # a legal action of some seat, sent by this seat
            actors = match.actors()
            if not actors:
                continue
            action = rng.choice(match.legal_actions(rng.choice(actors)))
        before = snapshot(match)
        try:
            match.apply(seat, action)
        except (IllegalAction, NotationError):
            assert snapshot(match) == before, f"{action!r} by seat {seat} changed the state"
