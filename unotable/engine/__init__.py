"""The rules engine: pure Python, no UI and no I/O.

>>> from unotable.engine import get_game
>>> match = get_game("uno").new_match(players=4, seed=7)
>>> seat = match.current
>>> events = match.apply(seat, match.legal_actions(seat)[0])
"""

from __future__ import annotations

from importlib import import_module

from .core import (
    OUT_OF_TURN_KINDS,
    Action,
    Card,
    Event,
    GameSpec,
    HandResult,
    Match,
    OptionSpec,
    View,
    parse_action,
)
from .errors import EngineError, IllegalAction, NotationError, OptionError

# game id -> module that defines SPEC; imported on first use
_GAME_MODULES = {
    "uno": "unotable.engine.uno",
    "uno-minecraft": "unotable.engine.uno",
    "uno-hearts": "unotable.engine.uno_hearts",
    "wild-twist-hearts": "unotable.engine.wild_twist",
}

GAME_IDS: tuple[str, ...] = tuple(_GAME_MODULES)


class UnknownGame(OptionError):
    """No game has that id."""


def get_game(game_id: str) -> GameSpec:
    """The game with this id; UnknownGame (naming the ids) if there is none."""
    module_name = _GAME_MODULES.get(game_id)
    if module_name is None:
        raise UnknownGame(f"unknown game {game_id!r}; choose one of {', '.join(GAME_IDS)}")
    specs: dict[str, GameSpec] = import_module(module_name).SPECS
    return specs[game_id]


__all__ = [
    "GAME_IDS",
    "OUT_OF_TURN_KINDS",
    "Action",
    "Card",
    "EngineError",
    "Event",
    "GameSpec",
    "HandResult",
    "IllegalAction",
    "Match",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "UnknownGame",
    "View",
    "get_game",
    "parse_action",
]
