"""The SSH table, served in-process on 127.0.0.1 and a free port, with real SSH clients."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from unotable.serve.child import child_env
from unotable.serve.paths import safe_name
from unotable.serve.ssh import SshSettings, SshTable, load_host_key

# A stand-in app: reports what it was given, then echoes keys in hex until "q".
STUB_APP = r"""
import os, signal, sys, tty
def show(tag):
    cols, rows = os.get_terminal_size(0)
    os.write(1, f"[{tag} {cols}x{rows}]\r\n".encode())
signal.signal(signal.SIGWINCH, lambda *_: show("size"))
env = " ".join(f"{k}={os.environ.get(k)}" for k in ("TERM", "COLORTERM", "LANG", "COLUMNS",
                                                    "LINES", "SECRET"))
print("env", env, flush=True)
print("data-dir", sys.argv[1], flush=True)
sys.stderr.write("said-on-stderr\n")
sys.stderr.flush()
tty.setraw(0)
show("size")
while (data := os.read(0, 100)) != b"q":
    os.write(1, b"key:" + data.hex().encode() + b"\r\n")
sys.exit(3)
"""

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up
FIRST_SCREEN = "Shared tables on this server"  # a served player's first screen
ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


@pytest.fixture(scope="module")
def host_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture(scope="module")
def player_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def stub_argv(tmp_path: Path) -> Callable[[Path], list[str]]:
    script = tmp_path / "stub_app.py"
    script.write_text(STUB_APP)
    return lambda data_dir: [sys.executable, str(script), str(data_dir)]


@asynccontextmanager
async def running_table(host_key: asyncssh.SSHKey, **settings: Any) -> AsyncIterator[SshTable]:
    settings.setdefault("open_access", True)
    table = SshTable(SshSettings(host="127.0.0.1", port=0, **settings), host_key)
    await table.start()
    try:
        yield table
    finally:
        pids = [child.pid for child in table.children]
        await table.close()
        for pid in pids:
            await wait_until(lambda pid=pid: not pid_alive(pid))
        assert not table.children


def connect(table: SshTable, username: str = "alice", **options: Any) -> Any:
    options.setdefault("client_keys", None)
    return asyncssh.connect(
        "127.0.0.1",
        table.port,
        username=username,
        known_hosts=None,
        agent_path=None,
        config=[],
        **options,
    )


async def open_table(conn: asyncssh.SSHClientConnection, **options: Any) -> Any:
    options.setdefault("term_type", "xterm-256color")
    options.setdefault("term_size", (100, 30))
    return await conn.create_process(encoding=None, **options)


async def read_until(process: Any, needle: bytes, seen: bytearray | None = None) -> bytes:
    """The client's output up to and including ``needle``; fails after WAIT seconds."""
    seen = bytearray() if seen is None else seen
    deadline = time.monotonic() + WAIT
    while needle not in seen:
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), deadline - time.monotonic())
        except TimeoutError:
            chunk = None
        assert chunk, f"no {needle!r} in the output: {bytes(seen)[-400:]!r}"
        seen += chunk
    return bytes(seen)


def screen_text(output: bytes) -> str:
    """The text a terminal would show, without escape sequences."""
    return ESCAPES.sub(b"", output).decode("utf-8", "replace")


async def read_screen_until(process: Any, text: str, seen: bytearray) -> None:
    deadline = time.monotonic() + WAIT
    while text not in screen_text(seen):
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), deadline - time.monotonic())
        except TimeoutError:
            chunk = None
        assert chunk, f"no {text!r} on screen; it shows {screen_text(seen)[-800:]!r}"
        seen += chunk


