"""UNO Hearts API: notation, cards, views, events, clone, replay and determinize."""

from __future__ import annotations

import copy
import pickle
import random
from itertools import combinations

import pytest

from unotable.engine import Action, IllegalAction, NotationError, OptionError, get_game
from unotable.engine.uno_hearts import DECK, UnoHeartsMatch, UnoHeartsView, determinize

SPEC = get_game("uno-hearts")


def cards(*texts: str) -> tuple[object, ...]:
    return tuple(SPEC.parse_card(t) for t in texts)


def names(items: object) -> list[str]:
    return [str(c) for c in items]  # type: ignore[attr-defined]


def table(
    hands: list[list[str]], pile: list[str] | None = None, **options: object
) -> UnoHeartsMatch:
    match = SPEC.from_deal(
        len(hands), options, seed=3, hands=hands, draw_pile=pile or [], dealer=len(hands) - 1
    )
    assert isinstance(match, UnoHeartsMatch)
    return match


def play(match: UnoHeartsMatch, *moves: str) -> None:
    for move in moves:
        assert match.current is not None
        if match.hand_over:
            match.next_hand()
        match.apply(match.current, move)
        if match.hand_over:  # the table has been seen: deal on, as a driver would
            match.next_hand()


# -- notation ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["H0", "H23", "y13", " P8 ", "G0", "WD1", "wd10"])
def test_card_notation_round_trips(text: str) -> None:
    card = SPEC.parse_card(text)
    assert str(card) == text.strip().upper()
    assert SPEC.parse_card(str(card)) is card


@pytest.mark.parametrize("text", ["H24", "WD0", "WD11", "R1", "Y", "", "W7", "13Y"])
def test_bad_card_notation_is_refused(text: str) -> None:
    with pytest.raises(NotationError):
        SPEC.parse_card(text)


def test_action_notation() -> None:
    wild = SPEC.parse_action("wd7>h")
    assert wild == Action("play", card=SPEC.parse_card("WD7"), choice="H")
    assert str(wild) == "WD7>H"
    assert str(SPEC.parse_action("give:H3, Y13,P8")) == "give:H3,Y13,P8"
    assert SPEC.parse_action("direction:LEFT") == Action("direction", choice="left")
    assert SPEC.parse_action("moon:others") == Action("moon", choice="others")
    for bad in ("WD7>X", "WD7>", "direction:up", "moon:both", "give:", "H3>Q", "catchy"):
        with pytest.raises(NotationError):
            SPEC.parse_action(bad)


def test_cards_are_interned_through_copy_and_pickle() -> None:
    card = SPEC.parse_card("Y13")
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    assert len({id(c) for c in DECK}) == 106


def test_every_legal_action_prints_and_parses_back_to_itself() -> None:
    rng = random.Random(5)
    match = SPEC.new_match(4, {"pass_three": True, "shoot_the_moon": True}, seed=5)
    seen_kinds = set()
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.actors()[0]
        legal = match.legal_actions(seat)
        for action in legal:
            assert SPEC.parse_action(str(action)) == action
            seen_kinds.add(action.kind)
        match.apply(seat, str(rng.choice(legal)))
    assert {"play", "give", "direction"} <= seen_kinds


# -- explicit deals ------------------------------------------------------------------------


def test_from_deal_checks_the_deal() -> None:
    with pytest.raises(OptionError, match="twice"):
        table([["H1"], ["H1"]])
    with pytest.raises(OptionError, match="twice"):
        table([["H1"], ["H2"]], pile=["H2"])
    with pytest.raises(OptionError, match="same number"):
        table([["H1", "H3"], ["H2"]])
    with pytest.raises(OptionError, match="one hand for each"):
        SPEC.from_deal(3, {}, hands=[["H1"], ["H2"]])
    with pytest.raises(OptionError, match="dealer"):
        SPEC.from_deal(2, {}, hands=[["H1"], ["H2"]], dealer=2)
    with pytest.raises(OptionError, match="unknown deal keys"):
        SPEC.from_deal(2, {}, hands=[["H1"], ["H2"]], leftovers=[])
    with pytest.raises(NotationError):
        table([["H1"], ["Q2"]])


