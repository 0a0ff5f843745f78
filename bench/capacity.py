"""Capacity of a served table: real SSH players on ptys, seated 4 to a table.

Starts ``unotable serve ssh`` on 127.0.0.1 (a free port, a temporary data dir, open
logins) and connects N real SSH clients (asyncssh) with ptys, each reading its screen with
a terminal emulator (pyte). Players sit 4 to a shared table: the first of each table makes
it from the Shared tables list a served player starts at (N, Enter, as a player would; on a
server from before 2026-11-27, whose players started in the lobby, J first), the others
find it in that list and sit down. Every player acts only on its own turn, after 1 to 2 s
of thinking (seeded): the number under a playable card, D when none, the first choice of
a dialog, U when the game asks for an UNO call, Enter on the scoreboard between hands.

Measured, for the given number of seconds once everyone is seated:

- login: connecting until the player's first screen (the Shared tables list; the lobby on
  servers from before 2026-11-27) is on it;
- own key -> own screen: a key sent until the player's screen changes (its effect);
- -> others' screens: the same key until each other player at that table sees a change;
- memory per session: RSS and PSS (``/proc/<pid>/smaps_rollup``) of the whole server
  process tree, divided by the number of sessions; sampled once everyone is seated (logged
  in and sat down, just before play starts), every 30 s of play and at the end: the growth
  per session from the first sample to the last, the largest growth at any sample, and each
  session's own process's PSS growth (p50 and max, the playing and the idle ones apart);
- an idle seated player (``--idle N``, default 2): N more SSH players, sat at a table of
  their own (4 to a table, like the others; ``--idle 1`` gets a table of two seats whose
  second stays open, so it is never dealt) before the players' tables are made. Idle means
  nobody at that table ever presses a key: the hand is dealt (one of them has the turn, the
  others wait for them) and then nothing moves, since the server runs with ``--turn-time 0``
  (no turn timer: no countdown on screen, no computer playing a turn for them), every seat
  is a connected human (no rejoin grace runs, the table is never "deserted" and closed) and
  no hand ends (so no scoreboard and no ``hand_over_wait``); ``--idle-timeout 0`` keeps them
  connected. Measured from when every idle screen has shown nothing new for 15 s (the notes
  of sitting down have gone) to the end of play: the CPU time (``/proc/<pid>/stat`` utime +
  stime) of each idle player's own session process (the table's process working in
  ``users/<name>``, and any children), in % of one core, split by thread (the main thread,
  the others; ``schedstat``: run time and wake-ups), the bytes its SSH connection received
  (on the wire, encrypted, keepalives too; and the terminal output within it), and how often
  its screen changed. What the server process spends on them (SSH, the table service) is
  not told apart from the rest;
- server CPU: the whole tree's CPU time over the run, in % of one core;
- lost updates (another player's screen never showed a key's effect within 5 s, though
  the key was taken) and errors (a session that ended, an error on screen, a failed login
  or join, a key its own screen never answered);
- the load average at the start and at the end (the figures mean little on a busy machine).

``--local`` measures the app without a server: ``python -m unotable`` on a local pty, an
8-seat UNO match (one human, seven computers), key -> the next screen update that shows the
key's effect.

Run (from the checkout):

    .venv/bin/python bench/capacity.py --players 4 --seconds 60
    .venv/bin/python bench/capacity.py --players 32 --seconds 60 --json
    .venv/bin/python bench/capacity.py --players 16 --seconds 600   # memory growth, idle cost
    .venv/bin/python bench/capacity.py --local --seconds 60

The clients run in this one process and use CPU too (reported): on a small machine they
compete with the server, so give the big sizes an otherwise idle machine. The exit status
is 1 when there were errors. ``CAPACITY_DEBUG=1`` prints each key, each update slower than
0.5 s with the screen that showed it, and every screen when nobody has pressed a key for
6 s.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
SEATS_PER_TABLE = 4
UPDATE_TIMEOUT = 5.0  # a screen that shows nothing of a key this long: lost
LAG_TICK = 0.02  # seconds: how often the bench checks how late its own loop wakes
SETUP_TIMEOUT = 60.0  # to log in, create or join a table and see the first deal
DEBUG = bool(os.environ.get("CAPACITY_DEBUG"))  # each key on stderr, and stalls
LAST_KEY = [0.0]  # when the last key was sent, by anyone
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MEMORY_EVERY = 30.0  # seconds between two samples of the server tree's memory during play
IDLE_NAME = "idle"  # the idle players' names: idle0, idle1, ...
# the idle players' window opens once their screens have shown nothing new this long: the
# notes of sitting down (a few seconds each) have gone, and what is left comes back by itself
IDLE_QUIET = 15.0

# What the screens say (the app's own words; a change there shows up as errors, not hangs)
LAUNCHER_WAIT = 30.0  # seconds: a session launcher's imports and warm-up on a busy machine
FIRST_SCREEN = "Shared tables"  # the list's title (or, on older servers, the lobby's key to it)
LIST_TITLE = "Shared tables on this server"
SEAT_PLAN = "Who sits where?"
WAITING = "Waiting for players to sit down"
AT_TABLE = "Your hand"
DIALOG = "Enter or a number to choose"
UNO_CALL = "press U to call UNO"
ERROR_WORDS = ("unexpected error", "Not possible:", "did not answer", "not available")

# Colours (SGR) set only a cell's attributes: dropped unread, so pyte parses the rest faster
SGR = re.compile(rb"\x1b\[[0-9;:]*m")
CUT = re.compile(rb"\x1b(\[[0-9;:]*)?$")  # an escape sequence cut off at a chunk's end
NEXT_HAND = re.compile(r"\bNext (hand|game)\b")  # the scoreboard's button between hands
LISTED = re.compile(r"  \[(waiting|hand|over)")


class TextScreen:
    """A terminal emulator that keeps the text a screen shows, without colours."""

    def __init__(self, cols: int, rows: int) -> None:
        import pyte

        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.held = b""

    def feed(self, data: bytes) -> None:
        data = self.held + data
        cut = CUT.search(data)
        self.held = data[cut.start() :] if cut else b""
        self.stream.feed(SGR.sub(b"", data[: cut.start()] if cut else data))

    def lines(self) -> list[str]:
        return list(self.screen.display)


# -- what a player does, read from its screen -----------------------------------------------


@dataclass(frozen=True)
class Move:
    key: bytes
    kind: str  # play, draw, dialog, uno, continue
    measured: bool = True  # its own echo is timed
    seen_by_others: bool = True  # the other players' screens change with it


CURSOR = Move(b"\x1b[C", "cursor", seen_by_others=False)  # Right: the hand's cursor moves


def status_line(lines: list[str]) -> str:
    """The table's status line when it asks this player to play, or ''."""
    for line in reversed(lines):
        text = line.strip()
        if text.startswith(("Your turn", "Your lead")) or "press D to" in text:
            return text  # "Nothing in your hand matches: press D to draw", "... to pass"
    return ""


