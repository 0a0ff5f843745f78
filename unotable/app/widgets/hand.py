"""The hand of the human to act: cards in display order, a cursor, playable cards lit."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widget import Widget

from ..games import GamePresentation, presentation_for
from ..upstream import refit_height

# Number keys 1-9 then 0 pick the first ten cards.
NUMBER_KEYS = "1234567890"
SHIFTED_KEYS = "!@#$%^&*()"  # the number row with Shift: cards 11 to 20
PICK_KEYS = NUMBER_KEYS + SHIFTED_KEYS  # what is shown under each card, in hand order
# Textual's names for the keys that type them
KEY_NAMES: tuple[str, ...] = (
    *NUMBER_KEYS,
    "exclamation_mark",
    "at",
    "number_sign",
    "dollar_sign",
    "percent_sign",
    "circumflex_accent",
    "ampersand",
    "asterisk",
    "left_parenthesis",
    "right_parenthesis",
)
PICK_IDS = tuple(f"table.pick-{n}" for n in range(1, len(KEY_NAMES) + 1))  # their bindings


def pick_keys(app: Any) -> list[str]:
    """What to show under cards 1 to 20: each pick binding's key as the keymap sets it."""
    keymap: dict[str, str] = getattr(app, "_keymap", None) or {}
    if not any(binding_id in keymap for binding_id in PICK_IDS):
        return list(PICK_KEYS)
    from textual.binding import Binding

    shown = []
    for binding_id, default in zip(PICK_IDS, PICK_KEYS, strict=True):
        keys = keymap.get(binding_id, "").split(",")[0].strip()
        shown.append(app.get_key_display(Binding(keys, "")) if keys else default)
    return shown


def beyond_hints(count: int, ascii_only: bool, default_keys: bool = True) -> list[str]:
    """How to play the cards past the 10th (and the 20th), shortest wording last."""
    dash, dots, arrows = ("-", "...", "arrows") if ascii_only else ("–", "…", "←/→")
    keys = f"Cards 11{dash}20: the key under each card"
    past = f" Past the 20th: {arrows} and Enter." if count > len(PICK_KEYS) else ""
    shift = f" (Shift+1{dots}0)" if default_keys else ""
    return [f"{keys}{shift}.{past}", f"{keys}.{past}"]


