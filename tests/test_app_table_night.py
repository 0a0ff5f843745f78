"""Rough edges players met at a table night (issue 27), each pinned by the real app."""

from __future__ import annotations

from typing import Any

from test_app_dialogs import UNO_PILE, last_actions, with_deal
from test_app_support import (
    StoppedClock,
    controller,
    footer_drawn,
    make_app,
    play_one,
    screen_text,
    settle,
    start,
    until,
)
from textual.widgets import RichLog

from unotable.app.describe import describe
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.logview import LogScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.settings import SettingsScreen
from unotable.app.widgets.center import CenterPanel
from unotable.app.widgets.cycle import Cycle
from unotable.app.widgets.hand import KEY_NAMES, PICK_KEYS, HandView
from unotable.controller import Controller, Intent, VirtualClock


async def test_a_drawn_card_that_leaves_one_is_offered_with_the_uno_call() -> None:
    # One card that does not play; the drawn R9 does, and leaves one card: UNO with it.
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["B3"], ["G7", "G8", "G9"]],
        first_discard="R5",
        dealer=1,
        draw_pile=["R9", *UNO_PILE],
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "no drawn-card dialog")
        text = screen_text(app)
        assert "1  Play R9 and call UNO!" in text
        assert "Play R9 without calling UNO" in text
        await pilot.press("1")
        await until(pilot, lambda: "R9!" in last_actions(ctrl, 0), "the call was not made")
        assert ctrl.view(0).hand_sizes[0] == 1 and ctrl.exposed() is None


async def test_changing_the_card_style_mid_match_keeps_the_log() -> None:
    ctrl = controller("uno", ["human", "first", "first"], seed=7)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        table = await start(pilot, ctrl)
        for _ in range(3):
            await play_one(pilot)
        await settle(pilot)
        log = table.query_one("#log", RichLog)
        lines = len(log.lines)
        assert lines >= 3
        await pilot.press("o")
        await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "no settings")
        app.screen.query_one("#card-style", Cycle).value = "ascii"
        await until(pilot, lambda: app.prefs.card_style == "ascii", "the style did not change")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is table, "settings did not close")
        assert len(log.lines) == lines, "the log was wiped by a change of card style"


async def test_a_continued_match_shows_its_log_at_once() -> None:
    # A match rebuilt from its record (Continue, --resume): the log is there before any move.
    played = controller("uno", ["human", "first", "first"], seed=7)
    played.run()
    played.submit(Intent(0, "draw"))
    played.run()
    record = played.to_record()
    again = Controller.from_record(record, clock=VirtualClock(), speed="instant")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        table = await start(pilot, again)
        await settle(pilot)
        log = table.query_one("#log", RichLog)
        await until(pilot, lambda: len(log.lines) >= 3, "the log was blank after Continue")
    # at 80 columns the log is folded away: the recent moves are the centre's
    again = Controller.from_record(record, clock=VirtualClock(), speed="instant")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, again)
        await settle(pilot)
        assert not table.query_one("#log").display
        lines = [describe(e, table.names(), table.card_style) for e in again.match.log]
        last = [line for line in lines if line and "deals" not in line][-1]
        assert last in screen_text(app), "no recent moves after Continue"


def twelve_cards() -> Any:
    """A human with twelve cards, to play first; the only one that plays (B5) sorts last."""
    hand = ["R1", "R2", "R3", "R4", "R6", "R7", "R8", "Y1", "Y2", "Y3", "Y4", "B5"]
    return with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[hand, ["G7", "G8", "G9"]],
        first_discard="G5",
        dealer=1,
        draw_pile=UNO_PILE,
    )


async def test_cards_past_the_tenth_have_keys_shown_under_them() -> None:
    # Shift and a number plays the twelfth card.
    ctrl = twelve_cards()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        shown = table.query_one(HandView)
        index = [str(c) for c in shown.cards].index("B5")
        assert index >= 10 and shown.playable == {index}
        key = PICK_KEYS[index]
        assert key in shown.render_text().plain.splitlines()[-2], "no key under the 11th card+"
        await pilot.press(KEY_NAMES[index])
        await until(pilot, lambda: last_actions(ctrl, 0) == ["B5"], "the key did not play it")


