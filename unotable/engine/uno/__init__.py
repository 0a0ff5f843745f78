"""UNO and UNO Minecraft (RULES.md §3): ``SPECS`` for the registry, cards, view, search help.

>>> from unotable.engine import get_game
>>> match = get_game("uno").from_deal(2, hands=[["B1", "B2"], ["R7", "R8"]], first_discard="R1")
>>> match.current  # the dealer is seat 0: seat 1, on their left, starts
1
>>> [str(a) for a in match.legal_actions(1)]
['R7', 'R7!', 'R8', 'R8!', 'draw']
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from ..core import SHEDDING, GameFacts, GameSpec, OptionSpec
from .cards import ALL_CARDS, CLASSIC_DECK, COLORS, MINECRAFT_DECK, UnoCard, parse_card
from .determinize import determinize as _determinize
from .match import MinecraftMatch, UnoMatch
from .view import UnoView

OPTIONS = (
    OptionSpec(
        "target",
        "Target score",
        "int",
        500,
        "The match ends when someone's total reaches this score.",
        minimum=1,
        maximum=10000,
    ),
    OptionSpec(
        "scoring",
        "Scoring",
        "choice",
        "standard",
        "standard: whoever goes out scores the others' cards, highest wins. "
        "running: everyone adds the cards they are left holding, lowest wins.",
        choices=("standard", "running"),
    ),
    OptionSpec(
        "wd4_bluff",
        "Wild Draw Four bluffing",
        "bool",
        True,
        "Allow a Wild Draw Four while holding the colour on the pile; "
        "the next player may challenge it.",
    ),
    # House rules (RULES.md §4): not in the rulebook, all off by default
    OptionSpec(
        "stack",
        "Stacking",
        "choice",
        "off",
        "Answer a Draw Two or Wild Draw Four with another and pass the growing draw on. "
        "same: Draw Two on Draw Two, Wild Draw Four on Wild Draw Four. "
        "any: a Wild Draw Four on a Draw Two too.",
        choices=("off", "same", "any"),
        group="house",
    ),
    OptionSpec(
        "seven_o",
        "Seven-O",
        "bool",
        False,
        "Play a 7 and swap hands with a player you choose; "
        "play a 0 and every hand passes to the next player.",
        group="house",
    ),
    OptionSpec(
        "draw_to_match",
        "Draw to match",
        "bool",
        False,
        "When you draw on your turn, keep drawing until you draw a card you can play.",
        group="house",
    ),
)
HOUSE_RULES = tuple(o.name for o in OPTIONS if o.group == "house")


def _facts(deck: tuple[UnoCard, ...]) -> GameFacts:
    return GameFacts(
        family=SHEDDING, deck=deck, suits=COLORS, target_option="target", forced_kinds=("keep",)
    )


def determinize(
    view: UnoView, rng: random.Random, avoid: Mapping[int, frozenset[str]] | None = None
) -> UnoMatch:
    """A full match consistent with ``view``, unseen cards dealt at random (see module)."""
    return _determinize(SPECS[view.game], view, rng, avoid)


SPECS: dict[str, GameSpec] = {
    "uno": GameSpec(
        "uno",
        "UNO",
        "Classic UNO: match the pile by colour or number, first to empty their hand scores.",
        2,
        8,
        OPTIONS,
        UnoMatch,
        facts=_facts(CLASSIC_DECK),
        determinizer=determinize,
    ),
    "uno-minecraft": GameSpec(
        "uno-minecraft",
        "UNO Minecraft",
        "UNO with four Creepers: draw one and everyone sees it, then you take three more.",
        2,
        8,
        OPTIONS,
        MinecraftMatch,
        facts=_facts(MINECRAFT_DECK),
        determinizer=determinize,
    ),
}


__all__ = [
    "ALL_CARDS",
    "CLASSIC_DECK",
    "HOUSE_RULES",
    "MINECRAFT_DECK",
    "OPTIONS",
    "SPECS",
    "MinecraftMatch",
    "UnoCard",
    "UnoMatch",
    "UnoView",
    "determinize",
    "parse_card",
]
