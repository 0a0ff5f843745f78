"""The hard player: determinized search (perfect-information Monte Carlo) with playouts.

For each decision it repeatedly samples a world consistent with its view (the engines'
``determinize``: unseen cards dealt at random, shown voids and known cards honoured),
plays every candidate action in that same world and finishes with a fast playout policy
that respects legality (``rollout``), using the same random stream for every candidate
(common random numbers: the comparison between candidates is far less noisy than each
value). The hand-written normal strategy proposes a default; the search overrides it
only when the sampled advantage clears a bound corrected for the number of candidates
(Bonferroni: with k candidates, k-1 one-sided comparisons share the error rate
``alpha``), so a dozen noisy candidates cannot beat a sound default by luck. Candidates
clearly worse than the default are dropped as the worlds come in (successive
elimination), which leaves the budget to the contenders. It stops at its time budget, at
``cancel()``, or, for reproducible tests, after a fixed number of sampled worlds.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from itertools import combinations
from statistics import NormalDist
from typing import Any

from unotable.engine import SHEDDING, Action, Match, get_game

from .base import Brain
from .cards import trick_card, uno_card
from .rollout import Policy, policy_for, turn_actions
from .uno import best_colour, colour_counts, unseen_by_colour
from .uno_value import WEIGHTS, utility

COLOUR_INDEX = {"R": 0, "Y": 1, "G": 2, "B": 3}

DEFAULT_BUDGET_MS = 120.0
ALPHA = 0.1  # family-wise chance of overriding the default by luck (Hearts games)
# UNO: each decision moves the chance of going out by about a percent, so a guard as strict
# as the Hearts one leaves the search's findings unused (measured: 0.4 beat 0.1 and 0.8;
# valued by continuations from the true deal, 0.2 did as well as 0.4 or a little better)
UNO_ALPHA = 0.2
PRUNE_AFTER = 12  # worlds before candidates clearly worse than the default are dropped
MAX_SWAP_TRIES = 12  # refine: draws from the pile before leaving a card where it is
MAX_PLAYOUT_STEPS = 3000  # a hand never needs this many; guards against a stuck playout

Determinizer = Callable[..., Match]


def determinizer_for(game_id: str) -> Determinizer:
    """The engine's ``determinize(view, rng, avoid)`` for this game (its spec's)."""
    found = get_game(game_id).determinizer
    if found is None:
        raise ValueError(f"the game {game_id!r} has no determinizer: it cannot be searched")
    return found


class SearchBrain(Brain):
    """PIMC search on top of a prior brain (the normal strategy)."""

    def __init__(
        self,
        game_id: str,
        prior: Brain,
        budget_ms: float = DEFAULT_BUDGET_MS,
        worlds: int | None = None,
        alpha: float | None = None,
    ) -> None:
        self.game = game_id
        # UNO-like play (go out first) or Hearts-like play (take few points)
        self.shedding = get_game(game_id).facts.family == SHEDDING
        self.prior = prior
        self.budget_ms = budget_ms
        self.worlds = worlds  # fixed number of sampled worlds (tests), instead of the clock
        shedding = self.shedding
        self.alpha = alpha if alpha is not None else UNO_ALPHA if shedding else ALPHA
        # UNO playouts: rounds of turns before the fitted estimate (uno_value) takes over;
        # one round sees the replies to the move, and the estimate is sharper than more
        # rounds of playout noise
        self.uno_rounds = 1
        self.uno_colours = 2  # UNO: colours tried for a wild (most held, plus the next seat's void)
        self.bluff_victim = 1  # UNO: a Wild Draw Four bluff is searched against this many cards
        self.draw_for_wilds = True  # UNO: search drawing when only wilds can be played
        self.infer_draws = True  # UNO: a seat that drew held nothing playable (refine)
        self.uno_weights = WEIGHTS.get(game_id, WEIGHTS["uno"])
        self.policy: Policy = policy_for(game_id)
        self.determinize = determinizer_for(game_id)
        self._cancel = threading.Event()
        self.last_stats: dict[str, Any] = {}
        self.errors: list[str] = []  # searches that failed (the normal choice was played)

    def cancel(self) -> None:
        """Stop the decision in progress now and return the best move found so far."""
        self._cancel.set()

    # -- deciding ---------------------------------------------------------------------------

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        self._cancel.clear()
        start = time.perf_counter()
        default = self.prior.decide(view, actions, rng)
        if not self.searchable(view, actions, default):
            return default
        candidates = self.candidates(view, actions, default)
        if len(candidates) < 2:
            return default
        deadline = start + self.budget_ms / 1000.0
        seed = rng.getrandbits(64)
        self.tune_policy(view)
        try:
            best = self.search(view, candidates, default, seed, deadline)
        except Exception as error:  # a failed search must not stop the game
            self.errors.append(repr(error))
            best = default
        self._cancel.clear()
        if best != default:
            remember = getattr(self.prior, "remember", None)
            if remember is not None:
                remember(view, best)  # the prior's memory must follow the card played
        return best

    def searchable(self, view: Any, actions: Sequence[Action], default: Action) -> bool:
        kinds = {a.kind for a in actions}
        # challenges follow the opponent model's posterior; moon and colour of the first
        # discard follow the rules' policies / the hand. A pending draw (UNO's stacking)
        # is searched: accept against each stacking play.
        if kinds & {"challenge", "moon", "color"}:
            return False
        return not self.dumps_top_card(view, default)

    def dumps_top_card(self, view: Any, default: Action) -> bool:
        """Hearts games: discarding the 13-point card on someone else's trick is never
        worth second-guessing (a playout can only find noise there)."""
        if self.shedding or default.kind != "play" or not view.trick:
            return False
        info = trick_card(default.card)
        if info.points < 13:
            return False
        lead = view.lead_suit
        return lead is not None and info.suit != lead

    def tune_policy(self, view: Any) -> None:
        """Hand the opponent model's challenge rates to the UNO playout policy."""
        opponents = getattr(self.prior, "opponents", None)
        rates = getattr(self.policy, "challenge_rates", None)
        if opponents is None or rates is None:
            return
        for seat in range(view.players):
            rates[seat] = opponents.challenge_rate(seat)

    def candidates(self, view: Any, actions: Sequence[Action], default: Action) -> list[Action]:
        kinds = {a.kind for a in actions}
        if "give" in kinds:
            return self.give_candidates(view, actions, default)
        if self.shedding:
            return self.uno_candidates(view, actions, default)
        return self.trick_candidates(view, actions, default)

    def trick_candidates(
        self, view: Any, actions: Sequence[Action], default: Action
    ) -> list[Action]:
        """Plays, with touching cards merged: 6♦ and 7♦ are the same card when nobody
        else can hold (and the trick does not show) anything ranked between them."""
        from .hearts import read_table

        if not any(a.kind == "play" for a in actions):
            return list(dict.fromkeys(actions))
        table = read_table(view)
        between: dict[str, list[int]] = {
            suit: list(ranks) for suit, ranks in table.unseen_by_suit.items()
        }
        for _seat, card, _declared in view.trick:
            shown = trick_card(card)
            if shown.suit is not None and not shown.wild:
                between.setdefault(shown.suit, []).append(shown.rank)
        result: list[Action] = []
        kept_by_suit: dict[str, list[tuple[int, int]]] = {}
        for action in actions:
            info = trick_card(action.card) if action.kind == "play" else None
            if info is None or info.wild or info.suit is None:
                result.append(action)
                continue
            merged = False
            for rank, points in kept_by_suit.get(info.suit, []):
                low, high = sorted((rank, info.rank))
                if points == info.points and not any(
                    low < r < high for r in between.get(info.suit, ())
                ):
                    merged = True
                    break
            if not merged:
                kept_by_suit.setdefault(info.suit, []).append((info.rank, info.points))
                result.append(action)
        if default not in result:
            # the default stands for its group: swap it in for the card it merged with
            info = trick_card(default.card)
            for i, action in enumerate(result):
                other = trick_card(action.card) if action.kind == "play" else None
                if other is not None and other.suit == info.suit and not other.wild:
                    low, high = sorted((other.rank, info.rank))
                    if other.points == info.points and not any(
                        low < r < high for r in between.get(info.suit or "", ())
                    ):
                        result[i] = default
                        break
            else:
                result.insert(0, default)
        return result

    def uno_candidates(self, view: Any, actions: Sequence[Action], default: Action) -> list[Action]:
        """Every plain play; wilds only in the colours worth naming; draw only if nothing else."""
        counts = colour_counts(view.hand)
        unseen = unseen_by_colour(view)
        ranked = sorted(counts, key=lambda c: (-counts[c], unseen[c]))
        worth = {best_colour(view.hand, unseen), *ranked[: self.uno_colours]}
        memory = getattr(self.prior, "memory", None)
        if memory is not None:
            worth |= memory.lacks((view.seat + view.direction) % view.players)
        active = view.active_color
        bluffing = active is not None and counts.get(active, 0) > 0
        victim_size = view.hand_sizes[(view.seat + view.direction) % view.players]
        plays = []
        for action in actions:
            if action.kind != "play":
                continue
            info = uno_card(action.card)
            if info.colour is None and action.choice not in worth:
                continue
            if info.kind == "wd4" and bluffing and victim_size > self.bluff_victim:
                continue  # a bluff: only worth searching against a seat about to win
            plays.append(action)
        keep = [a for a in actions if a.kind in ("keep", "accept")]  # accept: a pending draw
        result = plays + keep
        if self.draw_for_wilds and plays and all(uno_card(a.card).colour is None for a in plays):
            # only wilds play: drawing instead keeps the wild for later
            result += [a for a in actions if a.kind == "draw"]
        if not plays:
            result = list(actions)
        if default not in result:
            result.insert(0, default)
        return result

    def give_candidates(
        self, view: Any, actions: Sequence[Action], default: Action
    ) -> list[Action]:
        """The passes made from the five cards the prior most wants to pass."""
        priority = getattr(self.prior, "pass_priority", None)
        if priority is None:
            return [default]
        from .hearts import read_table

        table = read_table(view)
        top = sorted(view.hand, key=lambda c: -priority(table, c))[:5]
        wanted = {frozenset(trio) for trio in combinations(top, 3)}
        result = [a for a in actions if frozenset(a.cards) in wanted]
        if default not in result:
            result.insert(0, default)
        return result

    def search(
        self,
        view: Any,
        candidates: list[Action],
        default: Action,
        seed: int,
        deadline: float,
    ) -> Action:
        me = view.seat
        k = len(candidates)
        d = candidates.index(default)
        z = override_bound(k, self.alpha)
        totals = [0.0] * k
        counts = [0] * k
        diffs = [0.0] * k  # sum of (value - value of default) per candidate
        diffs_sq = [0.0] * k
        alive = list(range(k))
        world_rng = random.Random(seed)
        avoid = self.avoid(view)
        blocked = self.blocked(view) if self.infer_draws else None
        sampled = 0
        limit = self.worlds
        values = [0.0] * k
        while True:
            if limit is not None:
                if sampled >= limit:
                    break
            elif sampled and (time.perf_counter() >= deadline or self._cancel.is_set()):
                break
            if self._cancel.is_set() and sampled:
                break
            world = self.determinize(view, world_rng, avoid)
            if blocked:
                refine(world, blocked, world_rng)
            playout_seed = world_rng.getrandbits(64)
            complete = True
            for i in alive:
                if limit is None and sampled and time.perf_counter() >= deadline:
                    complete = False  # out of time mid-world: drop the partial world
                    break
                values[i] = self.playout(world, me, candidates[i], playout_seed)
            if not complete:
                break
            base = values[d]
            for i in alive:
                totals[i] += values[i]
                counts[i] += 1
                delta = values[i] - base
                diffs[i] += delta
                diffs_sq[i] += delta * delta
            sampled += 1
            if sampled >= PRUNE_AFTER and len(alive) > 2:
                alive = [
                    i for i in alive if i == d or edge(diffs[i], diffs_sq[i], sampled, -z)[0] >= 0.0
                ]
        best = choose(diffs, diffs_sq, sampled, alive, d, z)
        self.last_stats = {
            "worlds": sampled,
            "candidates": k,
            "bound_z": z,
            "alive": len(alive),
            "means": [t / c if c else math.nan for t, c in zip(totals, counts, strict=True)],
            "chosen": str(candidates[best]),
            "default": str(default),
        }
        return candidates[best]

    def avoid(self, view: Any) -> Any:
        """Colours (UNO) each seat seems to lack; Hearts engines use the view's voids."""
        memory = getattr(self.prior, "memory", None)
        if memory is None:
            return None
        return {seat: memory.lacks(seat) for seat in range(view.players) if memory.lacks(seat)}

    def blocked(self, view: Any) -> dict[int, tuple[int, int]]:
        """UNO: per seat, the (top card index, colour index) it last drew on, for the seats
        whose hands the sampler deals entirely at random (no card of theirs is known)."""
        memory = getattr(self.prior, "memory", None)
        found = getattr(memory, "blocked", None)
        if not found:
            return {}
        known = getattr(view, "known", ())
        result = {}
        for seat, (top, colour) in found.items():
            if seat == view.seat or (seat < len(known) and known[seat]):
                continue
            index = getattr(top, "index", None)
            if index is not None and colour in COLOUR_INDEX:
                result[seat] = (index, COLOUR_INDEX[colour])
        return result

    def notice(self, view: Any, action: Action) -> None:
        self.prior.notice(view, action)

    def playout(self, world: Match, me: int, action: Action, seed: int) -> float:
        match = world.clone()
        hands_before = len(match.hand_results)
        match.apply(me, action)
        rng = random.Random(seed)
        policy = self.policy
        steps = 0
        horizon = self.horizon(match)
        while len(match.hand_results) == hands_before and not match.over:
            # (a stacked draw still pending is played out first: the estimate cannot see it)
            if steps >= horizon and not (
                getattr(match, "stack_mode", 0) and getattr(match, "draw_count", 0)
            ):
                return self.estimate(match, me)
            seat = match.current
            if seat is None:
                actors = match.actors()
                if not actors:
                    break
                seat = actors[0]
            legal = turn_actions(match.legal_actions(seat))
            if not legal:
                break
            match.apply(seat, legal[0] if len(legal) == 1 else policy(match, seat, legal, rng))
            steps += 1
            if steps > MAX_PLAYOUT_STEPS:
                break
        return self.value(match, me, hands_before)

    def horizon(self, match: Match) -> int:
        """UNO playouts stop after a few rounds: the near future carries the signal."""
        if self.shedding:
            return self.uno_rounds * match.players
        return MAX_PLAYOUT_STEPS

    def estimate(self, match: Match, me: int) -> float:
        """Chance of going out first, from the fitted model of ``uno_value`` (hand sizes,
        wilds held, turn order, whether a short hand can play now)."""
        if not getattr(match, "hands", None):
            return 0.0
        weights = self.uno_weights
        utilities = [utility(match, s, weights) for s in range(match.players)]
        top = max(utilities)
        exps = [math.exp(u - top) for u in utilities]
        return exps[me] / sum(exps)

    def value(self, match: Match, me: int, hands_before: int) -> float:
        """What the hand's outcome is worth to me (higher is better)."""
        if len(match.hand_results) == hands_before:
            return 0.0
        result = match.hand_results[hands_before]
        points = result.points
        if self.shedding:
            winner = result.notes.get("winner")
            return 1.0 if winner == me else 0.0
        others = [p for s, p in enumerate(points) if s != me]
        return sum(others) / len(others) - points[me]


