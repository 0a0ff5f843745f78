"""The stats screen: per-player figures from the finished-match history, and recent matches."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static

from unotable.engine import game_ids
from unotable.store.history import HistoryEntry, finished_matches, stats_from_entries

from ..widgets.keysbar import KeysBar

RECENT = 20
PLAYER_COLUMNS = (
    "Player",
    "Matches",
    "Wins",
    "Avg pts/hand",
    "Moons shot",
    "UNO catches",
    "Challenges won",
)
# the winner before the long list of seats: at 80 columns the list is what gets cut
MATCH_COLUMNS = ("Finished (UTC)", "Game", "Winner", "Seats and scores")


def _title(game_id: str) -> str:
    from ..games import game_title

    try:
        return game_title(game_id)
    except ValueError:  # a game played headless, with no presentation
        return game_id


class StatsScreen(Screen[None]):
    """Stats per player name; ``g`` switches between all games and each game."""

    DEFAULT_CSS = """
    StatsScreen { layout: vertical; }
    StatsScreen .stats-title { padding: 0 1; text-style: bold; }
    StatsScreen DataTable { height: auto; max-height: 50%; margin: 0 1 1 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "next_game", "Game filter", id="stats.game"),
        Binding("escape,q", "close", "Back", id="stats.back"),
    ]

    def __init__(self, data_dir: Path | None = None) -> None:
        super().__init__()
        self._data_dir = data_dir
        self.entries: list[HistoryEntry] = []
        self.shown_matches: list[HistoryEntry] = []
        self.game: str | None = None  # None: every game

    def compose(self) -> ComposeResult:
        yield Static(id="players-title", classes="stats-title")
        yield DataTable(id="players", cursor_type="row", zebra_stripes=True)
        yield Static(id="matches-title", classes="stats-title")
        yield DataTable(id="matches", cursor_type="row", zebra_stripes=True)
        yield Static(id="replay-hint", classes="stats-title")
        yield KeysBar()

    def on_mount(self) -> None:
        data_dir = self._resolve_data_dir()
        self.entries = [] if data_dir is None else finished_matches(data_dir)
        self.query_one("#players", DataTable).add_columns(*PLAYER_COLUMNS)
        self.query_one("#matches", DataTable).add_columns(*MATCH_COLUMNS)
        self.refresh_tables()

    def _resolve_data_dir(self) -> Path | None:
        """The folder given, else the app's (None there: an app that keeps no files)."""
        if self._data_dir is not None:
            return self._data_dir
        if hasattr(self.app, "data_dir"):
            app_dir = self.app.data_dir
            return app_dir if isinstance(app_dir, Path) else None
        from unotable.store.paths import default_data_dir

        return default_data_dir()

    def refresh_tables(self) -> None:
        shown = "all games" if self.game is None else _title(self.game)
        entries = [e for e in self.entries if self.game is None or e.game == self.game]
        players = self.query_one("#players", DataTable)
        players.clear()
        for stats in stats_from_entries(entries).values():
            average = stats.average_points
            players.add_row(
                Text(stats.name),
                str(stats.matches),
                str(stats.wins),
                "-" if average is None else f"{average:.1f}",
                str(stats.moons),
                str(stats.uno_catches),
                str(stats.challenges_won),
            )
        count = len(entries)
        self.query_one("#players-title", Static).update(
            f"Players: {shown}, {count} finished match{'es' if count != 1 else ''} (g: change game)"
            if count
            else f"Players: {shown}. No finished matches yet (g: change game)"
        )
        matches = self.query_one("#matches", DataTable)
        matches.clear()
        self.shown_matches = entries[:RECENT]
        self.query_one("#replay-hint", Static).update("")
        for entry in self.shown_matches:
            seats = ", ".join(
                f"{seat.name} {score}"
                for seat, score in zip(entry.seats, entry.scores, strict=True)
            )
            matches.add_row(
                entry.finished_at.replace("T", " ").removesuffix("+00:00"),
                Text(_title(entry.game)),
                Text(" & ".join(entry.winner_names) or "-"),
                Text(seats),
            )
        self.query_one("#matches-title", Static).update(f"Recent matches ({shown})")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id != "matches" or not 0 <= event.cursor_row < len(self.shown_matches):
            return
        path = self.shown_matches[event.cursor_row].path
        self.query_one("#replay-hint", Static).update(
            Text(f"To replay it: unotable replay {path}", style="dim")
        )

    def action_next_game(self) -> None:
        choices: list[str | None] = [None, *game_ids()]
        self.game = choices[(choices.index(self.game) + 1) % len(choices)]
        self.refresh_tables()

    def action_close(self) -> None:
        self.dismiss()
