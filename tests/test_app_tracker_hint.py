"""The hint (H) and the card tracker (K): Normal's choice in the game's words, public
facts only; the tracker's counts follow the log and never show a hidden card."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_app_dialogs import with_deal
from test_app_support import (
    StoppedClock,
    controller,
    make_app,
    play_one,
    screen_text,
    settle,
    start,
)

from unotable.ai.hint import ReasonPart, hint, normal_choice
from unotable.app.games import presentation_for
from unotable.app.hints import hint_sentence, kinds_worded
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.table import TableScreen
from unotable.app.tracker import HeartsTrack, UnoTrack, hand_events, track
from unotable.app.widgets.center import CenterPanel
from unotable.app.widgets.hand import HandView
from unotable.app.widgets.tracker import TrackerPanel, render_hearts, render_uno
from unotable.app.words import Seats
from unotable.engine import OUT_OF_TURN_KINDS, get_game

GAMES = [
    ("uno", 4, {}),
    ("uno-minecraft", 3, {}),
    ("uno-hearts", 4, {"pass_three": True, "shoot_the_moon": True}),
    ("wild-twist-hearts", 8, {}),
]


def random_positions(game: str, players: int, options: dict[str, Any], seed: int, steps: int):
    """(match, seat to act) along a random match, every step."""
    match = get_game(game).new_match(players, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.over:
            return
        if match.hand_over:
            match.next_hand()
            continue
        actors = match.actors()
        seat = match.current if match.current in actors else actors[0]
        yield match, seat
        legal = match.legal_actions(seat)
        turn = [a for a in legal if a.kind not in OUT_OF_TURN_KINDS] or legal
        match.apply(seat, rng.choice(turn))


# -- the hint, pure -------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_hint_is_legal_is_normals_choice_and_is_worded(
    game: str, players: int, options: dict[str, Any]
) -> None:
    words = presentation_for(game)
    names = ["You"] + [f"P{i}" for i in range(1, players)]
    for match, seat in random_positions(game, players, options, seed=3, steps=250):
        view = match.view(seat)
        advice = hint(view, game)
        assert advice is not None
        assert advice.action in view.legal
        assert advice.action == normal_choice(view, game)
        assert hint(view, game) == advice  # stable: the same position, the same hint
        assert {p.kind for p in advice.reason_parts} <= kinds_worded()
        sentence = hint_sentence(advice, words, names)
        assert sentence and "?" not in sentence and "None" not in sentence


def uno_hearts_discard(seat3: list[str]) -> Any:
    """Ana leads P5, Bo plays P9; seat 2 holds no purple but the Y13."""
    match = get_game("uno-hearts").from_deal(
        4,
        hands=[["P5", "G1", "G2"], ["P9", "G3", "G4"], ["Y13", "G10", "H3"], seat3],
        dealer=3,
        seed=4,
    )
    match.apply(0, "P5")
    match.apply(1, "P9")
    return match


def test_hint_reason_uses_public_facts_only() -> None:
    names = ["Ana", "Bo", "You", "Di"]
    words = presentation_for("uno-hearts")
    match = uno_hearts_discard(["P11", "G7", "G9"])
    advice = hint(match.view(2), "uno-hearts")
    assert advice is not None and str(advice.action) == "Y13"
    sentence = hint_sentence(advice, words, names)
    assert sentence == "Dump the Y13: you are void in purple and Bo is winning the trick with P9"
    # Di's hand is hidden: another hand there changes nothing in the hint
    other = uno_hearts_discard(["P7", "G5", "G6"])
    assert other.view(2).hand == match.view(2).hand
    assert hint(other.view(2), "uno-hearts") == advice
    hidden = {str(c) for seat in (0, 1, 3) for c in match.hands[seat]}
    assert not any(card in sentence for card in hidden)


def test_uno_hint_names_the_colour_held_most() -> None:
    match = get_game("uno").from_deal(
        3,
        hands=[["R7", "R2", "R3", "B3"], ["G1", "G2"], ["Y1", "Y2"]],
        first_discard="R5",
        draw_pile=["B6", "B7", "B8"],
        dealer=2,
    )
    advice = hint(match.view(0), "uno")
    assert advice is not None and str(advice.action) == "R7"
    assert ReasonPart("most_colour", suit="R", count=2) in advice.reason_parts
    sentence = hint_sentence(advice, presentation_for("uno"), ["You", "Bo", "Cy"])
    assert sentence == "Play R7: it keeps red, the colour you hold most (2 left)"


# -- the tracker, pure ----------------------------------------------------------------------


def test_tracker_counts_an_uno_hand() -> None:
    match = get_game("uno").from_deal(
        3,
        hands=[["R7", "W", "B3"], ["R2", "G4", "G5"], ["Y1", "Y2", "B9"]],
        first_discard="R5",
        draw_pile=["B6", "B7", "B8", "Y6"],
        dealer=2,
    )
    for seat, action in [(0, "R7"), (1, "R2"), (2, "draw"), (2, "keep"), (0, "W>G"), (1, "G4!")]:
        match.apply(seat, action)
    view = match.view(0)
    counts = track("uno", view, match.events_for(0))
    assert isinstance(counts, UnoTrack)
    by = {c.letter: c for c in counts.colours}
    assert (by["R"].played, by["G"].played, by["Y"].played, by["B"].played) == (3, 1, 0, 0)
    assert by["B"].yours == 1 and by["B"].unseen == 24
    assert dict(counts.wilds_played) == {"W": 1, "W+4": 0}
    assert counts.last_wild is not None
    assert (counts.last_wild.seat, counts.last_wild.before, counts.last_wild.after) == (0, "R", "G")
    assert counts.last_wd4 is None
    assert counts.one_card == (0, 1) and counts.called_uno == (1,)  # Ana forgot to call
    assert counts.draw_pile == 3 and counts.reshuffles == 0
    assert list(counts.discard) == list(view.discard)
    # seat 2 drew B6: only seat 2 saw it, and even for seat 2 it is no played card
    for viewer in (1, 2, None):
        seen = track("uno", match.view(viewer), match.events_for(viewer))
        assert isinstance(seen, UnoTrack)
        assert [c.played for c in seen.colours] == [c.played for c in counts.colours]
    text = render_uno(counts, Seats(["You", "Bo", "Cy"]), presentation_for("uno")).plain
    assert "Last Wild: You, Red → Green" in text
    assert "One card: You (no call), Bo (UNO called)" in text


def test_tracker_counts_a_hearts_hand() -> None:
    match = get_game("wild-twist-hearts").from_deal(
        4, hands=[["2C", "5H"], ["3C", "QS"], ["4C", "9D"], ["KC", "2H"]], dealer=3
    )
    for seat, action in [(0, "2C"), (1, "3C"), (2, "4C"), (3, "KC"), (3, "2H"), (0, "5H")]:
        match.apply(seat, action)
    match.apply(1, "QS")  # void in hearts: the queen goes on the trick
    counts = track("wild-twist-hearts", match.view(2), match.events_for(2))
    assert isinstance(counts, HeartsTrack)
    by = {s.letter: s for s in counts.suits}
    assert [str(c) for c in by["C"].played] == ["2C", "3C", "4C", "KC"]
    assert [str(c) for c in by["H"].played] == ["2H", "5H"]
    assert [str(c) for c in by["S"].played] == ["QS"] and by["D"].played == ()
    assert len(by["D"].out) == 13 and by["D"].yours == 1  # 9D is in seat 2's own hand
    assert counts.voids[1] == frozenset({"H"})
    assert counts.points_total == 27 and counts.points_out == 27
    assert counts.points_taken == (0, 0, 0, 0)
    assert (counts.danger_state, counts.danger_seat) == ("trick", 1)
    match.apply(2, "9D")  # Ana's 5H wins: 2 hearts and the queen
    after = track("wild-twist-hearts", match.view(2), match.events_for(2))
    assert isinstance(after, HeartsTrack)
    assert after.points_taken[0] == 15 and after.points_out == 12
    text = render_hearts(
        after, Seats(["Ana", "Bo", "You", "Di"]), presentation_for("wild-twist-hearts")
    )
    assert "Q♠: taken by Ana" in text.plain


def same_public_position(game: str, deal_a: dict[str, Any], deal_b: dict[str, Any], moves):
    """Two matches that differ only in hidden cards, after the same moves."""
    spec = get_game(game)
    players = len(deal_a["hands"])
    a = spec.from_deal(players, seed=2, **deal_a)
    b = spec.from_deal(players, seed=2, **deal_b)
    for seat, action in moves:
        a.apply(seat, action)
        b.apply(seat, action)
    return a, b


def test_tracker_never_depends_on_hidden_cards() -> None:
    # UNO: G7 is in Bo's hand or in Cy's; Ana cannot tell, nor can the tracker
    deal = {"first_discard": "R5", "draw_pile": ["B6", "B7", "B8"], "dealer": 2}
    a, b = same_public_position(
        "uno",
        {"hands": [["R7", "R2"], ["G7", "B1", "B2"], ["Y1", "B3", "B4"]], **deal},
        {"hands": [["R7", "R2"], ["Y1", "B1", "B2"], ["G7", "B3", "B4"]], **deal},
        [(0, "R2"), (1, "draw"), (1, "keep"), (2, "draw"), (2, "keep")],
    )
    assert track("uno", a.view(0), a.events_for(0)) == track("uno", b.view(0), b.events_for(0))
    # Wild Twist: the Q♠ sits with Bo or with Di
    hands_a = [["2C", "5H", "9H"], ["3C", "QS", "4D"], ["4C", "9D", "2D"], ["KC", "2H", "7S"]]
    hands_b = [["2C", "5H", "9H"], ["3C", "7S", "4D"], ["4C", "9D", "2D"], ["KC", "2H", "QS"]]
    moves = [(0, "2C"), (1, "3C"), (2, "4C"), (3, "KC")]
    a, b = same_public_position(
        "wild-twist-hearts", {"hands": hands_a, "dealer": 3}, {"hands": hands_b, "dealer": 3}, moves
    )
    words = presentation_for("wild-twist-hearts")
    seats = Seats(["You", "Bo", "Cy", "Di"])
    track_a = track("wild-twist-hearts", a.view(0), a.events_for(0))
    track_b = track("wild-twist-hearts", b.view(0), b.events_for(0))
    assert track_a == track_b
    assert isinstance(track_a, HeartsTrack) and isinstance(track_b, HeartsTrack)
    assert render_hearts(track_a, seats, words).plain == render_hearts(track_b, seats, words).plain
    assert track_a.danger_state == "out"


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_tracker_follows_the_log_through_reshuffles(
    game: str, players: int, options: dict[str, Any]
) -> None:
    for match, seat in random_positions(game, players, options, seed=5, steps=400):
        for viewer in (seat, None):
            view = match.view(viewer)
            counts = track(game, view, match.events_for(viewer))
            if isinstance(counts, UnoTrack):
                assert list(counts.discard) == list(view.discard)
                for c in counts.colours:
                    on_pile = sum(1 for card in view.discard if card.color == c.letter)
                    assert c.played == on_pile + c.reshuffled
            else:
                public = {c for pile in view.taken for c in pile} | {c for _, c, _ in view.trick}
                assert {c for s in counts.suits for c in s.played} == public


# -- at the table ---------------------------------------------------------------------------


def hint_deal() -> Any:
    return with_deal(
        controller("uno", ["human", "first", "first"], seed=3),
        hands=[["R7", "R2", "R3", "B3"], ["G1", "G2", "G3"], ["Y1", "Y2", "Y3"]],
        first_discard="R5",
        draw_pile=["B6", "B7", "B8", "Y6", "Y7", "Y8"],
        dealer=2,
    )


async def test_h_shows_the_hint_and_moves_the_cursor_to_its_card() -> None:
    app = make_app()
    ctrl = hint_deal()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        hand = table.query_one(HandView)
        assert str(hand.cards[hand.cursor]) == "R2"  # the turn starts on the first playable
        assert table.check_action("hint", ()) is True
        await pilot.press("h")
        await pilot.pause()
        assert str(hand.cards[hand.cursor]) == "R7"
        text = screen_text(app)
        assert "Hint: Play R7: it keeps red, the colour you hold most" in text
        assert "h Hint" in text and "k Tracker" in text
        await pilot.press("enter")  # Enter plays what the cursor is on: the hinted card
        await settle(pilot)
        assert [str(a) for s, a in ctrl.match.history if s == 0] == ["R7"]
        assert "Hint:" not in screen_text(app)  # the hint was for that turn only


async def test_no_hint_when_it_is_not_the_humans_turn() -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "human", "first"], seed=2)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        screen = await settle(pilot)
        assert isinstance(screen, HandOverScreen)  # hot-seat: the cards are hidden
        assert table.acting_human() is None
        assert table.check_action("hint", ()) is False
        table.action_hint()
        assert table._hint is None
        assert not any(
            b.action == "hint" and enabled for _, b, enabled, _ in table.active_bindings.values()
        )
    # a computer's turn that never comes (its clock stands still): nobody to hint to
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="slow"))
    ctrl = with_deal(
        controller("uno", ["first", "human"], seed=2, clock=StoppedClock(), speed="slow"),
        hands=[["R7", "R2"], ["G1", "G2"]],
        first_discard="R5",
        draw_pile=["B6", "B7", "B8"],
        dealer=1,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await pilot.pause()
        assert table.snap.waiting_on == 0 and not table.snap.my_turn
        assert table.check_action("hint", ()) is False
        await pilot.press("h")
        assert table._hint is None


async def test_k_toggles_the_tracker_in_the_middles_place() -> None:
    app = make_app()
    ctrl = controller("wild-twist-hearts", ["human"] + ["first"] * 7, seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        while not isinstance(await settle(pilot), TableScreen):
            await play_one(pilot)  # answer any dialog first (the Wild Club's opening)
        tracker = table.query_one(TrackerPanel)
        centre = table.query_one(CenterPanel)
        assert not tracker.display and centre.display
        await pilot.press("k")
        await pilot.pause()
        assert tracker.display and not centre.display
        text = screen_text(app)
        assert "Tracker" in text and "Voids:" in text and "Points out: 27 of 27" in text
        await pilot.press("g")  # the log takes the tracker's place
        await pilot.pause()
        assert table.query_one("#log").display and not tracker.display
        await pilot.press("g")
        await pilot.pause()
        assert centre.display
        await pilot.press("k", "k")
        await pilot.pause()
        assert not tracker.display and centre.display


async def test_tracker_counts_match_the_played_sequence() -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "normal", "normal", "normal"], seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await pilot.press("k")
        for _ in range(12):
            screen = await play_one(pilot)
            if not isinstance(screen, TableScreen) or ctrl.hand_over:
                break
        table = await settle(pilot)
        assert isinstance(table, TableScreen)
        tracker = table.query_one(TrackerPanel)
        snap = table.snap
        assert len(tracker.events) == snap.log_length  # the whole log, not just the new part
        counts = tracker.counts
        assert isinstance(counts, UnoTrack)
        view = snap.view
        plays = [e for e in hand_events(ctrl.match.log) if e.kind in ("play", "flip")]
        for c in counts.colours:
            on_pile = sum(1 for card in view.discard if card.color == c.letter)
            assert c.played == on_pile + c.reshuffled
            assert c.played == sum(1 for e in plays if e.cards[0].color == c.letter)
        text = screen_text(app)
        assert f"Draw pile {view.draw_pile_size}" in text


async def tracker_screen(hands: list[list[str]]) -> str:
    app = make_app()
    ctrl = with_deal(
        controller("wild-twist-hearts", ["human", "first", "first", "first"], seed=3),
        hands=hands,
        dealer=3,
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("k")
        await pilot.pause()
        return screen_text(app)


async def test_tracker_never_shows_an_opponents_card() -> None:
    # the Q♠ is only in Bo's hand, or only in Di's: the screen cannot tell which
    bo = await tracker_screen(
        [["2C", "5H", "9H"], ["3C", "QS", "4D"], ["4C", "9D", "2D"], ["KC", "2H", "7S"]]
    )
    di = await tracker_screen(
        [["2C", "5H", "9H"], ["3C", "7S", "4D"], ["4C", "9D", "2D"], ["KC", "2H", "QS"]]
    )
    assert "Q♠: not seen yet" in bo and "Tracker" in bo
    assert bo == di
