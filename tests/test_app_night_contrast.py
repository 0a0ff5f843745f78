"""Panel titles reach WCAG AA (4.5:1) against what is behind them, in every theme the
settings offer, as the terminal receives them (issue 27, item 8)."""

from __future__ import annotations

from typing import Any

from rich.color import Color as RichColor
from rich.segment import Segment
from test_app_presentation import contrast
from test_app_support import controller, make_app, settle, start, until
from textual.color import Color

from unotable.app.prefs import theme_names

TITLES = ("Seats", "Log", "Tracker", "Hand 1", "Ana's hand")


def hex_of(colour: RichColor | None, fallback: str) -> str:
    if colour is None or colour.is_default:
        return fallback
    r, g, b = colour.get_truecolor()
    return f"#{r:02x}{g:02x}{b:02x}"


def title_colours(app: Any, title: str) -> list[tuple[str, str]]:
    """(foreground, background) of each run of ``title`` on screen, after the app's filters
    (the monochrome theme is one)."""
    background = app.screen.styles.background
    found = []
    strips = app.screen._compositor.render_strips()
    for strip in strips:
        segments: list[Segment] = list(strip)
        for flt in app._filters:
            segments = flt.apply(segments, background)
        text = "".join(s.text for s in segments)
        at = text.find(title)
        if at < 0 or "─" not in text[max(0, at - 3) : at]:
            continue  # only a border's title: "─ Log ─"
        pos = 0
        for seg in segments:
            if pos <= at < pos + len(seg.text) and seg.style is not None:
                back = hex_of(seg.style.bgcolor, background.hex)
                fore = hex_of(seg.style.color, Color.parse("white").hex)
                found.append((fore, back))
            pos += len(seg.text)
    return found


async def test_panel_titles_reach_wcag_aa_in_every_theme() -> None:
    # every theme the settings offer, Textual's too (issue 28), chosen in turn the way the
    # palette's "Theme" command does it, at one table
    app = make_app()
    weak: list[str] = []
    async with app.run_test(size=(160, 40)) as pilot:
        await start(pilot, controller("uno", ["human", "normal", "normal"]))
        await settle(pilot)
        await pilot.press("k")  # the tracker panel too
        for theme in theme_names():
            app.theme = theme
            await until(pilot, lambda t=theme: app.prefs.theme == t, f"{theme} applied")
            await pilot.pause()
            await pilot.pause()
            colours = {title: title_colours(app, title) for title in TITLES}
            missing = [title for title, found in colours.items() if not found]
            assert not missing, f"{missing} not found as panel titles in {theme}"
            worst = min((contrast(f, b), t, f, b) for t, found in colours.items() for f, b in found)
            if worst[0] < 4.5:
                weak.append(f"{worst[1]!r} in {theme}: {worst[0]:.2f}:1 ({worst[2]} on {worst[3]})")
    assert len(theme_names()) > 10 and not weak, weak
