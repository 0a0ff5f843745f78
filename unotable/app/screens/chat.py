"""Chat at a shared table: a quick phrase by its number, or a short line of your own."""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from unotable.tables.protocol import MAX_CHAT, QUICK_PHRASES

from ..widgets.choices import Choices
from ..widgets.keysbar import KeysBar

ChatLine = tuple[str | None, int | None]  # (a free line, None) or (None, a phrase's index)


class ChatScreen(ModalScreen[ChatLine | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back", id="chat.back")]

    def __init__(self) -> None:
        super().__init__(classes="chat-dialog")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Say something to the table", classes="dialog-title")
            yield Choices(
                *[Option(f"{i}  {p}", id=str(i - 1)) for i, p in enumerate(QUICK_PHRASES, 1)],
                id="phrases",
            )
            yield Input(placeholder="or type a line and press Enter", max_length=MAX_CHAT)
            yield Static("A number or Enter sends a phrase; Esc goes back", classes="dialog-hint")
        yield KeysBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        key = event.character or ""
        if isinstance(self.focused, Input):
            return
        if key.isdigit() and 1 <= int(key) <= len(QUICK_PHRASES):
            event.stop()
            self.dismiss((None, int(key) - 1))

    @on(OptionList.OptionSelected)
    def _phrase(self, event: OptionList.OptionSelected) -> None:
        self.dismiss((None, int(event.option.id or 0)))

    @on(Input.Submitted)
    def _line(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss((text, None) if text else None)

    def action_cancel(self) -> None:
        self.dismiss(None)
