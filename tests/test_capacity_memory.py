"""Memory stays flat over a long match: a thousand moves in one app leave no more live
widgets than the first hundred did.

Textual's Footer rebuilds its key widgets whenever the bindings change, and the old ones
stayed alive (Textualize/textual#6666): the table, whose keys change every turn, draws its
keys itself (KeysBar). This plays an 8-seat UNO match with a high target, a human with the
keys and seven quick computers on a virtual clock (the fewest key presses and pauses for
the moves: each move is still a snapshot drawn), and counts every live Widget after a
garbage collection: in the DOM, or detached but still referenced. With a Footer put back on
the table, the count grows by about one widget every four moves.
"""

from __future__ import annotations

import gc

from test_app_support import controller, make_app, play_one, start
from textual.widget import Widget

from unotable.app.screens.scoreboard import ScoreboardScreen

MOVES = 1000  # in all, the warm-up included
WARM_UP = 100  # moves before the first count: the table has drawn every part once
COUNTS = 4  # at 100, 400, 700 and 1000 moves
SLACK = 60  # widgets one moment may have beyond another (a dialog open, a toast)


def live_widgets() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, Widget))


async def test_a_thousand_moves_leave_no_more_widgets_alive() -> None:
    app = make_app()
    ctrl = controller("uno", ["human"] + ["random"] * 7, seed=5, target=10000)
    counts: list[tuple[int, int]] = []  # (moves so far, live widgets)
    step = (MOVES - WARM_UP) // (COUNTS - 1)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        for _ in range(MOVES):
            if len(counts) == COUNTS:
                break
            screen = await play_one(pilot)
            moves = len(ctrl.match.history)
            if moves >= WARM_UP + len(counts) * step and not isinstance(screen, ScoreboardScreen):
                counts.append((moves, live_widgets()))
        else:
            raise AssertionError(f"only {len(ctrl.match.history)} moves were played")
        assert not ctrl.over, "the match ended early: raise the target"
    assert counts[-1][0] >= MOVES
    first = counts[0][1]
    assert all(n - first <= SLACK for _, n in counts), (
        f"live widgets grew with the moves, (moves, widgets): {counts}"
    )
