"""Baselines: a random player and a first-legal-card player."""

from __future__ import annotations

import random

from unotable.engine import Action, View


def choose_random_playing(rng: random.Random, legal: list[Action] | tuple[Action, ...]) -> Action:
    """A random card play when there is one, otherwise a random legal action.

    Like RLCard's UNO random agent: uniformly random over all actions would draw so often
    that a UNO hand lasts thousands of actions.
    """
    plays = [a for a in legal if a.kind == "play"]
    return rng.choice(plays or legal)


class RandomPlayer:
    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: View) -> Action:
        return choose_random_playing(self.rng, view.legal)

    def wants_to_act(self, view: View) -> bool:
        return bool(view.legal)


class FirstLegalPlayer:
    """The simplest useful baseline: the first legal action, card plays first."""

    level = "first"

    def choose(self, view: View) -> Action:
        for action in view.legal:
            if action.kind == "play":
                return action
        return view.legal[0]

    def wants_to_act(self, view: View) -> bool:
        return bool(view.legal)
