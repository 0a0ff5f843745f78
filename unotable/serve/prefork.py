"""Sessions forked from a launcher that imported the app once (issue #30).

Starting ``python -m unotable`` for every player costs each login half a second of CPU in
imports, and each session holds its own copy of the same modules (textual, rich, the app,
the engines and computer players). Instead the server starts one *launcher* process at
startup. It imports all of that once, freezes the garbage collector's view of it
(``gc.freeze()``: a collection in a session then never writes to those objects, so their
pages stay shared copy-on-write) and waits for requests. For each session the launcher
forks; the child sets itself up as ``python -m unotable`` would be set up (its own session
with the pty as controlling terminal, exactly the environment the server computed, default
signal handlers, a fresh random state, no file descriptor but its own) and runs the CLI's
``main``.

The launcher is the server's child, started with ``exec`` (never a fork of the server,
whose event loop and threads must not be copied). It listens only on a socketpair the
server hands it, never on a path anyone could connect to, and exits when the server goes
away (end of file on that socket, or the parent-death signal).

One request, over the control socket: a JSON object and, by ``SCM_RIGHTS``, a socket for
this session's answers followed by the descriptors the child gets (the pty, the error
pipe). On the answer socket the launcher says ``{"pid": N}`` once the child exists, and
``{"status": S}`` once it ended (``S`` as ``asyncio`` gives it: negative for a signal).
The launcher reaps the child only after the server closed that socket, so its pid (and
process group) cannot be reused while the server may still signal it. If the launcher
dies, the server logs it, starts another one, and sessions in progress keep running: their
end is then seen through a pidfd (their exit status is lost).

Run as ``python -m unotable.serve.prefork --fd N`` by :class:`Launcher`; nothing else.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import fcntl
import gc
import json
import logging
import os
import selectors
import signal
import socket
import sys
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Any, NoReturn

from unotable.serve.child import SERVER_ENV_ALLOWED, PtyChild, set_window_size

log = logging.getLogger("unotable.serve")

# What a session runs: the same function ``python -m unotable`` calls, given the arguments.
ENTRY = "unotable.cli:main"
# Imported by the launcher before any fork: everything a session needs for the lobby and
# the tables (``pkg.*``: the package and all its modules). Named, not imported, here: the
# server itself does not need the app.
PRELOAD = (
    "unotable.cli",
    "unotable.terminal",
    "unotable.app.*",
    "unotable.controller.*",
    "unotable.ai.*",
    "unotable.engine.*",
    "unotable.store.*",
    "unotable.tables.client",
    "unotable.tables.remote",
    # textual imports these only once an app runs
    "textual.drivers.linux_driver",
    "textual.drivers.web_driver",
    "textual._xterm_parser",
    "textual.layouts.factory",
    "textual.scrollbar",
    "textual.pilot",
    "rich.pretty",
    "hashlib",
    "hmac",
    "secrets",
    "statistics",
    "queue",
    "concurrent.futures.thread",
    "tty",
)
# Run by the launcher after the imports: an app started once, so that what every start
# works out (parsed CSS, Textual's caches) is shared by the sessions instead.
WARM_UP = "unotable.app.warmup:open_lobby"
MAX_MESSAGE = 256 * 1024  # one request: arguments, environment, working directory
MAX_FDS = 8  # an answer socket and the child's own descriptors
READY_TIMEOUT = 60.0  # imports on a loaded machine
ANSWER_TIMEOUT = 10.0  # a fork: a launcher that takes longer is taken for stuck
RETRY_AFTER = 60.0  # after a launcher that could not start, sessions start the old way
# A session whose launcher died is reaped by init: its status cannot be known. Its app
# ended on its own (its pty closed), which is how a player's quit ends.
LOST_STATUS = 0


class LauncherUnavailable(Exception):
    """No launcher to fork a session from; the caller starts the session the old way."""


# -- the launcher process: plain blocking code, no threads, no event loop ----------------------


@dataclass
class _Session:
    answers: socket.socket | None  # closed by the server: it wants nothing more
    status: int | None = None  # told to the server; the zombie is kept until it closes


class _LauncherLoop:
    """Reads requests, forks sessions, reports their ends."""

    def __init__(
        self,
        control: socket.socket,
        entry: Callable[[list[str]], Any],
        fresh_handlers: dict[int, Any],
    ) -> None:
        self.control = control
        self.entry = entry
        self.fresh_handlers = fresh_handlers  # what a new interpreter starts with
        self.sessions: dict[int, _Session] = {}
        self.selector = selectors.DefaultSelector()
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)

    def run(self) -> int:
        signal.set_wakeup_fd(self.wake_write)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the select through the pipe
        self.selector.register(self.control, selectors.EVENT_READ, None)
        self.selector.register(self.wake_read, selectors.EVENT_READ, 0)
        while True:
            for key, _ in self.selector.select():
                if key.data is None:
                    if not self._take_request():
                        return 0  # the server is gone
                elif key.data == 0:
                    with contextlib.suppress(BlockingIOError):
                        while os.read(self.wake_read, 512):
                            pass
                    self._note_exits()
                else:
                    self._server_done(key.data)

    def _take_request(self) -> bool:
        try:
            data, ancillary, flags, _ = self.control.recvmsg(
                MAX_MESSAGE, socket.CMSG_SPACE(MAX_FDS * 4)
            )
        except InterruptedError:
            return True
        except OSError:
            return False
        fds = _received_fds(ancillary)
        if not data and not fds:
            return False
        if not fds:
            return True  # nowhere to answer
        try:
            answers = socket.socket(fileno=fds[0])
        except OSError:
            _close_all(fds)
            return True
        given = fds[1:]
        try:
            if flags & (socket.MSG_TRUNC | socket.MSG_CTRUNC):
                raise ValueError("request too large")
            request = _parse_request(data, len(given))
        except ValueError as error:
            _send(answers, {"error": str(error)})
            answers.close()
            _close_all(given)
            return True
        gc.freeze()  # what the launcher made since the last fork is shared too
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        try:
            pid = os.fork()
        except OSError as error:
            _send(answers, {"error": f"fork: {error.strerror or error}"})
            answers.close()
            _close_all(given)
            return True
        if pid == 0:
            self._become_session(request, answers, given)
        # the child holds these now; the pty must close when the child ends
        _close_all(given)
        answers.setblocking(False)
        if not _send(answers, {"pid": pid}):
            # the server gave up on this table (its player left): nobody will see it
            answers.close()
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self.sessions[pid] = _Session(None)
        else:
            self.sessions[pid] = _Session(answers)
            self.selector.register(answers, selectors.EVENT_READ, pid)
        self._note_exits()  # it may have ended already
        return True

    def _note_exits(self) -> None:
        for pid, session in list(self.sessions.items()):
            if session.status is not None:
                continue
            try:
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                del self.sessions[pid]
                continue
            if info is None:
                continue
            session.status = _status_of(info)
            if session.answers is None or not _send(session.answers, {"status": session.status}):
                self._reap(pid)

    def _server_done(self, pid: int) -> None:
        session = self.sessions.get(pid)
        if session is None or session.answers is None:
            return
        self.selector.unregister(session.answers)
        session.answers.close()
        session.answers = None
        if session.status is not None:
            self._reap(pid)

    def _reap(self, pid: int) -> None:
        session = self.sessions.pop(pid, None)
        if session is not None and session.answers is not None:
            self.selector.unregister(session.answers)
            session.answers.close()
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)

    # -- in the child ---------------------------------------------------------------------

    def _become_session(
        self, request: dict[str, Any], answers: socket.socket, given: list[int]
    ) -> NoReturn:
        status = 1
        try:
            os.setsid()
            self._drop_launcher_state(answers)
            _place_fds(given, request["fds"])
            if request["tty"]:
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            _reset_signals(self.fresh_handlers)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            _fresh_interpreter_state(request["args"])
            status = _run_entry(self.entry, request["args"])
        except BaseException:
            _print_error()
        finally:
            _finish(status)

    def _drop_launcher_state(self, answers: socket.socket) -> None:
        """Close what belongs to the launcher through its Python objects, so that none of
        them later closes a descriptor number the app has reused."""
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        self.selector.close()
        self.control.close()
        answers.close()
        for session in self.sessions.values():
            if session.answers is not None:
                session.answers.close()
        self.sessions.clear()
        os.close(self.wake_read)
        os.close(self.wake_write)


def _received_fds(ancillary: list[tuple[int, int, bytes]]) -> list[int]:
    fds = array.array("i")
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - (len(data) % fds.itemsize)])
    return list(fds)


def _parse_request(data: bytes, given: int) -> dict[str, Any]:
    """The request, checked: a malformed one is refused, never half-run."""
    try:
        request = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("request is not JSON") from None
    if not isinstance(request, dict):
        raise ValueError("request is not an object")
    args, env, cwd = request.get("args"), request.get("env"), request.get("cwd")
    targets, tty = request.get("fds"), request.get("tty")
    if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
        raise ValueError("args must be a list of strings")
    if not (
        isinstance(env, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        and not any("=" in k or "\0" in k or "\0" in v for k, v in env.items())
    ):
        raise ValueError("env must map names to strings")
    if not (isinstance(cwd, str) and cwd):
        raise ValueError("cwd must be a path")
    if not (
        isinstance(targets, list)
        and len(targets) == given
        and all(
            isinstance(t, list) and t and all(type(n) is int and 0 <= n < 1024 for n in t)
            for t in targets
        )
    ):
        raise ValueError("fds must give the target numbers of each descriptor sent")
    if not isinstance(tty, bool):
        raise ValueError("tty must be true or false")
    return request


def _status_of(info: os.waitid_result) -> int:
    if info.si_code == os.CLD_EXITED:
        return int(info.si_status)
    return -int(info.si_status)  # killed or dumped: the signal, as asyncio reports it


def _send(sock: socket.socket, message: dict[str, Any]) -> bool:
    try:
        sock.send(json.dumps(message).encode())
    except OSError:  # the server closed its end, or is gone
        return False
    return True


def _close_all(fds: Sequence[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)


def _place_fds(given: Sequence[int], targets: Sequence[Sequence[int]]) -> None:
    """Each received descriptor at its target numbers; every other descriptor closed."""
    keep = {number for numbers in targets for number in numbers} | {0, 1, 2}
    floor = max(keep) + 1
    # first above every target, so that no placement overwrites a descriptor still to place
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, floor) for fd in given]
    for fd, numbers in zip(moved, targets, strict=True):
        for number in numbers:
            os.dup2(fd, number)
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in keep:
            with contextlib.suppress(OSError):  # the listing's own descriptor is gone
                os.close(int(name))


def _reset_signals(fresh: Mapping[int, Any]) -> None:
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    for signum, handler in fresh.items():
        with contextlib.suppress(OSError, ValueError, TypeError):
            signal.signal(signum, handler)


def _fresh_interpreter_state(args: list[str]) -> None:
    """What a new ``python -m unotable`` would have, and a forked launcher has not."""
    import locale
    import random

    gc.enable()
    random.seed()  # os.fork reseeds it too; a session must never replay another's deals
    sys.argv = ["unotable", *args]
    # the session's locale, coerced from C to C.UTF-8 as a new interpreter does (PEP 538)
    with contextlib.suppress(locale.Error):
        if locale.setlocale(locale.LC_CTYPE, "") in ("C", "POSIX"):
            locale.setlocale(locale.LC_CTYPE, "C.UTF-8")
    # Textual reads its settings (TEXTUAL_DRIVER for the web, TEXTUAL_FPS...) from the
    # environment when imported: read them again from the session's.
    if "textual.constants" in sys.modules:
        import importlib

        importlib.reload(sys.modules["textual.constants"])
    # a terminal's stdout is line-buffered in a new interpreter; the launcher's was not one
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stdout.reconfigure(line_buffering=os.isatty(1))  # type: ignore[union-attr]


def _run_entry(entry: Callable[[list[str]], Any], args: list[str]) -> int:
    try:
        return _exit_code(entry(args))
    except SystemExit as done:
        return _exit_code(done.code)


def _exit_code(code: object) -> int:
    """As the interpreter turns ``sys.exit(code)`` into a status."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def _print_error() -> None:
    import traceback

    with contextlib.suppress(Exception):
        traceback.print_exc()


