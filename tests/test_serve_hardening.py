"""Issue 26's serve-side holes, on 127.0.0.1: web start-up errors, web session limits and
idle time-out, the data dir's ownership, deeply nested frames, and the server's log."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from test_serve_limits import WEB_STUB_APP, free_port, receive_text

from unotable.serve.web import WebLimits, make_server
from unotable.tables.client import TableClient
from unotable.tables.protocol import MAX_DEPTH
from unotable.tables.service import TableService

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up


def serve(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "unotable", "serve", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={**os.environ, "UNOTABLE_TEST_PW": "pw"},
    )


def assert_one_line_exit_1(done: subprocess.CompletedProcess[str], mode: str, says: str) -> None:
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"unotable serve {mode}: error: "), done.stderr
    assert says in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr


# -- web start-up errors: one line, exit 1 ----------------------------------------------------


def test_web_port_in_use_is_one_line_and_exit_1(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = serve("web", "--port", str(port), "--data-dir", str(tmp_path / "d"), cwd=tmp_path)
    assert_one_line_exit_1(done, "web", f"cannot listen on 127.0.0.1 port {port}: Address")


def test_web_bad_host_is_one_line_and_exit_1(tmp_path: Path) -> None:
    done = serve("web", "--host", "999.1.1.1", "--data-dir", str(tmp_path / "d"), cwd=tmp_path)
    assert_one_line_exit_1(done, "web", "--host 999.1.1.1: not an address to listen on")


# -- the data dir belongs to the server's account alone ----------------------------------------


@pytest.mark.parametrize("mode", ["web", "ssh"])
@pytest.mark.parametrize(
    "case", ["data 0777", "data 0775", "data 0757", "tables 0777", "data owned", "tables owned"]
)
def test_an_unsafe_data_dir_is_refused(tmp_path: Path, mode: str, case: str) -> None:
    data = tmp_path / "data"
    (data / "tables").mkdir(parents=True, mode=0o700)
    data.chmod(0o700)
    where, what = case.split()
    folder = data if where == "data" else data / "tables"
    if what == "owned":
        os.chown(folder, 65534, 65534)
        says = f"{folder} belongs to another user (uid 65534); run: chown"
    else:
        folder.chmod(int(what, 8))
        says = f"{folder} can be written by others (mode {what}); run: chmod 700 {folder}"
    extra = ["--password-env", "UNOTABLE_TEST_PW"] if mode == "ssh" else []
    done = serve(mode, "--port", str(free_port()), "--data-dir", str(data), *extra, cwd=tmp_path)
    assert_one_line_exit_1(done, mode, says)


def test_a_private_data_dir_is_accepted(tmp_path: Path) -> None:
    from unotable.serve import _resolve_data_dir

    data = tmp_path / "data"
    (data / "tables").mkdir(parents=True)
    for mode in (0o700, 0o755, 0o750):
        data.chmod(mode)
        assert _resolve_data_dir(data) == data.resolve()
    assert _resolve_data_dir(tmp_path / "new") == (tmp_path / "new").resolve()


# -- frames: nesting is bounded -----------------------------------------------------------------


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    tables = TableService(tmp_path, speed="instant")
    await tables.start()
    try:
        yield tables
    finally:
        await tables.stop()


async def test_a_deeply_nested_frame_is_refused_with_a_reason(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.tables")
    errors: list[dict[str, Any]] = []
    asyncio.get_running_loop().set_exception_handler(lambda loop, context: errors.append(context))
    for depth in (1900, MAX_DEPTH + 1):
        bad = await TableClient.connect(service.socket_path)
        nested = "[" * depth + "]" * depth
        bad.writer.write(f'{{"type":"chat","text":{nested}}}\n'.encode())
        await bad.writer.drain()
        message = await bad.receive(timeout=WAIT)
        assert message == {
            "type": "closed",
            "reason": f"a frame nested deeper than {MAX_DEPTH} levels",
        }
        assert await bad.receive(timeout=WAIT) is None
        await bad.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "unotable.tables"]
    reason = f"tables: connection closed: a frame nested deeper than {MAX_DEPTH} levels"
    assert lines.count(reason) == 2, lines
    assert "Traceback" not in caplog.text and not errors
    # a frame as deep as allowed still reaches the table (refused there, as any bad chat)
    ok = await TableClient.connect(service.socket_path)
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    ok.writer.write(f'{{"type":"chat","text":{nested}}}\n'.encode())
    assert await ok.receive(timeout=WAIT) == {"type": "refused", "reason": "join a table first"}
    await ok.close()


# -- serve web: sessions in all and per address, idle time-out ---------------------------------


@contextlib.asynccontextmanager
async def web_table(tmp_path: Path, limits: WebLimits) -> AsyncIterator[int]:
    from aiohttp import web as aioweb

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
        shared_tables=False,
        limits=limits,
    )
    runner = aioweb.AppRunner(await server._make_app())
    await runner.setup()
    try:
        await aioweb.TCPSite(runner, "127.0.0.1", port).start()
        yield port
    finally:
        await asyncio.wait_for(runner.cleanup(), WAIT)


async def open_tab(
    stack: contextlib.AsyncExitStack, port: int, source: str, tab: str | None = None
) -> Any:
    """A tab's websocket from ``source`` (another 127.x address is another player)."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    http = await stack.enter_async_context(
        aiohttp.ClientSession(connector=connector, trust_env=False)
    )
    path = f"/ws/tab/{tab}" if tab else "/ws"
    return await stack.enter_async_context(
        http.ws_connect(
            f"http://127.0.0.1:{port}{path}?width=80&height=24",
            origin=f"http://127.0.0.1:{port}",
            timeout=aiohttp.ClientWSTimeout(WAIT),
        )
    )


