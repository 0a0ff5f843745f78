"""UNO Hearts (Mattel, 1995; RULES.md §1): ``SPECS`` for the registry, cards, view, search help.

Trick-taking with four colour suits 0–23 and ten Wild Draw cards.

>>> from unotable.engine import get_game
>>> hands = [["H1", "Y2"], ["H3", "Y4"]]
>>> match = get_game("uno-hearts").from_deal(2, hands=hands, draw_pile=[], dealer=1)
>>> match.current  # the seat on the dealer's left leads
0
>>> [str(a) for a in match.legal_actions(0)]
['Y2']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..core import GameSpec, OptionSpec
from .cards import DECK, SUIT_LETTERS, Card, card_at, parse_card
from .determinize import determinize as _determinize
from .facts import FACTS
from .match import GAME_ID, MOON_MODES, TARGET, UnoHeartsMatch
from .view import UnoHeartsView


def determinize(
    view: UnoHeartsView,
    rng: random.Random,
    avoid: Mapping[int, frozenset[str]] | Sequence[frozenset[str]] | None = None,
) -> UnoHeartsMatch:
    """A full match consistent with ``view``: what the seat knows stays, the rest is dealt.

    Unseen cards go at random to the other hands (after the cards the seat knows they
    hold) and the draw pile. ``avoid[s]`` (default: ``view.voids``; a sequence, or a
    mapping of seat to suits) lists suits seat s is known to lack; they are kept out of
    its hand whenever the unseen cards allow.
    """
    return _determinize(SPECS[GAME_ID], view, rng, avoid)


def _spec() -> GameSpec:
    return GameSpec(
        id=GAME_ID,
        name="UNO Hearts",
        description="Hearts with four colour suits 0–23, Wild Draws and pass-hand 8s (2–8 players)",
        min_players=2,
        max_players=8,
        options=(
            OptionSpec(
                "target",
                "Game ends at",
                "int",
                TARGET,
                "the match ends when a total reaches this; lowest total wins "
                "(60 is the full game, 30/40/50 shorter games)",
                minimum=1,
                maximum=TARGET,
            ),
            OptionSpec(
                "pass_three",
                "Pass three cards",
                "bool",
                False,
                "advanced: after each deal everyone passes three cards to the left",
            ),
            OptionSpec(
                "shoot_the_moon",
                "Shoot the moon",
                "bool",
                False,
                "advanced: the only player to take points in a hand has shot the moon",
            ),
            OptionSpec(
                "moon_mode",
                "Moon scoring",
                "choice",
                "shooter_choice",
                "shooter_choice: the shooter picks −20 or +20 to everyone else; "
                "others_plus_20 / self_minus_20 fix it (2 players: any hand where only one "
                "player took points counts)",
                choices=MOON_MODES,
            ),
        ),
        match_class=UnoHeartsMatch,
        facts=FACTS,
        determinizer=determinize,
    )


SPECS: dict[str, GameSpec] = {GAME_ID: _spec()}

__all__ = [
    "DECK",
    "SPECS",
    "SUIT_LETTERS",
    "Card",
    "UnoHeartsMatch",
    "UnoHeartsView",
    "card_at",
    "determinize",
    "parse_card",
]
