"""Key storms: random keys sent faster than the screens answer, on every screen, at one
keyboard and at a shared table. Nothing may raise; the app runs on or exits cleanly.

Keys are drawn under a fixed seed from every key the app binds, plus digits, Enter, Esc,
q and the arrows, and posted in bursts (a player typing ahead) before the app catches up.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import traceback
import unicodedata
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from test_app_shared import open_shared_tables, serve_tables
from test_app_support import controller, make_app, own_turn, start, until
from test_tables import Bot, connect
from textual import events
from textual.binding import Binding
from textual.keys import REPLACED_KEYS, _get_unicode_name_from_key

from unotable.app import main as app_main
from unotable.app.screens import (
    chat,
    common,
    handover,
    help,
    lobby,
    passing,
    saved,
    scoreboard,
    settings,
    shared,
    stats,
    table,
    trick,
)
from unotable.app.screens.shared import SeatPlanScreen
from unotable.app.screens.table import TableScreen
from unotable.tables.service import TableService

KEYS_PER_SCENARIO = 350
MAX_STRETCH = 4  # a storm that has not yet visited its screens goes on, this many times as long
# leaving the app outright ends a run early: rarer, so the storm visits the screens
EXITS = {"ctrl+c", "ctrl+q"}


def bound_keys() -> list[str]:
    """Every key a screen, dialog or the app binds."""
    keys: set[str] = set()
    modules = [
        app_main, chat, common, handover, help, lobby, passing, saved, scoreboard, settings,
        shared, stats, table, trick,
    ]  # fmt: skip
    for module in modules:
        for value in vars(module).values():
            for binding in getattr(value, "BINDINGS", None) or []:
                if isinstance(binding, Binding):
                    keys.update(k.strip() for k in binding.key.split(","))
                elif isinstance(binding, tuple):
                    keys.update(k.strip() for k in binding[0].split(","))
    extra = [*"0123456789", "enter", "escape", "q", "up", "down", "left", "right"]
    return sorted(keys - EXITS) + extra


KEYS = bound_keys()


def key_event(key: str) -> events.Key:
    """The event a terminal would send for ``key`` (as Textual's pilot makes it)."""
    try:
        char: str | None = unicodedata.lookup(
            _get_unicode_name_from_key(REPLACED_KEYS.get(key, key))
        )
    except KeyError:
        char = key if len(key) == 1 else None
    return events.Key(key, char)


async def caught_up(pilot: Any, full: bool) -> None:
    """Wait until the app and the screen have handled every queued message (twice: a key
    the app passes on reaches the screen after the first wait). Now and then a full pause,
    for workers and refreshes; a pause each time would make a storm take minutes."""
    for _ in range(2):
        await pilot._wait_for_screen()
    if full:
        await pilot.pause()


async def storm(
    new_app: Callable[[], Any],
    prepare: Callable[[Any], Awaitable[None]],
    seed: int,
    keys: int = KEYS_PER_SCENARIO,
    visit: frozenset[str] = frozenset(),
    steer: Callable[[Any], Awaitable[None]] | None = None,
) -> list[str]:
    """Send ``keys`` random keys in bursts; when a storm quits the app, a new one is
    prepared and the storm goes on. The names of the screens seen.

    Where the keys lead depends on how far the app got with the ones before (a burst is
    queued before any is handled), so the path differs with the machine's speed, and may
    never reach a screen (a lobby whose options the keys made invalid never starts). Until
    every screen in ``visit`` was seen, the storm goes on, up to four times as long; with
    ``steer``, in a new app that ``steer`` first takes where the keys did not go."""
    rng = random.Random(seed)
    sent = 0
    seen: list[str] = []
    recent: list[str] = []  # the last keys sent, for the failure's message
    steering = False  # the next app is steered first
    steered_at: int | None = None  # then the storm goes on there for half its keys

    def more() -> bool:
        if steered_at is not None:
            return sent < steered_at + keys // 2
        return sent < keys or (not visit <= set(seen) and sent < MAX_STRETCH * keys)

    def look(app: Any) -> None:
        name = type(app.screen).__name__
        if not seen or seen[-1] != name:
            seen.append(name)

    while more():
        app = new_app()
        try:
            async with app.run_test(size=(100, 30)) as pilot:  # re-raises the app's error
                await prepare(pilot)
                if steering and steered_at is None:
                    await steer(pilot)
                    steered_at = sent
                    look(app)
                while more() and app.is_running and app._exception is None:
                    if sent >= keys and steer is not None and not steering:
                        steering = True  # the keys alone did not visit: a new app, steered
                        break
                    burst = [rng.choice(KEYS) for _ in range(rng.randint(1, 6))]
                    for key in burst:
                        event = key_event(key)
                        event.set_sender(app)
                        app._driver.send_message(event)  # all queued before any is handled
                    sent += len(burst)
                    recent = [*recent, *burst][-24:]
                    await caught_up(pilot, full=sent // 250 != (sent - len(burst)) // 250)
                    look(app)
        except Exception as error:
            where = "".join(traceback.format_exception(error))
            raise AssertionError(
                f"after {sent} keys ({' '.join(recent)}) on {seen[-3:]}:\n{where}"
            ) from error
        assert app.return_code in (None, 0)
    return seen


async def test_a_key_storm_from_the_lobby() -> None:
    async def lobby_up(pilot: Any) -> None:
        await until(pilot, lambda: type(pilot.app.screen).__name__ == "LobbyScreen", "lobby")

    async def start_from_the_lobby(pilot: Any) -> None:
        await until(pilot, lambda: pilot.app.screen.filled, "the lobby filled in")
        await pilot.press("s")
        await until(pilot, lambda: TableScreen in map(type, pilot.app.screen_stack), "a table")
        await own_turn(pilot)  # the deal's own questions answered (a challenge, a colour)

    visit = frozenset({"LobbyScreen", "TableScreen"})
    seen = await storm(make_app, lobby_up, seed=26, visit=visit, steer=start_from_the_lobby)
    assert visit <= set(seen)


@pytest.mark.parametrize("game", ["uno", "uno-hearts"])
async def test_a_key_storm_at_a_hot_seat_table(game: str) -> None:
    """Two humans at one keyboard: hand-overs, dialogs and scoreboards come and go."""

    async def at_table(pilot: Any) -> None:
        await start(pilot, controller(game, ["human", "human", "normal"], seed=7))

    visit = frozenset({"TableScreen", "HandOverScreen"})
    seen = await storm(make_app, at_table, seed=27, visit=visit)
    assert visit <= set(seen)


async def test_a_key_storm_at_a_shared_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a shared table with a friend playing from another terminal; the storm also leaves
    it, lists the tables, joins again (Esc while a join is on its way) and creates more."""
    service: TableService = await serve_tables(tmp_path, monkeypatch)
    setup = {
        "game": "uno",
        "seats": [["You", "human"], ["Bo", "human"], ["Cy", "normal"]],
        "options": {},
    }
    friends: list[Bot] = []
    plays: list[asyncio.Task[None]] = []

    async def play(bot: Bot) -> None:
        with contextlib.suppress(ConnectionError, ValueError, AssertionError):
            while (message := await bot.client.receive()) is not None:
                await bot.handle(message, play=True)

    async def at_shared_table(pilot: Any) -> None:
        app = pilot.app
        await open_shared_tables(pilot)
        if not service.tables:
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, SeatPlanScreen), "no seat plan")
            await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TableScreen), "no table")
            bo = await connect(service, 2)
            (shared_table,) = service.tables.values()
            await bo.client.send({"type": "join", "table": shared_table.table_id, "name": "Bo"})
            friends.append(bo)
            plays.append(asyncio.ensure_future(play(bo)))
            await until(pilot, lambda: shared_table.started, "the match did not begin")

    try:
        visit = frozenset({"TableScreen", "SharedTablesScreen"})
        seen = await storm(
            lambda: make_app(last_setup=setup), at_shared_table, seed=28, visit=visit
        )
        assert visit <= set(seen)
    finally:
        for task in plays:
            task.cancel()
        for bot in friends:
            await bot.client.close()
        await service.stop()