async def refusal_text(websocket: Any) -> str:
    """What a refused tab's terminal shows, up to the close."""
    text = ""
    deadline = time.monotonic() + WAIT
    while True:
        message = await websocket.receive(timeout=max(0.01, deadline - time.monotonic()))
        if message.type != aiohttp.WSMsgType.BINARY:
            return text
        text += message.data.decode()


async def test_web_caps_tables_in_all_and_per_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    limits = WebLimits(max_sessions=3, max_per_address=2, idle_timeout=0)
    async with web_table(tmp_path, limits) as port, contextlib.AsyncExitStack() as stack:
        first = await open_tab(stack, port, "127.0.0.1", "a" * 32)
        await receive_text(first, "[start", [])
        second = await open_tab(stack, port, "127.0.0.1")
        await receive_text(second, "[start", [])
        third = await open_tab(stack, port, "127.0.0.1")
        refused = await refusal_text(third)
        assert "unotable: 2 tables are open from your address" in refused, refused
        assert "[start" not in refused
        other = await open_tab(stack, port, "127.0.0.2")
        await receive_text(other, "[start", [])
        full = await open_tab(stack, port, "127.0.0.3")
        refused = await refusal_text(full)
        assert "unotable: table full (3 players); try later." in refused, refused
        # a reload of a tab that has a table is not refused: its old table ends first
        reload = await open_tab(stack, port, "127.0.0.1", "a" * 32)
        await receive_text(reload, "[start", [])
    assert (
        "refused 127.0.0.1 user=- method=websocket reason=too many tables from this address (2)"
        in caplog.text
    )
    assert "refused 127.0.0.3 user=- method=websocket reason=table full (3 players)" in caplog.text