def test_from_deal_without_a_pile_puts_the_undealt_cards_in_it() -> None:
    match = SPEC.from_deal(2, {}, seed=1, hands=[["H1"], ["H2"]])
    assert isinstance(match, UnoHeartsMatch)
    assert len(match.draw_pile) == 104
    assert match.dealer == 0
    assert match.current == 1


def test_the_draw_pile_is_given_top_first() -> None:
    match = table([["G7", "G1"], ["WD2", "Y2"]], pile=["H5", "H6", "H7"])
    play(match, "G7", "WD2>G")
    assert names(match.taken[0]) == ["G7", "WD2", "H5", "H6"]


# -- views -----------------------------------------------------------------------------------


def test_the_view_shows_the_table_and_only_the_seats_own_hand() -> None:
    match = table(
        [["P10", "H1", "G3"], ["P12", "H2", "G4"], ["WD4", "Y5", "G5"]],
        pile=["H20", "Y13", "G20", "G21", "G22"],
    )
    play(match, "P10", "P12")
    view = match.view(2)
    assert isinstance(view, UnoHeartsView)
    assert view.game == "uno-hearts"
    assert view.phase == "play"
    assert view.current == 2
    assert names(view.hand) == ["Y5", "G5", "WD4"]
    assert view.hand_sizes == (2, 2, 3)
    assert view.trick == ((0, SPEC.parse_card("P10"), None), (1, SPEC.parse_card("P12"), None))
    assert view.lead_suit == "P"
    assert view.leader == 0
    assert names(view.legal) == ["Y5", "G5", "WD4>H", "WD4>P"]
    assert view.draw_pile_size == 5
    assert view.target == 60
    assert view.tricks == ()
    assert view.last_trick is None
    assert view.last_hand is None
    if match.hand_over:
        match.next_hand()
    match.apply(2, "WD4>P")
    view = match.view(0)
    plays = ((0, cards("P10")[0], None), (1, cards("P12")[0], None), (2, cards("WD4")[0], "P"))
    assert view.tricks == ((0, 1, plays),)
    assert view.last_trick == (0, 1, plays)
    assert view.trick == ()
    assert view.lead_suit is None
    assert view.leader == 1
    assert view.current == 1
    assert names(view.taken[1]) == ["P10", "P12", "WD4", "H20", "Y13", "G20", "G21"]
    assert view.taken[0] == view.taken[2] == ()
    assert view.tricks_won == (0, 1, 0)
    assert view.hand_points_visible == (0, 14, 0)
    assert view.voids[2] == frozenset("P")
    assert view.legal == ()
    assert view.hearts_broken is False  # the Y13 and H20 were drawn, not played


def test_views_never_show_other_hands_and_events_hide_other_deals() -> None:
    match = SPEC.new_match(4, seed=11)
    for seat in range(4):
        view = match.view(seat)
        assert view.hand == tuple(match.hands[seat])  # type: ignore[attr-defined]
        assert view.known_hands == ((),) * 4
    deals = match.events_for(1)
    assert [e.kind for e in deals] == ["deal"] * 4
    assert [len(e.cards) for e in deals] == [0, 13, 0, 0]
    assert [e.count for e in deals] == [13] * 4
    with pytest.raises(IllegalAction):
        match.view(4)


def test_voids_are_shown_by_not_following_and_by_wild_calls_and_move_with_the_hands() -> None:
    match = table(
        [["P8", "Y1", "Y2"], ["WD1", "G4", "G5"], ["P1", "H6", "H7"]],
        pile=["H20"],
    )
    play(match, "P8", "WD1>Y", "P1")  # seat 1: no purple, no yellow
    assert match.view(0).voids == (frozenset(), frozenset("PY"), frozenset())
    play(match, "direction:left")  # seat 0 took: seat 1's hand goes to seat 2
    assert match.view(0).voids == (frozenset(), frozenset(), frozenset("PY"))


