"""Where the servers keep things: the data dir, the SSH players' folders, one for the web.

A player who logged in with a key gets ``keys/<key fingerprint>/<name>/``: the saves belong to
the key, and the user name only picks among that key's own folders. With a shared password or
``--open`` nobody is identified, so the name alone picks ``users/<name>/``.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

USERS_DIR_NAME = "users"
KEYS_DIR_NAME = "keys"
WEB_DIR_NAME = "web"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
MAX_NAME = 32


def default_data_dir() -> Path:
    from platformdirs import user_data_dir as platform_data_dir

    return Path(platform_data_dir("unotable", appauthor=False))


def safe_name(username: str) -> str:
    """A folder name for an SSH user name; names that had to change get a hash suffix
    so that two different users never share a folder."""
    cleaned = _UNSAFE.sub("_", username).lstrip(".")[:MAX_NAME]
    if cleaned == username and cleaned:
        return cleaned
    digest = hashlib.sha256(username.encode("utf-8", "surrogateescape")).hexdigest()[:10]
    return f"{cleaned or 'user'}-{digest}"


def key_folder(fingerprint: str) -> str:
    """A folder name for a key fingerprint such as ``SHA256:Jb1X/+...``."""
    return "sha256-" + fingerprint.removeprefix("SHA256:").replace("/", "_").replace("+", "-")


def user_data_dir(data_dir: Path, username: str, key_fingerprint: str | None = None) -> Path:
    """The player's own data dir (autosave, settings), created if missing."""
    if key_fingerprint:
        path = data_dir / KEYS_DIR_NAME / key_folder(key_fingerprint) / safe_name(username)
    else:
        path = data_dir / USERS_DIR_NAME / safe_name(username)
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def web_data_dir(data_dir: Path) -> Path:
    path = data_dir / WEB_DIR_NAME
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path
