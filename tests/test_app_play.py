"""Playing through the interface with the keyboard only (Textual pilot)."""

from __future__ import annotations

import pytest
from test_app_support import controller, make_app, play_one, start

from unotable.app.screens.scoreboard import ScoreboardScreen

GAMES = [
    ("uno", 4, 3, {}),
    ("uno-minecraft", 3, 22, {}),
    ("uno-hearts", 4, 5, {"pass_three": True, "shoot_the_moon": True}),
    ("wild-twist-hearts", 4, 5, {"length": 1}),
]


@pytest.mark.parametrize(("game", "players", "seed", "options"), GAMES)
async def test_a_complete_hand_with_keys_only(
    game: str, players: int, seed: int, options: dict
) -> None:
    app = make_app()
    ctrl = controller(game, ["human"] + ["random"] * (players - 1), seed=seed, **options)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        for _ in range(800):
            screen = await play_one(pilot)
            if isinstance(screen, ScoreboardScreen):
                break
        else:
            raise AssertionError("the hand did not end")
        assert len(ctrl.hand_results) == 1
        humans_moves = [a for s, a in ctrl.match.history if s == 0]
        assert humans_moves, "the human never acted"
