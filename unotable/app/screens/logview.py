"""The log of a match, on its own screen (from the scoreboard, where the table is covered)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, RichLog

from unotable.controller import Snapshot

from ..describe import describe
from ..games import GamePresentation
from ..widgets.keysbar import KeysBar


class LogScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,g,q", "close", "Back", id="log.close"),
    ]

    def __init__(self, snap: Snapshot, game: GamePresentation) -> None:
        super().__init__(classes="log-screen")
        self.snap = snap
        self.game = game

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="log-box"):
            yield Label("The log so far", classes="dialog-title")
            yield RichLog(id="full-log", wrap=True, markup=False)
        yield KeysBar()

    def on_mount(self) -> None:
        log = self.query_one(RichLog)
        names = [s.name for s in self.snap.seats]
        for event in self.snap.events:
            line = describe(event, names, self.game, self.snap.viewer)
            if line:
                log.write(line)
        log.focus()

    def action_close(self) -> None:
        self.dismiss(None)
