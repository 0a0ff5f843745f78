"""Every screen shows its keys in the app's own one-line bar (no Textual Footer): the
screen's keys in order, the command palette's at the right, and a click presses the key."""

from __future__ import annotations

import gc
import weakref
from typing import Any, ClassVar

from test_app_support import controller, make_app, screen_text, settle, start, until
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Footer

from unotable.app.screens.help import RulesScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.keysbar import KeysBar


async def lobby_bar(pilot: Any) -> KeysBar:
    def drawn() -> bool:
        bars = pilot.app.screen.query(KeysBar)
        return bool(bars) and "Quit" in bars.first().words() and bars.first().region.width > 0

    await until(pilot, drawn, "the lobby's keys, laid out")
    return pilot.app.screen.query_one(KeysBar)


async def click_word(pilot: Any, bar: KeysBar, word: str) -> None:
    await until(pilot, lambda: bar.region.width > 0, "the bar laid out")
    column = bar.words().index(word)  # the line starts with a space: this is inside the word
    assert await pilot.click(bar, offset=(column + 1, 0))


async def test_the_lobby_bar_lists_its_keys_and_the_palette_at_the_right() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        bar = await lobby_bar(pilot)
        words = bar.words()
        assert words.startswith("s Start o Settings t Stats f1 Rules ? Keys q Quit")
        assert words.endswith("^p Commands")
        assert not app.screen.query(Footer)


async def test_a_click_on_a_key_in_the_bar_presses_that_key() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        bar = await lobby_bar(pilot)
        await click_word(pilot, bar, "Rules")
        await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules screen")


async def test_a_click_on_the_tables_draw_key_draws() -> None:
    app = make_app()
    ctrl = controller("uno", ["human", "first", "first"], seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        table = await settle(pilot)
        assert isinstance(table, TableScreen)
        before = len(ctrl.match.history)
        bar = table.query_one(KeysBar)
        await until(pilot, lambda: " Draw" in bar.words(), "the Draw key")
        assert "Commands" not in bar.words()  # the table's bar keeps its room for its keys
        await click_word(pilot, bar, "Draw")
        await until(pilot, lambda: len(ctrl.match.history) > before, "a draw")
        assert ctrl.match.history[before][1].kind == "draw"


async def test_dialogs_opened_and_closed_leave_no_key_widgets_behind() -> None:
    """Textual's Footer made a widget per key per dialog; the bar is one widget."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_bar(pilot)

        def live() -> int:
            gc.collect()
            return sum(1 for thing in gc.get_objects() if isinstance(thing, Widget))

        async def open_and_close() -> None:
            await pilot.press("f1")
            await until(pilot, lambda: isinstance(app.screen, RulesScreen), "the rules")
            closed = weakref.ref(app.screen)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, RulesScreen), "the lobby")

            def freed() -> bool:
                gc.collect()
                return closed() is None

            # its refresh timer holds it until its next tick, a frame away: gone after that
            await until(pilot, freed, "the closed rules freed")

        await open_and_close()
        first = live()
        for _ in range(10):
            await open_and_close()
        assert live() - first < 20


class ManyKeys(App[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(key, "bell", f"Word{key}", id=f"many.{key}") for key in "abcdefghij"
    ]

    def compose(self) -> ComposeResult:
        yield KeysBar(palette=False)


async def test_a_bar_too_long_for_the_terminal_ends_in_an_ellipsis() -> None:
    # ten keys need about 80 columns: on 40, the line says it goes on (? lists them all)
    app = ManyKeys()
    async with app.run_test(size=(40, 3)) as pilot:
        bar = app.screen.query_one(KeysBar)
        await until(pilot, lambda: "Wordj" in bar.words() and bar.region.width > 0, "keys")
        await pilot.pause()
        drawn = screen_text(app).splitlines()[bar.region.y].rstrip()
        assert drawn.startswith(" a Worda") and drawn.endswith("…"), drawn
