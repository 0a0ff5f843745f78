"""Hosting that strangers cannot abuse: what a served table may write, what the web server
lets in and at what size, how a real OpenSSH client is left at Ctrl+C, how the server
refuses to start, and the log line each refusal leaves. Everything on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest
from test_app_support import until
from test_serve_ssh import (
    FIRST_SCREEN,
    WAIT,
    connect,
    open_table,
    read_until,
    running_table,
    screen_text,
)

from unotable.serve import ServeError
from unotable.serve.child import MAX_SIZE
from unotable.serve.ssh import HOST_KEY_NAME, load_host_key

# -- 1. a served table's palette, and nothing written outside its data dir ---------------------

# The app's own palette commands: they open its screens, and write only in the data dir.
APP_COMMANDS = {
    "New match",
    "Continue",
    "Saved matches",
    "Shared tables",
    "Keys list",
    "Settings",
    "Statistics",
    "Rules: UNO",
    "Rules: UNO Minecraft",
    "Rules: UNO Hearts",
    "Rules: Wild Twist Hearts",
}
# Textual's palette commands that write files; a served player must not be offered them.
FILE_WRITING_COMMANDS = {"Screenshot", "Save screenshot"}


def files_under(root: Path, skip: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder below ``root`` but outside ``skip``: path -> (size, mtime)."""
    found = {}
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = [d for d in dirs if here / d != skip]
        for name in dirs + files:
            path = here / name
            info = path.lstat()
            found[str(path.relative_to(root))] = (info.st_size, info.st_mtime_ns)
    return found


async def palette_titles(pilot: Any) -> tuple[Any, list[str]]:
    """Open the command palette and read every command it offers (all providers done)."""
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette opens")
    palette = app.screen
    commands = palette.query_one(CommandList)

    def gathered() -> bool:
        busy = any(
            w.group == CommandPalette._GATHER_COMMANDS_GROUP and not w.is_finished
            for w in app.workers
        )
        return commands.option_count > 0 and not busy

    await until(pilot, gathered, "the palette lists its commands")
    titles = [
        str(commands.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(commands.option_count)
    ]
    return palette, titles


async def choose(pilot: Any, palette: Any, title: str) -> None:
    """Highlight ``title`` in an open palette and press Enter, as a player would."""
    from textual.command import CommandList

    commands = palette.query_one(CommandList)
    titles = [
        str(commands.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(commands.option_count)
    ]
    commands.highlighted = titles.index(title)
    await pilot.press("enter")


@pytest.fixture
def served_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """A home (with ~/Downloads) and a working directory, both empty, for one app."""
    home, cwd = tmp_path / "home", tmp_path / "cwd"
    (home / "Downloads").mkdir(parents=True)
    cwd.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for name in list(os.environ):
        if name.startswith(("XDG_", "TEXTUAL")):
            monkeypatch.delenv(name)
    monkeypatch.chdir(cwd)
    return {"home": home, "cwd": cwd, "data": tmp_path / "data", "root": tmp_path}


async def test_unserved_palette_offers_a_screenshot(
    served_home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The probe below can see a file-writing command when there is one.
    from unotable.app.main import UnoTableApp

    monkeypatch.delenv("UNOTABLE_SERVED", raising=False)
    app = UnoTableApp(data_dir=served_home["data"])
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.first_frame_shown, "the lobby is drawn")
        _, titles = await palette_titles(pilot)
    assert "Screenshot" in titles, titles


async def test_served_session_runs_every_command_and_writes_only_its_data_dir(
    served_home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import HelpPanel

    from unotable.app.main import UnoTableApp

    monkeypatch.setenv("UNOTABLE_SERVED", "1")  # as unotable serve starts every table
    root, data = served_home["root"], served_home["data"]
    before = files_under(root, skip=data)
    app = UnoTableApp(data_dir=data)
    effects: dict[str, Callable[[], bool]] = {
        "Keys": lambda: bool(app.screen.query(HelpPanel)),
        "Maximize": lambda: app.screen.maximized is not None,
        "Minimize": lambda: app.screen.maximized is None,
    }
    ran: list[str] = []
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: app.first_frame_shown, "the lobby is drawn")
        # A player asking for files directly, or by an action name, gets nothing.
        assert app.deliver_screenshot() is None
        app.action_screenshot()
        await app.run_action("screenshot")
        with pytest.raises(PermissionError):
            app.save_screenshot()
        with pytest.raises(PermissionError):
            app.save_screenshot("shot.svg", str(served_home["cwd"]))
        assert app.deliver_text(io.StringIO("x"), save_filename="x.txt") is None
        assert app.deliver_binary(io.BytesIO(b"x"), save_filename="x.bin") is None

        textual_safe = {"Theme", "Quit", "Keys", "Minimize", "Maximize"}
        for _ in range(10):  # each of Textual's commands once; Quit ends the loop
            palette, titles = await palette_titles(pilot)
            offered = set(titles)
            assert not offered & FILE_WRITING_COMMANDS, titles
            # Textual's safe commands, and the app's own (rules, keys, settings, matches)
            assert offered - textual_safe <= APP_COMMANDS, titles
            # Textual's commands are run here; the app's own are tests/test_app_palette.py's
            left = [t for t in titles if t not in ran and t != "Quit" and t in textual_safe]
            title = left[0] if left else "Quit"
            ran.append(title)
            if title == "Quit":
                await choose(pilot, palette, "Quit")
                break
            theme = app.theme
            await choose(pilot, palette, title)
            if title == "Theme":
                # A second palette lists the themes; pick another one.
                themes, names = await palette_titles_open(pilot)
                other = next(name for name in names if name != theme)
                await choose(pilot, themes, other)
                await until(pilot, lambda old=theme: app.theme != old, "the theme changes")
            else:
                await until(pilot, effects[title], f"{title} takes effect")
        await until(pilot, lambda: app._exit, "the app quits")
    assert ran[-1] == "Quit" and {"Theme", "Keys"} <= set(ran), ran
    after = files_under(root, skip=data)
    assert after == before, {k: v for k, v in after.items() if before.get(k) != v}
    assert not any((served_home["home"] / "Downloads").iterdir())


async def palette_titles_open(pilot: Any) -> tuple[Any, list[str]]:
    """The titles of a palette that a command has just opened (no Ctrl+P)."""
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, CommandPalette), "a palette opens")
    commands = app.screen.query_one(CommandList)
    await until(pilot, lambda: commands.option_count > 1, "the palette lists its choices")
    titles = [
        str(commands.get_option_at_index(i).prompt).split("\n")[0]
        for i in range(commands.option_count)
    ]
    return app.screen, titles


