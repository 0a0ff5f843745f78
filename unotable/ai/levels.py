"""The lobby's levels (easy, normal, hard) for every game: brains plus level knobs.

The brains come from the game's registered strategy (``unotable.ai.strategies``), or
the generic one for a game nobody registered.
"""

from __future__ import annotations

from typing import Any

from unotable.engine import get_game

from .base import Brain, ComputerPlayer
from .search import DEFAULT_BUDGET_MS, SearchBrain
from .strategies import strategy_for

# (call UNO with the play, late call when left exposed, catch an exposed seat)
KNOBS = {
    "easy": (0.85, 0.5, 0.35),
    "normal": (1.0, 1.0, 0.95),  # forgetting UNO is left to easy
    "hard": (1.0, 1.0, 1.0),
}


def _brain(level: str, game_id: str) -> Brain:
    return strategy_for(game_id).brain(level, game_id)


class HardPlayer(ComputerPlayer):
    """A search player; ``cancel()`` (thread-safe) ends the current decision early."""

    brain: SearchBrain

    def cancel(self) -> None:
        self.brain.cancel()

    @property
    def budget_ms(self) -> float:
        return self.brain.budget_ms

    @budget_ms.setter
    def budget_ms(self, value: float) -> None:
        self.brain.budget_ms = value


def build(level: str, game_id: str, seed: int, **settings: Any) -> ComputerPlayer:
    """A player of ``level``. Hard takes ``budget_ms`` and ``worlds`` (fixed, for tests)."""
    call, late, catch = KNOBS[level]
    strategy = strategy_for(game_id)
    if level == "hard" and strategy.searchable and get_game(game_id).determinizer is not None:
        brain = SearchBrain(
            game_id,
            strategy.brain("hard", game_id),
            budget_ms=settings.get("budget_ms", DEFAULT_BUDGET_MS),
            worlds=settings.get("worlds"),
        )
        return HardPlayer(level, game_id, seed, brain, call_uno=call, late_call=late, catch=catch)
    return ComputerPlayer(
        level, game_id, seed, _brain(level, game_id), call_uno=call, late_call=late, catch=catch
    )