async def test_a_hand_past_the_tenth_card_keeps_its_height_between_turns() -> None:
    """The line on how to play cards past the tenth stays on the others' turns: a hand
    that lost and regained a line each turn laid the whole table out twice a turn."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, twelve_cards())
        await settle(pilot)
        shown = table.query_one(HandView)
        assert shown.playable and len(shown.cards) == 12
        on_turn = shown.line_count()
        shown.show(list(shown.cards), set(), shown.card_style)  # as drawn on the others' turns
        assert shown.line_count() == on_turn, shown.text_lines()
        assert "Cards 11" in shown.text_lines()[-1]


async def test_a_hidden_hand_keeps_its_rows() -> None:
    """Between hot-seat players the hand is hidden: it keeps the rows the cards took, so
    the table neither shrinks nor grows (nor is laid out anew) at each hand-over."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, twelve_cards())
        await settle(pilot)
        shown = table.query_one(HandView)
        rows, cards = shown.line_count(), list(shown.cards)
        assert rows == 3 and shown.outer_size.height >= rows  # chips, keys, the hint
        shown.hide("Cards are hidden until the next player takes the keyboard.")
        await pilot.pause()
        assert shown.line_count() == rows and not shown.cards
        assert "hidden" in shown.text_lines()[0]
        shown.show(cards, set(), shown.card_style)
        assert shown.line_count() == rows


