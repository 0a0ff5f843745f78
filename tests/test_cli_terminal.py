"""Without a terminal the full-screen apps refuse in one line; exit codes: 1 runtime, 2 usage.

Each command runs as its own process, as a script or a cron job would run it.
"""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from unotable import terminal
from unotable.engine import get_game
from unotable.store import saves
from unotable.store.record import MatchRecord, SeatRecord


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of a user whose home, config and data folders are all in tmp_path."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "UNOTABLE_"))}
    base.pop("TEXTUAL_DRIVER", None)
    return {
        **base,
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TERM": "xterm-256color",
    }


def unotable(*argv: str, env: dict[str, str], **kwargs) -> subprocess.CompletedProcess[str]:
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-m", "unotable", *argv],
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        timeout=120,  # only against a hang; a refusal is immediate
        **kwargs,
    )


def assert_one_line_refusal(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    for needle in needles:
        assert needle in result.stderr
    assert "\x1b" not in result.stderr + (result.stdout or "")  # not a byte of screen drawing


@pytest.mark.parametrize("argv", [[], ["--resume"], ["--seed", "3", "--ascii"]])
def test_no_terminal_says_what_is_needed_and_exits_1(env, tmp_path, argv) -> None:
    result = unotable(*argv, env=env)
    assert result.stdout == ""
    assert_one_line_refusal(result, "needs a terminal", "unotable sim", "replay FILE --text")
    assert not (tmp_path / "data").exists()  # refused before touching the data folder


def test_output_to_a_file_is_no_terminal_either(env, tmp_path) -> None:
    leader, follower = pty.openpty()  # stdin is a terminal, stdout a file
    try:
        with open(tmp_path / "out.txt", "w") as out:
            result = unotable(env=env, stdin=follower, stdout=out)
    finally:
        os.close(leader)
        os.close(follower)
    assert_one_line_refusal(result, "needs a terminal")
    assert (tmp_path / "out.txt").read_text() == ""


def test_term_dumb_is_refused_even_on_a_terminal(env) -> None:
    leader, follower = pty.openpty()
    try:
        result = unotable(env={**env, "TERM": "dumb"}, stdin=follower, stdout=follower)
    finally:
        os.close(leader)
        os.close(follower)
    assert_one_line_refusal(result, "TERM is 'dumb'", "unotable sim")


def test_the_check_passes_on_a_terminal_and_for_the_web_driver(monkeypatch) -> None:
    class Tty:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(sys, "stdin", Tty(True))
    monkeypatch.setattr(sys, "stdout", Tty(True))
    assert terminal.terminal_problem() is None
    monkeypatch.setattr(sys, "stdout", Tty(False))
    assert "needs a terminal" in (terminal.terminal_problem() or "")
    monkeypatch.setattr(sys, "stdin", None)  # started with no stdin at all
    assert "needs a terminal" in (terminal.terminal_problem() or "")
    # textual-serve runs each tab's app on pipes with its web driver: not refused
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert terminal.terminal_problem() is None


@pytest.fixture(scope="module")
def saved_match(tmp_path_factory) -> Path:
    """A match still in play: twelve actions, each the first legal one."""
    match = get_game("uno").new_match(players=3, options={}, seed=6)
    actions: list[tuple[int, str]] = []
    while len(actions) < 12:
        seat = match.actors()[0]
        action = match.legal_actions(seat)[0]
        actions.append((seat, str(action)))
        match.apply(seat, action)
    seats = [SeatRecord("Ada", "human"), SeatRecord("Bo", "easy"), SeatRecord("Cy", "easy")]
    record = MatchRecord("uno", {}, seats, seed=6, actions=actions)
    path = tmp_path_factory.mktemp("replay") / "match.json"
    path.write_text(saves.dumps(record))
    return path


def test_replay_viewer_needs_a_terminal_but_replay_text_does_not(env, saved_match) -> None:
    viewer = unotable("replay", str(saved_match), "--as", "0", env=env)
    assert viewer.stdout == ""
    assert_one_line_refusal(viewer, "replay viewer needs a terminal", "--text")
    text = unotable("replay", str(saved_match), "--as", "0", "--text", env=env)
    assert text.returncode == 0 and text.stderr == "" and text.stdout.count("\n\n") > 10


def test_headless_commands_run_without_a_terminal(env) -> None:
    sim = unotable("sim", "uno", "--games", "1", "--players", "2", "--json", env=env)
    assert sim.returncode == 0 and '"games": 1' in sim.stdout
    paths = unotable("paths", env=env)
    assert paths.returncode == 0 and paths.stdout.startswith("config: ")


# -- exit codes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["--no-such-flag"],
        ["--seed", "many"],
        ["replay"],  # FILE is missing
        ["sim", "uno", "--players", "11"],  # checked by sim itself, still a usage error
        ["paths", "extra"],
    ],
)
def test_usage_errors_exit_2(env, argv) -> None:
    result = unotable(*argv, env=env)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "error" in result.stderr


def test_runtime_errors_exit_1(env, tmp_path) -> None:
    missing = unotable("replay", str(tmp_path / "nope.json"), "--text", env=env)
    assert missing.returncode == 1 and "cannot read" in missing.stderr
    folder = tmp_path / "a-folder.json"
    folder.mkdir()
    unreadable = unotable("replay", str(folder), "--text", env=env)
    assert unreadable.returncode == 1 and unreadable.stderr.count("\n") == 1


def test_an_unknown_seat_is_a_usage_error(env, saved_match) -> None:
    result = unotable("replay", str(saved_match), "--as", "9", "--text", env=env)
    assert result.returncode == 2 and "there is no seat 9" in result.stderr
