"""The app's CSS is parsed once per process and shared by every app, per theme.

A wrong share would show one app's colours in another (say a light theme's in a dark one),
so each app's rules are checked against a Textual Stylesheet that parsed its own sources.
"""

from __future__ import annotations

from typing import Any

import pytest
import textual.css.stylesheet as textual_stylesheet
from test_app_support import controller, make_app, settle, start
from textual.css.stylesheet import Stylesheet

from unotable.app.stylesheet import SharedStylesheet


def described(rules: list[Any]) -> list[tuple[str, str]]:
    """Each rule's selectors and declarations (``RuleSet.css`` fails on some rules)."""
    return [(rule.selectors, repr(rule.styles.get_rules())) for rule in rules]


def own_parse(stylesheet: Stylesheet) -> list[tuple[str, str]]:
    """What Textual alone makes of the same sources and variables."""
    plain = stylesheet.copy()  # a plain Textual Stylesheet of the same sources
    assert type(plain) is Stylesheet
    plain.parse()
    return described(plain.rules)


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every source Textual's parser is handed from now on (its location)."""
    seen: list[str] = []
    parse = textual_stylesheet.parse

    def counting(scope: str, css: str, read_from: Any, **kwargs: Any) -> Any:
        seen.append(str(read_from))
        return parse(scope, css, read_from, **kwargs)

    monkeypatch.setattr(textual_stylesheet, "parse", counting)
    return seen


async def test_a_second_app_parses_no_css(parses: list[str]) -> None:
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert isinstance(first.stylesheet, SharedStylesheet)
    parses.clear()
    second = make_app()
    async with second.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        parsed_by_the_app = list(parses)
        assert described(second.stylesheet.rules) == own_parse(second.stylesheet)
    assert parsed_by_the_app == []


async def test_apps_with_different_themes_each_keep_their_own_colours() -> None:
    dark, light = make_app(), make_app(theme="textual-light")
    async with (
        dark.run_test(size=(80, 24)) as dark_pilot,
        light.run_test(size=(80, 24)) as light_pilot,
    ):
        await dark_pilot.pause()
        await light_pilot.pause()
        assert (dark.theme, light.theme) == ("standard", "textual-light")
        dark_rules = described(dark.stylesheet.rules)
        light_rules = described(light.stylesheet.rules)
        assert dark_rules == own_parse(dark.stylesheet)
        assert light_rules == own_parse(light.stylesheet)
        assert dark_rules != light_rules


async def test_a_theme_chosen_while_playing_reparses_with_its_colours() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        before = described(app.stylesheet.rules)
        app.theme = "textual-light"
        await pilot.pause()
        after = described(app.stylesheet.rules)
        assert after == own_parse(app.stylesheet)
        assert after != before


async def test_a_widget_is_styled_when_mounted_not_before() -> None:
    """Textual styles a widget whose classes change before it is mounted (``compact=True``,
    a class added as it is built) at once, and then again when it is mounted: the lobby
    took about one styling in four for nothing. The app styles it once, when mounted,
    with the classes it has by then."""
    from textual.widgets import Button, Input

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        styled: list[Any] = []
        apply = app.stylesheet.apply

        def counted(node: Any, **kwargs: Any) -> None:
            styled.append(node)
            apply(node, **kwargs)

        app.stylesheet.apply = counted  # type: ignore[method-assign]
        name = Input("Ana", compact=True)
        name.add_class("seat-name")
        button = Button("Start", compact=True, variant="primary")
        assert styled == []  # built, not mounted: nothing styled yet
        await app.screen.mount(name, button)
        assert styled.count(name) == 1 and styled.count(button) == 1
        # the classes given before mounting are in its styles
        assert name.has_class("seat-name", "-textual-compact")
        assert name.styles.border.top[0] in ("", "none")  # compact: no border
        name.add_class("taken")  # mounted: styled again at once, as Textual does
        assert styled.count(name) == 2


async def test_a_new_screen_comes_with_its_size_classes() -> None:
    """Textual gives a screen its size classes (``-wide``, ``-tall``, …) at its first
    resize, after its widgets are mounted and styled, and then styles them all again.
    The app gives them to the screen before it is mounted: the table's widgets are
    styled once as it opens, not twice (the second time was a sixth of opening it)."""
    from unotable.app.screens.table import TableScreen
    from unotable.app.widgets.hand import HandView

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert app.screen.has_class("-wide", "-tall")  # the lobby, from the start
        restyled: list[str] = []
        update = app.stylesheet.update_nodes

        def counted(nodes: Any, animate: bool = False) -> None:
            nodes = list(nodes)
            kinds = {type(n) for n in nodes}
            if TableScreen in kinds and HandView in kinds:  # the whole table, widgets in
                restyled.append("the table")
            update(nodes, animate=animate)

        app.stylesheet.update_nodes = counted  # type: ignore[method-assign]
        ctrl = controller("uno", ["human", "random", "random"], seed=3)
        table = await start(pilot, ctrl)
        await settle(pilot)
        assert table.has_class("-wide", "-tall") and not table.has_class("-very-wide")
        # the table's widgets are styled as they are mounted, and all again once as the
        # table comes to the top (Textual's ScreenResume); not again for its size classes
        assert restyled == ["the table"]
