"""Every dialog, an illegal attempt, the UNO call and a catch, through keys only."""

from __future__ import annotations

from typing import Any

import pytest
from test_app_support import controller, make_app, screen_text, settle, start, until

from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.passing import PassCardsScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import NUMBER_KEYS, HandView
from unotable.controller import Controller
from unotable.engine import get_game


def with_deal(ctrl: Controller, **deal: Any) -> Controller:
    """Replace the controller's match by an explicit deal (same seats, options, seed)."""
    ctrl.match = get_game(ctrl.game_id).from_deal(
        len(ctrl.seats), dict(ctrl.match.options), ctrl.match.seed, **deal
    )
    return ctrl


def one_draw(first_drawn: str) -> Controller:
    """You (B5 B3) against a computer (G1 G2) on R1, nothing playable: D draws ``first_drawn``."""
    return with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["B5", "B3"], ["G1", "G2"]],
        first_discard="R1",
        dealer=1,
        draw_pile=[first_drawn, *UNO_PILE],
    )


def key_for(table: TableScreen, card: str) -> str:
    hand = table.query_one(HandView)
    index = [str(c) for c in hand.cards].index(card)
    return NUMBER_KEYS[index]


def last_actions(ctrl: Controller, seat: int) -> list[str]:
    return [str(a) for s, a in ctrl.match.history if s == seat]


UNO_PILE = ["B6", "B7", "B8", "Y6", "Y7", "Y8"]


# (name, game, kinds, options, deal, card to pick or None, title words, key, action)
SCENARIOS = [
    (
        "first card wild",
        "uno",
        ["human", "first"],
        {},
        {"hands": [["R7", "B3"], ["G1", "G2"]], "first_discard": "W", "dealer": 1},
        None,
        "choose the colour",
        "2",
        "color:Y",
    ),
    (
        "wild colour",
        "uno",
        ["human", "first"],
        {},
        {"hands": [["W", "B3"], ["G1", "G2"]], "first_discard": "R5", "dealer": 1},
        "W",
        "choose the colour",
        "4",
        "W>B",
    ),
    (
        "play or keep the drawn card",
        "uno",
        ["human", "first"],
        {},
        {
            "hands": [["B5", "B3"], ["G1", "G2"]],
            "first_discard": "R1",
            "dealer": 1,
            "draw_pile": ["R3", *UNO_PILE],
        },
        "draw",
        "can be played",
        "2",
        "keep",
    ),
    (
        "pass direction",
        "uno-hearts",
        ["human", "first", "first"],
        {},
        {"hands": [["P8", "Y5", "Y6"], ["P1", "Y1", "Y2"], ["P2", "Y3", "Y4"]], "dealer": 2},
        "P8",
        "Which way",
        "2",
        "direction:right",
    ),
    (
        "suit call",
        "uno-hearts",
        ["human", "first", "first"],
        {},
        {"hands": [["WD5", "Y5"], ["P1", "Y1"], ["P2", "Y3"]], "dealer": 2},
        "WD5",
        "call which suit",
        "1",
        "WD5>P",
    ),
    (
        "moon",
        "uno-hearts",
        ["human", "first"],
        {"shoot_the_moon": True},
        {"hands": [["H5"], ["H1"]], "dealer": 1},
        "H5",
        "shot the moon",
        "1",
        "moon:self",
    ),
]


@pytest.mark.parametrize(
    ("name", "game", "kinds", "options", "deal", "pick", "title", "key", "expected"),
    SCENARIOS,
    ids=[s[0] for s in SCENARIOS],
)
async def test_dialog(
    name: str,
    game: str,
    kinds: list[str],
    options: dict,
    deal: dict,
    pick: str | None,
    title: str,
    key: str,
    expected: str,
) -> None:
    ctrl = with_deal(controller(game, kinds, seed=1, **options), **deal)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        screen = await settle(pilot)
        if pick == "draw":
            await pilot.press("d")
        elif pick is not None:
            assert screen is table
            await pilot.press(key_for(table, pick))
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen), f"no dialog, {type(screen).__name__}"
        assert title in screen.title_text
        await pilot.press(key)
        await pilot.pause()
        assert expected in last_actions(ctrl, 0)


async def test_challenge_dialog() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["B5", "B3"], ["W+4", "W+4", "W+4"]],
        first_discard="G1",
        dealer=0,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen)
        assert "Wild Draw Four" in screen.title_text
        await pilot.press("1")
        await pilot.pause()
        assert last_actions(ctrl, 0) == ["challenge"]


