"""Audit of the UNO engine against RULES.md §3: corner cases a tournament player would try.

Each test is an explicit deal with an exact expected state, event list or error.
"""

from __future__ import annotations

import doctest
import random
from collections import Counter

import pytest

import unotable.engine.uno as uno_package
from unotable.engine import IllegalAction, OptionError, get_game
from unotable.engine.uno import determinize

SEED_W = 0  # with this seed the reshuffle below puts the Wild on top


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def legal(match, seat) -> list[str]:
    return [str(a) for a in match.legal_actions(seat)]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def refused(match, seat, action) -> str:
    """The player-facing message for an illegal action (which must change nothing)."""
    before = match.state_key()
    with pytest.raises(IllegalAction) as err:
        match.apply(seat, action)
    assert match.state_key() == before
    return str(err.value)


# -- documentation ------------------------------------------------------------------------------


def test_the_package_docstring_example_is_true():
    result = doctest.testmod(uno_package, verbose=False)
    assert result.attempted >= 3 and result.failed == 0


# -- D-29 first discard -------------------------------------------------------------------------


def test_d29_every_wild_draw_four_turned_up_goes_back_until_another_card_shows(deal):
    for seed in range(6):
        match = deal([["R1"], ["R2"]], first="W+4", pile=["W+4", "B1"], dealer=0, seed=seed)
        flips = [e for e in match.log if e.kind in ("flip", "flip_return")]
        # flip W+4, return, (flip W+4, return)*, flip B1: never a Creeper, never a draw
        assert [names(e.cards) for e in flips[-1:]] == [["B1"]]
        for flip, back in zip(flips[:-1:2], flips[1:-1:2], strict=True):
            assert (flip.kind, back.kind, names(flip.cards)) == ("flip", "flip_return", ["W+4"])
        assert names(match.discard) == ["B1"] and names(match.draw_pile) == ["W+4", "W+4"]
        assert match.current == 1 and match.pending is None


def test_d29_reverse_first_with_two_players_dealer_starts_and_play_then_alternates(deal):
    match = deal([["G1", "B1"], ["G2", "B2"]], first="G-rev", dealer=1)
    assert (match.current, match.direction) == (1, -1)
    if match.hand_over:
        match.next_hand()
    match.apply(1, "G2")
    assert match.current == 0


def test_d29_wild_first_colour_choice_keeps_the_turn_and_sets_the_wd4_colour(deal):
    match = deal([["Y1", "W+4", "G2"], ["B1", "B2"], ["B3"]], first="W", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "color:Y")
    assert match.current == 0 and match.pending is None
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>B")  # seat 0 holds yellow: the declared colour makes it a bluff
    assert match.view(1).challenge_color == "Y"
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "challenge")
    assert events[0].data == {"target": 0, "guilty": True}


def test_d39_creeper_turned_up_by_a_draw_two_first_discard_then_turn_goes_on(deal):
    pile = ["Y1", "C", "Y2", "Y3", "Y4", "Y5"]
    match = deal([["G1"], ["R2"], ["R3"]], first="G+2", dealer=2, pile=pile, game="uno-minecraft")
    # seat 0 draws Y1, then the Creeper (its second penalty card) and 3 bonus cards
    assert names(match.hands[0]) == ["Y1", "Y2", "Y3", "Y4", "G1", "C"]
    assert kinds(match.log)[-6:] == ["flip", "penalty", "draw", "creeper", "bonus", "skip"]
    assert match.view(1).revealed == (1, 0, 0) and match.current == 1


# -- D-30 drawing -------------------------------------------------------------------------------