# A stand-in SSH app: the working directory its table was started in.
CWD_APP = r"""
import os
print("cwd", os.getcwd(), flush=True)
os.read(0, 1)
"""


async def test_ssh_table_starts_in_its_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A relative path the app writes lands in the player's folder, not the server's cwd.
    script = tmp_path / "cwd_app.py"
    script.write_text(CWD_APP)
    server_cwd = tmp_path / "server-cwd"
    server_cwd.mkdir()
    monkeypatch.chdir(server_cwd)
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    data = tmp_path / "data"
    argv = lambda data_dir: [sys.executable, str(script)]  # noqa: E731
    async with (
        running_table(host_key, data_dir=data, app_argv=argv) as table,
        connect(table, username="zoe") as conn,
    ):
        process = await open_table(conn)
        output = (await read_until(process, b"\r\n")).decode()
    assert f"cwd {data / 'users' / 'zoe'}" in output, output


# -- 2. the web server: foreign pages refused, absurd sizes clamped ----------------------------

# A stand-in for the app textual-serve runs: textual-serve's packets on stdin and stdout.
# It reports the size it was started at and every resize it is sent, until told to quit.
WEB_STUB_APP = r"""
import json, os, sys
out, inp = sys.stdout.buffer, sys.stdin.buffer
def send(text):
    data = text.encode()
    out.write(b"D" + len(data).to_bytes(4, "big") + data)
    out.flush()
out.write(b"__GANGLION__\n")
send(f"[start {os.environ['COLUMNS']}x{os.environ['ROWS']} cwd={os.getcwd()}]")
while len(head := inp.read(5)) == 5:
    payload = inp.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"M":
        meta = json.loads(payload)
        if meta["type"] == "resize":
            send(f"[resize {meta['width']}x{meta['height']}]")
        elif meta["type"] == "quit":
            break
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.asynccontextmanager
async def web_table(tmp_path: Path) -> Any:
    """The web server of ``unotable serve web``, in-process on 127.0.0.1, with the stub app."""
    from aiohttp import web as aioweb

    from unotable.serve.web import make_server

    script = tmp_path / "web_stub.py"
    script.write_text(WEB_STUB_APP)
    port = free_port()
    server = make_server(
        "127.0.0.1",
        port,
        tmp_path / "data",
        None,
        shutdown_grace=2.0,
        argv=lambda _: [sys.executable, str(script)],
    )
    runner = aioweb.AppRunner(await server._make_app())
    await runner.setup()
    try:
        await aioweb.TCPSite(runner, "127.0.0.1", port).start()
        yield port
    finally:
        await asyncio.wait_for(runner.cleanup(), WAIT)


async def receive_text(websocket: Any, needle: str, seen: list[str]) -> str:
    """Binary messages from the app until one holds ``needle``; fails after WAIT."""
    deadline = time.monotonic() + WAIT
    while True:
        message = await websocket.receive(timeout=max(0.01, deadline - time.monotonic()))
        assert message.type == aiohttp.WSMsgType.BINARY, (message, seen)
        seen.append(message.data.decode())
        if needle in seen[-1]:
            return seen[-1]


async def test_web_refuses_foreign_origins(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    async with web_table(tmp_path) as port, aiohttp.ClientSession(trust_env=False) as http:
        url = f"http://127.0.0.1:{port}/ws?width=100&height=30"
        foreign = [
            "http://evil.example",
            f"http://evil.example:{port}",  # DNS rebinding: the right port, another name
            f"http://127.0.0.1:{port + 1}",  # another local site
            f"https://127.0.0.1:{port}",
            "null",  # a sandboxed frame or a file: page
        ]
        for origin in foreign:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await asyncio.wait_for(http.ws_connect(url, origin=origin), WAIT)
            assert refused.value.status == 403, origin
        for origin in (f"http://127.0.0.1:{port}", f"http://localhost:{port}"):
            async with http.ws_connect(
                url, origin=origin, timeout=aiohttp.ClientWSTimeout(WAIT)
            ) as websocket:
                await receive_text(websocket, "[start 100x30", [])
    assert (
        "refused 127.0.0.1 user=- method=websocket reason=foreign origin 'http://evil.example'"
        in caplog.text
    )


async def test_web_sizes_are_clamped(tmp_path: Path) -> None:
    async with web_table(tmp_path) as port, aiohttp.ClientSession(trust_env=False) as http:
        url = f"http://127.0.0.1:{port}/ws?width=5000&height=5000"
        origin = f"http://127.0.0.1:{port}"
        seen: list[str] = []
        async with http.ws_connect(
            url, origin=origin, timeout=aiohttp.ClientWSTimeout(WAIT)
        ) as websocket:
            started = await receive_text(websocket, "[start", seen)
            assert started.startswith(f"[start {MAX_SIZE[0]}x{MAX_SIZE[1]} ")
            print(f"5000x5000 asked; the table got {started}")
            assert f"cwd={tmp_path / 'data' / 'web'}]" in started  # and starts in its folder
            for asked, got in (
                ((5000, 5000), MAX_SIZE),
                ((0, 0), (80, 24)),
                ((-3, 10**9), (1, MAX_SIZE[1])),
                ((120, 40), (120, 40)),
            ):
                await websocket.send_json(["resize", {"width": asked[0], "height": asked[1]}])
                await receive_text(websocket, f"[resize {got[0]}x{got[1]}]", seen)
        assert MAX_SIZE == (1000, 1000)


# -- 3. a real OpenSSH client at server Ctrl+C ------------------------------------------------

OPENSSH = "/usr/bin/ssh"
# Modes the app turns on that the client's terminal must have off again (1049: alternate
# screen; 1000-1006: mouse reports; 2004: bracketed paste), and the cursor shown (25).
MODES_OFF = (1049, 1000, 1002, 1003, 1006, 2004)


def last_setting(output: bytes, mode: int) -> bytes | None:
    """b"h" or b"l": how the output last set private mode ``mode`` (None: never)."""
    found = re.findall(rb"\x1b\[\?(?:\d+;)*%d(?:;\d+)*([hl])" % mode, output)
    return found[-1] if found else None


class PtyReader:
    """Collects what a process writes to a pty, from the event loop."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.data = bytearray()
        self.eof = False
        self._more = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        os.set_blocking(master, False)
        self._loop.add_reader(master, self._read)

    def _read(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: nobody holds the pty's other side any more
            chunk = b""
        if chunk:
            self.data += chunk
        else:
            self.eof = True
            self._loop.remove_reader(self.master)
        self._more.set()

    async def until(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            assert not self.eof, f"ended before {what}: {screen_text(bytes(self.data))[-600:]!r}"
            self._more.clear()
            left = deadline - time.monotonic()
            assert left > 0, f"no {what}: {screen_text(bytes(self.data))[-600:]!r}"
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._more.wait(), left)

    def close(self) -> None:
        if not self.eof:
            self._loop.remove_reader(self.master)
        os.close(self.master)


async def start_ssh_server(tmp_path: Path, *argv: str) -> tuple[Any, int]:
    """``unotable serve ssh`` as a process on 127.0.0.1 and a free port: (process, port)."""
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "unotable",
        "serve",
        "ssh",
        "--port",
        "0",
        "--data-dir",
        str(tmp_path / "served-data"),
        *argv,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert server.stdout is not None and server.stderr is not None
    banner = b""
    while b"Ctrl+C" not in banner:
        line = await asyncio.wait_for(server.stdout.readline(), WAIT)
        if not line:
            server.kill()
            raise AssertionError(f"server ended early: {await server.stderr.read()!r}")
        banner += line
    return server, int(re.search(rb"port (\d+)", banner)[1])  # type: ignore[index]


@pytest.mark.skipif(not os.access(OPENSSH, os.X_OK), reason=f"no OpenSSH client at {OPENSSH}")
async def test_openssh_client_exits_0_with_its_terminal_restored(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    authorized = tmp_path / "authorized_keys"
    authorized.write_bytes(key.export_public_key())
    server, port = await start_ssh_server(tmp_path, "--authorized-keys", str(authorized))
    master, slave = os.openpty()
    termios.tcsetwinsize(slave, (30, 100))
    cooked = termios.tcgetattr(slave)
    reader = PtyReader(master)
    client = None
    try:
        client = await asyncio.create_subprocess_exec(
            OPENSSH,
            "-tt",
            "-F",
            "/dev/null",
            "-o",
            "BatchMode=yes",
            "-o",
            "StrictHostKeyChecking=no",
            "-o",
            "UserKnownHostsFile=/dev/null",
            "-o",
            "GlobalKnownHostsFile=/dev/null",
            "-o",
            "IdentitiesOnly=yes",
            "-o",
            "LogLevel=ERROR",
            "-i",
            str(key_file),
            "-p",
            str(port),
            "ann@127.0.0.1",
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={"PATH": os.environ.get("PATH", "/usr/bin"), "TERM": "xterm-256color"},
            start_new_session=True,
        )
        await reader.until(lambda: FIRST_SCREEN in screen_text(bytes(reader.data)), "the list")
        shown = len(reader.data)
        assert last_setting(bytes(reader.data), 1049) == b"h"  # the app is on the alt screen
        assert last_setting(bytes(reader.data), 1000) == b"h"  # and reads the mouse
        assert termios.tcgetattr(slave)[3] & termios.ICANON == 0  # ssh made the tty raw

        server.send_signal(signal.SIGINT)
        stopped = time.monotonic()
        status = await asyncio.wait_for(client.wait(), WAIT)
        took = time.monotonic() - stopped
        restored = termios.tcgetattr(slave)
        os.close(slave)
        slave = -1
        await reader.until(lambda: reader.eof, "the end of the client's output")
        print(f"Ctrl+C to ssh exit: {took:.2f}s")

        output = bytes(reader.data)
        assert status == 0, screen_text(output[shown:])
        for mode in MODES_OFF:
            assert last_setting(output, mode) == b"l", (mode, output[-400:])
        assert last_setting(output, 25) == b"h", output[-400:]
        notice = b"unotable: the server is shutting down. Your match is saved."
        assert output.rstrip().endswith(notice), output[-400:]
        assert output.rfind(b"\x1b[?1049l") < output.rfind(notice)
        # ssh gave the terminal back as it found it (cooked: line editing and echo).
        assert restored[3] & (termios.ICANON | termios.ECHO) == cooked[3] & (
            termios.ICANON | termios.ECHO
        )
        assert await asyncio.wait_for(server.wait(), WAIT) == 0
        log = (await asyncio.wait_for(server.stderr.read(), WAIT)).decode()  # type: ignore[union-attr]
        assert re.search(r"disconnect 127\.0\.0\.1:\d+ user=ann after \d+s", log), log
    finally:
        if client is not None and client.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(client.pid, signal.SIGKILL)
            await client.wait()
        if server.returncode is None:
            server.kill()
            await server.wait()
        if slave >= 0:
            os.close(slave)
        reader.close()


# -- 4. start-up errors: one line, exit status 1 (2 for usage) -------------------------------


def _host_key(mode: int | None, text: str | None = None) -> Callable[[Path], list[str]]:
    def make(data: Path) -> list[str]:
        key = data / HOST_KEY_NAME
        if mode is None:
            key.mkdir()
        else:
            key.write_bytes(
                text.encode()
                if text
                else asyncssh.generate_private_key("ssh-ed25519").export_private_key()
            )
            key.chmod(mode)
        return ["--password-env", "UNOTABLE_TEST_PW"]

    return make


def _keys_file(content: str | None, mode: int = 0o600) -> Callable[[Path], list[str]]:
    def make(data: Path) -> list[str]:
        path = data.parent / "authorized"
        if content is None:
            path.mkdir()
        else:
            path.write_text(content)
            path.chmod(mode)
        return ["--authorized-keys", str(path)]

    return make


def _busy_port(data: Path, port: int = 0) -> list[str]:
    return ["--password-env", "UNOTABLE_TEST_PW", "--port", str(port)]


START_UP_ERRORS = {
    "host key 0644": (_host_key(0o644), "can be read by others (mode 0644); run: chmod 600"),
    "host key 0640": (_host_key(0o640), "can be read by others (mode 0640)"),
    "host key 0604": (_host_key(0o604), "can be read by others (mode 0604)"),
    "host key 0660": (_host_key(0o660), "can be read by others (mode 0660)"),
    "host key not a key": (_host_key(0o600, "not a key\n"), "is not a usable private key"),
    "host key a folder": (_host_key(None), "is not a file"),
    "port in use": (_busy_port, "cannot listen on 127.0.0.1 port"),
    "keys not keys": (_keys_file("this is not a key\n"), "cannot use"),
    "keys a folder": (_keys_file(None), "not a file"),
    "keys missing": (lambda d: ["--authorized-keys", str(d / "nope")], "no such file"),
    "password unset": (lambda d: ["--password-env", "UNOTABLE_TEST_UNSET"], "not set or empty"),
    "password empty": (lambda d: ["--password-env", "UNOTABLE_TEST_EMPTY"], "not set or empty"),
    "no way in": (lambda d: [], "authorized_keys does not exist"),
    "data dir a file": (
        lambda d: ["--password-env", "UNOTABLE_TEST_PW", "--data-dir", str(d.parent / "file")],
        "not a directory",
    ),
    "port 65536": (lambda d: ["--port", "65536"], "argument --port: port must be 0-65535"),
    "port x": (lambda d: ["--port", "x"], "argument --port: invalid port: 'x'"),
    "sessions 0": (
        lambda d: ["--max-sessions", "0"],
        "argument --max-sessions: must be at least 1",
    ),
    "idle -1": (lambda d: ["--idle-timeout", "-1"], "argument --idle-timeout: minutes must be"),
    "delay abc": (lambda d: ["--auth-delay", "abc"], "argument --auth-delay: invalid number"),
    "grace 1e9": (lambda d: ["--shutdown-grace", "1e9"], "argument --shutdown-grace: seconds"),
}
if os.geteuid() != 0:  # root reads any file
    START_UP_ERRORS["keys unreadable"] = (_keys_file("x\n", 0o000), "cannot use")
# bad command-line usage exits 2; the rest are runtime errors, exit 1
USAGE_ERRORS = {
    "no way in", "port 65536", "port x", "sessions 0", "idle -1", "delay abc", "grace 1e9"
}  # fmt: skip


@pytest.mark.parametrize("case", list(START_UP_ERRORS))
def test_each_start_up_error_is_one_line_and_its_exit_status(tmp_path: Path, case: str) -> None:
    make, says = START_UP_ERRORS[case]
    home, data = tmp_path / "home", tmp_path / "data"
    home.mkdir()
    data.mkdir()
    (tmp_path / "file").write_text("")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        extra = make(data, busy.getsockname()[1]) if make is _busy_port else make(data)
        argv = ["--port", "0", "--data-dir", str(data), *extra]
        env = {k: v for k, v in os.environ.items() if not k.startswith("UNOTABLE_TEST")}
        env.update(HOME=str(home), UNOTABLE_TEST_PW="pw", UNOTABLE_TEST_EMPTY="")
        done = subprocess.run(
            [sys.executable, "-m", "unotable", "serve", "ssh", *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            timeout=60,
        )
    status = 2 if case in USAGE_ERRORS else 1
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("unotable serve ssh: error: "), done.stderr
    assert says in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.mark.parametrize("mode", [0o600, 0o400], ids=oct)
def test_an_owner_only_host_key_is_used(tmp_path: Path, mode: int) -> None:
    made, path, _ = load_host_key(tmp_path)
    path.chmod(mode)
    key, _, created = load_host_key(tmp_path)
    assert not created and key.get_fingerprint() == made.get_fingerprint()


@pytest.mark.parametrize(
    "mode", [0o644, 0o640, 0o604, 0o660, 0o606, 0o610, 0o601, 0o700 | 0o004], ids=oct
)
def test_a_host_key_others_can_reach_is_refused(tmp_path: Path, mode: int) -> None:
    _, path, _ = load_host_key(tmp_path)
    path.chmod(mode)
    with pytest.raises(ServeError, match=rf"mode {mode:04o}\); run: chmod 600"):
        load_host_key(tmp_path)


# -- 5. a log line for every refusal --------------------------------------------------------


async def test_every_refusal_leaves_a_log_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    host_key = asyncssh.generate_private_key("ssh-ed25519")
    player = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    authorized = asyncssh.import_authorized_keys(player.export_public_key().decode())
    async with running_table(
        host_key,
        data_dir=tmp_path,
        open_access=False,
        authorized_keys=authorized,
        password="sesame",
        auth_delay=0,
    ) as table:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(
                table, username="mallory", password="open sesame", preferred_auth="password"
            )
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, username="eve", client_keys=[stranger], preferred_auth="publickey")
        async with connect(table, username="ann", client_keys=[player]) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(conn.create_process("cat /etc/passwd"), WAIT)
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
                await asyncio.wait_for(conn.start_sftp_client(), WAIT)
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(
                    conn.create_connection(asyncssh.SSHTCPSession, "169.254.169.254", 80), WAIT
                )
            with pytest.raises(asyncssh.ChannelListenError):
                await asyncio.wait_for(
                    conn.forward_remote_port("127.0.0.1", 8022, "127.0.0.1", 22), WAIT
                )
            with pytest.raises(asyncssh.ChannelOpenError):
                await asyncio.wait_for(
                    conn.create_unix_connection(asyncssh.SSHUNIXSession, "/run/docker.sock"), WAIT
                )
            with pytest.raises(asyncssh.ChannelListenError):
                await asyncio.wait_for(
                    conn.forward_remote_path("/tmp/unotable-test.sock", "/tmp/x.sock"), WAIT
                )
            assert not table.children
    address = "refused 127.0.0.1"
    expected = [
        f"{address} user=mallory method=password reason=wrong password",
        f"{address} user=eve method=publickey reason=key {stranger.get_fingerprint()} "
        "not authorized",
        f"{address} user=ann method=exec reason=exec request 'cat /etc/passwd'",
        f"{address} user=ann method=subsystem reason=subsystem request 'sftp'",
        f"{address} user=ann method=direct-tcpip reason=port forward to 169.254.169.254:80",
        f"{address} user=ann method=tcpip-forward reason=remote forward from 127.0.0.1:8022",
        f"{address} user=ann method=direct-streamlocal reason=socket forward to '/run/docker.sock'",
        f"{address} user=ann method=streamlocal-forward reason=socket forward from "
        "'/tmp/unotable-test.sock'",
    ]
    lines = caplog.text.splitlines()
    for line in expected:
        assert sum(line in logged for logged in lines) == 1, f"{line!r} not once in:\n{caplog.text}"
