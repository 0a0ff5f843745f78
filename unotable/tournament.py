"""Seeded matches between computer levels, and tournaments built from them.

Used by ``bench/ai_strength.py``, ``bench/ai_latency.py`` and the tests. Every match is
driven by the runner on a virtual clock, exactly as ``sim`` and the app drive one. It sits
above the controller (which imports the computer players), not inside ``unotable.ai``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unotable.ai import make_player
from unotable.ai.levels import build
from unotable.controller import Controller, Runner, Seat, VirtualClock, computer_seed
from unotable.engine import SHEDDING, Action, Match, get_game


def build_player(level: str, game_id: str, seed: int, hard_ms: float | None = None) -> Any:
    if level == "hard" and hard_ms is not None:
        return build(level, game_id, seed, budget_ms=hard_ms)
    return make_player(level, game_id, seed)


@dataclass
class MatchLog:
    """What one driven match produced."""

    levels: tuple[str, ...]  # level per seat
    hands: list[Any] = field(default_factory=list)  # HandResult per hand played
    decisions: list[tuple[int, Action]] = field(default_factory=list)
    timings: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds
    winners: tuple[int, ...] = ()


class _Watched:
    """A player whose every decision is reported (and timed, when asked)."""

    def __init__(self, seat: int, player: Any, log: MatchLog, report: Any, timed: bool) -> None:
        self.seat, self.player, self.log, self.report, self.timed = seat, player, log, report, timed
        self.level = getattr(player, "level", "?")
        wants = getattr(player, "wants_to_act", None)
        if wants is not None:
            self.wants_to_act = wants

    def choose(self, view: Any) -> Action:
        started = time.perf_counter()
        action: Action = self.player.choose(view)
        if self.timed:
            self.log.timings.setdefault(self.level, []).append(time.perf_counter() - started)
        if self.report is not None:
            self.report(self.seat, view, action)
        return action


def drive(
    match: Match,
    players: Sequence[Any],
    *,
    max_hands: int | None = None,
    max_actions: int | None = None,
    on_decision: Callable[[int, Any, Action], None] | None = None,
    timed: bool = False,
) -> MatchLog:
    """Play ``match`` to its end (or ``max_hands`` hands, or ``max_actions`` actions) through
    the runner, with one player object per seat."""
    levels = tuple(getattr(p, "level", "?") for p in players)
    log = MatchLog(levels)
    watched = {s: _Watched(s, p, log, on_decision, timed) for s, p in enumerate(players)}
    seats = [Seat(f"Seat {s + 1}", level) for s, level in enumerate(levels)]
    controller = Controller(
        match.spec.id, seats, clock=VirtualClock(), speed="instant", match=match, computers=watched
    )
    hands_at_start = len(match.hand_results)
    history_at_start = len(match.history)
    Runner(controller).run(max_hands=max_hands, max_actions=max_actions)
    log.decisions = list(match.history[history_at_start:])
    log.hands = list(match.hand_results[hands_at_start:])
    log.winners = match.winners
    return log


def play_match(
    game_id: str,
    levels: Sequence[str],
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    max_hands: int | None = None,
    hard_ms: float | None = None,
    timed: bool = False,
) -> MatchLog:
    spec = get_game(game_id)
    match = spec.new_match(len(levels), options, seed=seed)
    players = [
        build_player(level, game_id, computer_seed(seed, s), hard_ms)
        for s, level in enumerate(levels)
    ]
    return drive(match, players, max_hands=max_hands, timed=timed)


def hand_winner(result: Any) -> int | None:
    """The seat that went out in a shedding game's hand."""
    winner = result.notes.get("winner")
    return winner if isinstance(winner, int) else None


# -- tournaments ------------------------------------------------------------------------


def tournament_options(game_id: str, hands: int) -> dict[str, Any]:
    """Options that let one match run for ``hands`` hands (the per-hand figures are kept)."""
    spec = get_game(game_id)
    facts = spec.facts
    option = {o.name: o for o in spec.options}
    if facts.length_option:
        o = option[facts.length_option]
        return {o.name: max(o.minimum or 1, min(o.maximum or hands, hands))}
    if facts.family == SHEDDING and facts.target_option:
        # as far off as allowed: a shedding match then lasts for many hands
        return {facts.target_option: option[facts.target_option].maximum}
    return {}


def run_block(
    game_id: str,
    lineup: Sequence[str],
    rotation: int,
    seed: int,
    hands: int,
    hard_ms: float | None,
) -> list[tuple[str, float]]:
    """Play ``hands`` hands with ``lineup`` rotated by ``rotation`` seats.

    Returns one (level, outcome) per seat per hand: in a shedding game 1.0 if that seat
    went out, else 0.0; in a trick-taking game the points the seat scored in the hand.
    """
    n = len(lineup)
    levels = [lineup[(s + rotation) % n] for s in range(n)]
    options = tournament_options(game_id, hands)
    shedding = get_game(game_id).facts.family == SHEDDING
    outcomes: list[tuple[str, float]] = []
    played = 0
    match_seed = seed
    while played < hands:
        log = play_match(
            game_id, levels, match_seed, options=options, max_hands=hands - played, hard_ms=hard_ms
        )
        if not log.hands:
            break
        for result in log.hands:
            if shedding:
                winner = hand_winner(result)
                outcomes += [(levels[s], 1.0 if s == winner else 0.0) for s in range(n)]
            else:
                outcomes += [(levels[s], float(result.points[s])) for s in range(n)]
        played += len(log.hands)
        match_seed += 7919
    return outcomes


def _run_block_args(args: tuple[Any, ...]) -> list[tuple[str, float]]:
    return run_block(*args)


def tournament(
    game_id: str,
    lineup: Sequence[str],
    hands: int,
    *,
    seed: int = 1,
    hard_ms: float | None = None,
    workers: int = 2,
    block: int = 10,
) -> dict[str, list[float]]:
    """Per-level outcomes of about ``hands`` hands, every rotation of the lineup equally.

    The same deal seeds are played in every rotation, so luck of the deal cancels out
    between levels as far as it can.
    """
    n = len(lineup)
    per_rotation = max(1, -(-hands // n))
    tasks = []
    for start in range(0, per_rotation, block):
        size = min(block, per_rotation - start)
        for rotation in range(n):
            tasks.append((game_id, tuple(lineup), rotation, seed * 100_003 + start, size, hard_ms))
    results: dict[str, list[float]] = {level: [] for level in lineup}
    if workers > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            blocks = pool.map(_run_block_args, tasks, chunksize=1)
    else:
        blocks = [_run_block_args(t) for t in tasks]
    for outcomes in blocks:
        for level, value in outcomes:
            results[level].append(value)
    return results
