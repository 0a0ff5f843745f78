"""Crash-safe file writing, safe reading, and setting damaged files aside."""

from __future__ import annotations

import contextlib
import itertools
import os
import stat
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

TEMP_SUFFIX = ".tmp"
# A save file larger than this is refused before a byte of it is read. Real matches are
# a few KB to a few hundred KB; 8 MiB is a wide margin that still loads in about a second.
MAX_SAVE_BYTES = 8 * 1024 * 1024
# Temporary files older than this are left over from a killed writer (a write takes ms).
STALE_TEMP_SECONDS = 30.0


class UnsafeFile(OSError):
    """A file that is not read: not a regular file, or over the size limit."""


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
    fsync_dir(path.parent)


def fsync_dir(directory: Path) -> None:
    # Makes a rename durable; not possible on every platform (Windows).
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


def read_limited(path: Path, limit: int = MAX_SAVE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, without ever blocking.

    O_NONBLOCK makes opening a FIFO return at once; fstat then refuses anything that is
    not a regular file. FileNotFoundError if there is none; UnsafeFile says what is wrong.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile(f"it is not a regular file ({describe_kind(info.st_mode)})")
        if info.st_size > limit:
            raise UnsafeFile(too_large(info.st_size, limit))
        chunks = []
        remaining = limit + 1  # the file may have grown since fstat
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        if remaining <= 0:
            raise UnsafeFile(f"it is too large (over the limit of {megabytes(limit)})")
        return b"".join(chunks)
    finally:
        os.close(fd)


def describe_kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a plain file"


def too_large(size: int, limit: int = MAX_SAVE_BYTES) -> str:
    return f"it is too large ({megabytes(size)}; the limit is {megabytes(limit)})"


def megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MB"


_aside_counter = itertools.count(1)


def move_aside(path: Path, label: str, folder: Path | None = None) -> Path:
    """Rename ``path`` to ``<name>.<label>-<UTC time>-<pid>-<counter>`` and return the new path.

    Beside it, or in ``folder``. Never overwrites: the name holds the time to the
    microsecond, this process's id and a counter, and the move itself refuses an existing
    name (a hard link, then the old name is removed).
    """
    target_dir = folder if folder is not None else path.parent
    target_dir.mkdir(parents=True, exist_ok=True)
    while True:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ")
        target = target_dir / f"{path.name}.{label}-{stamp}-{os.getpid()}-{next(_aside_counter)}"
        try:
            os.link(path, target, follow_symlinks=False)
        except FileExistsError:
            continue
        except OSError:
            # no hard links here (some filesystems): the unique name is enough
            if target.exists():
                continue
            os.rename(path, target)
            return target
        os.unlink(path)
        return target


def remove_stale_temps(folder: Path, older_than: float = STALE_TEMP_SECONDS) -> int:
    """Remove temporary files a killed writer left in ``folder``; how many went.

    Only old ones: a younger one may belong to a writer in another process.
    """
    now = time.time()
    removed = 0
    for temp in _temps(folder):
        with contextlib.suppress(OSError):
            if now - temp.lstat().st_mtime > older_than:
                temp.unlink()
                removed += 1
    return removed


def temps_of(path: Path) -> list[Path]:
    """The temporary files a writer of ``path`` may have left beside it."""
    return [t for t in _temps(path.parent) if t.name.startswith(f".{path.name}.")]


def _temps(folder: Path) -> list[Path]:
    try:
        names = [p for p in folder.iterdir() if p.name.startswith(".")]
    except OSError:
        return []
    return [p for p in names if p.name.endswith(TEMP_SUFFIX)]


def check_writable(folder: Path) -> str | None:
    """None if files can be saved in ``folder`` (created if missing), else why not."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"{folder} is a file, not a folder"
    except OSError as exc:
        return f"{folder} cannot be created ({exc.strerror or exc})"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    try:
        fd, name = tempfile.mkstemp(dir=folder, prefix=".write-check.", suffix=TEMP_SUFFIX)
    except OSError as exc:
        return f"{folder} cannot be written ({exc.strerror or exc})"
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(name)
    return None
