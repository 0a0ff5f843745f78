"""Replaying recorded actions: the one way a saved or undone match is rebuilt.

Dealing is not an action, so a record goes on in the next hand whenever the match is
between hands; with the match's seed this reproduces every hand exactly.
"""

from __future__ import annotations

from collections.abc import Iterable

from .core import Action, Event, Match
from .errors import EngineError


class ReplayError(EngineError):
    """Action ``number`` (1-based) of a record does not replay."""

    def __init__(self, number: int, seat: int, action: Action | str, reason: BaseException):
        super().__init__(
            f"action {number} (seat {seat}: {str(action)!r}) does not replay: {reason}"
        )
        self.number = number
        self.reason = reason


def replay_one(match: Match, seat: int, action: Action | str) -> list[Event]:
    """Apply one recorded action, dealing the next hand first if the last one ended."""
    if match.hand_over:
        match.next_hand()
    return match.apply(seat, action)


def replay_actions(
    match: Match, actions: Iterable[tuple[int, Action | str]], first: int = 1
) -> Match:
    """Apply ``actions`` in order (numbered from ``first``); ReplayError names the first
    that does not replay, and any other error from the engine is wrapped the same way."""
    for number, (seat, action) in enumerate(actions, first):
        try:
            replay_one(match, seat, action)
        except Exception as error:  # an illegal action, bad notation, or an engine bug
            raise ReplayError(number, seat, action, error) from error
    return match
