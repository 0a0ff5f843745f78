"""Settings: theme, computer speed and card style; saved as soon as they change.

Each setting is a Cycle (◂ Normal ▸): ← → Space Enter or a click change it, ↑ ↓ or Tab
move between them. Not Textual's Select: its dropdown raised when keys came faster than
it was laid out (a key storm found it, issue 26).
"""

from __future__ import annotations

from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from unotable.controller.pacing import SPEEDS

from ..prefs import CARD_STYLES, theme_names
from ..widgets.cycle import Cycle

THEME_LABELS = {
    "standard": "Standard colours",
    "colour-blind": "Colour-blind friendly",
    "monochrome": "Monochrome",
}
STYLE_LABELS = {"unicode": "Suit symbols ♠ ♥ ♦ ♣", "ascii": "ASCII letters S H D C"}
SPEED_LABELS = {
    "slow": "Slow",
    "normal": "Normal",
    "fast": "Fast",
    "instant": "Instant",
}


def _theme_labels() -> dict[str, str]:
    return {name: THEME_LABELS.get(name, name) for name in theme_names()}


class SettingsScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="settings.close"),
        Binding("down", "app.focus_next", "Next setting", show=False, id="settings.next"),
        Binding("up", "app.focus_previous", "Previous setting", show=False, id="settings.previous"),
    ]

    def compose(self) -> ComposeResult:
        app: Any = self.app
        prefs = app.prefs
        # cycle id, row label, value -> its words in the list, values in order, current
        rows = (
            # the same list as the palette's "Theme": unotable's, then Textual's
            ("theme", "Theme", _theme_labels(), theme_names(), prefs.theme),
            ("speed", "Computer speed", SPEED_LABELS, SPEEDS, prefs.speed),
            ("card-style", "Cards", STYLE_LABELS, CARD_STYLES, prefs.card_style),
        )
        with Vertical(classes="dialog", id="settings"):
            yield Label("Settings", classes="dialog-title")
            for cycle_id, label, words, values, current in rows:
                with Horizontal(classes="option-row"):
                    yield Label(label, classes="option-label")
                    yield Cycle([(words[value], value) for value in values], current, id=cycle_id)
            yield Static(
                "Every card also shows its colour's letter. Choose ASCII cards if suit "
                "symbols look misaligned in your terminal.",
                classes="dialog-text",
            )
            yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#theme", Cycle).focus()

    @on(Cycle.Changed)
    def _changed(self, event: Cycle.Changed) -> None:
        if len(self.app.screen_stack) < 2:
            return  # a change that arrives after the dialog closed
        app: Any = self.app
        value = event.value
        if not isinstance(value, str):
            return
        if event.cycle.id == "theme":
            app.prefs.theme = value
            app.apply_theme()
        elif event.cycle.id == "speed":
            app.prefs.speed = value
        elif event.cycle.id == "card-style":
            app.prefs.card_style = value
        app.save_prefs()
        self.app.screen_stack[-2].refresh(recompose=False)
        from .table import TableScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, TableScreen):
                screen.prefs_changed()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
