"""Wild Twist Hearts scenario tests: every rule and D-n of RULES.md §2, from explicit deals."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unotable.engine import Action, IllegalAction, NotationError, OptionError, get_game
from unotable.engine.wild_twist import DECK, WildTwistMatch

SPEC = get_game("wild-twist-hearts")


def cards(text: str) -> list[str]:
    return text.split()


# seat 3 holds the Wild Club, seat 0 the 2♣; everyone holds clubs.
EVERYONE_HAS_CLUBS = [
    cards("2C 3C 4C 2D 3D 4D 5D 2S 3S 4S 2H 3H 4H 5H"),
    cards("5C 6C 7C 6D 7D 8D 9D 5S 6S 7S 6H 7H 8H 9H"),
    cards("8C 9C 10C 10D JD QD KD 8S 9S 10S 10H JH QH KH"),
    cards("JC QC KC AC AD WD JS QS KS AS WS AH WH WC"),
]
# seat 1 has no clubs, so it is void on the first trick.
SEAT1_VOID_IN_CLUBS = [
    cards("2C 3C 4C 5C 6C 2D 3D 4D 2S 3S 4S 2H 3H 4H"),
    cards("5D 6D 7D 8D 5S 6S 7S 8S QS 5H 6H 7H 8H 9H"),
    cards("7C 8C 9C 10C JC 9D 10D JD QD 9S 10S JS 10H JH"),
    cards("QC KC AC WC KD AD WD KS AS WS QH KH AH WH"),
]
# seat 1 holds the A♣ and every natural heart; seat 2 the Wild Heart.
SEAT1_ALL_HEARTS = [
    cards("2C 3C 4C 2D 3D 4D 5D 6D 2S 3S 4S 5S 6S 7S"),
    cards("AC 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
    cards("5C 6C 7C 8C 7D 8D 9D 10D 8S 9S 10S JS QS WH"),
    cards("9C 10C JC QC KC WC JD QD KD AD WD KS AS WS"),
]
# seat 0 holds the top of clubs, diamonds and spades, seat 3 every heart.
SEAT0_SHOOTS = [
    cards("WC AC KC QC JC WD AD KD QD JD WS AS KS QS"),
    cards("2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D 6D"),
    cards("7D 8D 9D 10D 2S 3S 4S 5S 6S 7S 8S 9S 10S JS"),
    cards("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH WH"),
]


def table(hands: list[list[str]], leftovers: list[str] | None = None, **options: Any) -> Any:
    """A first game dealt exactly; the dealer is the last seat unless given."""
    dealer = options.pop("dealer", len(hands) - 1)
    deal: dict[str, Any] = {"hands": hands, "dealer": dealer}
    if leftovers is not None:
        deal["leftovers"] = leftovers
    match = SPEC.from_deal(len(hands), options, seed=11, **deal)
    assert isinstance(match, WildTwistMatch)
    return match


def filled(players: int, fixed: dict[int, str], leftovers: str = "") -> list[list[str]]:
    """Hands with the given cards; the rest of the deck fills seats in deck order."""
    size = 56 // players
    hands = [cards(fixed.get(seat, "")) for seat in range(players)]
    used = {c for hand in hands for c in hand} | set(cards(leftovers))
    rest = [str(c) for c in DECK if str(c) not in used]
    for hand in hands:
        while len(hand) < size:
            hand.append(rest.pop(0))
    assert not rest, "leftovers must be given in full"
    return hands


def play(match: Any, *moves: str) -> list[Any]:
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


def legal(match: Any, seat: int | None = None) -> list[str]:
    seat = match.current if seat is None else seat
    return [str(a) for a in match.legal_actions(seat)]


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def play_first_legal(match: Any, stop_phase: str = "over") -> None:
    """Everyone plays their first legal action (a Wild as HIGH) until ``stop_phase``."""
    while match.phase != stop_phase and not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.current
        match.apply(seat, match.legal_actions(seat)[0])


# -- §2.1 components, notation ------------------------------------------------------------


def test_deck_has_56_cards_four_wilds_and_27_points() -> None:
    assert len(DECK) == 56
    assert len({str(c) for c in DECK}) == 56
    assert Counter(str(c)[-1] for c in DECK) == {"C": 14, "D": 14, "H": 14, "S": 14}
    assert sorted(str(c) for c in DECK if c.wild) == ["WC", "WD", "WH", "WS"]
    assert sum(c.points for c in DECK) == 27
    assert SPEC.parse_card("QS").points == 13
    assert SPEC.parse_card("WH").points == 1  # D-21: the Wild Heart is a heart
    assert SPEC.parse_card("WS").points == 0  # D-21: the Wild Spade is not the Q♠
    assert all(SPEC.parse_card(f"{r}H").points == 1 for r in ("2", "10", "J", "A"))


def test_card_notation_parses_forgivingly_and_prints_canonically() -> None:
    assert SPEC.parse_card("TH") is SPEC.parse_card("10H")
    assert str(SPEC.parse_card("th")) == "10H"
    assert str(SPEC.parse_card(" qs ")) == "QS"
    assert SPEC.parse_card("wc") is SPEC.parse_card("WC")
    for bad in ("1C", "11H", "ZZ", "W", "WX", "", "QQ"):
        with pytest.raises(NotationError):
            SPEC.parse_card(bad)


def test_action_notation_round_trips() -> None:
    for text in ("2C", "10H", "WH>HIGH", "WC>LOW", "moon:self", "moon:others", "decline"):
        assert str(SPEC.parse_action(text)) == text
    assert SPEC.parse_action("wh>high") == SPEC.parse_action("WH>HIGH")
    assert str(SPEC.parse_action("wc>lowest")) == "WC>LOW"  # the rulebook's word
    assert str(SPEC.parse_action("TD")) == "10D"
    for bad in ("WH>UP", "moon:everyone", "draw:3", "QS>"):
        with pytest.raises(NotationError):
            SPEC.parse_action(bad)


def test_options_length_and_first_trick_rule() -> None:
    assert SPEC.default_options() == {"length": 3, "no_points_first_trick": False}  # D-37
    for bad in (0, 100, "3", 2.5, True):
        with pytest.raises(OptionError):
            SPEC.new_match(4, {"length": bad}, seed=1)
    with pytest.raises(OptionError):
        SPEC.new_match(4, {"no_points_first_trick": 1}, seed=1)
    with pytest.raises(OptionError):
        SPEC.new_match(4, {"passing": True}, seed=1)


@pytest.mark.parametrize("players", [1, 2, 3, 9])
def test_only_four_to_eight_players(players: int) -> None:
    with pytest.raises(OptionError):
        SPEC.new_match(players, seed=1)


# -- §2.2 deal: D-19, D-20, D-2 -----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "each", "leftover"), [(4, 14, 0), (5, 11, 1), (6, 9, 2), (7, 8, 0), (8, 7, 0)]
)
def test_deal_gives_everyone_the_same_count_and_leftovers_face_down(
    players: int, each: int, leftover: int
) -> None:
    match = SPEC.new_match(players, seed=players)
    for seat in range(players):
        view = match.view(seat)
        assert len(view.hand) == each
        assert view.hand_sizes == (each,) * players
        assert view.leftovers_count == leftover
        assert view.leftovers_to is None
    assert len(match.leftovers) == leftover
    dealt = [c for seat in range(players) for c in match.view(seat).hand] + match.leftovers
    assert sorted(str(c) for c in dealt) == sorted(str(c) for c in DECK)


def test_first_dealer_is_uniformly_random_and_the_deal_passes_left() -> None:
    dealers = Counter(SPEC.new_match(4, seed=seed).dealer for seed in range(800))
    assert set(dealers) == {0, 1, 2, 3}
    assert all(150 <= count <= 250 for count in dealers.values()), dealers
    match = table(EVERYONE_HAS_CLUBS, dealer=2, length=2)
    play_first_legal(match, stop_phase="never")  # runs to the end of the match
    assert match.view(0).hand_number == 2
    assert match.dealer == 3  # D-2: the deal passed left


def test_there_is_no_passing() -> None:  # D-20
    match = SPEC.new_match(4, seed=3)
    assert match.phase in ("opening", "play")
    seat = match.current
    with pytest.raises(IllegalAction):
        match.apply(seat, Action("give", cards=tuple(match.view(seat).hand[:3])))
    for text in ("draw", "pass", "direction:left"):
        with pytest.raises((IllegalAction, NotationError)):
            match.apply(seat, text)


def test_from_deal_rejects_bad_deals() -> None:
    bad_size = [list(h) for h in EVERYONE_HAS_CLUBS]
    bad_size[0].pop()
    with pytest.raises(OptionError):
        table(bad_size)
    twice = [list(h) for h in EVERYONE_HAS_CLUBS]
    twice[0][0] = "AC"
    with pytest.raises(OptionError):
        table(twice)
    with pytest.raises(OptionError):
        table(EVERYONE_HAS_CLUBS, dealer=4)


# -- §2.4 the opening lead: D-23 -----------------------------------------------------------


def test_wild_club_holder_chooses_first_and_may_lead_it_low() -> None:
    match = table(EVERYONE_HAS_CLUBS)
    assert (match.phase, match.current) == ("opening", 3)
    assert sorted(legal(match)) == ["WC>LOW", "decline"]
    assert legal(match, 0) == [] and match.actors() == (3,)
    with pytest.raises(IllegalAction, match="only as LOW"):
        match.apply(3, "WC>HIGH")
    with pytest.raises(IllegalAction):
        match.apply(3, "AC")
    with pytest.raises(IllegalAction, match="seat 3's turn"):
        match.apply(0, "2C")
    events = play(match, "WC>LOW")
    assert kinds(events) == ["play"]
    view = match.view(0)
    assert (view.phase, view.current, view.lead_suit) == ("play", 0, "C")
    assert [(s, str(c), d) for s, c, d in view.trick] == [(3, "WC", "LOW")]
    assert legal(match) == ["2C", "3C", "4C"]  # following clubs, not forced to the 2♣
    events = play(match, "3C", "5C", "8C")
    won = [e for e in events if e.kind == "trick_won"]
    assert won[0].seat == 2  # the Wild Club LOW ranks below every natural club


def test_wild_club_holder_declines_then_the_lowest_club_must_lead() -> None:
    match = table(EVERYONE_HAS_CLUBS)
    events = play(match, "decline")
    assert kinds(events) == ["decline"]
    view = match.view(1)
    assert (view.phase, view.current, view.opening_declined) == ("play", 0, True)
    assert legal(match) == ["2C"]
    with pytest.raises(IllegalAction, match="lead 2C"):
        match.apply(0, "3C")
    play(match, "2C")
    assert match.view(3).leader == 0


def test_wild_club_holder_who_also_holds_the_lowest_club_picks_one_of_the_two() -> None:
    hands = [list(h) for h in EVERYONE_HAS_CLUBS]
    hands[0][1], hands[3][-1] = "WC", "3C"  # seat 0: 2C and WC
    match = table(hands)
    assert (match.phase, match.current) == ("opening", 0)
    assert sorted(legal(match)) == ["2C", "WC>LOW"]
    with pytest.raises(IllegalAction, match="lowest club too"):
        match.apply(0, "decline")
    before = match.view(0)
    for wrong in ("4C", "2C>HIGH", "WC>HIGH", "moon:self"):
        with pytest.raises(IllegalAction):
            match.apply(0, wrong)
    assert match.view(0) == before
    play(match, "2C")
    assert match.view(0).trick[0][1] is SPEC.parse_card("2C")
    assert match.current == 1


def test_two_of_clubs_in_the_leftovers_means_the_three_leads() -> None:
    hands = filled(5, {2: "3C", 4: "WC"}, leftovers="2C")
    match = table(hands, ["2C"])
    assert (match.phase, match.current) == ("opening", 4)
    play(match, "decline")
    assert (match.current, legal(match)) == (2, ["3C"])


def test_wild_club_in_the_leftovers_means_no_opening_choice() -> None:
    hands = filled(6, {3: "3C 4C"}, leftovers="2C WC")
    match = table(hands, ["2C", "WC"])
    view = match.view(0)
    assert (view.phase, view.current, view.opening_holder) == ("play", 3, None)
    assert legal(match) == ["3C"]
    with pytest.raises(IllegalAction):
        match.apply(3, "decline")


def test_the_opening_rule_applies_to_every_game() -> None:
    match = table(EVERYONE_HAS_CLUBS, length=4)
    starts = 0
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        view = match.view(0)
        if not view.tricks and not view.trick:
            starts += 1
            hands = [match.view(s).hand for s in range(4)]
            clubs = [c for h in hands for c in h if str(c)[-1] == "C" and not c.wild]
            lowest = min(clubs, key=lambda c: c.rank)
            holder = next((s for s in range(4) if SPEC.parse_card("WC") in hands[s]), None)
            if holder is None:
                assert view.phase == "play"
                assert legal(match) == [str(lowest)]
            else:
                assert (view.phase, view.current) == ("opening", holder)
        if match.hand_over:
            match.next_hand()
        match.apply(match.current, match.legal_actions(match.current)[0])
    assert starts == 4


# -- §2.5 leading, following, breaking hearts: D-21, D-24, D-25 ---------------------------


def test_must_follow_the_led_suit() -> None:
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline", "2C")
    with pytest.raises(IllegalAction, match="you must follow clubs: you hold 5C"):
        match.apply(1, "6D")
    with pytest.raises(IllegalAction, match="do not hold"):
        match.apply(1, "AC")
    assert legal(match) == ["5C", "6C", "7C"]


def test_a_wild_is_a_member_of_its_suit_for_following() -> None:  # D-21
    match = table(SEAT1_ALL_HEARTS)
    play(match, "decline", "2C", "AC", "5C", "9C")
    assert match.current == 1  # the A♣ won
    play(match, "2H")  # all hearts: the exception
    # seat 2's only heart is the Wild Heart: it must follow with it, HIGH or LOW
    assert legal(match) == ["WH>HIGH", "WH>LOW"]
    with pytest.raises(IllegalAction, match="follow hearts"):
        match.apply(2, "QS")


def test_a_wild_needs_a_declaration_and_only_a_wild_takes_one() -> None:  # D-22
    match = table(SEAT1_ALL_HEARTS)
    play(match, "decline", "2C", "AC", "5C", "9C", "2H")
    with pytest.raises(IllegalAction, match="declare HIGH or LOW"):
        match.apply(2, "WH")
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline")
    with pytest.raises(IllegalAction, match="only a Wild"):
        match.apply(0, "2C>HIGH")


@pytest.mark.parametrize(("declared", "winner"), [("HIGH", 2), ("LOW", 1)])
def test_a_wild_ranks_above_the_ace_or_below_the_two(declared: str, winner: int) -> None:
    match = table(SEAT1_ALL_HEARTS)
    play(match, "decline", "2C", "AC", "5C", "9C", "2H")
    events = play(match, f"WH>{declared}", "WS>HIGH", "2D")  # seat 3 discards WS HIGH
    won = [e for e in events if e.kind == "trick_won"]
    assert won[0].seat == winner  # an off-suit Wild never wins, whatever it declares
    assert won[0].data["points"] == 2
    view = match.view(0)
    assert view.tricks[-1][2][1] == (2, SPEC.parse_card("WH"), declared)
    assert view.hand_points_visible[winner] == 2


def test_trick_order_wild_high_ace_king_two_wild_low() -> None:  # §2.6
    match = table(SEAT0_SHOOTS)
    play(match, "decline", "2C", "7D", "2H", "WC>HIGH")  # seat 0 could play any club
    assert match.view(0).tricks[-1][1] == 0  # WC HIGH beat the 2♣
    match = table(SEAT0_SHOOTS)
    play(match, "decline", "2C", "7D", "2H", "WC>LOW")
    assert match.view(0).tricks[-1][1] == 1  # WC LOW lost to the 2♣
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline", "2C", "7C", "10C", "KC")
    assert match.view(0).tricks[-1][1] == 3  # K beats 10, 7 and 2
    play(match, "AC", "3C", "6C", "9C")
    assert match.view(0).tricks[-1][1] == 3


def test_hearts_cannot_be_led_before_they_are_broken() -> None:  # D-24
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline", "2C", "5C", "8C", "AC")
    assert match.current == 3
    for heart in ("AH", "WH>HIGH", "WH>LOW"):
        with pytest.raises(IllegalAction, match="hearts are not broken"):
            match.apply(3, heart)
    assert not any(a.startswith(("AH", "WH")) for a in legal(match))


def test_all_hearts_exception_allows_a_heart_lead_and_breaks_hearts() -> None:  # D-24
    match = table(SEAT1_ALL_HEARTS)
    play(match, "decline", "2C", "AC", "5C", "9C")
    assert not match.view(0).hearts_broken
    assert legal(match) == [f"{r}H" for r in (*range(2, 11), "J", "Q", "K", "A")]
    events = play(match, "2H")
    assert kinds(events) == ["play", "hearts_broken"]
    view = match.view(0)
    assert view.hearts_broken
    assert view.voids[1] == frozenset("CDS")  # leading under the exception shows it


def test_a_heart_discarded_by_a_void_player_breaks_hearts() -> None:
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline", "2C", "5C", "8C", "AC", "KC", "3C", "6C", "9C")
    play(match, "QC", "4C", "7C", "10C", "JC")
    assert not match.view(0).hearts_broken
    events = play(match, "2H")  # seat 0 has no club left
    assert kinds(events) == ["play", "hearts_broken"]
    assert (events[1].seat, events[1].cards) == (0, (SPEC.parse_card("2H"),))
    assert match.view(1).hearts_broken
    assert match.view(1).voids[0] == frozenset("C")


def test_the_wild_heart_breaks_hearts_too() -> None:  # D-21
    match = table(SEAT0_SHOOTS)
    events = play(match, "decline", "2C", "7D", "WH>LOW")
    assert kinds(events)[-2:] == ["play", "hearts_broken"]
    assert match.view(0).hearts_broken


def test_the_queen_of_spades_does_not_break_hearts() -> None:
    hands = [list(h) for h in EVERYONE_HAS_CLUBS]
    hands[0][hands[0].index("2S")], hands[3][hands[3].index("QS")] = "QS", "2S"
    match = table(hands)
    play(match, "decline", "2C", "5C", "8C", "AC", "KC", "3C", "6C", "9C")
    play(match, "QC", "4C", "7C", "10C", "JC")
    events = play(match, "QS", "6D", "10D")
    assert "hearts_broken" not in kinds(events)
    assert not match.view(0).hearts_broken
    assert match.current == 3
    with pytest.raises(IllegalAction, match="hearts are not broken"):
        match.apply(3, "AH")


def test_points_may_be_discarded_on_the_first_trick_by_default() -> None:  # D-25
    match = table(SEAT1_VOID_IN_CLUBS)
    play(match, "decline", "2C")
    assert len(legal(match)) == 14  # seat 1 is void: anything goes
    events = play(match, "5H")
    assert "hearts_broken" in kinds(events)
    match = table(SEAT1_VOID_IN_CLUBS)
    play(match, "decline", "2C", "QS")
    assert not match.view(0).hearts_broken


def test_no_points_on_the_first_trick_option() -> None:  # D-25
    match = table(SEAT1_VOID_IN_CLUBS, no_points_first_trick=True)
    play(match, "decline", "2C")
    assert legal(match) == ["5D", "6D", "7D", "8D", "5S", "6S", "7S", "8S"]
    for points in ("QS", "5H"):
        with pytest.raises(IllegalAction, match="no points on the first trick"):
            match.apply(1, points)
    play(match, "5D", "7C", "AC")
    # after the first trick the Q♠ may be played again
    play(match, "KS", "2S")
    assert "QS" in legal(match)


def test_no_points_on_the_first_trick_yields_to_a_hand_of_only_points() -> None:  # D-25
    hands = filled(4, {0: "2C", 1: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH QS", 2: "WC"})
    match = table(hands, no_points_first_trick=True)
    play(match, "decline", "2C")
    assert len(legal(match)) == 14
    events = play(match, "QS")
    assert "hearts_broken" not in kinds(events)


# -- §2.2/§2.6 leftovers to the first trick's winner -------------------------------------


def test_leftovers_go_unseen_to_the_first_trick_winner_and_score_at_the_end() -> None:
    hands = [
        cards("2C 4C 2D 3D 4D 2S 3S 4S 2H"),
        cards("3C 5C 5D 6D 7D 5S 6S 7S 3H"),
        cards("6C 7C 8D 9D 10D 8S 9S 10S 4H"),
        cards("8C 9C JD QD KD JS KS AS 5H"),
        cards("10C JC AD WD WS 6H 7H 8H 9H"),
        cards("WC QC KC AC 10H JH QH KH WH"),
    ]
    match = table(hands, ["AH", "QS"], length=1)
    events = play(match, "decline", "2C", "3C", "6C", "8C", "10C", "QC")
    won = next(e for e in events if e.kind == "trick_won")
    assert won.data["leftovers"] == 2
    assert not [c for c in won.cards if str(c) in ("AH", "QS")]
    for seat in range(6):
        view = match.view(seat)
        assert view.leftovers_to == won.seat
        assert view.leftovers_count == 2
        assert not view.hearts_broken  # leftovers never break hearts
        shown = {str(c) for pile in view.taken for c in pile} | {str(c) for c in view.hand}
        assert "AH" not in shown and "QS" not in shown
        assert view.hand_points_visible[won.seat] == sum(c.points for c in won.cards)
    events = []
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        events += play(match, legal(match)[-1])
    end = next(e for e in events if e.kind == "hand_end")
    assert sorted(str(c) for c in end.cards) == ["AH", "QS"]  # revealed at scoring
    taken = [0] * 6
    for e in match.log:
        if e.kind == "trick_won":
            taken[e.seat] += e.data["points"]
    taken[won.seat] += 14
    assert list(match.hand_results[0].points) == taken
    assert match.hand_results[0].notes["leftovers_to"] == won.seat


# -- §2.7 scoring, moon: D-26, D-4 --------------------------------------------------------


def test_one_point_per_heart_and_thirteen_for_the_queen() -> None:
    match = table(SEAT1_ALL_HEARTS, length=1)
    play_first_legal(match)
    result = match.hand_results[0]
    assert "moon" not in result.notes and result.points.count(0) < 4
    expected = [0] * 4
    for seat, card in ((e.seat, c) for e in match.log if e.kind == "trick_won" for c in e.cards):
        text = str(card)
        expected[seat] += 1 if text[-1] == "H" else 13 if text == "QS" else 0
    assert list(result.points) == expected
    assert sum(result.points) == 27
    assert result.totals == result.points == tuple(match.scores)


def moon_match(**options: Any) -> Any:
    match = table(SEAT0_SHOOTS, **options)
    play(match, "decline")
    play_first_legal(match, stop_phase="moon")
    return match


def test_all_hearts_and_the_queen_shoot_the_moon() -> None:
    match = moon_match(length=1)
    view = match.view(2)
    assert (view.phase, view.current, view.moon_shooter) == ("moon", 0, 0)
    assert view.tricks_won == (14, 0, 0, 0)
    assert sorted(legal(match)) == ["moon:others", "moon:self"]
    assert legal(match, 1) == []
    with pytest.raises(IllegalAction, match="moon"):
        match.apply(0, "AC")
    with pytest.raises(IllegalAction):
        match.apply(1, "moon:self")


def test_moon_self_subtracts_27_from_the_shooter() -> None:  # D-26, D-4
    match = moon_match(length=1)
    events = play(match, "moon:self")
    assert kinds(events) == ["moon", "hand_end", "match_end"]
    result = match.hand_results[0]
    assert result.points == (-27, 0, 0, 0)
    assert result.totals == (-27, 0, 0, 0)
    assert (result.notes["moon"], result.notes["moon_choice"]) == (0, "self")
    assert result.notes["taken_points"] == (27, 0, 0, 0)
    assert match.winners == (0,)


def test_moon_others_adds_27_to_everyone_else() -> None:  # D-26
    match = moon_match(length=3)
    events = play(match, "moon:others")
    assert kinds(events)[:2] == ["moon", "hand_end"]
    assert "deal" in kinds(events)  # the next game is dealt at once
    result = match.hand_results[0]
    assert result.points == (0, 27, 27, 27)
    assert result.notes["moon_choice"] == "others"
    view = match.view(1)
    assert (view.hand_number, view.scores, view.dealer) == (2, (0, 27, 27, 27), 0)
    assert view.last_hand == result
    assert view.tricks == () and view.tricks_won == (0, 0, 0, 0)


def test_the_leftovers_count_towards_a_moon() -> None:
    hands = [
        cards("WC AC KC QC JC WD AD KD WS AS KS"),
        cards("2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D"),
        cards("4D 5D 6D 7D 8D 9D 10D JD QD 2S 3S"),
        cards("4S 5S 6S 7S 8S 9S 10S JS 2H 3H 4H"),
        cards("5H 6H 7H 8H 9H 10H JH QH KH AH WH"),
    ]
    match = table(hands, ["QS"], length=1)
    play(match, "decline")
    play_first_legal(match, stop_phase="moon")
    view = match.view(0)
    assert (view.phase, view.moon_shooter, view.leftovers_to) == ("moon", 0, 0)
    assert view.hand_points_visible == (14, 0, 0, 0, 0)  # the Q♠ is still face down
    play(match, "moon:self")
    result = match.hand_results[0]
    assert result.notes["taken_points"] == (27, 0, 0, 0, 0)
    assert result.points == (-27, 0, 0, 0, 0)


# -- §2.8 match length and winners: D-37, D-3 ---------------------------------------------


@pytest.mark.parametrize("length", [1, 3, 5])
def test_the_match_lasts_the_chosen_number_of_games(length: int) -> None:
    match = SPEC.new_match(5, {"length": length}, seed=length)
    ends = 0
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        events = match.apply(match.current, match.legal_actions(match.current)[-1])
        ends += kinds(events).count("hand_end")
    assert ends == len(match.hand_results) == length
    assert match.phase == "over" and match.current is None and match.actors() == ()
    totals = match.hand_results[-1].totals
    assert match.winners == tuple(s for s in range(5) if totals[s] == min(totals))
    assert totals == tuple(sum(r.points[s] for r in match.hand_results) for s in range(5))
    with pytest.raises(IllegalAction, match="over"):
        match.apply(0, "2C")


def test_players_sharing_the_lowest_total_are_co_winners() -> None:  # D-3
    for seed in range(200):
        match = SPEC.new_match(8, {"length": 1}, seed=seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            match.apply(match.current, match.legal_actions(match.current)[0])
        totals = match.scores
        if totals.count(min(totals)) > 1:
            assert match.winners == tuple(s for s in range(8) if totals[s] == min(totals))
            end = match.log[-1]
            assert end.kind == "match_end" and end.data["winners"] == match.winners
            return
    raise AssertionError("no shared lowest total in 200 one-game matches")


# -- turn order and errors ----------------------------------------------------------------


def test_play_goes_clockwise_and_the_trick_winner_leads() -> None:  # D-1
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline")
    order = []
    for _ in range(4):
        order.append(match.current)
        play(match, legal(match)[0])
    assert order == [0, 1, 2, 3]
    assert match.current == match.view(0).tricks[-1][1] == match.view(0).leader


def test_an_illegal_action_changes_nothing() -> None:
    match = table(EVERYONE_HAS_CLUBS)
    play(match, "decline", "2C")
    before = [match.view(s) for s in range(4)]
    log = len(match.log)
    for seat, text in ((1, "6D"), (2, "8C"), (1, "WC>LOW"), (1, "moon:self"), (1, "decline")):
        with pytest.raises(IllegalAction):
            match.apply(seat, text)
    assert [match.view(s) for s in range(4)] == before
    assert len(match.log) == log
    with pytest.raises(IllegalAction, match="no seat"):
        match.apply(4, "5C")
