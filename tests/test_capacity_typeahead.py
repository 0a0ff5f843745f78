"""Down and Enter read together (a player typing ahead, or an SSH packet with both) join
the table chosen with Down, not the one above it. Found by bench/capacity.py, whose
players sat down at the wrong table: Enter is a priority key, which Textual runs at once,
while the Down before it still waited at the list."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_app_shared import open_shared_tables, serve_tables, until
from test_app_support import make_app, screen_text
from test_tables import connect
from textual import events

from unotable.app.screens.table import TableScreen


async def test_down_and_enter_read_together_join_the_second_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = await serve_tables(tmp_path, monkeypatch)
    creators = []
    try:
        for name in ("Cy", "Di"):  # two tables, each waiting for a second player
            creator = await connect(service, 2)
            await creator.client.send(
                {
                    "type": "create",
                    "game": "uno",
                    "options": {},
                    "name": name,
                    "identity": name,
                    "seats": [
                        {"name": name, "kind": "human"},
                        {"name": "Guest", "kind": "human", "open": True},
                    ],
                }
            )
            creators.append(creator)
            joined = await creator.client.receive(timeout=20)
            assert joined is not None and joined["type"] == "joined", joined
        first, second = list(service.tables.values())
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await open_shared_tables(pilot)
            await until(pilot, lambda: "Di" in screen_text(app), "the second table not listed")
            driver = app._driver
            assert driver is not None
            for key, char in (("down", None), ("enter", "\r")):  # one read, no pause between
                event = events.Key(key, char)
                event.set_sender(app)
                driver.send_message(event)
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "not seated")
            await until(pilot, lambda: "Your hand" in screen_text(app), "no table drawn")
            assert second.seats[1].holder is not None, "sat at the table above the chosen one"
            assert first.seats[1].holder is None
    finally:
        for creator in creators:
            await creator.client.close()
        await service.stop()
