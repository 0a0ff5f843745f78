"""Tables forked from the session launcher (serve/prefork.py): what each child gets, how its
end reaches the server, and what happens when the launcher or the server dies.

Most tests fork a small probe instead of the app (that launcher imports nothing big); the
SSH and web tests run the real app, forked from a launcher that imported it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pytest
from test_serve_ssh import (
    FIRST_SCREEN,
    WAIT,
    connect,
    go_to_lobby,
    open_table,
    read_screen_until,
    running_table,
)
from test_serve_web import free_port, processes_mentioning, screen_text, wait_for_listener

from unotable.serve.child import ERROR_LOG_ENV, PtyChild
from unotable.serve.prefork import LOST_STATUS, Launcher, spawn_pty
from unotable.serve.ssh import SshSettings, SshTable

# A stand-in for ``unotable.cli:main``: reports the process it finds itself in (one line of
# JSON on the pty), writes to the error pipe, then exits with the status it is sent.
PROBE = r"""
import gc, json, os, random, signal, sys

HANDLERS = ("SIGINT", "SIGTERM", "SIGHUP", "SIGCHLD", "SIGPIPE", "SIGWINCH", "SIGXFSZ")

def main(args):
    fds = {}
    for name in os.listdir("/proc/self/fd"):
        try:
            fds[name] = os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass  # the listing's own descriptor, closed by now
    handlers = {}
    for name in HANDLERS:
        handler = signal.getsignal(getattr(signal, name))
        handlers[name] = getattr(handler, "name", None) or getattr(handler, "__name__", "?")
    facts = {
        "pid": os.getpid(), "ppid": os.getppid(), "sid": os.getsid(0), "pgrp": os.getpgrp(),
        "foreground": os.tcgetpgrp(0), "tty": os.ttyname(0), "env": dict(os.environ),
        "cwd": os.getcwd(), "args": args, "fds": fds, "random": random.getrandbits(64),
        "handlers": handlers, "blocked": sorted(signal.pthread_sigmask(signal.SIG_BLOCK, [])),
        "gc": gc.isenabled(),
        # the launcher's warm-up: the app's CSS, parsed before the fork
        "css_parsed": len(sys.modules["unotable.app.stylesheet"].SharedStylesheet._parsed)
        if "unotable.app.stylesheet" in sys.modules else None,
    }
    print("FACTS " + json.dumps(facts), flush=True)
    if fd := os.environ.get("UNOTABLE_ERROR_FD"):
        os.write(int(fd), b"said on the error pipe")
    return int(sys.stdin.readline().strip() or 0)
"""

# What a new interpreter starts with (Python ignores SIGPIPE and SIGXFSZ itself).
FRESH_HANDLERS = {
    "SIGINT": "default_int_handler",
    "SIGTERM": "SIG_DFL",
    "SIGHUP": "SIG_DFL",
    "SIGCHLD": "SIG_DFL",
    "SIGPIPE": "SIG_IGN",
    "SIGWINCH": "SIG_DFL",
    "SIGXFSZ": "SIG_IGN",
}


async def wait_until(condition: Any, what: str = "condition") -> None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"{what} never came true"
        await asyncio.sleep(0.02)


def gone(pid: int) -> bool:
    """Ended: no such process, or a zombie (whoever reaps orphans here may not at once)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def forked_from(pid: int) -> bool:
    """The launcher, or a session it forked: they share its command line."""
    return b"unotable.serve.prefork" in Path(f"/proc/{pid}/cmdline").read_bytes()


@asynccontextmanager
async def probe_launcher(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Launcher]:
    """A launcher whose sessions run the probe; the server's environment holds a secret."""
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "prefork_probe.py").write_text(PROBE)
    monkeypatch.setenv("PYTHONPATH", str(folder))  # one of the names a launcher inherits
    monkeypatch.setenv("SERVER_SECRET", "must-not-leak")
    launcher = Launcher(entry="prefork_probe:main", preload=())
    try:
        await launcher.ready()
        yield launcher
    finally:
        await launcher.close()


async def start_probe(launcher: Launcher, cwd: Path, **env: str) -> tuple[PtyChild, int]:
    """A probe session with an error pipe at 3, as ssh.py passes it; (child, read end)."""
    errors_read, errors_write = os.pipe()
    env = {"TERM": "xterm-256color", "HOME": str(cwd), ERROR_LOG_ENV: "3", **env}
    try:
        child = await spawn_pty(
            launcher, ["--data-dir", str(cwd)], env, 90, 25, cwd=cwd, fds={errors_write: 3}
        )
    finally:
        os.close(errors_write)
    return child, errors_read


