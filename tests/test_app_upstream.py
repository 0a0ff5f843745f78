"""Textual keeps the styles of widgets long gone in an lru_cache (Textualize/textual#6665):
the table lets go of them at each new hand, so a long evening's sessions stay small."""

from __future__ import annotations

from test_app_support import controller, make_app, play_one, start
from textual._styles_cache import StylesCache


async def test_each_new_hand_lets_go_of_styles_textual_kept() -> None:
    ctrl = controller("uno", ["human", "first"], seed=2, target=10000)
    app = make_app()
    sizes: list[tuple[int, int]] = []  # (hand, cached entries just after it was dealt)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        hand = ctrl.match.hand_number
        peak = 0
        while not sizes:
            await play_one(pilot)
            cached = StylesCache.get_inner_outer.cache_info().currsize
            if ctrl.match.hand_number != hand:
                hand = ctrl.match.hand_number
                await play_one(pilot)  # the new hand drawn
                sizes.append((hand, StylesCache.get_inner_outer.cache_info().currsize))
            peak = max(peak, cached)
    # the scoreboard, dialogs and notices of a hand filled it; the next hand started afresh
    assert all(size < peak for _, size in sizes), (sizes, peak)


async def test_a_text_that_grew_while_a_layout_was_pending_gets_its_new_height() -> None:
    """The status line was once cut to one line of two (a flaky NO_COLOR snapshot): its
    new text asked for a layout while an earlier request was still pending, and Textual
    kept the height worked out for the old text."""
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from unotable.app.upstream import refit_height

    class OneLine(App[None]):
        CSS = "#status { height: auto; width: 40; }"

        def compose(self) -> ComposeResult:
            yield Static("short", id="status")

    app = OneLine()
    async with app.run_test(size=(40, 10)) as pilot:
        status = app.query_one("#status", Static)
        await pilot.pause()
        assert status.size.height == 1
        status.refresh(layout=True)  # a request, still pending when...
        app.screen._clear_arrangement_cache()  # ...a frame lays the screen out
        app.screen._refresh_layout()
        status.update("a status line long enough to wrap onto a second one", layout=False)
        refit_height(status)
        await pilot.pause()
        await pilot.pause()
        assert status.size.height == 2
