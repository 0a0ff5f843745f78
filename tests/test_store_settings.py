"""Settings: defaults, round trip, and an unreadable file left alone until a change."""

from __future__ import annotations

import json
import os

import pytest

from unotable.store.paths import settings_path
from unotable.store.settings import Settings, change_settings, load_settings, save_settings


def test_no_file_gives_defaults_without_notice(tmp_path):
    assert load_settings(tmp_path) == (Settings(), None)
    assert not settings_path(tmp_path).exists()  # reading never writes


def test_round_trip(tmp_path):
    settings = Settings(
        theme="monochrome", speed="fast", card_style="ascii", last_setup={"game": "uno"}
    )
    save_settings(settings, tmp_path)
    assert load_settings(tmp_path) == (settings, None)


@pytest.mark.parametrize(
    "content", [b"{not json", b"", b"\xff\xfe\x00", b"[1, 2]", b'"just text"'], ids=repr
)
def test_unreadable_file_falls_back_and_is_left_alone(tmp_path, content):
    path = settings_path(tmp_path)
    path.write_bytes(content)
    settings, notice = load_settings(tmp_path)
    assert settings == Settings()
    assert notice is not None and str(path) in notice and "defaults" in notice
    # opening settings and "changing" nothing writes nothing
    same = change_settings(settings, tmp_path, speed=settings.speed, theme=settings.theme)
    assert same == settings
    assert path.read_bytes() == content
    # a real change writes, and the unreadable file is kept beside the new one
    changed = change_settings(settings, tmp_path, speed="slow")
    assert changed.speed == "slow"
    assert load_settings(tmp_path) == (changed, None)
    (kept,) = tmp_path.glob("settings.json.unreadable-*")
    assert kept.read_bytes() == content


def test_a_second_broken_settings_file_never_replaces_the_first(tmp_path):
    path = settings_path(tmp_path)
    for broken in (b"{first", b"{second"):
        path.write_bytes(broken)
        settings, _ = load_settings(tmp_path)
        change_settings(settings, tmp_path, speed="fast" if broken == b"{first" else "slow")
    kept = sorted(p.read_bytes() for p in tmp_path.glob("settings.json.unreadable-*"))
    assert kept == [b"{first", b"{second"]


def test_a_fifo_settings_file_does_not_block(tmp_path):
    os.mkfifo(settings_path(tmp_path))
    settings, notice = load_settings(tmp_path)  # returns at once: opened without blocking
    assert settings == Settings()
    assert notice is not None and "FIFO" in notice


def test_a_bad_value_falls_back_for_that_setting_only(tmp_path):
    path = settings_path(tmp_path)
    path.write_text(
        json.dumps({"theme": "monochrome", "card_style": "fancy", "last_setup": [1], "speed": 3})
    )
    before = path.read_bytes()
    settings, notice = load_settings(tmp_path)
    assert settings == Settings(theme="monochrome")
    assert notice is not None
    for name in ("card_style", "last_setup", "speed"):
        assert name in notice
    assert path.read_bytes() == before


def test_unknown_keys_survive_a_save(tmp_path):
    path = settings_path(tmp_path)
    path.write_text(json.dumps({"speed": "fast", "from_a_newer_version": {"x": 1}}))
    settings, notice = load_settings(tmp_path)
    assert notice is None and settings.speed == "fast"
    change_settings(settings, tmp_path, theme="colour-blind")
    data = json.loads(path.read_text())
    assert data["from_a_newer_version"] == {"x": 1} and data["theme"] == "colour-blind"


def test_change_settings_writes_only_on_a_real_change(tmp_path, monkeypatch):
    writes = []
    monkeypatch.setattr("unotable.store.settings.save_settings", lambda s, d: writes.append(s))
    settings = Settings()
    settings = change_settings(settings, tmp_path, last_setup={})
    settings = change_settings(settings, tmp_path, last_setup={"game": "uno-hearts"})
    settings = change_settings(settings, tmp_path, last_setup={"game": "uno-hearts"})
    assert [w.last_setup for w in writes] == [{"game": "uno-hearts"}]
