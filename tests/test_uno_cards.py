"""UNO cards and notation: interning, parsing, the pre-built actions."""

from __future__ import annotations

import copy
import pickle

import pytest

from unotable.engine import Action, NotationError, get_game
from unotable.engine.uno import ALL_CARDS, CLASSIC_DECK, MINECRAFT_DECK, parse_card

NOTATION = ["R7", "B+2", "Y-skip", "G-rev", "W", "W+4", "C", "R0", "B9"]


@pytest.mark.parametrize("text", NOTATION)
def test_str_of_a_card_is_its_notation(text):
    assert str(parse_card(text)) == text


def test_cards_are_interned_one_object_per_distinct_card():
    assert len({id(c) for c in MINECRAFT_DECK}) == len(ALL_CARDS) == 4 * 13 + 3
    assert len({id(c) for c in CLASSIC_DECK}) == 4 * 13 + 2
    r7 = [c for c in CLASSIC_DECK if str(c) == "R7"]
    assert len(r7) == 2 and r7[0] is r7[1]
    card = parse_card("R7")
    assert copy.copy(card) is card and copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize(
    "text,card",
    [
        ("r7", "R7"),
        ("Red 7", "R7"),
        ("y skip", "Y-skip"),
        ("YS", "Y-skip"),
        ("y_skip", "Y-skip"),
        ("g reverse", "G-rev"),
        ("GREV", "G-rev"),
        ("b draw two", "B+2"),
        ("b+2", "B+2"),
        ("blue d2", "B+2"),
        ("wild", "W"),
        ("wd4", "W+4"),
        ("+4", "W+4"),
        ("Wild Draw Four", "W+4"),
        ("creeper", "C"),
        ("c", "C"),
    ],
)
def test_parsing_is_case_insensitive_and_forgiving(text, card):
    assert str(get_game("uno-minecraft").parse_card(text)) == card


@pytest.mark.parametrize("text", ["", "R", "R10", "X7", "W+2", "skip", "7", "R 7 7", "RR7", "C4"])
def test_bad_card_text_is_a_notation_error(text):
    with pytest.raises(NotationError):
        parse_card(text)


@pytest.mark.parametrize(
    "text,kind,card,choice,uno",
    [
        ("R7", "play", "R7", None, False),
        ("r7!", "play", "R7", None, True),
        ("W>G", "play", "W", "G", False),
        ("W+4>R!", "play", "W+4", "R", True),
        ("w>green", "play", "W", "G", False),
        ("C>b", "play", "C", "B", False),
        ("color:G", "color", None, "G", False),
        ("color:red", "color", None, "R", False),
    ],
)
def test_action_notation(text, kind, card, choice, uno):
    action = get_game("uno-minecraft").parse_action(text)
    assert action.kind == kind and action.choice == choice and action.uno is uno
    assert (str(action.card) if action.card else None) == card


@pytest.mark.parametrize("text", ["draw", "keep", "pass", "challenge", "accept", "uno", "catch:3"])
def test_bare_actions_round_trip(text):
    assert str(get_game("uno").parse_action(text)) == text


@pytest.mark.parametrize("text", ["W>X", "R7>", "color:purple", "catch:x", "direction:left", "fly"])
def test_bad_action_text_is_a_notation_error(text):
    with pytest.raises(NotationError):
        get_game("uno").parse_action(text)


def test_legal_actions_are_the_prebuilt_objects(deal):
    match = deal([["R1", "W", "G2"], ["R2"]], first="R5", dealer=1)
    first = match.legal_actions(0)
    again = match.legal_actions(0)
    assert all(a is b for a, b in zip(first, again, strict=True))
    assert first[0] == Action("play", card=parse_card("R1"))


def test_duplicate_cards_in_hand_are_listed_once(deal):
    match = deal([["R1", "R1", "W", "W"], ["R2"]], first="R5", dealer=1)
    assert [str(a) for a in match.legal_actions(0)] == ["R1", "W>R", "W>Y", "W>G", "W>B", "draw"]
