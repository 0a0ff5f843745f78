"""How fast computer players move, and how quickly they react to a missed UNO call.

Timing belongs here and in the UI, never in the engine (RULES.md D-35).
"""

from __future__ import annotations

from dataclasses import dataclass

SPEEDS: tuple[str, ...] = ("slow", "normal", "fast", "instant")

# seconds between two computer actions, so a human can follow them
_PLAY_DELAY = {"slow": 1.6, "normal": 0.9, "fast": 0.35, "instant": 0.0}

# UNO catch or late call: reaction in seconds at normal speed (whether a computer reacts at
# all is its own level's habit: ``wants_to_act`` in unotable.ai)
_REACTION = {"easy": 2.4, "normal": 1.6, "hard": 1.0}
_DEFAULT_REACTION = 1.6
# The first chance belongs to the humans: no computer reacts sooner than this.
HUMAN_FIRST_CHANCE = 0.8


@dataclass(frozen=True)
class Pace:
    speed: str = "normal"

    def __post_init__(self) -> None:
        if self.speed not in SPEEDS:
            raise ValueError(f"unknown speed {self.speed!r}; choose one of {', '.join(SPEEDS)}")

    @property
    def play_delay(self) -> float:
        return _PLAY_DELAY[self.speed]

    def reaction_delay(self, level: str) -> float:
        base = _REACTION.get(level, _DEFAULT_REACTION)
        if self.speed == "instant":
            return HUMAN_FIRST_CHANCE
        return max(HUMAN_FIRST_CHANCE, base * _PLAY_DELAY[self.speed] / _PLAY_DELAY["normal"])
