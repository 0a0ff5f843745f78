"""The table's keys in one line: what Textual's Footer shows, drawn as text.

Textual's Footer rebuilds a widget per key whenever the keys change, and at a card table
they change on nearly every turn (Play and Draw come and go): that costs a recompose per
move, and the old key widgets stay referenced (Textualize/textual#6666), so memory grows
over a long match. This bar is one widget whose text is redrawn only when it changes.
Each key is clickable, as in the Footer.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static


class KeysBar(Static):
    DEFAULT_CSS = """
    KeysBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self._shown = ""

    def show_keys(self) -> None:
        """The screen's shown and enabled bindings, as remapped, in binding order."""
        screen = self.screen
        key_style = Style(bold=True, color="default") if self.app.no_color else Style(bold=True)
        text = Text(no_wrap=True, overflow="ellipsis")
        seen: set[tuple[str, str]] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            what = (binding.action, binding.description)
            if not binding.show or not active.enabled or what in seen:
                continue  # one entry per action: "enter,space" shows its first key
            seen.add(what)
            click = Style(meta={"@click": f"screen.{binding.action}"})
            key = self.app.get_key_display(binding)
            text.append(" " if text else "")
            text.append(key, style=key_style + click)
            text.append(f" {binding.description}", style=click)
        text = Text(" ") + text if text else text
        if text.plain != self._shown:
            self._shown = text.plain
            self.update(text, layout=False)  # one line, always: no layout of the screen

    def words(self) -> str:
        return self._shown