def test_d30_drawn_creeper_may_be_kept_and_its_bonus_cards_wait_a_turn(deal):
    pile = ["C", "R9", "Y1", "Y2", "B9"]
    match = deal(
        [["G1", "G2"], ["B1", "B2"]], first="R5", dealer=1, pile=pile, game="uno-minecraft"
    )
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    assert legal(match, 0) == ["C>R", "C>Y", "C>G", "C>B", "keep"]  # R9 matches but is a bonus
    assert refused(match, 0, "R9") == "you drew this turn: you may only play the drawn card"
    if match.hand_over:
        match.next_hand()
    match.apply(0, "keep")
    assert match.current == 1 and names(match.hands[0]) == ["R9", "Y1", "Y2", "G1", "G2", "C"]


def test_d30_drawn_card_played_with_uno_leaves_one_card_and_nothing_exposed(deal):
    match = deal([["G1"], ["B1", "B2"], ["B3"]], first="R5", dealer=2, pile=["R9", "B9"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R9!")
    assert kinds(events) == ["play", "uno"] and match.exposed is None
    assert names(match.hands[0]) == ["G1"]


# -- D-33 Wild Draw Four ------------------------------------------------------------------------


def test_d33_challenge_judges_the_colour_active_before_the_wd4_not_the_declared_one(deal):
    # the pile is green (declared on a Wild); seat 1 holds red but no green: innocent
    match = deal([["W", "B1"], ["W+4", "R3", "R4"], ["B2", "B3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>G")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "W+4>R")
    if match.hand_over:
        match.next_hand()
    events = match.apply(2, "challenge")
    assert events[0].data == {"target": 1, "guilty": False}
    assert len(match.hands[2]) == 8 and match.current == 0


def test_d33_guilty_challenge_with_two_players_challenger_plays_in_declared_colour(deal):
    pile = ["B4", "B5", "B6", "B7"]
    match = deal([["W+4", "Y2", "G1"], ["R2", "Y3"]], first="Y5", dealer=1, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "challenge")
    assert match.current == 1 and match.pending is None and match.view(1).active_color == "R"
    assert legal(match, 1) == ["R2", "R2!", "draw"]
    assert names(match.hands[0]) == ["Y2", "G1", "B4", "B5", "B6", "B7"]


def test_d33_last_card_wd4_with_two_players_is_never_challenged(deal):
    match = deal([["W+4"], ["R2", "R3"]], first="Y5", dealer=1, target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "W+4>G")
    assert kinds(events)[:4] == ["play", "penalty", "draw", "hand_end"]
    assert events[3].data["points"] == (2 + 3 + 6 + 7 + 8 + 6, 0)


def test_d33_bluffing_off_no_challenge_and_the_drawn_wd4_is_checked_too(deal):
    match = deal([["W+4", "G1", "B2"], ["R2", "R3"], ["Y1"]], first="Y5", dealer=2, wd4_bluff=False)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "W+4>R")
    assert kinds(events) == ["play", "penalty", "draw", "skip"]
    assert match.current == 2 and match.pending is None and len(match.hands[1]) == 6


# -- D-34 exhaustion and the blocked round ------------------------------------------------------


def test_d34_reshuffled_wild_comes_back_colourless(deal):
    match = deal([["W", "G1", "B9"], ["G3", "G4"]], first="R5", dealer=1, pile=[], seed=SEED_W)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>G")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "G3")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "draw")  # R5 and W are shuffled into the pile; W comes up
    assert kinds(events) == ["reshuffle", "draw"] and names(events[1].cards) == ["W"]
    assert names(match.discard) == ["G3"] and match.view(0).active_color == "G"
    assert legal(match, 0) == ["W>R", "W>Y", "W>G", "W>B", "keep"]  # a new colour to name


def test_d34_blocked_round_with_running_scores_everyone_adds_their_own_hand(deal):
    match = deal(
        [["G1", "G9"], ["B2", "B3"], ["Y-skip"]], first="R5", dealer=2, pile=[], scoring="running"
    )
    for seat in (0, 1, 2):
        if match.hand_over:
            match.next_hand()
        events = match.apply(seat, "pass")
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["winner"] == 1 and end.data["points"] == (10, 0, 20)


def test_d34_pass_message_names_both_ways_out_when_a_draw_is_possible(deal):
    match = deal([["R1", "G2"], ["B1"]], first="R5", dealer=1)
    message = refused(match, 0, "pass")
    assert message == "you may pass only when there is nothing to draw: play or draw a card"


# -- D-35 / D-38 the UNO window -----------------------------------------------------------------


def test_d38_two_players_draw_two_keeps_the_window_open_until_the_player_acts(deal):
    pile = ["B4", "B5", "B6", "B7"]
    match = deal([["R+2", "G2"], ["R2", "R3"]], first="R5", dealer=1, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")
    assert (match.current, match.exposed, len(match.hands[1])) == (0, 0, 4)
    assert legal(match, 1) == ["catch:0"]
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")  # seat 0's own action closes the window
    assert match.exposed is None and "catch:0" not in legal(match, 1)


def test_d38_the_draw_two_victim_may_catch_out_of_turn(deal):
    pile = ["B4", "B5", "B6", "B7"]
    match = deal([["R+2", "G2"], ["R2", "R3"], ["R7"]], first="R5", dealer=2, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "catch:0")
    assert kinds(events) == ["catch", "penalty", "draw"]
    assert names(match.hands[0]) == ["G2", "B6", "B7"] and match.current == 2


def test_d35_catch_of_a_seat_that_does_not_exist_says_so(deal):
    match = deal([["R1", "G2"], ["R2", "R3"], ["G3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    assert refused(match, 1, "catch:7") == "there is no seat 7 at this table of 3"
    assert refused(match, 1, "catch:2") == "seat 2 cannot be caught now"


def test_d35_catch_penalty_on_your_own_turn_joins_the_hand_for_that_turn(deal):
    pile = ["C", "R9", "Y1", "Y2", "B4"]
    match = deal([["R-skip", "G2"], ["B1", "B2"]], first="R5", dealer=1, pile=pile,
                 game="uno-minecraft")  # fmt: skip
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R-skip")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "catch:0")  # the Creeper triggers: R9, Y1, Y2 are its bonus, then B4
    assert names(match.hands[0]) == ["R9", "Y1", "Y2", "G2", "B4", "C"]
    assert match.current == 0 and "R9" in legal(match, 0)  # the turn has not started yet


# -- wording of refusals ------------------------------------------------------------------------


def test_colour_choice_outside_a_first_discard_wild_explains_how_to_name_a_colour(deal):
    match = deal([["W", "R1"], ["B1"]], first="R5", dealer=1)
    message = refused(match, 0, "color:G")
    assert (
        message == "there is no colour to choose now: a wild names its colour as you play it (W>G)"
    )


def test_answering_without_a_wild_draw_four_says_there_is_nothing_to_answer(deal):
    match = deal([["W", "R1"], ["B1"]], first="R5", dealer=1)
    assert refused(match, 0, "accept") == "there is no Wild Draw Four to answer"
    assert refused(match, 0, "challenge") == "there is no Wild Draw Four to answer"


def test_pending_creeper_first_discard_is_named_in_the_refusal(deal):
    match = deal([["R1"], ["G2"]], first="C", dealer=1, game="uno-minecraft")
    message = refused(match, 0, "R1")
    assert message == "first choose the colour of the Creeper on the pile (color:R)"


def test_explicit_deal_with_nothing_to_turn_up_after_a_wd4_says_so():
    spec = get_game("uno")
    with pytest.raises(OptionError) as err:
        spec.from_deal(2, hands=[["R1"], ["R2"]], draw_pile=[], first_discard="W+4")
    assert str(err.value) == "there is no card but Wild Draw Fours left to turn up"


def test_explicit_deal_with_a_creeper_in_classic_uno_names_the_card():
    from unotable.engine.uno import ALL_CARDS

    creeper = next(c for c in ALL_CARDS if str(c) == "C")
    with pytest.raises(OptionError) as err:
        get_game("uno").from_deal(2, hands=[[creeper], ["R2"]], first_discard="R5")
    assert str(err.value) == "C is not a card of UNO"


# -- scoring --------------------------------------------------------------------------------------


def test_last_draw_two_victim_draws_a_creeper_and_all_of_it_scores(deal):
    pile = ["C", "Y1", "Y2", "Y3", "Y4"]
    match = deal([["R+2"], ["R2"], ["B2"]], first="R5", dealer=2, pile=pile, target=1000,
                 game="uno-minecraft")  # fmt: skip
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R+2")
    assert kinds(events)[:6] == ["play", "penalty", "draw", "creeper", "bonus", "draw"]
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["points"] == (2 + 50 + 1 + 2 + 3 + 4 + 2, 0, 0)


def test_deal_passes_left_hand_after_hand(deal):
    match = deal([["R1"], ["G2", "G3"]], first="R5", dealer=1, target=10_000)
    dealers = [match.dealer]
    rng = random.Random(4)
    while match.hand_number < 4:
        if match.hand_over:
            match.next_hand()
        seat = match.current
        moves = match.legal_actions(seat)
        if match.hand_over:
            match.next_hand()
        match.apply(seat, rng.choice([a for a in moves if a.kind == "play"] or moves))
        if match.dealer != dealers[-1]:
            dealers.append(match.dealer)
    assert dealers == [1, 0, 1, 0]


# -- hidden information ---------------------------------------------------------------------------


def test_no_secret_card_reaches_a_spectator_or_another_seat(deal):
    pile = ["C", "Y1", "Y2", "Y3", "R9", "B6", "B7", "B8", "G6"]
    match = deal([["W+4", "G1", "G2"], ["B1", "B2"], ["G3"]], first="R5", dealer=2, pile=pile,
                 game="uno-minecraft")  # fmt: skip
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")  # Creeper, bonus Y1 Y2 Y3
    if match.hand_over:
        match.next_hand()
    match.apply(0, "keep")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "draw")  # R9: playable
    if match.hand_over:
        match.next_hand()
    match.apply(1, "keep")
    if match.hand_over:
        match.next_hand()
    match.apply(2, "draw")  # B6: no match, so it must be kept
    if match.hand_over:
        match.next_hand()
    match.apply(2, "keep")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>B")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "challenge")
    public = {"flip", "creeper", "play"}
    for seat in (None, 0, 1, 2):
        for event in match.events_for(seat):
            if event.cards and event.kind not in public:
                assert event.private_to is not None and seat in event.private_to, event
    assert names(match.view(1).known[0]) == ["Y1", "Y2", "Y3", "G1", "G2", "C"]
    assert names(match.view(2).known[0]) == ["C"]
    assert match.view(2).drawn is None and match.view(0).drawn is None


def test_determinized_states_keep_every_invariant():
    for seed in range(12):
        match = get_game("uno-minecraft").new_match(3, {"target": 50}, seed=seed)
        rng = random.Random(seed)
        for step in range(150):
            if match.over:
                break
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            if match.exposed is not None and rng.random() < 0.5:
                seat = rng.choice(match.actors())
            moves = match.legal_actions(seat)
            match.apply(seat, rng.choice([a for a in moves if a.kind == "play"] or moves))
            if step % 5 or match.over:
                continue
            viewer = rng.randrange(3)
            twin = determinize(match.view(viewer), random.Random(step))
            assert twin.view(viewer) == match.view(viewer)
            assert Counter(map(id, twin.zones())) == Counter(map(id, twin.DECK))
            if twin.pending == "drawn":
                assert twin.drawn in twin.hands[twin.current]
            if twin.pending == "challenge":
                held = {c.color for c in twin.wd4_hand}
                assert twin.wd4_guilty == ("RYGB"[twin.wd4_color] in held)
            for actor in twin.actors():
                for action in twin.legal_actions(actor):
                    twin.clone().apply(actor, action)
