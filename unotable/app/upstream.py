"""Work-arounds for open Textual bugs: each names its issue, to drop once it is fixed."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.widget import Widget


def forget_gone_widgets_styles() -> None:
    """Textualize/textual#6665: ``StylesCache.get_inner_outer`` is an ``lru_cache(1024)`` on
    a method, so it keeps the styles caches (with their rendered lines) of up to 1,024
    widgets long gone: dialogs, notices, scoreboards. Over an evening that is some 17 MiB a
    session. Emptying it now and then costs a few colour look-ups again."""
    try:
        from textual._styles_cache import StylesCache

        StylesCache.get_inner_outer.cache_clear()
    except (ImportError, AttributeError):
        pass  # a Textual that no longer has it


def refit_height(widget: Widget) -> None:
    """Lay ``widget`` out anew: its content changed its height.

    Textual renews a widget's cached box model only when a ``refresh(layout=True)`` finds
    none pending; one asked for while an earlier one waits, with a frame laid out in
    between, keeps the height of the old content (the status line cut to one line of two).
    Not reported upstream yet; tests/test_app_upstream.py shows it with Textual alone."""
    widget.refresh(layout=True)
    widget._layout_updates += 1  # the box model's cache key: worked out anew
