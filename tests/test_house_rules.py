"""A scenario per bullet of RULES.md §4, the UNO house rules (H-1 stacking, H-2 Seven-O,
H-3 draw to match). Each would fail with the rule missing: most compare against the
same deal with the rule off."""

from __future__ import annotations

import random

import pytest

from unotable.engine import IllegalAction, NotationError, OptionError, get_game
from unotable.engine.uno import HOUSE_RULES, determinize


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def legal(match, seat) -> list[str]:
    return [str(a) for a in match.legal_actions(seat)]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


PILE = ["B6", "B7", "B8", "Y6", "Y7", "Y8", "G6", "G7", "G8", "B9", "Y9", "G9"]


# -- §4 options -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["uno", "uno-minecraft"])
def test_house_rules_are_options_all_off_by_default(game):
    spec = get_game(game)
    defaults = spec.default_options()
    assert (defaults["stack"], defaults["seven_o"], defaults["draw_to_match"]) == (
        "off",
        False,
        False,
    )
    assert HOUSE_RULES == ("stack", "seven_o", "draw_to_match")
    assert {o.name for o in spec.options if o.group == "house"} == set(HOUSE_RULES)
    assert all(o.group == "" for o in spec.options if o.name not in HOUSE_RULES)
    chosen = spec.check_options({"stack": "any", "seven_o": True, "draw_to_match": True})
    assert (chosen["stack"], chosen["seven_o"], chosen["draw_to_match"]) == ("any", True, True)


@pytest.mark.parametrize(
    "options,words",
    [
        ({"stack": "all"}, "option stack must be one of off, same, any, not 'all'"),
        ({"stack": True}, "option stack must be one of off, same, any"),
        ({"seven_o": "on"}, "option seven_o must be true or false, not 'on'"),
        ({"draw_to_match": 1}, "option draw_to_match must be true or false"),
    ],
)
def test_a_bad_house_rule_value_is_an_option_error_naming_the_choices(options, words):
    with pytest.raises(OptionError, match=words):
        get_game("uno").new_match(3, options, seed=1)


def test_the_hearts_games_have_no_house_rules():
    for game in ("uno-hearts", "wild-twist-hearts"):
        assert not any(o.group == "house" for o in get_game(game).options)
        with pytest.raises(OptionError):
            get_game(game).check_options({"stack": "any"})


def test_options_saved_before_the_house_rules_load_with_them_off():
    """A save's options from before §4 lack the three names: they are filled in off."""
    old = {"target": 200, "scoring": "standard", "wd4_bluff": True}
    spec = get_game("uno")
    match = spec.new_match(4, old, seed=9)
    assert (match.stack_mode, match.seven_o, match.draw_to_match) == (0, False, False)
    assert match.options["stack"] == "off"
    again = spec.new_match(4, {**old, "stack": "off", "seven_o": False}, seed=9)
    assert again.log == match.log


# -- notation ---------------------------------------------------------------------------------


def test_new_actions_have_short_notation_parsed_and_printed_alike():
    spec = get_game("uno")
    for text in ("accept", "swap:2", "draw"):
        action = spec.parse_action(text)
        assert str(action) == text
    swap = spec.parse_action(" Swap:3 ")
    assert (swap.kind, swap.target) == ("swap", 3)
    with pytest.raises(NotationError, match="swap needs a seat number, as in swap:2"):
        spec.parse_action("swap:x")
    assert str(spec.parse_action("catch:1")) == "catch:1"


# -- §4.1 stacking (H-1) ----------------------------------------------------------------------


def test_h1_a_draw_two_makes_a_pending_draw_shown_in_every_view(deal):
    hands = [["R+2", "R1", "R3"], ["G+2", "B1", "B2"], ["Y2", "Y3"], ["Y4", "Y5"]]
    off = deal(hands, pile=PILE)
    off.apply(0, "R+2")
    assert len(off.hands[1]) == 5 and off.current == 2  # §3: drawn at once
    match = deal(hands, pile=PILE, stack="same")
    events = match.apply(0, "R+2")
    assert kinds(events) == ["play", "pending_draw"]
    assert (events[1].seat, events[1].count, events[1].data["by"]) == (1, 2, 0)
    assert match.current == 1 and match.pending == "stack" and len(match.hands[1]) == 3
    for seat in (None, 0, 1, 2, 3):
        view = match.view(seat)
        assert (view.pending_draw, view.pending_draw_target, view.pending) == (2, 1, "stack")
    assert legal(match, 1) == ["G+2", "accept"]