HAND_SIZE = re.compile(r"hand \((\d+) cards?\)")


def hand_size(lines: list[str]) -> int | None:
    """The number of cards the hand's title says one holds, if it is shown."""
    for line in lines:
        if found := HAND_SIZE.search(line):
            return int(found.group(1))
    return None


def playable_key(lines: list[str]) -> tuple[str, str] | None:
    """(the number shown under the first playable card of one's hand, that card's label).
    The hand's box holds rows of cards, each with a row of marks under it: a card's number
    when it may be played, a dot when not."""
    top = next((i for i, line in enumerate(lines) if "Your hand" in line), None)
    if top is None:
        return None
    bottom = next(
        (i for i in range(top + 1, len(lines)) if lines[i].lstrip().startswith("╰")), len(lines)
    )
    rows = lines[top + 1 : bottom]
    for cards, marks in zip(rows[0::2], rows[1::2], strict=False):
        for col, char in enumerate(marks):
            if char.isdigit() or char in "!@#$%^&*()":
                words = re.finditer(r"\S+", cards)
                label = next((m.group() for m in words if m.start() - 1 <= col <= m.end()), "")
                return char, label.strip("[]")
    return None


def next_move(lines: list[str], called_uno: bool) -> Move | None:
    text = "\n".join(lines)
    if DIALOG in text:
        return Move(b"1", "dialog")
    if " is over" in text and (NEXT_HAND.search(text) or (lines and "Continue" in lines[-1])):
        return Move(b"\r", "continue", measured=False, seen_by_others=False)
    if not status_line(lines):
        return None
    if UNO_CALL in text and not called_uno:
        return Move(b"u", "uno", seen_by_others=False)
    found = playable_key(lines)
    if found is None:
        return Move(b"d", "draw")
    key, label = found
    # a wild asks its colour here first: the others see the card when it is chosen
    return Move(key.encode(), "play", seen_by_others=not label.startswith("Wild"))


# -- figures --------------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[index]


def spread(values: list[float], *qs: float) -> dict[str, float | None]:
    out: dict[str, float | None] = {f"p{q:g}": percentile(values, q) for q in qs}
    out["max"] = max(values) if values else None
    out["n"] = len(values)
    return out


@dataclass
class Stats:
    login: list[float] = field(default_factory=list)
    own: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    own_by_kind: dict[str, list[float]] = field(default_factory=dict)
    unanswered: int = 0  # own keys whose screen never changed
    lost: int = 0  # another player's screen never showed a key that was taken
    errors: list[str] = field(default_factory=list)

    def error(self, text: str) -> None:
        self.errors.append(text)


@dataclass
class Expect:
    """A change a screen should show: after a key, its own, or another player's."""

    t0: float
    press: Press
    own: bool
    done: bool = False


@dataclass
class Press:
    player: str
    move: Move
    t0: float
    answered: bool = False  # its own screen changed


# -- one terminal: an SSH client's pty or a local one ----------------------------------------


class Terminal:
    """One player's screen, fed by a reader task; changes resolve what it was expecting."""

    def __init__(self, name: str, stats: Stats, size: tuple[int, int]) -> None:
        self.name = name
        self.stats = stats
        self.screen = TextScreen(*size)
        self.text = ""
        self.lines: list[str] = []
        self.changes = 0
        self.chunks = 0  # of output, changing the text or not
        self.received = 0  # bytes of terminal output
        self.last_output = 0.0  # when the last output came (perf_counter)
        self.output = asyncio.Event()
        self.changed = asyncio.Event()
        self.pending: list[Expect] = []
        self.ended = False
        self.write: Callable[[bytes], None] = lambda data: None
        self.reported: set[str] = set()
        self.quiet = False  # errors on screen are expected (and handled) now

    def take(self, chunk: bytes, now: float) -> None:
        self.chunks += 1
        self.received += len(chunk)
        self.last_output = now
        self.output.set()
        self.screen.feed(chunk)
        lines = self.screen.lines()
        text = "\n".join(lines)
        if text == self.text:
            return
        self.text, self.lines = text, lines
        self.changes += 1
        for expect in self.pending:
            if expect.t0 <= now and not expect.done:
                expect.done = True
                latency = now - expect.t0
                if expect.own:
                    expect.press.answered = True
                    self.stats.own.append(latency)
                    self.stats.own_by_kind.setdefault(expect.press.move.kind, []).append(latency)
                else:
                    self.stats.others.append(latency)
                if DEBUG and (latency > 0.5 or expect.own):
                    who = "own" if expect.own else f"{self.name} sees"
                    print(
                        f"{now:.2f} {expect.press.player} {expect.press.move.kind}: {who} "
                        f"after {latency * 1000:.0f} ms",
                        file=sys.stderr,
                    )
                    if latency > 0.5:
                        print(self.text, file=sys.stderr)
        self.pending = [e for e in self.pending if not e.done]
        for words in () if self.quiet else ERROR_WORDS:
            if words in text and words not in self.reported:
                self.reported.add(words)
                line = next(x.strip() for x in lines if words in x)
                self.stats.error(f"{self.name}: {line[:100]}")
        self.changed.set()

    def end(self, why: str) -> None:
        if not self.ended:
            self.ended = True
            self.stats.error(f"{self.name}: session ended ({why})")
        self.changed.set()

    async def changed_within(self, timeout: float) -> bool:
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def output_after(self, chunks: int, timeout: float = UPDATE_TIMEOUT) -> bool:
        """Wait for output past the first ``chunks`` (a redraw, if only of colours)."""
        deadline = time.perf_counter() + timeout
        while self.chunks <= chunks and not self.ended:
            self.output.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.output.wait(), left)
        return self.chunks > chunks

    async def until(self, words: str, timeout: float = SETUP_TIMEOUT) -> bool:
        deadline = time.perf_counter() + timeout
        while words not in self.text:
            left = deadline - time.perf_counter()
            if left <= 0 or self.ended:
                return False
            await self.changed_within(min(left, 0.5))
        return True

    def sweep(self, now: float) -> None:
        """Expectations past UPDATE_TIMEOUT: a key not answered, or an update lost."""
        keep = []
        for expect in self.pending:
            if now - expect.t0 < UPDATE_TIMEOUT:
                keep.append(expect)
            elif expect.own:
                self.stats.unanswered += 1
            elif expect.press.answered:
                self.stats.lost += 1
        self.pending = keep


