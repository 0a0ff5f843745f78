"""Each game's presentation, chosen by game id, and the games' titles.

The list of games is the engine's registry (``unotable.engine.game_ids``); this is where
each one's look and title come from. A built-in game's presentation is imported on first
use; another game registers its class with ``register_presentation``.
"""

from __future__ import annotations

from importlib import import_module

from .base import Ask, Dialog, GamePresentation, SeatRow

# the built-in games: game id -> "module:class", imported on first use
_BUILTIN = {
    "uno": "uno:UnoPresentation",
    "uno-minecraft": "uno:MinecraftPresentation",
    "uno-hearts": "uno_hearts:UnoHeartsPresentation",
    "wild-twist-hearts": "wild_twist:WildTwistPresentation",
}
_REGISTERED: dict[str, type[GamePresentation]] = {}

GAME_IDS = tuple(_BUILTIN)  # the built-in games; see ``unotable.engine.game_ids()``


def register_presentation(game_id: str, cls: type[GamePresentation]) -> None:
    """Show ``game_id`` with ``cls`` (replacing any earlier presentation of it)."""
    _REGISTERED[game_id] = cls


def unregister_presentation(game_id: str) -> None:
    _REGISTERED.pop(game_id, None)


def presentation_class(game_id: str) -> type[GamePresentation]:
    """The presentation class of ``game_id``; ValueError if it has none."""
    cls = _REGISTERED.get(game_id)
    if cls is not None:
        return cls
    try:
        module, name = _BUILTIN[game_id].split(":")
    except KeyError:
        raise ValueError(f"no presentation for the game {game_id!r}") from None
    found: type[GamePresentation] = getattr(import_module(f"{__name__}.{module}"), name)
    return found


def presentation_for(
    game_id: str, theme: str = "standard", ascii_only: bool = False
) -> GamePresentation:
    """The presentation of ``game_id`` in a card theme and card style."""
    return presentation_class(game_id)(theme, ascii_only)


def game_title(game_id: str) -> str:
    """What the screens call the game: its presentation's title."""
    return presentation_class(game_id).title


def game_titles() -> dict[str, str]:
    """game id -> title, for every game of the engine's registry that has a presentation."""
    from unotable.engine import game_ids

    titles = {}
    for game_id in game_ids():
        try:
            titles[game_id] = game_title(game_id)
        except ValueError:
            continue  # an engine-only game (played headless, e.g. in sim)
    return titles


__all__ = [
    "GAME_IDS",
    "Ask",
    "Dialog",
    "GamePresentation",
    "SeatRow",
    "game_title",
    "game_titles",
    "presentation_class",
    "presentation_for",
    "register_presentation",
    "unregister_presentation",
]
