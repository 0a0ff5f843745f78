"""The stats screen shows the history's players and matches, per game on ``g``."""

from __future__ import annotations

from match_driver import played
from textual.app import App
from textual.widgets import DataTable, Static

from unotable.app.screens.stats import StatsScreen
from unotable.engine import GAME_IDS
from unotable.store import history
from unotable.store.record import SeatRecord


class Host(App[None]):
    def __init__(self, data_dir):
        super().__init__()
        self.data_dir = data_dir

    def on_mount(self) -> None:
        self.push_screen(StatsScreen())


def cells(table: DataTable, column: int) -> list[str]:
    return [str(table.get_row_at(i)[column]) for i in range(table.row_count)]


async def test_stats_screen_lists_players_and_filters_by_game(tmp_path):
    uno, uno_match = played("uno", 2, seed=2, options={"target": 40})
    uno.seats = [SeatRecord("Ann", "human"), SeatRecord("[b]Bo[/b]", "easy")]
    hearts, hearts_match = played("uno-hearts", 3, seed=2, options={"target": 10})
    hearts.seats = [SeatRecord(n, "human") for n in ("Ann", "Cy", "Di")]
    history.record_finished(uno, tmp_path, uno_match)
    history.record_finished(hearts, tmp_path, hearts_match)

    app = Host(tmp_path)
    async with app.run_test() as pilot:
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        players = screen.query_one("#players", DataTable)
        matches = screen.query_one("#matches", DataTable)
        assert cells(players, 0) == ["Ann", "[b]Bo[/b]", "Cy", "Di"]  # names shown as typed
        assert cells(players, 1) == ["2", "1", "1", "1"]
        assert matches.row_count == 2
        assert cells(matches, 1) == ["UNO Hearts", "UNO"]  # newest first, by title

        await pilot.press("g")  # the first game alone
        assert screen.game == GAME_IDS[0] == "uno"
        # one match each: by name, and "[" sorts before letters
        assert cells(players, 0) == ["[b]Bo[/b]", "Ann"] and matches.row_count == 1
        ann_points = uno_match.scores[0] / len(uno_match.hand_results)
        assert cells(players, 3)[1] == f"{ann_points:.1f}"

        for _ in GAME_IDS:
            await pilot.press("g")
        assert screen.game is None and players.row_count == 4  # back to every game

        matches.focus()
        matches.move_cursor(row=1)
        await pilot.pause()
        hint = str(screen.query_one("#replay-hint", Static).content)
        _, oldest = history.finished_matches(tmp_path)
        assert hint.endswith(f"unotable replay {oldest.path}")

        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen)


async def test_stats_screen_without_history(tmp_path):
    app = Host(tmp_path / "empty")
    async with app.run_test():
        screen = app.screen
        assert screen.query_one("#players", DataTable).row_count == 0
        assert "No finished matches yet" in str(screen.query_one("#players-title").content)
