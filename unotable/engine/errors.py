"""The two named errors the engine raises."""

from __future__ import annotations


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """A well-formed action that the rules do not allow now.

    The message is written for players: "it is seat 2's turn", "Wild Draw Four is a
    bluff here: you hold a yellow card". The match is left exactly as it was.
    """


class NotationError(EngineError, ValueError):
    """Text that is not valid card or action notation for this game."""


class OptionError(EngineError, ValueError):
    """A match was set up with an unknown option, a bad value or a bad player count."""