def test_h1_a_wild_draw_four_makes_a_pending_draw(deal):
    hands = [["W+4", "G1", "G3"], ["G+2", "B1", "B2"], ["Y2", "Y3"]]
    match = deal(hands, pile=PILE, stack="same", wd4_bluff=False)
    match.apply(0, "W+4>G")
    assert match.pending == "stack" and match.view(2).pending_draw == 4
    assert legal(match, 1) == ["accept"]  # a Draw Two never goes on a Wild Draw Four


def test_h1_a_first_discard_draw_two_is_a_pending_draw(deal):
    off = deal([["R1"], ["G+2", "R2"], ["R3"]], first="G+2", dealer=0, pile=PILE)
    assert off.current == 2 and len(off.hands[1]) == 4
    match = deal([["R1"], ["G+2", "R2"], ["R3"]], first="G+2", dealer=0, pile=PILE, stack="same")
    assert (match.current, match.pending, match.view(None).pending_draw) == (1, "stack", 2)
    assert match.view(0).pending_draw_target == 1
    assert legal(match, 1) == ["G+2", "G+2!", "accept"]
    match.apply(1, "G+2!")
    assert (match.current, match.draw_count) == (2, 4)
    assert match.log[-1].data["by"] == 1


def test_h1_accept_draws_the_whole_count_and_is_skipped(deal):
    hands = [["R+2", "R1", "R3"], ["G+2", "B1", "B2"], ["B+2", "Y3"], ["Y4", "Y5"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    match.apply(1, "G+2")
    events = match.apply(2, "accept")
    assert kinds(events) == ["accept", "penalty", "draw", "skip"]
    assert (events[0].count, events[0].data["target"]) == (4, 1)
    assert events[1].data["reason"] == "stack" and events[2].count == 4
    assert names(match.hands[2]) == ["Y3", "Y6", "B6", "B7", "B8", "B+2"]
    assert match.current == 3 and match.pending is None
    assert match.view(0).pending_draw == 0 and match.view(0).pending_draw_target is None


def test_h1_accepted_cards_trigger_creepers_each(deal):
    pile = ["Y1", "C", "Y2", "Y3", "Y4", "Y5", "Y6"]
    hands = [["R+2", "R1"], ["B1", "B2"], ["G1", "G2"]]
    match = deal(hands, pile=pile, game="uno-minecraft", stack="any")
    match.apply(0, "R+2")
    events = match.apply(1, "accept")
    assert kinds(events) == ["accept", "penalty", "draw", "creeper", "bonus", "skip"]
    assert len(match.hands[1]) == 2 + 2 + 3 and match.view(2).revealed == (0, 1, 0)


def test_h1_stacking_passes_the_growing_count_to_the_next_player(deal):
    hands = [["R+2", "R1"], ["G+2", "B1", "B2"], ["Y+2", "Y3", "Y4"], ["Y5", "Y6"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    events = match.apply(1, "G+2")
    assert kinds(events) == ["play", "pending_draw"] and events[1].count == 4
    assert (match.current, match.view(3).pending_draw_target) == (2, 2)
    assert match.view(0).active_color == "G"  # the Draw Two's own colour
    match.apply(2, "Y+2")
    assert (match.current, match.draw_count, match.view(1).active_color) == (3, 6, "Y")


def test_h1_stacking_follows_the_current_direction(deal):
    hands = [["R-rev", "R1", "R6"], ["R2"], ["B+2", "B1", "B3"], ["R+2", "R3", "R4"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R-rev")  # now counter-clockwise: seat 3 is next
    match.apply(3, "R+2")  # aimed at seat 2
    assert match.current == 2
    match.apply(2, "B+2")  # and on to seat 1
    assert (match.current, match.draw_count) == (1, 4)


def test_h1_same_draw_two_on_draw_two_and_wd4_on_wd4_only(deal):
    hands = [["R+2", "R1", "R6"], ["G+2", "W+4", "B1"], ["W+4", "Y3"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    assert legal(match, 1) == ["G+2", "accept"]  # no Wild Draw Four on a Draw Two
    assert match.explain(1, "W+4>G") == (
        "stacking is same-card only at this table: a Wild Draw Four does not go on "
        "a Draw Two; stack a Draw Two or accept the 2 cards"
    )
    wd4 = deal([["W+4", "R1", "R6"], ["G+2", "W+4", "B1"], ["W+4", "Y3"]], pile=PILE, stack="same")
    wd4.apply(0, "W+4>R")
    assert [a for a in legal(wd4, 1) if a.startswith("W+4")] == ["W+4>R", "W+4>Y", "W+4>G", "W+4>B"]
    assert "G+2" not in legal(wd4, 1)


def test_h1_any_also_a_wd4_on_a_draw_two_never_a_draw_two_on_a_wd4(deal):
    hands = [["R+2", "R1", "R6"], ["G+2", "W+4", "B1"], ["G+2", "Y3"]]
    match = deal(hands, pile=PILE, stack="any")
    match.apply(0, "R+2")
    assert legal(match, 1) == ["G+2", "W+4>R", "W+4>Y", "W+4>G", "W+4>B", "accept"]
    match.apply(1, "W+4>B")
    assert (match.current, match.draw_count, match.pending) == (2, 6, "stack")
    assert legal(match, 2) == ["accept"]
    assert match.explain(2, "G+2") == (
        "a Draw Two never goes on a Wild Draw Four: stack a Wild Draw Four or accept the 6 cards"
    )


@pytest.mark.parametrize(
    "stack,words",
    [
        ("same", "you can only stack a Draw Two here, or accept the 2 cards"),
        ("any", "you can only stack a Draw Two or a Wild Draw Four here, or accept the 2 cards"),
    ],
)
def test_h1_explain_words_each_refusal(deal, stack, words):
    hands = [["R+2", "R1"], ["G+2", "R7", "B1"], ["Y3"]]
    match = deal(hands, pile=PILE, stack=stack)
    match.apply(0, "R+2")
    assert match.explain(1, "R7") == words
    aimed = "2 cards are aimed at you: stack a Draw Two"
    assert match.explain(1, "draw").startswith(aimed)
    assert match.explain(1, "challenge").startswith("a Draw Two cannot be challenged; " + aimed)
    assert match.explain(1, "Y+2") == "you do not hold Y+2"
    assert match.explain(2, "accept") == "it is seat 1's turn, not seat 2's"
    assert match.explain(1, "G+2") is None and match.explain(1, "accept") is None
    before = match.state_key()
    with pytest.raises(IllegalAction):
        match.apply(1, "R7")
    assert match.state_key() == before
    match.apply(1, "accept")
    assert match.explain(2, "accept") == "there is nothing to accept: no draw is aimed at you"


def test_h1_a_stacked_wd4_is_always_legal_and_never_challenged(deal):
    # bluffing off and seat 1 holds the active colour: a plain WD4 would be refused
    hands = [["W+4", "G1", "G6"], ["W+4", "R2", "B1"], ["Y3", "Y4"]]
    match = deal(hands, pile=PILE, stack="same", wd4_bluff=False)
    match.apply(0, "W+4>R")
    assert match.pending == "stack"
    assert "W+4>G" in legal(match, 1)
    match.apply(1, "W+4>G")
    assert match.view(2).active_color == "G"  # the declared colour
    assert legal(match, 2) == ["accept"]
    assert match.explain(2, "challenge").startswith("a stacked Wild Draw Four cannot be challenged")


def test_h1_only_a_wd4_that_starts_the_draw_may_be_challenged(deal):
    hands = [["W+4", "R1", "R3"], ["W+4", "B1", "B2"], ["Y3", "Y4"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "W+4>G")  # a bluff: seat 0 holds red
    assert match.pending == "challenge"
    assert legal(match, 1) == ["W+4>R", "W+4>Y", "W+4>G", "W+4>B", "challenge", "accept"]
    assert match.view(None).pending_draw == 4 and match.view(2).pending_draw_target == 1
    assert match.explain(1, "B1").startswith(
        "you can only stack a Wild Draw Four here, or accept the 4 cards"
    )
    assert match.explain(1, "draw") == (
        "a Wild Draw Four was played on you: challenge it, stack a Wild Draw Four "
        "or accept the 4 cards"
    )
    events = match.apply(1, "challenge")  # resolves exactly as §3.7
    assert kinds(events) == ["challenge", "reveal", "penalty", "draw"]
    assert events[0].data["guilty"] and len(match.hands[0]) == 6
    assert match.current == 1 and match.pending is None and match.view(2).pending_draw == 0
    # stacked on instead, the next victim has no challenge
    again = deal(hands, pile=PILE, stack="same")
    again.apply(0, "W+4>G")
    again.apply(1, "W+4>B")
    assert legal(again, 2) == ["accept"]


def test_h1_a_wd4_on_a_draw_two_cannot_be_challenged(deal):
    hands = [["R+2", "R1"], ["W+4", "R5", "B1"], ["Y3", "Y4"]]
    match = deal(hands, pile=PILE, stack="any")
    match.apply(0, "R+2")
    match.apply(1, "W+4>Y")
    assert match.pending == "stack" and legal(match, 2) == ["accept"]


def test_h1_the_victims_answer_ends_an_open_exposure(deal):
    for answer in ("G+2", "accept"):
        hands = [["R+2", "R1"], ["G+2", "B1", "B2"], ["Y3", "Y4"]]
        match = deal(hands, pile=PILE, stack="same")
        match.apply(0, "R+2")  # forgot UNO: seat 0 is exposed
        assert match.exposed == 0 and legal(match, 1) == ["G+2", "accept", "catch:0"]
        match.apply(1, answer)
        assert match.exposed is None
        with pytest.raises(IllegalAction, match="cannot be caught"):
            match.apply(2, "catch:0")
    challenged = deal([["W+4", "R1"], ["B1", "B2"], ["Y3"]], pile=PILE, stack="same")
    challenged.apply(0, "W+4>G")
    challenged.apply(1, "challenge")
    assert challenged.exposed is None


def test_h1_a_stacking_card_that_goes_out_ends_the_round_and_the_next_draws_all(deal):
    hands = [["R+2", "R1"], ["G+2"], ["B+2", "Y3"]]
    match = deal(hands, pile=PILE, stack="same")
    match.apply(0, "R+2")
    events = match.apply(1, "G+2")
    assert kinds(events) == ["play", "penalty", "draw", "hand_end"]
    assert events[1].seat == 2 and events[1].count == 4 and events[1].data["reason"] == "stack"
    assert names(match.hands[2]) == ["Y3", "Y6", "B6", "B7", "B8", "B+2"]  # no stacking now
    assert match.hand_over and match.last_hand.notes["winner"] == 1
    assert match.last_hand.points[1] == 1 + (3 + 6 + 6 + 7 + 8 + 20)  # those cards count


def test_h1_accepting_with_a_short_pile_takes_what_exists(deal):
    hands = [["R+2", "R1"], ["G+2", "B1"], ["Y3", "Y4"]]
    match = deal(hands, first="R5", pile=["B6"], stack="same")
    match.apply(0, "R+2")
    match.apply(1, "G+2")  # the discard pile is R5, R+2, G+2: two cards to reshuffle
    events = match.apply(2, "accept")
    assert kinds(events)[:3] == ["accept", "penalty", "draw"]
    assert len(match.hands[2]) == 2 + 3  # B6, then R5 and R+2 reshuffled; G+2 stays on top
    assert names(match.discard) == ["G+2"] and not match.draw_pile


def test_h1_two_players_the_pending_draw_alternates(deal):
    match = deal([["R+2", "B+2", "R1"], ["G+2", "B1", "B2"]], pile=PILE, stack="same")
    match.apply(0, "R+2")
    assert match.current == 1
    match.apply(1, "G+2")
    assert (match.current, match.draw_count) == (0, 4)
    match.apply(0, "B+2")
    assert (match.current, match.draw_count) == (1, 6)
    match.apply(1, "accept")
    assert match.current == 0 and len(match.hands[1]) == 8


def test_h1_accept_is_an_explicit_action_even_without_a_stacking_card(deal):
    match = deal([["R+2", "R1", "R6"], ["B1", "B2"], ["Y3"]], pile=PILE, stack="any")
    match.apply(0, "R+2")
    assert legal(match, 1) == ["accept"]
    assert match.current == 1 and len(match.hands[1]) == 2  # nothing drawn until it answers


def test_h1_an_accept_that_draws_nothing_is_not_a_pass(deal):
    # a first-discard Draw Two with nothing under it and an empty draw pile
    match = deal([["R1", "R2"], ["Y1", "Y2"]], first="G+2", pile=[], stack="same")
    assert (match.current, match.pending, match.draw_count) == (0, "stack", 2)
    events = match.apply(0, "accept")
    assert kinds(events) == ["accept", "penalty", "skip"]  # nothing to draw
    assert len(match.hands[0]) == 2 and match.current == 1 and match.passes == 0
    match.apply(1, "pass")
    assert not match.hand_over and match.passes == 1  # the accept was no pass
    match.apply(0, "pass")
    assert match.hand_over and match.last_hand.notes["blocked"]


# -- §4.2 Seven-O (H-2) -----------------------------------------------------------------------


def test_h2_a_seven_swaps_hands_with_a_chosen_player_in_the_same_turn(deal):
    hands = [["R7", "R1", "G1"], ["B1", "B2", "B3", "B4"], ["Y3", "Y4"]]
    off = deal(hands, pile=PILE)
    off.apply(0, "R7")
    assert off.current == 1
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R7")
    assert (match.current, match.pending) == (0, "swap")
    assert match.view(1).pending == "swap"
    assert legal(match, 0) == ["swap:1", "swap:2"]
    assert match.explain(0, "R1") == "choose a player to swap hands with first (swap:N)"
    assert (
        match.explain(0, "swap:0") == "you cannot swap hands with yourself: choose another player"
    )
    assert match.explain(0, "swap:5") == "there is no seat 5 at this table of 3"
    events = match.apply(0, "swap:2")
    assert kinds(events) == ["swap", "received", "received"]
    assert events[0].data["target"] == 2 and events[0].private_to is None
    assert names(match.hands[0]) == ["Y3", "Y4"] and names(match.hands[2]) == ["R1", "G1"]
    assert match.current == 1 and match.pending is None


def test_h2_the_swap_is_explicit_even_with_one_other_player(deal):
    match = deal([["R7", "R1", "R6"], ["B1", "B2", "B3"]], pile=PILE, seven_o=True)
    match.apply(0, "R7")
    assert legal(match, 0) == ["swap:1"]
    match.apply(0, "swap:1")
    assert names(match.hands[0]) == ["B1", "B2", "B3"] and match.current == 1
    assert names(match.hands[1]) == ["R1", "R6"]


def test_h2_swap_outside_its_moment_is_refused_in_words(deal):
    hands = [["R7", "R1"], ["B1", "B2"], ["Y3"]]
    assert deal(hands, pile=PILE).explain(0, "swap:1") == (
        "there is no swapping hands at this table (Seven-O is off)"
    )
    assert deal(hands, pile=PILE, seven_o=True).explain(0, "swap:1") == (
        "you may swap hands only right after playing a 7"
    )


@pytest.mark.parametrize("direction", [1, -1])
def test_h2_a_zero_passes_every_hand_on_in_the_direction_of_play(deal, direction):
    hands = [["R0", "R1", "G1"], ["B1", "B2", "B3", "B4"], ["Y3", "Y4"], ["G5"]]
    off = deal(hands, pile=PILE)
    off.apply(0, "R0")
    assert names(off.hands[1]) == ["B1", "B2", "B3", "B4"]
    match = deal(hands, pile=PILE, seven_o=True)
    match.direction = direction
    events = match.apply(0, "R0")
    assert kinds(events) == ["play", "pass_hands"] + ["received"] * 4
    assert events[1].data["direction"] == direction
    before = [["R1", "G1"], ["B1", "B2", "B3", "B4"], ["Y3", "Y4"], ["G5"]]
    for seat in range(4):
        assert names(match.hands[(seat + direction) % 4]) == before[seat]
    assert match.current == direction % 4
    assert match.view(None).hand_moves == (tuple((s + direction) % 4 for s in range(4)),)


@pytest.mark.parametrize("card", ["R7", "R0"])
def test_h2_a_last_seven_or_zero_just_ends_the_round(deal, card):
    match = deal([[card], ["B1", "B2"], ["Y3"]], pile=PILE, seven_o=True)
    events = match.apply(0, card)
    assert kinds(events) == ["play", "hand_end"] and match.hand_over
    assert names(match.hands[1]) == ["B1", "B2"] and match.hand_moves == []


def test_h2_a_seven_player_who_forgot_uno_stays_exposed_until_the_swap(deal):
    match = deal([["R7", "R1"], ["B1", "B2", "B3"], ["Y3", "Y4"]], pile=PILE, seven_o=True)
    assert "R7!" in legal(match, 0)  # UNO is called before the swap
    match.apply(0, "R7")
    assert match.exposed == 0 and match.pending == "swap"
    assert legal(match, 0) == ["swap:1", "swap:2", "uno"]
    match.apply(2, "catch:0")
    assert len(match.hands[0]) == 3 and match.pending == "swap"  # still its choice
    match.apply(0, "swap:1")
    assert names(match.hands[1]) == ["R1", "B6", "B7"]


def test_h2_after_a_swap_nobody_is_exposed_and_a_one_card_hand_counts_as_called(deal):
    match = deal([["R7", "R1"], ["B1", "B2", "B3"], ["Y3", "Y4"]], pile=PILE, seven_o=True)
    match.apply(0, "R7")
    assert match.exposed == 0
    events = match.apply(0, "swap:2")
    assert match.exposed is None and "exposed" not in kinds(events)
    assert len(match.hands[2]) == 1  # received a one-card hand: safe
    assert legal(match, 1)[-1] != "catch:2"
    with pytest.raises(IllegalAction, match="cannot be caught"):
        match.apply(1, "catch:2")


def test_h2_a_zero_played_without_uno_exposes_nobody(deal):
    match = deal([["R0", "R1"], ["B1", "B2", "B3"], ["Y3", "Y4"]], pile=PILE, seven_o=True)
    events = match.apply(0, "R0")
    assert "exposed" not in kinds(events) and match.exposed is None
    assert names(match.hands[1]) == ["R1"]
    off = deal([["R0", "R1"], ["B1", "B2", "B3"], ["Y3", "Y4"]], pile=PILE)
    off.apply(0, "R0")
    assert off.exposed == 0


@pytest.mark.parametrize("first", ["G7", "G0"])
def test_h2_a_seven_or_zero_turned_up_first_does_nothing(deal, first):
    match = deal([["R1"], ["G2", "B3"], ["R3"]], first=first, dealer=0, seven_o=True)
    assert match.current == 1 and match.pending is None and match.hand_moves == []
    assert names(match.hands[1]) == ["G2", "B3"]


def test_h2_two_players_a_zero_works_as_a_swap(deal):
    match = deal([["R0", "R1", "R2"], ["B1", "B2", "B3", "B4"]], pile=PILE, seven_o=True)
    match.apply(0, "R0")
    assert names(match.hands[0]) == ["B1", "B2", "B3", "B4"]
    assert names(match.hands[1]) == ["R1", "R2"] and match.current == 1


def test_h2_a_moved_hand_is_shown_to_its_new_owner_only(deal):
    match = deal([["R7", "R1", "G1"], ["B1", "B2"], ["Y3", "Y4"]], pile=PILE, seven_o=True)
    match.apply(0, "R7")
    events = match.apply(0, "swap:1")
    got = {e.seat: e for e in events if e.kind == "received"}
    assert names(got[1].cards) == ["R1", "G1"] and got[1].private_to == frozenset({1})
    assert got[1].data["from"] == 0
    assert got[1].seen_by(2).cards == () and got[1].seen_by(None).cards == ()
    assert got[1].seen_by(2).count == 2
    assert events[0].seen_by(None).data["target"] == 1  # who with whom: public
    assert names(match.view(1).hand) == ["R1", "G1"]
    for seat in (None, 0, 1, 2):
        assert match.view(seat).hand_moves == ((1, 0, 2),)


def test_h2_the_giver_knows_the_hand_it_gave_until_each_card_is_played(deal):
    match = deal([["R7", "R1", "G1"], ["B1", "R2", "R3"], ["Y3", "Y4"]], pile=PILE, seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:1")
    assert names(match.view(0).known[1]) == ["R1", "G1"]
    assert names(match.view(1).known[0]) == ["R2", "R3", "B1"]
    assert match.view(2).known == ((), (), ())  # a third seat learns nothing
    assert match.view(None).known == ((), (), ())
    match.apply(1, "R1")
    assert names(match.view(0).known[1]) == ["G1"]


def test_h2_knowledge_moves_with_the_cards_on_a_zero(deal):
    hands = [["R0", "R1", "G1"], ["B1", "R2", "R3"], ["Y3", "Y4"]]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R0")  # 0 -> 1 -> 2 -> 0
    view = match.view(0)
    assert names(view.known[1]) == ["R1", "G1"]  # the hand it passed
    assert names(match.view(1).known[2]) == ["R2", "R3", "B1"]
    assert names(match.view(2).known[0]) == ["Y3", "Y4"]
    # seat 1 plays and passes again: seat 0 still knows where its old hand went
    match.hands[1].append(get_game("uno").parse_card("R0"))
    match.apply(1, "R0")
    assert names(match.view(0).known[2]) == ["R1", "G1"]
    assert names(match.view(1).known[0]) == ["R2", "R3", "B1"]


def test_h2_a_public_creeper_stays_public_in_its_new_hand(deal):
    hands = [["R7", "R1", "G7"], ["B1", "B2"], ["Y3", "Y4", "Y5"]]
    pile = ["C", "G6", "G8", "G9", "B9", "Y9"]
    match = deal(hands, pile=pile, game="uno-minecraft", seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")  # seat 2 now holds R1, G7
    match.apply(1, "draw")  # a Creeper: shown to all, then three bonus cards
    match.apply(1, "keep")
    assert names(match.view(None).known[1]) == ["C"]
    match.apply(2, "G7!")
    match.apply(2, "swap:1")  # seat 2 takes the hand with the Creeper in it
    for seat in (None, 0):
        assert names(match.view(seat).known[2]) == ["C"]
    assert match.view(None).known[1] == ()
    assert names(match.view(0).known[1]) == ["R1"]  # the card seat 0 gave, passed on again
    assert names(match.view(1).known[2]) == ["G6", "G8", "G9", "B1", "B2", "C"]  # it gave them
    twin = determinize(match.view(0), random.Random(3))
    assert "C" in names(twin.hands[2]) and twin.view(0) == match.view(0)


def test_h2_a_challenge_reveal_moves_with_the_cards_to_the_challenger_only(deal):
    hands = [["W+4", "R1", "G1"], ["B1", "B2", "B4"], ["B3", "Y4", "Y5"]]
    match = deal(hands, first="R5", pile=PILE, seven_o=True)
    match.apply(0, "W+4>B")  # a bluff: seat 0 holds red
    match.apply(1, "challenge")  # guilty: seat 1 sees R1, G1; seat 0 draws B6, B7, B8, Y6
    assert names(match.view(1).known[0]) == ["R1", "G1"]
    match.apply(1, "B1")
    match.apply(2, "B3")
    match.apply(0, "B7")
    match.apply(0, "swap:2")  # seat 0's hand, the seen cards in it, goes to seat 2
    assert names(match.view(1).known[2]) == ["R1", "G1"] and match.view(1).known[0] == ()
    assert match.view(None).known == ((), (), ())  # a private reveal stays private
    assert names(match.view(0).known[2]) == ["R1", "Y6", "G1", "B6", "B8"]
    assert names(match.view(2).known[0]) == ["Y4", "Y5"]
    twin = determinize(match.view(1), random.Random(1))
    assert {"R1", "G1"} <= set(names(twin.hands[2])) and twin.view(1) == match.view(1)


def test_h2_determinized_deals_respect_what_a_seat_knows(deal):
    hands = [["R7", "R1", "G1", "W"], ["B1", "B2", "B3"], ["Y3", "Y4", "Y5"], ["G5", "G9"]]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    view = match.view(0)
    for seed in range(20):
        twin = determinize(view, random.Random(seed))
        assert names(twin.hands[2]) == ["R1", "G1", "W"]  # the hand it gave, exactly
        assert twin.view(0) == view
        assert twin.private_known[2][0] and twin.hand_moves == [(2, 1, 0, 3)]


# -- §4.3 draw to match (H-3) -----------------------------------------------------------------


def test_h3_a_turn_draw_goes_on_until_a_playable_card(deal):
    hands = [["G1", "B2"], ["Y3"], ["Y4"]]
    pile = ["G7", "B9", "Y1", "R8", "G2"]
    off = deal(hands, pile=pile)
    off.apply(0, "draw")
    assert len(off.hands[0]) == 3
    match = deal(hands, pile=pile, draw_to_match=True)
    events = match.apply(0, "draw")
    assert kinds(events) == ["draw", "draw_to_match"]
    assert names(events[0].cards) == ["G7", "B9", "Y1", "R8"] and events[1].count == 4
    assert match.pending == "drawn" and str(match.view(0).drawn) == "R8"
    assert legal(match, 0) == ["R8", "keep"]
    match.apply(0, "keep")  # kept, as §3.6 3 allows
    assert match.current == 1 and len(match.hands[0]) == 6


@pytest.mark.parametrize("card", ["W", "W+4", "Y5"])
def test_h3_a_wild_wd4_or_match_by_number_ends_the_run(deal, card):
    match = deal([["G1", "B2"], ["Y3"], ["Y4"]], pile=["G7", card, "B9"], draw_to_match=True)
    match.apply(0, "draw")  # on R5: G7 does not match, the next card does
    assert str(match.drawn) == card and len(match.hands[0]) == 4
    assert names(match.draw_pile) == ["B9"]


def test_h3_without_bluffing_a_wd4_ends_the_run_only_when_it_may_be_played(deal):
    hands = [["R1", "B2"], ["Y3"], ["Y4"]]
    bluff = deal(hands, first="R5", pile=["G7", "W+4", "B9", "R9"], draw_to_match=True)
    bluff.apply(0, "draw")
    assert str(bluff.drawn) == "W+4"
    strict = deal(
        hands, first="R5", pile=["G7", "W+4", "B9", "R9"], draw_to_match=True, wd4_bluff=False
    )
    strict.apply(0, "draw")  # holds red: the Wild Draw Four may not be played
    assert str(strict.drawn) == "R9" and len(strict.hands[0]) == 6


def test_h3_how_many_is_public_which_cards_are_the_drawers(deal):
    match = deal([["G1", "B2"], ["Y3"], ["Y4"]], pile=["G7", "B9", "R8"], draw_to_match=True)
    events = match.apply(0, "draw")
    for seat in (1, 2, None):
        seen = [e.seen_by(seat) for e in events]
        assert [e.cards for e in seen] == [(), ()]
        assert [e.count for e in seen] == [3, 3]
    assert match.view(1).drawn is None and match.view(1).hand_sizes[0] == 5
    same = deal([["G1", "B2"], ["Y3"], ["Y4"]], pile=["B7", "G9", "Y8"], draw_to_match=True)
    same_events = same.apply(0, "draw")
    assert [e.seen_by(1) for e in same_events] == [e.seen_by(1) for e in events]
    assert same.view(1) == match.view(1)


def test_h3_a_drawn_creeper_triggers_and_ends_the_run(deal):
    pile = ["G7", "C", "R1", "R2", "R3", "R4"]
    match = deal(
        [["G1", "B2"], ["Y3"], ["Y4"]], pile=pile, game="uno-minecraft", draw_to_match=True
    )
    events = match.apply(0, "draw")
    assert kinds(events) == ["draw", "creeper", "bonus", "draw_to_match"]
    assert events[-1].count == 2 and events[-1].data["bonus"] == 3
    assert str(match.drawn) == "C" and "C>R" in legal(match, 0)
    assert names(match.draw_pile) == ["R4"]  # the bonus cards were not checked


def test_h3_when_the_piles_run_out_the_drawer_keeps(deal):
    match = deal([["G1", "B2"], ["Y3"], ["Y4"]], first="R5", pile=["G7", "B9"], draw_to_match=True)
    events = match.apply(0, "draw")
    assert kinds(events) == ["draw", "draw_to_match"] and events[-1].count == 2
    assert legal(match, 0) == ["keep"]
    match.apply(0, "keep")
    assert legal(match, 1) == ["pass"]  # §3.8 2: nothing drawable, nothing playable


def test_h3_a_reshuffle_in_the_middle_of_the_run(deal):
    match = deal(
        [["R1", "B2", "G2"], ["B3", "B4"], ["Y4"]],
        first="R5",
        pile=["G7", "G9", "Y2"],
        draw_to_match=True,
    )
    match.apply(0, "R1")
    events = match.apply(1, "draw")  # G7, G9, Y2; the pile is empty: R5 comes back, matches
    assert kinds(events) == ["draw", "reshuffle", "draw", "draw_to_match"]
    assert [e.count for e in events] == [3, 1, 1, 4]
    assert str(match.drawn) == "R5" and legal(match, 1) == ["R5", "keep"]


def test_h3_penalty_draws_are_not_affected(deal):
    hands = [["R+2", "R1"], ["B1", "B2"], ["Y3"]]
    match = deal(hands, pile=["G7", "G8", "R9"], draw_to_match=True)
    match.apply(0, "R+2")
    assert len(match.hands[1]) == 4 and match.current == 2  # exactly 2, then skipped
    catch = deal([["R1", "R2"], ["G1"], ["Y3"]], pile=["G7", "G8", "R9"], draw_to_match=True)
    catch.apply(0, "R1")
    catch.apply(1, "catch:0")
    assert len(catch.hands[0]) == 3


def test_h3_drawing_is_allowed_while_holding_a_playable_card(deal):
    match = deal([["R1", "B2"], ["Y3"], ["Y4"]], pile=["G7", "B9", "R8"], draw_to_match=True)
    assert "draw" in legal(match, 0) and "R1" in legal(match, 0)
    match.apply(0, "draw")
    assert len(match.hands[0]) == 5


def test_house_rule_views_travel_to_shared_tables_unchanged(deal):
    """Shared tables send views as JSON (unotable.controller.wire): the new fields survive."""
    import json

    from unotable.controller.wire import decode, encode

    match = deal(
        [["R7", "R+2", "G1"], ["G+2", "R1", "B2"], ["Y3", "Y4"]],
        pile=PILE,
        stack="any",
        seven_o=True,
        draw_to_match=True,
    )
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    match.apply(1, "R1")
    match.apply(2, "R+2")  # seat 2 now holds seat 0's old hand
    for seat in (None, 0, 1, 2):
        view = match.view(seat)
        assert view.pending_draw == 2 and view.hand_moves == ((2, 1, 0),)
        assert decode(json.loads(json.dumps(encode(view))), "uno") == view
