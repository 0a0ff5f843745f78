"""The SSH table: each session is one unotable app in its own process on its own pty.

Only the game is offered: shell requests start the app; exec, subsystems (SFTP), port
and agent forwarding are refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from unotable.serve import WILDCARD_HOSTS, is_loopback
from unotable.serve.child import TERMINAL_RESET, PtyChild, app_argv, child_env
from unotable.serve.paths import user_data_dir

log = logging.getLogger("unotable.serve")

HOST_KEY_NAME = "ssh_host_ed25519_key"
LOGIN_TIMEOUT = 60.0
# Detects clients that vanished without closing (laptop lid, dropped Wi-Fi).
KEEPALIVE_INTERVAL = 60.0
KEEPALIVE_COUNT_MAX = 3
HANGUP_GRACE = 2.0
DRAIN_GRACE = 2.0


@dataclass
class SshSettings:
    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
    password: str | None = None
    open_access: bool = False
    max_sessions: int = 8
    idle_timeout: float = 1800.0  # seconds without a key press; 0 never times out
    # The command for one player's table, given their data dir (tests swap in a stub).
    app_argv: Callable[[Path], list[str]] = field(default=app_argv)


def load_host_key(data_dir: Path) -> tuple[asyncssh.SSHKey, Path, bool]:
    """The server's host key, generated on first start. Returns (key, path, created)."""
    path = data_dir / HOST_KEY_NAME
    if path.exists():
        return asyncssh.read_private_key(path), path, False
    data_dir.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="unotable host key")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(key.export_private_key())
    return key, path, True


class _GameSession(asyncssh.SSHServerProcess[bytes]):
    """A session that can only be the game: no commands, no subsystems."""

    def exec_requested(self, command: str) -> bool:
        log.info("refused exec request: %r", command[:80])
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        log.info("refused subsystem request: %r", subsystem[:80])
        return False


class _Connection(asyncssh.SSHServer):
    """Authentication and logging for one client connection."""

    def __init__(self, table: SshTable) -> None:
        self._table = table
        self._conn: asyncssh.SSHServerConnection | None = None
        self._peer = "?"
        self._user = "-"
        self._logged_in = False
        self._started = time.monotonic()

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._peer = f"{peer[0]}:{peer[1]}"
        self._table.connections.add(conn)
        log.info("connect %s", self._peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._conn is not None:
            self._table.connections.discard(self._conn)
        seconds = time.monotonic() - self._started
        how = "" if self._logged_in else " (never logged in)"
        log.info("disconnect %s user=%s after %.0fs%s", self._peer, self._user, seconds, how)

    def begin_auth(self, username: str) -> bool:
        self._user = username
        return not self._table.settings.open_access

    def auth_completed(self) -> None:
        self._logged_in = True
        log.info("login %s user=%s", self._peer, self._user)

    def password_auth_supported(self) -> bool:
        return self._table.settings.password is not None

    def validate_password(self, username: str, password: str) -> bool:
        expected = self._table.settings.password
        ok = expected is not None and hmac.compare_digest(
            password.encode("utf-8", "surrogateescape"), expected.encode("utf-8")
        )
        if not ok:
            log.info("wrong password %s user=%s", self._peer, username)
        return ok

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        return _GameSession(self._table.run_session, None, 3, False)


class _Activity:
    def __init__(self) -> None:
        self.last = time.monotonic()

    def touch(self) -> None:
        self.last = time.monotonic()


class SshTable:
    """The running SSH server: its listener, connections and game sessions."""

    def __init__(self, settings: SshSettings, host_key: asyncssh.SSHKey) -> None:
        self.settings = settings
        self.host_key = host_key
        self.connections: set[asyncssh.SSHServerConnection] = set()
        self.sessions: set[asyncio.Task[Any]] = set()
        self.children: set[PtyChild] = set()
        self._stopping = asyncio.Event()
        self._server: asyncssh.SSHAcceptor | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.get_port())

    async def start(self) -> None:
        s = self.settings
        self._server = await asyncssh.create_server(
            lambda: _Connection(self),
            s.host,
            s.port,
            server_host_keys=[self.host_key],
            authorized_client_keys=s.authorized_keys,
            encoding=None,  # raw bytes both ways: the app speaks terminal
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            login_timeout=LOGIN_TIMEOUT,
            keepalive_interval=KEEPALIVE_INTERVAL,
            keepalive_count_max=KEEPALIVE_COUNT_MAX,
            server_version="unotable",
        )

    async def close(self) -> None:
        """Stop listening, end every game (each client is told), close every connection."""
        self._stopping.set()
        if self._server is not None:
            self._server.close()
        if self.sessions:
            await asyncio.wait(set(self.sessions), timeout=HANGUP_GRACE + DRAIN_GRACE + 1)
        for conn in list(self.connections):
            conn.close()
        if self.connections:
            closing = [asyncio.ensure_future(conn.wait_closed()) for conn in self.connections]
            await asyncio.wait(closing, timeout=2)
        if self._server is not None:
            await self._server.wait_closed()

    async def run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        conn = process.get_extra_info("connection")
        user = conn.get_extra_info("username") or ""
        if len(self.sessions) >= self.settings.max_sessions:
            log.info("table full: refused user=%s", user)
            _say(process, f"unotable: table full ({len(self.sessions)} players); try later.")
            _exit(process, 1)
            return
        if process.term_type is None:
            _say(process, "unotable needs a terminal: connect with ssh -t")
            _exit(process, 1)
            return
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(task)
        try:
            _exit(process, await self._play(process, user))
        except Exception:
            log.exception("session for user=%s failed", user)
            _say(process, "unotable: the table could not be opened; the server log says why.")
            _exit(process, 1)
        finally:
            self.sessions.discard(task)

    async def _play(self, process: asyncssh.SSHServerProcess[bytes], user: str) -> int:
        data_dir = user_data_dir(self.settings.data_dir, user)
        cols, rows, xpixels, ypixels = process.term_size
        env = child_env(process.term_type, process.env)
        child = await PtyChild.spawn(
            self.settings.app_argv(data_dir), env, cols, rows, xpixels, ypixels
        )
        self.children.add(child)
        log.info("table open user=%s pid=%d size=%dx%d", user, child.pid, cols, rows)
        activity = _Activity()
        output = asyncio.create_task(_pump_output(child, process))
        keys = asyncio.create_task(_pump_input(child, process, activity))
        exited = asyncio.create_task(child.wait())
        idle = asyncio.create_task(self._idle(activity))
        stopping = asyncio.create_task(self._stopping.wait())
        try:
            await asyncio.wait({keys, exited, idle, stopping}, return_when=asyncio.FIRST_COMPLETED)
            ended_by_app = exited.done()
            if not ended_by_app:
                await child.hang_up(HANGUP_GRACE)
            # Let the app's last output (it restores the terminal) reach the client.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(output), DRAIN_GRACE)
        finally:
            for task in (output, keys, exited, idle, stopping):
                task.cancel()
            child.close()
            self.children.discard(child)
        status = child.process.returncode
        log.info("table closed user=%s pid=%d status=%s", user, child.pid, status)
        if ended_by_app:
            return status if status is not None and status >= 0 else 1
        if keys.done():
            return 0  # the client left; nobody to tell
        _write(process, TERMINAL_RESET)
        if idle.done():
            _say(process, "unotable: disconnected, idle too long. Your match is saved.")
        else:
            _say(process, "unotable: the server is shutting down. Your match is saved.")
        return 1

    async def _idle(self, activity: _Activity) -> None:
        timeout = self.settings.idle_timeout
        if timeout <= 0:
            await asyncio.Event().wait()
        while (left := activity.last + timeout - time.monotonic()) > 0:
            await asyncio.sleep(left)


