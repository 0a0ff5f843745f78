"""The one driver of every match: seats, who acts next, time, privacy, saving, the log.

No Textual or rich here: the app, ``sim``, tournaments, benchmarks and replay all drive
a :class:`Controller`, and so can tests. Names are loaded on first use, so the lobby can
import ``seats`` without the engine.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "Ask": "steps",
    "Controller": "controller",
    "LocalTable": "local",
    "Runner": "runner",
    "Table": "table",
    "News": "snapshot",
    "Command": "snapshot",
    "Ready": "snapshot",
    "TookKeyboard": "snapshot",
    "Seen": "snapshot",
    "SkipAhead": "snapshot",
    "SetSpeed": "snapshot",
    "TakeBack": "snapshot",
    "Say": "snapshot",
    "StartNow": "snapshot",
    "Leave": "snapshot",
    "Request": "controller",
    "Turn": "controller",
    "Clock": "clock",
    "RealClock": "clock",
    "VirtualClock": "clock",
    "SPEEDS": "pacing",
    "Pace": "pacing",
    "Intent": "snapshot",
    "SeatInfo": "snapshot",
    "Snapshot": "snapshot",
    "COMPUTER_LEVELS": "seats",
    "HUMAN": "seats",
    "SEAT_KINDS": "seats",
    "Seat": "seats",
    "computer_seed": "seats",
    "default_seats": "seats",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'unotable.controller' has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)
