"""Hot-seat hand-over: hides everything private until the next human takes the keyboard."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from ..widgets.keysbar import KeysBar
from .common import TooSmall


class HandOverScreen(Screen[str]):
    """ "Pass to Ana — press Enter". Dismisses with "ready", "catch" to catch first, or
    "leave" (Q) to leave the match."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Show my cards", id="handover.ready"),
        Binding("c", "catch", "Catch", id="handover.catch"),
        Binding("q", "leave", "Quit", id="handover.quit"),
    ]

    def __init__(self, name: str, exposed: str | None = None) -> None:
        super().__init__(classes="handover")
        self.player = name
        self.exposed = exposed

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="handover-box"):
            # Text: a player's name is never markup
            yield Static(Text(f"Pass to {self.player}"), id="handover-name")
            yield Static(
                Text(f"{self.player}, press Enter when only you can see the screen."),
                id="handover-text",
            )
            if self.exposed:
                yield Static(
                    Text(
                        f"{self.exposed} has one card and did not call UNO.\n"
                        "Press C to catch them before you look at your cards."
                    ),
                    id="handover-catch",
                )
        yield KeysBar()

    def on_mount(self) -> None:
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "catch":
            return self.exposed is not None
        return True

    def action_ready(self) -> None:
        self.dismiss("ready")

    def action_leave(self) -> None:
        self.dismiss("leave")  # the table asks whether to leave, as Q does there

    def action_catch(self) -> None:
        if self.exposed is not None:
            self.dismiss("catch")
