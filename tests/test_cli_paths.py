"""Where files live: ``unotable paths``, UNOTABLE_DATA_DIR, settings in the config folder.

Home, config and data folders are all redirected into tmp_path (XDG_*, which platformdirs
reads at each call): no test reaches the real home.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unotable import cli
from unotable.app.prefs import Prefs, load_prefs, save_prefs
from unotable.store.paths import config_dir, default_data_dir, settings_path
from unotable.store.settings import migrate_settings


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    for name in ("UNOTABLE_DATA_DIR", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return {"config": tmp_path / "config/unotable", "data": tmp_path / "data/unotable"}


def paths_output(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, str]:
    assert cli.main(list(argv)) == 0
    out = capsys.readouterr().out
    lines = dict(line.split(": ", 1) for line in out.splitlines())
    assert list(lines) == ["config", "data", "log"]
    return lines


def test_paths_prints_the_config_data_and_log_locations(dirs, capsys) -> None:
    lines = paths_output(capsys, "paths")
    assert lines["config"] == str(dirs["config"])
    assert lines["data"] == str(dirs["data"])
    assert lines["log"].startswith("none")  # nothing writes a log file: no made-up path
    assert not dirs["config"].exists() and not dirs["data"].exists()  # it only tells


def test_paths_as_a_separate_process(dirs, tmp_path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNOTABLE_")}
    result = subprocess.run(
        [sys.executable, "-m", "unotable", "paths"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.splitlines()[:2] == [f"config: {dirs['config']}", f"data: {dirs['data']}"]


def test_unotable_data_dir_overrides_the_data_folder_and_data_dir_beats_it(
    dirs, tmp_path, monkeypatch, capsys
) -> None:
    chosen = tmp_path / "chosen"
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(chosen))
    assert default_data_dir() == chosen
    lines = paths_output(capsys, "paths")
    # a chosen data folder keeps its own settings, as --data-dir's does
    assert lines["data"] == lines["config"] == str(chosen)
    given = tmp_path / "given"
    for argv in (["--data-dir", str(given), "paths"], ["paths", "--data-dir", str(given)]):
        lines = paths_output(capsys, *argv)
        assert lines["data"] == lines["config"] == str(given)
    monkeypatch.setenv("UNOTABLE_DATA_DIR", "~/games")
    assert default_data_dir() == tmp_path / "home/games"
    monkeypatch.setenv("UNOTABLE_DATA_DIR", "")  # set but empty: as if unset
    assert default_data_dir() == dirs["data"]


def test_settings_live_in_the_config_folder(dirs) -> None:
    data = default_data_dir()
    assert config_dir(data) == dirs["config"]
    assert save_prefs(Prefs(theme="monochrome"), data) is None
    assert json.loads(settings_path(dirs["config"]).read_text())["theme"] == "monochrome"
    assert not settings_path(dirs["data"]).exists()
    assert load_prefs(data)[0].theme == "monochrome"


def test_a_settings_file_in_the_data_folder_is_moved_once(dirs) -> None:
    old = settings_path(dirs["data"])
    old.parent.mkdir(parents=True)
    old.write_text(json.dumps({"theme": "colour-blind", "speed": "fast"}))
    prefs, notice = load_prefs(default_data_dir())
    assert notice is None and (prefs.theme, prefs.speed) == ("colour-blind", "fast")
    new = settings_path(dirs["config"])
    assert not old.exists() and json.loads(new.read_text())["theme"] == "colour-blind"
    # once: a file an older unotable writes there later never replaces the moved one
    old.write_text(json.dumps({"theme": "standard"}))
    assert load_prefs(default_data_dir())[0].theme == "colour-blind"
    assert old.exists() and json.loads(new.read_text())["theme"] == "colour-blind"


def test_a_chosen_data_folder_keeps_its_settings_inside(dirs, tmp_path, monkeypatch) -> None:
    player = tmp_path / "served-player"  # e.g. an SSH player's folder, given by --data-dir
    settings_path(player).parent.mkdir(parents=True)
    settings_path(player).write_text(json.dumps({"theme": "monochrome"}))
    assert load_prefs(player)[0].theme == "monochrome"
    assert settings_path(player).exists() and not dirs["config"].exists()
    monkeypatch.setenv("UNOTABLE_DATA_DIR", str(player))
    assert config_dir(default_data_dir()) == player


def test_migration_never_replaces_and_skips_when_the_folders_are_one(tmp_path) -> None:
    old, new = tmp_path / "old", tmp_path / "new"
    settings_path(old).parent.mkdir()
    settings_path(old).write_text("{}")
    assert migrate_settings(old, old) is None and settings_path(old).exists()  # macOS, Windows
    settings_path(new).parent.mkdir()
    settings_path(new).write_text('{"theme": "monochrome"}')
    assert migrate_settings(old, new) is None
    assert settings_path(new).read_text() == '{"theme": "monochrome"}'
    settings_path(new).unlink()
    assert migrate_settings(old, new) == settings_path(new)
    assert settings_path(new).read_text() == "{}" and not settings_path(old).exists()
