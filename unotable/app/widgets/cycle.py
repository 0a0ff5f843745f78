"""A one-line chooser that cycles through a few values: ◂ Normal ▸.

Much lighter than a Select (one widget, no overlay), which keeps the lobby quick to
open; ← → Space Enter or a click change it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


class Cycle(Widget, can_focus=True):
    DEFAULT_CSS = """
    Cycle { height: 1; width: auto; min-width: 12; }
    Cycle:focus { text-style: reverse; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space,enter", "step(1)", "Next", show=False, id="choice.next"),
        Binding("left", "step(-1)", "Previous", show=False, id="choice.previous"),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, cycle: Cycle, value: Any) -> None:
            super().__init__()
            self.cycle = cycle
            self.value = value

        @property
        def control(self) -> Cycle:
            return self.cycle

    def __init__(
        self, choices: Sequence[tuple[str, Any]], value: Any = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self.choices = list(choices)
        values = [v for _, v in self.choices]
        self.set_reactive(Cycle.index, values.index(value) if value in values else 0)

    @property
    def value(self) -> Any:
        return self.choices[self.index][1]

    @value.setter
    def value(self, new: Any) -> None:
        values = [v for _, v in self.choices]
        if new in values:
            self.index = values.index(new)

    def render(self) -> Text:
        label = self.choices[self.index][0]
        return Text(f"◂ {label} ▸")

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return max(len(label) for label, _ in self.choices) + 4

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.choices)

    def watch_index(self, old: int, new: int) -> None:
        if old != new:
            self.post_message(self.Changed(self, self.value))

    def on_click(self, event: events.Click) -> None:
        self.action_step(1)
