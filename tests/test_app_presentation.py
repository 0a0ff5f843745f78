"""Card faces are readable: WCAG AA contrast in every theme, and NO_COLOR sends no colour."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from rich.console import Console
from test_app_support import controller, settle, start

from unotable.app.games import presentation_for
from unotable.app.games.base import DIM_COLOURS, PALETTES
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs, theme_names
from unotable.engine import GAME_IDS, get_game


def luminance(hex_colour: str) -> float:
    """WCAG 2.x relative luminance of ``#rrggbb``."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_formula_matches_known_values() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)  # just fails AA


def every_card(game_id: str) -> list[Any]:
    match = get_game(game_id).new_match(get_game(game_id).max_players, seed=1)
    cards: list[Any] = []
    for seat in range(match.players):
        cards += match.view(seat).hand
    # the deck's other cards: the draw pile and discard, whatever each game calls them
    for name in ("draw_pile", "discard", "kitty", "leftovers", "stock"):
        cards += list(getattr(match, name, []) or [])
    return cards


# every theme offered with colour cards: unotable's and Textual's (issue 28)
@pytest.mark.parametrize("theme", [t for t in theme_names() if t != "monochrome"])
@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_card_face_reaches_wcag_aa(theme: str, game_id: str) -> None:
    game = presentation_for(game_id, theme, False)
    assert game.palette is not None and set(game.palette) == set(PALETTES["standard"])
    cards = every_card(game_id)
    assert len(cards) > 40
    weakest = min(
        (contrast(*game.palette[game.colour_key(card)]), game.label(card)) for card in cards
    )
    assert weakest[0] >= 4.5, f"{weakest[1]} in {theme}: {weakest[0]:.2f}:1"


def test_unplayable_cards_stay_readable() -> None:
    assert contrast(*DIM_COLOURS) >= 4.5


COLOUR_PARAMS = re.compile(r"\x1b\[([0-9;:]*)m")


def colour_codes(output: str) -> list[str]:
    """Every SGR parameter that sets a colour (16, 256 or true colour; fg or bg)."""
    found = []
    for params in COLOUR_PARAMS.findall(output):
        for param in filter(None, re.split(r"[;:]", params)):
            number = int(param)
            if 30 <= number <= 38 or 40 <= number <= 48 or 90 <= number <= 107:
                found.append(params)
                break
    return found


def test_the_colour_detector_sees_colour() -> None:
    assert colour_codes("\x1b[1;38;5;253m x \x1b[48;2;1;2;3m") == ["1;38;5;253", "48;2;1;2;3"]
    assert colour_codes("\x1b[1m\x1b[7m\x1b[4m\x1b[39m\x1b[0m") == []


@pytest.mark.parametrize("game_id", ["uno", "wild-twist-hearts"])
async def test_no_color_emits_no_colour_escape(
    monkeypatch: pytest.MonkeyPatch, game_id: str
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="instant"))
    async with app.run_test(size=(100, 30)) as pilot:
        await start(pilot, controller(game_id, ["human", "first", "first", "first"], seed=3))
        await settle(pilot)
        update = app.screen._compositor.render_update(full=True)
        console = Console(
            file=io.StringIO(), force_terminal=True, color_system="truecolor", width=100
        )
        output = update.render_segments(console)
        assert "Your hand" in output or "hand" in output.lower()
        assert colour_codes(output) == []


@pytest.mark.parametrize("game_id", ["uno-hearts", "wild-twist-hearts"])
def test_the_centre_title_says_the_hand_is_over(game_id: str) -> None:
    import random

    from unotable.app.words import Seats
    from unotable.engine import get_game

    match = get_game(game_id).new_match(4, seed=3)
    rng = random.Random(3)
    names = Seats(["You", "Ada", "Ben", "Cleo"])
    shown = presentation_for(game_id)
    titles = set()
    while not match.hand_results:
        seat = match.actors()[0]
        titles.add(shown.centre(match.view(seat), names, 40)[0].split(" · ")[1])
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert "trick 1" in titles and "trick 13" in titles and "over" not in titles
    assert shown.centre(match.view(0), names, 40)[0] == f"{shown.round_word} 1 · over"
