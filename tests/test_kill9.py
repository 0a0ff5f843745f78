"""kill -9 a real process mid-match, restart it, and compare the state action for action."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

from unotable.store import history, saves
from unotable.store.drive import played

GAME, PLAYERS, SEED = "uno", 3, 20261122
OPTIONS = {"target": 150}  # about 300 actions


def drive(data_dir, *extra):
    command = [sys.executable, "-m", "unotable.store.drive", "--data-dir", str(data_dir)]
    command += ["--game", GAME, "--players", str(PLAYERS), "--seed", str(SEED), *extra]
    command += [f"--option={name}={json.dumps(value)}" for name, value in OPTIONS.items()]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def kill_after(process, count):
    """SIGKILL ``process`` once it reports ``count`` saved actions; the last count seen."""
    seen = 0
    assert process.stdout is not None
    for line in process.stdout:
        seen = int(line.split()[0])
        if seen >= count:
            break
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL, process.stderr.read()
    return seen


def assert_same_as_uninterrupted(record, match):
    """The saved match equals a fresh run of the same seed to the same number of actions."""
    fresh_record, fresh = played(GAME, PLAYERS, SEED, OPTIONS, until=len(record.actions))
    assert record.actions == fresh_record.actions
    assert match.history == fresh.history
    assert match.log == fresh.log
    for seat in range(PLAYERS):
        assert match.view(seat) == fresh.view(seat)


def test_kill9_then_resume_loses_nothing(tmp_path):
    saved = 0
    for round_number, kill_at in enumerate((12, 40, 75)):
        process = drive(tmp_path, *(["--resume"] if round_number else []))
        seen = kill_after(process, kill_at)
        resumed = saves.resume_autosave(tmp_path)
        assert resumed is not None
        record, match = resumed
        # every reported action was saved first; later ones may be saved too
        assert len(record.actions) >= seen >= kill_at
        assert len(record.actions) >= saved  # never goes back
        assert not match.over
        assert_same_as_uninterrupted(record, match)
        saved = len(record.actions)

    # the last restart plays to the end: the result is the uninterrupted match
    process = drive(tmp_path, "--resume")
    _, errors = process.communicate()
    assert process.returncode == 0, errors
    assert saves.load_autosave(tmp_path) is None  # cleared once recorded
    (entry,) = history.finished_matches(tmp_path)
    record = saves.loads(entry.path.read_bytes())
    match = saves.rebuild_match(record)
    assert match.over and len(record.actions) > saved
    assert_same_as_uninterrupted(record, match)


def test_kill9_with_the_apps_controller(tmp_path):
    """The app's own path: controller, computer players, to_record, autosave, from_record."""
    from unotable.controller import Controller

    saved = 0
    for round_number, kill_at in enumerate((10, 30)):
        process = drive(tmp_path, "--controller", *(["--resume"] if round_number else []))
        seen = kill_after(process, kill_at)
        record = saves.load_autosave(tmp_path)
        assert record is not None and len(record.actions) >= max(seen, saved)
        resumed = Controller.from_record(record)
        fresh = saves.new_match(record)
        for seat, text in record.actions:
            fresh.apply(seat, text)
        assert resumed.to_record() == record
        assert resumed.match.history == fresh.history and resumed.match.log == fresh.log
        assert [resumed.match.view(s) for s in range(PLAYERS)] == [
            fresh.view(s) for s in range(PLAYERS)
        ]
        saved = len(record.actions)
