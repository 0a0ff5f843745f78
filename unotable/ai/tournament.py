"""Seeded matches between computer levels, and tournaments built from them.

Used by ``bench/ai_strength.py``, ``bench/ai_latency.py`` and the tests. A match is
driven the way the sim does it: after every action, seats holding an out-of-turn action
(late UNO call, catch) are offered it in seat order from the next seat and act only if
``wants_to_act`` says so; then the seat to move chooses from its own view.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS, Action, Match, get_game


def build_player(level: str, game_id: str, seed: int, hard_ms: float | None = None) -> Any:
    if level == "hard" and hard_ms is not None:
        from .levels import build

        return build(level, game_id, seed, budget_ms=hard_ms)
    from . import make_player

    return make_player(level, game_id, seed)


@dataclass
class MatchLog:
    """What one driven match produced."""

    levels: tuple[str, ...]  # level per seat
    hands: list[Any] = field(default_factory=list)  # HandResult per hand played
    decisions: list[tuple[int, Action]] = field(default_factory=list)
    timings: dict[str, list[float]] = field(default_factory=dict)  # level -> seconds
    winners: tuple[int, ...] = ()


def _wants(player: Any, view: Any) -> bool:
    wants = getattr(player, "wants_to_act", None)
    return True if wants is None else bool(wants(view))


def drive(
    match: Match,
    players: Sequence[Any],
    *,
    max_hands: int | None = None,
    max_actions: int = 200_000,
    on_decision: Callable[[int, Any, Action], None] | None = None,
    timed: bool = False,
) -> MatchLog:
    """Play ``match`` to its end (or ``max_hands`` hands) with one player per seat."""
    levels = tuple(getattr(p, "level", "?") for p in players)
    log = MatchLog(levels)
    timings = log.timings
    n = match.players
    last_actor = -1
    hands_at_start = len(match.hand_results)

    def ask(seat: int, view: Any) -> Action:
        player = players[seat]
        action: Action
        if timed:
            t0 = time.perf_counter()
            action = player.choose(view)
            timings.setdefault(levels[seat], []).append(time.perf_counter() - t0)
        else:
            action = player.choose(view)
        if on_decision is not None:
            on_decision(seat, view, action)
        return action

    for _ in range(max_actions):
        if match.over:
            break
        if max_hands is not None and len(match.hand_results) - hands_at_start >= max_hands:
            break
        acted = False
        for k in range(1, n + 1):  # out-of-turn offers, from the seat after the last actor
            seat = (last_actor + k) % n
            legal = match.legal_actions(seat)
            if not any(a.kind in OUT_OF_TURN_KINDS for a in legal):
                continue
            if seat == match.current and any(a.kind not in OUT_OF_TURN_KINDS for a in legal):
                continue  # the seat to move decides within its own turn below
            view = match.view(seat)
            if _wants(players[seat], view):
                action = ask(seat, view)
                if action.kind in OUT_OF_TURN_KINDS:
                    match.apply(seat, action)
                    log.decisions.append((seat, action))
                    acted = True
                    break
        if acted:
            continue
        current = match.current
        if current is None:
            actors = match.actors()
            if not actors:
                break
            current = actors[0]
        seat = current
        view = match.view(seat)
        action = ask(seat, view)
        match.apply(seat, action)
        log.decisions.append((seat, action))
        last_actor = seat
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
        build_player(level, game_id, seed * 31 + s, hard_ms) for s, level in enumerate(levels)
    ]
    return drive(match, players, max_hands=max_hands, timed=timed)


def hand_winner(result: Any) -> int | None:
    """The seat that went out in an UNO hand."""
    winner = result.notes.get("winner")
    return winner if isinstance(winner, int) else None


# -- tournaments ------------------------------------------------------------------------

UNO_GAMES = ("uno", "uno-minecraft")


def tournament_options(game_id: str, hands: int) -> dict[str, Any]:
    """Options that let one match run for ``hands`` hands (the per-hand figures are kept)."""
    if game_id in UNO_GAMES:
        return {"target": 10000}
    if game_id == "wild-twist-hearts":
        return {"length": max(1, min(99, hands))}
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

    Returns one (level, outcome) per seat per hand: for UNO 1.0 if that seat went out,
    else 0.0; for the Hearts games the points the seat scored in the hand.
    """
    n = len(lineup)
    levels = [lineup[(s + rotation) % n] for s in range(n)]
    options = tournament_options(game_id, hands)
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
            if game_id in UNO_GAMES:
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
