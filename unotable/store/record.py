"""A match as it is saved: everything needed to rebuild it exactly, in notation."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SAVE_FORMAT_VERSION = 1


@dataclass
class SeatRecord:
    name: str
    kind: str  # "human", or a computer level: "easy", "normal", "hard", "random"


@dataclass
class MatchRecord:
    """A match: game, options, seats, seed and every (seat, action) in notation.

    Replaying ``actions`` on ``get_game(game).new_match(players, options, seed)``
    rebuilds the exact state (the engine is deterministic).
    """

    game: str
    options: dict[str, Any]
    seats: list[SeatRecord]
    seed: int
    actions: list[tuple[int, str]] = field(default_factory=list)
    started: str = ""  # ISO 8601, UTC
    finished: bool = False
    version: int = SAVE_FORMAT_VERSION
    # take-backs: (actions kept, the (seat, action) pairs taken back), so replays show them
    undos: list[tuple[int, list[tuple[int, str]]]] = field(default_factory=list)

    @property
    def players(self) -> int:
        return len(self.seats)