async def test_pass_three_dialog() -> None:
    ctrl = with_deal(
        controller("uno-hearts", ["human", "first", "first"], seed=1, pass_three=True),
        hands=[["Y5", "Y6", "Y7"], ["P1", "Y1", "Y2"], ["P2", "Y3", "Y4"]],
        dealer=2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        screen = await settle(pilot)
        assert isinstance(screen, PassCardsScreen)
        await pilot.press("p")  # nothing chosen yet: refused
        assert isinstance(app.screen, PassCardsScreen)
        await pilot.press("space", "down", "space", "down", "space", "p")
        await settle(pilot)
        assert last_actions(ctrl, 0) == ["give:Y5,Y6,Y7"]


def _twist_seed(wanted: Any) -> int:
    spec = get_game("wild-twist-hearts")
    for seed in range(1, 500):
        if wanted(spec.new_match(4, {"length": 1}, seed)):
            return seed
    raise AssertionError("no seed found")


async def test_wild_club_opening_and_highest_or_lowest() -> None:
    def human_may_decline(match: Any) -> bool:
        wilds = [c for c in match.view(0).hand if str(c).startswith("W")]
        return (
            match.current == 0
            and "decline" in map(str, match.legal_actions(0))
            and (len(wilds) >= 3)
        )

    seed = _twist_seed(human_may_decline)
    ctrl = controller("wild-twist-hearts", ["human", "first", "first", "first"], seed, length=1)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen)
        assert "Wild Club" in screen.title_text
        await pilot.press("1")  # lead it as LOWEST
        await pilot.pause()
        assert last_actions(ctrl, 0) == ["WC>LOW"]
        # Later, any wild played asks HIGHEST or LOWEST.
        for _ in range(60):
            screen = await settle(pilot)
            if not isinstance(screen, TableScreen) or ctrl.hand_results:
                break
            hand = screen.query_one(HandView)
            wilds = [i for i in hand.playable if str(hand.cards[i]).startswith("W")]
            if wilds:
                await pilot.press(NUMBER_KEYS[wilds[0]] if wilds[0] < 10 else "enter")
                dialog = await settle(pilot)
                assert isinstance(dialog, ChoiceScreen)
                assert "HIGHEST or LOWEST" in dialog.title_text
                await pilot.press("2")
                await pilot.pause()
                assert last_actions(ctrl, 0)[-1].endswith(">LOW")
                return
            await pilot.press(NUMBER_KEYS[min(hand.playable)])
        pytest.fail("the human never held a playable wild")


async def test_illegal_card_shows_the_reason_and_changes_nothing() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["R7", "B3"], ["G1", "G2"]],
        first_discard="R5",
        dealer=1,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        before = len(ctrl.match.history)
        await pilot.press(key_for(table, "B3"))
        await pilot.pause()
        assert len(ctrl.match.history) == before
        status = str(table.query_one("#status").render())
        assert table.error and table.error in status
        assert "B3" in screen_text(app)  # still in the hand


async def test_uno_call_and_a_catch() -> None:
    # The "first" computer plays the plain card, never the UNO call: it gets exposed.
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["R7", "R8", "B9"], ["R2", "R3"]],
        first_discard="R5",
        dealer=1,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        await pilot.press(key_for(table, "R7"))  # 2 cards left: the computer's turn
        await settle(pilot)
        assert ctrl.exposed() == 1
        assert "press C to catch" in screen_text(app)
        await pilot.press("c")
        await settle(pilot)
        assert "catch:1" in last_actions(ctrl, 0)
        assert ctrl.view(0).hand_sizes[1] == 3
        # Now our own UNO call, marked with U before the play.
        await pilot.press("u")
        assert "UNO! will be called" in screen_text(app)
        await pilot.press(key_for(table, "R8"))
        await pilot.pause()
        assert last_actions(ctrl, 0)[-1] == "R8!"


async def test_a_mouse_click_plays_the_card() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"], seed=1),
        hands=[["R7", "B3", "G2"], ["G1", "G4"]],
        first_discard="R5",
        dealer=1,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        hand = table.query_one(HandView)
        column = hand.render_text().plain.splitlines()[0].index("R7")
        await pilot.click(HandView, offset=(column, 0))
        await pilot.pause()
        assert last_actions(ctrl, 0) == ["R7"]


async def test_an_unplayable_drawn_card_is_kept_and_the_status_says_why() -> None:
    ctrl = one_draw("G9")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        # send, then read the status before the computer gets the event loop
        table.send(0, ctrl.match.parse_action("draw"))
        assert not isinstance(app.screen, ChoiceScreen)  # nothing was asked
        assert last_actions(ctrl, 0) == ["draw", "keep"]
        status = str(table.status_text())
        assert "You drew G9: it does not match, so you keep it." in status


async def test_the_table_shows_the_drawn_card_before_the_dialog_asks_about_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """D draws a card that plays: the next frame is the table with the card in the hand;
    the dialog comes over it in the frame after. Opened at once, the dialog was the first
    thing the key showed, some 50 ms later (a dialog's frame is drawn whole), over a hand
    and a status line still as they were before the key."""
    from textual.screen import Screen

    ctrl = one_draw("R3")
    app = make_app()
    frames: list[tuple[str, int]] = []  # (the screen drawn, the cards in the hand shown)
    drawn = Screen._compositor_refresh

    def watched(screen: Screen[Any]) -> None:
        drawn(screen)
        if screen is not app.screen:
            return  # a screen under another one: nothing of it reaches the terminal
        hands = [s.query_one(HandView) for s in app.screen_stack if isinstance(s, TableScreen)]
        frames.append((type(screen).__name__, len(hands[0].cards) if hands else -1))

    monkeypatch.setattr(Screen, "_compositor_refresh", watched)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await settle(pilot)
        frames.clear()
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "no dialog")
        await settle(pilot)
    first_dialog = next(i for i, (name, _) in enumerate(frames) if name == "ChoiceScreen")
    assert ("TableScreen", 3) in frames[:first_dialog], frames
