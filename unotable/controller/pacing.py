"""How fast computer players move, and how long humans get to react first.

Timing belongs here, never in the engine (RULES.md D-35). Pacing decides *when* a
computer acts, never *who* acts or in what order: that is ``Controller.asks``.
"""

from __future__ import annotations

from dataclasses import dataclass

SPEEDS: tuple[str, ...] = ("slow", "normal", "fast", "instant")

# seconds between two computer actions, so a human can follow them
_PLAY_DELAY = {"slow": 1.6, "normal": 0.9, "fast": 0.35, "instant": 0.0}
# While a human could catch a missed UNO call (or call it late), computers hold back this long.
_HUMAN_FIRST = {"slow": 2.5, "normal": 1.8, "fast": 1.2, "instant": 0.8}


@dataclass(frozen=True)
class Pace:
    speed: str = "normal"

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise ValueError(f"unknown speed {self.speed!r}; choose one of {', '.join(SPEEDS)}")

    @property
    def play_delay(self) -> float:
        return _PLAY_DELAY[self.speed]

    @property
    def human_first(self) -> float:
        """How long computers wait before reacting while a human could react too."""
        return _HUMAN_FIRST[self.speed]
