"""Settings that persist between runs: theme, speed, card style, the last lobby setup
and the keymap.

Reading never writes. An unreadable file gives the defaults and a notice, and stays as it
is until the user changes a setting (``change_settings`` writes only on a real change).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from .files import atomic_write, move_aside, read_limited
from .paths import settings_path

CARD_STYLES = ("unicode", "ascii")
UNREADABLE_LABEL = "unreadable"
MAX_SETTINGS_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Settings:
    theme: str = "standard"  # the app's THEMES
    speed: str = "normal"  # how fast computer players move: the controller's SPEEDS
    card_style: str = "unicode"  # "unicode" or "ascii"
    last_setup: dict[str, Any] = field(default_factory=dict)  # the lobby's, as it left it
    # binding id -> keys, e.g. {"table.draw": "x"}: the app checks and applies it
    keymap: dict[str, Any] = field(default_factory=dict)
    # keys written by a newer unotable, kept so saving does not lose them
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


def load_settings(data_dir: Path) -> tuple[Settings, str | None]:
    """The saved settings and a notice for the user (None when all is well). Never writes."""
    path = settings_path(data_dir)
    try:
        raw = read_limited(path, MAX_SETTINGS_BYTES)  # a FIFO or a huge file never blocks
    except FileNotFoundError:
        return Settings(), None
    except OSError as exc:
        return Settings(), _notice(path, f"it could not be read ({exc.strerror or exc})")
    data = _parse(raw)
    if data is None:
        return Settings(), _notice(path, "it is damaged")
    return _from_dict(data, path)


def save_settings(settings: Settings, data_dir: Path) -> None:
    """Write ``settings`` atomically. An unreadable old file is kept beside it first."""
    path = settings_path(data_dir)
    try:
        old = read_limited(path, MAX_SETTINGS_BYTES)
    except FileNotFoundError:
        old = None
    except OSError:
        old = b""  # unreadable: kept aside like a damaged one
    if old is not None and _parse(old) is None:
        move_aside(path, UNREADABLE_LABEL)  # a unique name: an earlier one is never replaced
    data = {**settings.extra, **asdict(settings)}
    del data["extra"]
    atomic_write(path, json.dumps(data, indent=2, sort_keys=True) + "\n")


def change_settings(settings: Settings, data_dir: Path, **changes: Any) -> Settings:
    """``settings`` with ``changes``, saved only if a value really changed.

    The one way the app should write settings: opening and closing a screen without
    changing anything leaves an unreadable file untouched.
    """
    updated = replace(settings, **changes)
    if updated != settings:
        save_settings(updated, data_dir)
    return updated


def migrate_settings(old_folder: Path, new_folder: Path) -> Path | None:
    """Move the settings file from ``old_folder`` (unotable 0.x kept it with the saves)
    into ``new_folder``, once: never over a file already there. The new path if it moved.

    An OSError leaves the old file where it was.
    """
    old, new = settings_path(old_folder), settings_path(new_folder)
    if old.parent.resolve() == new.parent.resolve() or not old.is_file() or new.exists():
        return None
    new.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(old, new)  # refuses to replace a file that appeared meanwhile
    except FileExistsError:
        return None
    except OSError:  # another filesystem, or no hard links there
        if new.exists():
            return None
        try:
            shutil.copy2(old, new)
        except OSError:
            new.unlink(missing_ok=True)  # no half copy that would block the next try
            raise
    old.unlink()
    return new


def _parse(raw: bytes) -> dict[str, Any] | None:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return None
    return data if isinstance(data, dict) else None


def _from_dict(data: dict[str, Any], path: Path) -> tuple[Settings, str | None]:
    defaults = Settings()
    known = {f.name for f in fields(Settings)} - {"extra"}
    values: dict[str, Any] = {}
    ignored = []
    for name in sorted(known & data.keys()):
        value = data[name]
        if _valid(name, value, type(getattr(defaults, name))):
            values[name] = value
        else:
            ignored.append(name)
    extra = {k: v for k, v in data.items() if k not in known}
    settings = Settings(**values, extra=extra)
    if ignored:
        return settings, _notice(path, f"these had unusable values: {', '.join(ignored)}")
    return settings, None


def _valid(name: str, value: Any, expected: type) -> bool:
    if not isinstance(value, expected):
        return False
    return name != "card_style" or value in CARD_STYLES


def _notice(path: Path, reason: str) -> str:
    return (
        f"Settings file {path}: {reason}, so the defaults are used. "
        "It is left as it is until you change a setting."
    )