async def facts_of(child: PtyChild) -> dict[str, Any]:
    output = b""
    while not (b"FACTS " in output and output.rstrip().endswith(b"}")):
        data = await asyncio.wait_for(child.read(), WAIT)
        assert data, f"the probe ended: {output!r}"
        output += data
    line = output[output.index(b"FACTS ") + 6 :].split(b"\r\n")[0]
    return dict(json.loads(line))


async def test_a_forked_session_is_set_up_like_a_new_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probe_launcher(tmp_path, monkeypatch) as launcher:
        child, errors = await start_probe(launcher, tmp_path, LANG="C.UTF-8")
        try:
            facts = await facts_of(child)
            assert child.pid == facts["pid"]
            assert facts["ppid"] == launcher.pid  # forked, not started by the server
            # exactly the environment given: nothing of the server's or the launcher's
            assert facts["env"] == {
                "TERM": "xterm-256color",
                "HOME": str(tmp_path),
                ERROR_LOG_ENV: "3",
                "LANG": "C.UTF-8",
            }
            # its own session and process group, the pty its controlling terminal
            assert facts["sid"] == facts["pgrp"] == facts["foreground"] == child.pid
            assert facts["tty"].startswith("/dev/pts/")
            # the pty on 0-2, the error pipe at the number the environment says, nothing else
            assert set(facts["fds"]) == {"0", "1", "2", "3"}
            assert {facts["fds"][n] for n in "012"} == {facts["tty"]}
            assert facts["fds"]["3"].startswith("pipe:")
            assert os.read(errors, 100) == b"said on the error pipe"
            assert facts["cwd"] == str(tmp_path)
            assert facts["args"] == ["--data-dir", str(tmp_path)]
            assert facts["handlers"] == FRESH_HANDLERS
            assert facts["blocked"] == []
            assert facts["gc"] is True
            assert facts["css_parsed"], "the launcher's warm-up parsed no CSS for its sessions"

            await child.write(b"7\n")
            assert await asyncio.wait_for(child.wait(), WAIT) == 7
            assert child.returncode == 7
        finally:
            child.close()
            os.close(errors)
        # closing lets the launcher reap it
        await wait_until(lambda: not Path(f"/proc/{child.pid}").exists(), "the reaping")


async def test_the_launcher_listens_on_nothing_but_its_socketpair(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probe_launcher(tmp_path, monkeypatch) as launcher:
        assert launcher.pid is not None
        links = [os.readlink(f) for f in Path(f"/proc/{launcher.pid}/fd").iterdir()]
        inodes = {link[8:-1] for link in links if link.startswith("socket:[")}
        assert inodes  # the control socket
        for line in Path("/proc/net/unix").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[6] in inodes:
                assert len(fields) == 7, f"a named socket: {fields[7]}"
                assert not int(fields[3], 16) & 0x10000, "a listening socket"


async def test_two_sessions_do_not_share_their_random_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probe_launcher(tmp_path, monkeypatch) as launcher:
        first, errors_a = await start_probe(launcher, tmp_path)
        second, errors_b = await start_probe(launcher, tmp_path)
        try:
            a, b = await facts_of(first), await facts_of(second)
            assert a["random"] != b["random"]
            assert a["pgrp"] != b["pgrp"]
        finally:
            for child, errors in ((first, errors_a), (second, errors_b)):
                await child.hang_up(WAIT)
                child.close()
                os.close(errors)


async def test_hang_up_ends_the_session_and_its_status_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with probe_launcher(tmp_path, monkeypatch) as launcher:
        child, errors = await start_probe(launcher, tmp_path)
        try:
            await facts_of(child)  # it waits for a line that never comes
            assert await child.hang_up(WAIT) == -signal.SIGHUP
            assert child.returncode == -signal.SIGHUP
        finally:
            child.close()
            os.close(errors)
        await wait_until(lambda: gone(child.pid), "the end of the session")


async def test_the_launcher_dies_sessions_go_on_and_a_new_one_forks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="unotable.serve")
    async with probe_launcher(tmp_path, monkeypatch) as launcher:
        old, errors_old = await start_probe(launcher, tmp_path)
        try:
            await facts_of(old)
            first = launcher.pid
            assert first is not None
            os.kill(first, signal.SIGKILL)
            await wait_until(lambda: launcher.pid not in (None, first), "a new launcher")
            died = [r for r in caplog.records if "exited" in r.getMessage()]
            assert len(died) == 1 and f"pid={first}" in died[0].getMessage()

            # the session it forked goes on; its status went with the launcher
            await old.write(b"5\n")
            assert await asyncio.wait_for(old.wait(), WAIT) == LOST_STATUS
            new, errors_new = await start_probe(launcher, tmp_path)
            try:
                assert (await facts_of(new))["ppid"] == launcher.pid
                await new.write(b"3\n")
                assert await asyncio.wait_for(new.wait(), WAIT) == 3
            finally:
                new.close()
                os.close(errors_new)
        finally:
            old.close()
            os.close(errors_old)


