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
import secrets
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from unotable.serve import WILDCARD_HOSTS, ServeError, is_loopback
from unotable.serve.child import (
    ERROR_LOG_ENV,
    TERMINAL_RESET,
    PtyChild,
    app_args,
    app_argv,
    child_env,
)
from unotable.serve.limits import GuessPenalty, LoginGate, QuietLog
from unotable.serve.paths import safe_name, user_data_dir
from unotable.serve.prefork import Launcher, LauncherUnavailable, spawn_pty
from unotable.tables import IDENTITY_ENV, PLAYER_ENV, TABLES_ENV
from unotable.tables.service import TableService, open_shared_tables

log = logging.getLogger("unotable.serve")

HOST_KEY_NAME = "ssh_host_ed25519_key"
# Detects clients that vanished without closing (laptop lid, dropped Wi-Fi).
KEEPALIVE_INTERVAL = 60.0
KEEPALIVE_COUNT_MAX = 3
HANGUP_GRACE = 2.0
DRAIN_GRACE = 2.0
MAX_AUTH_DELAY = 8.0
FORKED_ERROR_FD = 3  # the error pipe in a forked table: the first after stdin/out/err
# Shown in the lobby of a player who did not log in with a key.
SHARED_NAME_NOTICE = (
    "Served without keys: anyone can log in with your user name and continue or replace "
    "these saves. Log in with an SSH key to keep your own."
)


@dataclass
class SshSettings:
    data_dir: Path
    host: str = "127.0.0.1"
    port: int = 2222
    authorized_keys: asyncssh.SSHAuthorizedKeys | None = None
    # The file they came from: read again when it changes, so keys added or removed
    # count at the next login, without a restart (docs/serve.md).
    authorized_keys_file: Path | None = None
    password: str | None = None
    open_access: bool = False
    max_sessions: int = 8
    idle_timeout: float = 1800.0  # seconds without a key press; 0 never times out
    # Abuse limits (docs/serve.md, "Security", lists each with its flag).
    max_auth_tries: int = 6  # failed logins on one connection before it is closed
    auth_delay: float = 0.5  # wait before a connection's 2nd password check; doubles after
    guesses_per_minute: int = 10  # password checks per source address, after the burst
    guess_burst: int = 5
    login_grace: float = 20.0  # seconds to log in
    max_unauthenticated: int = 100
    max_unauthenticated_per_address: int = 10
    sessionless_timeout: float = 60.0  # a logged-in connection with no table is closed
    shutdown_grace: float = 3.0  # for a client to close its channel at shutdown
    # Shared tables (docs/tables.md): players at one table from their own terminals.
    shared_tables: bool = True
    # their limits, as TableService takes them (max_tables, max_seats, grace, idle_close)
    tables: dict[str, Any] = field(default_factory=dict)
    table_speed: str = "normal"  # how fast computers move at shared tables (tests: instant)
    # The command for one player's table, given their data dir (tests swap in a stub).
    app_argv: Callable[[Path], list[str]] = field(default=app_argv)
    # Fork each table from a launcher that imported the app once (docs/serve.md, "How a
    # table starts"); only for the default app_argv, else (or if no launcher can run) each
    # table is started as its own process.
    prefork: bool = True


def load_host_key(data_dir: Path) -> tuple[asyncssh.SSHKey, Path, bool]:
    """The server's host key, generated on first start. Returns (key, path, created).

    Raises ServeError (one line) for a key file that is not a private key, is not a file,
    or can be read by anyone but its owner.
    """
    path = data_dir / HOST_KEY_NAME
    if path.exists() or path.is_symlink():
        return _read_host_key(path), path, False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="unotable host key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key.export_private_key())
    except OSError as exc:
        raise ServeError(f"cannot write host key {path}: {exc.strerror or exc}") from None
    return key, path, True


