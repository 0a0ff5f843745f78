"""`unotable serve`: a runtime error (a port in use, a host key or keys file it cannot use, a
data dir that is not this account's alone, an unset password variable) is one line and exit
status 1; only bad command-line usage exits 2, as for every other command (issue 28)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from unotable.serve.ssh import HOST_KEY_NAME

PASSWORD = ["--password-env", "UNOTABLE_TEST_PW"]


def serve(*argv: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNOTABLE_")}
    env.update(HOME=str(home), UNOTABLE_TEST_PW="pw")
    return subprocess.run(
        [sys.executable, "-m", "unotable", "serve", *argv],
        capture_output=True,
        text=True,
        cwd=home,
        env=env,
        timeout=60,
    )


def assert_one_line(
    done: subprocess.CompletedProcess[str], status: int, mode: str, says: str
) -> None:
    """Exit ``status`` with one line, "unotable serve MODE: error: ..." (``mode`` "" for an
    argument only the top parser names: "unotable: error: ...")."""
    assert done.returncode == status, (done.returncode, done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1, done.stderr
    prog = f"unotable serve {mode}" if mode else "unotable"
    assert done.stderr.startswith(f"{prog}: error: "), done.stderr
    assert says in done.stderr, done.stderr
    assert "Traceback" not in done.stdout + done.stderr


@pytest.fixture
def home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


@pytest.fixture
def data(tmp_path: Path) -> Path:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    return data


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port on 127.0.0.1 another socket is listening on."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        yield busy.getsockname()[1]


# -- runtime errors: exit 1 --------------------------------------------------------------------


def test_ssh_on_a_port_in_use_exits_1(home: Path, data: Path, busy_port: int) -> None:
    done = serve("ssh", "--port", str(busy_port), "--data-dir", str(data), *PASSWORD, home=home)
    assert_one_line(done, 1, "ssh", f"cannot listen on 127.0.0.1 port {busy_port}: Address")


def test_web_on_a_port_in_use_exits_1(home: Path, data: Path, busy_port: int) -> None:
    done = serve("web", "--port", str(busy_port), "--data-dir", str(data), home=home)
    assert_one_line(done, 1, "web", f"cannot listen on 127.0.0.1 port {busy_port}: Address")


def _key_readable_by_others(data: Path) -> str:
    key = data / HOST_KEY_NAME
    key.write_text("not a key\n")
    key.chmod(0o644)
    return "can be read by others (mode 0644); run: chmod 600"


def _key_not_a_key(data: Path) -> str:
    key = data / HOST_KEY_NAME
    key.write_text("not a key\n")
    key.chmod(0o600)
    return "is not a usable private key"


def _data_dir_writable_by_others(data: Path) -> str:
    data.chmod(0o777)
    return f"{data} can be written by others (mode 0777); run: chmod 700 {data}"


@pytest.mark.parametrize(
    "make",
    [_key_readable_by_others, _key_not_a_key, _data_dir_writable_by_others],
    ids=["host key readable by others", "host key not a key", "data dir not ours"],
)
def test_an_unusable_host_key_or_data_dir_exits_1(
    home: Path, data: Path, make: Callable[[Path], str]
) -> None:
    says = make(data)
    done = serve("ssh", "--port", "0", "--data-dir", str(data), *PASSWORD, home=home)
    assert_one_line(done, 1, "ssh", says)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--authorized-keys", "nope"], "--authorized-keys nope: no such file"),
        (["--password-env", "UNOTABLE_TEST_UNSET"], "not set or empty"),
    ],
)
def test_a_missing_keys_file_or_password_exits_1(
    home: Path, data: Path, argv: list[str], says: str
) -> None:
    done = serve("ssh", "--port", "0", "--data-dir", str(data), *argv, home=home)
    assert_one_line(done, 1, "ssh", says)


def test_a_data_dir_that_is_a_file_exits_1(home: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = serve("web", "--port", "1", "--data-dir", str(tmp_path / "file"), home=home)
    assert_one_line(done, 1, "web", "is not a directory")


# -- usage errors: exit 2 ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "argv", "says"),
    [
        ("", ["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
        ("ssh", ["--port", "65536"], "argument --port: port must be 0-65535"),
        ("web", ["--max-sessions", "0"], "argument --max-sessions: must be at least 1"),
        ("web", ["--port", "0"], "--port 0 is not supported for web"),
        ("ssh", [], "nobody could log in"),  # none of --authorized-keys, --password-env, --open
    ],
)
def test_bad_usage_exits_2(home: Path, data: Path, mode: str, argv: list[str], says: str) -> None:
    done = serve(mode or "ssh", "--data-dir", str(data), *argv, home=home)
    assert_one_line(done, 2, mode, says)