def test_a_seat_knows_where_the_hand_it_passed_went() -> None:
    match = table(
        [["P8", "Y1", "Y2", "Y3"], ["P9", "G4", "G5", "G6"], ["P1", "H6", "H7", "H8"]],
        pile=["H20"],
    )
    play(match, "P8", "P9", "P1", "direction:right")  # seat 1 took; hands pass right
    # seat 0 got seat 1's hand and seat 0's old hand went to seat 2
    assert names(match.view(0).known_hands[2]) == ["Y1", "Y2", "Y3"]
    assert match.view(0).known_hands[1] == ()
    assert names(match.view(1).known_hands[0]) == ["G4", "G5", "G6"]
    assert match.view(0).pass_hands == ((1, 1, "right"),)
    play(match, "H6")  # seat 1 now holds hearts only and leads one
    assert names(match.view(0).known_hands[2]) == ["Y1", "Y2", "Y3"]


def test_pass_three_lists_every_choice_of_three() -> None:
    match = SPEC.new_match(5, {"pass_three": True}, seed=2)
    assert isinstance(match, UnoHeartsMatch)
    legal = match.legal_actions(3)
    assert len(legal) == 286
    assert {a.cards for a in legal} == set(combinations(match.hands[3], 3))
    view = match.view(3)
    assert view.phase == "pass"
    assert view.current is None
    assert view.pass_pending == (0, 1, 2, 3, 4)
    assert len(view.legal) == 286


def test_hand_end_and_match_end_events() -> None:
    match = table([["Y1", "H3"], ["Y2", "G4"]], target=30)
    before = len(match.log)
    play(match, "Y1", "Y2", "G4", "H3")
    kinds = [e.kind for e in match.log[before:]]
    assert kinds[-3:] == ["hand_end", "deal", "deal"]
    end = match.log[before:][kinds.index("hand_end")]
    assert end.data["points"] == (0, 1)
    assert end.data["totals"] == (0, 1)
    assert end.data["winners"] == ()
    assert match.view(0).last_hand == match.hand_results[0]
    assert match.view(0).hand_results == (match.hand_results[0],)
    assert match.hand_number == 2
    view = match.view(0)
    assert view.hand_sizes == (13, 13)
    assert view.tricks == ()
    # the last trick of the hand before stays on show after the new deal
    assert view.last_trick == (1, 1, ((1, cards("G4")[0], None), (0, cards("H3")[0], None)))


# -- clone, replay, determinism ------------------------------------------------------------------


def test_clone_is_independent_and_shares_the_future_deals() -> None:
    rng = random.Random(8)
    match = SPEC.new_match(3, seed=8)
    for _ in range(10):
        seat = match.actors()[0]
        if match.hand_over:
            match.next_hand()
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    twin = match.clone()
    assert twin.view(0) == match.view(0)
    seat = twin.actors()[0]
    if twin.hand_over:
        twin.next_hand()
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert twin.view(seat) != match.view(seat)
    assert len(match.history) == 10
    # both play on identically from here, future deals included
    twin = match.clone()
    a_rng, b_rng = random.Random(1), random.Random(1)
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.actors()[0]
        match.apply(seat, a_rng.choice(match.legal_actions(seat)))
        if twin.hand_over:
            twin.next_hand()
        twin.apply(seat, b_rng.choice(twin.legal_actions(seat)))
    assert twin.over
    assert twin.scores == match.scores
    assert twin.hand_results == match.hand_results


def test_a_match_is_its_seed_and_its_actions() -> None:
    rng = random.Random(4)
    options = {"pass_three": True, "shoot_the_moon": True, "target": 40}
    match = SPEC.new_match(6, options, seed=4)
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.actors()[-1]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    replay = SPEC.new_match(6, options, seed=4)
    for seat, action in match.history:
        if replay.hand_over:  # dealing is not an action: replayers deal when a hand is over
            replay.next_hand()
        replay.apply(seat, str(action))
    assert replay.log == match.log
    assert replay.winners == match.winners