async def play_turns(
    me: Terminal,
    mates: list[Terminal],
    rng: random.Random,
    think: tuple[float, float],
    stop: Any,
    cursor: bool = False,
) -> int:
    """Act on one's own turn until ``stop`` is set; returns the keys sent. ``cursor``: first
    move the hand's cursor one card on (a key the app answers alone)."""
    sent = 0
    called_uno = moved = False
    while not stop.is_set() and not me.ended:
        move = next_move(me.lines, called_uno)
        if move is None:
            called_uno = moved = False
            await me.changed_within(0.5)
            continue
        if cursor and not moved and move.kind == "play":
            moved = True
            # the cursor shows only on a playable card, and one card gives it nowhere to go
            if hand_size(me.lines) != 1:
                move = CURSOR
        await asyncio.sleep(rng.uniform(*think))
        still = next_move(me.lines, called_uno)
        if move is CURSOR:
            still = move if still is not None and still.kind == "play" else None
        if stop.is_set() or me.ended or still != move:
            continue  # the screen changed while thinking: look again
        t0 = time.perf_counter()
        me.write(move.key)
        sent += 1
        LAST_KEY[0] = t0
        if DEBUG:
            print(f"{t0:.2f} {me.name} {move.kind} {move.key!r}", file=sys.stderr)
        press = Press(me.name, move, t0)
        own = Expect(t0, press, own=True)
        if move.measured:
            me.pending.append(own)
        if move.seen_by_others:
            for mate in mates:
                mate.pending.append(Expect(t0, press, own=False))
        if move.kind == "uno":
            called_uno = True
        # the next decision comes after this key's effect (or, unanswered, after a while)
        deadline = t0 + UPDATE_TIMEOUT
        while not stop.is_set() and not me.ended and time.perf_counter() < deadline:
            if move.measured and own.done:
                break
            if not move.measured and next_move(me.lines, called_uno) != move:
                break
            await me.changed_within(0.25)
    return sent


# -- /proc: the server's process tree ------------------------------------------------------


def process_tree(root: int) -> list[int]:
    pids, todo = [], [root]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as file:
                    todo.extend(int(x) for x in file.read().split())
    return pids


