"""A screen's keys in one line: what Textual's Footer shows, drawn as text.

Textual's Footer mounts a widget per key and rebuilds them all whenever the keys change:
at a card table that is nearly every turn, it costs a restyle of every key (the largest
single cost of opening a dialog), and the old key widgets stay referenced
(Textualize/textual#6666), so memory grows over a long match. This bar is one widget whose
text is redrawn only when it changes, on every screen. Each key is clickable, as in the
Footer; a key whose action is off for now is shown dimmed, as the Footer does.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.screen import Screen
from textual.widget import Widget


class KeysBar(Widget):
    DEFAULT_CSS = """
    KeysBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    """

    def __init__(self, *, palette: bool = True, **kwargs: Any) -> None:
        """``palette``: end the line with the command palette's key, as the Footer does."""
        super().__init__(**kwargs)
        self.palette = palette
        self._shown = ""
        self._drawn: tuple[Any, ...] = ()  # what the line was built from
        self._parts = (Text(), Text())  # the keys, and the palette's key

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.show_keys()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        if self.is_attached and screen is self.screen:
            self.show_keys()

    def show_keys(self) -> None:
        """The screen's shown bindings, as remapped, in binding order."""
        app = self.app
        active = self.screen.active_bindings
        # a screen may name a key's action better for the moment ("Take 4" rather than "Draw")
        word_for = getattr(self.screen, "key_word", None)
        seen: set[tuple[str, str]] = set()
        keys: list[tuple[str, str, str, bool]] = []  # each key: pressed as, shown as, word, on
        for entry in active.values():
            binding = entry.binding
            what = (binding.action, binding.description)
            if not binding.show or what in seen:
                continue  # one entry per action: "enter,space" shows its first key
            seen.add(what)
            word = (word_for(binding.action) if word_for else None) or binding.description
            key = binding.key.split(",")[0].strip()
            keys.append((key, app.get_key_display(binding), word, entry.enabled))
        palette = active.get(app.COMMAND_PALETTE_BINDING) if self.palette else None
        if palette is None or not app.ENABLE_COMMAND_PALETTE:
            palette_key = ""
        else:
            palette_key = app.get_key_display(palette.binding)
        drawn = (tuple(keys), palette_key, app.no_color)
        if drawn == self._drawn:
            return  # most snapshots leave the keys as they were: nothing to build
        self._drawn = drawn
        key_style = Style(bold=True, color="default") if app.no_color else Style(bold=True)
        off = Style(dim=True)
        text = Text(no_wrap=True, overflow="ellipsis")
        for key, shown, word, enabled in keys:
            # a click presses the key, so it reaches the binding wherever it lives
            click = Style(meta={"@click": f"app.simulate_key({key!r})"}) if enabled else off
            text.append(" " if text else "")
            text.append(shown, style=key_style + click)
            text.append(f" {word}", style=click)
        right = Text(no_wrap=True)
        if palette_key:
            click = Style(meta={"@click": "app.command_palette"})
            right.append(palette_key, style=key_style + click)
            right.append(" Commands ", style=click)
        text = Text(" ") + text if text else text
        self._shown = f"{text.plain}  {right.plain}".strip()
        self._parts = (text, right)
        self.refresh()  # one line, always: no layout of the screen

    def render(self) -> Text:
        """The keys, and the palette's key at the right edge where there is room for it."""
        keys, right = self._parts
        width = self.size.width
        if keys.cell_len > width > 0:  # too many keys: an ellipsis says the line goes on
            keys = keys.copy()
            keys.truncate(width, overflow="ellipsis")
            return keys
        room = width - keys.cell_len - right.cell_len
        if not right or room < 2:
            return keys
        return Text.assemble(keys, " " * room, right, no_wrap=True)

    def words(self) -> str:
        return self._shown
