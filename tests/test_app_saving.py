"""Autosave, Continue, --resume, a damaged save, and remembered settings (real files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_app_support import screen_text, settle

from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs, load_prefs
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.screens.table import TableScreen
from unotable.store.matches import list_matches, match_path, most_recent, new_match_id, read_match
from unotable.store.paths import autosave_path, matches_dir
from unotable.store.saves import dumps


def app_in(folder: Path, **kwargs: object) -> UnoTableApp:
    return UnoTableApp(data_dir=folder, prefs=Prefs(speed="instant"), **kwargs)  # type: ignore[arg-type]


async def wait_for(pilot: Any, kind: type) -> Any:
    for _ in range(100):
        await pilot.pause()
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
    stack = [type(s).__name__ for s in pilot.app.screen_stack]
    raise AssertionError(f"{kind.__name__} never came: {stack}")


async def lobby_ready(pilot: Any) -> LobbyScreen:
    for _ in range(100):
        await pilot.pause()
        screen = pilot.app.screen
        if isinstance(screen, LobbyScreen) and screen.filled:
            return screen
    raise AssertionError("the lobby never filled in")


async def test_autosave_continue_and_resume(tmp_path: Path) -> None:
    app = app_in(tmp_path, seed=3)  # the lobby's seed: the same deal every run
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_ready(pilot)
        await pilot.press("enter", "enter")  # one human against three computers at UNO
        table = await settle(pilot)
        assert isinstance(table, TableScreen)
        await pilot.press("d")  # a human action: saved at once
        if isinstance(await settle(pilot), ChoiceScreen):
            await pilot.press("2")  # the drawn card could be played: keep it
            await settle(pilot)
        played = [(s, str(a)) for s, a in table.table.controller.match.history]
        assert app.writer.flush(10)  # the background writer has it on disk
        listed = list_matches(tmp_path).matches
        assert len(listed) == 1 and listed[0].in_use  # this session holds its lock
        assert read_match(tmp_path, listed[0].match_id).actions == played
        await pilot.press("q")
        await wait_for(pilot, ChoiceScreen)
        await pilot.press("2")  # back to the lobby
        await wait_for(pilot, LobbyScreen)
        assert "Continue" in screen_text(app)
        await pilot.press("c")
        await wait_for(pilot, TableScreen)
        assert [(s, str(a)) for s, a in app.screen.table.controller.match.history] == played

    resumed = app_in(tmp_path, resume=True)
    async with resumed.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, TableScreen)
        history = resumed.screen.table.controller.match.history
        assert [(s, str(a)) for s, a in history][: len(played)] == played


async def test_a_damaged_save_is_a_notice_in_the_lobby(tmp_path: Path) -> None:
    path = autosave_path(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"game": "uno", "seats": [', encoding="utf-8")
    app = app_in(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = await lobby_ready(pilot)
        message = str(lobby.query_one("#lobby-message").render())
        assert "autosave" in message.lower() or "save" in message.lower()
        assert not lobby.query_one("#continue").display
    assert not path.exists()  # set aside, not deleted: the same bytes are kept
    kept = [p for p in tmp_path.rglob("*") if p.is_file() and ".corrupt-" in p.name]
    assert [p.read_text(encoding="utf-8") for p in kept] == ['{"game": "uno", "seats": [']


async def test_the_last_setup_is_remembered(tmp_path: Path) -> None:
    app = app_in(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_ready(pilot)
        await pilot.press("down", "down")  # UNO Hearts
        await pilot.pause()
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        lobby.query_one("#seat-name-1").value = "Zed"
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
    prefs, notice = load_prefs(tmp_path)
    assert notice is None
    assert prefs.last_setup["game"] == "uno-hearts"
    assert prefs.last_setup["seats"][1] == ["Zed", "normal"]
    again = UnoTableApp(data_dir=tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        lobby = await lobby_ready(pilot)
        assert lobby.game_id == "uno-hearts"
        assert lobby.query_one("#seat-name-1").value == "Zed"


async def test_a_save_whose_actions_do_not_replay_is_set_aside(tmp_path: Path) -> None:
    from unotable.store.record import MatchRecord, SeatRecord

    seats = [SeatRecord("Ann", "human"), SeatRecord("Bob", "normal")]
    record = MatchRecord("uno", {}, seats, seed=5, actions=[(1, "catch:0")])
    path = match_path(tmp_path, new_match_id())
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(record), encoding="utf-8")
    app = app_in(tmp_path, resume=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await lobby_ready(pilot)
        for _ in range(20):
            await pilot.pause()
        assert not isinstance(app.screen, TableScreen)
    assert not path.exists()
    assert list(matches_dir(tmp_path).glob(f"{path.name}.corrupt-*"))
    assert most_recent(tmp_path)[0] is None
