"""Help: the rules of each game for players, and the keys overlay (Markdown files)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from importlib.resources import files
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown, MarkdownViewer, Static

from ..widgets.keysbar import KeysBar
from .common import TooSmall

DEFAULT_GAME = "uno"


def help_text(name: str) -> str:
    return files("unotable.app").joinpath("help", f"{name}.md").read_text(encoding="utf-8")


def help_games() -> tuple[str, ...]:
    """The games of the engine's registry with a rules page or a presentation, in order."""
    from unotable.engine import game_ids

    from ..games import game_titles

    pages = files("unotable.app").joinpath("help")
    titled = game_titles()
    return tuple(g for g in game_ids() if pages.joinpath(f"{g}.md").is_file() or g in titled)


def rules_text(game: str) -> str:
    """The game's rules page; a game registered without one gets a page from its spec."""
    if files("unotable.app").joinpath("help", f"{game}.md").is_file():
        return help_text(game)
    from unotable.engine import get_game

    from ..games import game_title

    spec = get_game(game)
    lines = [f"# {game_title(game)}", "", spec.description, ""]
    lines.append(f"For {spec.min_players} to {spec.max_players} players.")
    if spec.options:
        lines += ["", "## Table options", ""]
        lines += [f"- **{o.label}**: {o.help}" for o in spec.options]
    return "\n".join(lines) + "\n"


class _Viewer(MarkdownViewer):
    def _on_markdown_table_of_contents_updated(
        self, message: Markdown.TableOfContentsUpdated
    ) -> None:
        # a key storm can land here before the contents' tree exists: nothing to update
        with contextlib.suppress(NoMatches):
            super()._on_markdown_table_of_contents_updated(message)


class RulesScreen(Screen[None]):
    """The rules of one game; Tab moves to the next game's rules."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", id="rules.back"),
        Binding("tab", "next_game", "Next game", id="rules.next-game"),
    ]

    def __init__(self, game: str, options: Mapping[str, Any] | None = None) -> None:
        """``options``: the table's, when opened from a table (its house rules come first)."""
        super().__init__(classes="rules")
        self.game = game if game in help_games() else DEFAULT_GAME
        self.options = options

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Vertical(id="rules-box"):
            yield _Viewer(self._page(self.game), show_table_of_contents=False, id="rules-text")
        yield KeysBar()

    def _page(self, game: str) -> str:
        """The rules, after this table's house rules when it plays with any (RULES §4)."""
        text = rules_text(game)
        if self.options is None:
            return text
        from ..games import presentation_class

        words = presentation_class(game)
        on = words.house_rules_on(self.options)
        if not on:
            return text
        lines = ["# House rules at this table", "", "Not in the rulebook; chosen in the lobby.", ""]
        for said, option in on:
            help_text = words.option_help.get(option.name, option.help)
            lines.append(f"- **{said}**: {help_text}")
        return "\n".join(lines) + "\n\n" + text

    def on_mount(self) -> None:
        for text in self.query("#rules-text"):  # none if the screen closed while it opened
            text.focus()

    def action_next_game(self) -> None:
        games = help_games()
        index = (games.index(self.game) + 1) % len(games)
        self.game = games[index]
        viewer = self.query_one(_Viewer)
        viewer.document.update(self._page(self.game))
        viewer.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


def keys_table(text: str | None = None) -> tuple[list[tuple[str, str]], str]:
    """The keys page as (key, what it does) rows and the paragraphs after the table."""
    rows: list[tuple[str, str]] = []
    notes: list[str] = []
    for line in (text if text is not None else help_text("keys")).splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 2 and not set(cells[0]) <= set("-") and cells[0] != "Key":
                rows.append((cells[0], cells[1]))
        elif rows and not line.startswith("#"):
            notes.append(line)
    return rows, " ".join(" ".join(notes).split())


