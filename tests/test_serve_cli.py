"""`unotable serve ssh`: its options, its refusals, and a real server stopped with Ctrl+C."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from pathlib import Path

import asyncssh
import pytest

from unotable import serve
from unotable.cli import Parser

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up


def parse(*argv: str) -> object:
    parser = Parser(prog="unotable serve")
    serve.configure(parser)
    return parser.parse_args(list(argv))


@pytest.fixture
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def test_refuses_to_start_without_a_way_in(
    empty_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert serve.run(parse("ssh", "--data-dir", str(empty_home / "data"))) == 2
    error = capsys.readouterr().err
    assert "authorized_keys does not exist" in error and "--open" in error
    assert error.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--password-env", "UNOTABLE_TEST_UNSET"], "not set"),
        (["--authorized-keys", "/nonexistent/keys"], "no such file"),
    ],
)
def test_bad_credentials_options(
    empty_home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    os.environ.pop("UNOTABLE_TEST_UNSET", None)
    assert serve.run(parse("ssh", *argv)) == 1  # a runtime error; 2 is for usage
    assert says in capsys.readouterr().err


def test_unreadable_authorized_keys(empty_home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keys = empty_home / "keys"
    keys.write_text("this is not a key\n")
    assert serve.run(parse("ssh", "--authorized-keys", str(keys))) == 1
    assert "cannot use" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["ssh", "--port", "65536"],
        ["ssh", "--max-sessions", "0"],
        ["web", "--port", "x"],
        ["ssh", "--max-tables", "0"],
        ["web", "--max-seats", "9"],
        ["web", "--table-idle-minutes", "-1"],
    ],
)
def test_bad_numbers_are_one_line_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse(*argv)
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_web_off_loopback_warns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from unotable.serve import web

    started: list[tuple[str, int]] = []
    monkeypatch.setattr(
        web, "serve_forever", lambda host, port, *_, **__: started.append((host, port)) or 0
    )
    assert serve.run(parse("web", "--host", "0.0.0.0", "--data-dir", str(tmp_path))) == 0
    assert started == [("0.0.0.0", 8000)]
    assert "WARNING" in capsys.readouterr().err
    assert serve.run(parse("web", "--data-dir", str(tmp_path))) == 0
    assert started[-1] == ("127.0.0.1", 8000)
    assert "WARNING" not in capsys.readouterr().err


def test_shared_table_limits_reach_both_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unotable.serve import ssh, web

    given: dict[str, object] = {}

    def fake_web(*_: object, shared_tables: bool, tables: dict[str, object], limits: object) -> int:
        given["web"] = (shared_tables, tables)
        return 0

    async def fake_ssh(settings: ssh.SshSettings) -> int:
        given["ssh"] = (settings.shared_tables, settings.tables)
        return 0

    monkeypatch.setattr(web, "serve_forever", fake_web)
    monkeypatch.setattr(ssh, "serve_forever", fake_ssh)
    limits = ["--max-tables", "3", "--max-seats", "4", "--rejoin-grace", "30"]
    limits += ["--table-idle-minutes", "5", "--turn-time", "45", "--data-dir", str(tmp_path)]
    assert serve.run(parse("web", *limits)) == 0
    assert serve.run(parse("ssh", "--open", *limits)) == 0
    expected = {
        "max_tables": 3,
        "max_tables_per_player": 1,
        "max_seats": 4,
        "grace": 30.0,
        "turn_time": 45.0,
        "idle_close": 300.0,
    }
    assert given == {"web": (True, expected), "ssh": (True, expected)}
    assert serve.run(parse("web", "--no-shared-tables", "--data-dir", str(tmp_path))) == 0
    assert given["web"][0] is False  # type: ignore[index]


def processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line contains ``text`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if text.encode() in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


async def test_ctrl_c_stops_server_and_sessions(tmp_path: Path) -> None:
    data_dir = tmp_path / "served-data"
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "unotable",
        "serve",
        "ssh",
        "--open",
        "--port",
        "0",
        "--data-dir",
        str(data_dir),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert server.stdout is not None and server.stderr is not None
        banner = b""
        while b"Ctrl+C" not in banner:
            line = await asyncio.wait_for(server.stdout.readline(), WAIT)
            assert line, f"server ended early: {await server.stderr.read()!r}"
            banner += line
        port = int(re.search(rb"port (\d+)", banner)[1])  # type: ignore[index]
        assert b"127.0.0.1" in banner and b"SHA256:" in banner
        assert (data_dir / "ssh_host_ed25519_key").is_file()

        async with asyncssh.connect(
            "127.0.0.1",
            port,
            username="dave",
            known_hosts=None,
            client_keys=None,
            agent_path=None,
            config=[],
        ) as conn:
            process = await conn.create_process(
                term_type="xterm-256color", term_size=(100, 30), encoding=None
            )
            await asyncio.wait_for(process.stdout.read(1), WAIT)
            server.send_signal(signal.SIGINT)
            assert await asyncio.wait_for(server.wait(), WAIT) == 0
            await asyncio.wait_for(process.wait_closed(), WAIT)
        log = (await server.stderr.read()).decode()
        assert re.search(r"connect 127\.0\.0\.1:\d+", log)
        assert re.search(r"disconnect 127\.0\.0\.1:\d+ user=dave after \d+s$", log, re.MULTILINE)
        deadline = time.monotonic() + WAIT
        while processes_mentioning(str(data_dir)):
            assert time.monotonic() < deadline, "an app process outlived the server"
            await asyncio.sleep(0.05)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


def test_password_leaves_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    # Player apps inherit the server's environment; the password must not be in it.
    monkeypatch.setenv("UNOTABLE_TEST_PW", "sesame")
    assert serve._password("UNOTABLE_TEST_PW") == "sesame"
    assert "UNOTABLE_TEST_PW" not in os.environ
