"""What a human must do now, in words, and the dialogs that ask for each kind of choice.

The words come from the game's presentation; this module only opens the screens.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from unotable.controller import Snapshot
from unotable.engine import Action, get_game

from ..games import Ask, GamePresentation
from ..words import Seats
from .common import ChoiceScreen

Chosen = Callable[[Any], Action | None]  # a dialog's answer, as the action it means


def status_for(snap: Snapshot, game: GamePresentation, uno_marked: bool) -> str:
    """The status line for the snapshot's viewer, whose turn it is."""
    return game.status(snap.view, snap.name(snap.viewer), uno_marked)


def attempt(game: GamePresentation, card: Any) -> Action:
    """The action a human meant by picking a card that is not playable (for the reason)."""
    return Action("play", card=card, choice=game.attempt_choice(card))


def dialog(screen: Any, seat: int, legal: list[Action]) -> tuple[Screen[Any], Chosen]:
    """The dialog for a choice that is not a card from the hand, and what its answer means."""
    snap: Snapshot = screen.snap
    game: GamePresentation = screen.card_style
    names = [s.name for s in snap.seats]
    view = snap.view
    if snap.viewer != seat:
        raise ValueError(f"the screen shows seat {snap.viewer}'s cards, not seat {seat}'s")
    if any(a.kind == "give" for a in legal):
        from .passing import PassCardsScreen

        to = names[(seat + 1) % len(names)]
        return PassCardsScreen(list(view.hand), legal, to, game), lambda action: action
    moon = any(a.kind == "moon" for a in legal)
    moon_points = (get_game(snap.game).facts.moon_points or 0) if moon else 0
    asked = game.dialog(Ask(view, legal, Seats(names, seat), seat, screen.uno_marked, moon_points))
    if asked is None:
        raise ValueError(f"{game.title} has no dialog for {sorted({a.kind for a in legal})}")
    by_key = {str(a): a for a in legal}
    choice = ChoiceScreen(
        asked.title, asked.options, explanation=asked.explanation, cancellable=False
    )
    return choice, lambda key: _chosen(by_key, key, snap.game)


def _chosen(by_key: dict[str, Action], key: str | None, game_id: str) -> Action | None:
    if key is None:
        return None
    if key in by_key:
        return by_key[key]
    return get_game(game_id).parse_action(key)


def declaration(
    screen: Any, card: Any, plays: list[Action], game: GamePresentation
) -> tuple[Screen[Any], Chosen]:
    """Ask which colour, suit, or HIGHEST/LOWEST a wild is played as."""
    asked = game.declaration(card, plays, screen.snap.view)
    by_key = {str(a): a for a in plays}
    choice = ChoiceScreen(asked.title, asked.options, explanation=asked.explanation)
    return choice, lambda key: by_key.get(key) if key else None
