"""Two finds of the key storm (tests/test_keystorm.py), pinned down one by one."""

from __future__ import annotations

from textual.app import App
from textual.widgets import Label

from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.help import RulesScreen


class Host(App[None]):
    def compose(self):  # type: ignore[no-untyped-def]
        yield Label("underneath")


async def test_a_dialog_answered_twice_closes_once_with_the_first_answer() -> None:
    # "1 1" typed fast: the second key reached the dialog as it was closing
    app = Host()
    answers: list[str | None] = []
    async with app.run_test() as pilot:
        dialog = ChoiceScreen("Which?", [("a", "A"), ("b", "B")])
        app.push_screen(dialog, answers.append)
        await pilot.pause()
        dialog.choose("a")
        dialog.choose("b")  # raised ScreenStackError, or closed the screen underneath
        await pilot.pause()
        assert answers == ["a"] and app.screen is app.screen_stack[0]


async def test_rules_closed_while_they_open_raise_nothing() -> None:
    app = Host()
    async with app.run_test() as pilot:
        rules = RulesScreen("uno")
        app.push_screen(rules)
        await pilot.pause()
        await rules.query_one("#rules-text").remove()  # as when Escape came before its mount
        rules.on_mount()
        await pilot.pause()
        assert app.screen is rules
