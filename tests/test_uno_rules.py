"""A scenario per rule of RULES.md §3 and each D-n in it (D-27..D-39; D-37 is Wild Twist's)."""

from __future__ import annotations

from collections import Counter

import pytest

from unotable.engine import IllegalAction, OptionError, get_game


def names(cards) -> list[str]:
    return [str(c) for c in cards]


def legal(match, seat) -> list[str]:
    return [str(a) for a in match.legal_actions(seat)]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


# -- §3.1 components (D-27) and §3.2 deal ---------------------------------------------------------


def test_d27_classic_deck_has_108_cards():
    match = get_game("uno").new_match(2, seed=1)
    deck = Counter(str(c) for c in match.DECK)
    assert len(match.DECK) == 108
    for color in "RYGB":
        assert deck[f"{color}0"] == 1
        for n in range(1, 10):
            assert deck[f"{color}{n}"] == 2
        assert deck[f"{color}-skip"] == deck[f"{color}-rev"] == deck[f"{color}+2"] == 2
    assert deck["W"] == deck["W+4"] == 4
    assert "C" not in deck


def test_minecraft_deck_has_112_cards_with_four_creepers():
    match = get_game("uno-minecraft").new_match(2, seed=1)
    deck = Counter(str(c) for c in match.DECK)
    assert len(match.DECK) == 112
    assert deck["C"] == 4
    assert sum(deck.values()) - deck["C"] == 108


def test_card_points_face_value_20_and_50():
    spec = get_game("uno-minecraft")
    points = {t: spec.parse_card(t).points for t in ("R0", "G7", "B9", "Y-skip", "R-rev")}
    points |= {t: spec.parse_card(t).points for t in ("G+2", "W", "W+4", "C")}
    assert points == {
        "R0": 0, "G7": 7, "B9": 9, "Y-skip": 20, "R-rev": 20, "G+2": 20,
        "W": 50, "W+4": 50, "C": 50,
    }  # fmt: skip


@pytest.mark.parametrize("game,size", [("uno", 108), ("uno-minecraft", 112)])
@pytest.mark.parametrize("players", range(2, 9))
def test_deal_seven_each_and_the_draw_pile_table(game, size, players):
    match = get_game(game).new_match(players, seed=players)
    view = match.view(0)
    assert view.hand_sizes[match.dealer] >= 7
    # a Draw Two first discard gives its victim 2 more (and Creepers more again)
    dealt = sum(view.hand_sizes) + view.draw_pile_size + len(view.discard)
    assert dealt == size
    if match.discard[0].effect == 0:  # a number card first: nothing moved yet
        assert view.hand_sizes == (7,) * players
        assert view.draw_pile_size == size - 7 * players - 1


# -- D-28 dealer ----------------------------------------------------------------------------------


def _dealer_rounds(match):
    rounds: dict[int, list] = {}
    for e in match.log:
        if e.kind == "dealer_draw":
            rounds.setdefault(e.data["round"], []).append(e)
    return rounds


def test_d28_highest_number_deals_symbols_count_zero():
    for seed in range(40):
        match = get_game("uno").new_match(4, seed=seed)
        rounds = _dealer_rounds(match)
        for events in rounds.values():
            for e in events:
                card = e.cards[0]
                assert e.data["value"] == (card.points if card.effect == 0 else 0)
        last = rounds[max(rounds)]
        best = max(e.data["value"] for e in last)
        assert [e.seat for e in last if e.data["value"] == best] == [match.dealer], seed
        assert [e.seat for e in match.log if e.kind == "dealer"] == [match.dealer]


def test_d28_only_tied_players_draw_again():
    tied_seed = None
    for seed in range(200):
        match = get_game("uno").new_match(6, seed=seed)
        rounds = _dealer_rounds(match)
        if len(rounds) >= 2:
            tied_seed = seed
            break
    assert tied_seed is not None, "no seed in 0..199 gave a tie"
    for r in range(1, max(rounds)):
        best = max(e.data["value"] for e in rounds[r])
        tied = [e.seat for e in rounds[r] if e.data["value"] == best]
        assert len(tied) >= 2
        assert [e.seat for e in rounds[r + 1]] == tied


def test_d28_the_player_left_of_the_dealer_starts(deal):
    match = deal([["R1"], ["R2"], ["R3"]], first="R5", dealer=1)
    assert match.current == 2
    assert match.direction == 1


def test_d2_deal_passes_left_each_round(deal):
    match = deal([["R1"], ["G2", "G3"], ["G4", "G5"]], first="R5", dealer=2, target=500)
    first_dealer = match.dealer
    match.apply(0, "R1")  # seat 0 goes out
    assert match.hand_over and match.hand_number == 1  # the finished table, until dealt
    match.next_hand()
    assert match.hand_number == 2
    assert match.dealer == (first_dealer + 1) % 3
    assert match.view(0).hand_sizes[0] >= 7


# -- D-29 first discard ---------------------------------------------------------------------------


def test_d29_number_first_discard_is_a_normal_start(deal):
    match = deal([["R1"], ["R2"], ["R3"]], first="G5", dealer=0)
    assert (match.current, match.pending, match.view(1).active_color) == (1, None, "G")


