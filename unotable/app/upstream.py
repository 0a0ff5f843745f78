"""Work-arounds for open Textual bugs: each names its issue, to drop once it is fixed."""

from __future__ import annotations


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
