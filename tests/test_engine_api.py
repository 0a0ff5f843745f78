"""The shared engine API, checked the same way for every game in GAME_IDS."""

from __future__ import annotations

import random

import pytest

from unotable.engine import (
    GAME_IDS,
    Event,
    IllegalAction,
    NotationError,
    OptionError,
    UnknownGame,
    View,
    get_game,
)


def snapshot(match) -> tuple:
    """Everything observable about a match: every seat's view, the log, the rng."""
    views = tuple(match.view(s) for s in range(match.players))
    return views, len(match.log), len(match.history), match.rng.getstate()


def next_actor(match) -> int:
    if match.hand_over:
        match.next_hand()
    return match.current if match.current is not None else match.actors()[0]


def random_step(match, rng: random.Random):
    seat = next_actor(match)
    legal = match.legal_actions(seat)
    plays = [a for a in legal if a.kind == "play"]
    action = rng.choice(plays or legal)
    return seat, action, match.apply(seat, action)


def player_counts(game_id: str) -> list[int]:
    spec = get_game(game_id)
    return sorted({spec.min_players, spec.max_players})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_spec_describes_the_game(game_id):
    spec = get_game(game_id)
    assert spec.id == game_id and spec.name
    assert spec.description and "\n" not in spec.description
    assert 2 <= spec.min_players <= spec.max_players <= 8
    assert spec.check_options(None) == spec.default_options()
    for option in spec.options:
        assert option.help and option.label
        assert option.check(option.default) == option.default
    with pytest.raises(OptionError):
        spec.check_options({"no_such_option": 1})
    with pytest.raises(OptionError):
        spec.new_match(spec.max_players + 1, seed=1)
    with pytest.raises(OptionError):
        spec.new_match(spec.min_players - 1, seed=1)


def test_unknown_game_names_the_ids():
    with pytest.raises(UnknownGame) as err:
        get_game("poker")
    assert all(g in str(err.value) for g in GAME_IDS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_match_plays_to_its_end_through_the_api(game_id):
    spec = get_game(game_id)
    for players in player_counts(game_id):
        for seed in range(3):
            match = spec.new_match(players, seed=seed)
            rng = random.Random(seed)
            steps = 0
            while not match.over:
                if match.hand_over:
                    match.next_hand()
                    continue
                actors = match.actors()
                assert actors, f"{game_id} {players} seed {seed}: nobody can act"
                for seat in range(players):
                    legal = match.legal_actions(seat)
                    assert bool(legal) == (seat in actors)
                if steps % 7 == 0:
                    check_views_and_notation(match, spec)
                log_size = len(match.log)
                seat, action, events = random_step(match, rng)
                assert match.history[-1] == (seat, action)
                assert match.log[log_size:] == events
                assert all(isinstance(e, Event) for e in events)
                steps += 1
                assert steps < 100_000, f"{game_id} {players} seed {seed}: no end"
            assert match.winners and set(match.winners) <= set(range(players))
            assert match.actors() == ()
            assert all(match.legal_actions(s) == [] for s in range(players))
            assert match.view(0).phase == "over"
            assert match.hand_results and match.hand_results[-1].totals == tuple(match.scores)
            with pytest.raises(IllegalAction):
                match.apply(0, "draw")


def check_views_and_notation(match, spec) -> None:
    for seat in range(match.players):
        view = match.view(seat)
        assert isinstance(view, View)
        assert view.game == spec.id and view.seat == seat and view.players == match.players
        assert view.legal == tuple(match.legal_actions(seat))
        assert len(view.hand) == view.hand_sizes[seat]
        assert view.scores == tuple(match.scores)
        assert view.current == match.current
        for action in view.legal:
            assert spec.parse_action(str(action)) == action, f"{action!r} does not round-trip"
        for card in view.hand:
            assert spec.parse_card(str(card)) is card


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_same_seed_and_actions_give_the_same_events(game_id):
    spec = get_game(game_id)
    players = spec.min_players + 1
    logs = []
    for _ in range(2):
        match = spec.new_match(players, seed=99)
        rng = random.Random(4)
        for _ in range(300):
            if match.over:
                break
            if match.hand_over:
                match.next_hand()
                continue
            random_step(match, rng)
        logs.append((match.log, match.history))
    assert logs[0] == logs[1]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_replaying_the_history_rebuilds_the_match(game_id):
    spec = get_game(game_id)
    players = spec.min_players
    match = spec.new_match(players, seed=7)
    rng = random.Random(7)
    for _ in range(150):
        if match.over:
            break
        if match.hand_over:
            match.next_hand()
            continue
        random_step(match, rng)
    again = spec.new_match(players, seed=7)
    for seat, action in match.history:
        if again.hand_over:
            again.next_hand()
        again.apply(seat, str(action))  # through notation, as a save file would
    assert again.log == match.log
    assert snapshot(again) == snapshot(match)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_clone_is_independent(game_id):
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players, seed=3)
    rng = random.Random(3)
    for _ in range(20):
        random_step(match, rng)
    twin = match.clone()
    assert snapshot(twin) == snapshot(match)
    before = snapshot(match)
    twin_rng = random.Random(8)
    for _ in range(30):
        if twin.over:
            break
        if twin.hand_over:
            twin.next_hand()
            continue
        random_step(twin, twin_rng)
    assert snapshot(match) == before
    # and the clone continues exactly as the original would
    twin2 = match.clone()
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(30):
        if match.over:
            break
        if match.hand_over:
            match.next_hand()
            continue
        assert random_step(match, rng_a)[2] == random_step(twin2, rng_b)[2]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_actions_change_nothing(game_id):
    spec = get_game(game_id)
    match = spec.new_match(spec.max_players, seed=11)
    rng = random.Random(11)
    for _ in range(25):
        random_step(match, rng)
        actors = match.actors()
        idle = [s for s in range(match.players) if s not in actors]
        legal_of_actor = match.legal_actions(actors[0])
        before = snapshot(match)
        for seat in idle[:2]:
            for action in legal_of_actor[:3]:
                with pytest.raises(IllegalAction):
                    match.apply(seat, action)
        for bad_seat in (-1, match.players, True):
            with pytest.raises(IllegalAction):
                match.apply(bad_seat, legal_of_actor[0])
        with pytest.raises(NotationError):
            match.apply(actors[0], "!!nonsense!!")
        with pytest.raises(NotationError):
            match.apply(actors[0], 42)
        assert snapshot(match) == before


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_events_hide_private_cards_from_other_seats(game_id):
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players, seed=5)
    rng = random.Random(5)
    for _ in range(200):
        if match.over:
            break
        if match.hand_over:
            match.next_hand()
            continue
        random_step(match, rng)
    private = [e for e in match.log if e.private_to is not None and e.cards]
    assert private, "expected some private events (deals, draws)"
    for seat in range(match.players):
        for original, seen in zip(match.log, match.events_for(seat), strict=True):
            if original.private_to is not None and seat not in original.private_to:
                assert seen.cards == () and seen.count == original.count
            else:
                assert seen == original
    assert all(e.cards == () for e in match.events_for(None) if e.private_to is not None)