def memory_kib(pids: list[int]) -> tuple[int, int]:
    """(RSS, PSS) summed over ``pids``, in KiB."""
    rss = pss = 0
    for pid in pids:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/smaps_rollup") as file:
            for line in file:
                if line.startswith("Rss:"):
                    rss += int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1])
    return rss, pss


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """Each process's user + system CPU time so far."""
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{pid}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            out[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return out


def thread_runs(pids: list[int]) -> dict[int, tuple[bool, int, int]]:
    """Each thread of ``pids``: (it is a process's main thread, nanoseconds it has run, times
    it was put on a CPU) from ``/proc/<pid>/task/<tid>/schedstat``, finer than ``stat``'s
    clock ticks, and telling a thread that wakes up to poll from one that wakes to work."""
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{pid}/task"):
                with contextlib.suppress(OSError, ValueError, IndexError):
                    with open(f"/proc/{pid}/task/{task}/schedstat") as file:
                        ran, _, slices = file.read().split()[:3]
                    out[int(task)] = (int(task) == pid, int(ran), int(slices))
    return out


def cpu_used(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds between two readings (a process new since ``before`` counts whole)."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def player_of(cwd: str, users_dir: str) -> str | None:
    """The SSH player whose session a process with working directory ``cwd`` belongs to:
    a table's process starts in its player's folder, ``users/<name>`` under --open."""
    folder, _, name = cwd.rstrip("/").rpartition("/")
    return name if folder == users_dir.rstrip("/") and name else None


def session_processes(tree: list[int], users_dir: Path) -> dict[str, list[int]]:
    """Each player's own processes in the server's tree, by the player's name."""
    where = str(users_dir.resolve())
    out: dict[str, list[int]] = {}
    for pid in tree:
        with contextlib.suppress(OSError):
            name = player_of(os.readlink(f"/proc/{pid}/cwd"), where)
            if name is not None:
                out.setdefault(name, []).append(pid)
    return out


@dataclass
class MemorySample:
    """The server tree's memory at one moment of play, and each session's own PSS."""

    at: float  # seconds since play started
    rss_kib: int
    pss_kib: int
    session_pss_kib: dict[str, int]


def sample_memory(server_pid: int, users_dir: Path, at: float) -> MemorySample:
    tree = process_tree(server_pid)
    rss, pss = memory_kib(tree)
    own = {name: memory_kib(pids)[1] for name, pids in session_processes(tree, users_dir).items()}
    return MemorySample(at, rss, pss, own)


def memory_growth(
    samples: list[MemorySample], sessions: int, idle: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Per session, in MiB ([RSS, PSS]): the first sample (everyone seated), the last (the
    end of play), the growth between them and the largest growth at any sample; and each
    session's own process's PSS growth, first to last sample (p50 and max), of the playing
    sessions and, apart, of the ``idle`` players' ones."""
    first, last = samples[0], samples[-1]

    def per(kib: float) -> float:
        return kib / 1024 / sessions

    def own(idle_ones: bool) -> dict[str, float | None]:
        grown = [
            (kib - first.session_pss_kib[name]) / 1024
            for name, kib in last.session_pss_kib.items()
            if name in first.session_pss_kib and (name in idle) == idle_ones
        ]
        return spread(grown, 50)

    return {
        "start": [per(first.rss_kib), per(first.pss_kib)],
        "end": [per(last.rss_kib), per(last.pss_kib)],
        "growth": [per(last.rss_kib - first.rss_kib), per(last.pss_kib - first.pss_kib)],
        "max_growth": [
            max(per(x.rss_kib - first.rss_kib) for x in samples),
            max(per(x.pss_kib - first.pss_kib) for x in samples),
        ],
        "session_pss_growth": own(False),
        "idle_session_pss_growth": own(True),
        "samples": [
            {"seconds": round(x.at, 1), "rss_kib": x.rss_kib, "pss_kib": x.pss_kib} for x in samples
        ],
    }


# -- served: serve ssh and N SSH players -----------------------------------------------------


def table_sizes(players: int) -> list[int]:
    """Players per table: 4 to a table, the rest spread so that no table has fewer than 2."""
    tables = max(1, math.ceil(players / SEATS_PER_TABLE))
    base, extra = divmod(players, tables)
    return [base + (i < extra) for i in range(tables)]


def server_command(data_dir: Path, players: int, tables: int) -> list[str]:
    return [
        PYTHON,
        "-m",
        "unotable",
        "serve",
        "ssh",
        "--open",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--data-dir",
        str(data_dir),
        "--max-sessions",
        str(players),
        "--idle-timeout",
        "0",
        "--max-tables",
        str(tables),
        "--max-tables-per-player",
        str(tables),  # every login comes from 127.0.0.1: one "player" to the server
        "--max-unauthenticated",
        str(players + 10),
        "--max-unauthenticated-per-address",
        str(players + 10),
        "--sessionless-timeout",
        "0",
        "--turn-time",
        "0",
    ]


async def start_server(command: list[str], log_path: Path) -> tuple[subprocess.Popen[bytes], int]:
    log = log_path.open("wb")
    server = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=log, stderr=log, cwd=ROOT, start_new_session=True
    )
    log.close()
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        found = re.search(rb"port (\d+) \(", log_path.read_bytes())
        if found:
            await launcher_ready(log_path, server)
            return server, int(found.group(1))
        if server.poll() is not None:
            break
        await asyncio.sleep(0.05)
    stop_process(server)
    tail = log_path.read_bytes()[-600:].decode("utf-8", "replace")
    raise RuntimeError(f"serve ssh did not start: {tail}")


async def launcher_ready(log_path: Path, server: subprocess.Popen[bytes]) -> None:
    """Players log in once the server's session launcher is ready (it warms up after the
    server listens): at a club night the server started before the players came, and its
    start-up is not a login's cost. A server without one, or whose launcher failed, after
    LAUNCHER_WAIT."""
    deadline = time.perf_counter() + LAUNCHER_WAIT
    while time.perf_counter() < deadline and server.poll() is None:
        if re.search(rb"session launcher (pid=\d+ ready|could not start)", log_path.read_bytes()):
            return
        await asyncio.sleep(0.05)


def stop_process(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGINT (the server closes its sessions), then SIGKILL to what is left of its tree."""
    if process.poll() is None:
        tree = process_tree(process.pid)
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            for pid in tree:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            process.wait()


class SshPlayer(Terminal):
    def __init__(self, name: str, stats: Stats, size: tuple[int, int]) -> None:
        super().__init__(name, stats, size)
        self.conn: Any = None
        self.process: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.wire = 0  # bytes its SSH connection received, encrypted, from the login on
        self.arrived = 0.0  # when the connection last received bytes (perf_counter)

    async def login(self, port: int, size: tuple[int, int]) -> bool:
        import asyncssh

        start = time.perf_counter()
        try:
            self.conn = await asyncio.wait_for(
                asyncssh.connect(
                    "127.0.0.1",
                    port,
                    username=self.name,
                    known_hosts=None,
                    agent_path=None,
                    client_keys=None,
                    config=[],
                ),
                SETUP_TIMEOUT,
            )
            self.process = await self.conn.create_process(
                term_type="xterm-256color", term_size=size, encoding=None
            )
        except (OSError, TimeoutError, asyncssh.Error) as error:
            self.stats.error(f"{self.name}: login failed: {error or type(error).__name__}")
            return False
        # the connection is its socket's protocol: count what the socket hands it
        received = self.conn.data_received

        def counted(data: bytes, datatype: Any = None) -> None:
            self.wire += len(data)
            self.arrived = time.perf_counter()
            received(data, datatype)

        self.conn.data_received = counted
        self.write = self.process.stdin.write
        self.reader = asyncio.ensure_future(self._read())
        if not await self.until(FIRST_SCREEN):
            self.stats.error(f"{self.name}: no first screen after {SETUP_TIMEOUT:g} s")
            return False
        self.stats.login.append(self.last_output - start)  # when its bytes came
        return True

    async def _read(self) -> None:
        try:
            while chunk := await self.process.stdout.read(65536):
                # timed when its bytes reached the socket, not when this task got its turn:
                # 33 terminals parsed in one process queue behind each other, where a real
                # player's own terminal would not
                self.take(chunk, self.arrived or time.perf_counter())
        except Exception as error:
            self.end(f"{type(error).__name__}: {error}")
            return
        self.end("the server closed it")

    def close(self) -> None:
        self.ended = True  # from here on, an end is ours
        if self.conn is not None:
            self.conn.close()


async def seat_table(
    players: list[SshPlayer],
    slot: int,
    port: int,
    size: tuple[int, int],
    gap: float,
    after: asyncio.Event | None,
    created: asyncio.Event,
    dealt: bool = True,
) -> bool:
    """Log the table's players in; the first creates the table (after the table before it,
    so that the list shows tables in the players' order), the others sit down. ``dealt``:
    every seat is taken, so the table deals (else it waits with its creator alone)."""
    creator, guests = players[0], players[1:]

    async def login(i: int, player: SshPlayer) -> bool:
        await asyncio.sleep((slot + i) * gap)
        return await player.login(port, size)

    logins = asyncio.gather(*(login(i, p) for i, p in enumerate(players)))
    try:
        if after is not None:
            await after.wait()
        if not await creator.until(FIRST_SCREEN):
            return False
        if LIST_TITLE not in creator.text:  # the lobby first (an older server)
            creator.write(b"j")
        steps = ((LIST_TITLE, b"n"), (SEAT_PLAN, b"\r"), (WAITING, None))
        for words, key in steps:
            if not await creator.until(words):
                creator.stats.error(f"{creator.name}: no {words!r} while creating a table")
                return False
            if key is not None:
                creator.write(key)
    finally:
        created.set()  # the next table's turn, made or not
    logged = await logins
    joined = await asyncio.gather(
        *(join(g, creator.name) for g, ok in zip(guests, logged[1:], strict=True) if ok)
    )
    return all(logged) and all(joined) and (not dealt or await creator.until(AT_TABLE))


async def join(guest: SshPlayer, creator: str, attempts: int = 3) -> bool:
    """From the Shared tables list (J first from the lobby), sit down at ``creator``'s
    table: Down to it, Enter. A refusal (another player was quicker, the list moved) is
    tried again from the lobby."""
    mine = re.compile(rf"\[waiting.*\b{creator}\b")
    for attempt in range(attempts):
        if attempt:
            guest.write(b"\x1b")  # Esc: back to the lobby; its list starts at the top
            while LIST_TITLE in guest.text and not guest.ended:
                if not await guest.changed_within(UPDATE_TIMEOUT):
                    break
            guest.quiet = False
        if attempt or LIST_TITLE not in guest.text:  # from the lobby (or an older server's)
            guest.write(b"j")
        deadline = time.perf_counter() + SETUP_TIMEOUT
        index = None
        while index is None:
            listed = [line for line in guest.lines if LISTED.search(line)]
            index = next((i for i, line in enumerate(listed) if mine.search(line)), None)
            if index is None:
                if time.perf_counter() > deadline or guest.ended:
                    guest.stats.error(f"{guest.name}: {creator}'s table never listed")
                    return False
                await guest.changed_within(0.5)
        for _ in range(index):  # Down to it: each redraws the highlight (colours only)
            before = guest.chunks
            guest.write(b"\x1b[B")
            await guest.output_after(before)
        guest.quiet = True  # a refusal here is tried again, not an error
        guest.write(b"\r")
        deadline = time.perf_counter() + SETUP_TIMEOUT
        while AT_TABLE not in guest.text and "Not possible" not in guest.text:
            if time.perf_counter() > deadline or guest.ended:
                break
            await guest.changed_within(0.5)
        if AT_TABLE in guest.text:
            guest.quiet = False
            if creator not in guest.text:
                guest.stats.error(f"{guest.name}: sat at another table than {creator}'s")
            return True
        if DEBUG:
            print(f"{guest.name} chose {index} of {listed}:\n{guest.text}", file=sys.stderr)
    guest.quiet = False
    guest.stats.error(f"{guest.name}: could not sit down at {creator}'s table")
    return False


def remember_setup(data_dir: Path, name: str, seats: int, game: str) -> None:
    """The lobby setup this player's app opens with: their own seat and seats for friends."""
    folder = data_dir / "users" / name
    folder.mkdir(parents=True, mode=0o700)
    setup = {
        "game": game,
        "seats": [[f"Seat {i + 1}", "human"] for i in range(seats)],
        "options": {},
    }
    (folder / "settings.json").write_text(json.dumps({"last_setup": setup}))


@dataclass
class IdleReading:
    """What an idle player's session has cost so far."""

    cpu: dict[int, float]  # its own processes' CPU seconds
    wire: int  # bytes its SSH connection received
    received: int  # of which terminal output
    changes: int  # its screen's text changed
    threads: dict[int, tuple[bool, int, int]] = field(default_factory=dict)  # thread_runs()


def read_idle(player: SshPlayer, pids: list[int]) -> IdleReading:
    return IdleReading(
        cpu_seconds(pids), player.wire, player.received, player.changes, thread_runs(pids)
    )


def idle_figures(
    name: str, before: IdleReading, after: IdleReading, seconds: float, on_turn: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player": name,
        "on_turn": on_turn,  # its own turn (the others wait for it), or another's
        "processes": len(after.cpu),
        "cpu_percent": 100 * cpu_used(before.cpu, after.cpu) / seconds,
        "wire_bytes_per_second": (after.wire - before.wire) / seconds,
        "terminal_bytes_per_second": (after.received - before.received) / seconds,
        "screen_changes": after.changes - before.changes,
    }
    # where the time went: the app's own (main) thread, or the others (Textual's input
    # thread, worker threads), and how often each was woken
    for main, key in ((True, "main_thread"), (False, "other_threads")):
        ran = slices = 0
        for tid, (is_main, ns, count) in after.threads.items():
            if is_main == main:
                _, ns0, count0 = before.threads.get(tid, (main, 0, 0))
                ran, slices = ran + ns - ns0, slices + count - count0
        out[f"{key}_cpu_percent"] = 100 * ran / 1e9 / seconds
        out[f"{key}_wakeups_per_second"] = slices / seconds
    return out


def player_groups(prefix: str, players: int) -> list[list[str]]:
    """The players' names, by table: ``prefix`` and a number, 4 to a table."""
    width = len(str(players - 1))
    names = [f"{prefix}{i:0{width}d}" for i in range(players)]
    groups, at = [], 0
    for size in table_sizes(players) if players else []:
        groups.append(names[at : at + size])
        at += size
    return groups


async def run_served(args: argparse.Namespace) -> dict[str, Any]:
    stats = Stats()
    groups = player_groups("p", args.players)
    idle_groups = player_groups(IDLE_NAME, args.idle)
    everyone = args.players + args.idle
    result: dict[str, Any] = {
        "mode": "served",
        "players": args.players,
        "tables": len(groups),
        "idle_players": args.idle,
        "idle_tables": len(idle_groups),
        "seconds": args.seconds,
        "game": args.game,
        "size": list(args.size),
        "load_start": os.getloadavg(),
    }
    data_dir = Path(tempfile.mkdtemp(prefix="unotable-capacity-"))
    os.chmod(data_dir, 0o700)
    users_dir = data_dir / "users"
    server = None
    players: list[SshPlayer] = []
    try:
        for group in groups:
            remember_setup(data_dir, group[0], len(group), args.game)
        for group in idle_groups:  # one idle player alone: a second seat nobody takes
            remember_setup(data_dir, group[0], max(2, len(group)), args.game)
        command = server_command(data_dir, everyone, len(groups) + len(idle_groups))
        server, port = await start_server(command, data_dir / "server.log")
        result["server_pid"] = server.pid
        # the idle tables first: they have settled by the time the others are seated
        all_groups = idle_groups + groups
        tables = [[SshPlayer(name, stats, args.size) for name in group] for group in all_groups]
        idle_tables, active = tables[: len(idle_groups)], tables[len(idle_groups) :]
        players = [p for table in tables for p in table]
        idlers = [p for table in idle_tables for p in table]
        sizes = [len(group) for group in all_groups]
        slots = [sum(sizes[:i]) for i in range(len(sizes))]
        created = [asyncio.Event() for _ in tables]
        setup_start = time.perf_counter()
        seated = await asyncio.gather(
            *(
                seat_table(
                    table, slot, port, args.size, args.login_gap, after, done, len(table) > 1
                )
                for table, slot, after, done in zip(
                    tables, slots, [None, *created[:-1]], created, strict=True
                )
            ),
            return_exceptions=True,
        )
        for ok in seated:
            if isinstance(ok, BaseException):
                stats.error(f"setting up a table: {type(ok).__name__}: {ok}")
        result["setup_seconds"] = time.perf_counter() - setup_start
        playing = [
            t for t, ok in zip(active, seated[len(idle_tables) :], strict=True) if ok is True
        ]  # tables where everyone sat down
        result["tables_playing"] = len(playing)
        stats.login.sort()
        result["login"] = spread(stats.login, 50, 95)

        tree = process_tree(server.pid)
        result["sessions"] = sum(1 for p in players if p.process is not None and not p.ended)
        result["memory_start_kib"] = memory_kib(tree)
        own_processes = session_processes(tree, users_dir)
        for p in idlers:
            if not own_processes.get(p.name):
                stats.error(f"{p.name}: no session process found in the server's tree")
        cpu_before, mine_before, started = cpu_seconds(tree), own_cpu(), time.perf_counter()
        # from play's start, until the idle screens have settled (then from there)
        idle_from: dict[str, Any] = {
            "at": started,
            "readings": {p.name: read_idle(p, own_processes.get(p.name, [])) for p in idlers},
            "settled": None,
        }
        samples = [sample_memory(server.pid, users_dir, 0.0)]
        stop = asyncio.Event()
        rng = random.Random(args.seed)
        tasks = [
            asyncio.ensure_future(
                play_turns(
                    p,
                    [m for m in table if m is not p],
                    random.Random(rng.random()),
                    args.think,
                    stop,
                )
            )
            for table in playing
            for p in table
        ]

        async def sweeper() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.25)
                now = time.perf_counter()
                for p in players:
                    p.sweep(now)
                if DEBUG and LAST_KEY[0] and now - LAST_KEY[0] > 6:
                    LAST_KEY[0] = now
                    for p in players:
                        print(f"stalled: {p.name}\n{p.text}", file=sys.stderr)

        async def sampler() -> None:
            while True:
                await asyncio.sleep(MEMORY_EVERY)
                at = time.perf_counter() - started
                samples.append(await asyncio.to_thread(sample_memory, server.pid, users_dir, at))

        async def settle() -> None:
            while (
                left := max(p.last_output for p in idlers) + IDLE_QUIET - time.perf_counter()
            ) > 0:
                await asyncio.sleep(left)
            idle_from["at"] = now = time.perf_counter()
            idle_from["readings"] = {
                p.name: read_idle(p, own_processes.get(p.name, [])) for p in idlers
            }
            idle_from["settled"] = now - started

        lags: list[float] = []

        async def lag_probe() -> None:
            """How late the clients' own event loop wakes: a late wake-up adds to every
            latency the bench times, though no server was slow."""
            while not stop.is_set():
                asked = time.perf_counter()
                await asyncio.sleep(LAG_TICK)
                lags.append(time.perf_counter() - asked - LAG_TICK)

        sweeping = asyncio.ensure_future(sweeper())
        sampling = asyncio.ensure_future(sampler())
        probing = asyncio.ensure_future(lag_probe())
        settling = asyncio.ensure_future(settle()) if idlers else None
        await asyncio.sleep(args.seconds)
        stop.set()
        sampling.cancel()
        probing.cancel()
        result["bench_loop_lag"] = spread(lags, 50, 95)
        if settling is not None:
            settling.cancel()
        keys = await asyncio.gather(*tasks, return_exceptions=True)
        elapsed = time.perf_counter() - started
        tree = process_tree(server.pid)
        cpu_after, mine_after = cpu_seconds(tree), own_cpu()
        own_processes = session_processes(tree, users_dir)
        idle_seconds = time.perf_counter() - idle_from["at"]
        result["idle_window"] = {"seconds": idle_seconds, "settled_after": idle_from["settled"]}
        result["idle"] = [
            idle_figures(
                p.name,
                idle_from["readings"][p.name],
                read_idle(p, own_processes.get(p.name, [])),
                idle_seconds,
                bool(status_line(p.lines)),
            )
            for p in idlers
        ]
        samples.append(sample_memory(server.pid, users_dir, elapsed))
        sessions = max(1, result["sessions"])
        result["memory"] = memory_growth(samples, sessions, tuple(p.name for p in idlers))
        rss, pss = samples[-1].rss_kib, samples[-1].pss_kib
        result["processes"] = len(tree)
        result["memory_kib"] = [rss, pss]
        result["memory_per_session_mib"] = [rss / 1024 / sessions, pss / 1024 / sessions]
        result["server_cpu_percent"] = 100 * cpu_used(cpu_before, cpu_after) / elapsed
        result["bench_cpu_percent"] = 100 * (mine_after - mine_before) / elapsed
        result["keys"] = sum(k for k in keys if isinstance(k, int))
        for k in keys:
            if isinstance(k, BaseException):
                stats.error(f"a player: {type(k).__name__}: {k}")
        # what is still on its way gets its chance; then what never came is lost
        drain = time.perf_counter() + UPDATE_TIMEOUT
        while any(p.pending for p in players) and time.perf_counter() < drain:
            await asyncio.sleep(0.1)
        for p in players:
            p.sweep(time.perf_counter() + UPDATE_TIMEOUT)
        sweeping.cancel()
    except Exception as error:
        stats.error(f"{type(error).__name__}: {error}")
    finally:
        for p in players:
            p.close()
        if server is not None:
            await asyncio.to_thread(stop_process, server)
            log = (data_dir / "server.log").read_text("utf-8", "replace")
            problems = [x for x in log.splitlines() if "Traceback" in x or "error" in x.lower()]
            for line in problems[:5]:
                stats.error(f"server log: {line[:120]}")
            if len(problems) > 5:
                stats.error(f"server log: {len(problems) - 5} more error lines")
        if args.keep:
            result["data_dir"] = str(data_dir)
        else:
            shutil.rmtree(data_dir, ignore_errors=True)
    result.update(figures(stats))
    result["load_end"] = os.getloadavg()
    return result


def figures(stats: Stats) -> dict[str, Any]:
    moves = [t for kind, ts in stats.own_by_kind.items() if kind != "cursor" for t in ts]
    return {
        "moves": spread(moves, 50, 95),
        "login": spread(stats.login, 50, 95),
        "own": spread(stats.own, 50, 95),
        "own_by_kind": {k: spread(v, 50, 95) for k, v in sorted(stats.own_by_kind.items())},
        "others": spread(stats.others, 50, 95),
        "unanswered_keys": stats.unanswered,
        "lost_updates": stats.lost,
        "errors": stats.errors,
    }


# -- local: the app on a local pty, no server ------------------------------------------------


class LocalPlayer(Terminal):
    async def spawn(self, command: list[str], size: tuple[int, int]) -> subprocess.Popen[bytes]:
        import pty

        master, slave = pty.openpty()
        cols, rows = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        env = dict(os.environ, TERM="xterm-256color")
        process = subprocess.Popen(
            command,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            cwd=ROOT,
            start_new_session=True,
        )
        os.close(slave)
        self.master = master
        loop = asyncio.get_running_loop()

        def deliver(chunk: bytes, arrived: float) -> None:
            if chunk:
                self.take(chunk, arrived)
            else:
                self.end("the app exited")

        def pump() -> None:
            # a thread of its own reads the pty and times each chunk as it comes: read from
            # the event loop, a frame's later chunks waited while the earlier ones were
            # parsed (a dialog's frame is some 20 KB), and that parsing is the bench's work,
            # not the app's
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                loop.call_soon_threadsafe(deliver, chunk, time.perf_counter())
                if not chunk:
                    return

        def write(data: bytes) -> None:
            os.write(master, data)

        threading.Thread(target=pump, name="pty-reader", daemon=True).start()
        self.write = write
        return process


async def run_local(args: argparse.Namespace) -> dict[str, Any]:
    sys.setswitchinterval(0.0005)  # the pty's reader thread gets to time a chunk promptly
    stats = Stats()
    seats = 8
    result: dict[str, Any] = {
        "mode": "local",
        "seats": seats,
        "seconds": args.seconds,
        "game": args.game,
        "size": list(args.size),
        "load_start": os.getloadavg(),
    }
    data_dir = Path(tempfile.mkdtemp(prefix="unotable-capacity-"))
    setup = {
        "game": args.game,
        "seats": [["You", "human"]] + [[f"CPU {i}", "normal"] for i in range(1, seats)],
        "options": {},
    }
    prefs = {"speed": args.speed, "last_setup": setup}
    (data_dir / "settings.json").write_text(json.dumps(prefs))
    command = [PYTHON, "-m", "unotable", "--data-dir", str(data_dir), "--seed", str(args.seed)]
    player = LocalPlayer("local", stats, args.size)
    process = None
    try:
        start = time.perf_counter()
        process = await player.spawn(command, args.size)
        if not await player.until("Start"):
            raise RuntimeError(f"no lobby:\n{player.text}")
        result["start_seconds"] = time.perf_counter() - start
        await asyncio.sleep(0.5)  # the lobby fills its seats a frame later
        player.write(b"s")
        if not await player.until(AT_TABLE):
            raise RuntimeError(f"the match did not start:\n{player.text}")
        stop = asyncio.Event()
        cpu_before, started = cpu_seconds([process.pid]), time.perf_counter()

        async def sweeper() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.25)
                player.sweep(time.perf_counter())

        sweeping = asyncio.ensure_future(sweeper())
        playing = asyncio.ensure_future(
            play_turns(player, [], random.Random(args.seed), args.think, stop, cursor=True)
        )
        await asyncio.sleep(args.seconds)
        stop.set()
        result["keys"] = await playing
        elapsed = time.perf_counter() - started
        result["app_cpu_percent"] = 100 * cpu_used(cpu_before, cpu_seconds([process.pid])) / elapsed
        rss, pss = memory_kib([process.pid])
        result["memory_mib"] = [rss / 1024, pss / 1024]
        player.sweep(time.perf_counter() + UPDATE_TIMEOUT)
        sweeping.cancel()
    except Exception as error:
        stats.error(f"{type(error).__name__}: {error}")
    finally:
        player.ended = True
        if process is not None:
            with contextlib.suppress(OSError):
                asyncio.get_running_loop().remove_reader(player.master)
            with contextlib.suppress(OSError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(OSError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
            with contextlib.suppress(OSError):
                os.close(player.master)
        shutil.rmtree(data_dir, ignore_errors=True)
    result.update(figures(stats))
    result["load_end"] = os.getloadavg()
    return result


# -- output ---------------------------------------------------------------------------------


def ms(value: float | None) -> str:
    return "–" if value is None else f"{value * 1000:.0f}"


def secs(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def load(value: Any) -> str:
    return f"{value[0]:.2f}"


def mib(pair: list[float], signed: bool = False) -> str:
    return " / ".join(f"{x:+.1f}" if signed else f"{x:.1f}" for x in pair) + " MiB"


def grown(figures: dict[str, Any]) -> str:
    """p50 / max of a spread of growths in MiB, or – when nothing was measured."""
    if not figures["n"]:
        return "–"
    return f"{figures['p50']:+.1f} / {figures['max']:+.1f} MiB"


def lag_lines(result: dict[str, Any]) -> list[str]:
    lag = result.get("bench_loop_lag")
    if not lag or not lag.get("n"):
        return []
    return [
        f"the bench's event loop woke late by {ms(lag['p50'])} / {ms(lag['p95'])} ms "
        "(p50 / p95: the clients' own queue, not the server; a frame is timed when its "
        "bytes are read off the socket, which waits for the loop too)"
    ]


def long_run_lines(result: dict[str, Any]) -> list[str]:
    """Memory growth over the run, and what the idle seated players cost."""
    lines = []
    memory = result.get("memory")
    if memory:
        own, idle_own = memory["session_pss_growth"], memory["idle_session_pss_growth"]
        lines += [
            "",
            f"memory per session (RSS / PSS; {result['sessions']} sessions, sampled every "
            f"{MEMORY_EVERY:g} s):",
            "",
            "| seated (start) | end of play | growth | largest growth at a sample "
            "| a playing session's own PSS growth p50 / max | an idle one's |",
            "|---|---|---|---|---|---|",
            f"| {mib(memory['start'])} | {mib(memory['end'])} "
            f"| {mib(memory['growth'], True)} | {mib(memory['max_growth'], True)} "
            f"| {grown(own)} | {grown(idle_own)} |",
            "",
            "PSS per session at each sample (s: MiB): "
            + ", ".join(
                f"{x['seconds']:.0f}: {x['pss_kib'] / 1024 / max(1, result['sessions']):.1f}"
                for x in memory["samples"]
            ),
        ]
    idle = result.get("idle")
    if idle:
        window = result["idle_window"]
        settled = window["settled_after"]
        since = (
            f"from {settled:.0f} s into play, once their screens had been still {IDLE_QUIET:g} s"
            if settled is not None
            else "from the start of play: their screens never stayed still "
            f"{IDLE_QUIET:g} s (see the screen changes)"
        )
        lines += [
            "",
            f"idle seated players ({result['idle_players']} at {result['idle_tables']} "
            f"table(s) of their own where nobody presses a key), over {window['seconds']:.0f} s "
            f"{since}:",
            "",
            "| player | its turn | own processes | CPU, % of a core | of which main thread "
            "/ other threads (wake-ups/s) | SSH bytes/s received (terminal output) "
            "| screen changes |",
            "|---|---|---|---|---|---|---|",
        ]
        for x in idle:
            lines.append(
                f"| {x['player']} | {'yes' if x['on_turn'] else 'no'} | {x['processes']} "
                f"| {x['cpu_percent']:.3f}% | {x['main_thread_cpu_percent']:.3f}% "
                f"({x['main_thread_wakeups_per_second']:.1f}) / "
                f"{x['other_threads_cpu_percent']:.3f}% "
                f"({x['other_threads_wakeups_per_second']:.1f}) "
                f"| {x['wire_bytes_per_second']:.1f} ({x['terminal_bytes_per_second']:.1f}) "
                f"| {x['screen_changes']} |"
            )
    return lines


def report(result: dict[str, Any]) -> str:
    own, others = result["own"], result["others"]
    problems = f"{result['lost_updates']} / {len(result['errors']) + result['unanswered_keys']}"
    loads = f"{load(result['load_start'])} → {load(result['load_end'])}"
    lines = []
    if result["mode"] == "local":
        memory = result.get("memory_mib", [0.0, 0.0])
        moves, cursor = result["moves"], result["own_by_kind"].get("cursor", spread([], 50, 95))
        lines += [
            f"unotable capacity bench, local: {result['game']} at {result['seats']} seats "
            f"(1 human), {result['seconds']:g} s, {result['size'][0]}x{result['size'][1]}",
            "",
            "| key → frame p50 / p95 | card played, dialog answered p50 / p95 "
            "| cursor moved p50 / p95 | keys | app memory (RSS / PSS) | app CPU "
            "| unanswered / errors | load avg start → end |",
            "|---|---|---|---|---|---|---|---|",
            f"| {ms(own['p50'])} / {ms(own['p95'])} ms "
            f"| {ms(moves['p50'])} / {ms(moves['p95'])} ms "
            f"| {ms(cursor['p50'])} / {ms(cursor['p95'])} ms | {own['n']} "
            f"| {memory[0]:.0f} / {memory[1]:.0f} MiB | {result.get('app_cpu_percent', 0):.0f}% "
            f"| {result['unanswered_keys']} / {len(result['errors'])} | {loads} |",
        ]
    else:
        login, memory = result["login"], result.get("memory_per_session_mib", [0.0, 0.0])
        lines += [
            f"unotable capacity bench: serve ssh, {result['players']} players at "
            f"{result['tables']} tables (and {result['idle_players']} idle), {result['game']}, "
            f"{result['seconds']:g} s, "
            f"{result['size'][0]}x{result['size'][1]}",
            "",
            "| players | login p50 / p95 | own key → own screen p50 / p95 "
            "| → other players' screens p50 / p95 / max | memory per session (RSS / PSS) "
            "| server CPU | lost updates / errors | load avg start → end |",
            "|---|---|---|---|---|---|---|---|",
            f"| {result['players']} | {secs(login['p50'])} / {secs(login['p95'])} s "
            f"| {ms(own['p50'])} / {ms(own['p95'])} ms "
            f"| {ms(others['p50'])} / {ms(others['p95'])} / {ms(others['max'])} ms "
            f"| {memory[0]:.0f} / {memory[1]:.0f} MiB "
            f"| {result.get('server_cpu_percent', 0):.0f}% | {problems} | {loads} |",
            "",
            f"{own['n']} own keys timed, {others['n']} updates on others' screens; "
            f"{result.get('tables_playing', 0)} of {result['tables']} tables played; "
            f"{result.get('processes', 0)} server processes; "
            f"the bench's own clients used {result.get('bench_cpu_percent', 0):.0f}% of a core",
            *lag_lines(result),
            *long_run_lines(result),
        ]
    if result["unanswered_keys"]:
        lines.append(f"{result['unanswered_keys']} keys never changed their own screen")
    for error in result["errors"][:20]:
        lines.append(f"error: {error}")
    if len(result["errors"]) > 20:
        lines.append(f"... and {len(result['errors']) - 20} more errors")
    return "\n".join(lines)


def size(text: str) -> tuple[int, int]:
    cols, _, rows = text.partition("x")
    return int(cols), int(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Capacity of `unotable serve ssh` (or, with --local, of the app alone)."
    )
    parser.add_argument("--players", type=int, default=4, help="SSH players (default 4)")
    parser.add_argument("--seconds", type=float, default=60.0, help="of play (default 60)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--local", action="store_true", help="key -> frame of the app on a local pty, 8 seats"
    )
    parser.add_argument(
        "--game",
        default="uno",
        choices=("uno", "uno-minecraft"),
        help="the game played (default uno; the players know the shedding games)",
    )
    parser.add_argument("--seed", type=int, default=1, help="players' think times, the deal")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        metavar=("MIN", "MAX"),
        help="seconds a player thinks before each key (default 1 2; --local 0.3 0.8)",
    )
    parser.add_argument(
        "--size", type=size, default=(80, 24), metavar="COLSxROWS", help="default 80x24"
    )
    parser.add_argument(
        "--login-gap",
        type=float,
        default=0.25,
        metavar="SECONDS",
        help="between two players' logins (default 0.25)",
    )
    parser.add_argument(
        "--speed",
        default="fast",
        choices=("slow", "normal", "fast", "instant"),
        help="--local: how fast the computers play (default fast)",
    )
    parser.add_argument(
        "--idle",
        type=int,
        default=2,
        metavar="N",
        help="idle seated players, at tables of their own where nobody moves, their CPU and "
        "bytes measured (default 2: one table of two; 0: none)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the server's data dir and log")
    args = parser.parse_args(argv)
    if not args.local and args.players < 2:
        parser.error("--players: at least 2 (players sit together)")
    if args.idle < 0:
        parser.error("--idle: 0 or more")
    args.think = tuple(args.think or ((0.3, 0.8) if args.local else (1.0, 2.0)))
    result = asyncio.run(run_local(args) if args.local else run_served(args))
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
