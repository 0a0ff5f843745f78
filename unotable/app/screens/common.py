"""Pieces every screen uses: the too-small notice and the generic choice dialogs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.choices import Choices

MIN_WIDTH, MIN_HEIGHT = 80, 24


class TooSmall(Static):
    """Shown instead of the screen's content while the terminal is below 80x24."""

    def __init__(self) -> None:
        super().__init__(
            f"The terminal is too small for the table.\n\n"
            f"Please make it at least {MIN_WIDTH} columns by {MIN_HEIGHT} rows;\n"
            "everything comes back as it was when it grows.",
            classes="too-small",
        )


def screen_too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class ChoiceScreen(ModalScreen[str | None]):
    """Pick one of a few answers; dismisses with its key, or None on Escape if allowed.

    ``choices`` are (key, label) pairs; digits 1-9 pick directly too.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back", id="dialog.back")]

    def __init__(
        self,
        title: str,
        choices: Sequence[tuple[str, str]],
        *,
        explanation: str = "",
        cancellable: bool = True,
        dialog_id: str = "choice",
    ) -> None:
        # A class, not an id: the next dialog may open while this one is still closing.
        super().__init__(classes=dialog_id)
        self.title_text = title
        self.choices = list(choices)
        self.explanation = explanation
        self.cancellable = cancellable

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            # Text, not markup strings: titles and choices may name players or files
            yield Label(Text(self.title_text), classes="dialog-title")
            if self.explanation:
                yield Static(Text(self.explanation), classes="dialog-text")
            options = [
                Option(Text(f"{i}  {label}" if i <= 9 else label), id=key)
                for i, (key, label) in enumerate(self.choices, start=1)
            ]
            yield Choices(*options, id="choices")
            hint = "Enter or a number to choose" + (", Esc to go back" if self.cancellable else "")
            yield Static(hint, classes="dialog-hint")
        yield Footer()  # the dialog's own keys, not the table's underneath

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.cancellable if action == "cancel" else True

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_key(self, event: events.Key) -> None:
        key = event.character or ""
        if key.isdigit() and key != "0" and int(key) <= len(self.choices):
            event.stop()
            self.dismiss(self.choices[int(key) - 1][0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        if self.cancellable:
            self.dismiss(None)


class ConfirmScreen(ChoiceScreen):
    """Yes or no; dismisses with "yes" or "no" (Escape is no)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "No", id="confirm.no"),
        Binding("y", "yes", "Yes", show=False, id="confirm.yes"),
    ]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No", explanation: str = ""):
        super().__init__(
            question, [("yes", yes), ("no", no)], explanation=explanation, dialog_id="confirm"
        )

    def action_cancel(self) -> None:
        self.dismiss("no")

    def action_yes(self) -> None:
        self.dismiss("yes")
