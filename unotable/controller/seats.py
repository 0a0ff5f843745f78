"""Seats: who sits where (a name and a kind) and the computer player behind each."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

HUMAN = "human"
# What the lobby offers; "random" and "first" are test baselines the controller accepts too.
COMPUTER_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
SEAT_KINDS: tuple[str, ...] = (HUMAN, *COMPUTER_LEVELS)
KIND_LABELS = {HUMAN: "Human", "easy": "Easy", "normal": "Normal", "hard": "Hard"}
# Used when the computer player of a level is not available (yet).
FALLBACK_LEVEL = "random"

DEFAULT_NAMES: tuple[str, ...] = ("You", "Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus")


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str  # HUMAN or a computer level

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN

    @property
    def label(self) -> str:
        return KIND_LABELS.get(self.kind, self.kind.capitalize())


def default_seats(count: int, humans: int = 1, level: str = "normal") -> list[Seat]:
    """``count`` seats: the first ``humans`` human, the rest computers of ``level``."""
    seats = []
    for i in range(count):
        name = DEFAULT_NAMES[i] if i < len(DEFAULT_NAMES) else f"Seat {i + 1}"
        seats.append(Seat(name, HUMAN if i < humans else level))
    return seats


def computer_seed(match_seed: int, seat: int) -> int:
    """A computer's own seed: reproducible from the match seed, but one-way.

    A player holding its seed cannot run it backwards to the match seed, so it cannot
    rebuild the deal and the other hands.
    """
    digest = hashlib.blake2b(
        f"unotable-computer/{match_seed}/{seat}".encode(), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits


def make_computer(level: str, game_id: str, seed: int) -> tuple[object, str]:
    """The computer player for ``level`` and the level actually used (a fallback if missing)."""
    from unotable.ai import make_player

    try:
        return make_player(level, game_id, seed), level
    except ValueError:
        return make_player(FALLBACK_LEVEL, game_id, seed), FALLBACK_LEVEL
