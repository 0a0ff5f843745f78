"""Saved matches: one file per unfinished match, each written by one session at a time.

``matches/<id>.json`` is the match (a save whose header carries a summary for the list);
``matches/<id>.lock`` is held with an OS file lock (flock) by the one session writing it.
A second session that opens the match is told it is in use and may only read it. Starting
a match makes a new id, so it never touches another match's file. A finished match goes
to the history; a deleted one to ``trash/``. Nothing here ever overwrites another file.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import (
    MAX_SAVE_BYTES,
    UnsafeFile,
    atomic_write,
    check_writable,
    describe_kind,
    move_aside,
    remove_stale_temps,
    temps_of,
    too_large,
)
from .paths import autosave_path, history_dir, matches_dir, trash_dir
from .record import MatchRecord
from .saves import SaveError, dumps, load_file, record_from_dict

try:
    import fcntl
except ImportError:  # Windows: no flock; one session per data dir is then up to the user
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from unotable.engine import Match

# The lobby lists this many, most recently played first; older ones stay on disk, are
# counted in the list's heading, and show up as newer ones are finished or deleted.
MAX_LISTED = 50
LOCK_SUFFIX = ".lock"
HEADER_BYTES = 64 * 1024  # the summary and seats are in the first lines of a save
_ID = re.compile(r"^\d{8}T\d{6}Z-[0-9a-f]{8}$")
# A served web tab's name for itself (kept by the browser across reloads of that tab).
SESSION_TAG = re.compile(r"^[0-9a-f]{32}$")


class MatchInUse(Exception):
    """Another session (another terminal, tab or connection) is writing this match."""


class MatchGone(Exception):
    """The match is no longer saved (finished or deleted meanwhile)."""


@dataclass(frozen=True)
class SavedMatch:
    """One line of the Saved matches list."""

    match_id: str
    path: Path
    game: str
    players: tuple[str, ...]
    hand: int | None  # None: an old save without a summary
    totals: tuple[int, ...] | None
    actions: int | None
    last_played: float  # seconds since the epoch (the file's modification time)
    in_use: bool
    session: str | None = None  # the web tab that last played it, if any
    options: dict[str, Any] = field(default_factory=dict)  # as the match was set up


@dataclass
class SavedList:
    matches: list[SavedMatch]  # most recently played first, at most MAX_LISTED
    total: int  # how many saved matches there are in all
    notices: list[str] = field(default_factory=list)  # files that were set aside, and why


def new_match_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%SZ}-{secrets.token_hex(4)}"


def match_path(data_dir: Path, match_id: str) -> Path:
    return matches_dir(data_dir) / f"{match_id}.json"


def summary_of(match: Match, session: str | None = None) -> dict[str, Any]:
    """What the list shows about a match in play, without replaying it; ``session`` is
    the web tab playing it, so that tab's Continue finds it again."""
    summary: dict[str, Any] = {"hand": match.hand_number, "totals": list(match.scores)}
    if session is not None:
        summary["session"] = session
    return summary


# -- the writer's side --------------------------------------------------------------------


