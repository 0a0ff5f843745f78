"""Start-up time and memory of the app; prints the figures.

1. Time from the command to the lobby on screen (in a real pseudo-terminal, 80x24;
   the seats and options fill in a frame later, timed too),
   against an empty Textual app started the same way: best of a few runs each.
2. Resident memory of the app with an 8-seat match on screen.

Run: .venv/bin/python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

EMPTY_APP = """
from textual.app import App
from textual.widgets import Static

class Empty(App):
    def compose(self):
        yield Static("EMPTY-READY")

Empty().run()
"""

MEMORY_PROBE = """
import asyncio, resource
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.controller import Controller, Seat
from unotable.app.screens.table import TableScreen

async def main():
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="instant"))
    seats = [Seat("You", "human")] + [Seat(f"CPU {i}", "normal") for i in range(1, 8)]
    async with app.run_test(size=(80, 24)) as pilot:
        app.start_match(Controller("uno", seats, None, 7, speed="instant"))
        for _ in range(200):
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, TableScreen) and screen.acting_human() is not None:
                break
        rss = 0
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        print(rss)

asyncio.run(main())
"""


def terminal_env(bytecode_cache: str) -> dict[str, str]:
    """The environment of both apps: an 80x24 terminal, and compiled modules cached.

    Textual's bytecode is cached in site-packages, so the app's own must be cached too (as
    an installed package is), even if PYTHONDONTWRITEBYTECODE is set: else only the app pays
    for compiling. The cache lives in a temporary folder, never in the checkout.
    """
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = bytecode_cache
    return env


def time_to_text(
    command: list[str], marker: bytes, env: dict[str, str], timeout: float = 20.0
) -> float:
    """Seconds from spawning ``command`` in an 80x24 pty until ``marker`` is drawn."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True
    )
    os.close(slave)
    seen = b""
    elapsed = float("nan")
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([master], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
                if marker in seen:
                    elapsed = time.perf_counter() - start
                    break
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        os.close(master)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as cache:
        env = terminal_env(cache)
        app_command = [PYTHON, "-m", "unotable", "--data-dir", data]
        empty_command = [PYTHON, "-c", EMPTY_APP]
        # untimed warm-up: fills the bytecode cache of both
        time_to_text(app_command, b"Seed", env)
        time_to_text(empty_command, b"EMPTY-READY", env)
        app_times = [time_to_text(app_command, b"choose a game", env) for _ in range(runs)]
        full_times = [time_to_text(app_command, b"Seed", env) for _ in range(runs)]
        empty_times = [time_to_text(empty_command, b"EMPTY-READY", env) for _ in range(runs)]
    app_best, full_best, empty_best = min(app_times), min(full_times), min(empty_times)
    print(f"empty Textual app:    {empty_best:.3f} s (best of {runs})")
    print(f"lobby on screen:      {app_best:.3f} s = {app_best / empty_best:.2f}x (goal 1.30x)")
    full_ratio = full_best / empty_best
    print(f"lobby complete:       {full_best:.3f} s = {full_ratio:.2f}x (seats, options)")
    result = subprocess.run(
        [PYTHON, "-c", MEMORY_PROBE], capture_output=True, text=True, cwd=ROOT, check=True
    )
    rss_mib = int(result.stdout.strip().splitlines()[-1]) / 1024
    print(f"memory, 8-seat match: {rss_mib:.1f} MiB resident (goal: under 60 MiB)")


if __name__ == "__main__":
    main()
