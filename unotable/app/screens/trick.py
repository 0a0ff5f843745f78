"""The last completed trick, on a key (Hearts games)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from ..games import GamePresentation


class LastTrickScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,t,space", "close", "Close", id="trick.close")
    ]

    def __init__(self, view: Any, names: list[str], cards: GamePresentation) -> None:
        super().__init__(classes="last-trick")
        self.view = view
        self.names = names
        self.cards = cards

    def compose(self) -> ComposeResult:
        leader, winner, plays = self.view.last_trick
        body = Text()
        for seat, card, declared in plays:
            body.append(f"{self.names[seat]:<12} ")
            body.append_text(self.cards.text(card, choice=declared))
            if seat == leader:
                body.append("  led")
            if seat == winner:
                body.append("  takes the trick", style="bold")
            body.append("\n")
        with Vertical(classes="dialog"):
            yield Label("The last trick", classes="dialog-title")
            yield Static(body)
            yield Static("Esc or Enter to close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
