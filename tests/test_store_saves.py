"""The save format and files: atomic writes, round trips for every game, damaged files set aside."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from match_driver import played

from unotable.engine import GAME_IDS
from unotable.store import files, saves
from unotable.store.matches import MatchFile, list_matches, match_path, new_match_id
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
    old = tmp_path / ".settings.json.abc.tmp"
    fresh = tmp_path / ".settings.json.def.tmp"
    old.write_text("half")
    fresh.write_text("half")
    os.utime(old, (1_000_000, 1_000_000))
    assert files.remove_stale_temps(tmp_path) == 1
    assert not old.exists() and fresh.exists()


def save_match(data_dir, record):
    """A saved match file holding ``record``, released (as after quitting); its id."""
    match_file = MatchFile.create(data_dir)
    match_file.save(record)
    match_file.close()
    return match_file.match_id


def load_match(data_dir, match_id):
    match_file = MatchFile.open(data_dir, match_id)
    try:
        return match_file.load()
    finally:
        match_file.close()


# -- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_IDS)
@pytest.mark.parametrize("until", [0, 37, None])
def test_round_trip_rebuilds_the_exact_state(tmp_path, game, until):
    record, match = played(game, PLAYERS[game], seed=11, options=SHORT[game], until=until)
    assert match.over == (until is None)
    loaded = load_match(tmp_path, save_match(tmp_path, record))
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
        (_newer_version, "corrupt", "newer unotable"),
    ],
    ids=["truncated", "empty", "garbage", "wrong-shape", "newer-version"],
)
def test_unusable_save_is_moved_aside_with_a_clear_notice(tmp_path, make_text, label, message):
    text = make_text()
    path = match_path(tmp_path, new_match_id())
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    saved = list_matches(tmp_path)
    assert saved.matches == [] and saved.total == 0
    (notice,) = saved.notices
    assert message in notice
    (moved,) = path.parent.glob(f"{path.name}.{label}-*")
    assert str(moved) in notice
    assert moved.read_text(encoding="utf-8") == text  # kept, never deleted
    assert not path.exists()


def test_files_set_aside_never_overwrite_each_other(tmp_path):
    path = tmp_path / "x.json"
    for n in range(5):  # all within the same second
        path.write_text(f"broken {n}")
        files.move_aside(path, "corrupt")
    kept = sorted(p.read_text() for p in tmp_path.iterdir())
    assert kept == [f"broken {n}" for n in range(5)]


def test_set_aside_names_hold_the_time_and_a_counter(tmp_path):
    first = tmp_path / "a.json"
    first.write_text("1")
    moved = files.move_aside(first, "corrupt")
    assert re.fullmatch(r"a\.json\.corrupt-\d{8}T\d{6}\.\d{6}Z-\d+-\d+", moved.name)


def test_save_whose_actions_do_not_replay_is_refused_on_rebuild(tmp_path):
    record, _ = played("uno", 3, seed=5, until=10)
    bad = MatchRecord(
        record.game, record.options, record.seats, record.seed, [*record.actions, (0, "R99")]
    )
    loaded = load_match(tmp_path, save_match(tmp_path, bad))
    with pytest.raises(SaveError, match=r"action 11 .* does not replay"):
        saves.rebuild_match(loaded)


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