def test_d29_draw_two_first_left_player_draws_two_and_is_skipped(deal):
    match = deal([["R1"], ["R2"], ["R3"]], first="G+2", dealer=0, pile=["Y1", "Y2", "Y3"])
    assert names(match.hands[1]) == ["R2", "Y1", "Y2"]
    assert match.current == 2
    assert kinds(match.log)[-4:] == ["flip", "penalty", "draw", "skip"]


def test_d29_skip_first_left_player_is_skipped(deal):
    match = deal([["R1"], ["R2"], ["R3"]], first="G-skip", dealer=0)
    assert match.current == 2
    assert match.log[-1].kind == "skip" and match.log[-1].seat == 1


def test_d29_reverse_first_dealer_plays_first_counter_clockwise(deal):
    match = deal([["R1", "G1"], ["R2"], ["R3"]], first="G-rev", dealer=1)
    assert (match.current, match.direction) == (1, -1)
    if match.hand_over:
        match.next_hand()
    match.apply(1, "draw")  # B6 drawn, no match: kept, and the turn passes right
    if match.hand_over:
        match.next_hand()
    match.apply(1, "keep")
    assert match.current == 0


def test_d29_reverse_first_with_two_players_dealer_starts(deal):
    match = deal([["R1"], ["R2"]], first="G-rev", dealer=0)
    assert match.current == 0


@pytest.mark.parametrize("first", ["W", "C"])
def test_d29_wild_first_left_player_declares_then_plays(deal, first):
    match = deal([["R1"], ["G2", "B3"], ["R3"]], first=first, dealer=0, game="uno-minecraft")
    assert match.current == 1 and match.pending == "color"
    assert legal(match, 1) == ["color:R", "color:Y", "color:G", "color:B"]
    assert match.view(1).active_color is None
    with pytest.raises(IllegalAction, match="colour"):
        match.apply(1, "G2")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "color:G")
    assert match.current == 1 and match.pending is None
    assert legal(match, 1) == ["G2", "G2!", "draw"]
    if first == "C":  # a Creeper turned up triggers nothing
        assert not any(e.kind == "creeper" for e in match.log)
        assert match.view(0).revealed == (0, 0, 0)


def test_d29_wild_draw_four_first_goes_back_and_a_new_card_is_turned(deal):
    pile = ["B1", "B2", "B3", "B4", "B5"]
    match = deal([["R1"], ["R2"]], first="W+4", dealer=0, pile=pile)
    flips = [e for e in match.log if e.kind in ("flip", "flip_return")]
    assert names(flips[0].cards) == ["W+4"] and flips[1].kind == "flip_return"
    assert str(match.discard[-1]) != "W+4"
    assert len(match.discard) == 1
    assert len(match.draw_pile) == len(pile)  # the W+4 went back in, one card came out
    assert Counter(names(match.draw_pile + match.discard)) == Counter([*pile, "W+4"])
    assert not any(e.kind == "creeper" for e in match.log)


def test_d29_wild_draw_four_position_is_random_and_seeded(deal):
    positions = set()
    for seed in range(30):
        pile = ["B1", "B2", "B3", "B4", "B5", "B6"]
        match = deal([["R1"], ["R2"]], first="W+4", dealer=0, pile=pile, seed=seed)
        again = deal([["R1"], ["R2"]], first="W+4", dealer=0, pile=pile, seed=seed)
        assert names(match.draw_pile) == names(again.draw_pile)
        positions.add(tuple(names(match.draw_pile + match.discard)))
    assert len(positions) > 3


def test_d39_draw_two_first_discard_draw_triggers_creeper(deal):
    pile = ["C", "Y1", "Y2", "Y3", "Y4", "Y5"]
    match = deal([["R1"], ["R2"], ["R3"]], first="G+2", dealer=0, pile=pile, game="uno-minecraft")
    # the Creeper, then 3 bonus cards, then the second penalty card
    assert names(match.hands[1]) == ["R2", "Y1", "Y2", "Y3", "Y4", "C"]
    assert match.view(2).revealed == (0, 1, 0)
    assert kinds(match.log)[-6:] == ["penalty", "draw", "creeper", "bonus", "draw", "skip"]
    assert match.current == 2


# -- §3.5 matching --------------------------------------------------------------------------------


def test_matching_by_colour_number_and_symbol(deal):
    match = deal([["R1", "G5", "B-skip", "Y+2", "W", "G-skip"], ["R2"]], first="R5", dealer=1)
    assert legal(match, 0) == ["R1", "G5", "W>R", "W>Y", "W>G", "W>B", "draw"]
    match = deal([["B-skip", "Y+2", "G1", "Y-rev"], ["R2"]], first="G-skip", dealer=0)
    assert legal(match, 0) == ["G1", "B-skip", "draw"]


def test_matching_a_number_cannot_match_a_wild_by_number(deal):
    match = deal([["G5", "R5", "B7"], ["R2"]], first="W", dealer=1)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "color:G")
    assert legal(match, 0) == ["G5", "draw"]
    message = r"R5 does not match the W on the pile \(active colour green\)"
    with pytest.raises(IllegalAction, match=message):
        match.apply(0, "R5")


def test_matching_error_names_the_pile_and_active_colour(deal):
    match = deal([["R7", "B2"], ["R2"]], first="Y-rev", dealer=0)
    with pytest.raises(IllegalAction) as err:
        match.apply(0, "R7")
    assert str(err.value) == "R7 does not match the Y-rev on the pile (active colour yellow)"


