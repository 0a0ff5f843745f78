"""The engine's shared surface, game by game: card faces and points, partial deals in the
trick games, what a spectator of a Hearts table sees, Wild Twist's leftovers taker,
dealing between hands with an explicit deal, explain() over whole games, and the
package layout every game follows."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from importlib import import_module

import pytest

from unotable.engine import (
    GAME_IDS,
    Card,
    IllegalAction,
    NotationError,
    OptionError,
    View,
    get_game,
)
from unotable.engine.tricks import TrickView

HEARTS_GAMES = ("uno-hearts", "wild-twist-hearts")


def play_out_hand(match, rng: random.Random, *, check=None, limit: int = 20_000) -> None:
    """Random moves until the hand (or the match) is over, calling ``check`` after each."""
    for _ in range(limit):
        if match.hand_over or match.over:
            return
        seat = match.current if match.current is not None else match.actors()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        if check is not None:
            check(match)
    raise AssertionError("the hand never ended")


# -- cards ------------------------------------------------------------------------------


def uno_points(text: str) -> int:
    if text in ("W", "W+4", "C"):
        return 50  # RULES §3: Wild, WD4 and Creeper
    face = text[1:]
    return int(face) if face.isdigit() else 20  # numbers at face value; Skip, Reverse, +2


def uno_hearts_points(text: str) -> int:
    if text.startswith("H"):
        return 1  # every heart scores one (RULES §1)
    return 13 if text == "Y13" else 0


def wild_twist_points(text: str) -> int:
    if text.endswith("H"):
        return 1  # 14 hearts, the Wild Heart among them (RULES §2)
    return 13 if text == "QS" else 0


def test_every_card_scores_what_the_rules_say_it_scores() -> None:
    from unotable.engine.uno import CLASSIC_DECK, MINECRAFT_DECK
    from unotable.engine.uno_hearts import DECK as UH_DECK
    from unotable.engine.wild_twist import DECK as WT_DECK

    decks = (
        (CLASSIC_DECK, uno_points, 108, 1240),
        (MINECRAFT_DECK, uno_points, 112, 1440),
        (UH_DECK, uno_hearts_points, 106, 37),
        (WT_DECK, wild_twist_points, 56, 27),
    )
    for deck, points, size, total in decks:
        assert len(deck) == size
        for card in deck:
            assert isinstance(card, Card)
            assert card.points == points(card.text), card
            assert str(card) == card.text
        assert sum(card.points for card in deck) == total


def test_card_colours_ranks_and_wilds() -> None:
    uno, uh, wt = (get_game(g).parse_card for g in ("uno-minecraft", *HEARTS_GAMES))
    assert (uno("R7").color, uno("R7").rank, uno("R7").wild) == ("R", 7, False)
    assert (uno("G+2").color, uno("G+2").rank) == ("G", "+2")
    for wild in ("W", "W+4", "C"):
        assert uno(wild).wild and uno(wild).color is None and uno(wild).rank is None
    assert (uh("Y13").color, uh("Y13").rank, uh("Y13").wild) == ("Y", 13, False)
    assert uh("WD7").wild and uh("WD7").color is None and uh("WD7").rank == 7
    assert (wt("QS").color, wt("QS").rank, wt("QS").wild) == ("S", 12, False)
    assert wt("WH").wild and wt("WH").color == "H"  # a suit Wild keeps its suit


# -- partial deals ----------------------------------------------------------------------


def uno_hearts_cards_in_play(match) -> Counter:
    cards = Counter(c for hand in match.hands for c in hand)
    cards.update(c for _, c, _ in match.trick)
    cards.update(c for pile in match.taken for c in pile)
    cards.update(match.draw_pile)
    return cards


def test_uno_hearts_takes_a_partial_deal_and_keeps_its_cards() -> None:
    spec = get_game("uno-hearts")
    hands = [["H1", "Y2", "WD3"], ["H3", "Y4", "P5"], ["Y13", "G6", "H20"]]
    match = spec.from_deal(3, {}, seed=1, hands=hands, draw_pile=["H9", "G1", "Y0"], dealer=2)
    assert match.view(None).hand_sizes == (3, 3, 3) and match.view(0).draw_pile_size == 3
    in_play = uno_hearts_cards_in_play(match)
    assert sum(in_play.values()) == 12 and max(in_play.values()) == 1

    def keeps_its_cards(m) -> None:
        assert uno_hearts_cards_in_play(m) == in_play

    play_out_hand(match, random.Random(1), check=keeps_its_cards)
    assert match.hand_over
    taken = [c for pile in match.taken for c in pile]
    assert sum(match.hand_results[-1].points) == sum(c.points for c in taken)
    # without a draw pile the rest of the deck is shuffled into it, from the seed
    full = spec.from_deal(3, {}, seed=1, hands=hands)
    assert full.view(0).draw_pile_size == 106 - 9
    again = spec.from_deal(3, {}, seed=1, hands=hands)
    assert full.draw_pile == again.draw_pile


@pytest.mark.parametrize(
    ("hands", "pile", "options", "message"),
    [
        ([["H1"], ["H2", "H3"], ["H4"]], None, {}, "same number"),
        ([["H1"], ["H1"], ["H4"]], None, {}, "twice"),
        ([["H1"], ["H2"], ["H3"]], ["H3"], {}, "twice"),
        ([["H1", "H5"], ["H2", "H6"], ["H3", "H7"]], None, {"pass_three": True}, "three"),
        ([["H1"], ["H2"]], None, {}, "each of the 3 seats"),
        ([["H1"], ["H2"], ["ZZ"]], None, {}, "not an UNO Hearts card"),
    ],
)
def test_uno_hearts_refuses_a_deal_that_cannot_be_played(hands, pile, options, message) -> None:
    spec = get_game("uno-hearts")
    deal = {"hands": hands} if pile is None else {"hands": hands, "draw_pile": pile}
    with pytest.raises((OptionError, NotationError), match=message):
        spec.from_deal(3, options, seed=1, **deal)


def test_wild_twist_takes_full_hands_with_fewer_leftovers() -> None:
    spec = get_game("wild-twist-hearts")
    deck = [str(c) for c in import_module("unotable.engine.wild_twist").DECK]
    hands = [deck[i * 11 : (i + 1) * 11] for i in range(5)]
    match = spec.from_deal(5, {}, seed=1, hands=hands, leftovers=[])
    assert match.view(None).leftovers_count == 0
    assert [str(c) for c in match.out_of_play] == deck[55:]
    with_rest = spec.from_deal(5, {}, seed=1, hands=hands)
    assert with_rest.view(None).leftovers_count == 1  # 56 = 5 × 11 + 1 left in the middle


# -- Hearts tables seen from outside ----------------------------------------------------


def public_fields() -> list[str]:
    own = {f.name for f in dataclasses.fields(View)}
    return [f.name for f in dataclasses.fields(TrickView) if f.name not in own]


@pytest.mark.parametrize("game_id", HEARTS_GAMES)
def test_a_hearts_spectator_sees_the_public_table_and_nothing_private(game_id: str) -> None:
    spec = get_game(game_id)
    options = {"pass_three": True} if game_id == "uno-hearts" else {}
    match = spec.new_match(4, options, seed=11)
    rng = random.Random(11)
    seen_a_trick = False
    for _ in range(400):
        if match.hand_over or match.over:
            break
        seat = match.current if match.current is not None else match.actors()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        public = match.view(None)
        assert isinstance(public, TrickView) and public.seat is None
        assert public.hand == () and public.legal == ()
        seated = [match.view(s) for s in range(4)]
        for name in public_fields():
            assert getattr(public, name) == getattr(seated[0], name), name
        seen_a_trick = seen_a_trick or bool(public.tricks)
        if game_id == "uno-hearts":
            assert public.known_hands == ((),) * 4  # what passed hands hold is private
            assert public.passed == () and public.received == ()
            if public.phase == "play" and not public.tricks and not public.trick:
                # after the pass each giver knows three cards its left neighbour holds
                assert any(seated[s].known_hands[(s + 1) % 4] for s in range(4))
    assert seen_a_trick


def test_wild_twist_shows_who_took_the_leftovers_once_taken() -> None:
    spec = get_game("wild-twist-hearts")
    match = spec.new_match(5, {"length": 2}, seed=4)  # 56 = 5 × 11 + 1 leftover
    rng = random.Random(4)
    assert match.view(None).leftovers_count == 1
    while not match.view(None).tricks:
        for viewer in (None, 0, 3):
            assert match.view(viewer).leftovers_to is None
        seat = match.current
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    first_winner = match.view(None).tricks[0][1]
    for viewer in (None, 0, 3):
        view = match.view(viewer)
        assert view.leftovers_to == first_winner and view.leftovers_count == 1
    play_out_hand(match, rng)
    assert match.hand_over
    assert match.view(None).leftovers_to == first_winner  # still shown on the finished table
    assert match.hand_results[-1].notes["leftovers_to"] == first_winner
    match.next_hand()
    assert match.view(None).leftovers_to is None  # a new game: not taken yet


# -- between hands ------------------------------------------------------------------------


def test_uno_hearts_next_hand_with_a_deal() -> None:
    spec = get_game("uno-hearts")
    match = spec.from_deal(3, {}, seed=5, hands=[["H1"], ["H2"], ["H3"]], draw_pile=[], dealer=0)
    play_out_hand(match, random.Random(5))
    assert match.hand_over and not match.over
    table = match.view(None)
    assert table.phase == "hand_over" and table.last_trick is not None
    assert sum(len(pile) for pile in table.taken) == 3  # the trick piles as the hand ended
    before = (match.view(0), len(match.log), match.hand_number)
    with pytest.raises(OptionError, match="same number"):
        match.next_hand({"hands": [["Y1"], ["Y2", "Y3"], ["Y4"]]})
    assert (match.view(0), len(match.log), match.hand_number) == before
    with pytest.raises(IllegalAction, match="hand is over"):
        match.apply(1, "H2")
    events = match.next_hand({"hands": [["Y1", "G1"], ["Y2", "G2"], ["Y3", "G3"]]})
    assert events and match.hand_number == 2 and match.dealer == 1  # the deal passed left
    assert [str(c) for c in match.view(0).hand] == ["Y1", "G1"]
    assert match.view(0).draw_pile_size == 106 - 6  # the rest, shuffled by the seed
    assert match.current == 2 and match.view(0).taken == ((), (), ())
    with pytest.raises(IllegalAction, match="not over"):
        match.next_hand()


def test_uno_hearts_explicit_next_deal_leaves_the_match_rng_to_the_match() -> None:
    spec = get_game("uno-hearts")
    match = spec.from_deal(3, {}, seed=5, hands=[["H1"], ["H2"], ["H3"]], draw_pile=[])
    play_out_hand(match, random.Random(5))
    twin = match.clone()
    deal = {"hands": [["Y1"], ["Y2"], ["Y3"]]}  # the rest of the deck shuffled by the rng
    match.next_hand(deal)
    twin.next_hand(deal)
    assert match.draw_pile == twin.draw_pile  # checking the deal first drew nothing


def test_wild_twist_next_hand_with_a_deal() -> None:
    spec = get_game("wild-twist-hearts")
    hands = [["2C", "AH"], ["3C", "QS"], ["4C", "KH"], ["5C", "2H"]]
    match = spec.from_deal(4, {"length": 2}, seed=1, hands=hands, dealer=3)
    play_out_hand(match, random.Random(1))
    assert match.hand_over and match.view(2).phase == "hand_over"
    assert match.view(2).last_trick is not None and match.view(2).hand_number == 1
    with pytest.raises(OptionError, match="twice"):
        match.next_hand({"hands": [["2C"], ["2C"], ["4C"], ["5C"]]})
    assert match.hand_over and match.hand_number == 1
    match.next_hand({"hands": [["6D", "7D"], ["8D", "9D"], ["2S", "WC"], ["3S", "4S"]]})
    assert match.hand_number == 2 and match.dealer == 0
    view = match.view(2)
    assert view.phase == "opening" and view.current == 2  # the Wild Club's holder decides
    assert [str(c) for c in view.hand] == ["WC", "2S"]
    play_out_hand(match, random.Random(2))
    assert match.over and not match.hand_over
    with pytest.raises(IllegalAction, match="match is over"):
        match.next_hand()


# -- explain ----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_explain_agrees_with_the_rules_through_a_whole_hand(game_id: str) -> None:
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players, seed=6)
    rng = random.Random(6)
    every = {a for s in range(match.players) for a in match.legal_actions(s)}
    for _ in range(60):
        if match.hand_over or match.over:
            break
        every.update(a for s in range(match.players) for a in match.legal_actions(s))
        for seat in range(match.players):
            legal = set(match.legal_actions(seat))
            for action in legal:
                assert match.explain(seat, action) is None
                assert match.explain(seat, str(action)) is None
            for action in rng.sample(sorted(every - legal, key=str), min(4, len(every - legal))):
                reason = match.explain(seat, action)
                assert isinstance(reason, str) and reason, (seat, action)
                with pytest.raises(IllegalAction) as refused:
                    match.clone().apply(seat, action)
                assert str(refused.value) == reason
        seat = match.current if match.current is not None else match.actors()[0]
        history = len(match.history)
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        assert len(match.history) == history + 1  # explain itself never acted


def test_explain_between_hands_says_to_deal() -> None:
    spec = get_game("uno")
    match = spec.from_deal(2, {}, seed=1, hands=[["G2"], ["R1"]], first_discard="R5")
    match.apply(1, "R1")
    assert match.hand_over
    assert "hand is over" in match.explain(0, "G2")


# -- layout -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_a_package_with_cards_match_view_and_determinize(game_id: str) -> None:
    spec = get_game(game_id)
    package_name = spec.match_class.__module__.rpartition(".")[0]
    package = import_module(package_name)
    for part in ("cards", "match", "view", "determinize"):
        import_module(f"{package_name}.{part}")
    assert package.SPECS[game_id] is spec
    assert callable(package.determinize) and callable(package.parse_card)
    view_class = type(spec.new_match(spec.min_players, seed=1).view(0))
    assert view_class.__module__ == f"{package_name}.view"
    assert getattr(package, view_class.__name__) is view_class
    assert spec.match_class.__module__ == f"{package_name}.match"
