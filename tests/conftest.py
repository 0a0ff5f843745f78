"""Shared fixtures: explicit UNO deals for scenario tests."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pytest

# Keep the rewritten test modules between runs even where PYTHONDONTWRITEBYTECODE is set
# (pytest then writes them to tests/__pycache__, as it does by default): rewriting all of
# them again costs each xdist worker about 3 s of CPU at every run.
sys.dont_write_bytecode = False

import textual.screen  # noqa: E402

from unotable.engine import get_game  # noqa: E402

# A test looks at the screen when it pauses (a pause lays out and draws what changed); the
# frames Textual would draw in between, 60 a second while computers play at instant speed,
# are a fifth of the suite's CPU and no test sees them. TEXTUAL_FPS is read when Textual is
# imported, before this file (pytest-textual-snapshot imports it), so the period is set here.
# Served sessions run in their own processes at Textual's own rate.
TEST_FRAMES_PER_SECOND = 10
textual.screen.UPDATE_PERIOD = 1 / TEST_FRAMES_PER_SECOND  # type: ignore[misc]

# Many app tests wait for the screen's next frame (Textual draws at most 60 a second), for a
# subprocess or for a socket, and use no CPU meanwhile: with one worker per core, a core
# idled through those waits. Two workers per core keep both busy.
WORKERS_PER_CORE = 2


@pytest.hookimpl(optionalhook=True)  # (a hook of xdist's: unknown when it is not loaded)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: two workers per core (xdist's default is one)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return WORKERS_PER_CORE * (cores or 1)


# A default draw pile (top first) of plain blue numbers, so draws are predictable.
FILLER = ("B6", "B7", "B8", "Y6", "Y7", "Y8", "G6", "G7", "G8")


@pytest.fixture
def deal() -> Callable[..., Any]:
    """``deal(hands, first="R5", pile=FILLER, dealer=None, game="uno", **options)``.

    By default the last seat deals, so seat 0 plays first.
    """

    def make(
        hands: Sequence[Sequence[str]],
        first: str = "R5",
        pile: Sequence[str] = FILLER,
        dealer: int | None = None,
        game: str = "uno",
        seed: int = 1,
        **options: Any,
    ) -> Any:
        players = len(hands)
        return get_game(game).from_deal(
            players,
            options=options,
            seed=seed,
            hands=[list(h) for h in hands],
            draw_pile=list(pile),
            first_discard=first,
            dealer=players - 1 if dealer is None else dealer,
        )

    return make


# The longest tests start first, so the xdist workers end together instead of one of them
# running a long test alone at the end.
LONG_FIRST = (
    "test_capacity_memory.py",
    "test_shared_ssh.py",
    "test_app_hotseat.py",
    "test_app_play.py",
    "test_uno_hearts_props.py",
    "test_wild_twist_props.py",
    "test_uno_properties.py",
    "test_app_snapshots.py",
    "test_app_dialogs.py",
    "test_tables_fair_memory.py",
    "test_app_upstream.py",
    "test_app_keysbar.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        name = item.path.name
        return LONG_FIRST.index(name) if name in LONG_FIRST else len(LONG_FIRST)

    items.sort(key=rank)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once every test module is imported, leave what exists now out of garbage collection:
    it lives to the end of the run, and each full collection walked all of it again."""
    gc.freeze()
