"""The engine between hands (hand_over, next_hand), spectator views, and explain()."""

from __future__ import annotations

import random

import pytest

from unotable.engine import GAME_IDS, IllegalAction, get_game


def play_to_hand_end(match, rng: random.Random) -> None:
    """Random card-first moves until the hand (or the match) is over."""
    for _ in range(20_000):
        if match.hand_over or match.over:
            return
        seat = match.current if match.current is not None else match.actors()[0]
        legal = match.legal_actions(seat)
        plays = [a for a in legal if a.kind == "play"]
        match.apply(seat, rng.choice(plays or legal))
    raise AssertionError("the hand never ended")


def options_for(game_id: str) -> dict:
    """Options under which the first hand never ends the match."""
    return {"wild-twist-hearts": {"length": 3}, "uno-hearts": {"target": 60}}.get(
        game_id, {"target": 10_000}
    )


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_finished_hand_waits_for_next_hand(game_id: str) -> None:
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players + 1, options_for(game_id), seed=3)
    play_to_hand_end(match, random.Random(3))
    assert match.hand_over and not match.over
    assert match.actors() == () and match.current is None
    assert all(match.legal_actions(s) == [] for s in range(match.players))
    view = match.view(0)
    assert view.phase == "hand_over" and view.hand_number == 1
    assert getattr(view, "last_hand", None) == match.hand_results[-1]
    # the table as it ended: nobody's cards were swept away or dealt anew
    assert list(view.hand_sizes) == [len(match.view(s).hand) for s in range(match.players)]
    before = (match.view(1), len(match.log), len(match.history))
    with pytest.raises(IllegalAction, match="hand is over"):
        match.apply(0, "draw")
    assert (match.view(1), len(match.log), len(match.history)) == before
    dealer = match.dealer
    events = match.next_hand()
    assert not match.hand_over and match.hand_number == 2
    assert match.dealer == (dealer + 1) % match.players  # the deal passes left (D-2)
    assert events and match.log[-len(events) :] == events
    with pytest.raises(IllegalAction, match="not over"):
        match.next_hand()


def test_next_hand_takes_an_explicit_deal_and_a_bad_one_changes_nothing() -> None:
    spec = get_game("uno")
    match = spec.from_deal(
        3, {"target": 500}, seed=1, hands=[["R1"], ["G2"], ["B3"]], first_discard="R5", dealer=2
    )
    match.apply(0, "R1")
    assert match.hand_over
    with pytest.raises(Exception, match="R1"):
        match.next_hand({"hands": [["R1", "R1", "R1"], ["G2"], ["B3"]], "first_discard": "R1"})
    assert match.hand_over and match.hand_number == 1
    match.next_hand({"hands": [["Y7", "Y8"], ["G2"], ["B3"]], "first_discard": "Y1"})
    assert match.hand_number == 2 and match.dealer == 0  # the deal passed left
    assert [str(c) for c in match.view(0).hand] == ["Y7", "Y8"]
    assert str(match.view(0).top) == "Y1"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_seed_and_the_actions_reproduce_the_match_across_hands(game_id: str) -> None:
    spec = get_game(game_id)
    options = {
        "wild-twist-hearts": {"length": 2},
        "uno-hearts": {"target": 25},
    }.get(game_id, {"target": 150})
    match = spec.new_match(spec.min_players + 1, options, seed=8)
    rng = random.Random(8)
    while not match.over:
        if match.hand_over:
            match.next_hand()
        play_to_hand_end(match, rng)
    assert len(match.hand_results) >= 2
    again = spec.new_match(spec.min_players + 1, options, seed=8)
    for seat, action in match.history:
        if again.hand_over:
            again.next_hand()
        again.apply(seat, str(action))
    assert again.log == match.log and again.scores == match.scores


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_spectator_sees_public_facts_and_no_cards(game_id: str) -> None:
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players + 1, options_for(game_id), seed=5)
    rng = random.Random(5)
    for _ in range(30):
        seat = match.current if match.current is not None else match.actors()[0]
        legal = match.legal_actions(seat)
        match.apply(seat, rng.choice([a for a in legal if a.kind == "play"] or legal))
        spectator = match.view(None)
        assert spectator.seat is None and spectator.hand == () and spectator.legal == ()
        seated = match.view(0)
        assert spectator.hand_sizes == seated.hand_sizes and spectator.scores == seated.scores
        assert spectator.current == seated.current and spectator.phase == seated.phase
        if match.hand_over or match.over:
            break
    for bad in (-1, match.players, True, "0", 1.0):
        with pytest.raises(IllegalAction):
            match.view(bad)


