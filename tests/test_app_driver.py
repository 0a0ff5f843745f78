"""The app on a real terminal sleeps while its player does nothing (issue #30), and still
takes a lone Escape as a key and quits at once.

Textual's own input thread woke ten times a second, key or no key; for an idle player at
a served table that was about 0.1% of a core, in every session. The app's driver wakes
only for a key, for the end of a lone Escape's delay, and to stop.

The test counts the app's threads' wakeups (voluntary context switches, from /proc) in
one-second windows while nothing happens. It waits on what the screen shows and on that
count, never on the clock: a busy machine only delays the quiet window it looks for.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path

import pyte
import pytest

from unotable.app.driver import QuietLinuxDriver
from unotable.app.main import UnoTableApp

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and a pty")

COLS, ROWS = 80, 24
GIVE_UP = 60.0  # seconds: only against a hang
F1, ESCAPE, CTRL_C = "\x1bOP", "\x1b", "\x03"
LOBBY, RULES = "then Start", "Goal: be the first"


class Terminal:
    """``python -m unotable`` on an 80x24 pty, and what its screen shows."""

    def __init__(self, env: dict[str, str]) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "unotable"],
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)

    def read(self, timeout: float) -> None:
        if select.select([self.leader], [], [], timeout)[0]:
            with contextlib.suppress(OSError):  # EIO: the app has ended
                self.stream.feed(os.read(self.leader, 1 << 16))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + GIVE_UP
        while not done():
            assert time.monotonic() < deadline, f"{what}; the screen:\n{self.text()}"
            self.read(0.05)

    def wakeups(self) -> int:
        """Voluntary context switches of all the app's threads so far."""
        total = 0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            # (a thread that ended between the listing and the reading)
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                status = (task / "status").read_text()
                total += int(status.split("voluntary_ctxt_switches:")[1].split()[0])
        return total

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=15)
        os.close(self.leader)


@pytest.fixture
def terminal(tmp_path: Path):
    base = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "UNOTABLE_"))}
    base = {k: v for k, v in base.items() if not k.startswith("TEXTUAL")}
    env = {
        **base,
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TERM": "xterm-256color",
    }
    shown = Terminal(env)
    yield shown
    shown.close()


def test_the_app_uses_the_quiet_driver_on_a_terminal() -> None:
    assert UnoTableApp().driver_class is QuietLinuxDriver


def test_an_idle_app_sleeps_yet_takes_a_lone_escape_and_quits(terminal: Terminal) -> None:
    terminal.until(lambda: LOBBY in terminal.text(), "the lobby never showed")
    # Nothing happens now. Look for a second in which no thread of the app woke more than
    # twice (Textual's own thread: about ten times in every second).
    counts: list[int] = []
    deadline = time.monotonic() + GIVE_UP
    while not counts or counts[-1] > 2:
        assert time.monotonic() < deadline, f"never quiet: wakeups a second {counts}"
        before, second_ends = terminal.wakeups(), time.monotonic() + 1.0
        while (left := second_ends - time.monotonic()) > 0:
            terminal.read(left)  # (what the app still draws, if anything)
        counts.append(terminal.wakeups() - before)
    # A lone Escape is a key once its delay is over, with no other key behind it.
    terminal.read(0)
    os.write(terminal.leader, F1.encode())
    terminal.until(lambda: RULES in terminal.text(), "F1 never opened the rules")
    os.write(terminal.leader, ESCAPE.encode())
    terminal.until(lambda: LOBBY in terminal.text(), "a lone Escape never closed the rules")
    # Quitting wakes the sleeping thread: the app ends (it would hang here otherwise).
    os.write(terminal.leader, CTRL_C.encode())
    terminal.until(lambda: terminal.process.poll() is not None, "the app never ended")
    assert terminal.process.returncode == 0