class HandView(Widget):
    """Renders a hand as rows of card chips, each with its number key underneath.

    Only playable cards get a number (a non-colour signal); the cursor card is bracketed.
    """

    class Picked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: list[Any] = []
        self.playable: set[int] = set()  # indices into cards
        self.cursor = 0
        self.message = ""
        self.card_style: GamePresentation = presentation_for("uno")
        self.selected: set[int] = set()
        self._lines: tuple[tuple[Any, ...], Any] | None = None  # the last wrap, and its key
        self._text: tuple[tuple[Any, ...], Text] | None = None  # the last render, and its key
        self._hidden_rows = 0  # while the cards are hidden: the rows they took
        self._drawn_height = 0  # the height of the last drawing asked for

    def show(
        self,
        cards: list[Any],
        playable: set[int],
        card_style: GamePresentation,
        message: str = "",
    ) -> None:
        fresh_turn = playable and not self.playable
        at_cursor = self.cards[self.cursor] if 0 <= self.cursor < len(self.cards) else None
        self.cards = cards
        if at_cursor is not None and at_cursor in cards:
            self.cursor = cards.index(at_cursor)  # the cursor stays on its card (S, a draw)
        self.playable = playable
        self.card_style = card_style
        self.message = message
        if self.cursor >= len(cards):
            self.cursor = max(0, len(cards) - 1)
        if fresh_turn and self.cursor not in playable:
            self.cursor = min(playable)  # start each turn on a card that can be played
        self._redraw()

    def hide(self, message: str) -> None:
        # the hidden hand keeps its rows: at each hot-seat hand-over the table would shrink
        # and grow again (two layouts of the whole screen, and a jump under the eye)
        width = self.content_size.width
        if self.cards and width:
            self._hidden_rows = self._height(width)
        self.cards = []
        self.playable = set()
        self.message = message
        self._redraw()

    def _redraw(self) -> None:
        """Nothing when the hand looks the same (the others' turns); a repaint when only
        the chips changed; a layout of the screen only when the hand's height changed."""
        width = self.content_size.width
        if not width:
            self.refresh(layout=True)  # not laid out yet
            return
        before = self._lines
        key = self._drawn_key(width)
        if before is not None and before[0] == key:
            return
        height_before = self._drawn_height
        self._drawn_height = self._height(width)
        if before is None or height_before != self._drawn_height:
            refit_height(self)
        else:
            self.refresh()

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)
            self.refresh()

    def pick(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.refresh()
            self.post_message(self.Picked(index))

    def on_click(self, event: events.Click) -> None:
        # cards carry their index as meta, not as an @click link (links get the theme's
        # link colour and underline, which would repaint every card)
        index = event.style.meta.get("card")
        if isinstance(index, int):
            event.stop()
            self.pick(index)

    def text_lines(self) -> list[str]:
        """What is on screen, as plain text (for tests and screen readers)."""
        width = self.content_size.width or 78
        return [line.plain for line in self._wrapped(width)]

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return self._height(width)

    def line_count(self) -> int:
        """How many lines the hand takes at its width now."""
        return self._height(self.content_size.width or 78)

    def _height(self, width: int) -> int:
        hidden = 0 if self.cards else self._hidden_rows
        return max(1, len(self._wrapped(width)), hidden)

    def _wrapped(self, width: int) -> Any:
        """The lines as drawn in ``width`` columns: a notice too long for one line wraps,
        and the height counts every line of it (none is cut off at the box's bottom)."""
        key = self._drawn_key(width)
        if self._lines is None or self._lines[0] != key:
            lines = self.render_text(width).wrap(self.app.console, width, overflow="fold")
            self._lines = (key, lines)
        return self._lines[1]

    def render(self) -> Text:
        width = self.content_size.width or 78
        key = self._drawn_key(width)
        if self._text is None or self._text[0] != key:
            self._text = (key, self.render_text(width))
        return self._text[1].copy()  # the frame may style what it is given

    def _drawn_key(self, width: int) -> tuple[Any, ...]:
        # everything the chips depend on: a layout asks for the height, then the frame
        # draws, each at the same width, and the hand is built once for both
        return (
            width,
            tuple(self.cards),
            tuple(sorted(self.playable)),
            self.cursor,
            tuple(sorted(self.selected)),
            self.message,
            type(self.card_style),
            self.card_style.theme,
            self.card_style.ascii_only,
            tuple(self.pick_labels()),
        )

    def pick_labels(self) -> list[str]:
        """The keys shown under the cards: the pick bindings' keys, as remapped."""
        try:
            return pick_keys(self.app)
        except RuntimeError:  # not in an app (Textual's NoActiveAppError): the default keys
            return list(PICK_KEYS)

    def render_text(self, width: int = 78) -> Text:
        if not self.cards:
            return Text(self.message or "No cards.", style="italic")
        style = self.card_style
        ascii_only = style.ascii_only
        keys = self.pick_labels()
        rows: list[tuple[Text, Text]] = []
        top, bottom = Text(), Text()
        for i, card in enumerate(self.cards):
            label = style.label(card)
            playable = i in self.playable
            chip_width = len(label) + 2
            if top.cell_len + chip_width + 2 > width and top.cell_len:
                rows.append((top, bottom))
                top, bottom = Text(), Text()
            at_cursor = i == self.cursor
            left, right = ("[", "]") if at_cursor else (" ", " ")
            if i in self.selected:
                left, right = ("*", "*") if not at_cursor else ("[", "]")
            click = Style(meta={"card": i})
            top.append(left, style=Style(bold=True) + click)
            chip = style.text(card, dim=not playable)
            chip.stylize(click)
            if at_cursor:
                chip.stylize(Style(underline=True))
            top.append_text(chip)
            top.append(right, style=Style(bold=True) + click)
            key = keys[i][: chip_width + 2] if i < len(keys) else " "
            mark = key if playable else ("·" if not ascii_only else ".")
            if i in self.selected:
                mark = "^" if ascii_only else "▲"
            cell = mark.center(chip_width + 2)
            bottom.append(cell, style=Style(dim=not playable) + click)
        rows.append((top, bottom))
        out = Text()
        for n, (a, b) in enumerate(rows):
            if n:
                out.append("\n")
            out.append_text(a)
            out.append("\n")
            out.append_text(b)
        # shown on the others' turns too: a line that came and went with each turn would
        # move the table under the eye and lay the whole screen out twice a turn
        if len(self.cards) > len(NUMBER_KEYS):
            hints = beyond_hints(len(self.cards), ascii_only, keys == list(PICK_KEYS))
            # the first wording that fits on one line; else the shortest, wrapped
            hint = next((h for h in hints if len(h) <= width), hints[-1])
            out.append("\n" + hint, style=Style(dim=True))
        if self.message:
            out.append("\n")
            out.append(self.message, style="italic")
        return out
