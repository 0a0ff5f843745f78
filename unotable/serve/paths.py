"""Where the servers keep things: the data dir, the SSH players' folders, one for the web.

A player who logged in with a key gets ``keys/<key fingerprint>/<name>/``: the saves belong to
the key, and the user name only picks among that key's own folders. With a shared password or
``--open`` nobody is identified, so the name alone picks ``users/<name>/``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from pathlib import Path

USERS_DIR_NAME = "users"
KEYS_DIR_NAME = "keys"
WEB_DIR_NAME = "web"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
MAX_NAME = 32


def default_data_dir() -> Path:
    from unotable.store.paths import default_data_dir  # the one definition (UNOTABLE_DATA_DIR)

    return default_data_dir()


def unsafe_dir_reason(path: Path) -> str | None:
    """Why ``path`` (a directory) is not safe to serve from, or None. Like OpenSSH's
    StrictModes: another account that owns it, or may write in it, could move the server's
    socket, saves or host key aside and put its own in their place."""
    try:
        info = os.stat(path)
    except OSError as exc:
        return f"{path} cannot be checked: {exc.strerror or exc}"
    me = os.geteuid()
    if info.st_uid != me:
        return (
            f"{path} belongs to another user (uid {info.st_uid}); "
            f"run: chown {me} {path} && chmod 700 {path}, or give another --data-dir"
        )
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o022:
        return f"{path} can be written by others (mode {mode:04o}); run: chmod 700 {path}"
    return None


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
