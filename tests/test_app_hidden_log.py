"""The table's log, hidden below 120 columns, keeps a bounded number of lines for when G
shows it. Textual's RichLog kept every line written before it first had a size, past its
max_lines: over an evening at 80 columns the hidden log only grew (issue #30's long run)."""

from __future__ import annotations

import pytest
from test_app_support import controller, drawn, make_app, play_one, start
from textual.widgets import RichLog

import unotable.app.screens.table as table_module


async def test_the_hidden_log_keeps_only_its_last_lines_and_shows_them_on_g(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_module, "LOG_LINES", 5)
    ctrl = controller("uno", ["human", "first", "first"], seed=4)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        log = table.query_one("#log", RichLog)
        while len(ctrl.match.log) < 30:
            await play_one(pilot)
        assert not log.display
        assert not log.lines and not log._deferred_renders, "the hidden log was written to"
        assert len(table._unwritten) == 5
        newest = list(table._unwritten)
        await pilot.press("g")
        await drawn(pilot)
        assert log.display
        shown = "\n".join(strip.text for strip in log.lines)
        assert newest[-1].split()[0] in shown and not table._unwritten
