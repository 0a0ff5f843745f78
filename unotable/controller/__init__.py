"""The controller between the engine and the screens: seats, turns, pacing, privacy.

No Textual or rich here: the app drives a :class:`Controller`, and so can tests.
Names are loaded on first use, so the lobby can import ``seats`` without the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Controller": "controller",
    "LogEntry": "controller",
    "Turn": "controller",
    "SPEEDS": "pacing",
    "Pace": "pacing",
    "COMPUTER_LEVELS": "seats",
    "HUMAN": "seats",
    "SEAT_KINDS": "seats",
    "Seat": "seats",
    "default_seats": "seats",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'unotable.controller' has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
