"""Where unotable keeps its files. Every other store function takes the directory."""

from __future__ import annotations

from pathlib import Path

AUTOSAVE_NAME = "autosave.json"  # the single slot of unotable 0.x; moved into matches/ at start
MATCHES_DIR_NAME = "matches"
TRASH_DIR_NAME = "trash"
HISTORY_DIR_NAME = "history"
SETTINGS_NAME = "settings.json"


def default_data_dir() -> Path:
    """The platform's user data directory for unotable (``--data-dir`` overrides it)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("unotable", appauthor=False))


def autosave_path(data_dir: Path) -> Path:
    return Path(data_dir) / AUTOSAVE_NAME


def matches_dir(data_dir: Path) -> Path:
    return Path(data_dir) / MATCHES_DIR_NAME


def trash_dir(data_dir: Path) -> Path:
    return Path(data_dir) / TRASH_DIR_NAME


def history_dir(data_dir: Path) -> Path:
    return Path(data_dir) / HISTORY_DIR_NAME


def settings_path(data_dir: Path) -> Path:
    return Path(data_dir) / SETTINGS_NAME