async def test_keys_that_do_nothing_now_say_why() -> None:
    # hot-seat: no undo; and U with no card that leaves one says so, rather than nothing
    ctrl = with_deal(
        controller("uno", ["human", "human"], seed=1),
        hands=[["B3", "G2", "Y4"], ["G7", "G8", "G9"]],
        first_discard="R5",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over")
        await pilot.press("enter")
        await until(pilot, lambda: table.acting_human() == 0, "Ana never got the keyboard")
        await pilot.press("z")
        await until(pilot, lambda: notices(app, "Undo is only for one human"), "z said nothing")
        await pilot.press("c")
        await until(pilot, lambda: notices(app, "Nobody can be caught"), "c said nothing")


async def test_the_footer_offers_no_play_while_the_cards_are_hidden() -> None:
    # hot-seat, and the computer's turn never comes: after Ana's play, no cards on screen
    ctrl = controller(
        "uno", ["human", "first", "human"], seed=2, clock=StoppedClock(), speed="slow"
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over")
        await pilot.press("enter")
        await until(pilot, lambda: table.acting_human() is not None, "nobody got the keyboard")
        await play_one(pilot)
        await until(
            pilot,
            lambda: app.screen is table and table.snap.viewer is None,
            "the cards stayed on screen after the play",
        )
        await footer_drawn(pilot)
        offered = {b.action for _, b, enabled, _ in table.active_bindings.values() if enabled}
        assert not offered & {"play", "draw", "hint"}
        assert "Play" not in footer_words(table) and "Draw" not in footer_words(table)


def notices(app: Any, words: str) -> bool:
    return any(words in str(n.message) for n in app._notifications)


def footer_words(screen: Any) -> str:
    from unotable.app.widgets.keysbar import KeysBar

    return screen.query_one(KeysBar).words()


async def test_sort_keeps_the_cursor_on_its_card() -> None:
    ctrl = controller("uno", ["human", "first"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        hand = table.query_one(HandView)
        await pilot.press("right", "right")
        card = hand.cards[hand.cursor]
        for _ in range(2):
            await pilot.press("s")
            await pilot.pause()
            assert hand.cards[hand.cursor] is card


async def test_q_on_the_hand_over_screen_asks_to_leave() -> None:
    ctrl = controller("uno", ["human", "human"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over")
        await pilot.press("q")
        await until(pilot, lambda: app.screen.has_class("quit-dialog"), "q did nothing")
        await pilot.press("1")  # keep playing: the hand-over comes back
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over again")
        assert table.snap.viewer is None


async def test_narrowing_the_terminal_brings_the_pile_back() -> None:
    ctrl = controller("uno", ["human", "first", "first"], seed=7)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        assert table.query_one("#log").display
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: app.size == (80, 24), "no resize")
        await pilot.pause()
        assert not table.query_one("#log").display
        assert table.query_one(CenterPanel).display


async def test_notices_stay_clear_of_the_hand_and_the_status_line() -> None:
    ctrl = controller("uno", ["human", "first"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("s")  # "Sorted by value": a notice
        await until(pilot, lambda: bool(table.query("Toast")), "no notice")
        await pilot.pause()
        toast = table.query("Toast").first()
        hand_top = table.query_one("#hand-box").region.y
        assert toast.region.bottom <= hand_top, "the notice covers the hand or the status"


async def test_the_results_show_what_each_player_still_held_and_g_opens_the_log() -> None:
    # Ana goes out with R7; Bo still holds G1 and G2, which score for her.
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1),
        hands=[["R7"], ["G1", "G2"], ["B1", "B2"]],
        first_discard="R5",
        dealer=2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press("1")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "no results")
        text = screen_text(app)
        assert "Bo still held: G1 G2" in text and "Cy still held: B1 B2" in text
        await pilot.press("g")
        await until(pilot, lambda: isinstance(app.screen, LogScreen), "g did not open the log")
        assert "plays R7" in screen_text(app) or "play R7" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ScoreboardScreen), "no way back")


async def test_each_hot_seat_player_is_told_privately_which_cards_they_received() -> None:
    ctrl = controller("uno-hearts", ["human", "human", "first"], seed=11, pass_three=True)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        for _ in range(40):  # both humans choose their three cards, each at their turn
            if ctrl.view(0).phase != "pass":
                break
            await play_one(pilot)
        while (screen := await settle(pilot)) is not table:
            assert isinstance(screen, HandOverScreen)
            await pilot.press("enter")  # the next human takes the keyboard
        seat = table.acting_human()
        assert seat is not None
        received = next(e for e in ctrl.match.log if e.kind == "pass" and e.data.get("to") == seat)
        words = " ".join(table.card_style.label(c) for c in received.cards)
        assert words in screen_text(app), "the player was not told which cards they got"
        # a pass between two other seats stays secret
        theirs = next(
            e for e in ctrl.match.log if e.kind == "pass" and seat not in (e.private_to or ())
        )
        secret = " ".join(table.card_style.label(c) for c in theirs.cards)
        assert secret not in screen_text(app), "someone else's pass showed"


async def test_the_challenger_sees_the_challenged_hand_before_the_next_hand_over() -> None:
    # Ana's Wild Draw Four is legal (no red card): Bo challenges, loses, and is shown her
    # hand, to him alone, before the keyboard goes back to her.
    ctrl = with_deal(
        controller("uno", ["human", "human"], seed=1),
        hands=[["W+4", "G1", "G2"], ["Y1", "Y2", "Y3"]],
        first_discard="R5",
        dealer=1,
        draw_pile=[*UNO_PILE, "B2", "B3", "B4", "B5", "Y9"],
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over")
        await pilot.press("enter")
        await until(pilot, lambda: table.acting_human() == 0, "Ana never got the keyboard")
        table.send(0, ctrl.match.parse_action("W+4>G"))
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over to Bo")
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "no challenge dialog")
        await pilot.press("1")  # challenge
        await until(
            pilot,
            lambda: "shown to Bo only" in screen_text(app),
            "Bo was not shown Ana's hand",
        )
        assert "G1 G2" in screen_text(app)
        await pilot.press("1")  # seen
        await until(pilot, lambda: isinstance(app.screen, HandOverScreen), "no hand-over to Ana")
        assert "G1 G2" not in screen_text(app)
