"""The autosave: atomic writes, round trips for every game, damaged files set aside."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from unotable.engine import GAME_IDS
from unotable.store import files, saves
from unotable.store.drive import played
from unotable.store.paths import autosave_path
from unotable.store.record import SAVE_FORMAT_VERSION, MatchRecord, SeatRecord
from unotable.store.saves import SaveError

# Options that keep a whole match short
SHORT = {
    "uno": {"target": 60},
    "uno-minecraft": {"target": 60},
    "uno-hearts": {"target": 15, "pass_three": True, "shoot_the_moon": True},
    "wild-twist-hearts": {"length": 1},
}
PLAYERS = {"uno": 3, "uno-minecraft": 5, "uno-hearts": 4, "wild-twist-hearts": 4}


def views(match):
    return [match.view(seat) for seat in range(match.players)]


# -- atomic write -------------------------------------------------------------------------


def test_atomic_write_replaces_whole_file_and_syncs(tmp_path, monkeypatch):
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd) or real_fsync(fd))
    target = tmp_path / "deep" / "file.json"
    files.atomic_write(target, "first")
    files.atomic_write(target, "second")
    assert target.read_text() == "second"
    assert os.listdir(target.parent) == ["file.json"]  # no temporary file left behind
    assert len(synced) >= 2  # the data, at least once per write


def test_atomic_write_crash_before_rename_keeps_old_file(tmp_path, monkeypatch):
    target = tmp_path / "autosave.json"
    target.write_text("old save")

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk full"):
        files.atomic_write(target, "new save")
    assert target.read_text() == "old save"
    assert os.listdir(tmp_path) == ["autosave.json"]


def test_temporary_file_is_in_the_same_directory(tmp_path, monkeypatch):
    seen = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: seen.append((a, b)) or real_replace(a, b))
    files.atomic_write(tmp_path / "x.json", "{}")
    ((source, dest),) = seen
    assert Path(source).parent == Path(dest).parent == tmp_path


def test_stale_temporary_files_are_removed_but_fresh_ones_kept(tmp_path):
    path = autosave_path(tmp_path)
    old = tmp_path / ".autosave.json.abc.tmp"
    fresh = tmp_path / ".autosave.json.def.tmp"
    old.write_text("half")
    fresh.write_text("half")
    os.utime(old, (1_000_000, 1_000_000))
    files.remove_stale_temps(path)
    assert not old.exists() and fresh.exists()


# -- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("until", [0, 37, None])
def test_round_trip_rebuilds_the_exact_state(tmp_path, game, until):
    record, match = played(game, PLAYERS[game], seed=11, options=SHORT[game], until=until)
    assert match.over == (until is None)
    saves.autosave(record, tmp_path)
    loaded = saves.load_autosave(tmp_path)
    assert loaded == record
    rebuilt = saves.rebuild_match(loaded)
    assert rebuilt.history == match.history
    assert rebuilt.log == match.log
    assert rebuilt.scores == match.scores
    assert rebuilt.hand_results == match.hand_results
    assert views(rebuilt) == views(match)


def test_dumps_is_readable_json_with_one_action_per_line():
    record, _ = played("uno", 2, seed=3, until=5)
    text = saves.dumps(record)
    data = json.loads(text)
    assert data["format"] == saves.SAVE_FORMAT and data["version"] == SAVE_FORMAT_VERSION
    assert data["actions"] == [list(pair) for pair in record.actions]
    action_lines = [line for line in text.splitlines() if line.startswith("    [")]
    assert len(action_lines) == 5


def test_loads_ignores_unknown_keys_and_fills_optional_ones():
    record, _ = played("uno-hearts", 3, seed=2, until=4)
    data = saves.record_to_dict(record)
    data["summary"] = {"anything": 1}
    del data["started"], data["finished"]
    loaded = saves.loads(json.dumps(data))
    assert loaded.actions == record.actions and loaded.started == "" and not loaded.finished


def test_load_autosave_without_a_file_is_none(tmp_path):
    assert saves.load_autosave(tmp_path / "never-created") is None
    assert saves.resume_autosave(tmp_path) is None


def test_clear_autosave(tmp_path):
    record, _ = played("uno", 2, seed=3, until=2)
    saves.autosave(record, tmp_path)
    saves.clear_autosave(tmp_path)
    saves.clear_autosave(tmp_path)  # twice is fine
    assert saves.load_autosave(tmp_path) is None


def test_resume_autosave_gives_record_and_match(tmp_path):
    record, match = played("wild-twist-hearts", 5, seed=8, until=30)
    saves.autosave(record, tmp_path)
    loaded, rebuilt = saves.resume_autosave(tmp_path)
    assert loaded == record and rebuilt.log == match.log


# -- damaged files -------------------------------------------------------------------------


def _good_save_text() -> str:
    record, _ = played("uno", 4, seed=21, until=40)
    return saves.dumps(record)


def _newer_version() -> str:
    data = json.loads(_good_save_text())
    data["version"] = SAVE_FORMAT_VERSION + 1
    return json.dumps(data)


@pytest.mark.parametrize(
    ("make_text", "label", "message"),
    [
        (lambda: _good_save_text()[:-40], "corrupt", "cut short"),
        (lambda: "", "corrupt", "empty"),
        (lambda: "\x00\xff garbage", "corrupt", "damaged"),
        (lambda: "[1, 2, 3]", "corrupt", "not a saved match"),
        (_newer_version, "newer", "newer unotable"),
    ],
    ids=["truncated", "empty", "garbage", "wrong-shape", "newer-version"],
)
def test_unusable_save_is_moved_aside_with_a_clear_error(tmp_path, make_text, label, message):
    text = make_text()
    path = autosave_path(tmp_path)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match=message) as caught:
        saves.load_autosave(tmp_path)
    moved = caught.value.moved_to
    assert moved is not None and moved.parent == tmp_path
    assert moved.name.startswith(f"autosave.json.{label}-")
    assert str(moved) in str(caught.value)
    assert moved.read_text(encoding="utf-8") == text  # kept, never deleted
    assert not path.exists()
    assert saves.load_autosave(tmp_path) is None  # and a new match can start


def test_files_set_aside_never_overwrite_each_other(tmp_path):
    path = autosave_path(tmp_path)
    for n in range(3):
        path.write_text(f"broken {n}")
        with pytest.raises(SaveError):
            saves.load_autosave(tmp_path)
    kept = sorted(p.read_text() for p in tmp_path.iterdir())
    assert kept == ["broken 0", "broken 1", "broken 2"]


def test_save_whose_actions_do_not_replay_is_set_aside_on_resume(tmp_path):
    record, _ = played("uno", 3, seed=5, until=10)
    bad = MatchRecord(
        record.game, record.options, record.seats, record.seed, [*record.actions, (0, "R99")]
    )
    saves.autosave(bad, tmp_path)
    with pytest.raises(SaveError, match=r"action 11 .* does not replay") as caught:
        saves.resume_autosave(tmp_path)
    assert caught.value.moved_to is not None and caught.value.moved_to.exists()
    assert saves.load_autosave(tmp_path) is None


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chess"},
        {"options": {"target": "lots"}},
        {"options": {"no_such_option": 1}},
        {"seats": [{"name": "Solo", "kind": "human"}]},  # too few players for UNO
        {"seed": 1.5},
        {"actions": [[0, "draw"], [7, "draw"]]},
    ],
)
def test_records_that_cannot_be_rebuilt_raise_save_error(change):
    data = json.loads(_good_save_text())
    data.update(change)
    with pytest.raises(SaveError):
        saves.rebuild_match(saves.loads(json.dumps(data)))


def test_rebuild_wraps_engine_errors_with_the_action_number():
    record = MatchRecord("uno", {}, [SeatRecord("A", "human"), SeatRecord("B", "human")], 1)
    record.actions.append((1, "not-an-action"))
    with pytest.raises(SaveError, match=r"action 1 \(seat 1: 'not-an-action'\)"):
        saves.rebuild_match(record)
