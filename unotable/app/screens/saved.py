"""The Saved matches list (resume or delete any one) and the read-only view of a match
another session is playing."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static

from ..games import game_titles, presentation_class
from ..widgets.keysbar import KeysBar
from .common import ConfirmScreen, TooSmall


def last_played(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp).strftime("%Y-%m-%d %H:%M")


class SavedMatchesScreen(Screen[str | None]):
    """Dismisses with the id of the match to resume, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "resume", "Resume", id="saved.resume"),
        Binding("d,delete", "delete", "Delete", id="saved.delete"),
        Binding("escape,q", "back", "Back", id="saved.back"),
    ]

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Static("", id="saved-title")
        table: DataTable[str | Text] = DataTable(
            id="saved-list", cursor_type="row", zebra_stripes=True
        )
        table.add_columns("Game", "Players", "Hand", "Totals", "Last played", "")
        yield table
        yield Static("", id="saved-message")
        yield KeysBar()

    def on_mount(self) -> None:
        self.fill()

    def fill(self) -> None:
        from unotable.store.matches import MAX_LISTED

        app: Any = self.app
        notice = app.refresh_saved()
        if notice:
            self.notify(notice, severity="warning", timeout=10)
        saved = app.saved
        matches = saved.matches if saved is not None else []
        table = self.query_one("#saved-list", DataTable)
        table.clear()
        titles = game_titles()
        for m in matches:
            totals = "–" if m.totals is None else " ".join(str(t) for t in m.totals)
            title = titles.get(m.game, m.game)
            if m.game in titles and presentation_class(m.game).house_rules(m.options):
                title += " + house rules"
            table.add_row(
                Text(title),  # Text: names are never markup
                Text(", ".join(m.players)),
                "–" if m.hand is None else str(m.hand),
                totals,
                last_played(m.last_played),
                "in use" if m.in_use else "",
                key=m.match_id,
            )
        total = saved.total if saved is not None else 0
        if not total:
            title = "No saved matches. A match is saved as soon as someone acts in it."
        elif total > len(matches):
            title = (
                f"Saved matches: the {len(matches)} most recently played of {total}. "
                "The others stay saved and show up here as these are finished or deleted."
            )
        else:
            title = f"Saved matches ({total}; the list shows up to {MAX_LISTED})"
        self.query_one("#saved-title", Static).update(title)
        table.focus()

    def selected(self) -> str | None:
        table = self.query_one("#saved-list", DataTable)
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value is not None else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_resume()

    def action_resume(self) -> None:
        match_id = self.selected()
        if match_id is not None:
            self.dismiss(match_id)

    def action_delete(self) -> None:
        from unotable.store.paths import trash_dir

        match_id = self.selected()
        if match_id is None:
            return
        app: Any = self.app
        self.app.push_screen(
            ConfirmScreen(
                "Delete this saved match?",
                yes="Delete",
                no="Keep it",
                explanation=f"It is moved to the trash folder {trash_dir(app.data_dir)}.",
            ),
            lambda answer: self._delete(match_id) if answer == "yes" else None,
        )

    def _delete(self, match_id: str) -> None:
        from unotable.store.matches import MatchGone, MatchInUse, trash_match

        app: Any = self.app
        try:
            moved = trash_match(app.data_dir, match_id)
        except (MatchInUse, MatchGone, OSError) as error:
            self._message(f"Not deleted: {error}")
        else:
            self._message(f"Moved to {moved}.")
        self.fill()

    def _message(self, text: str) -> None:
        self.query_one("#saved-message", Static).update(Text(text))

    def action_back(self) -> None:
        self.dismiss(None)


class WatchScreen(Screen[None]):
    """A match another session is writing, read only: step through it; r reads it again."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l", "step(1)", "Next", id="watch.next"),
        Binding("left,h", "step(-1)", "Back", id="watch.previous"),
        Binding("end", "step(1000000)", "Latest", id="watch.latest"),
        Binding("r", "reload", "Read again", id="watch.reload"),
        Binding("escape,q", "close", "Close", id="watch.close"),
    ]

    def __init__(self, data_dir: Path, match_id: str) -> None:
        super().__init__()
        self.data_dir = data_dir
        self.match_id = match_id
        self.replay: Any = None
        self.position = 0

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Static("", id="watch-title")
        with VerticalScroll():
            yield Static("", id="watch-frame")
        yield KeysBar()

    def on_mount(self) -> None:
        self.action_reload()

    def action_reload(self) -> None:
        from unotable.replay.frames import Replay
        from unotable.store.matches import MatchGone, read_match
        from unotable.store.saves import SaveError

        try:
            record = read_match(self.data_dir, self.match_id)
            humans = [i for i, s in enumerate(record.seats) if s.kind == "human"]
            viewer = None if record.finished else (humans[0] if humans else 0)
            self.replay = Replay(record, viewer)
        except (MatchGone, SaveError, OSError) as error:
            self.query_one("#watch-frame", Static).update(Text(f"It cannot be shown: {error}"))
            return
        seen = "everyone's cards" if viewer is None else "as " + self.replay.seat_label(viewer)
        self.query_one("#watch-title", Static).update(
            Text(f"Watching, read only ({seen}): another session is playing this match.")
        )
        self.show(len(self.replay) - 1)

    def action_step(self, delta: int) -> None:
        if self.replay is not None:
            self.show(self.position + delta)

    def show(self, number: int) -> None:
        self.position = max(0, min(number, len(self.replay) - 1))
        self.query_one("#watch-frame", Static).update(Text(self.replay.frame(self.position).text()))

    def action_close(self) -> None:
        self.dismiss(None)