def _read_host_key(path: Path) -> asyncssh.SSHKey:
    if not path.is_file():
        raise ServeError(f"host key {path} is not a file; move it away to make a new key")
    mode = path.stat().st_mode & 0o777
    if mode & 0o077:
        raise ServeError(
            f"host key {path} can be read by others (mode {mode:04o}); run: chmod 600 {path}"
        )
    try:
        return asyncssh.read_private_key(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ServeError(
            f"host key {path} is not a usable private key ({reason}); "
            "move it away to make a new key"
        ) from None


class AuthorizedKeysFile:
    """An authorized_keys file, read again at a login when its size, time or inode changed.
    A file that is gone or cannot be read admits no key (logged): a removed key must not
    keep working because the file was being edited."""

    def __init__(self, path: Path, keys: asyncssh.SSHAuthorizedKeys | None = None) -> None:
        self.path = path
        self._keys = keys
        self._stamp: tuple[int, int, int] | None = self._stat() if keys is not None else None

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            info = self.path.stat()
        except OSError:
            return None
        return (info.st_mtime_ns, info.st_size, info.st_ino)

    def keys(self) -> asyncssh.SSHAuthorizedKeys | None:
        stamp = self._stat()
        if stamp is None or stamp != self._stamp:
            self._stamp = stamp
            try:
                self._keys = asyncssh.read_authorized_keys(str(self.path))
                log.info("authorized keys read from %s", self.path)
            except (OSError, ValueError, asyncssh.KeyImportError) as error:
                self._keys = None
                log.warning("authorized keys %s unusable, no key admitted: %s", self.path, error)
        return self._keys


class _GameSession(asyncssh.SSHServerProcess[bytes]):
    """A session that can only be the game: no commands, no subsystems."""

    def __init__(self, connection: _Connection, handler: Any) -> None:
        super().__init__(handler, None, 3, False)
        self._connection = connection

    def exec_requested(self, command: str) -> bool:
        self._connection.refuse("exec", f"exec request {command[:80]!r}")
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self._connection.refuse("subsystem", f"subsystem request {subsystem[:80]!r}")
        return False


class _Connection(asyncssh.SSHServer):
    """Admission, authentication, limits and logging for one client connection."""

    def __init__(self, table: SshTable) -> None:
        self._table = table
        self.conn: asyncssh.SSHServerConnection | None = None
        self.peer = "?"
        self.address = "?"
        self.user = "-"
        self.logged_in = False
        self.sessions = 0
        self.key_fingerprint: str | None = None
        self._offered_key: str | None = None
        self._methods: list[str] = []
        self._failures = 0
        self._password_checks = 0
        self._ended_why: str | None = None  # a refusal already logged for this connection
        self._started = time.monotonic()
        self._sessionless: asyncio.TimerHandle | None = None
        self._lost = False  # the client is gone: no timer may start after that

    # -- admission --------------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        self.peer = f"{peer[0]}:{peer[1]}"
        table = self._table
        admitted, evicted = table.gate.admit(self, self.address)
        if not admitted:
            self._ended_why = "too many connections from this address waiting to log in"
            table.refusal(self.address, "-", "-", self._ended_why)
            conn.abort()
            return
        table.connections[conn] = self
        log.info("connect %s", self.peer)
        if isinstance(evicted, _Connection):
            evicted.drop("too many connections waiting to log in; oldest of the busiest address")

    def drop(self, reason: str) -> None:
        """Close a connection that has not logged in, logging why."""
        self._ended_why = reason
        self._table.refusal(self.address, self.user, self._method_list(), reason)
        if self.conn is not None:
            self.conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        table = self._table
        table.gate.leave(self)
        if self._sessionless is not None:
            self._sessionless.cancel()
        if self.conn is None or table.connections.pop(self.conn, None) is None:
            return  # refused at the door; already logged
        seconds = time.monotonic() - self._started
        if self.logged_in:
            log.info("disconnect %s user=%s after %.0fs", self.peer, self.user, seconds)
            return
        if self._ended_why is None:
            if "Login timeout" in str(exc or ""):
                why = f"did not log in within {table.settings.login_grace:g}s"
            elif self._methods:
                why = "gave up after failed login"
            elif self.user != "-":
                why = "offered no credentials the server accepts"
            else:
                why = "left without trying to log in"
            table.refusal(self.address, self.user, self._method_list(), why)
        table.quiet.info(
            ("disconnect", self.address),
            "disconnect %s user=%s after %.0fs (never logged in)",
            self.peer,
            self.user,
            seconds,
        )

    # -- authentication ---------------------------------------------------------------------

    def begin_auth(self, username: str) -> bool:
        self.user = username
        return not self._table.settings.open_access

    def auth_completed(self) -> None:
        self.logged_in = True
        self._table.gate.leave(self)
        self.key_fingerprint = self._offered_key
        how = f"key {self.key_fingerprint}" if self.key_fingerprint else self._method_list()
        log.info("login %s user=%s by %s", self.peer, self.user, how)
        self.start_sessionless_timer()

    def public_key_auth_supported(self) -> bool:
        return self._table.keys_file is not None or self._table.settings.authorized_keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        # Called for the key's offer and again for its signature, which asyncssh then checks.
        self._note_method("publickey")
        keys = self._table.authorized_keys()
        if keys is not None and keys.validate(key, self.address, self.address) is not None:
            self._offered_key = key.get_fingerprint()
            return True
        self._offered_key = None
        self._failed("publickey", f"key {key.get_fingerprint()} not authorized")
        return False

    def password_auth_supported(self) -> bool:
        return self._table.settings.password is not None

    async def validate_password(self, username: str, password: str) -> bool:
        # Also reached by keyboard-interactive logins. The wait comes before the check, so a
        # client that sends its next guess without waiting for the answer gains nothing.
        self._offered_key = None
        self._note_method("password")
        settings = self._table.settings
        if self._password_checks:
            delay = settings.auth_delay * 2 ** (self._password_checks - 1)
            await asyncio.sleep(min(delay, MAX_AUTH_DELAY))
        self._password_checks += 1
        penalty = self._table.penalty
        if not penalty.take(self.address):
            wait = penalty.wait(self.address)
            self._failed("password", f"address penalized for {wait:.0f}s more, not checked")
            return False
        expected = settings.password
        ok = expected is not None and hmac.compare_digest(
            password.encode("utf-8", "surrogateescape"), expected.encode("utf-8")
        )
        self._table.password_checks += 1
        if ok:
            penalty.refund(self.address)
        else:
            self._failed("password", "wrong password")
        return ok

    def _note_method(self, method: str) -> None:
        if method not in self._methods:
            self._methods.append(method)

    def _method_list(self) -> str:
        return ",".join(self._methods) or "none"

    def _failed(self, method: str, reason: str) -> None:
        self._failures += 1
        self._table.refusal(self.address, self.user, method, reason)
        if self._failures >= self._table.settings.max_auth_tries and self.conn is not None:
            self._ended_why = f"too many failed logins ({self._failures})"
            self._table.refusal(self.address, self.user, self._method_list(), self._ended_why)
            conn = self.conn
            # After this failure's answer is sent.
            asyncio.get_running_loop().call_soon(
                conn.disconnect,
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                "too many authentication failures",
            )

    # -- after login ------------------------------------------------------------------------

    def refuse(self, what: str, reason: str) -> None:
        self._table.refusal(self.address, self.user, what, reason)

    def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
        return _GameSession(self, self._table.run_session)

    def connection_requested(self, dest_host: str, dest_port: int, *args: Any) -> bool:
        self.refuse("direct-tcpip", f"port forward to {dest_host[:80]}:{dest_port}")
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        self.refuse("tcpip-forward", f"remote forward from {listen_host[:80]}:{listen_port}")
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        self.refuse("direct-streamlocal", f"socket forward to {dest_path[:80]!r}")
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        self.refuse("streamlocal-forward", f"socket forward from {listen_path[:80]!r}")
        return False

    def tun_requested(self, unit: int | None) -> bool:
        self.refuse("tun", "tunnel request")
        return False

    def tap_requested(self, unit: int | None) -> bool:
        self.refuse("tap", "tunnel request")
        return False

    def start_sessionless_timer(self) -> None:
        """A logged-in connection with no table open (ssh -N) is closed after a while."""
        timeout = self._table.settings.sessionless_timeout
        if self._sessionless is not None:
            self._sessionless.cancel()
            self._sessionless = None
        # a session that ends after its connection did must not start it (a false
        # "no table opened" refusal 60 s after every normal disconnect)
        if timeout > 0 and self.sessions == 0 and self.conn is not None and not self._lost:
            self._sessionless = asyncio.get_running_loop().call_later(timeout, self._no_table)

    def session_started(self) -> None:
        self.sessions += 1
        if self._sessionless is not None:
            self._sessionless.cancel()
            self._sessionless = None

    def session_ended(self) -> None:
        self.sessions -= 1
        self.start_sessionless_timer()

    def _no_table(self) -> None:
        self._sessionless = None
        if self.sessions == 0 and self.conn is not None:
            timeout = self._table.settings.sessionless_timeout
            self.refuse("-", f"no table opened within {timeout:g}s")
            self.conn.close()


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
        self.connections: dict[asyncssh.SSHServerConnection, _Connection] = {}
        self.sessions: set[asyncio.Task[Any]] = set()
        self.children: set[PtyChild] = set()
        self.gate = LoginGate(
            settings.max_unauthenticated, settings.max_unauthenticated_per_address
        )
        self.penalty = GuessPenalty(settings.guesses_per_minute, settings.guess_burst)
        self.quiet = QuietLog(log)
        self.password_checks = 0  # passwords actually compared (for tests and figures)
        self._stopping = asyncio.Event()
        self._server: asyncssh.SSHAcceptor | None = None
        self.tables: TableService | None = None  # None: none, or another server's
        self.launcher: Launcher | None = None
        self.tables_socket: Path | None = None
        self.keys_file = (
            AuthorizedKeysFile(settings.authorized_keys_file, settings.authorized_keys)
            if settings.authorized_keys_file is not None
            else None
        )

    def authorized_keys(self) -> asyncssh.SSHAuthorizedKeys | None:
        """The keys admitted now: the file's as it is at this login, when there is one."""
        if self.keys_file is not None:
            return self.keys_file.keys()
        return self.settings.authorized_keys

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.get_port())

    def refusal(self, address: str, user: str, method: str, reason: str) -> None:
        """One log line per refusal; a flood of the same one is summed up once a minute."""
        self.quiet.info(
            ("refused", address, reason),
            "refused %s user=%s method=%s reason=%s",
            address,
            user[:64],
            method,
            reason,
        )

    async def start(self) -> None:
        s = self.settings
        if s.prefork and s.app_argv is app_argv:
            self.launcher = Launcher(label=str(s.data_dir))
            self.launcher.start_soon()  # logins wait for it only if it is not ready yet
        if s.shared_tables:
            self.tables, self.tables_socket = await open_shared_tables(
                s.data_dir,
                speed=s.table_speed,
                **s.tables,
            )
        self._server = await asyncssh.create_server(
            lambda: _Connection(self),
            s.host,
            s.port,
            server_host_keys=[self.host_key],
            encoding=None,  # raw bytes both ways: the app speaks terminal
            line_editor=False,
            agent_forwarding=False,
            x11_forwarding=False,
            login_timeout=s.login_grace,
            keepalive_interval=KEEPALIVE_INTERVAL,
            keepalive_count_max=KEEPALIVE_COUNT_MAX,
            server_version="unotable",
            backlog=512,
        )

    async def close(self) -> None:
        """Stop listening, end every game (each client is told and its terminal reset), wait a
        bounded time for clients to close their channels, then close every connection."""
        self._stopping.set()
        if self._server is not None:
            self._server.close()
        if self.sessions:
            bound = HANGUP_GRACE + DRAIN_GRACE + self.settings.shutdown_grace + 1
            await asyncio.wait(set(self.sessions), timeout=bound)
        for conn in list(self.connections):
            conn.close()
        if self.connections:
            closing = [asyncio.ensure_future(conn.wait_closed()) for conn in self.connections]
            await asyncio.wait(closing, timeout=2)
        if self._server is not None:
            await self._server.wait_closed()
        if self.tables is not None:
            await self.tables.stop()
        if self.launcher is not None:
            await self.launcher.close()

    def _players(self, asking: _Connection) -> int:
        """Tables open, plus logged-in connections holding a place without one (ssh -N)."""
        waiting = sum(
            1
            for c in self.connections.values()
            if c.logged_in and c.sessions == 0 and c is not asking
        )
        return len(self.sessions) + waiting

    async def run_session(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        connection = self.connections.get(process.get_extra_info("connection"))
        if connection is None:
            return  # the connection is already closing
        connection.session_started()
        try:
            if (players := self._players(connection)) >= self.settings.max_sessions:
                connection.refuse("session", f"table full ({players} players)")
                _say(process, f"unotable: table full ({players} players); try later.")
                status = 1
            elif process.term_type is None:
                connection.refuse("session", "no terminal requested")
                _say(process, "unotable needs a terminal: connect with ssh -t")
                status = 1
            else:
                status = await self._run_table(process, connection)
            _exit(process, status)
            # Let the client take in the last output and close its side; then the connection
            # may close without cutting anything off.
            with contextlib.suppress(TimeoutError, asyncssh.Error, OSError):
                await asyncio.wait_for(process.wait_closed(), self.settings.shutdown_grace)
        finally:
            connection.session_ended()

    async def _run_table(
        self, process: asyncssh.SSHServerProcess[bytes], connection: _Connection
    ) -> int:
        task = asyncio.current_task()
        assert task is not None
        self.sessions.add(task)
        try:
            return await self._play(process, connection)
        except Exception:
            log.exception("session for user=%s failed", connection.user)
            _say(process, "unotable: the table could not be opened; the server log says why.")
            return 1
        finally:
            self.sessions.discard(task)

    async def _play(
        self, process: asyncssh.SSHServerProcess[bytes], connection: _Connection
    ) -> int:
        user = connection.user
        data_dir = user_data_dir(self.settings.data_dir, user, connection.key_fingerprint)
        cols, rows, xpixels, ypixels = process.term_size
        env = child_env(
            process.term_type,
            process.env,
            home=data_dir,
            notice=None if connection.key_fingerprint else SHARED_NAME_NOTICE,
        )
        if self.tables_socket is not None:
            env[TABLES_ENV] = str(self.tables_socket)
            env[PLAYER_ENV] = safe_name(user)[:16]
            # a key is an identity; a name alone is not. The address counts tables and
            # code guesses for logins without a key.
            who = "key:" + connection.key_fingerprint if connection.key_fingerprint else None
            who = who or "ssh:" + secrets.token_hex(8)
            env[IDENTITY_ENV] = f"{who}@{connection.address}"
        # the app's tracebacks come up this pipe into our log, never to the player's terminal
        errors_read, errors_write = os.pipe()
        try:
            child = await self._spawn(data_dir, env, (cols, rows, xpixels, ypixels), errors_write)
        except BaseException:
            os.close(errors_read)
            raise
        finally:
            os.close(errors_write)
        self.children.add(child)
        log.info("table open user=%s pid=%d size=%dx%d", user, child.pid, cols, rows)
        errors_logged = asyncio.create_task(_log_child_errors(errors_read, user, child.pid))
        activity = _Activity()
        output = asyncio.create_task(_pump_output(child, process))
        keys = asyncio.create_task(_pump_input(child, process, activity))
        exited = asyncio.create_task(child.wait())
        idle = asyncio.create_task(self._idle(activity))
        stopping = asyncio.create_task(self._stopping.wait())
        try:
            await asyncio.wait({keys, exited, idle, stopping}, return_when=asyncio.FIRST_COMPLETED)
            ended_by_app = exited.done()
            # what ended it, before the tasks below are cancelled (and so done)
            client_left, idled = keys.done(), idle.done()
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
            # the pipe ends with the app (and anything it started); bounded all the same
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(errors_logged), DRAIN_GRACE)
            errors_logged.cancel()
        status = child.returncode
        log.info("table closed user=%s pid=%d status=%s", user, child.pid, status)
        if ended_by_app:
            return status if status is not None and status >= 0 else 1
        if client_left:
            return 0  # the client left; nobody to tell
        _write(process, TERMINAL_RESET)
        if idled:
            _say(process, "unotable: disconnected, idle too long. Your match is saved.")
            return 1
        _say(process, "unotable: the server is shutting down. Your match is saved.")
        return 0

    async def _spawn(
        self, data_dir: Path, env: dict[str, str], size: tuple[int, int, int, int], errors: int
    ) -> PtyChild:
        """The table's process: forked by the launcher, or else started on its own. Its
        environment names the error pipe by the number the child has it at."""
        if self.launcher is not None:
            try:
                forked_env = {**env, ERROR_LOG_ENV: str(FORKED_ERROR_FD)}
                return await spawn_pty(
                    self.launcher,
                    app_args(data_dir),
                    forked_env,
                    *size,
                    cwd=data_dir,
                    fds={errors: FORKED_ERROR_FD},
                )
            except LauncherUnavailable as why:
                self.quiet.info(
                    ("launcher", "unavailable"),
                    "session launcher unavailable (%s); the table starts as its own process",
                    why,
                )
        argv = self.settings.app_argv(data_dir)
        env = {**env, ERROR_LOG_ENV: str(errors)}  # pass_fds keeps our number
        return await PtyChild.spawn(argv, env, *size, cwd=data_dir, pass_fds=(errors,))

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


