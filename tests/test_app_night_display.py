"""Small display faults at a table night (issue 27, item 10)."""

from __future__ import annotations

from pathlib import Path

from match_driver import played
from test_app_support import screen_text, until
from test_store_stats_screen import Host
from textual.widgets import DataTable

from unotable.app.games import presentation_for
from unotable.app.screens.stats import StatsScreen
from unotable.app.words import Seats
from unotable.engine import get_game
from unotable.store import history
from unotable.store.record import SeatRecord


async def test_stats_at_80_columns_name_the_game_and_show_the_winner(tmp_path: Path) -> None:
    record, match = played("wild-twist-hearts", 4, seed=2, options={"length": 1})
    record.seats = [SeatRecord(n, "human") for n in ("Ann", "Bo", "Cy", "Di")]
    history.record_finished(record, tmp_path, match)
    app = Host(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        matches = screen.query_one("#matches", DataTable)
        await until(pilot, lambda: matches.row_count == 1, "the match listed")
        await pilot.pause()
        text = screen_text(app)
        assert str(matches.get_row_at(0)[1]) == "Wild Twist Hearts"
        assert "Wild Twist Hearts" in text
        assert "Winner" in text
        (entry,) = history.finished_matches(tmp_path)
        assert entry.winner_names
        row = [line for line in text.splitlines() if "Wild Twist Hearts" in line][-1]
        assert " & ".join(entry.winner_names) in row, row


def test_the_last_game_of_a_twist_match_is_over_not_at_trick_15() -> None:
    spec = get_game("wild-twist-hearts")
    match = spec.new_match(4, {"length": 1}, 3)
    while not match.over:
        seat = match.current
        match.apply(seat, match.legal_actions(seat)[0])
    game = presentation_for("wild-twist-hearts")
    title, _ = game.centre(match.view(0), Seats(["A", "B", "C", "D"]), 38)
    assert title.endswith("· over"), title


async def test_the_twist_scoreboard_says_game_throughout() -> None:
    from test_app_support import controller, make_app, play_headless, settle, start

    from unotable.app.screens.scoreboard import ScoreboardScreen

    app = make_app()
    ctrl = controller("wild-twist-hearts", ["human", "first"] * 2, length=2)
    play_headless(ctrl, lambda: ctrl.hand_over)  # the end of game 1, as the table has it
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot, ctrl)
        assert isinstance(await settle(pilot), ScoreboardScreen)
        await pilot.pause()
        text = screen_text(app)
        assert "Game 1 is over" in text and "This game" in text
        assert "Totals over the games" in text and "This hand" not in text, text
