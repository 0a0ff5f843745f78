"""Which strategy plays each game: a per-game registry, like the app's presentations.

A strategy module registers the games it knows (``register_strategy``); the built-in
ones are ``unotable.ai.uno`` and ``unotable.ai.hearts``, loaded on first use. A game
nobody registered still gets computer players at every level: the generic strategy,
which needs only the engine's view, legal actions and card facts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unotable.engine import TRICK_TAKING, Action, get_game

from .base import Brain

BrainFactory = Callable[[str, str], Brain]  # (level, game_id) -> a fresh brain
# (view, chosen action) -> (verb, reason parts) for the hint; see ``unotable.ai.hint``
Reasons = Callable[[Any, Action], tuple[str, list[Any]]]


@dataclass(frozen=True)
class Strategy:
    """How the computer plays one game.

    ``brain(level, game_id)`` gives the brain of a level ("easy", "normal", and "hard":
    the prior the search starts from). With ``searchable``, hard searches sampled worlds
    from the game's ``GameSpec.determinizer``; otherwise hard plays the "hard" brain.
    ``reasons`` explains a hint (None: the hint says what, not why).
    """

    brain: BrainFactory
    searchable: bool = False
    reasons: Reasons | None = None


_STRATEGIES: dict[str, Strategy] = {}
_loaded = False


def register_strategy(game_id: str, strategy: Strategy) -> None:
    """Play ``game_id`` with ``strategy`` (replacing any earlier one)."""
    _STRATEGIES[game_id] = strategy


def unregister_strategy(game_id: str) -> None:
    """Forget a registered strategy: the game falls back to the generic one."""
    _load_builtin()
    _STRATEGIES.pop(game_id, None)


def strategy_for(game_id: str) -> Strategy:
    """The registered strategy of ``game_id``, or the generic one."""
    _load_builtin()
    get_game(game_id)  # an unknown game raises UnknownGame here
    return _STRATEGIES.get(game_id, GENERIC)


def _load_builtin() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        from . import hearts, uno  # noqa: F401  # they register their games on import


# -- the generic strategy ---------------------------------------------------------------


class GenericBrain(Brain):
    """Any game: easy plays a random legal action; the other levels play a card whenever
    they can, shedding the most points first in a shedding game and giving the fewest
    away in a trick-taking one. Nothing but the Card protocol is read."""

    def __init__(self, level: str, game_id: str) -> None:
        self.easy = level == "easy"
        self.trick_taking = get_game(game_id).facts.family == TRICK_TAKING

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        if self.easy:
            return rng.choice(list(actions))
        plays = [a for a in actions if a.kind == "play" and a.card is not None]
        if not plays:
            return actions[0]
        sign = 1 if self.trick_taking else -1

        def cost(action: Action) -> tuple[int, int]:
            card = action.card
            assert card is not None
            rank = card.rank if isinstance(card.rank, int) else 0
            return (sign * card.points, sign * rank)

        return min(plays, key=cost)


GENERIC = Strategy(brain=GenericBrain)

__all__ = [
    "GENERIC",
    "GenericBrain",
    "Strategy",
    "register_strategy",
    "strategy_for",
    "unregister_strategy",
]
