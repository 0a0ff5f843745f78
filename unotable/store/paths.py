"""Where unotable keeps its files. Every other store function takes the directory."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "UNOTABLE_DATA_DIR"  # overrides the platform's data folder, like --data-dir
AUTOSAVE_NAME = "autosave.json"  # the single slot of unotable 0.x; moved into matches/ at start
MATCHES_DIR_NAME = "matches"
TRASH_DIR_NAME = "trash"
HISTORY_DIR_NAME = "history"
SETTINGS_NAME = "settings.json"


def default_data_dir() -> Path:
    """``$UNOTABLE_DATA_DIR``, else the platform's user data folder (``--data-dir`` beats both).

    The one definition: the app, the servers and ``unotable paths`` all ask here.
    """
    chosen = os.environ.get(DATA_DIR_ENV, "").strip()
    return Path(chosen).expanduser() if chosen else platform_data_dir()


def platform_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("unotable", appauthor=False))


def platform_config_dir() -> Path:
    from platformdirs import user_config_dir

    return Path(user_config_dir("unotable", appauthor=False))


def config_dir(data_dir: Path) -> Path:
    """Where the settings that go with ``data_dir`` live.

    The platform's data folder keeps them in the platform's config folder. A data folder
    chosen with ``--data-dir`` or ``UNOTABLE_DATA_DIR`` keeps its own, inside it: each
    served player's folder has its own settings, and a test's folder never reaches home.
    """
    if _same_path(Path(data_dir), platform_data_dir()):
        return platform_config_dir()
    return Path(data_dir)


def _same_path(a: Path, b: Path) -> bool:
    return a.expanduser().resolve() == b.expanduser().resolve()


def autosave_path(data_dir: Path) -> Path:
    return Path(data_dir) / AUTOSAVE_NAME


def matches_dir(data_dir: Path) -> Path:
    return Path(data_dir) / MATCHES_DIR_NAME


def trash_dir(data_dir: Path) -> Path:
    return Path(data_dir) / TRASH_DIR_NAME


def history_dir(data_dir: Path) -> Path:
    return Path(data_dir) / HISTORY_DIR_NAME


def settings_path(folder: Path) -> Path:
    """The settings file in ``folder``: ``config_dir(data_dir)`` for the app's own."""
    return Path(folder) / SETTINGS_NAME
