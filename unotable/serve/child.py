"""One app process on its own pseudo-terminal: spawn, size, feed keys, read the screen, end it.

Used by the SSH server: each session gets a ``PtyChild``. The child is a session leader
whose controlling terminal is the pty, so the kernel signals it on resize (SIGWINCH) and
on hang-up (SIGHUP, also when this server dies without cleaning up). The child is started
here (``PtyChild.spawn``) or forked by the session launcher (serve/prefork.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import re
import shlex
import signal
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Protocol

# Only these may come from the client; it can send any variable.
CLIENT_ENV_ALLOWED = ("COLORTERM", "LANG")
# The only names a table inherits from the server's environment: what Python and the locale
# need. Anything else (tokens, keys, the password) stays with the server.
SERVER_ENV_ALLOWED = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "PYTHONPATH")
# Set by the server: the app then offers nothing that writes files (see app/main.py).
SERVED_ENV = "UNOTABLE_SERVED"
SERVED_NOTICE_ENV = "UNOTABLE_SERVED_NOTICE"
ERROR_LOG_ENV = "UNOTABLE_ERROR_FD"  # a pipe to the server's log, for the app's tracebacks
SESSION_ENV = "UNOTABLE_SESSION"  # a web tab's name for itself (see serve/web.py)
DEFAULT_TERM = "xterm-256color"
_ENV_VALUE = re.compile(r"[A-Za-z0-9_.@+:-]{1,64}")

# Larger terminals are drawn at this size (a client may ask for 5000x5000).
MAX_SIZE = (1000, 1000)
INPUT_HIGH_WATER = 64 * 1024
READ_CHUNK = 64 * 1024

# Written to the client after the app ends, in case it was killed before restoring the
# terminal: leave the alternate screen, stop mouse/paste/focus reports, show the cursor.
TERMINAL_RESET = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[<u\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l"
)


def app_args(data_dir: Path) -> list[str]:
    """The arguments of ``unotable`` for one player's table."""
    return ["--data-dir", str(data_dir)]


def app_argv(data_dir: Path) -> list[str]:
    """The command that runs one player's table."""
    return [sys.executable, "-m", "unotable", *app_args(data_dir)]


def app_command(data_dir: Path) -> str:
    return shlex.join(app_argv(data_dir))


def child_env(
    term: str | None,
    client_env: Mapping[str, str],
    base: Mapping[str, str] | None = None,
    *,
    home: Path | None = None,
    notice: str | None = None,
) -> dict[str, str]:
    """The child's environment: allow-listed server names, the client's terminal, and
    HOME pointing into the player's data dir so nothing lands in the host's home."""
    source = os.environ if base is None else base
    env = {name: source[name] for name in SERVER_ENV_ALLOWED if name in source}
    env["TERM"] = term if term and _ENV_VALUE.fullmatch(term) else DEFAULT_TERM
    for name in CLIENT_ENV_ALLOWED:
        value = client_env.get(name)
        if isinstance(value, str) and _ENV_VALUE.fullmatch(value):
            env[name] = value
    if home is not None:
        env["HOME"] = str(home)
    env[SERVED_ENV] = "1"
    if notice:
        env[SERVED_NOTICE_ENV] = notice
    return env


def clamp_size(cols: int, rows: int, limit: tuple[int, int] = MAX_SIZE) -> tuple[int, int]:
    """A terminal size a table can draw: zero means the usual 80x24, absurd means the limit."""
    cols = min(max(cols, 1), limit[0]) if cols else min(80, limit[0])
    rows = min(max(rows, 1), limit[1]) if rows else min(24, limit[1])
    return cols, rows


def set_window_size(fd: int, cols: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
    cols, rows = clamp_size(cols, rows)  # a client may send zero or absurd sizes
    size = struct.pack("HHHH", rows, cols, xpixels & 0xFFFF, ypixels & 0xFFFF)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, size)


def _take_controlling_terminal() -> None:
    # Runs in the child after setsid(), with the pty slave already on fd 0.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class ChildProcess(Protocol):
    """What a PtyChild needs of its process: an ``asyncio.subprocess.Process``, or a
    session forked by the launcher (serve/prefork.py)."""

    pid: int

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int: ...