class MatchFile:
    """The one writer of a match's file while it is open: it holds the match's lock."""

    def __init__(self, data_dir: Path, match_id: str, lock_fd: int) -> None:
        self.data_dir = Path(data_dir)
        self.match_id = match_id
        self.path = match_path(data_dir, match_id)
        self.lock_path = self.path.with_suffix(LOCK_SUFFIX)
        self._fd: int | None = lock_fd

    @classmethod
    def create(cls, data_dir: Path) -> MatchFile:
        """A new match's file (nothing written yet): a fresh id, locked by this session."""
        folder = matches_dir(data_dir)
        folder.mkdir(parents=True, exist_ok=True)
        while True:
            match_id = new_match_id()
            lock_path = match_path(data_dir, match_id).with_suffix(LOCK_SUFFIX)
            try:
                fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o600)
            except FileExistsError:
                continue
            if not _try_lock(fd):  # cannot happen for a file we just made, but never guess
                os.close(fd)
                continue
            return cls(data_dir, match_id, fd)

    @classmethod
    def open(cls, data_dir: Path, match_id: str) -> MatchFile:
        """Take over a saved match for writing. MatchInUse if another session has it."""
        if not _ID.match(match_id):
            raise MatchGone(f"{match_id!r} is not a saved match's name")
        path = match_path(data_dir, match_id)
        lock_path = path.with_suffix(LOCK_SUFFIX)
        for _ in range(100):
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | _CLOEXEC, 0o600)
            if not _try_lock(fd):
                os.close(fd)
                raise MatchInUse(f"This match is open in another session ({match_id}).")
            # the lock file may have been removed and made again while we waited
            if _same_file(fd, lock_path):
                break
            os.close(fd)
        else:
            raise MatchInUse(f"This match keeps changing hands ({match_id}).")
        opened = cls(data_dir, match_id, fd)
        # we are its only writer: any temp file is a killed writer's, even if the match
        # itself was never saved (killed during its first write)
        for temp in temps_of(path):
            with contextlib.suppress(OSError):
                temp.unlink()
        if not os.path.lexists(path):
            opened._release(remove_lock=True)
            raise MatchGone("This match is no longer saved (it was finished or deleted).")
        return opened

    @property
    def closed(self) -> bool:
        return self._fd is None

    def load(self) -> MatchRecord:
        """The saved record; SaveError says what is wrong (see set_aside)."""
        try:
            return load_file(self.path)
        except FileNotFoundError as exc:
            raise SaveError("the file has gone") from exc

    def save(self, record: MatchRecord, summary: dict[str, Any] | None = None) -> None:
        """Write the match, atomically (the old save or the new, never half)."""
        self._check_open()
        extra = {"summary": {**(summary or {}), "actions": len(record.actions)}}
        atomic_write(self.path, dumps(record, extra=extra))

    def finish(self, record: MatchRecord, match: Match | None = None) -> Path:
        """Record a finished match in the history, then drop its file; the history entry."""
        from .history import record_finished

        self._check_open()
        entry = record_finished(record, self.data_dir, match)  # first: the file stays if this fails
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        self._release(remove_lock=True)
        return entry

    def trash(self) -> Path:
        """Move the match's file to the trash folder (never deleted); its new path."""
        self._check_open()
        moved = move_aside(self.path, "deleted", folder=trash_dir(self.data_dir))
        self._release(remove_lock=True)
        return moved

    def set_aside(self, reason: str, label: str = "corrupt") -> SaveError:
        """Rename an unusable save aside (never deleted); the error to show, saying where."""
        error = _set_aside(self.path, reason, label)
        self._release(remove_lock=True)
        return error

    def close(self) -> None:
        """Let another session take the match over (it stays saved)."""
        self._release(remove_lock=False)

    def _check_open(self) -> None:
        if self._fd is None:
            raise SaveError("this match is no longer open for writing here")

    def _release(self, remove_lock: bool) -> None:
        if self._fd is None:
            return
        if remove_lock:  # while still holding it, so nobody locks a file about to go
            with contextlib.suppress(OSError):
                os.unlink(self.lock_path)
        os.close(self._fd)
        self._fd = None


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _try_lock(fd: int) -> bool:
    if fcntl is None:
        return True
    for attempt in range(3):
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if attempt < 2:  # perhaps only another session's list looking (a shared lock)
                time.sleep(0.02)
    return False


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.stat(path).st_ino == os.fstat(fd).st_ino
    except FileNotFoundError:
        return False


