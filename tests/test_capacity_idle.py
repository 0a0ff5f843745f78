"""A seated player who does nothing costs nothing: the Shared tables list under a shared
table asks the server nothing, and a list refresh that changes nothing shown draws nothing.

(Textual redraws the screen on top for every message a screen right beneath it handles: a
list refresh every 2 s under the table was a socket connection and two or three full frames
of the table, for every seated player.)

Time is never waited on: the list's timer callback is called by the test, as the timer
would call it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_app_shared import open_shared_tables, serve_tables, until
from test_app_support import make_app, screen_text

from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.shared import SeatPlanScreen, SharedTablesScreen
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.choices import Choices
from unotable.tables.client import TableClient

SETUP = {
    "game": "uno",
    "seats": [["You", "human"], ["Bo", "human"], ["Cy", "normal"]],
    "options": {},
}


def count_list_requests(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every "list" request any client sends the table service, from now on."""
    sent: list[int] = []
    original = TableClient.send

    async def send(self: TableClient, message: dict[str, Any]) -> None:
        if message.get("type") == "list":
            sent.append(1)
        await original(self, message)

    monkeypatch.setattr(TableClient, "send", send)
    return sent


async def test_the_list_under_a_shared_table_asks_nothing_until_shown_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    requests = count_list_requests(monkeypatch)
    app = make_app(last_setup=SETUP)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            listing = app.screen
            assert isinstance(listing, SharedTablesScreen)
            await until(pilot, lambda: bool(requests), "the list never asked")
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            await until(pilot, lambda: "Waiting for players" in screen_text(app), "no wait")
            assert listing in app.screen_stack  # covered by the table, not closed
            workers: list[Any] = []
            run_worker = listing.run_worker

            def counted(*args: Any, **kwargs: Any) -> Any:
                workers.append(args)
                return run_worker(*args, **kwargs)

            monkeypatch.setattr(listing, "run_worker", counted)
            asked = len(requests)
            # the list's 2-second timer comes round, again and again, under the table
            for _ in range(5):
                listing._tick()
                for _ in range(10):
                    await pilot.pause()
            assert len(requests) == asked, "the covered list asked the server"
            assert not workers, "the covered list ran a refresh (each redraws the table)"
            assert isinstance(app.screen, TableScreen)

            # back to the list (Q, then "back to the list"): it asks at once
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "no leave dialog")
            await pilot.press("2")
            await until(pilot, lambda: app.screen is listing, "not back at the list")
            await until(pilot, lambda: len(requests) > asked, "the list did not ask again")
            await until(pilot, lambda: "Ann" in screen_text(app), "the table is not listed")
    finally:
        await service.stop()


async def test_a_refresh_that_changes_nothing_shown_keeps_the_list(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the server says changes in what the list does not show (who is connected at
    this moment, a counter): the list is not rebuilt, so nothing is drawn."""
    service = await serve_tables(tmp_path, monkeypatch)
    app = make_app(last_setup=SETUP)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            listing = app.screen
            assert isinstance(listing, SharedTablesScreen)
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            await until(pilot, lambda: "Waiting for players" in screen_text(app), "no wait")
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "no leave dialog")
            await pilot.press("2")  # back to the list, the table listed
            await until(pilot, lambda: app.screen is listing, "not back at the list")
            await until(pilot, lambda: "Ann" in screen_text(app), "the table is not listed")

            original = service.listing
            counter = iter(range(1_000_000))

            def listing_with_a_counter() -> list[dict[str, Any]]:
                return [{**t, "unshown": next(counter)} for t in original()]

            monkeypatch.setattr(service, "listing", listing_with_a_counter)
            rebuilt: list[int] = []
            choices = listing.query_one(Choices)
            clear = choices.clear_options

            def counted_clear() -> Any:
                rebuilt.append(1)
                return clear()

            monkeypatch.setattr(choices, "clear_options", counted_clear)
            await listing.refresh_list()  # the new field, once: taken in
            shown = screen_text(app)
            rebuilt.clear()
            for _ in range(3):
                await listing.refresh_list()
            assert not rebuilt, "a refresh that changed nothing shown rebuilt the list"
            assert listing.tables[0]["unshown"] >= 3  # the answers were taken all the same
            assert screen_text(app) == shown
    finally:
        await service.stop()
