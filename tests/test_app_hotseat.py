"""Hot-seat privacy: no human's cards on screen while another human is to act."""

from __future__ import annotations

from typing import Any

from test_app_support import (
    card_words,
    controller,
    drawn,
    make_app,
    play_one,
    screen_text,
    shows_any,
    start,
)

from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import HandView


async def test_two_humans_never_see_each_others_cards() -> None:
    # UNO Hearts: every card is unique, and pass three and Pass Hand move hands around.
    ctrl = controller("uno-hearts", ["human", "random", "human"], seed=11, pass_three=True)
    app = make_app()
    checks = {"frames": 0, "handovers": 0}
    table: list[TableScreen] = []

    def check_widgets(message: Any) -> None:
        # Runs between any two messages, i.e. before every frame the app could draw.
        hands = table[0].query(HandView) if table else []
        if not hands or ctrl.over:
            return
        turn = ctrl.turn()
        if not turn.human or turn.seat is None:
            return
        other = 2 if turn.seat == 0 else 0
        shown = {str(c) for c in hands.first().cards}
        theirs = {str(c) for c in hand_of(ctrl, other)}
        assert not shown & theirs, f"{sorted(shown & theirs)} of seat {other} on screen"
        checks["frames"] += 1

    async with app.run_test(size=(80, 24), message_hook=check_widgets) as pilot:
        table.append(await start(pilot, ctrl))
        for _ in range(400):
            screen = await play_one(pilot)
            if isinstance(screen, HandOverScreen):
                checks["handovers"] += 1
            if isinstance(screen, ScoreboardScreen):
                break
            turn = ctrl.turn()
            if turn.human and turn.seat is not None:
                other = 2 if turn.seat == 0 else 0
                # the cards this player passed to the other are theirs to know
                known = {
                    str(c)
                    for e in ctrl.match.log
                    if e.private_to and turn.seat in e.private_to
                    for c in e.cards
                }
                hidden = [c for c in ctrl.view(other).hand if str(c) not in known]
                words = card_words(hidden, table[0])
                leaked = shows_any(screen_text(app), words)
                assert not leaked, f"seat {other}'s {sorted(leaked)} on screen"
        assert ctrl.hand_results, "the hand did not finish"
    assert checks["handovers"] >= 3
    assert checks["frames"] > 100


async def test_handover_screen_hides_everything_private() -> None:
    ctrl = controller("uno", ["human", "human"], seed=3)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        await pilot.pause()
        assert isinstance(app.screen, HandOverScreen)
        first = ctrl.turn().seat
        assert first is not None
        text = screen_text(app)
        assert f"Pass to {ctrl.name(first)}" in text
        for seat in (0, 1):
            words = card_words(list(ctrl.view(seat).hand), app.screen_stack[-2])
            assert not shows_any(text, words)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert {str(c) for c in app.screen.query_one(HandView).cards} == {
            str(c) for c in ctrl.view(first).hand
        }


_HANDS: dict[tuple[int, int, int, int], tuple[Any, ...]] = {}


def hand_of(ctrl: Any, seat: int) -> tuple[Any, ...]:
    """``seat``'s hand, read once per position (the hook runs between every two messages)."""
    key = (id(ctrl), ctrl.version, len(ctrl.match.log), seat)
    if key not in _HANDS:
        _HANDS.clear()
        _HANDS[key] = ctrl.view(seat).hand
    return _HANDS[key]


_FORBIDDEN: dict[tuple[int, int, int, int | None], set[Any]] = {}


def forbidden_cards(ctrl: Any, viewer: int | None) -> set[Any]:
    """Cards of other humans that the screen's viewer may not know they hold.

    Computed once per position and viewer: the hook asks between every two messages.
    """
    key = (id(ctrl), ctrl.version, len(ctrl.match.log), viewer)
    if key not in _FORBIDDEN:
        _FORBIDDEN.clear()
        _FORBIDDEN[key] = _forbidden(ctrl, viewer)
    return _FORBIDDEN[key]


def _forbidden(ctrl: Any, viewer: int | None) -> set[Any]:
    knows = ctrl.view(viewer).known_hands if viewer is not None else None
    found: set[Any] = set()
    for human in ctrl.humans:
        if human == viewer:
            continue
        known = set(knows[human]) if knows is not None else set()
        found |= set(ctrl.view(human).hand) - known
    return found


async def test_every_frame_between_humans_holds_no_private_card() -> None:
    # Two humans with two computers between them, at 120x40 so the log is on screen too:
    # computers' turns, hand-overs, the last trick (T) and the scoreboard all checked.
    from unotable.app.screens.trick import LastTrickScreen

    ctrl = controller("uno-hearts", ["human", "normal", "human", "normal"], seed=5, pass_three=True)
    app = make_app()
    frames = {"hidden": 0, "shown": 0, "text": 0, "last_trick": 0}
    table: list[TableScreen] = []

    def check(message: Any) -> None:
        if not table or ctrl.over:
            return
        viewer = ctrl.screen_seat()
        views = table[0].query(HandView)
        if not views:  # the table is not composed yet, or already closing
            return
        hand = {c for c in views.first().cards}
        if viewer is None:
            assert not hand, f"cards on screen while nobody may see any: {hand}"
            frames["hidden"] += 1
        else:
            assert not hand & forbidden_cards(ctrl, viewer)
            frames["shown"] += 1

    def check_text() -> None:
        viewer = ctrl.screen_seat()  # dialogs over the table belong to the human deciding
        words = card_words(list(forbidden_cards(ctrl, viewer)), table[0])
        leaked = shows_any(screen_text(app), words)
        assert not leaked, (
            f"{sorted(leaked)} on screen for viewer {viewer} ({type(app.screen).__name__})"
        )
        frames["text"] += 1

    async with app.run_test(size=(120, 40), message_hook=check) as pilot:
        table.append(await start(pilot, ctrl))
        for step in range(600):
            screen = await play_one(pilot)
            await drawn(pilot)  # the screen the key led to, as the app has drawn it
            check_text()
            if isinstance(screen, ScoreboardScreen):
                break
            if step % 7 == 3 and isinstance(app.screen, TableScreen):
                await pilot.press("t")
                await pilot.pause()
                if isinstance(app.screen, LastTrickScreen):
                    check_text()
                    frames["last_trick"] += 1
                    await pilot.press("escape")
        assert ctrl.hand_results, "the hand did not finish"
    assert frames["hidden"] > 20 and frames["shown"] > 20 and frames["last_trick"] > 0


async def test_uno_hot_seat_hides_cards_through_catches_and_challenges() -> None:
    # Easy computers forget UNO and bluff: catches and challenges happen between the humans.
    ctrl = controller("uno", ["human", "easy", "human", "easy"], seed=2, target=60)
    app = make_app()
    seen = {"hidden": 0, "shown": 0}
    table: list[TableScreen] = []

    def check(message: Any) -> None:
        if not table or ctrl.over:
            return
        viewer = ctrl.screen_seat()
        hand = list(table[0].query_one(HandView).cards)
        if viewer is None:
            assert not hand
            seen["hidden"] += 1
        elif hand:
            seen["shown"] += 1

    async with app.run_test(size=(80, 24), message_hook=check) as pilot:
        table.append(await start(pilot, ctrl))
        for _ in range(300):
            screen = await play_one(pilot)
            if isinstance(screen, ScoreboardScreen) or ctrl.over:
                break
    kinds = {str(a).split(":")[0] for _, a in ctrl.match.history}
    assert seen["hidden"] > 10 and seen["shown"] > 10
    assert ctrl.hand_results and kinds & {"catch", "challenge", "accept"}
