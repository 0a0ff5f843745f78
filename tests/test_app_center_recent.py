"""The middle of the table shows the newest lines, however little room a big hand leaves.

Found in tmux with draw to match: as Ann's hand grew to four rows, the middle box kept its
six recent lines and cut the newest off at its bottom edge, so the screen still showed a
draw from two turns before while the pile had moved on.
"""

from __future__ import annotations

from test_app_support import controller, make_app, play_one, screen_text, settle, start

from unotable.app.describe import describe
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.table import SKIPPED, TableScreen
from unotable.app.widgets.center import CenterPanel


def centre_text(app: object, panel: CenterPanel) -> str:
    """What the middle box shows on the terminal (inside its border)."""
    rows = screen_text(app).splitlines()
    box = panel.content_region
    return "\n".join(row[box.x : box.right] for row in rows[box.y : box.bottom])


def newest_line(table: TableScreen) -> str | None:
    snap = table.snap
    names = table.names()
    lines = [
        describe(e, names, table.card_style, snap.viewer)
        for e in snap.recent
        if e.kind not in SKIPPED
    ]
    lines = [line for line in lines if line]
    return lines[-1] if lines else None


async def test_the_newest_recent_line_shows_while_the_hand_grows() -> None:
    # Ana only draws: her hand grows row by row, and the middle box shrinks with it.
    ctrl = controller("uno", ["human", "first", "first", "first"], seed=20)
    app = make_app()
    checked = 0
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        while len(ctrl.match.hands[0]) < 24 and not ctrl.hand_over:
            screen = await settle(pilot)
            if isinstance(screen, ChoiceScreen):
                labels = [label for _key, label in screen.choices]
                keep = [i for i, label in enumerate(labels) if label.startswith("Keep")]
                await pilot.press(str((keep or [0])[0] + 1))  # keep the drawn card
            elif isinstance(screen, TableScreen) and screen.snap.waiting_on == 0:
                newest = newest_line(table)
                if newest is not None:
                    shown = " ".join(centre_text(app, table.query_one(CenterPanel)).split())
                    # the line may wrap: compare its words as the box shows them
                    assert " ".join(newest.split()) in shown, (
                        f"the newest line {newest!r} is not shown; the middle shows "
                        f"{shown!r} with {len(ctrl.match.hands[0])} cards in hand"
                    )
                    checked += 1
                await pilot.press("d")  # draw even with a playable card: the hand grows
            else:
                await play_one(pilot)
    assert checked >= 10