async def _pump_input(
    child: PtyChild, process: asyncssh.SSHServerProcess[bytes], activity: _Activity
) -> None:
    """Client keys and window changes to the child, until the client goes away."""
    while True:
        try:
            data = await process.stdin.read(4096)
        except asyncssh.TerminalSizeChanged as change:
            child.resize(change.width, change.height, change.pixwidth, change.pixheight)
            continue
        except (asyncssh.BreakReceived, asyncssh.SignalReceived):
            continue  # the app reads Ctrl+C as a key; clients may not signal it
        except (asyncssh.Error, OSError):
            return
        if not data:
            return
        activity.touch()
        await child.write(data)


async def _pump_output(child: PtyChild, process: asyncssh.SSHServerProcess[bytes]) -> None:
    """The child's screen to the client, until the child's side of the pty closes."""
    client_gone = False
    while data := await child.read():
        if client_gone:
            continue  # keep reading so the child never blocks on a full pty
        try:
            process.stdout.write(data)
            await process.stdout.drain()
        except (asyncssh.Error, OSError):
            client_gone = True


def _write(process: asyncssh.SSHServerProcess[bytes], data: bytes) -> None:
    if process.is_closing():
        return
    with contextlib.suppress(asyncssh.Error, OSError):
        process.stdout.write(data)


def _exit(process: asyncssh.SSHServerProcess[bytes], status: int) -> None:
    with contextlib.suppress(asyncssh.Error, OSError):
        process.exit(status)


def _say(process: asyncssh.SSHServerProcess[bytes], message: str) -> None:
    _write(process, f"\r\n{message}\r\n".encode())


def listen_message(table: SshTable, key_path: Path, created: bool) -> str:
    s = table.settings
    if is_loopback(s.host):
        reach = "localhost"
    else:
        reach = socket.gethostname() if s.host in WILDCARD_HOSTS else s.host
    lines = [
        f"unotable: SSH table on {s.host} port {table.port} (at most {s.max_sessions} players)",
        f"host key {table.host_key.get_fingerprint()} ({'new, ' if created else ''}{key_path})",
        f"connect with: ssh -p {table.port} {reach}",
        "Ctrl+C stops the server.",
    ]
    return "\n".join(lines)


async def serve_forever(settings: SshSettings) -> int:
    """Run until SIGINT or SIGTERM, then end every session cleanly."""
    host_key, key_path, created = load_host_key(settings.data_dir)
    table = SshTable(settings, host_key)
    try:
        await table.start()
    except OSError as exc:
        where = f"{settings.host} port {settings.port}"
        print(f"unotable serve ssh: error: cannot listen on {where}: {exc}", file=sys.stderr)
        return 1
    print(listen_message(table, key_path, created), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
        print("unotable: stopping; closing sessions", flush=True)
        await table.close()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    return 0
