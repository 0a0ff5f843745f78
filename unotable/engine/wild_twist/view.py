"""What one Wild Twist Hearts seat may know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import HandResult
from ..tricks import TrickView
from .cards import Card

Trick = tuple[tuple[int, Card, str | None], ...]
CompletedTrick = tuple[int, int, Trick]  # (leader, winner, plays)


@dataclass(frozen=True, slots=True)
class WildTwistView(TrickView):
    """What one seat of a Wild Twist Hearts match may know."""

    # TrickView's card fields, narrowed to this game's own card class
    hand: tuple[Card, ...]  # this seat's cards
    trick: Trick
    tricks: tuple[CompletedTrick, ...]
    taken: tuple[tuple[Card, ...], ...]
    last_trick: CompletedTrick | None
    leftovers_count: int  # face-down cards in the middle this game (0, 1 or 2)
    leftovers_to: int | None  # who took them with the first trick (unseen)
    opening_holder: int | None  # who held the Wild Club at the deal (offered the opening)
    opening_declined: bool  # the Wild Club holder declined to open with it
    moon_shooter: int | None  # set in phase "moon": the seat choosing its bonus
    length: int  # games in the match
    no_points_first_trick: bool
    first_trick: bool  # the current trick is the first of the game
    options: Mapping[str, Any]
    hand_results: tuple[HandResult, ...]  # every finished game of the match
