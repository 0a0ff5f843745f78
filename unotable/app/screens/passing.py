"""Pass three (UNO Hearts option): pick the three cards to give to the left."""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, SelectionList, Static

from unotable.engine import Action

from ..games import GamePresentation


class PassCardsScreen(ModalScreen[Action | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "confirm", "Pass them", id="passing.pass")
    ]

    def __init__(
        self, hand: list[Any], legal: list[Action], to: str, cards: GamePresentation
    ) -> None:
        super().__init__(classes="pass-three")
        self.hand = hand
        self.legal = legal
        self.to = to
        self.cards = cards

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(f"Choose three cards to pass to {self.to}", classes="dialog-title")
            yield SelectionList[int](
                *[(self._prompt(i, False), i) for i in range(len(self.hand))],
                id="pass-cards",
            )
            yield Static("Space or Enter marks a card; P or the button passes.", id="pass-hint")
            yield Button("Pass these three", id="pass-go", disabled=True, compact=True)

    def _prompt(self, index: int, chosen: bool) -> Text:
        # the list's own mark differs only in colour: words show it under NO_COLOR too
        prompt = self.cards.text(self.hand[index])
        return prompt + Text("  [chosen]") if chosen else prompt

    def on_mount(self) -> None:
        self.query_one(SelectionList).focus()

    @on(SelectionList.SelectedChanged)
    def _changed(self) -> None:
        options = self.query_one(SelectionList)
        chosen = options.selected
        for index in range(len(self.hand)):
            options.replace_option_prompt_at_index(index, self._prompt(index, index in chosen))
        button = self.query_one("#pass-go", Button)
        button.disabled = len(chosen) != 3
        hint = self.query_one("#pass-hint", Static)
        if len(chosen) == 3:
            hint.update("Three chosen: press P (or Tab to the button and Enter).")
        else:
            hint.update(f"{len(chosen)} of 3 chosen. Space or Enter marks a card.")

    @on(Button.Pressed, "#pass-go")
    def action_confirm(self) -> None:
        chosen = self.query_one(SelectionList).selected
        if len(chosen) != 3:
            self.notify("Choose exactly three cards.")
            return
        wanted = Counter(self.hand[i] for i in chosen)  # cards are interned: by identity
        for action in self.legal:
            if action.kind == "give" and Counter(action.cards) == wanted:
                self.dismiss(action)
                return
        cards = tuple(self.hand[i] for i in sorted(chosen))
        self.dismiss(Action("give", cards=cards))
