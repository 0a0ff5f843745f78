"""UNO's house rules (RULES §4) at the table: stacking, Seven-O and draw to match."""

from __future__ import annotations

from typing import Any

import pytest
from test_app_dialogs import UNO_PILE, key_for, last_actions, with_deal
from test_app_support import (
    controller,
    make_app,
    settle,
    shows_any,
    start,
    until,
)
from textual.widgets import RichLog

from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import HandView
from unotable.app.widgets.keysbar import KeysBar

SIZE = (120, 40)


def log_text(table: TableScreen) -> str:
    log = table.query_one("#log", RichLog)
    return "\n".join(strip.text for strip in log.lines)


def hand_words(cards: Any) -> list[str]:
    return [str(c) for c in cards]


async def test_stacked_draw_twos_are_taken_with_d() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1, stack="same"),
        hands=[["R+2", "Y+2", "R5", "G7"], ["B+2", "B3", "B4"], ["G+2", "G3", "G4"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press(key_for(table, "R+2"))
        screen = await settle(pilot)
        assert screen is table
        assert ctrl.view(0).pending == "stack" and ctrl.view(0).pending_draw == 6
        status = table.status_text().plain
        assert "Draw 6 or stack a Draw Two" in status, status
        assert "D to take the 6 cards" in status, status
        bar = table.query_one(KeysBar)
        await until(pilot, lambda: "d Take 6" in bar.words(), f"D named: {bar.words()}")
        await pilot.press("d")
        await until(pilot, lambda: "You take 6 cards" in log_text(table), "the log says 6 taken")
        assert "accept" in last_actions(ctrl, 0)
        assert len(ctrl.view(0).hand) == 3 + 6
        assert "Bo must draw 2 or stack" in log_text(table)


async def test_challenge_dialog_offers_the_stacks() -> None:
    ctrl = with_deal(
        controller("uno", ["first", "human", "first"], seed=1, stack="same", wd4_bluff=True),
        hands=[["W+4", "G5", "G6"], ["W+4", "B3", "B4"], ["G3", "G4", "G8"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start(pilot, ctrl)
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen)
        labels = [label for _, label in screen.choices]
        assert labels[:2] == ["Challenge Ana", "Accept: draw 4, miss the turn"]
        stacks = [label for label in labels if label.startswith("Stack ")]
        assert len(stacks) == 4  # one per colour
        assert all(label.endswith(": 8 cards go to Cy") for label in stacks), stacks
        await pilot.press(str(labels.index(stacks[0]) + 1))
        await until(pilot, lambda: any(s == 1 for s, _ in ctrl.match.history[1:]), "Bo stacked")
        assert str(next(a for s, a in ctrl.match.history if s == 1)).startswith("W+4")


async def test_seven_swap_dialog_names_players_and_counts() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1, seven_o=True),
        hands=[["R7", "R3", "G9"], ["B1", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press(key_for(table, "R7"))
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen), type(screen).__name__
        assert screen.title_text == "Swap hands with whom?"
        labels = [label for _, label in screen.choices]
        assert labels == ["Bo (5 cards)", "Cy (3 cards)"]
        mine = hand_words(ctrl.match.hands[0])
        cys = hand_words(ctrl.match.hands[2])
        await pilot.press("2")
        await until(pilot, lambda: "swap:2" in last_actions(ctrl, 0), "the swap was sent")
        assert await settle(pilot) is table  # Ana's turn again: her hand is Cy's old one
        assert hand_words(ctrl.match.hands[0]) == cys
        assert hand_words(table.query_one(HandView).cards) == cys
        assert set(hand_words(ctrl.match.hands[2])) <= set(mine) | set(UNO_PILE)
        await until(pilot, lambda: "You swap hands with Cy" in log_text(table), "swap logged")
        assert "You receive Cy's hand" in log_text(table)


async def test_hot_seat_swap_hands_over_before_the_new_hand() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "human", "first"], seed=1, seven_o=True),
        hands=[["R7", "R3", "G9"], ["R4", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot, ctrl)
        screen = await settle(pilot)
        if isinstance(screen, HandOverScreen):
            await pilot.press("enter")
            screen = await settle(pilot)
        assert screen is table
        await pilot.press(key_for(table, "R7"))
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen)
        assert [label for _, label in screen.choices] == ["Bo (5 cards)", "Cy (3 cards)"]
        await pilot.press("1")  # swap with Bo, who plays next
        await until(pilot, lambda: "swap:1" in last_actions(ctrl, 0), "the swap was sent")
        screen = await settle(pilot)
        assert isinstance(screen, HandOverScreen), type(screen).__name__
        assert ctrl.turn().seat == 1
        await pilot.press("enter")
        screen = await settle(pilot)
        assert screen is table
        shown = hand_words(table.query_one(HandView).cards)
        assert sorted(shown) == sorted(["R3", "G9"])  # Ana's hand, now Bo's
        assert sorted(hand_words(ctrl.view(1).hand)) == sorted(shown)


async def test_draw_to_match_logs_only_the_count_for_others() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1, draw_to_match=True),
        hands=[["G5", "G6", "G7"], ["R2", "R3", "B4"]],
        first_discard="G1",
        dealer=1,
        draw_pile=["Y2", "Y3", "R8", "G9", *UNO_PILE],
    )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press(key_for(table, "G5"))
        wanted = "Bo draws 4 cards to find a match"
        await until(pilot, lambda: wanted in log_text(table), "the draw to match logged")
        text = log_text(table)
        assert not shows_any(text, {"Y2", "Y3", "R8"}), text
        assert "draw to match" not in text
        assert text.count("Bo draws") == 1, text


@pytest.mark.parametrize(
    ("to_match", "words"),
    [(True, "press D to draw until a card does"), (False, "press D to draw a card")],
)
async def test_with_draw_to_match_d_says_it_draws_until_a_card_matches(
    to_match: bool, words: str
) -> None:
    # Ana holds nothing that matches the R1: with the rule, D draws until one does
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1, draw_to_match=to_match),
        hands=[["G5", "B6"], ["R2", "R3", "B4"]],
        first_discard="R1",
        dealer=1,
        draw_pile=["Y2", "Y3", "R8", *UNO_PILE],
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        # (the keys bar keeps "d Draw": at 80 columns a longer word cut "q Quit" off)
        assert words in " ".join(table.status_text().plain.split())
        await pilot.press("d")
        await until(pilot, lambda: "Y2" in hand_words(ctrl.match.hands[0]), "no draw")
        # one press drew the run (Y2, Y3, R8) with the rule; a single Y2 without it
        drawn = hand_words(ctrl.match.hands[0])
        assert ("R8" in drawn) is to_match, drawn
