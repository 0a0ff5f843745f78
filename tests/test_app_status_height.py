"""The status line under the hand keeps its height through a hand: the table does not jump."""

from __future__ import annotations

from collections import defaultdict

from test_app_support import controller, make_app, play_one, start
from textual.widgets import Static


async def test_the_status_line_never_shrinks_within_a_hand_and_never_cuts_its_words() -> None:
    # at 80 columns "your turn" takes two lines and "Bo is thinking" one: a status line that
    # followed its words made the whole table grow and shrink by a row every turn
    app = make_app()
    ctrl = controller("uno", ["human", "random", "random", "random"], seed=5, target=10000)
    heights: dict[int, list[int]] = defaultdict(list)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        status = table.query_one("#status", Static)
        while len(ctrl.match.history) < 80:
            await play_one(pilot)
            for _ in range(5):  # the frames while the computers play
                await pilot.pause()
                if status.size.height:
                    heights[table.snap.view.hand_number].append(status.size.height)
                    needed = len(status.content.wrap(app.console, status.content_size.width))
                    assert status.size.height >= min(needed, 4), status.content.plain
    assert len(heights[1]) > 30  # the first hand, seen frame by frame
    for hand, seen in heights.items():
        kept = [min(h, 2) for h in seen]  # a rare third line comes and goes with its words
        assert kept == sorted(kept), f"hand {hand}: the status line's height went {seen}"
