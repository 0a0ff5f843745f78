"""What one UNO Hearts seat may know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import HandResult
from ..tricks import TrickView
from .cards import Card

Play = tuple[int, Card, str | None]  # (seat, card, declared call or None)
Completed = tuple[int, int, tuple[Play, ...]]  # (leader, winner, plays)


@dataclass(frozen=True, slots=True)
class UnoHeartsView(TrickView):
    """What one seat may know (see docs/uno-hearts.md for every field)."""

    # TrickView's card fields, narrowed to this game's own card class
    hand: tuple[Card, ...]  # this seat's cards
    trick: tuple[Play, ...]
    tricks: tuple[Completed, ...]
    taken: tuple[tuple[Card, ...], ...]
    last_trick: Completed | None
    draw_pile_size: int
    target: int
    options: Mapping[str, Any]
    pass_pending: tuple[int, ...]  # pass-three seats still choosing
    passed: tuple[Card, ...]  # the three cards this seat chose to give this hand
    received: tuple[Card, ...]  # the three cards this seat got (once everyone has chosen)
    known_hands: tuple[tuple[Card, ...], ...]  # per other seat: cards this seat knows it holds
    pass_hands: tuple[tuple[int, int, str], ...]  # (after trick number, taker, direction)
    moon_shooter: int | None
    hand_results: tuple[HandResult, ...]
