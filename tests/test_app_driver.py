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
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_app_pty_narrow import Terminal, own_env

from unotable.app.driver import QuietLinuxDriver
from unotable.app.main import UnoTableApp

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc and a pty")

GIVE_UP = 60.0  # seconds: only against a hang
F1, ESCAPE, CTRL_C = "\x1bOP", "\x1b", "\x03"
LOBBY, RULES = "then Start", "Goal: be the first"


class IdleTerminal(Terminal):
    """``python -m unotable`` on an 80x24 pty, and its threads' wake-ups."""

    def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + GIVE_UP
        while not done():
            assert time.monotonic() < deadline, f"{what}; the screen:\n{self.text()}"
            if self.process.poll() is not None:
                time.sleep(0.05)  # (ended: nothing more to read)
                continue
            try:
                self.frames(0.05)
            except AssertionError:  # its terminal closed: the app is ending
                self.process.wait(timeout=GIVE_UP)

    def read_for(self, seconds: float) -> None:
        """Take what the app draws (if anything) for ``seconds``."""
        ends = time.monotonic() + seconds
        while (left := ends - time.monotonic()) > 0:
            self.frames(left)

    def wakeups(self) -> int:
        """Voluntary context switches of all the app's threads so far."""
        total = 0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            # (a thread that ended between the listing and the reading)
            with contextlib.suppress(FileNotFoundError, ProcessLookupError):
                status = (task / "status").read_text()
                total += int(status.split("voluntary_ctxt_switches:")[1].split()[0])
        return total


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[IdleTerminal]:
    shown = IdleTerminal([sys.executable, "-m", "unotable"], own_env(tmp_path))
    yield shown
    shown.close()


def test_the_app_uses_the_quiet_driver_on_a_terminal() -> None:
    assert UnoTableApp().driver_class is QuietLinuxDriver


def test_an_idle_app_sleeps_yet_takes_a_lone_escape_and_quits(terminal: IdleTerminal) -> None:
    terminal.until(lambda: LOBBY in terminal.text(), "the lobby never showed")
    # Nothing happens now. Look for a second in which no thread of the app woke more than
    # twice (Textual's own thread: about ten times in every second).
    counts: list[int] = []
    deadline = time.monotonic() + GIVE_UP
    while not counts or counts[-1] > 2:
        assert time.monotonic() < deadline, f"never quiet: wakeups a second {counts}"
        before = terminal.wakeups()
        terminal.read_for(1.0)  # (what the app still draws, if anything)
        counts.append(terminal.wakeups() - before)
    # A lone Escape is a key once its delay is over, with no other key behind it.
    os.write(terminal.leader, F1.encode())
    terminal.until(lambda: RULES in terminal.text(), "F1 never opened the rules")
    os.write(terminal.leader, ESCAPE.encode())
    terminal.until(lambda: LOBBY in terminal.text(), "a lone Escape never closed the rules")
    # Quitting wakes the sleeping thread: the app ends (it would hang here otherwise).
    os.write(terminal.leader, CTRL_C.encode())
    terminal.until(lambda: terminal.process.poll() is not None, "the app never ended")
    assert terminal.process.returncode == 0