async def test_web_idle_tab_is_closed_and_told(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.serve")
    limits = WebLimits(idle_timeout=0.5)
    async with web_table(tmp_path, limits) as port, contextlib.AsyncExitStack() as stack:
        tab = await open_tab(stack, port, "127.0.0.1")
        await receive_text(tab, "[start", [])
        said = await refusal_text(tab)  # the server closes it, after the goodbye
        assert "unotable: disconnected, idle too long. Your match is saved." in said, said
    assert "web table of 127.0.0.1 closed: idle too long" in caplog.text


def test_web_limits_flags(tmp_path: Path) -> None:
    from unotable.cli import build_parser

    argv = ["serve", "web", "--max-sessions", "3", "--max-sessions-per-address", "1"]
    args = build_parser(argv).parse_args([*argv, "--idle-timeout", "2"])
    assert (args.max_sessions, args.max_sessions_per_address, args.idle_timeout) == (3, 1, 2)
    defaults = build_parser(["serve", "web"]).parse_args(["serve", "web"])
    assert (defaults.max_sessions, defaults.max_sessions_per_address) == (8, 4)
    assert defaults.idle_timeout == 30


# -- the server's log ------------------------------------------------------------------------


async def test_a_normal_disconnect_leaves_no_sessionless_timer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The client goes while its table runs: the session ends after the connection did, and
    must not start the "no table opened" timer (which logged a false refusal 60 s later)."""
    from test_serve_ssh import STUB_APP, connect, open_table, read_until, running_table

    from unotable.serve import ssh as ssh_module

    caplog.set_level(logging.INFO, "unotable.serve")
    seen: list[Any] = []
    started = ssh_module._Connection.session_started

    def record(self: Any) -> None:
        seen.append(self)
        started(self)

    monkeypatch.setattr(ssh_module._Connection, "session_started", record)
    script = tmp_path / "stub_app.py"
    script.write_text(STUB_APP)
    host_key = __import__("asyncssh").generate_private_key("ssh-ed25519")
    async with running_table(
        host_key,
        data_dir=tmp_path,
        app_argv=lambda d: [sys.executable, str(script), str(d)],
        sessionless_timeout=60.0,
    ) as table:
        for _ in range(3):
            conn = await connect(table)
            process = await open_table(conn)
            await read_until(process, b"[size")
            conn.close()
            await asyncio.wait_for(conn.wait_closed(), WAIT)
        deadline = time.monotonic() + WAIT
        while table.sessions or table.connections or any(c.sessions for c in seen):
            assert time.monotonic() < deadline, "the sessions never ended"
            await asyncio.sleep(0.02)
        timers = [c._sessionless for c in seen]
        assert len(seen) == 3
        assert all(t is None or t.cancelled() for t in timers), timers
    assert "no table opened" not in caplog.text


async def test_ssh_server_logs_table_events(tmp_path: Path) -> None:
    """`serve ssh` writes the shared tables' lines (unotable.tables) to its log: here the
    table reopened at start."""
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    service = TableService(data, speed="instant")
    await service.start()
    client = await TableClient.connect(service.socket_path)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "", "kind": "human", "open": True}]
    await client.send({"type": "create", "game": "uno", "seats": seats, "name": "Ann"})
    while (message := await client.receive(timeout=WAIT)) and message["type"] != "joined":
        pass
    (table_id,) = service.tables
    await client.close()
    await service.stop()
    server = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "unotable", "serve", "ssh", "--open", "--port", "0"),
        *("--data-dir", str(data)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert server.stderr is not None
    lines: list[str] = []
    try:
        deadline = time.monotonic() + WAIT
        while not any(f"table {table_id} reopened" in line for line in lines):
            left = deadline - time.monotonic()
            assert left > 0, lines
            line = await asyncio.wait_for(server.stderr.readline(), left)
            assert line, lines
            lines.append(line.decode())
    finally:
        server.send_signal(2)
        try:
            await asyncio.wait_for(server.communicate(), WAIT)
        finally:
            if server.returncode is None:  # it did not stop: fail, but leave no server behind
                server.kill()
                await server.wait()


async def test_refused_joins_and_wrong_codes_are_logged_with_quiet_repeats(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    from unotable.serve.limits import QuietLog

    caplog.set_level(logging.INFO, "unotable.tables")
    now = [0.0]
    service.quiet = QuietLog(logging.getLogger("unotable.tables"), clock=lambda: now[0])
    ann = await TableClient.connect(service.socket_path)
    seats = [{"name": "Ann", "kind": "human"}, {"name": "", "kind": "human", "open": True}]
    await ann.send({"type": "create", "game": "uno", "seats": seats, "name": "Ann"})
    while (message := await ann.receive(timeout=WAIT)) and message["type"] != "joined":
        pass
    (table_id,) = service.tables
    for guess in range(12):
        if guess == 11:
            now[0] = 61.0  # a minute on: the next line sums up the repeats
        # a new connection each time: one connection has only 5 wrong codes a minute
        guesser = await TableClient.connect(service.socket_path)
        code = f"{guess:06x}"
        message = {"type": "join", "table": table_id, "seat": 0, "code": code, "name": "[/x]"}
        await guesser.send(message)
        answer = await guesser.receive(timeout=WAIT)
        assert answer == {"type": "refused", "reason": "that seat is taken"}
        await guesser.close()
    await ann.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "unotable.tables"]
    wrong = [line for line in lines if "wrong rejoin code" in line]
    refused = [line for line in lines if "refused join" in line]
    assert wrong == [
        f"tables: wrong rejoin code at table {table_id} from '[/x]'",
        f"tables: wrong rejoin code at table {table_id} from '[/x]' "
        "(and 10 more like it in the last 60s)",
    ], lines
    assert refused[0] == f"tables: refused join table={table_id} from '[/x]': that seat is taken"
    assert len(refused) == 2 and refused[1].endswith("(and 10 more like it in the last 60s)")


# -- an unexpected error: one line for the player, the traceback in the server's log -----------

CRASHING_APP = r"""
import sys
from pathlib import Path
from unotable.app.main import UnoTableApp


class Crashing(UnoTableApp):
    CSS_PATH = str(Path(sys.modules[UnoTableApp.__module__].__file__).parent / "app.tcss")

    def on_ready(self) -> None:
        super().on_ready()
        self.call_later(self.boom)

    def boom(self) -> None:
        secret = "/srv/secret/path"  # a local a traceback with locals would show
        raise RuntimeError(f"boom in {secret}")


app = Crashing(data_dir=Path(sys.argv[1]), debug="--debug" in sys.argv)
app.run()
sys.exit(app.return_code or 0)
"""


async def test_a_served_players_error_is_one_line_and_the_traceback_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    import asyncssh
    from test_serve_limits import last_setting
    from test_serve_ssh import connect, open_table, read_to_end, running_table

    caplog.set_level(logging.INFO, "unotable.serve")
    script = tmp_path / "crashing.py"
    script.write_text(CRASHING_APP)
    async with running_table(
        asyncssh.generate_private_key("ssh-ed25519"),
        data_dir=tmp_path / "data",
        app_argv=lambda d: [sys.executable, str(script), str(d)],
        shared_tables=False,
    ) as table:
        async with connect(table) as conn:
            process = await open_table(conn)
            output = await asyncio.wait_for(read_to_end(process), WAIT)
            status = process.exit_status
        deadline = time.monotonic() + WAIT
        while "failed:" not in caplog.text:
            assert time.monotonic() < deadline, caplog.text
            await asyncio.sleep(0.02)
    text = output.decode("utf-8", "replace")
    assert "Traceback" not in text and "secret" not in text and "boom" not in text, text
    assert "unotable: sorry, an unexpected error ended the game; the server's log has it." in text
    assert status == 1
    assert last_setting(output, 1049) == b"l" and last_setting(output, 25) == b"h"
    logged = caplog.text
    assert "Traceback (most recent call last)" in logged
    assert "RuntimeError: boom in /srv/secret/path" in logged


@pytest.mark.parametrize("debug", [False, True])
async def test_a_local_error_without_debug_is_one_line(tmp_path: Path, debug: bool) -> None:
    from unotable.serve.child import PtyChild

    script = tmp_path / "crashing.py"
    script.write_text(CRASHING_APP)
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNOTABLE_")}
    env["TERM"] = "xterm-256color"
    argv = [sys.executable, str(script), str(tmp_path), *(["--debug"] if debug else [])]
    child = await PtyChild.spawn(argv, env, 100, 30)
    output = bytearray()
    try:
        while data := await asyncio.wait_for(child.read(), WAIT):
            output += data
        status = await asyncio.wait_for(child.wait(), WAIT)
    finally:
        child.close()
    text = output.decode("utf-8", "replace")
    assert status == 1
    if debug:
        assert "Traceback" in text
        return
    text = text.replace("\r\n", "")  # the line wraps at the terminal's width
    log_file = tmp_path / "errors.log"
    assert "Traceback" not in text and "secret" not in text, text
    assert f"an unexpected error ended the game; details in {log_file}" in text
    assert "RuntimeError: boom in /srv/secret/path" in log_file.read_text()
    assert oct(log_file.stat().st_mode & 0o777) == oct(0o600)


CTRL_C_WHILE_STARTING = """
import asyncio, sys
from unotable.cli import main
from unotable.serve import ssh

start = ssh.SshTable.start


async def slow_start(self):
    print("starting", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    await start(self)


ssh.SshTable.start = slow_start
sys.exit(main(sys.argv[1:]))
"""


async def test_ctrl_c_while_the_ssh_server_starts_stops_it_cleanly(tmp_path: Path) -> None:
    """A Ctrl+C that came while the server was starting (reopening tables, say) once
    found no handler of the server's: the server never stopped (loaded CI, 2 runs of 2)."""
    server = await asyncio.create_subprocess_exec(
        *(sys.executable, "-c", CTRL_C_WHILE_STARTING),
        *("serve", "ssh", "--open", "--port", "0", "--data-dir", str(tmp_path)),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        assert await asyncio.wait_for(server.stdout.readline(), WAIT) == b"starting\n"
        server.send_signal(2)  # Ctrl+C, in the middle of the start (kill() has marked it
        server.stdin.write(b"\n")  # pending before the start can go on)
        out, err = await asyncio.wait_for(server.communicate(), WAIT)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()
    assert server.returncode == 0, err.decode()[-600:]
    assert b"stopping" in out and b"Traceback" not in err
