"""Help: the rules of each game for players, and the keys overlay (Markdown files)."""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Markdown, Static
from textual.widgets import MarkdownViewer as _Viewer

from .common import TooSmall

HELP_GAMES = ("uno", "uno-minecraft", "uno-hearts", "wild-twist-hearts")


def help_text(name: str) -> str:
    return files("unotable.app").joinpath("help", f"{name}.md").read_text(encoding="utf-8")


class RulesScreen(Screen[None]):
    """The rules of one game; Tab moves to the next game's rules."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back"),
        Binding("tab", "next_game", "Next game"),
    ]

    def __init__(self, game: str) -> None:
        super().__init__(classes="rules")
        self.game = game if game in HELP_GAMES else "uno"

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="rules-box"):
            yield _Viewer(help_text(self.game), show_table_of_contents=False, id="rules-text")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-text").focus()

    def action_next_game(self) -> None:
        index = (HELP_GAMES.index(self.game) + 1) % len(HELP_GAMES)
        self.game = HELP_GAMES[index]
        viewer = self.query_one(_Viewer)
        viewer.document.update(help_text(self.game))
        viewer.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class KeysScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,enter", "close", "Close")
    ]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="keys-box"):
            yield Markdown(help_text("keys"), id="keys-text")
            yield Static("Esc to close", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