def test_playing_a_card_you_do_not_hold(deal):
    match = deal([["R7", "B2"], ["R2"]], first="R5", dealer=1)
    with pytest.raises(IllegalAction, match="you do not hold G3"):
        match.apply(0, "G3")


def test_not_your_turn(deal):
    match = deal([["R7", "B2"], ["R2"], ["R3"]], first="R5", dealer=1)
    assert match.current == 2
    with pytest.raises(IllegalAction, match="it is seat 2's turn, not seat 0's"):
        match.apply(0, "R7")


def test_wild_needs_a_colour_and_numbers_take_none(deal):
    match = deal([["W", "R7", "B2"], ["R2"]], first="R5", dealer=1)
    with pytest.raises(IllegalAction, match="colour"):
        match.apply(0, "W")
    with pytest.raises(IllegalAction, match="only a wild card"):
        match.apply(0, "R7>G")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>B")
    assert match.view(1).active_color == "B" and match.current == 1


def test_wild_may_declare_the_current_colour(deal):
    match = deal([["W", "R7", "B2"], ["R2"]], first="R5", dealer=1)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>R")
    assert match.view(1).active_color == "R"


# -- §3.6 the turn (D-30, D-31, D-32) -------------------------------------------------------------


def test_d30_may_draw_while_holding_a_playable_card(deal):
    match = deal([["R7", "B2"], ["R2"]], first="R5", dealer=1, pile=["Y9", "G1"])
    assert "draw" in legal(match, 0)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "draw")
    assert names(events[0].cards) == ["Y9"] and events[0].private_to == frozenset({0})
    assert events[0].seen_by(1).cards == ()
    assert len(match.hands[0]) == 3  # only one card, not until playable
    if match.hand_over:
        match.next_hand()
    match.apply(0, "keep")
    assert match.current == 1 and len(match.hands[0]) == 3