def refine(world: Any, blocked: dict[int, tuple[int, int]], rng: random.Random) -> None:
    """Make a sampled UNO world agree with what seats showed by drawing: a seat that drew
    on (top card, colour) held nothing playable there, so each such card dealt to it is
    swapped with a random unplayable card from the draw pile (when one is left)."""
    from unotable.engine.uno.cards import MATCH

    hands = getattr(world, "hands", None)
    pile = getattr(world, "draw_pile", None)
    if hands is None or pile is None:
        return
    for seat, (top, colour) in blocked.items():
        playable = MATCH[top][colour]
        hand = hands[seat]
        moved = False
        for i, card in enumerate(hand):
            if not playable[card.index]:
                continue
            for _ in range(MAX_SWAP_TRIES):  # a random unplayable card from the pile
                j = rng.randrange(len(pile)) if pile else -1
                if j >= 0 and not playable[pile[j].index]:
                    hand[i], pile[j] = pile[j], card
                    moved = True
                    break
        if moved:
            hand.sort(key=_card_index)


def _card_index(card: Any) -> int:
    return int(card.index)


def override_bound(candidates: int, alpha: float = ALPHA) -> float:
    """How many standard errors a challenger must beat the default by.

    Bonferroni: ``candidates - 1`` one-sided comparisons share the error rate ``alpha``,
    so the bound grows with the number of candidates.
    """
    comparisons = max(1, candidates - 1)
    return NormalDist().inv_cdf(1.0 - alpha / comparisons)


def edge(total: float, total_sq: float, n: int, z: float) -> tuple[float, float]:
    """(mean - z * standard error, mean) of a candidate's advantage over the default."""
    if n <= 1:
        return (-math.inf if z > 0 else math.inf, total / n if n else 0.0)
    mean = total / n
    var = max(0.0, (total_sq / n - mean * mean) * n / (n - 1))
    return (mean - z * math.sqrt(var / n), mean)


def choose(
    diffs: Sequence[float],
    diffs_sq: Sequence[float],
    sampled: int,
    alive: Sequence[int],
    default: int,
    z: float,
) -> int:
    """The default, unless some candidate's advantage clears the corrected bound; among
    those that do, the one with the best mean advantage."""
    best, best_mean = default, 0.0
    if sampled < 2:
        return default
    for i in alive:
        if i == default:
            continue
        low, mean = edge(diffs[i], diffs_sq[i], sampled, z)
        if low > 0.0 and mean > best_mean:
            best, best_mean = i, mean
    return best
