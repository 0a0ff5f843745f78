"""``unotable replay --text``: a saved match step by step, in the table's own words.

Each step is a block: who moved, the log's lines for what happened (as the table's log
words them, "You" for the seat the replay is seen as), the middle of the table and the
seats as the table screen draws them, and the hands shown. The replay itself sits below
the app and knows no words; the command line hands it this module's ``transcript``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

from unotable.engine import Event

from .describe import describe
from .games import GamePresentation, presentation_for
from .widgets.seats import render_seats, seats_title
from .words import Seats, plural

WIDTH = 38  # the table's panels at 80 columns
INDENT = "  "


def transcript(replay: Any, ascii_only: bool | None = None) -> Iterator[str]:
    """One block of text per step of ``replay`` (a ``unotable.replay.frames.Replay``).

    ``ascii_only`` None: ASCII card faces only where standard output cannot show others."""
    if ascii_only is None:
        ascii_only = not _can_show("╭♠→…")
    game = presentation_for(replay.record.game, "standard", ascii_only)
    names = [seat.name for seat in replay.record.seats]
    house = game.house_rules(replay.record.options)
    if house:  # said first: the steps that follow are not the rulebook's alone
        yield house
    for number in range(len(replay)):
        yield step_text(replay.step(number), names, game, replay.viewer)


def step_text(step: Any, names: list[str], game: GamePresentation, viewer: int | None) -> str:
    """One step (a ``unotable.replay.frames.Step``) in the table's words."""
    seats = Seats(names, viewer)
    head = f"Step {step.number}/{step.total}: "
    head += "the deal" if step.seat is None else f"{seats.possessive(step.seat)} move"
    lines = [line for event in step.events if (line := _event_line(event, names, game, viewer))]
    lines += [_undo_line(back, seats) for back in step.undos]
    snap = step.snapshot
    view = snap.view
    title, middle = game.centre(view, seats, WIDTH)
    lines += ["", title, *middle.plain.splitlines()]
    labels = [seat.label for seat in snap.seats]
    table = render_seats(view, names, labels, snap.waiting_on, viewer, game, WIDTH)
    lines += ["", seats_title(game.direction(view), game.ascii_only), *table.plain.splitlines()]
    lines.append("")
    for seat, cards in step.hands:
        shown = game.card_list(game.sort(cards, "suit")) or "no cards"
        owner = "Your hand" if seats.is_you(seat) else f"{seats.possessive(seat)} hand"
        lines.append(f"{owner}: {shown}")
    body = [INDENT + line.rstrip() for line in lines if line.strip()]
    return "\n".join([head, *body])


def _event_line(
    event: Event, names: list[str], game: GamePresentation, viewer: int | None
) -> str | None:
    if event.kind in ("hand", "deal") and viewer is None:
        # face up: every seat's deal is shown, each in its own name (the log says "you")
        if not event.cards:
            return None
        seats = Seats(names)
        dealt = f"{seats.does(event.seat, 'is')} dealt {game.card_list(event.cards)}"
        number = event.data.get("hand")
        return f"{game.round_word} {number}: {dealt}" if event.kind == "deal" else dealt
    return describe(event, names, game, viewer)


def _undo_line(taken_back: tuple[tuple[int, str], ...], seats: Seats) -> str:
    """A take-back that brought the match back to this step."""
    moves = plural(len(taken_back), "move")
    if not taken_back:
        return "A take-back: play went on from here"
    first = seats.possessive(taken_back[0][0])
    return f"{moves} taken back, from {first} move on: play went on from here"


def _can_show(sample: str) -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True