def test_d30_drawn_playable_card_may_be_played_but_nothing_else(deal):
    match = deal([["R7", "B2"], ["R2"]], first="R5", dealer=1, pile=["R9", "G1"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    assert match.pending == "drawn" and str(match.view(0).drawn) == "R9"
    assert legal(match, 0) == ["R9", "keep"]
    with pytest.raises(IllegalAction, match="you drew this turn: you may only play the drawn card"):
        match.apply(0, "R7")
    with pytest.raises(IllegalAction):
        match.apply(0, "draw")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R9")
    assert match.current == 1 and str(match.discard[-1]) == "R9"


def test_d30_keep_the_drawn_card_even_if_playable(deal):
    match = deal([["R7", "B2"], ["R2"]], first="R5", dealer=1, pile=["R9", "G1"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "keep")
    assert kinds(events) == ["keep"]
    assert match.current == 1 and names(match.hands[0]) == ["R7", "R9", "B2"]


def test_d30_unplayable_drawn_card_must_be_kept(deal):
    match = deal([["R7", "B2"], ["R2"]], first="R5", dealer=1, pile=["G9", "G1"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    # still a decision, so the others cannot tell whether the card was playable (D-5)
    assert match.current == 0 and match.pending == "drawn"
    assert legal(match, 0) == ["keep"]
    with pytest.raises(IllegalAction, match="does not match"):
        match.apply(0, "G9")
    with pytest.raises(IllegalAction, match="you may only play the drawn card"):
        match.apply(0, "R7")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "keep")
    assert kinds(events) == ["keep"]
    assert match.current == 1 and match.pending is None
    assert names(match.hands[0]) == ["R7", "G9", "B2"] and legal(match, 0) == []


def test_d5_others_cannot_tell_a_playable_drawn_card_from_an_unplayable_one(deal):
    playable = deal([["R7", "B2"], ["R2", "G3"]], first="R5", dealer=1, pile=["R9", "G1"])
    unplayable = deal([["R7", "B2"], ["R2", "G3"]], first="R5", dealer=1, pile=["G9", "G1"])
    assert legal(playable, 0) == legal(unplayable, 0)
    draws = [m.apply(0, "draw") for m in (playable, unplayable)]
    assert [e.seen_by(1) for e in draws[0]] == [e.seen_by(1) for e in draws[1]]
    assert playable.view(1) == unplayable.view(1)
    assert playable.view(1).pending == "drawn" and playable.view(1).drawn is None
    assert None not in (playable.view(0).drawn, unplayable.view(0).drawn)
    assert playable.view(0) != unplayable.view(0)  # the drawing seat does see its card
    for match in (playable, unplayable):
        if match.hand_over:
            match.next_hand()
        match.apply(0, "keep")
    assert playable.view(1) == unplayable.view(1)


def test_d30_drawn_card_with_uno_when_it_leaves_one(deal):
    match = deal([["B2"], ["R2"]], first="R5", dealer=1, pile=["R9", "G1"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    assert legal(match, 0) == ["R9", "R9!", "keep"]


def test_no_matching_card_must_draw(deal):
    match = deal([["G7", "B2"], ["R2"]], first="R5", dealer=1)
    assert legal(match, 0) == ["draw"]
    with pytest.raises(IllegalAction):
        match.apply(0, "keep")
    with pytest.raises(IllegalAction, match="draw"):
        match.apply(0, "pass")


def test_d31_no_stacking_the_draw_two_victim_cannot_answer(deal):
    match = deal(
        [["R+2", "R1", "R3"], ["G+2", "R+2", "B1"], ["Y2", "Y3"]],
        first="R5",
        dealer=2,
        pile=["B4", "B5", "B6", "B7"],
    )
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R+2")
    assert kinds(events) == ["play", "penalty", "draw", "skip"]
    assert names(match.hands[1]) == ["R+2", "G+2", "B1", "B4", "B5"]
    assert match.current == 2
    with pytest.raises(IllegalAction, match="it is seat 2's turn, not seat 1's"):
        match.apply(1, "G+2")


def test_d31_later_draw_two_on_draw_two_draws_only_two(deal):
    match = deal(
        [["R+2", "R1", "R3"], ["B1", "B2"], ["G+2", "Y3"]],
        first="R5",
        dealer=2,
        pile=["B4", "B5", "B6", "B7", "B8", "B9"],
    )
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")  # seat 1 draws 2, seat 2 is up
    assert match.current == 2
    if match.hand_over:
        match.next_hand()
    match.apply(2, "G+2")  # seat 0 draws only 2
    assert len(match.hands[0]) == 4 and match.current == 1


def test_skip_advances_two_seats(deal):
    match = deal([["R-skip", "R1", "G1"], ["R2"], ["R3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R-skip")
    assert kinds(events) == ["play", "skip"] and events[1].seat == 1
    assert match.current == 2


def test_reverse_flips_direction_with_three_or_more(deal):
    match = deal([["R-rev", "R1"], ["R2"], ["R3", "R4"], ["R6"]], first="R5", dealer=3)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R-rev")
    assert (match.direction, match.current) == (-1, 3)


@pytest.mark.parametrize("card", ["R-rev", "R-skip"])
def test_d32_two_players_reverse_and_skip_return_the_turn(deal, card):
    match = deal([[card, "R1"], ["R2", "R3"]], first="R5", dealer=1)
    if match.hand_over:
        match.next_hand()
    match.apply(0, card)
    assert match.current == 0
    assert legal(match, 0)[0] == "R1"


def test_d32_two_players_draw_two_returns_the_turn(deal):
    match = deal([["R+2", "R1", "G1"], ["R2"]], first="R5", dealer=1, pile=["B4", "B5"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")
    assert match.current == 0 and len(match.hands[1]) == 3


def test_d32_two_players_wild_draw_four_returns_the_turn(deal):
    match = deal([["W+4", "R1", "G1"], ["R2"]], first="B5", dealer=1, wd4_bluff=False)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>G")
    assert match.current == 0 and len(match.hands[1]) == 5
    bluff = deal([["W+4", "R1", "G1"], ["R2"]], first="B5", dealer=1)
    bluff.apply(0, "W+4>G")
    assert bluff.current == 1 and bluff.pending == "challenge"
    bluff.apply(1, "accept")
    assert bluff.current == 0 and len(bluff.hands[1]) == 5


# -- D-33 Wild Draw Four --------------------------------------------------------------------------


def test_d33_wd4_bluff_rejected_when_bluffing_is_off(deal):
    match = deal([["W+4", "Y2", "G1"], ["R2"]], first="Y5", dealer=1, wd4_bluff=False)
    assert "W+4>R" not in legal(match, 0)
    before = match.state_key()
    with pytest.raises(IllegalAction) as err:
        match.apply(0, "W+4>G")
    assert str(err.value) == "Wild Draw Four is a bluff here: you hold a yellow card"
    assert match.state_key() == before


def test_d33_wd4_legal_with_matching_number_or_symbol_of_other_colours(deal):
    match = deal([["W+4", "G5", "B-rev", "W"], ["R2"]], first="Y-rev", dealer=0, wd4_bluff=False)
    assert "W+4>G" in legal(match, 0)


def test_d33_active_colour_is_the_declared_wild_colour(deal):
    match = deal([["W", "R1"], ["W+4", "G3", "B3"], ["R3"]], first="R5", dealer=2, wd4_bluff=False)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>G")
    assert "W+4>R" not in legal(match, 1)  # seat 1 holds green: the declared colour
    match = deal([["W", "R1"], ["W+4", "R3", "B3"], ["R3"]], first="R5", dealer=2, wd4_bluff=False)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>G")
    assert "W+4>R" in legal(match, 1)  # red no longer counts


def test_d33_wd4_with_bluffing_is_always_playable_and_offers_challenge(deal):
    match = deal([["W+4", "Y2", "G1"], ["R2"], ["B2"]], first="Y5", dealer=2)
    assert "W+4>R" in legal(match, 0)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    assert match.current == 1 and legal(match, 1) == ["challenge", "accept"]
    assert match.view(2).pending == "challenge"
    assert match.view(1).challenge_color == "Y"


def test_d33_guilty_challenge_offender_draws_four_challenger_plays(deal):
    pile = ["B4", "B5", "B6", "B7", "B8", "B9"]
    match = deal([["W+4", "Y2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "challenge")
    assert kinds(events) == ["challenge", "reveal", "penalty", "draw"]
    assert events[0].data == {"target": 0, "guilty": True}
    reveal = events[1]
    assert names(reveal.cards) == ["Y2", "G1"] and reveal.private_to == frozenset({1})
    assert reveal.seen_by(2).cards == () and reveal.seen_by(None).cards == ()
    assert names(match.hands[0]) == ["Y2", "G1", "B4", "B5", "B6", "B7"]
    assert match.current == 1 and match.pending is None and len(match.hands[1]) == 2
    assert legal(match, 1)[:2] == ["R2", "R2!"]  # a normal turn in the declared colour
    assert names(match.view(1).known[0]) == ["Y2", "G1"]
    assert match.view(2).known[0] == ()


def test_d33_innocent_challenge_challenger_draws_six_and_is_skipped(deal):
    pile = ["B4", "B5", "B6", "B7", "B8", "B9"]
    match = deal([["W+4", "B2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "challenge")
    assert kinds(events) == ["challenge", "reveal", "penalty", "draw", "skip"]
    assert events[0].data["guilty"] is False
    assert len(match.hands[1]) == 8 and len(match.hands[0]) == 2
    assert match.current == 2 and match.view(2).active_color == "R"
    assert str(match.discard[-1]) == "W+4"


def test_d33_accept_draws_four_and_is_skipped(deal):
    match = deal([["W+4", "Y2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>B")
    if match.hand_over:
        match.next_hand()
    events = match.apply(1, "accept")
    assert kinds(events) == ["accept", "penalty", "draw", "skip"]
    assert len(match.hands[1]) == 6 and match.current == 2
    assert match.view(2).active_color == "B"


def test_d33_only_the_victim_may_challenge(deal):
    match = deal([["W+4", "Y2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>B")
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        match.apply(2, "challenge")
    with pytest.raises(IllegalAction, match="challenge or accept"):
        match.apply(1, "R2")


def test_d33_wd4_as_last_card_no_challenge_victim_draws_four_and_it_scores(deal):
    pile = ["B4", "B5", "B6", "B7", "B8"]
    match = deal([["W+4"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2, pile=pile, target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "W+4>G")
    assert kinds(events)[:4] == ["play", "penalty", "draw", "hand_end"]
    end = events[3]
    # seat 1: R2 R3 + B4..B7; seat 2: B2
    assert end.data["points"] == (2 + 3 + 4 + 5 + 6 + 7 + 2, 0, 0)
    assert match.hand_results[0].notes["winner"] == 0


def test_draw_two_as_last_card_is_still_drawn_and_scored(deal):
    pile = ["B4", "B5", "B6"]
    match = deal([["R+2"], ["R2", "R3"], ["B2"]], first="R5", dealer=2, pile=pile, target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R+2")
    assert kinds(events)[:4] == ["play", "penalty", "draw", "hand_end"]
    assert events[3].data["points"] == (2 + 3 + 4 + 5 + 2, 0, 0)


def test_final_skip_or_reverse_has_no_effect(deal):
    match = deal([["R-skip"], ["R2"], ["B2"]], first="R5", dealer=2, target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R-skip")
    assert kinds(events)[:2] == ["play", "hand_end"]


# -- D-34 exhaustion ------------------------------------------------------------------------------


def test_d34_reshuffle_keeps_the_top_card(deal):
    match = deal([["R1", "R2", "B9"], ["R3", "G4"]], first="R5", dealer=1, pile=["Y1"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "R3")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R2")  # discard: R5 R1 R3 R2, draw pile: Y1
    if match.hand_over:
        match.next_hand()
    match.apply(1, "draw")  # takes Y1; the pile is empty now
    if match.hand_over:
        match.next_hand()
    match.apply(1, "keep")
    assert match.draw_pile == []
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "draw")
    assert kinds(events) == ["reshuffle", "draw"]
    assert names(match.discard) == ["R2"]
    assert len(match.draw_pile) == 2
    assert Counter(names([*match.draw_pile, events[1].cards[0]])) == Counter(["R5", "R1", "R3"])


def test_d34_reshuffled_wild_colour_is_forgotten(deal):
    match = deal([["W", "G1", "B9"], ["G3", "G4"]], first="R5", dealer=1, pile=[])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W>G")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "G3")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "draw")  # the pile was empty: R5 and W are reshuffled
    assert events[0].kind == "reshuffle"
    assert names(match.discard) == ["G3"]


def test_d34_forced_draw_takes_what_exists(deal):
    match = deal([["R+2", "R1", "B2"], ["G1", "G2"], ["B1"]], first="R5", dealer=2, pile=["Y1"])
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R+2")  # only Y1 and the R5 under the R+2 exist
    assert kinds(events) == ["play", "penalty", "draw", "reshuffle", "draw", "skip"]
    assert names(match.hands[1]) == ["R5", "Y1", "G1", "G2"]  # hands sort R, Y, G, B
    assert names(match.discard) == ["R+2"] and match.draw_pile == []


def test_d34_voluntary_draw_unavailable_must_play_a_match(deal):
    match = deal([["R1", "G2"], ["G1"]], first="R5", dealer=1, pile=[])
    assert legal(match, 0) == ["R1", "R1!"]
    with pytest.raises(IllegalAction, match="nothing to draw: play a matching card"):
        match.apply(0, "draw")
    with pytest.raises(IllegalAction, match="must play"):
        match.apply(0, "pass")


def test_d34_pass_only_when_nothing_matches_and_nothing_to_draw(deal):
    match = deal([["G1", "G2"], ["B1", "R1"]], first="R5", dealer=1, pile=[])
    assert legal(match, 0) == ["pass"]
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "pass")
    assert kinds(events) == ["pass"] and match.current == 1


def test_d34_blocked_round_lowest_hand_wins_and_scores(deal):
    match = deal([["G1", "G9"], ["B2", "B3"], ["Y-skip"]], first="R5", dealer=2, pile=[])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "pass")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "pass")
    if match.hand_over:
        match.next_hand()
    events = match.apply(2, "pass")
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["blocked"] is True and end.data["winner"] == 1
    assert end.data["points"] == (0, 10 + 20, 0)


def test_d34_blocked_round_tie_goes_to_the_next_in_turn_order(deal):
    match = deal([["G1", "G4"], ["B2", "B3"], ["Y5"]], first="R6", dealer=2, pile=[])
    for seat in (0, 1, 2):
        if match.hand_over:
            match.next_hand()
        events = match.apply(seat, "pass")
    end = next(e for e in events if e.kind == "hand_end")
    # every hand is worth 5; seat 0 would move next
    assert end.data["winner"] == 0 and end.data["points"] == (10, 0, 0)


def test_d34_a_draw_resets_the_blocked_count(deal):
    match = deal([["G1", "G9"], ["B2", "R+2"], ["Y-skip"]], first="R5", dealer=2, pile=[])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "pass")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "R+2")  # seat 2 draws the R5: a card moved
    assert match.passes == 0
    assert match.hand_number == 1


# -- D-35, D-38 UNO call and catch ----------------------------------------------------------------


def test_d35_both_plain_and_uno_play_are_listed_when_one_card_is_left(deal):
    match = deal([["R1", "G2"], ["R2", "R3", "R4"]], first="R5", dealer=1)
    assert legal(match, 0) == ["R1", "R1!", "draw"]
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1!")
    assert kinds(events) == ["play", "uno"] and match.exposed is None


def test_d35_no_false_uno_calls(deal):
    match = deal([["R1", "G2", "B3"], ["R2"]], first="R5", dealer=1)
    assert "R1!" not in legal(match, 0)
    with pytest.raises(IllegalAction, match="UNO"):
        match.apply(0, "R1!")


def test_d35_forgetting_uno_exposes_and_anyone_else_may_catch(deal):
    pile = ["B4", "B5", "B6"]
    match = deal([["R1", "G2"], ["R2", "R3"], ["G3"], ["B9"]], first="R5", dealer=3, pile=pile)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1")
    assert kinds(events) == ["play", "exposed"]
    assert match.exposed == 0
    assert match.actors() == (0, 1, 2, 3)
    assert legal(match, 0) == ["uno"]
    assert legal(match, 2) == ["catch:0"] and legal(match, 3) == ["catch:0"]
    assert legal(match, 1)[-1] == "catch:0"
    if match.hand_over:
        match.next_hand()
    events = match.apply(3, "catch:0")
    assert kinds(events) == ["catch", "penalty", "draw"]
    assert names(match.hands[0]) == ["G2", "B4", "B5"]
    assert match.exposed is None and match.actors() == (1,)
    with pytest.raises(IllegalAction):
        match.apply(2, "catch:0")  # only the first catch counts


def test_d35_late_call_makes_the_player_safe(deal):
    match = deal([["R1", "G2"], ["R2", "R3"], ["G3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "uno")
    assert kinds(events) == ["uno"] and events[0].data["late"] is True
    assert match.exposed is None
    with pytest.raises(IllegalAction):
        match.apply(1, "catch:0")


def test_d35_exposure_ends_when_the_next_player_acts(deal):
    match = deal([["R1", "G2"], ["R2", "R3", "R4"], ["G3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "R2")
    assert match.exposed is None
    with pytest.raises(IllegalAction, match="cannot be caught"):
        match.apply(2, "catch:0")


def test_d35_cannot_catch_yourself_or_a_safe_seat(deal):
    match = deal([["R1", "G2"], ["R2", "R3"], ["G3"]], first="R5", dealer=2)
    with pytest.raises(IllegalAction):
        match.apply(1, "catch:0")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    with pytest.raises(IllegalAction):
        match.apply(0, "catch:0")
    with pytest.raises(IllegalAction):
        match.apply(1, "catch:2")


def test_d38_forced_draw_does_not_end_the_exposure(deal):
    pile = ["B4", "B5", "B6", "B7"]
    match = deal([["R+2", "G2"], ["R2", "R3"], ["R7", "Y1", "Y2"]], first="R5", dealer=2, pile=pile)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")  # seat 1 draws 2 and is skipped; seat 0 still exposed
    assert match.exposed == 0 and match.current == 2
    if match.hand_over:
        match.next_hand()
    match.apply(2, "R7")  # the player after the victim acts: the exposure ends
    assert match.exposed is None


def test_d38_two_players_opponent_may_catch_until_the_player_acts_again(deal):
    match = deal([["R-skip", "G2"], ["R2", "R3"]], first="R5", dealer=1, pile=["B4", "B5"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R-skip")
    assert match.current == 0 and match.exposed == 0
    assert legal(match, 0)[-1] == "uno" and legal(match, 1) == ["catch:0"]
    if match.hand_over:
        match.next_hand()
    match.apply(1, "catch:0")
    assert names(match.hands[0]) == ["G2", "B4", "B5"]


def test_d38_wd4_victim_decision_ends_the_exposure(deal):
    match = deal([["W+4", "G2"], ["R2", "R3"], ["G3"]], first="R5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>G")
    assert match.exposed == 0 and legal(match, 2) == ["catch:0"]
    if match.hand_over:
        match.next_hand()
    match.apply(1, "accept")
    assert match.exposed is None


# -- §3.9 scoring and match end -------------------------------------------------------------------


def test_standard_scoring_winner_takes_opponents_cards(deal):
    match = deal([["R1"], ["R2", "W", "G-skip"], ["Y9", "B0"]], first="R5", dealer=2, target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1")
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["points"] == (2 + 50 + 20 + 9, 0, 0)
    assert end.data["totals"] == (81, 0, 0) and end.data["winner"] == 0
    assert match.last_hand.points == (81, 0, 0)
    assert match.scores == [81, 0, 0] and not match.over


def test_standard_scoring_first_to_target_wins(deal):
    match = deal([["R1"], ["R2", "W", "G-skip"], ["Y9", "B0"]], first="R5", dealer=2, target=81)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1")
    assert kinds(events)[-2:] == ["hand_end", "match_end"]
    assert match.over and match.winners == (0,)
    assert match.actors() == () and match.legal_actions(0) == []
    with pytest.raises(IllegalAction, match="over"):
        match.apply(1, "R2")


def test_running_scoring_each_adds_own_hand_lowest_wins(deal):
    match = deal(
        [["R1"], ["R2", "W", "G-skip"], ["Y9", "B0"]],
        first="R5",
        dealer=2,
        target=60,
        scoring="running",
    )
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1")
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["points"] == (0, 72, 9)
    assert match.over and match.winners == (0,)


def test_d3_running_scoring_co_winners(deal):
    match = deal([["R1"], ["R2", "W"], ["B0"]], first="R5", dealer=2, target=52, scoring="running")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")  # totals 0, 52, 0
    assert match.winners == (0, 2)


# -- D-36, D-39 the Creeper -----------------------------------------------------------------------


def test_d36_drawn_creeper_is_revealed_then_three_silent_bonus_cards(deal):
    pile = ["C", "Y1", "C", "Y3", "B9"]
    match = deal([["G1", "G2"], ["R2"]], first="R5", dealer=1, pile=pile, game="uno-minecraft")
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "draw")
    assert kinds(events) == ["draw", "creeper", "bonus"]
    assert events[1].private_to is None and names(events[1].cards) == ["C"]
    assert names(events[2].cards) == ["Y1", "C", "Y3"] and events[2].private_to == frozenset({0})
    assert events[2].seen_by(1).cards == () and events[2].count == 3
    assert match.view(1).revealed == (1, 0)  # the bonus Creeper is not revealed
    assert names(match.view(1).known[0]) == ["C"]
    # the drawn Creeper may be played, the bonus cards may not
    assert legal(match, 0) == ["C>R", "C>Y", "C>G", "C>B", "keep"]
    with pytest.raises(IllegalAction, match="drawn card"):
        match.apply(0, "Y1")
    if match.hand_over:
        match.next_hand()
    match.apply(0, "C>Y")
    assert match.view(1).known[0] == ()  # played: no longer known to be held
    assert match.view(1).active_color == "Y"


@pytest.mark.parametrize(
    "trigger", ["draw_two", "wd4_accept", "wd4_innocent", "wd4_guilty", "catch"]
)
def test_d36_every_draw_during_play_triggers(deal, trigger):
    pile = ["C", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9"]
    hands = [["R+2", "W+4", "G2"], ["R2", "R3"], ["G3"]]
    if trigger == "wd4_innocent":
        hands[0] = ["W+4", "B2", "G2"]
    match = deal(hands, first="R5", dealer=2, pile=pile, game="uno-minecraft")
    victim = 1
    if trigger == "draw_two":
        if match.hand_over:
            match.next_hand()
        match.apply(0, "R+2")
    elif trigger == "catch":
        match = deal(
            [["R1", "G2"], ["R2", "R3"], ["G3"]], first="R5", dealer=2, pile=pile,
            game="uno-minecraft",
        )  # fmt: skip
        if match.hand_over:
            match.next_hand()
        match.apply(0, "R1")
        if match.hand_over:
            match.next_hand()
        match.apply(1, "catch:0")
        victim = 0
    else:
        if match.hand_over:
            match.next_hand()
        match.apply(0, "W+4>B")
        answer = "accept" if trigger == "wd4_accept" else "challenge"
        if match.hand_over:
            match.next_hand()
        match.apply(1, answer)
        victim = 0 if trigger == "wd4_guilty" else 1
    assert match.view(2).revealed[victim] == 1
    creeper = next(e for e in match.log if e.kind == "creeper")
    assert creeper.seat == victim


def test_d36_creeper_plays_as_a_wild_and_scores_fifty(deal):
    match = deal([["C", "G1"], ["R2", "R3"]], first="B5", dealer=1, game="uno-minecraft")
    assert legal(match, 0)[:4] == ["C>R", "C>Y", "C>G", "C>B"]
    match = deal([["R1"], ["C", "R3"]], first="B1", dealer=1, game="uno-minecraft", target=1000)
    if match.hand_over:
        match.next_hand()
    events = match.apply(0, "R1")
    assert next(e for e in events if e.kind == "hand_end").data["points"] == (53, 0)


def test_d36_creeper_not_in_classic_uno():
    from unotable.engine import NotationError

    with pytest.raises(NotationError, match="no Creeper"):
        get_game("uno").parse_card("C")
    with pytest.raises(NotationError):
        get_game("uno").from_deal(2, hands=[["C"], ["R1"]], first_discard="R5")
    with pytest.raises(OptionError, match="more R0"):
        get_game("uno").from_deal(2, hands=[["R0"], ["R0"]], first_discard="R5")


def test_d36_bonus_creeper_does_not_trigger_and_penalty_counts_only_non_bonus(deal):
    pile = ["C", "C", "Y1", "Y2", "Y3", "Y4", "Y5"]
    match = deal([["R+2", "G2"], ["R2"], ["G3"]], first="R5", dealer=2, pile=pile,
                 game="uno-minecraft")  # fmt: skip
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R+2")
    # C (reveal) + bonus C, Y1, Y2 + the second penalty card Y3
    assert names(match.hands[1]) == ["R2", "Y1", "Y2", "Y3", "C", "C"]
    assert match.view(0).revealed == (0, 1, 0)


# -- the view --------------------------------------------------------------------------------------


def test_view_shows_the_public_table_and_only_your_hand(deal):
    pile = ["B6", "B7", "B8"]
    match = deal([["R1", "G2", "W"], ["R2", "Y3", "Y4"], ["B2", "B3"]], pile=pile, dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")
    view = match.view(1)
    assert names(view.hand) == ["R2", "Y3", "Y4"]
    assert view.hand_sizes == (2, 3, 2) and view.current == 1 and view.dealer == 2
    assert str(view.top) == "R1" and names(view.discard) == ["R5", "R1"]
    assert (view.active_color, view.direction, view.draw_pile_size) == ("R", 1, 3)
    assert (view.pending, view.drawn, view.exposed, view.passes) == (None, None, None, 0)
    assert view.revealed == (0, 0, 0) and view.known == ((), (), ())
    assert view.last_hand is None and view.hand_number == 1 and view.phase == "play"
    assert [str(a) for a in view.legal] == ["R2", "draw"]
    assert match.view(0).legal == ()


def test_determinize_keeps_a_pending_challenge_playable(deal):
    from random import Random

    from unotable.engine.uno import determinize

    match = deal([["W+4", "Y2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    for seed in range(10):
        twin = determinize(match.view(1), Random(seed))
        assert twin.view(1) == match.view(1)
        guilty = any(c.color == "Y" for c in twin.hands[0])
        if twin.hand_over:
            twin.next_hand()
        events = twin.apply(1, "challenge")
        assert events[0].data["guilty"] is guilty


def test_determinize_gives_the_drawing_seat_some_unseen_drawn_card(deal):
    from random import Random

    from unotable.engine.uno import determinize

    match = deal([["R1", "G2"], ["B3", "Y4", "Y5"]], first="R5", dealer=1, pile=["R9", "B9"])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "draw")
    assert match.pending == "drawn"
    twin = determinize(match.view(1), Random(2))
    assert twin.view(1) == match.view(1)
    drawn = twin.drawn
    assert drawn in twin.hands[0] and twin.legal_actions(0)[-1].kind == "keep"
    if twin.hand_over:
        twin.next_hand()
    twin.apply(0, twin.legal_actions(0)[0])


def test_d30_drawn_wild_draw_four_follows_the_legality_rule(deal):
    strict = deal([["R1", "G2"], ["B3"]], first="R5", dealer=1, pile=["W+4"], wd4_bluff=False)
    strict.apply(0, "draw")  # the hand holds red: the W+4 may not be played
    assert legal(strict, 0) == ["keep"]
    bluff = deal([["R1", "G2"], ["B3"]], first="R5", dealer=1, pile=["W+4"])
    bluff.apply(0, "draw")
    assert legal(bluff, 0) == ["W+4>R", "W+4>Y", "W+4>G", "W+4>B", "keep"]


def test_d29_draw_two_first_with_two_players_the_dealer_starts(deal):
    match = deal([["R1"], ["R2"]], first="G+2", dealer=0, pile=["Y1", "Y2", "Y3"])
    assert len(match.hands[1]) == 3 and match.current == 0


def test_d34_catch_penalty_takes_what_exists(deal):
    match = deal([["R1", "G2"], ["R2", "R3", "R4"], ["G3"]], first="R5", dealer=2, pile=[])
    if match.hand_over:
        match.next_hand()
    match.apply(0, "R1")  # the draw pile is empty; only R5 lies under the R1
    if match.hand_over:
        match.next_hand()
    events = match.apply(2, "catch:0")
    assert kinds(events) == ["catch", "penalty", "reshuffle", "draw"]
    assert names(match.hands[0]) == ["R5", "G2"] and names(match.discard) == ["R1"]


def test_d33_the_reveal_reaches_only_the_challenger_in_every_log(deal):
    match = deal([["W+4", "Y2", "G1"], ["R2", "R3"], ["B2"]], first="Y5", dealer=2)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "W+4>R")
    if match.hand_over:
        match.next_hand()
    match.apply(1, "challenge")
    reveal = [e for e in match.events_for(1) if e.kind == "reveal"]
    assert names(reveal[0].cards) == ["Y2", "G1"]
    for seat in (0, 2, None):
        assert [e.cards for e in match.events_for(seat) if e.kind == "reveal"] == [()]
