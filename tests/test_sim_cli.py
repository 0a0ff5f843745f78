"""``unotable sim``: the JSON summary, determinism, and one-line errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from unotable.cli import main
from unotable.engine import GAME_IDS

KEYS = {"game", "players", "games", "seed", "hands", "decisions", "seconds", "seats"}
KEYS |= {"decision_ms"}
SEAT_KEYS = {"seat", "player", "ai", "wins", "win_rate", "mean_points"}


def sim_json(capsys, *args: str) -> dict:
    assert main(["sim", *args, "--json"]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1, "exactly one JSON object on stdout"
    return json.loads(out)


def without_timings(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in ("seconds", "decision_ms")}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_json_summary_has_the_documented_keys(capsys, game_id):
    from unotable.engine import get_game

    players = get_game(game_id).min_players
    result = sim_json(capsys, game_id, "--players", str(players), "--games", "2", "--seed", "5")
    assert set(result) == KEYS
    assert (result["game"], result["players"], result["games"], result["seed"]) == (
        game_id,
        players,
        2,
        5,
    )
    assert result["hands"] >= 2 and result["decisions"] > result["hands"]
    assert [s["seat"] for s in result["seats"]] == list(range(players))
    for seat in result["seats"]:
        assert set(seat) == SEAT_KEYS and seat["ai"] == "random"
        assert seat["win_rate"] == seat["wins"] / 2
    assert sum(s["wins"] for s in result["seats"]) >= 2  # co-winners count for each
    assert set(result["decision_ms"]) == {"random"}
    assert set(result["decision_ms"]["random"]) == {"p50", "p95"}


def test_same_seed_same_output_but_timings(capsys):
    args = ("uno-minecraft", "--players", "3", "--games", "4", "--seed", "11")
    first = sim_json(capsys, *args)
    second = sim_json(capsys, *args)
    other = sim_json(capsys, "uno-minecraft", "--players", "3", "--games", "4", "--seed", "12")
    assert without_timings(first) == without_timings(second)
    assert without_timings(first) != without_timings(other)


def test_same_seed_same_output_with_hard_seats_too(capsys):
    # Hard samples a fixed number of deals in sim (no clock), so a seed still fixes the run
    args = ("uno", "--players", "3", "--games", "1", "--seed", "5", "--ai", "hard,normal,easy")
    args += ("--option", "target=100", "--hard-worlds", "6")
    first = sim_json(capsys, *args)
    assert without_timings(first) == without_timings(sim_json(capsys, *args))
    assert first["decision_ms"]["hard"]["p95"] >= 0


def test_ai_levels_per_seat_and_options(capsys):
    result = sim_json(
        capsys, "uno", "--players", "2", "--games", "3", "--ai", "first,random",
        "--option", "target=100", "--option", "scoring=running",
    )  # fmt: skip
    assert [s["ai"] for s in result["seats"]] == ["first", "random"]
    assert set(result["decision_ms"]) == {"first", "random"}


def test_table_output(capsys):
    assert main(["sim", "uno", "--players", "2", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "mean points" in out and "decisions per hand" in out


@pytest.mark.parametrize(
    "args,words",
    [
        (["nope"], ["unknown game", "uno-minecraft", "wild-twist-hearts"]),
        (["uno", "--players", "11"], ["--players", "2 to 8"]),
        (["uno", "--players", "1"], ["--players", "2 to 8"]),
        (["uno", "--games", "-3"], ["--games"]),
        (["uno", "--games", "0"], ["--games"]),
        (["uno", "--ai", "genius"], ["genius", "random", "first"]),
        (["uno", "--players", "3", "--ai", "random,first"], ["--ai"]),
        (["uno", "--option", "target=0"], ["target", "1 and 10000"]),
        (["uno", "--option", "colour=red"], ["colour", "target, scoring, wd4_bluff"]),
        (["uno", "--option", "oops"], ["NAME=VALUE"]),
        (["uno", "--players", "many"], ["--players"]),
        (["uno", "--hard-worlds", "0"], ["--hard-worlds"]),
        (["uno", "--hard-ms", "-5"], ["--hard-ms"]),
    ],
)
def test_bad_arguments_one_line_exit_2(capsys, args, words):
    try:
        status = main(["sim", *args])
    except SystemExit as stop:  # argparse's own errors
        status = stop.code
    assert status == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
    for word in words:
        assert word in captured.err


def test_command_line_error_has_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "unotable", "sim", "uno", "--players", "11"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_progress_bar_on_a_terminal_and_silence_into_a_pipe():
    import os
    import pty
    import sys
    import threading

    args = [sys.executable, "-m", "unotable", "sim", "uno", "--games", "3", "--json"]
    piped = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert piped.returncode == 0 and piped.stderr == ""
    json.loads(piped.stdout)
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm-256color"}
    seen = bytearray()

    def drain() -> None:  # read the terminal while sim runs, so it never blocks on it
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal closed with the process
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    with subprocess.Popen(args, stdout=subprocess.PIPE, stderr=follower, env=env) as proc:
        os.close(follower)
        out, _ = proc.communicate(timeout=120)
    reader.join(timeout=30)
    os.close(leader)
    assert proc.returncode == 0 and json.loads(out)["games"] == 3
    assert b"matches" in seen and b"hands" in seen  # the bar's own words, on the terminal
