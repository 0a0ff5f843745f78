"""kill -9 a real process mid-match, restart it, and compare the state action for action.

The driver (tests/match_driver.py) plays through the Controller and saves as the app does:
its own match file, under its lock, through the background writer.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

from match_driver import played

from unotable.controller import Controller
from unotable.store import history
from unotable.store.matches import list_matches, read_match
from unotable.store.saves import load_file, new_match

GAME, PLAYERS, SEED = "uno", 3, 20261122
OPTIONS = {"target": 150}  # about 300 actions
DRIVER = Path(__file__).with_name("match_driver.py")


def drive(data_dir, *extra):
    command = [sys.executable, str(DRIVER), "--data-dir", str(data_dir)]
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


def the_one_match(data_dir):
    saved = list_matches(data_dir)
    assert saved.notices == [] and len(saved.matches) == 1
    (only,) = saved.matches
    assert not only.in_use  # the killed process's lock went with it
    return read_match(data_dir, only.match_id)


def assert_same_as_uninterrupted(record):
    """The saved match equals a fresh run of the same seed to the same number of actions."""
    fresh_record, fresh = played(GAME, PLAYERS, SEED, OPTIONS, until=len(record.actions))
    assert record.actions == fresh_record.actions
    resumed = Controller.from_record(record)
    assert resumed.match.history == fresh.history
    assert resumed.match.log == fresh.log
    for seat in range(PLAYERS):
        assert resumed.match.view(seat) == fresh.view(seat)


def test_kill9_then_resume_loses_nothing(tmp_path):
    saved = 0
    for round_number, kill_at in enumerate((12, 40, 75)):
        process = drive(tmp_path, *(["--resume"] if round_number else []))
        seen = kill_after(process, kill_at)
        record = the_one_match(tmp_path)
        # every reported action was saved first; later ones may be saved too
        assert len(record.actions) >= seen >= kill_at
        assert len(record.actions) >= saved  # never goes back
        assert not record.finished
        assert_same_as_uninterrupted(record)
        saved = len(record.actions)

    # the last restart plays to the end: the result is the uninterrupted match
    process = drive(tmp_path, "--resume")
    _, errors = process.communicate()
    assert process.returncode == 0, errors
    assert list_matches(tmp_path).total == 0  # finished: moved into the history
    assert not list((tmp_path / "matches").iterdir())  # no lock or temp file left
    (entry,) = history.finished_matches(tmp_path)
    record = load_file(entry.path)
    assert record.finished and len(record.actions) > saved
    assert_same_as_uninterrupted(record)


def test_kill9_with_computer_players(tmp_path):
    """Computer seats through the runner: the save always rebuilds exactly."""
    saved = 0
    for round_number, kill_at in enumerate((10, 30)):
        process = drive(tmp_path, "--computers", *(["--resume"] if round_number else []))
        seen = kill_after(process, kill_at)
        record = the_one_match(tmp_path)
        assert len(record.actions) >= max(seen, saved)
        resumed = Controller.from_record(record)
        fresh = new_match(record)
        for seat, text in record.actions:
            fresh.apply(seat, text)
        assert resumed.to_record().actions == record.actions
        assert resumed.match.history == fresh.history and resumed.match.log == fresh.log
        saved = len(record.actions)