MAX_ERROR_LOG = 64 * 1024  # of one table's error output; the rest is dropped


async def _log_child_errors(fd: int, user: str, pid: int) -> None:
    """What the app wrote to its error pipe (an unexpected error's traceback), logged once
    it closes."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    pipe = os.fdopen(fd, "rb", buffering=0)
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    kept = bytearray()
    try:
        while chunk := await reader.read(READ_ERRORS):
            kept += chunk[: max(0, MAX_ERROR_LOG - len(kept))]
    finally:
        transport.close()
        if kept.strip():
            text = kept.decode("utf-8", "replace").rstrip()
            log.error("table user=%s pid=%d failed:\n%s", user, pid, text)


READ_ERRORS = 4096


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


def quiet_loop_errors(loop: asyncio.AbstractEventLoop, quiet: QuietLog) -> None:
    """Errors the event loop reports (a failed accept when file descriptors run out, say)
    make one line per kind per minute instead of a traceback each."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        message = str(context.get("message", "event loop error"))
        kind = (message, type(exc).__name__, getattr(exc, "errno", None))
        if "accept" in message:
            quiet.info(("loop", kind), "%s: %s", message, exc)
        elif quiet.info(("loop", kind), "event loop error: %s: %r", message, exc):
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


async def serve_forever(settings: SshSettings) -> int:
    """Run until SIGINT or SIGTERM, then end every session cleanly."""
    host_key, key_path, created = load_host_key(settings.data_dir)
    table = SshTable(settings, host_key)
    loop = asyncio.get_running_loop()
    quiet_loop_errors(loop, table.quiet)
    # before the start: a Ctrl+C while tables reopen stops the server once it is up
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        try:
            await table.start()
        except OSError as exc:  # asyncio's own words name the address again: the reason alone
            await table.close()  # the launcher (still warming up) and the tables: no orphans
            where = f"{settings.host} port {settings.port}"
            reason = os.strerror(exc.errno) if exc.errno else str(exc)
            raise ServeError(f"cannot listen on {where}: {reason}") from None
        print(listen_message(table, key_path, created), flush=True)
        if settings.open_access or settings.password is not None:
            log.info(
                "names are not identities: without a key, anyone may log in as any user name "
                "and continue or replace that name's saves"
            )
        await stop.wait()
        print("unotable: stopping; closing sessions", flush=True)
        await table.close()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    return 0