def in_use(lock_path: Path) -> bool:
    """True if a session holds this lock now."""
    if fcntl is None:
        return False
    try:
        fd = os.open(lock_path, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # also releases the shared lock
    return False


# -- the reader's side --------------------------------------------------------------------


def read_match(data_dir: Path, match_id: str) -> MatchRecord:
    """A saved match, read only (to watch a match another session is playing)."""
    try:
        return load_file(match_path(data_dir, match_id))
    except FileNotFoundError as exc:
        raise MatchGone("This match is no longer saved (it was finished or deleted).") from exc


def list_matches(data_dir: Path, limit: int = MAX_LISTED) -> SavedList:
    """The saved matches, most recently played first (at most ``limit``).

    Files that cannot be used (damaged, too large, not regular files) are set aside,
    never deleted, unless another session holds them; each gives a notice.
    """
    folder = matches_dir(data_dir)
    notices: list[str] = []
    found: list[tuple[float, str, Path]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return SavedList([], 0)
    for entry in entries:
        match_id, suffix = entry.name[:-5], entry.name[-5:]
        if suffix != ".json" or not _ID.match(match_id):
            continue
        path = Path(entry.path)
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        problem = _problem(info)
        if problem is not None:
            if not in_use(path.with_suffix(LOCK_SUFFIX)):
                notices.append(str(_set_aside(path, problem, "unusable")))
            continue
        found.append((info.st_mtime, match_id, path))
    found.sort(reverse=True)
    listed: list[SavedMatch] = []
    unusable = 0
    for mtime, match_id, path in found:
        if len(listed) >= limit:
            break
        busy = in_use(path.with_suffix(LOCK_SUFFIX))
        try:
            listed.append(_summary(match_id, path, mtime, busy))
        except (SaveError, OSError) as exc:
            if busy:
                continue
            notices.append(str(_set_aside(path, str(exc), "corrupt")))
            unusable += 1
    return SavedList(listed, len(found) - unusable, notices)


def most_recent(data_dir: Path, session: str | None = None) -> tuple[SavedMatch | None, list[str]]:
    """The most recently played match that no other session has open, and any notices."""
    saved = list_matches(data_dir)
    return pick_continue(saved.matches, session), saved.notices


def pick_continue(matches: list[SavedMatch], session: str | None = None) -> SavedMatch | None:
    """What Continue resumes: this web tab's own latest match if it is free, otherwise the
    most recently played match nobody has open. ``matches`` is most recent first."""
    free = [m for m in matches if not m.in_use]
    if session is not None:
        for match in free:
            if match.session == session:
                return match
    return free[0] if free else None


def trash_match(data_dir: Path, match_id: str) -> Path:
    """Move a saved match to the trash; MatchInUse if another session has it open."""
    return MatchFile.open(data_dir, match_id).trash()


def _problem(info: os.stat_result) -> str | None:
    if not stat.S_ISREG(info.st_mode):
        return f"it is not a regular file ({describe_kind(info.st_mode)})"
    if info.st_size > MAX_SAVE_BYTES:
        return too_large(info.st_size)
    return None


def _summary(match_id: str, path: Path, mtime: float, busy: bool) -> SavedMatch:
    data = _header(path)
    if data is None:  # not laid out as unotable writes it: read it whole (within the limit)
        record = load_file(path)
        summary: Any = {}
        actions: int | None = len(record.actions)
    else:
        record = record_from_dict(data)
        summary = data.get("summary")
        summary = summary if isinstance(summary, dict) else {}
        actions = summary.get("actions") if isinstance(summary.get("actions"), int) else None
    hand = summary.get("hand")
    session = summary.get("session")
    totals = summary.get("totals")
    good_totals = isinstance(totals, list) and all(isinstance(t, int) for t in totals)
    return SavedMatch(
        match_id=match_id,
        path=path,
        game=record.game,
        players=tuple(s.name for s in record.seats),
        hand=hand if isinstance(hand, int) else None,
        totals=tuple(totals) if good_totals else None,
        actions=actions,
        last_played=mtime,
        in_use=busy,
        session=session if isinstance(session, str) and SESSION_TAG.match(session) else None,
        options=dict(record.options or {}),
    )


def _header(path: Path) -> dict[str, Any] | None:
    """Everything but the actions, from the first lines of a save; None if not found there.

    The list reads only this and the file's last bytes (not cut short); resuming reads
    the whole file and sets it aside if anything else is wrong.
    """
    head, tail = _read_ends(path)
    if not tail.rstrip().endswith(b"}"):
        return None  # damaged: the whole read says how
    text = head.decode("utf-8", errors="replace")
    end = text.find('\n  "actions": ')
    if end < 0:
        return None
    try:
        data = json.loads(text[:end] + '\n  "actions": []\n}')
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _read_ends(path: Path) -> tuple[bytes, bytes]:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafeFile("it is not a regular file")
        return os.read(fd, HEADER_BYTES), os.pread(fd, 64, max(0, info.st_size - 64))
    finally:
        os.close(fd)


def _set_aside(path: Path, reason: str, label: str) -> SaveError:
    try:
        moved = move_aside(path, label)
    except OSError as exc:
        return SaveError(
            f"The saved match {path.name} could not be used: {reason}. "
            f"It could not be moved aside either ({exc.strerror or exc})."
        )
    return SaveError(
        f"The saved match {path.name} could not be used: {reason}. It was moved to {moved}.",
        moved_to=moved,
    )


# -- start-up -----------------------------------------------------------------------------


def prepare(data_dir: Path) -> tuple[str | None, list[str]]:
    """Start-up checks: (why saving is impossible, or None; notices).

    Removes temporary files killed writers left, lock files of matches that are gone,
    and moves a single-slot ``autosave.json`` (older unotable) into ``matches/``.
    """
    data_dir = Path(data_dir)
    problem = check_writable(data_dir) or check_writable(matches_dir(data_dir))
    if problem is not None:
        return problem, []
    remove_stale_temps(data_dir)
    remove_stale_temps(history_dir(data_dir))
    _tidy_matches(data_dir)
    return None, _adopt_old_autosave(data_dir)


def _tidy_matches(data_dir: Path) -> None:
    folder = matches_dir(data_dir)
    for lock_path in folder.glob(f"*{LOCK_SUFFIX}"):
        match_id = lock_path.name[: -len(LOCK_SUFFIX)]
        if not _ID.match(match_id) or in_use(lock_path):
            continue
        # nobody writes it: take its lock a moment, which removes its temp files (stale,
        # whatever their age) and, for a match that is gone, the lock file too
        with contextlib.suppress(MatchInUse, MatchGone, OSError):
            MatchFile.open(data_dir, match_id).close()
    remove_stale_temps(folder)


def _adopt_old_autosave(data_dir: Path) -> list[str]:
    old = autosave_path(data_dir)
    try:
        info = old.lstat()
    except OSError:
        return []
    problem = _problem(info)
    if problem is not None:
        return [str(_set_aside(old, problem, "unusable"))]
    adopted = MatchFile.create(data_dir)
    try:
        os.rename(old, adopted.path)
    except OSError as exc:
        adopted._release(remove_lock=True)
        return [f"The old saved match {old} could not be moved into {adopted.path.parent}: {exc}"]
    adopted.close()
    return []