class PtyChild:
    """A child process whose stdin, stdout and stderr are one pty; we hold the master."""

    def __init__(
        self,
        process: ChildProcess,
        master: int,
        release: Callable[[], None] | None = None,
    ) -> None:
        self.process = process
        self.pid = process.pid
        self._master = master
        self._release = release  # called at close: the process is no longer ours to watch
        self._pending = bytearray()
        self._writer_added = False
        self._drained = asyncio.Event()
        self._drained.set()
        self._readable: asyncio.Future[None] | None = None
        self._closed = False

    @classmethod
    async def spawn(
        cls,
        argv: Sequence[str],
        env: Mapping[str, str],
        cols: int,
        rows: int,
        xpixels: int = 0,
        ypixels: int = 0,
        cwd: Path | None = None,
        pass_fds: Sequence[int] = (),
    ) -> PtyChild:
        """Start ``argv`` on a new pty. ``cwd``: its working directory (the player's data
        dir, so that nothing it writes by a relative path lands in the server's directory)."""
        master, slave = os.openpty()
        try:
            set_window_size(slave, cols, rows, xpixels, ypixels)
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=dict(env),
                cwd=cwd,
                pass_fds=tuple(pass_fds),  # the error pipe into the server's log
                start_new_session=True,
                preexec_fn=_take_controlling_terminal,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        os.set_blocking(master, False)
        return cls(process, master)

    def resize(self, cols: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
        """Set the pty's size; the kernel sends SIGWINCH to the child."""
        if not self._closed:
            set_window_size(self._master, cols, rows, xpixels, ypixels)

    async def read(self) -> bytes:
        """The next output of the child; ``b""`` once its side of the pty is closed."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            try:
                return os.read(self._master, READ_CHUNK)
            except BlockingIOError:
                pass
            except OSError as exc:
                # Linux reports EIO on the master once no process holds the slave.
                if exc.errno == errno.EIO:
                    return b""
                raise
            self._readable = loop.create_future()
            loop.add_reader(self._master, self._wake_reader)
            try:
                await self._readable
            finally:
                self._readable = None
                if not self._closed:
                    loop.remove_reader(self._master)
        return b""

    def _wake_reader(self) -> None:
        if self._readable is not None and not self._readable.done():
            self._readable.set_result(None)

    async def write(self, data: bytes) -> None:
        """Queue keys for the child; waits while it is not reading (back-pressure)."""
        if self._closed:
            return
        self._pending += data
        self._flush()
        if len(self._pending) > INPUT_HIGH_WATER:
            self._drained.clear()
            await self._drained.wait()

    def _flush(self) -> None:
        while self._pending and not self._closed:
            try:
                written = os.write(self._master, self._pending)
            except BlockingIOError:
                break
            except OSError:
                self._pending.clear()
                break
            del self._pending[:written]
        want_writer = bool(self._pending) and not self._closed
        if want_writer != self._writer_added:
            loop = asyncio.get_running_loop()
            if want_writer:
                loop.add_writer(self._master, self._flush)
            else:
                loop.remove_writer(self._master)
            self._writer_added = want_writer
        if len(self._pending) <= INPUT_HIGH_WATER:
            self._drained.set()

    @property
    def returncode(self) -> int | None:
        """The exit status once known; negative: killed by that signal."""
        return self.process.returncode

    async def wait(self) -> int:
        return await self.process.wait()

    async def hang_up(self, grace: float = 2.0) -> int:
        """End the child as a terminal hang-up would, killing it if it lingers."""
        self._signal_group(signal.SIGHUP)
        self._signal_group(signal.SIGCONT)
        try:
            return await asyncio.wait_for(asyncio.shield(self.process.wait()), grace)
        except TimeoutError:
            self._signal_group(signal.SIGKILL)
            return await self.process.wait()

    def _signal_group(self, signum: int) -> None:
        # The child leads its own process group; signal everything it started too.
        if self.process.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signum)

    def close(self) -> None:
        """Release the master side (the child, if still alive, sees a hang-up)."""
        if self._closed:
            return
        self._closed = True
        self._signal_group(signal.SIGHUP)  # normally already gone; the pty hang-up also does it
        loop = asyncio.get_running_loop()
        if self._readable is not None:
            loop.remove_reader(self._master)
            self._wake_reader()
        if self._writer_added:
            loop.remove_writer(self._master)
            self._writer_added = False
        self._pending.clear()
        self._drained.set()
        os.close(self._master)
        if self._release is not None:
            self._release()
