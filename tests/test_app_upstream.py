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