def test_a_spectator_sees_a_pending_challenge_and_a_shown_creeper() -> None:
    spec = get_game("uno-minecraft")
    match = spec.from_deal(
        3,
        {},
        seed=2,
        hands=[["WD4", "R2", "G3"], ["B1", "B2"], ["Y1", "Y2"]],
        draw_pile=["G5", "G6", "G7", "G8", "C", "G9", "B7", "B8", "B9"],
        first_discard="R5",
        dealer=2,
    )
    match.apply(0, "WD4>G")
    public = match.view(None)
    assert public.pending == "challenge" and public.challenge_color == "R"
    match.apply(1, "accept")
    match.apply(2, "draw")  # the Creeper is drawn: everyone sees it
    public = match.view(None)
    assert public.revealed[2] == 1
    assert [str(c) for c in public.known[2]] == ["C"]
    assert [str(c) for c in match.view(2).known[2]] == ["C"]  # its holder's own view too


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_explain_says_why_and_agrees_with_the_legal_list(game_id: str) -> None:
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players + 1, options_for(game_id), seed=4)
    seat = match.current if match.current is not None else match.actors()[0]
    for action in match.legal_actions(seat):
        assert match.explain(seat, action) is None
    idle = next(s for s in range(match.players) if s not in match.actors())
    reason = match.explain(idle, match.legal_actions(seat)[0])
    assert reason  # a sentence for players, e.g. whose turn it is
    assert match.explain(seat, "!!nonsense!!")  # notation errors are reasons too
    assert match.explain(99, match.legal_actions(seat)[0])
    assert len(match.history) == 0  # explaining changes nothing


def test_wild_twist_takes_a_partial_deal_and_plays_it_out() -> None:
    spec = get_game("wild-twist-hearts")
    hands = [["2C", "AH"], ["3C", "QS"], ["4C", "KH"], ["5C", "2H"]]
    match = spec.from_deal(4, {"length": 1}, seed=1, hands=hands, dealer=3)
    assert match.view(0).hand_sizes == (2, 2, 2, 2)
    assert len(match.out_of_play) == 56 - 8 and match.view(0).leftovers_count == 0
    while not match.over:
        seat = match.current
        match.apply(seat, match.legal_actions(seat)[0])
    assert sum(match.hand_results[-1].notes["taken_points"]) == 1 + 13 + 1 + 1  # AH QS KH 2H
    with pytest.raises(Exception, match="same number"):
        spec.from_deal(4, {}, seed=1, hands=[["2C"], ["3C", "4C"], ["5C"], ["6C"]])
    with pytest.raises(Exception, match="twice"):
        spec.from_deal(4, {}, seed=1, hands=[["2C"], ["2C"], ["5C"], ["6C"]])


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_card_of_every_deck_keeps_the_card_protocol(game_id: str) -> None:
    from unotable.engine import Card

    spec = get_game(game_id)
    match = spec.new_match(spec.max_players, seed=2)
    cards = [c for s in range(match.players) for c in match.view(s).hand]
    for name in ("draw_pile", "discard", "leftovers"):
        cards += list(getattr(match, name, []))
    assert len(cards) >= 56
    for card in cards:
        assert isinstance(card, Card)
        assert card.text == str(card) and spec.parse_card(card.text) is card
        assert isinstance(card.points, int) and isinstance(card.wild, bool)
        assert card.color is None or card.color in "RYGBHPSDC"
    assert any(c.wild for c in cards) and any(c.points for c in cards)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_determinize_stays_the_function_after_any_use(game_id: str) -> None:
    from importlib import import_module

    spec = get_game(game_id)
    package = import_module(spec.match_class.__module__.rsplit(".", 1)[0])
    match = spec.new_match(spec.min_players + 1, seed=1)
    seat = match.current if match.current is not None else match.actors()[0]
    for _ in range(2):  # the first use loads the determinize submodule
        assert callable(package.determinize)
        twin = package.determinize(match.view(seat), random.Random(1))
        assert twin.view(seat).hand == match.view(seat).hand
