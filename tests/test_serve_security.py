"""The SSH table under attack, on 127.0.0.1 (other 127.0.0.x addresses stand in for other
hosts): password guessing, connection floods, sessionless and refused requests, whose saves
a session gets, and what a table's process inherits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from test_serve_ssh import (
    FIRST_SCREEN,
    WAIT,
    connect,
    open_table,
    read_screen_until,
    read_to_end,
    read_until,
    running_table,
    wait_until,
)

from unotable.serve.child import SERVER_ENV_ALLOWED, child_env
from unotable.serve.limits import GuessPenalty, LoginGate, QuietLog
from unotable.serve.paths import key_folder

# A stand-in app: its data dir, every environment name it got, and the served notice.
ENV_APP = r"""
import os, sys
print("data-dir", sys.argv[1], flush=True)
print("names", ",".join(sorted(os.environ)), flush=True)
print("notice", os.environ.get("UNOTABLE_SERVED_NOTICE", "-")[:20], flush=True)
print("home", os.environ.get("HOME"), flush=True)
os.read(0, 1)
"""


@pytest.fixture(scope="module")
def host_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture(scope="module")
def player_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def env_argv(tmp_path: Path) -> Callable[[Path], list[str]]:
    script = tmp_path / "env_app.py"
    script.write_text(ENV_APP)
    return lambda data_dir: [sys.executable, str(script), str(data_dir)]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# -- the limits on their own, with a fake clock ----------------------------------------------


def test_guess_penalty_lets_through_at_most_the_rate_after_the_burst() -> None:
    clock = FakeClock()
    penalty = GuessPenalty(per_minute=10, burst=5, clock=clock)
    checked_per_minute = [0] * 10
    # An attacker with many connections tries a guess every 50 ms for ten minutes.
    for step in range(10 * 60 * 20):
        clock.now = 1000.0 + step * 0.05
        if penalty.take("203.0.113.9"):
            checked_per_minute[step // (60 * 20)] += 1
    assert checked_per_minute[0] <= 5 + 10
    assert all(count <= 10 for count in checked_per_minute[1:]), checked_per_minute
    assert sum(checked_per_minute) >= 90  # the rate is a rate, not a lock-out
    # Another address is not affected; a right password costs nothing.
    assert penalty.take("198.51.100.7")
    penalty.refund("198.51.100.7")
    assert penalty.wait("198.51.100.7") == 0


def test_login_gate_caps_per_address_and_evicts_from_the_busiest() -> None:
    gate = LoginGate(total=4, per_address=3)
    assert [gate.admit(n, "10.0.0.1") for n in range(3)] == [(True, None)] * 3
    assert gate.admit(3, "10.0.0.1") == (False, None)  # a 4th from the same address
    assert gate.admit("ann", "10.0.0.2") == (True, None)  # total now 4
    # A newcomer makes room by dropping the oldest of the address holding the most.
    assert gate.admit("bob", "10.0.0.3") == (True, 0)
    gate.leave("ann")
    gate.leave("ann")  # twice is harmless
    assert len(gate) == 3


def test_quiet_log_writes_one_line_per_kind_per_window(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    quiet = QuietLog(logging.getLogger("test.quiet"), window=60, clock=clock)
    with caplog.at_level(logging.INFO, "test.quiet"):
        for _ in range(1000):
            quiet.info("emfile", "accept failed")
        quiet.info("other", "something else")
        clock.now += 61
        quiet.info("emfile", "accept failed")
    assert [r.getMessage() for r in caplog.records] == [
        "accept failed",
        "something else",
        "accept failed (and 999 more like it in the last 60s)",
    ]


# -- password guessing -----------------------------------------------------------------------


class Guesser(asyncssh.SSHClient):
    """Offers wrong passwords, one after another, as long as the server lets it."""

    def __init__(self, tried: list[str]) -> None:
        self._tried = tried

    def password_auth_requested(self) -> str:
        self._tried.append("x")
        return f"guess-{len(self._tried)}"


async def guess(table: Any, source: str, tried: list[str]) -> None:
    with contextlib.suppress(asyncssh.Error, OSError):
        await asyncssh.connect(
            "127.0.0.1",
            table.port,
            username="root",
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            config=[],
            local_addr=(source, 0),
            preferred_auth="password",
            client_factory=lambda: Guesser(tried),
        )


async def test_password_guessing_is_held_to_the_rate(
    tmp_path: Path, host_key: asyncssh.SSHKey, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    async with running_table(
        host_key,
        data_dir=tmp_path,
        open_access=False,
        password="sesame",
        auth_delay=0.01,
        max_auth_tries=6,
        guesses_per_minute=10,
        guess_burst=5,
    ) as table:
        tried: list[str] = []
        started = time.monotonic()
        # Rounds of 10 connections in parallel (the most one address may have waiting to log
        # in); each may fail 6 times before it is closed.
        for _ in range(3):
            await asyncio.gather(*(guess(table, "127.0.0.1", tried) for _ in range(10)))
        elapsed = time.monotonic() - started
        # Each connection got its 6 answers (its 7th guess meets the disconnect), but only
        # the burst, plus what the rate refilled meanwhile, was checked.
        assert 3 * 10 * 6 <= len(tried) <= 3 * 10 * 7
        print(f"{len(tried)} guesses sent in {elapsed:.1f}s, {table.password_checks} checked")
        assert table.password_checks <= 5 + 1 + int(elapsed / 6)
        # Even the right password waits now, from this address only.
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, password="sesame", preferred_auth="password")
        async with connect(table, password="sesame", local_addr=("127.0.0.2", 0)):
            pass
    log = caplog.text
    assert "refused 127.0.0.1 user=root method=password reason=wrong password" in log
    assert "method=password reason=address penalized for" in log
    assert "reason=too many failed logins (6)" in log


# -- connection flood ------------------------------------------------------------------------


def raise_fd_limit(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] >= wanted, "cannot raise the fd limit"


async def open_idle(port: int, source: str) -> socket.socket:
    sock = socket.socket()
    sock.setblocking(False)
    sock.bind((source, 0))
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return sock


async def test_key_login_reaches_the_lobby_through_a_flood(
    tmp_path: Path, host_key: asyncssh.SSHKey, player_key: asyncssh.SSHKey
) -> None:
    raise_fd_limit(4096)
    authorized = asyncssh.import_authorized_keys(player_key.export_public_key().decode())
    flood: list[socket.socket] = []
    async with running_table(
        host_key, data_dir=tmp_path, open_access=False, authorized_keys=authorized
    ) as table:
        try:
            # 1,000 idle connections that never say a word: 20 each from 50 addresses.
            sources = [f"127.0.1.{n}" for n in range(1, 51)]
            for source in sources:
                flood += await asyncio.gather(*(open_idle(table.port, source) for _ in range(20)))
            assert len(flood) == 1000
            await wait_until(lambda: len(table.gate) == 100)  # the server has seen them all
            started = time.monotonic()
            async with connect(table, username="ann", client_keys=[player_key]) as conn:
                logged_in = time.monotonic() - started
                process = await open_table(conn)
                await read_screen_until(process, FIRST_SCREEN, bytearray())
                shown = time.monotonic() - started
                print(f"under the flood: login {logged_in:.3f}s, first screen {shown:.3f}s")
                assert shown < 2.0
                # The flood holds at most the limits: 100 waiting, 10 per address.
                assert len(table.gate) <= 100
        finally:
            for sock in flood:
                sock.close()


# -- sessions: refused requests, saves, environment ------------------------------------------


async def test_every_refusal_is_logged(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,
    player_key: asyncssh.SSHKey,
    env_argv: Callable[[Path], list[str]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    authorized = asyncssh.import_authorized_keys(player_key.export_public_key().decode())
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with running_table(
        host_key,
        data_dir=tmp_path,
        app_argv=env_argv,
        open_access=False,
        authorized_keys=authorized,
        login_grace=0.5,
    ) as table:
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, username="eve", client_keys=[stranger])
        with pytest.raises(asyncssh.PermissionDenied):
            await connect(table, username="nokey")
        idle = await open_idle(table.port, "127.0.0.3")
        async with connect(table, username="ann", client_keys=[player_key]) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 9)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_process("id", term_type="xterm")
            no_tty = await conn.create_process(encoding=None)
            await read_to_end(no_tty)
        await wait_until(lambda: "did not log in within 0.5s" in caplog.text)
        idle.close()
    log = caplog.text
    fingerprint = stranger.get_fingerprint()
    for line in (
        f"refused 127.0.0.1 user=eve method=publickey reason=key {fingerprint} not authorized",
        "refused 127.0.0.1 user=nokey method=none reason=offered no credentials the server accepts",
        "refused 127.0.0.3 user=- method=none reason=did not log in within 0.5s",
        "refused 127.0.0.1 user=ann method=direct-tcpip reason=port forward to 127.0.0.1:9",
        "refused 127.0.0.1 user=ann method=tcpip-forward reason=remote forward from",
        "refused 127.0.0.1 user=ann method=exec reason=exec request 'id'",
        "refused 127.0.0.1 user=ann method=session reason=no terminal requested",
    ):
        assert line in log, f"{line!r} not in the log:\n{log}"


async def test_saves_belong_to_the_key_and_the_child_env_is_allow_listed(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,
    player_key: asyncssh.SSHKey,
    env_argv: Callable[[Path], list[str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "hunter2")  # must not reach a table
    authorized = asyncssh.import_authorized_keys(player_key.export_public_key().decode())
    other_key = asyncssh.generate_private_key("ssh-ed25519")
    authorized.load(other_key.export_public_key().decode())
    async with running_table(
        host_key,
        data_dir=tmp_path,
        app_argv=env_argv,
        open_access=False,
        authorized_keys=authorized,
        password="sesame",
    ) as table:
        seen = {}
        for name, credentials in {
            "key": {"client_keys": [player_key]},
            "other key": {"client_keys": [other_key]},
            "password": {"password": "sesame"},
        }.items():
            async with connect(table, username="ann", **credentials) as conn:
                process = await open_table(conn)
                seen[name] = (await read_until(process, b"home ")).decode()
    fingerprint = key_folder(player_key.get_fingerprint())
    assert f"data-dir {tmp_path / 'keys' / fingerprint / 'ann'}\r\n" in seen["key"]
    assert f"home {tmp_path / 'keys' / fingerprint / 'ann'}" in seen["key"] + "\n"
    assert key_folder(other_key.get_fingerprint()) in seen["other key"]
    assert f"data-dir {tmp_path / 'users' / 'ann'}\r\n" in seen["password"]
    # Only a login without a key is told that names are not identities.
    assert "notice -\r\n" in seen["key"]
    assert "notice Served without keys" in seen["password"]
    names = {}
    for how, output in seen.items():
        names[how] = set(output.split("names ")[1].split("\r\n")[0].split(","))
        allowed = {*SERVER_ENV_ALLOWED, "TERM", "HOME", "UNOTABLE_SERVED", "LC_CTYPE"}
        allowed |= {"UNOTABLE_SERVED_NOTICE", "UNOTABLE_TABLES", "UNOTABLE_PLAYER"}
        allowed |= {"UNOTABLE_IDENTITY", "UNOTABLE_ERROR_FD"}  # the pipe for tracebacks
        assert names[how] <= allowed, names[how] - allowed
        assert "AWS_SECRET_ACCESS_KEY" not in output
        assert {"UNOTABLE_TABLES", "UNOTABLE_PLAYER"} <= names[how]  # shared tables
    # a key is an identity at a shared table; a password login gets a new session id each
    # time (it rejoins with a code), with its address, which counts its tables and guesses
    assert "UNOTABLE_IDENTITY" in names["key"] and "UNOTABLE_IDENTITY" in names["password"]


def test_child_env_keeps_only_allowed_server_names() -> None:
    server = {name: "x" for name in ("PATH", "LANG", "HOME", "USER", "SSH_AUTH_SOCK", "TOKEN")}
    env = child_env("xterm", {}, base=server, home=Path("/d"))
    assert set(env) == {"PATH", "LANG", "TERM", "HOME", "UNOTABLE_SERVED"}
    assert env["HOME"] == "/d"


async def test_an_unfinished_handshake_cannot_hold_the_table(
    tmp_path: Path, host_key: asyncssh.SSHKey
) -> None:
    # A client that connects and never logs in is dropped after the grace time.
    async with running_table(host_key, data_dir=tmp_path, login_grace=0.3) as table:
        sock = await open_idle(table.port, "127.0.0.4")
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        while await asyncio.wait_for(loop.sock_recv(sock, 4096), WAIT):
            pass  # the server's greeting, then end of file
        assert time.monotonic() - started < 3
        sock.close()
        await wait_until(lambda: len(table.gate) == 0)
