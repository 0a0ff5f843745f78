"""Pieces every screen uses: the too-small notice and the generic choice dialogs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.choices import Choices
from ..widgets.keysbar import KeysBar

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


# A screen's attribute: keys typed before this moment never reach it (the app drops them).
KEYS_FROM = "keys_from"
KEPT_KEYS = frozenset({"ctrl+c"})  # typed ahead or not, these always count


def keys_from_now(screen: Screen[Any]) -> Screen[Any]:
    """Keys typed before ``screen`` is shown (still buffered, meant for what was on screen
    then: Enter Enter at a hand's end) do not reach it: it takes keys from now on."""
    # Textual stamps each key event with this clock when the key is read
    from textual._time import get_time

    setattr(screen, KEYS_FROM, get_time())
    return screen


def keys_since(screen: Screen[Any], shown: Screen[Any]) -> Screen[Any]:
    """``screen`` takes the keys typed since ``shown`` was shown (it asks the same)."""
    setattr(screen, KEYS_FROM, getattr(shown, KEYS_FROM, float("-inf")))
    return screen


def typed_before(screen: Screen[Any], key: events.Key) -> bool:
    """The key was typed before ``screen`` was shown, and is not to reach it."""
    return key.key not in KEPT_KEYS and key.time < getattr(screen, KEYS_FROM, float("-inf"))


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
        self._answered = False

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
        yield KeysBar()  # the dialog's own keys, not the table's underneath

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.cancellable if action == "cancel" else True

    def on_mount(self) -> None:
        # a dialog closed as it opened (the table moved on) may have lost its list already
        for options in self.query(OptionList):
            options.focus()

    def on_key(self, event: events.Key) -> None:
        key = event.character or ""
        if key.isdigit() and key != "0" and int(key) <= len(self.choices):
            event.stop()
            self.choose(self.choices[int(key) - 1][0])

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option.id)

    def action_cancel(self) -> None:
        if self.cancellable:
            self.choose(None)

    def choose(self, answer: str | None) -> None:
        """Close with ``answer``, once: "1 1" typed fast answers only this dialog (a second
        close would raise, or close the screen underneath)."""
        if self._answered or not self.is_active:
            return
        self._answered = True
        self.dismiss(answer)


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
        self.choose("no")

    def action_yes(self) -> None:
        self.choose("yes")
