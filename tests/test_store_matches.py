"""Saved matches never get lost: a stateful model of sessions, safety of odd files, start-up.

The state machine plays several matches through the Controller and saves them as the app
does (one MatchFile per match, holding its lock, and the background AutosaveWriter), and
checks the files against a plain model after every step: which actions of which match
were acknowledged (on disk once the writer was flushed), and what went to the trash.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from unotable.controller import Controller, Seat, VirtualClock
from unotable.store import matches
from unotable.store.files import MAX_SAVE_BYTES, STALE_TEMP_SECONDS, TEMP_SUFFIX
from unotable.store.matches import (
    LOCK_SUFFIX,
    MAX_LISTED,
    MatchFile,
    MatchGone,
    MatchInUse,
    list_matches,
    match_path,
    most_recent,
    new_match_id,
    prepare,
    read_match,
    summary_of,
    trash_match,
)
from unotable.store.paths import matches_dir, trash_dir
from unotable.store.saves import SaveError, dumps, load_file
from unotable.store.writer import AutosaveWriter

Actions = list[tuple[int, str]]


def new_controller(seed: int, kinds: tuple[str, ...]) -> Controller:
    seats = [Seat("Ann", "human")] + [Seat(f"Bot{i}", kind) for i, kind in enumerate(kinds)]
    return Controller("uno", seats, None, seed, clock=VirtualClock(), speed="instant")


def actions_on_disk(data_dir: Path, match_id: str) -> Actions | None:
    try:
        return list(read_match(data_dir, match_id).actions)
    except MatchGone:
        return None


def is_prefix(short: Actions, long: Actions) -> bool:
    return long[: len(short)] == short


def temps_in(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob(f".*{TEMP_SUFFIX}"))


def write_like_a_killed_writer(path: Path, text: str, cut: bool) -> Path:
    """What ``atomic_write`` leaves when the process dies after writing the temporary
    file (``cut``: half way through it) and before the rename."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TEMP_SUFFIX)
    data = text.encode()
    with os.fdopen(fd, "wb") as handle:
        handle.write(data[: len(data) // 2] if cut else data)
    return Path(name)


# -- 1. the stateful model ------------------------------------------------------------------

# One writer thread for every run: like a process's writer it only ever holds the queue,
# which the machine empties (flush, or a simulated kill) before each run ends.
WRITER_ERRORS: list[str] = []
WRITER = AutosaveWriter(on_error=WRITER_ERRORS.append)
CRASHES = ("queued", "temp-written", "temp-cut", "renamed")


class Playing:
    """A match this session has open: its table, its file (the lock) and what is on disk."""

    def __init__(self, controller: Controller, match_file: MatchFile) -> None:
        self.controller = controller
        self.match_file = match_file

    def hand_over(self, controller: Controller) -> None:
        WRITER.save(self.match_file, controller.to_record(), summary_of(controller.match))

    @property
    def actions(self) -> Actions:
        return [(seat, str(action)) for seat, action in self.controller.match.history]


class SavedMatches(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.data_dir = Path(tempfile.mkdtemp(prefix="unotable-store-"))
        # the model: every acknowledged match and its actions, the bytes last acknowledged
        self.model: dict[str, Actions] = {}
        self.acked_bytes: dict[str, bytes] = {}
        self.trashed: dict[Path, bytes] = {}
        self.open: dict[str, Playing] = {}
        WRITER_ERRORS.clear()
        # the lock's retry pause is for another process's list; nobody else lists here
        self._time, matches.time = matches.time, SimpleNamespace(sleep=lambda _: None)

    def teardown(self) -> None:
        try:
            for playing in self.open.values():
                WRITER.release(playing.match_file)
            assert WRITER.flush(10)
        finally:
            matches.time = self._time
            shutil.rmtree(self.data_dir, ignore_errors=True)

    # -- helpers --------------------------------------------------------------------------

    def acknowledge(self) -> None:
        """Flush the writer: everything handed over is on disk, so the model has it."""
        assert WRITER.flush(10)
        for match_id, playing in self.open.items():
            path = match_path(self.data_dir, match_id)
            if not path.exists():  # as in the app, a match is saved once someone acts in it
                assert playing.actions == [] and match_id not in self.model
                continue
            self.model[match_id] = playing.actions
            self.acked_bytes[match_id] = path.read_bytes()

    def closed_ids(self) -> list[str]:
        # in a fixed order (ids are random): Hypothesis must draw the same way every run
        return [m for m in self.model if m not in self.open]

    # -- rules ----------------------------------------------------------------------------

    @precondition(lambda self: len(self.open) < 3 and len(self.model) < 6)
    @rule(
        seed=st.integers(0, 2**31),
        kinds=st.sampled_from([("random",), ("easy", "random")]),
        save_now=st.booleans(),
    )
    def new_match(self, seed: int, kinds: tuple[str, ...], save_now: bool) -> None:
        self.acknowledge()
        before = {p: p.read_bytes() for p in matches_dir(self.data_dir).glob("*.json")}
        match_file = MatchFile.create(self.data_dir)
        assert match_file.match_id not in self.model and match_file.match_id not in self.open
        controller = new_controller(seed, kinds)
        playing = Playing(controller, match_file)
        controller.on_action = playing.hand_over  # as the app: every action goes to the writer
        controller.run()  # the computers before the first human decision
        self.open[match_file.match_id] = playing
        assert WRITER.flush(10)  # (not acknowledged: what is on disk must not depend on timing)
        if save_now:
            WRITER.save(match_file, controller.to_record(), summary_of(controller.match))
            assert WRITER.flush(10)
            # a new match never touches another match's file
            assert {p: p.read_bytes() for p in before} == before
            self.acknowledge()

    @precondition(lambda self: self.open)
    @rule(data=st.data(), count=st.integers(1, 3))
    def act(self, data: st.DataObject, count: int) -> None:
        match_id = data.draw(st.sampled_from(list(self.open)))
        controller = self.open[match_id].controller
        for _ in range(count):
            turn = controller.run()
            if turn.over:
                return
            assert turn.human and turn.seat == 0
            legal = controller.legal(0)
            choice = data.draw(st.integers(0, len(legal) - 1))
            controller.submit(0, legal[choice])
        controller.run()
        # written, but not acknowledged: the model lags behind (see crash for the writes
        # a kill interrupts); flushed so that what is on disk never depends on timing
        assert WRITER.flush(10)

    @precondition(lambda self: self.open)
    @rule()
    def save(self) -> None:
        self.acknowledge()

    @precondition(lambda self: self.open)
    @rule(data=st.data())
    def close(self, data: st.DataObject) -> None:
        """The table closes: its last save is written, then the lock is let go."""
        match_id = data.draw(st.sampled_from(list(self.open)))
        WRITER.release(self.open[match_id].match_file)
        self.acknowledge()
        playing = self.open.pop(match_id)
        assert playing.match_file.closed

    @precondition(lambda self: len(self.open) < 3 and set(self.model) - set(self.open))
    @rule(data=st.data())
    def resume(self, data: st.DataObject) -> None:
        match_id = data.draw(st.sampled_from(self.closed_ids()))
        if temps_of_match(self.data_dir, match_id):
            event("resumed a match a killed writer left a temporary file of")
        match_file = MatchFile.open(self.data_dir, match_id)
        assert temps_of_match(self.data_dir, match_id) == []  # a killed writer's temps went
        record = match_file.load()
        assert list(record.actions) == self.model[match_id]
        controller = Controller.from_record(record, clock=VirtualClock(), speed="instant")
        playing = Playing(controller, match_file)
        controller.on_action = playing.hand_over
        assert playing.actions == self.model[match_id]
        self.open[match_id] = playing

    @precondition(lambda self: self.model)
    @rule(data=st.data())
    def open_again(self, data: st.DataObject) -> None:
        """A second session: refused while this one has the match; it changes nothing."""
        open_ids = [m for m in self.open if m in self.model]
        if not open_ids:
            return
        match_id = data.draw(st.sampled_from(open_ids))
        assert WRITER.flush(10)
        path = match_path(self.data_dir, match_id)
        before = path.read_bytes()
        event("opened a match in use")
        with pytest.raises(MatchInUse):
            MatchFile.open(self.data_dir, match_id)
        with pytest.raises(MatchInUse):
            trash_match(self.data_dir, match_id)
        assert read_match(self.data_dir, match_id).actions == self.open[match_id].actions  # watch
        assert path.read_bytes() == before
        assert path.with_suffix(LOCK_SUFFIX).exists()
        assert not self.open[match_id].match_file.closed

    @precondition(lambda self: set(self.model) - set(self.open))
    @rule(data=st.data())
    def delete(self, data: st.DataObject) -> None:
        match_id = data.draw(st.sampled_from(self.closed_ids()))
        before = match_path(self.data_dir, match_id).read_bytes()
        event("deleted a match")
        moved = trash_match(self.data_dir, match_id)
        assert moved.parent == trash_dir(self.data_dir)
        assert moved.read_bytes() == before
        assert not match_path(self.data_dir, match_id).exists()
        assert not match_path(self.data_dir, match_id).with_suffix(LOCK_SUFFIX).exists()
        del self.model[match_id], self.acked_bytes[match_id]
        self.trashed[moved] = before
        with pytest.raises(MatchGone):
            MatchFile.open(self.data_dir, match_id)

    @rule(data=st.data(), how=st.sampled_from(CRASHES), act=st.booleans())
    def crash(self, data: st.DataObject, how: str, act: bool) -> None:
        """The process is killed: between two writes, or with saves still queued.

        Holding the writer's lock stops it between two jobs, which is where a kill
        lands as far as the files are concerned (each write is atomic); ``how`` says what
        the write in flight had done: nothing, its temporary file whole or cut short, or
        its rename.
        """
        with WRITER._lock:
            WRITER._lock.wait_for(lambda: not WRITER._busy)
            if act and self.open:  # one more action, handed over but not yet written
                match_id = data.draw(st.sampled_from(list(self.open)))
                playing = self.open[match_id]
                turn = playing.controller.run()
                if not turn.over:
                    legal = playing.controller.legal(0)
                    playing.controller.submit(0, legal[data.draw(st.integers(0, len(legal) - 1))])
            in_flight = [(f, job) for f, job in WRITER._jobs.items() if job.record is not None]
            WRITER._jobs.clear()  # the queue dies with the process
            if in_flight:
                event(f"killed with a write in flight: {how}")
            for match_file, job in in_flight:
                assert job.record is not None
                if how == "renamed":  # killed after the rename: the write is whole
                    match_file.save(job.record, job.summary)
                elif how.startswith("temp"):
                    count = {"actions": len(job.record.actions)}
                    text = dumps(job.record, extra={"summary": {**(job.summary or {}), **count}})
                    write_like_a_killed_writer(match_file.path, text, cut=how == "temp-cut")
            for playing in self.open.values():  # the kernel lets go of the dead process's locks
                fd = playing.match_file._fd
                assert fd is not None
                os.close(fd)
                playing.match_file._fd = None
        # what survives: at least what was acknowledged, at most what was handed over
        for match_id, playing in self.open.items():
            on_disk = actions_on_disk(self.data_dir, match_id)
            known = self.model.get(match_id)
            if on_disk is None:
                assert known is None  # never acknowledged: nothing was promised
                continue
            assert is_prefix(known or [], on_disk) and is_prefix(on_disk, playing.actions)
            self.model[match_id] = on_disk
            self.acked_bytes[match_id] = match_path(self.data_dir, match_id).read_bytes()
        self.open.clear()

    @rule()
    def restart(self) -> None:
        """A new session's start-up checks keep every match and tidy only leftovers."""
        problem, notices = prepare(self.data_dir)
        assert problem is None and notices == []
        folder = matches_dir(self.data_dir)
        for temp in temps_in(folder):  # only those of matches being written may stay
            assert any(temp.name.startswith(f".{m}.json.") for m in self.open), temp
        for lock in folder.glob(f"*{LOCK_SUFFIX}"):
            match_id = lock.name[: -len(LOCK_SUFFIX)]
            assert match_id in self.model or match_id in self.open, lock

    # -- invariants -----------------------------------------------------------------------

    @invariant()
    def no_acknowledged_match_is_lost_or_changed(self) -> None:
        saved = list_matches(self.data_dir)
        assert saved.notices == []
        listed = {m.match_id for m in saved.matches}
        assert set(self.model) <= listed <= set(self.model) | set(self.open)
        assert saved.total == len(listed)
        for m in saved.matches:
            assert m.in_use == (m.match_id in self.open)
        for match_id, known in self.model.items():
            on_disk = actions_on_disk(self.data_dir, match_id)
            assert on_disk is not None
            playing = self.open.get(match_id)
            if playing is None or playing.actions == known:
                # nothing of this match is in flight: byte for byte as acknowledged
                assert on_disk == known
                path = match_path(self.data_dir, match_id)
                assert path.read_bytes() == self.acked_bytes[match_id]
            else:
                assert is_prefix(known, on_disk) and is_prefix(on_disk, playing.actions)

    @invariant()
    def trash_keeps_every_deleted_match(self) -> None:
        folder = trash_dir(self.data_dir)
        present = set(folder.iterdir()) if folder.exists() else set()
        assert present == set(self.trashed)
        for path, data in self.trashed.items():
            assert path.read_bytes() == data

    @invariant()
    def the_writer_never_failed(self) -> None:
        assert WRITER_ERRORS == []


def temps_of_match(data_dir: Path, match_id: str) -> list[Path]:
    return [p for p in temps_in(matches_dir(data_dir)) if p.name.startswith(f".{match_id}.json.")]


# 200 sequences of up to 20 steps: about 6-15 s on one core (most of it fsync).
# STORE_EXAMPLES=2000 runs a longer search locally.
SavedMatches.TestCase.settings = settings(
    max_examples=int(os.environ.get("STORE_EXAMPLES", 200)),
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_saved_matches_are_never_lost = SavedMatches.TestCase


# -- 2. files that are not saves: a FIFO and a huge file ------------------------------------

HUGE = 200 * 1024 * 1024
BOUND = 2.0  # seconds: these are a few system calls, however big or odd the file is


def bounded(call: Any, path: Path, timeout: float = 10.0) -> tuple[Any, float]:
    """``call()`` in a thread, so a regression that blocks fails instead of hanging; the
    exception it raised (or its value) and how long it took."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = call()
        except BaseException as exc:  # handed to the test
            outcome["value"] = exc

    worker = threading.Thread(target=target, daemon=True)
    started = time.monotonic()
    worker.start()
    worker.join(timeout)
    elapsed = time.monotonic() - started
    if worker.is_alive():
        with contextlib.suppress(OSError):  # a reader blocked on the FIFO: let it go
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        pytest.fail(f"{call} blocked on {path} for more than {timeout} s")
    return outcome["value"], elapsed


def odd_file(data_dir: Path, kind: str) -> tuple[str, Path]:
    """A FIFO, or a sparse 200 MB file (made in no time), named like a saved match."""
    match_id = new_match_id()
    path = match_path(data_dir, match_id)
    path.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.touch()
        os.truncate(path, HUGE)
    return match_id, path


REASONS = {
    "fifo": ("not a regular file", "FIFO"),
    "huge": ("too large", "200.0 MB", f"the limit is {MAX_SAVE_BYTES // (1024 * 1024)}.0 MB"),
}


@pytest.mark.parametrize("kind", ["fifo", "huge"])
def test_an_odd_file_in_the_list_is_set_aside_at_once_and_kept(tmp_path: Path, kind: str) -> None:
    match_id, path = odd_file(tmp_path, kind)
    inode = path.lstat().st_ino
    saved, elapsed = bounded(lambda: list_matches(tmp_path), path)
    assert elapsed < BOUND, elapsed
    assert saved.matches == [] and saved.total == 0
    [notice] = saved.notices
    assert match_id in notice and all(reason in notice for reason in REASONS[kind]), notice
    # set aside beside it, never deleted: the same file (same inode, kind and size)
    [moved] = [p for p in path.parent.iterdir() if p.name.startswith(f"{match_id}.json.unusable-")]
    assert str(moved) in notice and not path.exists()
    info = moved.lstat()
    assert info.st_ino == inode
    assert stat.S_ISFIFO(info.st_mode) if kind == "fifo" else info.st_size == HUGE
    assert most_recent(tmp_path) == (None, [])  # and it is not in the way any more


@pytest.mark.parametrize("kind", ["fifo", "huge"])
@pytest.mark.parametrize("reader", ["read_match", "load_file", "MatchFile.load"])
def test_reading_an_odd_file_says_why_at_once(tmp_path: Path, kind: str, reader: str) -> None:
    match_id, path = odd_file(tmp_path, kind)
    calls = {
        "read_match": lambda: read_match(tmp_path, match_id),
        "load_file": lambda: load_file(path),
        "MatchFile.load": lambda: load_and_close(MatchFile.open(tmp_path, match_id)),
    }
    error, elapsed = bounded(calls[reader], path)
    assert elapsed < BOUND, elapsed
    assert isinstance(error, SaveError), error
    assert all(reason in str(error) for reason in REASONS[kind]), error
    assert "\n" not in str(error)
    assert path.exists()  # reading sets nothing aside: the list (or resuming) does, saying so


def load_and_close(match_file: MatchFile) -> Any:
    try:
        return match_file.load()
    finally:
        match_file.close()


def test_a_symbolic_link_to_a_fifo_does_not_block_either(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    match_id = new_match_id()
    link = match_path(tmp_path, match_id)
    link.parent.mkdir(parents=True)
    link.symlink_to(fifo)
    error, elapsed = bounded(lambda: read_match(tmp_path, match_id), fifo)
    assert elapsed < BOUND and isinstance(error, SaveError) and "FIFO" in str(error)
    saved, elapsed = bounded(lambda: list_matches(tmp_path), fifo)
    assert elapsed < BOUND and "symbolic link" in saved.notices[0]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)  # what it pointed to is untouched


def test_a_damaged_save_is_set_aside_byte_for_byte(tmp_path: Path) -> None:
    record = new_controller(3, ("random",)).to_record()
    match_id = new_match_id()
    path = match_path(tmp_path, match_id)
    path.parent.mkdir(parents=True)
    damaged = dumps(record).encode()[:-40]  # cut short by something other than unotable
    path.write_bytes(damaged)
    saved = list_matches(tmp_path)
    assert saved.total == 0 and "cut short" in saved.notices[0]
    [moved] = path.parent.glob(f"{match_id}.json.corrupt-*")
    assert moved.read_bytes() == damaged


# -- 3. sessions, and the start-up checks ----------------------------------------------------


def saved_match(data_dir: Path, seed: int, actions: int = 0) -> tuple[MatchFile, Controller]:
    controller = new_controller(seed, ("random",))
    match_file = MatchFile.create(data_dir)
    for _ in range(actions):
        controller.run()
        controller.submit(0, controller.legal(0)[0])
    match_file.save(controller.to_record(), summary_of(controller.match))
    return match_file, controller


def test_starting_a_match_never_touches_another_ones_file(tmp_path: Path) -> None:
    first, first_table = saved_match(tmp_path, 1, actions=2)
    first_bytes = first.path.read_bytes()
    second, second_table = saved_match(tmp_path, 2)
    assert second.match_id != first.match_id and second.path != first.path
    assert first.path.read_bytes() == first_bytes
    for _ in range(3):  # the second match goes on; the first stays as it was
        second_table.run()
        second_table.submit(0, second_table.legal(0)[-1])
        second.save(second_table.to_record(), summary_of(second_table.match))
        assert first.path.read_bytes() == first_bytes
    assert read_match(tmp_path, first.match_id).actions == first_table.to_record().actions
    assert read_match(tmp_path, second.match_id).actions == second_table.to_record().actions
    assert {m.match_id for m in list_matches(tmp_path).matches} == {
        first.match_id,
        second.match_id,
    }


def test_a_second_session_is_told_the_match_is_in_use_and_may_watch(tmp_path: Path) -> None:
    playing, table = saved_match(tmp_path, 4, actions=3)
    before = playing.path.read_bytes()
    with pytest.raises(MatchInUse, match="another session"):
        MatchFile.open(tmp_path, playing.match_id)
    with pytest.raises(MatchInUse):
        trash_match(tmp_path, playing.match_id)
    watched = read_match(tmp_path, playing.match_id)  # read only, while in use
    assert watched.actions == table.to_record().actions
    assert playing.path.read_bytes() == before and not playing.closed
    [listed] = list_matches(tmp_path).matches
    assert listed.in_use and listed.actions == len(watched.actions)
    playing.save(table.to_record(), summary_of(table.match))  # the first session goes on
    playing.close()
    again = MatchFile.open(tmp_path, playing.match_id)  # and once it lets go, it is free
    assert again.load().actions == watched.actions
    again.close()


def test_most_recent_skips_matches_in_use(tmp_path: Path) -> None:
    older, _ = saved_match(tmp_path, 5)
    newer, _ = saved_match(tmp_path, 6)
    os.utime(older.path, (1_000_000, 1_000_000))
    older.close()
    found, notices = most_recent(tmp_path)
    assert notices == [] and found is not None and found.match_id == older.match_id
    newer.close()
    found, _ = most_recent(tmp_path)
    assert found is not None and found.match_id == newer.match_id
    with MatchFileHeld(tmp_path, newer.match_id), MatchFileHeld(tmp_path, older.match_id):
        assert most_recent(tmp_path) == (None, [])


def test_a_web_tab_continues_its_own_match_first(tmp_path: Path) -> None:
    tab_a, tab_b = "a" * 32, "b" * 32
    mine = MatchFile.create(tmp_path)
    table = new_controller(1, ("random",))
    mine.save(table.to_record(), summary_of(table.match, tab_a))
    os.utime(mine.path, (1_000_000, 1_000_000))  # the older of the two
    theirs = MatchFile.create(tmp_path)
    other = new_controller(2, ("random",))
    theirs.save(other.to_record(), summary_of(other.match, tab_b))
    mine.close()
    theirs.close()
    listed = {m.match_id: m.session for m in list_matches(tmp_path).matches}
    assert listed == {mine.match_id: tab_a, theirs.match_id: tab_b}
    assert most_recent(tmp_path, tab_a)[0].match_id == mine.match_id  # type: ignore[union-attr]
    assert most_recent(tmp_path, tab_b)[0].match_id == theirs.match_id  # type: ignore[union-attr]
    assert most_recent(tmp_path)[0].match_id == theirs.match_id  # type: ignore[union-attr]
    # a new tab, or the own match held by another session: the most recent free one
    assert most_recent(tmp_path, "c" * 32)[0].match_id == theirs.match_id  # type: ignore[union-attr]
    with MatchFileHeld(tmp_path, mine.match_id):
        assert most_recent(tmp_path, tab_a)[0].match_id == theirs.match_id  # type: ignore[union-attr]
    # a summary with a name that is not a tab's is ignored
    bad = MatchFile.create(tmp_path)
    bad.save(table.to_record(), {"hand": 1, "totals": [0], "session": "../../x"})
    bad.close()
    assert {m.match_id: m.session for m in list_matches(tmp_path).matches}[bad.match_id] is None


class MatchFileHeld:
    """Another session holding a match's lock, for a ``with`` block."""

    def __init__(self, data_dir: Path, match_id: str) -> None:
        self.match_file = MatchFile.open(data_dir, match_id)

    def __enter__(self) -> MatchFile:
        return self.match_file

    def __exit__(self, *_: object) -> None:
        self.match_file.close()


@pytest.mark.parametrize("how", ["read-only folder", "a file"])
def test_prepare_says_plainly_when_the_data_folder_cannot_be_written(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir = tmp_path / "data"
    if how == "a file":  # refused to root too
        data_dir.write_text("not a folder")
    else:
        data_dir.mkdir()
        data_dir.chmod(0o500)
        if os.geteuid() == 0:  # root writes anyway: the OS's refusal is played instead
            import unotable.store.files as files

            def refused(*args: object, **kwargs: object) -> tuple[int, str]:
                raise PermissionError(13, "Permission denied")

            monkeypatch.setattr(files.tempfile, "mkstemp", refused)
    try:
        problem, notices = prepare(data_dir)
    finally:
        if data_dir.is_dir():
            data_dir.chmod(0o700)
    assert problem is not None and notices == []
    assert str(data_dir) in problem and "\n" not in problem
    assert ("is a file" in problem) if how == "a file" else ("cannot be" in problem)


def test_prepare_removes_stale_temporary_files_and_keeps_fresh_ones(tmp_path: Path) -> None:
    playing, _ = saved_match(tmp_path, 7)  # in use: its writer may be writing right now
    folder = matches_dir(tmp_path)
    old = time.time() - STALE_TEMP_SECONDS - 60
    paths = {
        "old in the data folder": tmp_path / ".settings.json.abc123.tmp",
        "fresh in the data folder": tmp_path / ".settings.json.def456.tmp",
        "old of a match gone": folder / f".{new_match_id()}.json.ghi789.tmp",
        "fresh of a match gone": folder / f".{new_match_id()}.json.jkl012.tmp",
        "fresh of a match in use": folder / f".{playing.match_id}.json.mno345.tmp",
    }
    for name, path in paths.items():
        path.write_text("half a save")
        if name.startswith("old"):
            os.utime(path, (old, old))
    assert prepare(tmp_path) == (None, [])
    left = {name for name, path in paths.items() if path.exists()}
    assert left == {"fresh in the data folder", "fresh of a match gone", "fresh of a match in use"}
    assert playing.path.exists() and not playing.closed
    playing.close()  # nobody writes it now: any temp file of it is a killed writer's
    assert prepare(tmp_path) == (None, [])
    assert not paths["fresh of a match in use"].exists() and playing.path.exists()


def test_a_match_killed_during_its_first_write_leaves_nothing_behind(tmp_path: Path) -> None:
    """Found by the state machine: the temp file of a match never saved stayed (until it
    was old enough for the age rule), as its lock file went."""
    match_file = MatchFile.create(tmp_path)
    record = new_controller(8, ("random",)).to_record()
    temp = write_like_a_killed_writer(match_file.path, dumps(record), cut=True)
    os.close(match_file._fd or -1)  # killed: the kernel lets go of the lock
    match_file._fd = None
    assert prepare(tmp_path) == (None, [])
    assert list(matches_dir(tmp_path).iterdir()) == [], temp


# -- 4. unotable replay reads safely ---------------------------------------------------------


def test_replay_of_a_fifo_is_a_one_line_error_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "match.json"
    os.mkfifo(fifo)
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "unotable", "replay", str(fifo), "--text"],
            capture_output=True,
            text=True,
            timeout=60,  # a reader blocked on the FIFO fails here instead of hanging
        )
    finally:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    elapsed = time.monotonic() - started
    assert done.returncode == 1 and done.stdout == ""  # a runtime error, not a usage error
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("unotable replay: error: ")
    assert "not a regular file (a FIFO)" in done.stderr
    assert elapsed < 30, elapsed  # Python's start-up; the read itself returns at once


def test_replay_of_a_huge_file_refuses_it_unread(tmp_path: Path) -> None:
    from unotable import cli

    huge = tmp_path / "match.json"
    huge.touch()
    os.truncate(huge, HUGE)
    status, elapsed = bounded(lambda: cli.main(["replay", str(huge), "--text"]), huge)
    assert status == 1 and elapsed < BOUND, (status, elapsed)


# -- 5. the list's size limit ----------------------------------------------------------------


def test_the_list_shows_the_newest_matches_up_to_its_limit_and_counts_all(tmp_path: Path) -> None:
    record = new_controller(9, ("random",)).to_record()
    text = dumps(record, extra={"summary": {"hand": 1, "totals": [0, 0], "actions": 0}})
    matches_dir(tmp_path).mkdir(parents=True)
    ids = []
    for age in range(MAX_LISTED + 3):  # ids[0] is the newest
        match_id = new_match_id()
        path = match_path(tmp_path, match_id)
        path.write_text(text)
        moment = 1_700_000_000 - age * 60
        os.utime(path, (moment, moment))
        ids.append(match_id)
    saved = list_matches(tmp_path)
    assert saved.total == MAX_LISTED + 3 and saved.notices == []
    assert [m.match_id for m in saved.matches] == ids[:MAX_LISTED]
    assert all(match_path(tmp_path, m).exists() for m in ids)  # the others stay saved
    trash_match(tmp_path, ids[0])  # deleting one shows the next one
    saved = list_matches(tmp_path)
    assert saved.total == MAX_LISTED + 2
    assert [m.match_id for m in saved.matches] == ids[1 : MAX_LISTED + 1]
