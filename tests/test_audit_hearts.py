"""Rules audit of UNO Hearts and Wild Twist Hearts: one scenario per bug found.

Each test failed before its fix; the deals are explicit and the checks exact.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from unotable.engine import Action, IllegalAction, get_game
from unotable.engine.uno_hearts import DECK as UH_DECK
from unotable.engine.uno_hearts import UnoHeartsMatch, determinize
from unotable.engine.wild_twist import WildTwistMatch

UH = get_game("uno-hearts")
WT = get_game("wild-twist-hearts")


def uh_table(hands: list[list[str]], pile: list[str] | None = None) -> UnoHeartsMatch:
    """A first hand dealt exactly; the dealer is the last seat, so seat 0 leads."""
    match = UH.from_deal(
        len(hands), {}, seed=3, hands=hands, draw_pile=pile or [], dealer=len(hands) - 1
    )
    assert isinstance(match, UnoHeartsMatch)
    return match


def play(match: UnoHeartsMatch, *moves: str) -> None:
    for move in moves:
        seat = match.current
        assert seat is not None
        if match.hand_over:
            match.next_hand()
        match.apply(seat, move)
        if match.hand_over:  # the table has been seen: deal on, as a driver would
            match.next_hand()


# -- UNO Hearts §1.7.4: the taker chooses left or right; "swap" is only the 2-player pass --


def test_a_pass_hand_direction_other_than_left_or_right_is_refused() -> None:
    match = uh_table([["P8", "G1"], ["P10", "G2"], ["P3", "G3"]])
    play(match, "P8", "P10", "P3")
    assert (match.phase, match.current) == ("direction", 1)
    hands = [list(h) for h in match.hands]
    for choice in ("swap", None, "up"):
        with pytest.raises(IllegalAction, match="direction:left or direction:right"):
            match.apply(1, Action("direction", choice=choice))
    assert match.phase == "direction"
    assert match.hands == hands
    assert match.pass_hands == []
    assert [str(a) for a in match.legal_actions(1)] == ["direction:left", "direction:right"]


# -- UNO Hearts error messages: an example call must itself be legal ------------------------


def test_a_missing_call_suggests_only_calls_that_are_legal() -> None:
    match = uh_table([["WD7", "G1"], ["Y1", "Y2"]])
    # hearts unbroken: H may not be led and G is held, so only Y and P remain
    with pytest.raises(IllegalAction) as caught:
        match.apply(0, "WD7")
    assert str(caught.value) == "call a suit for the Wild Draw (you may call WD7>Y or WD7>P)"
    with pytest.raises(IllegalAction) as caught:
        match.apply(0, "WD7>H")
    assert str(caught.value) == (
        "hearts are not broken: a Wild Draw may not be led as a heart (you may call WD7>Y or WD7>P)"
    )


def test_a_wild_that_cannot_be_led_says_why() -> None:
    match = uh_table([["WD3", "Y1", "P1", "G1"], ["Y2", "Y3", "Y4", "Y5"]])
    assert "WD3>H" not in [str(a) for a in match.legal_actions(0)]
    with pytest.raises(IllegalAction) as caught:
        match.apply(0, "WD3")
    assert str(caught.value) == (
        "call a suit for the Wild Draw (WD3 cannot be led now: you hold yellow, purple "
        "and green, and hearts are not broken)"
    )


def test_a_wild_without_a_call_while_holding_the_lead_suit_is_told_to_follow() -> None:
    match = uh_table([["P10", "G1"], ["P3", "WD5"]])
    play(match, "P10")
    with pytest.raises(IllegalAction) as caught:
        match.apply(1, "WD5")
    assert str(caught.value) == "you must follow purple: you hold P3"


def test_a_call_on_a_natural_card_that_may_not_be_played_names_the_real_rule() -> None:
    match = uh_table([["H1", "G1"], ["P3", "G2"]])
    with pytest.raises(IllegalAction) as caught:
        match.apply(0, "H1>P")  # "play H1 on its own" would be illegal too
    assert str(caught.value) == "hearts are not broken: lead another suit"
    play(match, "G1")
    with pytest.raises(IllegalAction) as caught:
        match.apply(1, "P3>G")
    assert str(caught.value) == "you must follow green: you hold G2"
    with pytest.raises(IllegalAction) as caught:
        match.apply(1, "G2>P")
    assert str(caught.value) == "only a Wild Draw is called: play G2 on its own"


# -- Wild Twist error messages: a wrong declaration never hides the rule that forbids the card --

CLUB_SUIT = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"]


def wt_deal(hands: list[list[str]], **options: Any) -> WildTwistMatch:
    """A Wild Twist game dealt exactly, seat 0 left of the dealer."""
    match = WT.from_deal(4, options, seed=1, hands=hands, dealer=3)
    assert isinstance(match, WildTwistMatch)
    return match


def wt_table() -> WildTwistMatch:
    hands = [
        [*CLUB_SUIT, "2D"],
        ["WC", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD", "WD"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "WH"],
        ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "WS"],
    ]
    return wt_deal(hands)


@pytest.mark.parametrize(
    ("seat", "text", "message"),
    [
        (0, "3C>HIGH", "the lowest club opens the game: lead 2C"),
        (0, "2C>LOW", "only a Wild is declared HIGH or LOW: play 2C"),
    ],
)
def test_wild_twist_forced_opening_errors(seat: int, text: str, message: str) -> None:
    match = wt_table()
    if match.hand_over:
        match.next_hand()
    match.apply(1, "decline")
    with pytest.raises(IllegalAction) as caught:
        match.apply(seat, text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("WD", "you must follow clubs: you hold WC"),  # not "declare HIGH or LOW: WD>HIGH"
        ("3D>HIGH", "you must follow clubs: you hold WC"),  # not "play 3D"
        ("WC", "declare HIGH or LOW for a Wild: WC>HIGH or WC>LOW"),
    ],
)
def test_wild_twist_follow_errors_come_before_declaration_errors(text: str, message: str) -> None:
    match = wt_table()
    if match.hand_over:
        match.next_hand()
    match.apply(1, "decline")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "2C")
    before = match.view(1)
    with pytest.raises(IllegalAction) as caught:
        match.apply(1, text)
    assert str(caught.value) == message
    assert match.view(1) == before


def test_wild_twist_hearts_and_first_trick_errors_come_before_declaration_errors() -> None:
    hands = [
        [*CLUB_SUIT, "WH"],
        ["WC", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "WD"],
        ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "WS"],
    ]
    match = wt_deal(hands, no_points_first_trick=True)
    if match.hand_over:
        match.next_hand()
    match.apply(1, "decline")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "2C")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "WC>LOW")
    for text, message in (
        ("2H>LOW", "no points on the first trick: discard a card like WD"),
        ("WD", "declare HIGH or LOW for a Wild: WD>HIGH or WD>LOW"),
    ):
        with pytest.raises(IllegalAction) as caught:
            match.apply(2, text)
        assert str(caught.value) == message
    if match.hand_over:
        match.next_hand()
    match.apply(2, "WD>LOW")
    if match.hand_over:
        match.next_hand()
    match.apply(3, "2S")
    assert (match.current, match.hearts_broken) == (0, False)
    for text in ("WH", "WH>HIGH"):
        with pytest.raises(IllegalAction) as caught:
            match.apply(0, text)
        assert str(caught.value) == "hearts are not broken: lead another suit"


# -- UNO Hearts determinize: shown voids are kept whenever a consistent deal exists ----------


def test_determinize_keeps_voids_when_a_greedy_deal_would_break_them() -> None:
    match = uh_table([["H0"], ["Y1"], ["P1"]], pile=["G1"])
    view = match.view(0)
    card = {str(c): c for c in UH_DECK}
    unseen = {"H0", "Y1", "P1", "G1"}
    # seat 0 has taken every other card; seats 1 and 2 showed voids that fit one deal only
    view = replace(
        view,
        taken=(tuple(c for c in UH_DECK if str(c) not in unseen), (), ()),
        voids=(frozenset(), frozenset("HG"), frozenset("YG")),
    )
    for seed in range(40):
        sample = determinize(view, random.Random(seed))
        assert sample.hands == [[card["H0"]], [card["Y1"]], [card["P1"]]]
        assert sample.draw_pile == [card["G1"]]
        assert sample.counts[1][1] == 1 and sample.counts[2][2] == 1


# -- Wild Twist view: only real seats have a view ---------------------------------------------


def test_wild_twist_view_of_a_seat_that_does_not_exist_is_refused() -> None:
    match = WT.new_match(4, seed=5)
    for seat in (-1, -4, 4, True):
        with pytest.raises(IllegalAction, match="there is no seat"):
            match.view(seat)
    assert match.view(3).seat == 3