async def settle(process: Any, seen: bytearray, quiet: float = 0.5) -> None:
    """Read until the app has drawn nothing for ``quiet`` seconds: it is ready for keys."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), quiet)
        except TimeoutError:
            return
        assert chunk, f"session ended: {screen_text(seen)[-600:]!r}"
        seen += chunk


async def go_to_lobby(process: Any, seen: bytearray) -> None:
    """From the Shared tables list a served player starts at, Esc: the lobby, ready."""
    await read_screen_until(process, FIRST_SCREEN, seen)
    await settle(process, seen)
    process.stdin.write(b"\x1b")
    await read_screen_until(process, "Wild Twist Hearts", seen)  # the lobby's game list
    await settle(process, seen)


async def read_to_end(process: Any) -> bytes:
    seen = bytearray()
    while chunk := await asyncio.wait_for(process.stdout.read(65536), WAIT):
        seen += chunk
    return bytes(seen)


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "condition never became true"
        await asyncio.sleep(0.02)


async def act_until_saved(process: Any, seen: bytearray, saved: Callable[[], bool]) -> None:
    """Wait for the first save. The match is dealt from a random seed, so its first card
    may be a Wild whose colour the human chooses in a dialog that takes no D: answer it."""
    deadline = time.monotonic() + WAIT
    answered = False
    while not saved():
        shown = screen_text(seen)
        assert time.monotonic() < deadline, f"nothing saved; the screen shows {shown[-600:]!r}"
        if not answered and "Enter or a number to choose" in shown:  # the dialog
            process.stdin.write(b"1")
            answered = True
        try:
            chunk = await asyncio.wait_for(process.stdout.read(65536), 0.05)
        except TimeoutError:
            continue
        assert chunk, f"session ended: {shown[-600:]!r}"
        seen += chunk


async def test_real_app_lobby_then_continue_after_a_drop(
    tmp_path: Path, host_key: asyncssh.SSHKey
) -> None:
    # The real app, `python -m unotable --data-dir <data>/users/bob`, in its own process.
    saved = tmp_path / "users" / "bob" / "matches"  # one file per match
    async with running_table(host_key, data_dir=tmp_path) as table:
        conn = await connect(table, username="bob")
        process = await open_table(conn)
        seen = bytearray()
        await go_to_lobby(process, seen)
        [child] = table.children
        process.stdin.write(b"s")  # Start
        await read_screen_until(process, "Your hand", seen)
        process.stdin.write(b"d")  # Draw: a move, so the match is autosaved
        await act_until_saved(process, seen, lambda: any(saved.glob("*.json")))
        conn.abort()  # the connection drops
        await wait_until(lambda: not table.sessions and not pid_alive(child.pid))

        async with connect(table, username="bob") as conn:
            process = await open_table(conn)
            seen = bytearray()
            # with a match to continue, a served player arrives at the lobby
            await read_screen_until(process, "Wild Twist Hearts", seen)
            await settle(process, seen)
            process.stdin.write(b"c")  # Continue
            await read_screen_until(process, "Your hand", seen)


async def test_pty_env_size_keys_and_exit(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with (
        running_table(host_key, data_dir=tmp_path, app_argv=stub_argv) as table,
        connect(table, username="carol") as conn,
    ):
        client_env = {"LANG": "C.UTF-8", "COLORTERM": "truecolor", "COLUMNS": "9"}
        process = await open_table(conn, env={**client_env, "SECRET": "x"})
        seen = bytearray()
        await read_until(process, b"[size 100x30]", seen)
        text = seen.decode()
        assert "TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8" in text
        assert "COLUMNS=None LINES=None SECRET=None" in text
        assert f"data-dir {tmp_path / 'users' / 'carol'}" in text
        assert "said-on-stderr" in text

        process.change_terminal_size(120, 40)
        await read_until(process, b"[size 120x40]", seen)
        process.stdin.write(b"\x1b[A")
        await read_until(process, b"key:1b5b41", seen)

        process.stdin.write(b"q")
        await read_to_end(process)
        await asyncio.wait_for(process.wait_closed(), WAIT)
        assert process.exit_status == 3


async def test_dropped_connection_ends_the_app(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with running_table(host_key, data_dir=tmp_path, app_argv=stub_argv) as table:
        conn = await connect(table)
        process = await open_table(conn)
        await read_until(process, b"[size")
        [child] = table.children
        conn.abort()
        await wait_until(lambda: not table.sessions and not pid_alive(child.pid))


async def test_idle_session_is_closed(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with (
        running_table(host_key, data_dir=tmp_path, app_argv=stub_argv, idle_timeout=0.5) as table,
        connect(table) as conn,
    ):
        process = await open_table(conn)
        await read_until(process, b"[size")
        [child] = table.children
        tail = await read_to_end(process)
        assert b"idle too long" in tail
        assert b"\x1b[?1049l" in tail  # the client's terminal is given back
        await wait_until(lambda: not pid_alive(child.pid))


async def test_server_stop_tells_players_and_ends_apps(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with (
        running_table(host_key, data_dir=tmp_path, app_argv=stub_argv) as table,
        connect(table) as conn,
    ):
        process = await open_table(conn)
        await read_until(process, b"[size")
        [child] = table.children
        closing = asyncio.create_task(table.close())
        assert b"shutting down" in await read_to_end(process)
        await asyncio.wait_for(closing, WAIT)
        assert not pid_alive(child.pid)
        assert not table.sessions


async def test_session_limit(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with running_table(
        host_key, data_dir=tmp_path, app_argv=stub_argv, max_sessions=2
    ) as table:
        first = await connect(table)
        async with connect(table) as second:
            playing = [await open_table(first), await open_table(second)]
            for process in playing:
                await read_until(process, b"[size")
            async with connect(table) as third:
                refused = await open_table(third)
                assert b"table full" in await read_to_end(refused)
                await asyncio.wait_for(refused.wait_closed(), WAIT)
                assert refused.exit_status == 1
                assert len(table.children) == 2

                playing[0].stdin.write(b"q")
                await asyncio.wait_for(playing[0].wait_closed(), WAIT)
                first.close()  # a logged-in connection holds its place until it closes
                await wait_until(lambda: len(table.connections) == 2 and len(table.sessions) == 1)
                again = await open_table(third)
                await read_until(again, b"[size")


async def test_sessionless_connections_count_and_time_out(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    # `ssh -N`: logged in, no table. It holds a place, and is closed after the timeout.
    async with running_table(
        host_key, data_dir=tmp_path, app_argv=stub_argv, max_sessions=1, sessionless_timeout=1.0
    ) as table:
        idle = await connect(table)
        started = time.monotonic()
        async with connect(table) as player:
            refused = await open_table(player)
            assert b"table full (1 players)" in await read_to_end(refused)
        await asyncio.wait_for(idle.wait_closed(), WAIT)
        assert 0.9 < time.monotonic() - started < 3
        async with connect(table) as player:
            process = await open_table(player)
            await read_until(process, b"[size")


async def test_no_terminal_is_refused(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with (
        running_table(host_key, data_dir=tmp_path, app_argv=stub_argv) as table,
        connect(table) as conn,
    ):
        process = await conn.create_process(encoding=None)
        assert b"needs a terminal" in await read_to_end(process)
        assert not table.children


async def test_exec_sftp_and_forwarding_are_refused(
    tmp_path: Path, host_key: asyncssh.SSHKey, stub_argv: Callable[[Path], list[str]]
) -> None:
    async with (
        running_table(host_key, data_dir=tmp_path, app_argv=stub_argv) as table,
        connect(table) as conn,
    ):
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process("id", term_type="xterm")
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await conn.start_sftp_client()
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 9)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
        assert not table.children
        # The connection still plays after all that.
        process = await open_table(conn)
        await read_until(process, b"[size")


async def test_keys_and_password(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,
    player_key: asyncssh.SSHKey,
    stub_argv: Callable[[Path], list[str]],
) -> None:
    authorized = asyncssh.import_authorized_keys(player_key.export_public_key().decode())
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with running_table(
        host_key,
        data_dir=tmp_path,
        app_argv=stub_argv,
        open_access=False,
        authorized_keys=authorized,
        password="sesame",
    ) as table:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, client_keys=[stranger])
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, password="open sesame")
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table)  # no credentials at all
        for credentials in ({"client_keys": [player_key]}, {"password": "sesame"}):
            async with connect(table, **credentials) as conn:
                process = await open_table(conn)
                await read_until(process, b"[size")


def test_host_key_is_kept(tmp_path: Path) -> None:
    key, path, created = load_host_key(tmp_path)
    again, same_path, created_again = load_host_key(tmp_path)
    assert created and not created_again and path == same_path
    assert again.get_fingerprint() == key.get_fingerprint()
    assert path.stat().st_mode & 0o077 == 0


def test_safe_name_keeps_users_apart() -> None:
    names = ["alice", "Alice", "../alice", ".alice", "al/ice", "al_ice", "", "a" * 40, "ü"]
    folders = [safe_name(name) for name in names]
    assert folders[0] == "alice"
    assert len(set(folders)) == len(names)
    for folder in folders:
        assert folder and "/" not in folder and not folder.startswith(".")


def test_child_env_only_takes_the_clients_terminal() -> None:
    server = {
        "PATH": "/bin",
        "TERM": "screen",
        "COLORTERM": "truecolor",
        "COLUMNS": "80",
        "AWS_SECRET_ACCESS_KEY": "hunter2",
        "HOME": "/home/host",
        "SSH_AUTH_SOCK": "/tmp/agent",
    }
    client = {"LANG": "fr_FR.UTF-8", "LD_PRELOAD": "/tmp/x.so", "COLORTERM": "bad value;"}
    env = child_env("xterm-kitty", client, base=server, home=Path("/data/users/ann"))
    assert env == {
        "PATH": "/bin",
        "TERM": "xterm-kitty",
        "LANG": "fr_FR.UTF-8",
        "HOME": "/data/users/ann",
        "UNOTABLE_SERVED": "1",
    }
    assert child_env(None, {}, base={})["TERM"] == "xterm-256color"
    assert child_env("x\x1b]evil", {}, base={})["TERM"] == "xterm-256color"
