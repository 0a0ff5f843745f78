"""The replay viewer: one frame at a time, keys to step forward and back."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Header, Static

from .frames import Frame, Replay

PAGE = 10


class ReplayApp(App[None]):
    TITLE = "unotable replay"
    CSS = """
    #step { padding: 0 1; text-style: bold; }
    .block { padding: 0 1; margin-top: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Next"),
        Binding("left,h", "step(-1)", "Back"),
        Binding("pagedown", f"step({PAGE})", f"+{PAGE}", show=False, priority=True),
        Binding("pageup", f"step(-{PAGE})", f"-{PAGE}", show=False, priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.position = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll():
            yield Static(id="step")
            yield Static(id="events", classes="block")
            yield Static(id="hands", classes="block")
            yield Static(id="table", classes="block")
        yield Footer()

    def on_mount(self) -> None:
        record = self.replay.record
        seen = (
            "everyone's cards"
            if self.replay.viewer is None
            else "as " + (self.replay.seat_label(self.replay.viewer))
        )
        self.sub_title = f"{record.game}, {record.players} players, seed {record.seed}, {seen}"
        self.show(0)

    def action_step(self, delta: int) -> None:
        self.show(self.position + delta)

    def action_jump(self, number: int) -> None:
        self.show(number if number >= 0 else len(self.replay) - 1)

    def show(self, number: int) -> None:
        self.position = max(0, min(number, len(self.replay) - 1))
        frame = self.replay.frame(self.position)
        self.query_one("#step", Static).update(Text(_title(frame)))
        events = (*frame.events, *(f"undo: {line}" for line in frame.undos))
        self.query_one("#events", Static).update(_section("Events", events or ("-",)))
        self.query_one("#hands", Static).update(
            _section("Hands", [f"{label}: {cards}" for label, cards in frame.hands])
        )
        self.query_one("#table", Static).update(_section("Table", frame.table))


def _title(frame: Frame) -> str:
    head = f"Step {frame.number} of {frame.total}"
    if frame.actor is None:
        return f"{head}: the deal"
    return f"{head}: {frame.actor} → {frame.action}"


def _section(title: str, lines: tuple[str, ...] | list[str]) -> Text:
    text = Text(title + "\n", style="bold underline")
    text.append("\n".join(lines))  # plain Text: card notation is never read as markup
    return text