def _finish(status: int) -> NoReturn:
    """End as the interpreter would (threads joined, exit handlers run, output flushed),
    without tearing down the launcher's heap."""
    import atexit

    with contextlib.suppress(BaseException):
        threading._shutdown()  # type: ignore[attr-defined]  # as multiprocessing does
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BaseException):
            stream.flush()
    os._exit(status)


def _preload(names: Sequence[str]) -> None:
    import pkgutil

    for name in names:
        if not name.endswith(".*"):
            import_module(name)
            continue
        package = import_module(name[:-2])
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.rsplit(".", 1)[-1].startswith("__"):
                import_module(module.name)
    if "rich.cells" in sys.modules:
        sys.modules["rich.cells"].cell_len("♥♦♣♠")  # loads rich's width tables


def _set_parent_death_signal() -> None:
    """SIGTERM when the server dies: a backup for the end of file on the control socket."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG


def _resolve(entry: str) -> Callable[..., Any]:
    module, _, name = entry.partition(":")
    function = getattr(import_module(module), name or "main")
    if not callable(function):
        raise TypeError(f"{entry} is not callable")
    return function  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unotable.serve.prefork")
    parser.add_argument("--fd", type=int, required=True, help="the control socket")
    parser.add_argument("--entry", default=ENTRY, help="module:function a session runs")
    parser.add_argument("--preload", default=",".join(PRELOAD), help="modules, comma-separated")
    parser.add_argument("--warm-up", default=WARM_UP, help="module:function run once ('': none)")
    parser.add_argument("--parent", type=int, default=0, help="the server's pid")
    parser.add_argument("--label", default="", help="for ps: the server's data dir")
    args = parser.parse_args(argv)
    # before anything changes them: a session starts with these, as a new interpreter does
    fresh_handlers = {
        signum: signal.getsignal(signum)
        for signum in signal.valid_signals()
        if signum not in (signal.SIGKILL, signal.SIGSTOP) and signal.getsignal(signum) is not None
    }
    # a table ends when its terminal hangs up or it is told to, even under a server that
    # was started ignoring those (nohup, a background job of a script)
    fresh_handlers[signal.SIGHUP] = signal.SIG_DFL
    fresh_handlers[signal.SIGTERM] = signal.SIG_DFL
    fresh_handlers[signal.SIGINT] = signal.default_int_handler
    gc.disable()  # until the freeze: no collection leaves holes in pages meant to be shared
    _set_parent_death_signal()
    if args.parent and os.getppid() != args.parent:
        return 0  # the server died before the signal was set
    control = socket.socket(fileno=args.fd)
    entry = _resolve(args.entry)
    _preload([name for name in args.preload.split(",") if name])
    if args.warm_up:
        try:
            _resolve(args.warm_up)()
        except Exception as error:  # sessions then start cold, as they did before
            print(f"unotable launcher: the warm-up failed: {error!r}", file=sys.stderr)
    if threading.active_count() > 1:  # a fork copies only the thread that forks
        print("unotable launcher: the imports or the warm-up left a thread", file=sys.stderr)
        return 1
    gc.collect()  # the imports' own garbage, once, before it is shared forever
    gc.freeze()
    try:
        control.send(json.dumps({"ready": os.getpid()}).encode())
    except OSError:
        return 0
    return _LauncherLoop(control, entry, fresh_handlers).run()


# -- the server's side ---------------------------------------------------------------------------


class ForkedProcess:
    """A session forked by the launcher: what ``asyncio.subprocess.Process`` offers the
    server (``pid``, ``returncode``, ``wait()``), though the launcher is its parent."""

    def __init__(self, pid: int, answers: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._answers = answers
        self._pidfd: int | None = None
        with contextlib.suppress(OSError, AttributeError):
            # the launcher keeps the child as a zombie until we close ``answers``: no reuse
            self._pidfd = os.pidfd_open(pid)
        self._ended = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        message: dict[str, Any] = {}
        with contextlib.suppress(OSError, ValueError):
            data = await loop.sock_recv(self._answers, 4096)
            message = json.loads(data) if data else {}
        status = message.get("status")
        if isinstance(status, int):
            self.returncode = status
            return
        await self._gone()  # the launcher died: the child is init's now
        self.returncode = LOST_STATUS

    async def _gone(self) -> None:
        if self._pidfd is None:
            while _alive(self.pid):
                await asyncio.sleep(0.2)
            return
        loop = asyncio.get_running_loop()
        exited: asyncio.Future[None] = loop.create_future()
        loop.add_reader(self._pidfd, _wake, exited)
        try:
            await exited
        finally:
            loop.remove_reader(self._pidfd)

    async def wait(self) -> int:
        await asyncio.shield(self._ended)
        assert self.returncode is not None
        return self.returncode

    def close(self) -> None:
        """Done with this session: the launcher may reap it."""
        self._ended.cancel()
        self._answers.close()
        if self._pidfd is not None:
            os.close(self._pidfd)
            self._pidfd = None


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Launcher:
    """The server's handle on its launcher: starts it, asks it for sessions, notices when
    it dies (one log line) and starts another."""

    def __init__(
        self,
        entry: str = ENTRY,
        preload: Sequence[str] = PRELOAD,
        env: Mapping[str, str] | None = None,
        label: str = "",
        warm_up: str = WARM_UP,
    ) -> None:
        self.entry = entry
        self.preload = tuple(preload)
        self.warm_up = warm_up
        self.label = label  # on its command line, which its sessions share: for ps
        # imports must see what a session's environment would hold, not the server's secrets
        source = os.environ if env is None else env
        self.env = {name: source[name] for name in SERVER_ENV_ALLOWED if name in source}
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._control: socket.socket | None = None
        self._starting: asyncio.Task[None] | None = None
        self._watching: asyncio.Task[None] | None = None
        self._closed = False
        self._failed_at: float | None = None

    @property
    def pid(self) -> int | None:
        """The launcher taking requests now, if any."""
        return self.process.pid if self.process is not None and self._control else None

    def start_soon(self) -> None:
        """Start it in the background: the first session waits for it if need be."""
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self._start())

    async def ready(self) -> None:
        """Wait until a launcher takes requests; raises LauncherUnavailable."""
        if self._closed:
            raise LauncherUnavailable("the server is stopping")
        if self._control is not None:
            return
        if self._starting is None or self._starting.done():
            if self._failed_at is not None and time.monotonic() - self._failed_at < RETRY_AFTER:
                raise LauncherUnavailable("it failed to start less than a minute ago")
            self.start_soon()
        assert self._starting is not None
        await asyncio.shield(self._starting)
        if self._control is None:
            raise LauncherUnavailable("it failed to start")

    async def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        process: asyncio.subprocess.Process | None = None
        try:
            with theirs:
                argv = [sys.executable, "-m", "unotable.serve.prefork"]
                argv += ["--fd", str(theirs.fileno()), "--entry", self.entry]
                argv += ["--preload", ",".join(self.preload), "--parent", str(os.getpid())]
                argv += ["--label", self.label, "--warm-up", self.warm_up]
                process = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=asyncio.subprocess.DEVNULL,
                    stdout=asyncio.subprocess.DEVNULL,
                    env=self.env,  # its errors go to the server's stderr, the log
                    pass_fds=(theirs.fileno(),),
                    start_new_session=True,  # the server's Ctrl+C is the server's
                )
            ours.setblocking(False)
            loop = asyncio.get_running_loop()
            data = await asyncio.wait_for(loop.sock_recv(ours, 4096), READY_TIMEOUT)
            if not data or "ready" not in json.loads(data):
                raise LauncherUnavailable(f"exited with status {await process.wait()}")
        except (OSError, ValueError, TimeoutError, LauncherUnavailable) as error:
            ours.close()
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
            self._failed_at = time.monotonic()
            log.warning(
                "session launcher could not start (%s); tables start as their own processes",
                str(error) or type(error).__name__,
            )
            return
        except BaseException:
            ours.close()
            if process is not None and process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                # reaped now: once the loop has closed, asyncio would print that it could not
                await asyncio.shield(process.wait())
            raise
        self._failed_at = None
        self.process, self._control = process, ours
        log.info("session launcher pid=%d ready", process.pid)
        self._watching = asyncio.get_running_loop().create_task(self._watch(process, ours))

    async def _watch(self, process: asyncio.subprocess.Process, control: socket.socket) -> None:
        status = await process.wait()
        if self._control is control:
            self._control = None
        control.close()
        if self._closed:
            return
        self.restarts += 1
        log.warning(
            "session launcher pid=%d exited with status %s; starting a new one; "
            "tables already open go on",
            process.pid,
            status,
        )
        self.start_soon()

    async def spawn(
        self,
        args: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        fds: Sequence[tuple[int, Sequence[int]]],
        tty: bool,
    ) -> ForkedProcess:
        """Fork a session running ``ENTRY(args)``: each ``(fd, numbers)`` of ``fds`` is
        placed at those numbers in the child. Raises LauncherUnavailable when no launcher
        answers (the caller may start the session another way)."""
        await self.ready()
        control = self._control
        assert control is not None
        request = json.dumps(
            {
                "args": list(args),
                "env": dict(env),
                "cwd": str(cwd),
                "fds": [list(numbers) for _, numbers in fds],
                "tty": tty,
            }
        ).encode()
        if len(request) > MAX_MESSAGE or len(fds) + 1 > MAX_FDS:
            raise ValueError("spawn request too large")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with theirs:
                await _send_with_fds(control, request, [theirs.fileno(), *(f for f, _ in fds)])
            ours.setblocking(False)
            loop = asyncio.get_running_loop()
            data = await asyncio.wait_for(loop.sock_recv(ours, 4096), ANSWER_TIMEOUT)
        except (OSError, TimeoutError) as error:
            ours.close()
            raise LauncherUnavailable(str(error) or type(error).__name__) from None
        except BaseException:
            ours.close()
            raise
        try:
            answer = json.loads(data) if data else {}
        except ValueError:
            answer = {}
        if not isinstance(answer, dict):
            answer = {}
        if isinstance(answer.get("pid"), int):
            return ForkedProcess(answer["pid"], ours)
        ours.close()
        if "error" in answer:
            raise OSError(f"session launcher: {answer['error']}")
        raise LauncherUnavailable("it went away")

    async def close(self) -> None:
        """Stop the launcher (sessions it forked are not its to end: they end with their
        pty)."""
        self._closed = True
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._starting
        control, self._control = self._control, None
        if control is not None:
            control.close()  # the launcher sees end of file and exits
        if self.process is not None and self.process.returncode is None:
            try:
                await asyncio.wait_for(asyncio.shield(self.process.wait()), 2.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()
        if self._watching is not None:
            self._watching.cancel()


async def _send_with_fds(sock: socket.socket, data: bytes, fds: list[int]) -> None:
    loop = asyncio.get_running_loop()
    ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
    while True:
        try:
            sock.sendmsg([data], ancillary)
            return
        except BlockingIOError:
            writable: asyncio.Future[None] = loop.create_future()
            loop.add_writer(sock, _wake, writable)
            try:
                await writable
            finally:
                loop.remove_writer(sock)


async def spawn_pty(
    launcher: Launcher,
    args: Sequence[str],
    env: Mapping[str, str],
    cols: int,
    rows: int,
    xpixels: int = 0,
    ypixels: int = 0,
    cwd: Path | None = None,
    fds: Mapping[int, int] | None = None,
) -> PtyChild:
    """As :meth:`PtyChild.spawn`, the session forked by ``launcher``. ``fds`` maps a
    descriptor of ours to its number in the child (``pass_fds`` would keep our number,
    which may be far above what the child needs)."""
    master, slave = os.openpty()
    try:
        set_window_size(slave, cols, rows, xpixels, ypixels)
        placed = [(slave, (0, 1, 2)), *((fd, (number,)) for fd, number in (fds or {}).items())]
        process = await launcher.spawn(args, env, cwd or Path.cwd(), placed, tty=True)
    except BaseException:
        os.close(master)
        raise
    finally:
        os.close(slave)
    os.set_blocking(master, False)
    return PtyChild(process, master, release=process.close)


class PipedProcess:
    """A session forked by the launcher on three pipes: what textual-serve uses of an
    ``asyncio.subprocess.Process`` (``stdin``, ``stdout``, ``stderr``, ``pid``,
    ``returncode``, ``wait()``)."""

    def __init__(
        self,
        process: ForkedProcess,
        stdin: asyncio.StreamWriter,
        stdout: asyncio.StreamReader,
        stderr: asyncio.StreamReader,
        transports: list[asyncio.BaseTransport],
    ) -> None:
        self.forked = process
        self.pid = process.pid
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr
        self._transports = transports

    @property
    def returncode(self) -> int | None:
        return self.forked.returncode

    async def wait(self) -> int:
        return await self.forked.wait()

    def close(self) -> None:
        for transport in self._transports:
            transport.close()
        self.forked.close()


async def spawn_piped(
    launcher: Launcher, args: Sequence[str], env: Mapping[str, str], cwd: Path
) -> PipedProcess:
    """The session forked by ``launcher`` with pipes for stdin, stdout and stderr."""
    loop = asyncio.get_running_loop()
    ends = [os.pipe() for _ in range(3)]  # (read, write) each
    theirs = [ends[0][0], ends[1][1], ends[2][1]]
    ours = [ends[0][1], ends[1][0], ends[2][0]]
    try:
        process = await launcher.spawn(
            args, env, cwd, [(fd, (number,)) for number, fd in enumerate(theirs)], tty=False
        )
    except BaseException:
        _close_all(ours)
        raise
    finally:
        _close_all(theirs)
    files = [os.fdopen(ours[0], "wb", buffering=0)]
    files += [os.fdopen(fd, "rb", buffering=0) for fd in ours[1:]]
    transports: list[asyncio.BaseTransport] = []
    try:
        readers = []
        for pipe in files[1:]:
            reader = asyncio.StreamReader(limit=2**16)
            transport, _ = await loop.connect_read_pipe(
                lambda reader=reader: asyncio.StreamReaderProtocol(reader), pipe
            )
            transports.append(transport)
            readers.append(reader)
        write_transport, protocol = await loop.connect_write_pipe(
            lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), files[0]
        )
        transports.append(write_transport)
        stdin = asyncio.StreamWriter(write_transport, protocol, None, loop)
    except BaseException:
        for transport in transports:
            transport.close()
        for file in files:
            file.close()  # a no-op for those a transport closed
        process.close()
        raise
    return PipedProcess(process, stdin, readers[0], readers[1], transports)


if __name__ == "__main__":
    sys.exit(main())
