"""Computer players. Each sees only its own seat's View (``view.legal`` lists its choices).

``make_player(level, game_id, seed)`` builds one; ``LEVELS`` names them: the baselines
"random" and "first", and the lobby's "easy", "normal" and "hard". A player is any object
with ``choose(view) -> Action`` returning one of ``view.legal``; the built-in levels also
have ``wants_to_act(view)`` for out-of-turn offers, and hard has a thread-safe
``cancel()`` and a ``budget_ms`` (see docs/ai.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from unotable.engine import Action, View

from .baseline import FirstLegalPlayer, RandomPlayer


class Player(Protocol):
    level: str

    def choose(self, view: View) -> Action:
        """One of ``view.legal``."""
        ...


PlayerFactory = Callable[[str, int], Player]  # (game_id, seed) -> player


def _level(level: str) -> PlayerFactory:
    def factory(game_id: str, seed: int) -> Player:
        from .levels import build  # the strategies load on first use

        return build(level, game_id, seed)

    return factory


_FACTORIES: dict[str, PlayerFactory] = {
    "random": lambda game_id, seed: RandomPlayer(seed),
    "first": lambda game_id, seed: FirstLegalPlayer(),
    "easy": _level("easy"),
    "normal": _level("normal"),
    "hard": _level("hard"),
}

LEVELS: tuple[str, ...] = tuple(_FACTORIES)


def register_level(level: str, factory: PlayerFactory) -> None:
    """Add a level (used by the strategy modules)."""
    global LEVELS
    _FACTORIES[level] = factory
    LEVELS = tuple(_FACTORIES)


def make_player(level: str, game_id: str, seed: int = 0) -> Player:
    try:
        factory = _FACTORIES[level]
    except KeyError:
        raise ValueError(
            f"unknown computer level {level!r}; choose one of {', '.join(LEVELS)}"
        ) from None
    return factory(game_id, seed)


__all__ = ["LEVELS", "FirstLegalPlayer", "Player", "RandomPlayer", "make_player", "register_level"]
