"""Fit the hard player's UNO leaf estimate (unotable/ai/uno_value.py) from simulated hands.

    python bench/fit_uno_value.py [--game G] [--hands N] [--seed S]

Plays N hands at 4 players with the search's own playout policy, keeps about a third of
the positions where a seat is to play (with the hand's winner), and fits the weights of
``uno_value.features`` by maximum likelihood of a conditional logit (softmax over seats),
80% of the positions for fitting and 20% held out. Prints the held-out log-likelihood
(against hand size alone and a uniform guess) and the weights to paste into WEIGHTS.
Needs numpy (not a dependency of unotable: ``pip install numpy``).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unotable.ai.rollout import UnoPlayout, turn_actions
from unotable.ai.uno_value import features
from unotable.engine import get_game

PLAYERS = 4


def positions(game_id: str, hands: int, seed: int) -> tuple[list, list]:
    spec = get_game(game_id)
    policy = UnoPlayout()
    rng = random.Random(seed)
    xs: list = []
    ys: list = []
    for _ in range(hands):
        match = spec.new_match(PLAYERS, {"target": 10000}, seed=rng.getrandbits(32))
        kept = []
        steps = 0
        while not match.hand_results and steps < 3000:
            seat = match.current
            if seat is None:
                seat = match.actors()[0]
            if match.pending is None and rng.random() < 0.3:
                kept.append([features(match, s) for s in range(PLAYERS)])
            legal = turn_actions(match.legal_actions(seat))
            match.apply(seat, legal[0] if len(legal) == 1 else policy(match, seat, legal, rng))
            steps += 1
        winner = match.hand_results[0].notes.get("winner") if match.hand_results else None
        if winner is not None:
            xs += kept
            ys += [winner] * len(kept)
    return xs, ys


def fit(xs: list, ys: list) -> None:
    import numpy as np

    x = np.array(xs, dtype=float)
    y = np.array(ys)
    order = np.random.default_rng(0).permutation(len(y))
    train, test = order[: int(len(y) * 0.8)], order[int(len(y) * 0.8) :]

    def loglik(w: np.ndarray, rows: np.ndarray) -> tuple[float, np.ndarray]:
        u = x[rows] @ w
        u -= u.max(1, keepdims=True)
        p = np.exp(u)
        p /= p.sum(1, keepdims=True)
        hit = np.zeros_like(p)
        hit[np.arange(len(rows)), y[rows]] = 1.0
        grad = np.einsum("ns,nsf->f", hit - p, x[rows]) / len(rows)
        return float(np.log(p[np.arange(len(rows)), y[rows]] + 1e-12).mean()), grad

    w = np.zeros(x.shape[2])
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    for it in range(1, 1501):  # Adam
        _, g = loglik(w, train)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        w += 0.05 * (m / (1 - 0.9**it)) / (np.sqrt(v / (1 - 0.999**it)) + 1e-8)
    size_only = np.zeros_like(w)
    size_only[0] = -0.45
    print(f"held-out log-likelihood: fitted {loglik(w, test)[0]:.4f}, ", end="")
    print(f"hand size alone {loglik(size_only, test)[0]:.4f}, uniform {np.log(0.25):.4f}")
    print("weights:", ", ".join(f"{a:.3f}" for a in w))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="uno", choices=("uno", "uno-minecraft"))
    parser.add_argument("--hands", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    xs, ys = positions(args.game, args.hands, args.seed)
    print(f"{len(ys)} positions from {args.hands} hands")
    fit(xs, ys)
    return 0


if __name__ == "__main__":
    sys.exit(main())