# A server in a process of its own: starts a launcher and one probe session, says their
# pids, then waits to be killed.
KILLED_SERVER = r"""
import asyncio, os, sys
from pathlib import Path
from unotable.serve.prefork import Launcher, spawn_pty

async def main():
    launcher = Launcher(entry="prefork_probe:main", preload=())
    home = Path(sys.argv[1])
    child = await spawn_pty(launcher, [], {"TERM": "xterm"}, 80, 24, cwd=home)
    output = b""
    while b"FACTS" not in output:
        output += await child.read()
    print(launcher.pid, child.pid, flush=True)
    await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_killing_the_server_ends_the_launcher_and_the_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "probe"
    folder.mkdir()
    (folder / "prefork_probe.py").write_text(PROBE)
    script = tmp_path / "server.py"
    script.write_text(KILLED_SERVER)
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        str(script),
        str(tmp_path),
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(folder)},
    )
    try:
        assert server.stdout is not None
        line = await asyncio.wait_for(server.stdout.readline(), WAIT)
        launcher_pid, session_pid = (int(n) for n in line.split())
        assert parent_of(session_pid) == launcher_pid
        server.kill()  # no clean-up at all
        await server.wait()
        # the launcher sees its socket close; the session, its pty hang up
        await wait_until(lambda: gone(launcher_pid) and gone(session_pid), "their end")
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


@pytest.fixture(scope="module")
def host_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


async def test_ssh_tables_are_forked_and_outlive_a_launcher_death(
    tmp_path: Path, host_key: asyncssh.SSHKey, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="unotable.serve")
    table = SshTable(
        SshSettings(host="127.0.0.1", port=0, data_dir=tmp_path, open_access=True), host_key
    )
    await table.start()
    pids = []
    try:
        assert table.launcher is not None
        conn = await connect(table, username="ann")
        process = await open_table(conn)
        seen = bytearray()
        await read_screen_until(process, FIRST_SCREEN, seen)
        [child] = table.children
        first = table.launcher.pid
        assert parent_of(child.pid) == first
        assert forked_from(child.pid)

        assert first is not None
        os.kill(first, signal.SIGKILL)
        await wait_until(lambda: table.launcher.pid not in (None, first), "a new launcher")
        assert sum("exited" in r.getMessage() for r in caplog.records) == 1

        # the open table still plays
        await go_to_lobby(process, seen)
        process.stdin.write(b"s")  # Start
        await read_screen_until(process, "Your hand", seen)
        # a new player's table comes from the new launcher
        async with connect(table, username="bob") as conn_b:
            process_b = await open_table(conn_b)
            await read_screen_until(process_b, FIRST_SCREEN, bytearray())
            [child_b] = [c for c in table.children if c is not child]
            assert parent_of(child_b.pid) == table.launcher.pid
        conn.close()
        pids = [child.pid, child_b.pid]
    finally:
        await table.close()
    # the first table's process is an orphan now: whoever adopted it may leave a zombie
    await wait_until(lambda: all(gone(pid) for pid in pids), "the end of both tables")


async def test_a_stand_in_app_is_started_as_its_own_process(
    tmp_path: Path, host_key: asyncssh.SSHKey
) -> None:
    async with running_table(host_key, data_dir=tmp_path, app_argv=lambda d: ["true"]) as table:
        assert table.launcher is None


async def test_web_tables_are_forked_from_the_launcher(tmp_path: Path) -> None:
    port = free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "unotable", "serve", "web", "--port", str(port), "--data-dir", str(tmp_path)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        await wait_for_listener(port)
        async with (
            aiohttp.ClientSession(trust_env=False) as http,
            http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=100&height=30") as websocket,
        ):
            screen = b""
            while FIRST_SCREEN not in screen_text(screen):
                message = await websocket.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY, message
                screen += message.data
            # the launcher names the data dir on its command line, and so does its fork
            named = set(processes_mentioning(str(tmp_path))) - {server.pid}
            [launcher] = [p for p in named if parent_of(p) == server.pid and forked_from(p)]
            [table] = [p for p in named if parent_of(p) == launcher]
        server.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(server.wait(), WAIT) == 0
        await wait_until(lambda: gone(launcher) and gone(table), "the end of the tab's table")
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
