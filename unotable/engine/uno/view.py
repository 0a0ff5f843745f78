"""What one UNO seat may know."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core import HandResult, View
from .cards import UnoCard


@dataclass(frozen=True, slots=True)
class UnoView(View):
    """The public table plus this seat's hand and what it has been shown.

    ``pending`` is what the current seat must answer: ``None`` (an ordinary turn),
    ``"color"`` (the Wild turned up as first discard), ``"drawn"`` (play or keep the
    card just drawn), ``"challenge"`` (a Wild Draw Four was played on them), and with
    the house rules (RULES §4) ``"stack"`` (a pending draw: accept it or stack on it)
    or ``"swap"`` (they played a 7: choose whom to swap hands with).
    """

    hand: tuple[UnoCard, ...]  # this seat's cards (the game's own class)
    options: Mapping[str, Any]
    top: UnoCard
    active_color: str | None  # None only while the first discard's colour is undeclared
    direction: int  # +1 clockwise (to the left), -1 counter-clockwise
    draw_pile_size: int
    discard: tuple[UnoCard, ...]  # bottom first; the top card is last
    pending: str | None
    drawn: UnoCard | None  # the card this seat just drew, while it may play it
    exposed: int | None  # the seat that may be caught for not calling UNO
    revealed: tuple[int, ...]  # Creepers each seat has revealed this hand
    known: tuple[tuple[UnoCard, ...], ...]  # per seat: cards this seat knows they still hold
    challenge_color: str | None  # while a challenge is pending: the colour the WD4 went on
    passes: int  # consecutive turns passed with nothing to draw (§3.8)
    last_hand: HandResult | None
    # the pending draw (H-1, and a Wild Draw Four awaiting its challenge): how many cards
    # its target draws on accepting (0: none pending), and that seat (None: none)
    pending_draw: int = 0
    pending_draw_target: int | None = None
    # H-2: each swap or pass of hands this hand, in order, as the seat each seat's hand
    # went to (``moves[k][s]``: the new holder of the hand seat s held)
    hand_moves: tuple[tuple[int, ...], ...] = ()
    # per seat: the cards everyone knows it holds (revealed Creepers; with Seven-O they stay
    # public in the hand they move with, RULES §4.2). ``known`` adds what this seat alone
    # was shown; a spectator's ``known`` is exactly this. () in views made before it existed
    known_to_all: tuple[tuple[UnoCard, ...], ...] = ()
