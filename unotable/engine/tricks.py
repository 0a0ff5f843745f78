"""Bookkeeping shared by the trick-taking engines (UNO Hearts, Wild Twist Hearts).

Only what is the same rule in both games lives here; each game keeps its own cards,
trick winner and scoring. Nothing here is on the per-play hot path.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .core import Card, Event, HandResult, Match, View, check_viewer, make_event
from .errors import OptionError


def void_sets(suit_letters: Sequence[str]) -> tuple[frozenset[str], ...]:
    """Per 4-bit void mask (bit s: suit s), the set of its suit letters, for views."""
    return tuple(
        frozenset(suit_letters[s] for s in range(4) if mask >> s & 1) for mask in range(16)
    )


def suit_bits(suit_letters: Sequence[str]) -> dict[str, int]:
    """Each suit letter's bit in a void mask."""
    return {letter: 1 << s for s, letter in enumerate(suit_letters)}


def void_mask(suits: Iterable[str], bits: Mapping[str, int]) -> int:
    """The void mask of a view's suit letters; anything not a suit letter is ignored."""
    mask = 0
    for letter in suits:
        mask |= bits.get(letter, 0)
    return mask


Play = tuple[int, Card, str | None]  # (seat, card, declared), in play order
CompletedTrick = tuple[int, int, tuple[Play, ...]]  # (leader, winner, plays)


@dataclass(frozen=True, slots=True)
class TrickView(View):
    """The public table both Hearts games share; each game's view adds its own fields."""

    trick: tuple[Play, ...]  # the trick in play
    lead_suit: str | None  # suit letter led to it
    hearts_broken: bool
    leader: int | None  # who led (or leads) it
    tricks: tuple[CompletedTrick, ...]  # every completed trick of this hand
    taken: tuple[tuple[Card, ...], ...]  # per seat, its trick pile (all public)
    tricks_won: tuple[int, ...]
    hand_points_visible: tuple[int, ...]  # per seat, points in its trick pile
    last_trick: CompletedTrick | None  # the latest completed trick, kept after a deal
    last_hand: HandResult | None
    voids: tuple[frozenset[str], ...]  # per seat, suits it has shown it lacks


check_view_seat = check_viewer  # the Hearts engines' name for it


def check_dealer(dealer: Any, players: int) -> None:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise OptionError(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")


def moon_points(players: int, shooter: int, to_self: bool, points: int) -> list[int]:
    """A shot moon's scores: −points to the shooter, or +points to everyone else."""
    if to_self:
        return [-points if s == shooter else 0 for s in range(players)]
    return [0 if s == shooter else points for s in range(players)]


def record_hand(match: Match, points: Sequence[int], notes: dict[str, Any]) -> HandResult:
    """Add a hand's points to the match totals and keep its result."""
    scores = match.scores
    for seat, seat_points in enumerate(points):
        scores[seat] += seat_points
    result = HandResult(match.hand_number, tuple(points), tuple(scores), MappingProxyType(notes))
    match.hand_results.append(result)
    return result


def hand_end_event(
    result: HandResult, winners: tuple[int, ...], cards: tuple[Card, ...] = ()
) -> Event:
    """The ``hand_end`` event; ``cards`` are any revealed at scoring."""
    data = {
        "hand": result.number,
        "points": result.points,
        "totals": result.totals,
        "winners": winners,
        "notes": result.notes,
    }
    return make_event("hand_end", cards=cards, count=len(cards), data=data)


def lowest_seats(totals: Sequence[int]) -> tuple[int, ...]:
    """The seats with the lowest total: the (co-)winners of a Hearts match (D-3)."""
    best = min(totals)
    return tuple(s for s, total in enumerate(totals) if total == best)
