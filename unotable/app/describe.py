"""Events in player words, for the log panel and the table's recent lines.

Each game's presentation words its own events; the lines every game shares are here.
"""

from __future__ import annotations

from collections.abc import Sequence

from unotable.engine import Event

from .games import GamePresentation
from .games.base import NOT_MINE
from .words import Seats, plural


def describe(
    event: Event, names: Sequence[str], game: GamePresentation, viewer: int | None = None
) -> str | None:
    """One log line for ``event`` (already redacted for ``viewer``), or None to omit it."""
    seats = Seats(names, viewer)
    line = game.describe(event, seats)
    if line is not NOT_MINE:
        return line
    return _shared(event, seats, game)


def _shared(event: Event, names: Seats, game: GamePresentation) -> str | None:
    kind, seat, data = event.kind, event.seat, event.data
    if kind == "draw":
        shown = f": {game.card_list(event.cards)}" if event.cards else ""
        return f"{names.does(seat, 'draws')} {plural(event.count, 'card')}{shown}"
    if kind == "dealer":
        return f"{names.does(seat, 'deals')} first"
    if kind == "deal":
        number = data.get("hand")
        if event.cards and number:
            return f"{game.round_word} {number}: you are dealt {game.card_list(event.cards)}"
        return None
    if kind == "hand":
        return f"You are dealt {game.card_list(event.cards)}" if event.cards else None
    if kind == "hand_end":
        number = data.get("hand")
        return f"{game.round_word} {number} is over" if number else "The hand is over"
    if kind == "match_end":
        return "Match over: " + names.all_do(list(data.get("winners", ())), "wins")
    if kind == "dealer_draw":
        return None
    if kind == "play" and event.cards:
        played = game.play_label(event.cards[0], data.get("declared"))
        return f"{names.does(seat, 'plays')} {played}"
    return f"{names.subject(seat)} {kind.replace('_', ' ')} {game.card_list(event.cards)}".strip()
