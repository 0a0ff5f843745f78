"""What knowing more would be worth to the hard UNO player: search given hidden facts.

    python bench/uno_information.py [--game G] [--deals N] [--worlds W] [--workers K]
                                    [VARIANT ...]

Hard plays against three normal players in the duplicate format of ai_strength.py (each
deal four times, hard in each seat) and its win share minus 0.25 is reported per hand,
with the paired difference from the first variant on the same deals. The variants change
only what the search's sampled worlds may know; the hard player is otherwise as shipped:

* ``fair``: the shipped sampler (public cards, shown voids, what draws showed);
* ``colours``: each opponent's true number of cards of each colour and of wilds, the cards
  within a colour still at random;
* ``hands``: the opponents' true hands, the draw pile shuffled;
* ``all``: the true deal, draw pile order included.

The gaps between them bound what a better model of the opponents' hands could win. Each
decision samples a fixed number of worlds (``--worlds``), so runs repeat exactly.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from ai_strength import PLAYERS, deal_hand, outcome, play_out
from tune_uno import compare_on_common_deals

from unotable.ai.levels import build

VARIANTS = ("fair", "colours", "hands", "all")
DEAL_BASE = 5_000_011
WILD = 4  # the colour slot of a wild card in the tallies below


def _slot(card: Any) -> int:
    return WILD if card.is_wild else int(card.color_index)


def with_true_colours(world: Any, truth: Any, me: int, rng: random.Random) -> None:
    """Redeal each opponent's hand in ``world`` from its hand and the draw pile, keeping
    its cards random but its tally per colour (and of wilds) that of the true hand."""
    for seat, true_hand in enumerate(truth.hands):
        if seat == me:
            continue
        pool = world.hands[seat] + world.draw_pile
        by_slot: list[list[int]] = [[] for _ in range(WILD + 1)]
        for i, card in enumerate(pool):
            by_slot[_slot(card)].append(i)
        chosen: list[int] = []
        for card in true_hand:
            group = by_slot[_slot(card)]
            if not group:  # the other hands took this colour's last cards: keep the sample
                break
            j = rng.randrange(len(group))
            group[j], group[-1] = group[-1], group[j]
            chosen.append(group.pop())
        else:
            taken = set(chosen)
            world.hands[seat] = sorted((pool[i] for i in chosen), key=lambda c: c.index)
            world.draw_pile = [c for i, c in enumerate(pool) if i not in taken]


def hard_player(variant: str, game_id: str, deal: int, worlds: int, truth: Any, me: int) -> Any:
    player = build("hard", game_id, deal, worlds=worlds)
    brain = player.brain
    fair = brain.determinize
    if variant == "colours":

        def sample(view: Any, rng: random.Random, avoid: Any = None) -> Any:
            world = fair(view, rng, avoid)
            with_true_colours(world, truth, me, rng)
            return world

    elif variant == "hands":

        def sample(view: Any, rng: random.Random, avoid: Any = None) -> Any:
            world = truth.clone()
            rng.shuffle(world.draw_pile)
            return world

    elif variant == "all":

        def sample(view: Any, rng: random.Random, avoid: Any = None) -> Any:
            return truth.clone()

    else:
        return player
    brain.determinize = sample
    brain.infer_draws = False  # the worlds above already agree with every draw
    return player


def deal_edge(task: tuple[str, str, int, int]) -> float:
    variant, game_id, deal, worlds = task
    wins = 0.0
    for seat in range(PLAYERS):
        match = deal_hand(game_id, deal, PLAYERS)
        players = [
            hard_player(variant, game_id, deal, worlds, match, seat)
            if s == seat
            else build("normal", game_id, deal)
            for s in range(PLAYERS)
        ]
        wins += outcome(game_id, play_out(match, players), seat)
    return wins / PLAYERS - 1 / PLAYERS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("variants", nargs="*", help=f"any of {', '.join(VARIANTS)} (default: all)")
    parser.add_argument("--game", choices=("uno", "uno-minecraft"), default="uno")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--worlds", type=int, default=100, help="sampled worlds per decision")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.deals < 2 or args.worlds < 1 or args.workers < 1:
        parser.error("--deals must be at least 2, --worlds and --workers at least 1")
    variants = args.variants or list(VARIANTS)
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {', '.join(unknown)}; choose from {', '.join(VARIANTS)}")
    runs = [
        (
            f"{variant:8} hard − 0.25",
            [(variant, args.game, DEAL_BASE + d, args.worlds) for d in range(args.deals)],
        )
        for variant in variants
    ]
    tail = f"{args.game}, {args.deals} deals"
    compare_on_common_deals(args.workers, deal_edge, runs, 4, tail)
    return 0


if __name__ == "__main__":
    sys.exit(main())