# -- determinize ---------------------------------------------------------------------------------


def test_determinize_keeps_what_the_seat_knows_and_deals_the_rest() -> None:
    match = SPEC.new_match(4, {"pass_three": True}, seed=21)
    assert isinstance(match, UnoHeartsMatch)
    for seat in range(4):
        if match.hand_over:
            match.next_hand()
        match.apply(seat, match.legal_actions(seat)[seat])
    gift = match.passes[0]
    assert gift is not None
    rng = random.Random(0)
    view = match.view(0)
    hands_seen = set()
    for _ in range(30):
        sample = determinize(view, rng)
        assert sample.view(0) == view
        assert sample.hands[0] == match.hands[0]
        assert set(gift) <= set(sample.hands[1])  # the three passed left are known
        places = [c for h in sample.hands for c in h] + sample.draw_pile
        assert len(set(places)) == 106
        hands_seen.add(tuple(sample.hands[2]))
    assert len(hands_seen) > 20  # the unseen cards really are dealt at random


def test_determinize_honours_shown_voids() -> None:
    match = SPEC.new_match(3, seed=5)
    assert isinstance(match, UnoHeartsMatch)
    rng = random.Random(2)
    # play until some seat has shown a void; another seat looks
    while not any(match.voids):
        seat = match.actors()[0]
        if match.hand_over:
            match.next_hand()
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    viewer = (next(s for s in range(3) if match.voids[s]) + 1) % 3
    view = match.view(viewer)
    void_seats = [s for s in range(3) if s != viewer and view.voids[s]]
    assert void_seats
    for _ in range(50):
        sample = determinize(view, rng)
        for s in void_seats:
            for card in sample.hands[s]:
                assert card.wild or str(card)[0] not in view.voids[s]
    # an explicit avoid overrides: seat keeps no green at all
    avoid = [frozenset() for _ in range(3)]
    other = (viewer + 1) % 3
    avoid[other] = frozenset("G")
    sample = determinize(view, rng, avoid)
    assert not [c for c in sample.hands[other] if str(c).startswith("G")]


def test_determinize_of_a_pass_phase_view_plays_on() -> None:
    match = SPEC.new_match(3, {"pass_three": True}, seed=9)
    if match.hand_over:
        match.next_hand()
    match.apply(1, match.legal_actions(1)[5])
    if match.hand_over:
        match.next_hand()
    match.apply(2, match.legal_actions(2)[0])
    view = match.view(1)
    sample = determinize(view, random.Random(3))
    assert sample.view(1) == view
    assert sample.actors() == (0,)
    if sample.hand_over:
        sample.next_hand()
    sample.apply(0, sample.legal_actions(0)[0])
    assert sample.phase == "play"
    assert set(view.passed) <= set(sample.hands[2])


@pytest.mark.parametrize("phase", ["direction", "moon"])
def test_determinize_in_the_choice_phases(phase: str) -> None:
    if phase == "direction":
        match = table([["P8", "Y1"], ["P9", "G4"], ["P1", "H6"]], pile=["H20"])
        play(match, "P8", "P9", "P1")
    else:
        match = table([["Y9", "H3"], ["Y2", "G4"], ["Y3", "G5"]], shoot_the_moon=True)
        play(match, "Y9", "Y2", "Y3", "H3", "G4", "G5")
    assert match.phase == phase
    rng = random.Random(6)
    for seat in range(3):
        view = match.view(seat)
        sample = determinize(view, rng)
        assert sample.view(seat) == view
        assert sample.legal_actions(match.current) == match.legal_actions(match.current)  # type: ignore[arg-type]
        while not sample.over:
            if sample.hand_over:
                sample.next_hand()
                continue
            actor = sample.actors()[0]
            sample.apply(actor, rng.choice(sample.legal_actions(actor)))
