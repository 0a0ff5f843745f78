"""UNO Hearts scenario tests: every rule and D-n of RULES.md §1, from explicit deals."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unotable.engine import IllegalAction, OptionError, get_game
from unotable.engine.uno_hearts import DECK, UnoHeartsMatch

SPEC = get_game("uno-hearts")


def table(hands: list[list[str]], pile: list[str] | None = None, **options: Any) -> UnoHeartsMatch:
    """A first hand dealt exactly; the dealer is the last seat, so seat 0 leads."""
    dealer = options.pop("dealer", len(hands) - 1)
    match = SPEC.from_deal(
        len(hands), options, seed=7, hands=hands, draw_pile=pile or [], dealer=dealer
    )
    assert isinstance(match, UnoHeartsMatch)
    return match


def play(match: UnoHeartsMatch, *moves: str) -> list[Any]:
    events = []
    for move in moves:
        seat = match.current
        assert seat is not None, f"nobody to play {move}"
        if match.hand_over:
            match.next_hand()
        events += match.apply(seat, move)
        if match.hand_over:  # the table has been seen: deal on, as a driver would
            events += match.next_hand()
    return events


def legal(match: UnoHeartsMatch) -> list[str]:
    assert match.current is not None
    return [str(a) for a in match.legal_actions(match.current)]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


# -- §1.1 components, D-6 ---------------------------------------------------------------


def test_deck_has_106_cards_with_37_points() -> None:
    assert len(DECK) == 106
    assert len({str(c) for c in DECK}) == 106
    suits = Counter(str(c)[0] if not c.wild else "WD" for c in DECK)
    assert suits == {"H": 24, "Y": 24, "P": 24, "G": 24, "WD": 10}
    assert sorted(c.rank for c in DECK if c.wild) == list(range(1, 11))
    assert sum(c.points for c in DECK) == 37
    assert SPEC.parse_card("Y13").points == 13
    assert SPEC.parse_card("H0").points == 1
    assert SPEC.parse_card("Y12").points == 0


# -- §1.2 deal, D-2, D-7 ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "pile"), [(2, 80), (3, 67), (4, 54), (5, 41), (6, 28), (7, 15), (8, 2)]
)
def test_deal_thirteen_each_rest_is_the_draw_pile(players: int, pile: int) -> None:
    match = SPEC.new_match(players, seed=players)
    assert isinstance(match, UnoHeartsMatch)
    view = match.view(0)
    assert view.hand_sizes == (13,) * players
    assert view.draw_pile_size == pile
    placed = [c for h in match.hands for c in h] + match.draw_pile
    assert sorted(c.index for c in placed) == list(range(106))
    assert view.phase == "play"
    assert match.current == (match.dealer + 1) % players  # left of the dealer leads


def test_first_dealer_is_random_and_the_deal_passes_left() -> None:
    dealers = Counter(SPEC.new_match(4, seed=s).dealer for s in range(400))  # type: ignore[attr-defined]
    assert set(dealers) == {0, 1, 2, 3}
    assert min(dealers.values()) > 60  # roughly uniform: 100 expected each
    match = table([["H1"], ["H2"], ["H3"]], dealer=1)  # seat 2 leads
    assert match.current == 2
    play(match, "H3", "H1", "H2")  # seat 2 takes 3 points; next hand dealt by seat 2
    assert match.hand_number == 2
    assert match.dealer == 2
    assert match.current == 0


def test_same_seed_same_match() -> None:
    a, b = SPEC.new_match(5, seed=99), SPEC.new_match(5, seed=99)
    assert a.view(0) == b.view(0)
    assert SPEC.new_match(5, seed=98).view(0) != a.view(0)


# -- §1.4 trick play, D-9 ------------------------------------------------------------------


def test_rulebook_example_purple_ten_led() -> None:
    # "The 10 of purple is led ... 12 of purple ... 15 of hearts": P12 takes it
    match = table([["P10", "G1"], ["P12", "G2"], ["H15", "G3"]])
    events = play(match, "P10", "P12", "H15")
    won = next(e for e in events if e.kind == "trick_won")
    assert won.seat == 1
    assert [str(c) for c in won.cards] == ["P10", "P12", "H15"]
    assert won.data["points"] == 1
    assert match.current == 1  # the taker leads next
    assert match.hand_points == [0, 1, 0]
    assert match.view(0).voids[2] == frozenset("P")


def test_turn_order_is_clockwise_and_out_of_turn_is_refused() -> None:
    match = table([["Y1", "G1"], ["Y2", "G2"], ["Y3", "G3"], ["Y4", "G4"]], dealer=1)
    assert match.current == 2
    with pytest.raises(IllegalAction, match="it is seat 2's turn"):
        match.apply(0, "Y1")
    play(match, "Y3")
    assert match.current == 3
    play(match, "Y4", "Y1")
    assert match.current == 1


def test_points_may_be_played_on_the_first_trick_d9() -> None:
    match = table([["G5", "G1"], ["H9", "Y13"]])
    assert legal(match) == ["G1", "G5"]
    play(match, "G5")
    assert legal(match) == ["H9", "Y13"]
    play(match, "Y13")
    assert match.hand_points == [13, 0]


# -- §1.6 following ------------------------------------------------------------------------


def test_must_follow_the_lead_suit() -> None:
    match = table([["P10", "G1", "G2", "G4"], ["P3", "P12", "H15", "WD5"]])
    play(match, "P10")
    assert legal(match) == ["P3", "P12"]
    with pytest.raises(IllegalAction, match="you must follow purple: you hold P3"):
        match.apply(1, "H15")
    with pytest.raises(IllegalAction, match="you must follow purple"):
        match.apply(1, "WD5>H")
    with pytest.raises(IllegalAction, match="you must follow purple"):
        match.apply(1, "WD5>P")


def test_a_void_player_may_play_anything_and_call_any_suit_not_held() -> None:
    match = table([["P10", "G1", "G2", "G3"], ["H15", "Y2", "WD5", "WD9"]])
    play(match, "P10")
    # hearts unbroken: discarding is not leading, so WD>H is allowed (§1.6 following 2)
    assert legal(match) == ["H15", "Y2", "WD5>P", "WD5>G", "WD9>P", "WD9>G"]
    with pytest.raises(IllegalAction, match="may not be called yellow while you hold a yellow"):
        match.apply(1, "WD5>Y")
    with pytest.raises(IllegalAction, match="may not be called heart while you hold a heart"):
        match.apply(1, "WD5>H")


def test_a_wild_called_heart_may_be_discarded_while_hearts_are_unbroken() -> None:
    match = table([["P10", "G1"], ["Y2", "WD5"]])
    play(match, "P10")
    assert legal(match) == ["Y2", "WD5>H", "WD5>P", "WD5>G"]
    play(match, "WD5>H")
    assert match.hearts_broken  # D-11: a wild called heart breaks hearts


def test_wild_draws_never_make_a_duty_to_follow_d10() -> None:
    # seat 1 holds no natural heart, only wilds: it is void in hearts
    match = table([["H4", "H6"], ["WD8", "Y3"]])
    play(match, "H4")  # all natural hearts: may be led (§1.6 leading 2)
    assert legal(match) == ["Y3", "WD8>H", "WD8>P", "WD8>G"]


def test_the_lead_suit_never_changes_after_a_wild() -> None:
    # restriction 1: a Wild Draw played after the lead does not change the lead suit
    match = table([["G3", "G1"], ["WD9", "Y1"], ["G2", "P2"]])
    play(match, "G3", "WD9>P")
    assert match.view(2).lead_suit == "G"
    assert legal(match) == ["G2"]
    events = play(match, "G2")
    assert next(e for e in events if e.kind == "trick_won").seat == 0


def test_rulebook_example_wild_draw_eight_on_the_four_of_hearts() -> None:
    # "If this Wild Draw 8 is called purple ... it will not take the trick."
    called_purple = table(
        [["H4", "H5"], ["WD8", "Y3"], ["H2", "Y4"]], pile=[f"G{i}" for i in range(8)]
    )
    events = play(called_purple, "H4", "WD8>P", "H2")
    assert next(e for e in events if e.kind == "trick_won").seat == 0
    # "If this Wild Draw 8 is called a heart, it will outrank the 4 of hearts"
    called_heart = table(
        [["H4", "H5"], ["WD8", "Y3"], ["H2", "Y4"]], pile=[f"G{i}" for i in range(8)]
    )
    events = play(called_heart, "H4", "WD8>H", "H2")
    assert next(e for e in events if e.kind == "trick_won").seat == 1


def test_rulebook_example_wild_draw_seven_called_green_wins_the_tie() -> None:
    match = table([["G7", "Y1"], ["WD7", "Y2"], ["G6", "Y3"]], pile=[f"P{i}" for i in range(7)])
    events = play(match, "G7", "WD7>G", "G6")
    assert next(e for e in events if e.kind == "trick_won").seat == 1


def test_wilds_win_ties_when_led_too() -> None:
    match = table([["WD7", "Y1"], ["G7", "G9"], ["G3", "Y3"]], pile=[f"P{i}" for i in range(7)])
    # the natural G7 only ties the led WD7>G: the wild wins
    events = play(match, "WD7>G", "G7", "G3")
    assert next(e for e in events if e.kind == "trick_won").seat == 0


def test_a_wild_called_another_suit_cannot_win_even_with_an_equal_number_d13() -> None:
    match = table([["G7", "Y1"], ["WD7", "Y2"]], pile=[f"P{i}" for i in range(7)])
    events = play(match, "G7", "WD7>P")
    assert next(e for e in events if e.kind == "trick_won").seat == 0


# -- §1.6 leading, D-11, D-12 ----------------------------------------------------------------


def test_hearts_may_not_be_led_until_broken() -> None:
    match = table([["H3", "G1", "G2"], ["Y5", "Y6", "Y7"]])
    assert legal(match) == ["G1", "G2"]
    with pytest.raises(IllegalAction, match="hearts are not broken: lead another suit"):
        match.apply(0, "H3")


def test_a_hand_of_only_hearts_may_lead_a_heart_and_that_breaks_hearts() -> None:
    match = table([["H3", "H9"], ["Y5", "Y6"]])
    assert legal(match) == ["H3", "H9"]
    events = play(match, "H3")
    assert "hearts_broken" in kinds(events)
    assert match.view(1).voids[0] == frozenset("YPG")


def test_hearts_plus_wilds_is_not_all_hearts_d12() -> None:
    match = table([["H3", "WD2"], ["Y5", "Y6"]], pile=["G0", "G1"])
    # no heart lead, no wild called heart; the wild may be led as Y, P or G
    assert legal(match) == ["WD2>Y", "WD2>P", "WD2>G"]
    with pytest.raises(IllegalAction, match="hearts are not broken: lead another suit"):
        match.apply(0, "H3")
    with pytest.raises(IllegalAction, match="may not be called heart while you hold a heart"):
        match.apply(0, "WD2>H")
    no_hearts = table([["Y1", "WD2"], ["Y5", "Y6"]], pile=["G0", "G1"])
    assert legal(no_hearts) == ["Y1", "WD2>P", "WD2>G"]
    with pytest.raises(IllegalAction, match="hearts are not broken: a Wild Draw may not be led"):
        no_hearts.apply(0, "WD2>H")


def test_a_led_wild_sets_the_lead_suit_to_its_call_d12() -> None:
    match = table([["WD2", "G1"], ["Y5", "H6"], ["H7", "Y9"]], pile=["G3", "G4"])
    assert legal(match) == ["G1", "WD2>Y", "WD2>P"]  # holds green: may not call it
    play(match, "WD2>Y")
    assert match.view(1).lead_suit == "Y"
    assert legal(match) == ["Y5"]
    play(match, "Y5")
    events = play(match, "Y9")
    assert next(e for e in events if e.kind == "trick_won").seat == 2


def test_a_wild_may_be_led_as_heart_once_hearts_are_broken() -> None:
    match = table([["P9", "WD3", "Y2"], ["Y1", "H1", "G9"]], pile=["G0", "G1", "G2"])
    play(match, "P9", "H1")  # seat 1 is void in purple and breaks hearts
    assert match.current == 0
    assert legal(match) == ["Y2", "WD3>H", "WD3>P", "WD3>G"]
    play(match, "WD3>H")
    assert match.view(1).lead_suit == "H"
    assert legal(match) == ["Y1", "G9"]


@pytest.mark.parametrize(
    ("breaker", "hand"),
    [("H0", ["H0", "Y13", "G3"]), ("Y13", ["WD1", "Y13", "G3"]), ("WD1>H", ["WD1", "Y13", "G3"])],
)
def test_hearts_are_broken_by_a_heart_the_yellow_13_or_a_wild_called_heart_d11(
    breaker: str, hand: list[str]
) -> None:
    match = table([["P5", "P6", "H2"], hand], pile=["G1"])
    play(match, "P5")
    events = play(match, breaker)
    broken = [e for e in events if e.kind == "hearts_broken"]
    assert [str(e.cards[0]) for e in broken] == [breaker.split(">")[0]]
    assert match.hearts_broken
    assert match.view(0).hearts_broken


def test_cards_drawn_into_a_trick_pile_do_not_break_hearts_d11() -> None:
    match = table([["P5", "G1", "H2"], ["WD2", "G2", "Y3"]], pile=["H9", "Y13", "H10"])
    play(match, "P5", "WD2>P")  # the wild loses to P5; seat 0 draws two points cards
    assert [str(c) for c in match.taken[0]] == ["P5", "WD2", "H9", "Y13"]
    assert match.hand_points == [14, 0]
    assert not match.hearts_broken
    assert legal(match) == ["G1"]


# -- §1.7 draw effect, D-14 --------------------------------------------------------------------


def test_the_taker_draws_the_sum_of_the_wild_numbers_face_up_into_the_trick_pile() -> None:
    pile = ["H1", "WD4", "G9", "Y13", "P0", "H2", "H3", "H4"]
    match = table([["G7", "G1"], ["WD2", "Y2"], ["WD3", "Y3"]], pile=pile)
    events = play(match, "G7", "WD2>P", "WD3>G")
    drawn = next(e for e in events if e.kind == "draw_to_pile")
    assert drawn.seat == 0
    assert drawn.private_to is None  # face up: public
    assert [str(c) for c in drawn.cards] == ["H1", "WD4", "G9", "Y13", "P0"]
    assert drawn.data == {"wanted": 5, "points": 14}
    assert match.hand_points == [14, 0, 0]
    assert match.view(1).draw_pile_size == 3
    assert [str(c) for c in match.view(2).taken[0]] == [
        "G7",
        "WD2",
        "WD3",
        "H1",
        "WD4",
        "G9",
        "Y13",
        "P0",
    ]
    assert match.hands[0] == [SPEC.parse_card("G1")]  # not into the hand
    # a drawn Wild Draw has no effect (D-14): only 3 cards are left and nobody draws more
    play(match, "G1", "Y2", "Y3")
    assert match.hand_number == 2


def test_a_shortfall_in_the_draw_pile_is_ignored_d14() -> None:
    match = table([["G7", "G1"], ["WD9", "Y2"]], pile=["H1", "H2"])
    events = play(match, "G7", "WD9>G")
    drawn = next(e for e in events if e.kind == "draw_to_pile")
    assert drawn.count == 2
    assert drawn.data["wanted"] == 9
    assert match.draw_pile == []
    assert match.hand_points == [0, 2]


# -- §1.7 pass hand, D-15, D-16 ------------------------------------------------------------------


def pass_table() -> UnoHeartsMatch:
    return table(
        [["P8", "Y1", "Y2"], ["P9", "G4", "G5"], ["P1", "H6", "H7"]],
        pile=["H20"],
    )


def test_a_purple_8_lets_the_taker_choose_left() -> None:
    match = pass_table()
    events = play(match, "P8", "P9", "P1")
    assert match.phase == "direction"
    assert match.current == 1
    assert [str(a) for a in match.legal_actions(1)] == ["direction:left", "direction:right"]
    with pytest.raises(IllegalAction, match="choose which way the hands pass"):
        match.apply(1, "G4")
    with pytest.raises(IllegalAction, match="it is seat 1's turn"):
        match.apply(0, "direction:left")
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "direction:left")
    assert events[0].kind == "pass_hand"
    assert events[0].data == {"direction": "left"}
    # every hand moved one seat clockwise; the taker leads from its new hand
    assert [[str(c) for c in h] for h in match.hands] == [["H6", "H7"], ["Y1", "Y2"], ["G4", "G5"]]
    assert match.phase == "play"
    assert match.current == 1
    assert legal(match) == ["Y1", "Y2"]
    # trick piles and the draw pile stay put (D-16)
    assert [str(c) for c in match.taken[1]] == ["P8", "P9", "P1"]
    assert [str(c) for c in match.draw_pile] == ["H20"]
    assert match.view(0).pass_hands == ((1, 1, "left"),)


def test_a_green_8_pass_to_the_right() -> None:
    match = table([["G8", "Y1", "Y2"], ["G9", "P4", "P5"], ["G1", "H6", "H7"]])
    play(match, "G8", "G9", "G1", "direction:right")
    assert [[str(c) for c in h] for h in match.hands] == [["P4", "P5"], ["H6", "H7"], ["Y1", "Y2"]]
    assert match.current == 1
    assert legal(match) == ["H6", "H7"]  # the taker holds only hearts now


def test_both_8s_in_one_trick_pass_once() -> None:
    match = table([["P8", "Y1"], ["G8", "Y2"], ["P3", "Y3"]])
    events = play(match, "P8", "G8", "P3", "direction:left")
    assert kinds(events).count("pass_hand") == 1
    assert [[str(c) for c in h] for h in match.hands] == [["Y3"], ["Y1"], ["Y2"]]
    assert match.phase == "play"


def test_a_wild_draw_8_is_not_a_pass_card_d15() -> None:
    match = table([["P3", "Y1"], ["WD8", "Y2"], ["P1", "Y3"]], pile=[f"G{i}" for i in range(8)])
    play(match, "P3", "WD8>P", "P1")
    assert match.phase == "play"
    assert match.current == 1
    assert [[str(c) for c in h] for h in match.hands] == [["Y1"], ["Y2"], ["Y3"]]


def test_two_players_swap_hands_without_a_choice_d8() -> None:
    match = table([["P8", "Y1"], ["P9", "H2"]])
    events = play(match, "P8", "P9")
    assert match.phase == "play"
    assert next(e for e in events if e.kind == "pass_hand").data == {"direction": "swap"}
    assert [[str(c) for c in h] for h in match.hands] == [["H2"], ["Y1"]]
    assert match.current == 1


def test_a_pass_card_in_the_last_trick_has_no_effect() -> None:
    match = table([["P8"], ["P9"], ["H1"]], target=1)
    events = play(match, "P8", "P9", "H1")
    assert "pass_hand" not in kinds(events)
    assert match.over
    assert match.winners == (0, 2)


# -- §1.8 scoring, D-17, §1.9, D-3, D-18 -----------------------------------------------------------


def test_hand_scoring_counts_hearts_the_yellow_13_and_not_a_wild_called_heart() -> None:
    match = table([["P5", "G1"], ["P6", "G2"], ["WD1", "Y13"]], pile=["H7"])
    events = play(match, "P5", "P6", "WD1>H")  # seat 1 takes WD1>H (0) and draws H7 (1)
    events += play(match, "G2", "Y13", "G1")  # seat 1 takes the Y13 (13)
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["points"] == (0, 14, 0)
    assert end.data["totals"] == (0, 14, 0)
    result = match.hand_results[0]
    assert result.points == (0, 14, 0)
    assert result.totals == (0, 14, 0)
    assert match.scores == [0, 14, 0]
    hearts = table([["H3", "H5"], ["H4", "G9"], ["G1", "G2"]])
    play(hearts, "H3", "H4", "G1", "G9", "G2", "H5")  # seat 1 takes H3 H4, then H5
    assert hearts.scores == [0, 3, 0]


def test_the_match_ends_when_a_total_reaches_the_target_and_the_lowest_wins() -> None:
    match = table([["Y1", "H3"], ["Y2", "H4"], ["Y3", "H5"]], target=2)
    events = play(match, "Y1", "Y2", "Y3", "H5", "H3", "H4")  # seat 2 takes 3 hearts
    assert kinds(events)[-2:] == ["hand_end", "match_end"]
    assert match.over
    assert match.winners == (0, 1)  # co-winners (D-3)
    assert events[-1].data == {"points": (0, 0, 3), "totals": (0, 0, 3), "winners": (0, 1)}
    assert match.view(0).phase == "over"
    assert match.actors() == ()
    with pytest.raises(IllegalAction, match="the match is over"):
        match.apply(0, "Y1")


def test_reaching_exactly_the_target_ends_the_match_d18() -> None:
    match = table([["Y1", "H3"], ["Y2", "G4"]], target=1)
    play(match, "Y1", "Y2", "G4", "H3")  # seat 1 takes both tricks, 1 point
    assert match.over
    assert match.winners == (0,)
    below = table([["Y1", "H3"], ["Y2", "G4"]], target=2)
    play(below, "Y1", "Y2", "G4", "H3")
    assert not below.over
    assert below.hand_number == 2


@pytest.mark.parametrize("bad", [0, 61, -5, "60", True, 30.0])
def test_target_must_be_a_whole_number_from_1_to_60(bad: Any) -> None:
    with pytest.raises(OptionError):
        SPEC.new_match(4, {"target": bad}, seed=1)


def test_target_defaults_to_60_and_presets_are_values() -> None:
    assert SPEC.default_options() == {
        "target": 60,
        "pass_three": False,
        "shoot_the_moon": False,
        "moon_mode": "shooter_choice",
    }
    for target in (30, 40, 50, 1, 60):
        assert SPEC.new_match(3, {"target": target}, seed=1).view(0).target == target  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [1, 9])
def test_player_count_is_2_to_8(players: int) -> None:
    with pytest.raises(OptionError):
        SPEC.new_match(players, seed=1)


# -- shoot the moon, D-17, D-4 ---------------------------------------------------------------------


def moon_table(**options: Any) -> UnoHeartsMatch:
    return table([["Y9", "H3"], ["Y2", "G4"], ["Y3", "G5"]], shoot_the_moon=True, **options)


def test_moon_shooter_chooses_minus_20_and_scores_may_go_negative() -> None:
    match = moon_table()
    play(match, "Y9", "Y2", "Y3", "H3", "G4", "G5")
    assert match.phase == "moon"
    assert match.current == 0
    assert match.view(1).moon_shooter == 0
    assert [str(a) for a in match.legal_actions(0)] == ["moon:self", "moon:others"]
    with pytest.raises(IllegalAction, match="it is seat 0's turn"):
        match.apply(1, "moon:self")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "moon:self")
    assert kinds(events)[:2] == ["moon", "hand_end"]
    assert match.scores == [-20, 0, 0]  # D-4: no floor
    assert match.hand_results[0].points == (-20, 0, 0)
    assert match.hand_results[0].notes["moon"] == 0
    assert match.hand_results[0].notes["moon_choice"] == "self"
    assert match.hand_results[0].notes["taken_points"] == (1, 0, 0)


def test_moon_shooter_chooses_plus_20_to_the_others() -> None:
    match = moon_table(target=20)
    play(match, "Y9", "Y2", "Y3", "H3", "G4", "G5", "moon:others")
    assert match.scores == [0, 20, 20]
    assert match.over
    assert match.winners == (0,)


@pytest.mark.parametrize(
    ("mode", "scores"), [("others_plus_20", [0, 20, 20]), ("self_minus_20", [-20, 0, 0])]
)
def test_fixed_moon_modes_score_without_a_choice(mode: str, scores: list[int]) -> None:
    match = moon_table(moon_mode=mode)
    events = play(match, "Y9", "Y2", "Y3", "H3", "G4", "G5")
    assert "moon" in kinds(events)
    assert match.scores == scores
    assert match.phase == "play"


def test_no_moon_when_nobody_took_points() -> None:
    nobody = table([["Y9", "G3"], ["Y2", "G4"], ["Y3", "G5"]], shoot_the_moon=True)
    play(nobody, "Y9", "Y2", "Y3", "G3", "G4", "G5")
    assert nobody.phase == "play"
    assert nobody.scores == [0, 0, 0]
    assert nobody.hand_number == 2


def test_moon_needs_exactly_one_scorer_d17() -> None:
    match = table([["Y9", "H3"], ["H8", "G4"], ["Y3", "G5"]], shoot_the_moon=True)
    play(match, "Y9", "H8", "Y3")  # seat 0 takes H8; hearts broken
    play(match, "H3", "G4", "G5")  # seat 0 takes H3: still the only scorer
    assert match.phase == "moon"
    other = table([["Y9", "G3"], ["H8", "G4"], ["Y3", "H5"]], shoot_the_moon=True)
    play(other, "Y9", "H8", "Y3", "G3", "G4", "H5")  # seat 0 takes H8, seat 1 takes H5
    assert other.phase == "play"
    assert other.scores == [1, 1, 0]


def test_moon_with_two_players_triggers_when_only_one_scored_d17() -> None:
    match = table([["Y9", "G3"], ["H2", "G4"]], shoot_the_moon=True, moon_mode="self_minus_20")
    play(match, "Y9", "H2", "G3", "G4")
    assert match.scores == [-20, 0]


def test_moon_is_off_by_default() -> None:
    match = table([["Y9", "H3"], ["Y2", "G4"], ["Y3", "G5"]])
    play(match, "Y9", "Y2", "Y3", "H3", "G4", "G5")
    assert match.scores == [1, 0, 0]


# -- pass three, §1.3, D-8 ----------------------------------------------------------------


def three_table(players: int = 3) -> UnoHeartsMatch:
    hands = [
        ["H1", "H2", "H3", "Y1"],
        ["Y2", "Y3", "Y4", "P1"],
        ["P2", "P3", "P4", "G1"],
        ["G2", "G3", "G4", "H5"],
    ][:players]
    return table(hands, pass_three=True)


def test_pass_three_is_simultaneous_and_hidden_until_all_have_chosen() -> None:
    match = three_table()
    assert match.phase == "pass"
    assert match.current is None
    assert match.actors() == (0, 1, 2)
    assert len(match.legal_actions(0)) == 4  # C(4, 3)
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "give:Y2,P1,Y3")
    assert kinds(events) == ["pass_chosen"]
    assert events[0].cards == ()
    assert match.actors() == (0, 2)
    assert match.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="already chosen"):
        match.apply(1, "give:Y2,Y3,Y4")
    assert match.view(1).passed == tuple(SPEC.parse_card(c) for c in ("Y2", "Y3", "P1"))
    assert match.view(2).passed == ()
    assert match.view(2).hand == three_table().view(2).hand
    assert match.view(2).pass_pending == (0, 2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "give:H1,H2,H3")
    if match.hand_over:
        match.next_hand()
    events = match.apply(2, "give:P2,P3,G1")
    passes = [e for e in events if e.kind == "pass"]
    assert [(e.seat, e.data["to"]) for e in passes] == [(0, 1), (1, 2), (2, 0)]
    # each seat sees only what it gave and what it got
    assert [str(c) for c in passes[0].seen_by(1).cards] == ["H1", "H2", "H3"]
    assert passes[0].seen_by(2).cards == ()
    assert passes[0].seen_by(None).cards == ()
    assert [[str(c) for c in h] for h in match.hands] == [
        ["Y1", "P2", "P3", "G1"],
        ["H1", "H2", "H3", "Y4"],
        ["Y2", "Y3", "P1", "P4"],
    ]
    assert match.phase == "play"
    assert match.current == 0
    view = match.view(1)
    assert [str(c) for c in view.received] == ["H1", "H2", "H3"]
    assert [str(c) for c in view.known_hands[2]] == ["Y2", "Y3", "P1"]
    assert view.known_hands[0] == ()


def test_nobody_sees_another_seats_choice_before_the_exchange_d5() -> None:
    one, other = three_table(), three_table()
    one.apply(1, "give:Y2,Y3,Y4")
    if other.hand_over:
        other.next_hand()
    other.apply(1, "give:Y2,P1,Y3")
    for seat in (0, 2):
        assert one.view(seat) == other.view(seat)
        assert [e.seen_by(seat) for e in one.log] == [e.seen_by(seat) for e in other.log]
    assert one.view(1) != other.view(1)


def test_pass_three_with_two_players_goes_to_the_opponent_d8() -> None:
    match = three_table(players=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "give:Y1,H2,H3")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "give:P1,Y3,Y4")
    assert [[str(c) for c in h] for h in match.hands] == [
        ["H1", "Y3", "Y4", "P1"],
        ["H2", "H3", "Y1", "Y2"],
    ]


def test_a_give_must_be_three_different_cards_from_the_hand() -> None:
    match = three_table()
    with pytest.raises(IllegalAction, match="exactly three"):
        match.apply(0, "give:H1,H2")
    with pytest.raises(IllegalAction, match="exactly three"):
        match.apply(0, "give:H1,H1,H2")
    with pytest.raises(IllegalAction, match="you do not hold Y2"):
        match.apply(0, "give:H1,H2,Y2")
    with pytest.raises(IllegalAction, match="passes three cards"):
        match.apply(0, "H1")
    assert match.actors() == (0, 1, 2)


def test_pass_three_happens_every_hand() -> None:
    match = SPEC.new_match(4, {"pass_three": True, "target": 60}, seed=3)
    for hand in (1, 2):
        assert match.phase == "pass"
        assert match.hand_number == hand
        for seat in range(4):
            if match.hand_over:
                match.next_hand()
            match.apply(seat, match.legal_actions(seat)[0])
        while match.hand_number == hand and not match.hand_over:
            seat = match.actors()[0]
            match.apply(seat, match.legal_actions(seat)[0])
        match.next_hand()


# -- errors in player words -------------------------------------------------------------


def test_play_errors_are_in_player_words() -> None:
    match = table([["WD7", "G1"], ["Y1", "Y2"]])
    with pytest.raises(IllegalAction, match="you do not hold Y1"):
        match.apply(0, "Y1")
    calls = r"call a suit for the Wild Draw \(you may call WD7>Y or WD7>P\)$"
    with pytest.raises(IllegalAction, match=calls):
        match.apply(0, "WD7")
    with pytest.raises(IllegalAction, match="only a Wild Draw is called"):
        match.apply(0, "G1>P")
    with pytest.raises(IllegalAction, match="no UNO call"):
        match.apply(0, "G1!")
    with pytest.raises(IllegalAction, match="time to play a card"):
        match.apply(0, "direction:left")
    assert match.history == []
    assert match.hands[0] == [SPEC.parse_card("G1"), SPEC.parse_card("WD7")]