# The keys page's rows and the bindings each describes: a keymap's keys replace the
# page's in the overlay.
ROW_BINDINGS: dict[str, tuple[str, ...]] = {
    "← →": ("table.cursor-left", "table.cursor-right"),
    "Enter or Space": ("table.play",),
    "1 … 9, 0": tuple(f"table.pick-{n}" for n in range(1, 11)),
    "Shift+1 … 9, 0": tuple(f"table.pick-{n}" for n in range(11, 21)),
    "D": ("table.draw",),
    "U": ("table.uno",),
    "C": ("table.catch",),
    "S": ("table.sort",),
    "T": ("table.last-trick",),
    "G": ("table.log",),
    "H": ("table.hint",),
    "K": ("table.tracker",),
    "F": ("table.skip-ahead",),
    "Z": ("table.undo",),
    "M": ("table.chat",),
    "O": ("table.settings",),
    "F1": ("table.rules", "app.rules"),
    "?": ("table.keys",),
    "Q or Ctrl+C": ("table.quit", "app.quit"),
}


def shown_key(app: Any, key: str) -> str:
    """A key as the keys page writes it: "D", "?", "F1"."""
    shown = app.get_key_display(Binding(key, ""))
    return shown.upper() if len(shown) == 1 else shown


def keymap_rows(app: Any, rows: list[tuple[str, str]]) -> tuple[list[tuple[str, str]], str]:
    """``rows`` with the keys the app's keymap gives their bindings, and a sentence for
    the keymap's other remapped keys (the lobby's, the dialogs')."""
    from unotable.app.prefs import BINDING_HOLDERS, COMPANION, holder_bindings

    keymap: dict[str, str] = dict(getattr(app, "_keymap", {}))
    if not keymap:
        return rows, ""
    defaults = {b.id: b.key for group in ("table", "app") for b in holder_bindings(group)}

    def keys_of(binding_id: str) -> list[str]:
        return (keymap.get(binding_id) or defaults.get(binding_id, "")).split(",")

    changed = []
    for key, does in rows:
        ids = ROW_BINDINGS.get(key, ())
        if any(b in keymap for b in ids):
            shown = [shown_key(app, k) for b in ids for k in keys_of(b) if k]
            key = " or ".join(dict.fromkeys(shown))
        changed.append((key, does))
    others = []
    for binding_id, keys in keymap.items():
        group = binding_id.split(".")[0]
        if group in ("table", "app") or binding_id.endswith(COMPANION):
            continue
        if group in BINDING_HOLDERS:
            named = {b.id: b.description for b in holder_bindings(group)}
            what = named.get(binding_id) or binding_id
            shown = " or ".join(shown_key(app, k) for k in keys.split(","))
            others.append(f"{what} ({binding_id}) {shown}")
    note = f"Your keymap also sets: {'; '.join(others)}." if others else ""
    return changed, note


class KeysScreen(ModalScreen[None]):
    """Every key of the table, in a box that scrolls: at 80x24 not all rows fit."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,enter", "close", "Close", id="keys.close"),
        Binding("j", "scroll(1)", "Down", show=False, id="keys.down"),
        Binding("k", "scroll(-1)", "Up", show=False, id="keys.up"),
    ]

    def compose(self) -> ComposeResult:
        from rich.table import Table
        from rich.text import Text

        rows, notes = keys_table()
        rows, remapped = keymap_rows(self.app, rows)  # as the player's keymap sets them
        notes = f"{notes} {remapped}".strip()
        table = Table(box=None, show_header=False, padding=(0, 1), expand=True)
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("does", ratio=1)
        for key, does in rows:
            table.add_row(Text(key), Text(does))
        with Vertical(classes="dialog", id="keys-box"):
            yield Static("Keys", classes="dialog-title")
            with VerticalScroll(id="keys-text"):
                yield Static(table, id="keys-rows")
                yield Static(Text(notes), id="keys-notes")
            yield Static("↑ ↓ j k PgUp PgDn Home End scroll · Esc closes", classes="dialog-hint")

    def on_mount(self) -> None:
        for text in self.query("#keys-text"):  # none if the screen closed while it opened
            text.focus()

    def action_scroll(self, step: int) -> None:
        box = self.query_one("#keys-text", VerticalScroll)
        box.scroll_relative(y=step, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
