"""Each game's presentation, chosen by game id: the one place that lists the games.

A new game needs its module here and one line in ``_PRESENTATIONS``.
"""

from __future__ import annotations

from importlib import import_module

from .base import Ask, Dialog, GamePresentation, SeatRow

# game id -> "module:class", imported on first use
_PRESENTATIONS = {
    "uno": "uno:UnoPresentation",
    "uno-minecraft": "uno:MinecraftPresentation",
    "uno-hearts": "uno_hearts:UnoHeartsPresentation",
    "wild-twist-hearts": "wild_twist:WildTwistPresentation",
}

GAME_IDS = tuple(_PRESENTATIONS)


def presentation_for(
    game_id: str, theme: str = "standard", ascii_only: bool = False
) -> GamePresentation:
    """The presentation of ``game_id`` in a card theme and card style."""
    try:
        module, name = _PRESENTATIONS[game_id].split(":")
    except KeyError:
        raise ValueError(f"no presentation for the game {game_id!r}") from None
    cls: type[GamePresentation] = getattr(import_module(f"{__name__}.{module}"), name)
    return cls(theme, ascii_only)


__all__ = ["GAME_IDS", "Ask", "Dialog", "GamePresentation", "SeatRow", "presentation_for"]
