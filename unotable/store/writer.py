"""Autosave off the UI thread: one background writer that always writes the newest record.

The UI hands over a record after every action and goes on at once; the writer thread
saves the latest one per match (older ones still waiting are simply replaced, since the
newest contains them). ``flush`` waits until everything handed over is on disk (on quit).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .matches import MatchFile
from .record import MatchRecord
from .saves import SaveError

if TYPE_CHECKING:
    from unotable.engine import Match


Record = MatchRecord | Callable[[], MatchRecord]  # a record, or one built in the thread


@dataclass
class _Job:
    record: Record | None = None
    summary: dict[str, Any] | None = None
    finished: Match | None = None  # the finished match, for the history's figures
    close: bool = False


class AutosaveWriter:
    def __init__(
        self,
        on_error: Callable[[str], None] = lambda message: None,
        on_saved: Callable[[MatchFile], None] = lambda match_file: None,
    ) -> None:
        self.on_error = on_error  # called in the writer thread
        self.on_saved = on_saved
        self._jobs: dict[MatchFile, _Job] = {}  # insertion-ordered: oldest first
        self._lock = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None

    def save(self, match_file: MatchFile, record: Record, summary: dict[str, Any]) -> None:
        """Save ``record`` soon (the newest handed over wins)."""
        self._put(match_file, record=record, summary=summary)

    def finish(self, match_file: MatchFile, record: Record, match: Match) -> None:
        """Record the finished match in the history and drop its file."""
        self._put(match_file, record=record, finished=match)

    def release(self, match_file: MatchFile) -> None:
        """Let go of the match once its pending save is written."""
        self._put(match_file, close=True)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until all handed-over work is done; False if ``timeout`` ran out first."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._jobs and not self._busy, timeout)

    def _put(self, match_file: MatchFile, **changes: Any) -> None:
        with self._lock:
            job = self._jobs.pop(match_file, None) or _Job()
            if "record" in changes:
                job.record = changes["record"]
                job.summary = changes.get("summary")
                job.finished = changes.get("finished")
            job.close = job.close or changes.get("close", False)
            self._jobs[match_file] = job
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: bool(self._jobs))
                match_file = next(iter(self._jobs))
                job = self._jobs.pop(match_file)
                self._busy = True
            try:
                self._do(match_file, job)
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def _do(self, match_file: MatchFile, job: _Job) -> None:
        try:
            if job.record is not None and not match_file.closed:
                record = job.record if isinstance(job.record, MatchRecord) else job.record()
                if job.finished is not None:
                    match_file.finish(record, job.finished)
                else:
                    match_file.save(record, job.summary)
                self.on_saved(match_file)
        except (OSError, SaveError) as error:
            self.on_error(str(error))
        except Exception as error:  # never let the writer thread die: later saves matter
            self.on_error(f"unexpected error: {error!r}")
        if job.close:
            match_file.close()
