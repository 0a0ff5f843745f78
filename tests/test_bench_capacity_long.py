"""bench/capacity.py's figures for long runs: memory growth per session, the idle players'
cost, and how a server process is told to be a player's session. Pure helpers, no server."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "capacity.py"


@pytest.fixture(scope="module")
def capacity() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_capacity", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_process_belongs_to_the_player_whose_folder_it_works_in(capacity: ModuleType) -> None:
    users = "/tmp/unotable-capacity-x/users"
    assert capacity.player_of(f"{users}/idle0", users) == "idle0"
    assert capacity.player_of(f"{users}/p07/", users + "/") == "p07"
    assert capacity.player_of("/work/main", users) is None  # the server, the launcher
    assert capacity.player_of(f"{users}/p07/sub", users) is None
    assert capacity.player_of("/tmp/other/users/p07", users) is None


def test_memory_growth_is_per_session_from_the_first_sample(capacity: ModuleType) -> None:
    sample = capacity.MemorySample
    samples = [
        sample(0.0, 4096, 2048, {"a": 1024, "b": 1024}),
        sample(30.0, 6144, 4096, {"a": 3072, "b": 1024}),  # the peak
        sample(60.0, 5120, 3072, {"a": 2048, "b": 4096}),
    ]
    memory = capacity.memory_growth(samples, 2, idle=("b",))
    assert memory["start"] == [2.0, 1.0]
    assert memory["end"] == [2.5, 1.5]
    assert memory["growth"] == [0.5, 0.5]
    assert memory["max_growth"] == [1.0, 1.0]
    assert memory["session_pss_growth"]["max"] == 1.0  # a's own process: 1 -> 2 MiB
    assert memory["idle_session_pss_growth"]["max"] == 3.0  # b's, idle: 1 -> 4 MiB
    assert memory["idle_session_pss_growth"]["n"] == 1
    assert [x["seconds"] for x in memory["samples"]] == [0.0, 30.0, 60.0]


def test_an_idle_players_cost_counts_only_the_window(capacity: ModuleType) -> None:
    threads = {10: (True, 10**9, 100), 12: (False, 0, 0)}
    before = capacity.IdleReading({10: 1.0}, 1000, 800, 3, threads)
    threads = {10: (True, 15 * 10**8, 150), 12: (False, 2 * 10**8, 1000), 13: (False, 10**8, 10)}
    after = capacity.IdleReading({10: 1.5, 11: 0.5}, 1600, 800, 3, threads)
    idle = capacity.idle_figures("idle0", before, after, 100.0, on_turn=True)
    assert idle["cpu_percent"] == pytest.approx(1.0)  # 0.5 s more of 10, 0.5 s of new 11
    assert idle["wire_bytes_per_second"] == pytest.approx(6.0)
    assert idle["terminal_bytes_per_second"] == 0.0
    assert idle["screen_changes"] == 0
    assert idle["processes"] == 2
    assert idle["main_thread_cpu_percent"] == pytest.approx(0.5)
    assert idle["main_thread_wakeups_per_second"] == pytest.approx(0.5)
    assert idle["other_threads_cpu_percent"] == pytest.approx(0.3)  # 12's 0.2 s, new 13's 0.1
    assert idle["other_threads_wakeups_per_second"] == pytest.approx(10.1)


def test_idle_players_sit_four_to_a_table_apart_from_the_others(capacity: ModuleType) -> None:
    assert capacity.player_groups("idle", 0) == []
    assert capacity.player_groups("idle", 1) == [["idle0"]]
    assert capacity.player_groups("idle", 2) == [["idle0", "idle1"]]
    assert [len(g) for g in capacity.player_groups("p", 10)] == [4, 3, 3]
    assert capacity.player_groups("p", 16)[3] == ["p12", "p13", "p14", "p15"]
