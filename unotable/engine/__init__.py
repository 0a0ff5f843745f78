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
    SHEDDING,
    TRICK_TAKING,
    Action,
    Card,
    Event,
    GameFacts,
    GameSpec,
    HandResult,
    Match,
    OptionSpec,
    View,
    parse_action,
)
from .errors import EngineError, IllegalAction, NotationError, OptionError

# the built-in games: game id -> module that defines SPECS; imported on first use
_GAME_MODULES = {
    "uno": "unotable.engine.uno",
    "uno-minecraft": "unotable.engine.uno",
    "uno-hearts": "unotable.engine.uno_hearts",
    "wild-twist-hearts": "unotable.engine.wild_twist",
}
_REGISTERED: dict[str, GameSpec] = {}  # games added with register_game()

# the built-in games and any registered since; ``game_ids()`` is always current
GAME_IDS: tuple[str, ...] = tuple(_GAME_MODULES)


class UnknownGame(OptionError):
    """No game has that id."""


def game_ids() -> tuple[str, ...]:
    """Every game's id: the built-in games, then the registered ones in order."""
    return (*_GAME_MODULES, *(g for g in _REGISTERED if g not in _GAME_MODULES))


def get_game(game_id: str) -> GameSpec:
    """The game with this id; UnknownGame (naming the ids) if there is none."""
    spec = _REGISTERED.get(game_id)
    if spec is not None:
        return spec
    module_name = _GAME_MODULES.get(game_id)
    if module_name is None:
        raise UnknownGame(f"unknown game {game_id!r}; choose one of {', '.join(game_ids())}")
    specs: dict[str, GameSpec] = import_module(module_name).SPECS
    return specs[game_id]


def register_game(spec: GameSpec) -> None:
    """Add a game (or replace one with the same id): ``get_game(spec.id)`` returns it."""
    global GAME_IDS
    if not isinstance(spec, GameSpec):
        raise TypeError(f"register_game takes a GameSpec, not {type(spec).__name__}")
    _REGISTERED[spec.id] = spec
    GAME_IDS = game_ids()


def unregister_game(game_id: str) -> None:
    """Forget a game added with ``register_game`` (the built-in ones stay)."""
    global GAME_IDS
    _REGISTERED.pop(game_id, None)
    GAME_IDS = game_ids()


__all__ = [
    "GAME_IDS",
    "OUT_OF_TURN_KINDS",
    "SHEDDING",
    "TRICK_TAKING",
    "Action",
    "Card",
    "EngineError",
    "Event",
    "GameFacts",
    "GameSpec",
    "HandResult",
    "IllegalAction",
    "Match",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "UnknownGame",
    "View",
    "game_ids",
    "get_game",
    "parse_action",
    "register_game",
    "unregister_game",
]
