"""At a shared table, players who choose at the same time are asked at the same time."""

from __future__ import annotations

import asyncio

from test_tables import seat_three, service  # noqa: F401  (the fixture)

from unotable.tables.service import TableService


async def test_every_player_chooses_the_cards_to_pass_at_once(service: TableService) -> None:  # noqa: F811
    ann, bo, cy = await seat_three(service, "uno-hearts", {"pass_three": True})
    (table,) = service.tables.values()
    # nobody has passed yet, and each of the three is asked for their cards
    for bot in (ann, bo, cy):
        await bot.until(lambda b: b.snap is not None and b.snap.my_turn, play=False)
    assert not {seat for seat, _ in table.controller.match.history} & {0, 1, 2}
    kinds = {a.kind for bot in (ann, bo, cy) for a in bot.snap.actions}
    assert kinds == {"give"}
    # each passes from the snapshot in hand, and the pass is done when all have chosen
    await asyncio.gather(
        *(bot.until(lambda b: b.snap.view.phase != "pass") for bot in (cy, ann, bo))
    )
