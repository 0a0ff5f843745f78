"""Helpers for the app's pilot tests: drive the table with keys like a player would.

(Named test_app_* so it sits with the app tests; it checks its own helpers too.)
"""

from __future__ import annotations

import io
import re
from typing import Any

from rich.console import Console

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.passing import PassCardsScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import NUMBER_KEYS, HandView
from unotable.controller import Clock, Controller, Seat, VirtualClock


def make_app(**prefs: Any) -> UnoTableApp:
    """An app with instant computers and no files touched."""
    settings = Prefs(speed="instant", **prefs)
    return UnoTableApp(use_store=False, prefs=settings)


def controller(
    game: str,
    kinds: list[str],
    seed: int = 1,
    *,
    clock: Clock | None = None,
    speed: str = "instant",
    **options: Any,
) -> Controller:
    """A table on a virtual clock (its runner never waits real time), unless ``clock``."""
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]
    seats = [Seat(names[i], kind) for i, kind in enumerate(kinds)]
    return Controller(
        game, seats, options or None, seed, clock=clock or VirtualClock(), speed=speed
    )


class StoppedClock:
    """Time that never moves on, and is not virtual: a computer's paced turn never comes,
    however slow the machine (on a real clock it could act before a slow test looks)."""

    def now(self) -> float:
        return 0.0


def screen_text(app: Any) -> str:
    """Everything on the terminal now, as plain text (as a screenshot would show it)."""
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, legacy_windows=False
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


def card_words(cards: list[Any], table: TableScreen) -> set[str]:
    style = table.card_style
    return {style.label(c) for c in cards}


def shows_any(text: str, labels: set[str]) -> set[str]:
    found = set()
    for label in labels:
        if re.search(rf"(?<![\w+-]){re.escape(label)}(?![\w+-])", text):
            found.add(label)
    return found


async def drawn(pilot: Any, limit: int = 200) -> None:
    """Pause until the screen has drawn all the app has done: no message, layout, repaint
    or after-refresh callback left. Textual draws on a timer (a pause draws at once); what
    a test reads must not depend on whether the timer has run meanwhile."""
    from textual._wait import wait_for_idle

    for _ in range(limit):
        await pilot._wait_for_screen()
        await wait_for_idle(0)
        screen = pilot.app.screen
        pending = (
            screen._layout_required
            or screen._scroll_required
            or screen._repaint_required
            or screen._recompose_required
            or screen._dirty_widgets
            or screen._callbacks
        )
        if not pending:
            return
        screen._on_timer_update()
    raise AssertionError("the screen never finished drawing")


async def settle(pilot: Any, limit: int = 2000) -> Any:
    """Pause until the app waits for a human: a dialog, a hand-over or a human's turn.

    Time at the table is virtual: the table's runner jumps its clock to each computer's
    due moment at once, so no test waits real time for pacing.
    """
    app = pilot.app
    for _ in range(limit):
        await drawn(pilot)
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return screen
        if screen.snap.over:
            return screen
        # a dialog the snapshot asks for opens once the table has drawn it: not settled yet
        waiting = screen._opened is not None or screen._open_after_frame
        if screen.acting_human() is not None and not waiting:
            return screen
    raise AssertionError("the app never came to a human decision")


async def until(pilot: Any, check: Any, what: str, limit: int = 2000) -> None:
    """Pause until ``check()`` holds: wait on the app's state, never on the clock.

    The first pauses only let the app run; later ones also give real time to what the app
    waits on outside its loop (a table service's socket, a computer's thread), so that a
    loaded machine gives it at least half a minute before this calls it a hang."""
    for turn in range(limit):
        if check():
            return
        if turn >= 200:
            await pilot.pause(0.02)
        await drawn(pilot)
    app = pilot.app
    shown = " ".join(screen_text(app).split())[-600:]
    raise AssertionError(f"never happened: {what} (on {type(app.screen).__name__}: {shown!r})")


async def footer_drawn(pilot: Any, limit: int = 500) -> None:
    """Pause until the keys bar shows exactly the screen's keys (before a snapshot)."""
    from unotable.app.widgets.keysbar import KeysBar

    steady = 0
    for _ in range(limit):
        await pilot.pause()
        # the keys on screen: the top screen's, or the one under a dialog that has none
        with_keys = [s for s in pilot.app.screen_stack if s.query(KeysBar)]
        if not with_keys:
            return
        screen = with_keys[-1]
        bar = screen.query(KeysBar).first()
        wanted: list[str] = []
        word_for = getattr(screen, "key_word", None)
        for _, b, _enabled, _ in screen.active_bindings.values():
            word = (word_for(b.action) if word_for else None) or b.description
            entry = f"{pilot.app.get_key_display(b)} {word}"
            if b.show and not any(w.endswith(f" {word}") for w in wanted):
                wanted.append(entry)
        words = bar.words().split()
        # the bar may end with the command palette's key
        steady = (
            steady + 1 if words[: len(" ".join(wanted).split())] == " ".join(wanted).split() else 0
        )
        if steady >= 3:
            return
    raise AssertionError("the footer never showed the screen's keys")


async def play_one(pilot: Any) -> Any:
    """One human decision, made with keys only: the first playable card, or the first choice."""
    screen = await settle(pilot)
    if isinstance(screen, HandOverScreen | ScoreboardScreen):
        await pilot.press("enter")
    elif isinstance(screen, PassCardsScreen):
        await pilot.press("space", "down", "space", "down", "space", "p")
    elif isinstance(screen, ChoiceScreen):
        await pilot.press("1")
    elif isinstance(screen, TableScreen):
        hand = screen.query_one(HandView)
        if not hand.playable:
            await pilot.press("d")
        else:
            index = min(hand.playable)
            if index < len(NUMBER_KEYS):
                await pilot.press(NUMBER_KEYS[index])
            else:
                while hand.cursor != index:
                    await pilot.press("right")
                await pilot.press("enter")
    return screen


async def own_turn(pilot: Any) -> TableScreen:
    """Settle at the table on a human's turn, answering the game's own questions first (a
    challenge, a colour): a lobby match's random deal may open with one."""
    while not isinstance(screen := await settle(pilot), TableScreen):
        await play_one(pilot)
    return screen


async def start(pilot: Any, ctrl: Controller) -> TableScreen:
    pilot.app.start_match(ctrl)
    await pilot.pause()
    table = next(s for s in pilot.app.screen_stack if isinstance(s, TableScreen))
    return table


def test_shows_any_matches_whole_card_names() -> None:
    assert shows_any("Ana plays Y13 ", {"Y1"}) == set()
    assert shows_any("[ Y1 ]", {"Y1"}) == {"Y1"}
    assert shows_any("R+2 R-skip", {"R", "R+2"}) == {"R+2"}


def play_headless(ctrl: Controller, done: Any, limit: int = 5000) -> None:
    """Play on without a screen until ``done()``: computers think as at the table, each
    human plays their first legal action. For tests about what a screen shows at a moment
    deep in a match: the screen draws that moment from the controller alone."""
    from unotable.controller.runner import Runner

    runner = Runner(ctrl)
    for _ in range(limit):
        if done():
            return
        turn = runner.run(max_actions=1, deal=False)
        if done():
            return
        if ctrl.hand_over and not ctrl.over:
            ctrl.next_hand()
        elif turn.human and turn.seat is not None:
            ctrl.apply(turn.seat, ctrl.legal(turn.seat)[0])
    raise AssertionError("never happened while playing on")
