"""Crash-safe file writing and setting damaged files aside."""

from __future__ import annotations

import contextlib
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

TEMP_SUFFIX = ".tmp"


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old or the new file, whole.

    The temporary file lives in the same directory so the rename cannot cross filesystems.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    # Makes the rename itself durable; not possible on every platform (Windows).
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def move_aside(path: Path, label: str) -> Path:
    """Rename ``path`` to ``<name>.<label>-<UTC timestamp>`` beside it and return the new path.

    Never overwrites: a second file set aside in the same second gets ``-2``, ``-3``...
    """
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    base = f"{path.name}.{label}-{stamp}"
    target = path.with_name(base)
    n = 2
    while target.exists():
        target = path.with_name(f"{base}-{n}")
        n += 1
    os.rename(path, target)
    return target


def remove_stale_temps(path: Path, older_than: float = 60.0) -> None:
    """Remove temporary files a killed writer of ``path`` left behind.

    Only old ones: a younger one may belong to a writer that is still running.
    """
    now = datetime.now(UTC).timestamp()
    for temp in path.parent.glob(f".{path.name}.*{TEMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            if now - temp.stat().st_mtime > older_than:
                temp.unlink()
