"""Hand-written strategies for UNO and UNO Minecraft.

Normal scores every legal play: it steers the active colour towards the colour it holds
most, sheds points, keeps wilds until they matter, hits a seat that is close to going out
(Draw Two, Skip, Reverse, Wild Draw Four, even as a bluff when that seat has one card),
challenges a Wild Draw Four when its opponent model (unotable.ai.opponents) makes a bluff
likely, and reads the
discard pile to know which colours are scarce. Easy plays the first sensible card.

The house rules (RULES §4) are played too: a pending draw is stacked on rather than
taken (normal keeps a lone Wild Draw Four back from a small draw while nothing is at
stake), a 7 swaps with the seat holding the fewest cards (and the best cards it is known
to hold), a 7 or a 0 is played for the hand it brings in and kept back when it would
hand the next seat a short hand, and with draw to match nobody draws while a card plays.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from unotable.engine import Action

from .base import Brain
from .cards import UNO_COLOURS, UnoCard, uno_card
from .opponents import UnoOpponents
from .strategies import Strategy, register_strategy

PER_COLOUR = 25  # one 0, two each of 1–9, Skip, Reverse, Draw Two (RULES §3.1)
ATTACKS = frozenset({"skip", "draw2", "wd4"})


def colour_counts(hand: Sequence[Any]) -> dict[str, int]:
    counts = dict.fromkeys(UNO_COLOURS, 0)
    for card in hand:
        colour = uno_card(card).colour
        if colour is not None:
            counts[colour] += 1
    return counts


def unseen_by_colour(view: Any) -> dict[str, int]:
    """Cards of each colour not in my hand and not on the discard pile."""
    seen = colour_counts(view.hand)
    for card in view.discard:
        colour = uno_card(card).colour
        if colour is not None:
            seen[colour] += 1
    return {c: max(0, PER_COLOUR - seen[c]) for c in UNO_COLOURS}


def house_rule(view: Any, name: str) -> Any:
    """A house rule's setting in the view's options (RULES §4; None or off: not played)."""
    value = getattr(view, "options", {}).get(name)
    return None if value in (None, False, "off") else value


def next_seat(view: Any, steps: int = 1) -> int:
    return int((view.seat + steps * view.direction) % view.players)


def best_colour(hand: Sequence[Any], unseen: dict[str, int], exclude: Any = None) -> str:
    """The colour I hold most of (points break ties, then scarcity for the others)."""
    counts = dict.fromkeys(UNO_COLOURS, 0.0)
    skipped = False
    for card in hand:
        if card is exclude and not skipped:
            skipped = True
            continue
        info = uno_card(card)
        if info.colour is not None:
            counts[info.colour] += 1.0 + info.points / 400.0
    return max(UNO_COLOURS, key=lambda c: (counts[c], -unseen[c]))


class Memory:
    """Colours each seat has shown it lacks, read from how views change between my turns.

    When a seat draws on its turn it had nothing to play on the colour then active (or
    chose not to). Between two of my decisions the new discards and the change in each
    seat's hand size tell who drew on what, as long as nothing but number cards and
    plain wilds were played; anything murkier only clears what became uncertain.
    """

    def __init__(self) -> None:
        self.voids: dict[int, set[str]] = {}
        self.moves_seen = 0  # Seven-O: the hand moves this hand already followed
        self.hand_number = -1
        self.discard_len = 0
        self.sizes: tuple[int, ...] = ()
        self.direction = 1
        self.colour_after: str | None = None
        self.revealed: tuple[int, ...] = ()
        # the (top card, active colour) each seat last drew on: its whole hand then, and the
        # card it drew and kept, could not be played there (no card of the colour or face,
        # no wild); forgotten when its hand grows in a way the views do not show
        self.blocked: dict[int, tuple[Any, str]] = {}
        self.top_after: Any = None

    def lacks(self, seat: int) -> frozenset[str]:
        return frozenset(self.voids.get(seat, ()))

    def observe(self, view: Any) -> None:
        moves = getattr(view, "hand_moves", ())
        if view.hand_number != self.hand_number:
            self.voids = {}
            self.blocked = {}
        else:
            if len(moves) > self.moves_seen:
                self._follow_moves(view, moves[self.moves_seen :])
            if view.current == view.seat and view.pending is None:
                self._infer(view)
        self.moves_seen = len(moves)

    def _follow_moves(self, view: Any, moves: Sequence[Sequence[int]]) -> None:
        """Seven-O: what a hand showed goes with the hand to its new seat (not to mine:
        I see my own cards); the hand sizes seen last are no longer comparable."""
        me = view.seat
        for dest in moves:
            self.voids = {dest[s]: v for s, v in self.voids.items() if dest[s] != me}
            self.blocked = {dest[s]: b for s, b in self.blocked.items() if dest[s] != me}
        self.sizes = ()

    def _infer(self, view: Any) -> None:
        n, me = view.players, view.seat
        discard = view.discard
        sizes = view.hand_sizes
        new = discard[self.discard_len :] if len(discard) >= self.discard_len else ()
        plain = all(uno_card(c).kind in ("num", "wild", "creeper") for c in new)
        seats = [(me + k * self.direction) % n for k in range(1, n)]
        deltas = [sizes[s] - self.sizes[s] for s in seats] if self.sizes else []
        readable = (
            plain
            and not house_rule(view, "draw_to_match")  # a kept card there is a playable one
            and deltas
            and len(discard) >= self.discard_len
            and view.direction == self.direction
            and tuple(view.revealed) == self.revealed
            and all(d in (-1, 0, 1) for d in deltas)
            and sum(1 for d in deltas if d <= 0) == len(new)
        )
        if not readable:
            for s, d in zip(seats, deltas, strict=False):
                if d > 0:
                    self.voids.pop(s, None)
                    self.blocked.pop(s, None)
            return
        colour = self.colour_after
        top = self.top_after
        played = iter(new)
        for seat, delta in zip(seats, deltas, strict=True):
            if delta >= 0 and colour is not None:
                self.voids.setdefault(seat, set()).add(colour)  # drew: had none of it
                if top is not None:
                    self.blocked[seat] = (top, colour)
            if delta <= 0:
                top = next(played)
                info = uno_card(top)
                if info.colour is not None:
                    self.voids.get(seat, set()).discard(info.colour)
                    colour = info.colour
                else:
                    colour = None

    def after(self, view: Any, action: Action) -> None:
        """Remember the table as my action leaves it."""
        self.hand_number = view.hand_number
        mine = 1 if action.kind == "play" else 0
        self.discard_len = len(view.discard) + mine
        self.sizes = tuple(s - mine if i == view.seat else s for i, s in enumerate(view.hand_sizes))
        self.direction = view.direction
        self.revealed = tuple(view.revealed)
        self.top_after = view.discard[-1] if view.discard else None
        if action.kind == "play":
            self.top_after = action.card
            info = uno_card(action.card)
            self.colour_after = info.colour or action.choice
            if info.kind not in ("num", "wild", "creeper"):
                self.sizes = ()  # skips, reverses and draws make the next turns unreadable
        else:
            self.colour_after = view.active_color


class UnoBrain(Brain):
    """The normal strategy."""

    attack_bias = 1.0
    colour_weight = 2.0  # per card left in the colour the play makes active
    points_weight = 0.01  # points only break ties: spending action cards early loses hands
    wild_hold = 12.0  # reluctance to spend a wild while nobody threatens (measured)
    scarcity = 0.3  # per unseen card of a named colour
    change_bonus = 0.5
    void_bonus = 1.5  # the next seat has shown it lacks the colour
    draw_threshold = -20.0  # draw rather than make a play scoring below this
    keep_below = -4.0  # keep a drawn card whose play scores below this
    action_hold = 0.0  # reluctance to spend Skip, Reverse or Draw Two while all is quiet
    quiet_above = 4  # "quiet": every opponent holds more cards than this
    swap_weight = 3.0  # Seven-O: per card fewer in the hand a 7 or a 0 brings in
    challenge_over_stack = 0.6  # stack a Wild Draw Four rather than challenge below this

    def __init__(self) -> None:
        self.memory = Memory()
        self.opponents = UnoOpponents()

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        self.memory.observe(view)
        self.opponents.observe(view)
        action = self.pick(view, actions)
        self.remember(view, action)
        return action

    def remember(self, view: Any, action: Action) -> None:
        """Bookkeeping for the action actually played (a search may override ``pick``)."""
        self.memory.after(view, action)
        self.opponents.decided(view, action)

    def notice(self, view: Any, action: Action) -> None:
        self.memory.observe(view)
        self.opponents.observe(view)
        self.remember(view, action)

    def pick(self, view: Any, actions: Sequence[Action]) -> Action:
        kinds = {a.kind for a in actions}
        if "swap" in kinds:
            return self.choose_swap(view, actions)
        if "challenge" in kinds:
            if "play" in kinds and self.bluff_chance(view) < self.challenge_over_stack:
                return self.choose_stack(view, actions)
            return self.choose_challenge(view, actions)
        if "accept" in kinds:
            return self.choose_stack(view, actions)
        if "color" in kinds:
            colour = best_colour(view.hand, unseen_by_colour(view))
            return next(a for a in actions if a.choice == colour)
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[0]
        unseen = unseen_by_colour(view)
        scored = [(self.play_score(view, a, unseen), i) for i, a in enumerate(plays)]
        score, index = max(scored)
        if "keep" in kinds and score < self.keep_threshold(view):
            return next(a for a in actions if a.kind == "keep")
        if "draw" in kinds and score < self.draw_limit(view):
            return next(a for a in actions if a.kind == "draw")
        return plays[index]

    def draw_limit(self, view: Any) -> float:
        # drawing to match may cost many cards: a poor play is still better
        if house_rule(view, "draw_to_match"):
            return self.draw_threshold - 40.0
        return self.draw_threshold

    def choose_stack(self, view: Any, actions: Sequence[Action]) -> Action:
        """H-1: stack on a pending draw rather than take it, with the play that scores
        best; a lone Wild Draw Four is kept back from a draw of two while all is quiet."""
        accept = next(a for a in actions if a.kind == "accept")
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return accept
        count = getattr(view, "pending_draw", 0) or 2
        sizes = view.hand_sizes
        danger = min(s for i, s in enumerate(sizes) if i != view.seat)
        only_wd4 = all(a.card is not None and uno_card(a.card).kind == "wd4" for a in plays)
        if only_wd4 and count <= 2 and len(view.hand) > 4 and danger > 3:
            return accept
        unseen = unseen_by_colour(view)
        return max(plays, key=lambda a: self.play_score(view, a, unseen))

    def choose_swap(self, view: Any, actions: Sequence[Action]) -> Action:
        """H-2: take the hand with the fewest cards; among those, the one known to hold
        the best cards (wilds), then the seat that moves soonest (the nearest threat)."""
        swaps = [a for a in actions if a.kind == "swap" and a.target is not None]
        return max(swaps, key=lambda a: self.swap_score(view, int(a.target or 0)))

    def swap_score(self, view: Any, seat: int) -> float:
        known = view.known[seat] if seat < len(view.known) else ()
        wilds = sum(1 for c in known if uno_card(c).colour is None)
        order = int((seat - view.seat) * view.direction) % int(view.players)  # 1: moves next
        return -10.0 * float(view.hand_sizes[seat]) + 2.0 * wilds - 0.1 * order

    def keep_threshold(self, view: Any) -> float:
        return self.keep_below

    def play_score(self, view: Any, action: Action, unseen: dict[str, int]) -> float:
        info: UnoCard = uno_card(action.card)
        hand = view.hand
        n = view.players
        sizes = view.hand_sizes
        victim = next_seat(view)
        victim_size = sizes[victim]
        danger = min(s for i, s in enumerate(sizes) if i != view.seat)
        counts = colour_counts(hand)
        if info.colour is not None:
            counts[info.colour] -= 1
        colour = info.colour or action.choice or "R"
        after = len(hand) - 1
        score = counts[colour] * self.colour_weight + info.points * self.points_weight
        if colour in self.memory.lacks(victim):
            score += self.void_bonus * (3.0 if victim_size <= 2 else 1.0)
        if info.colour is None:
            # a wild is the one card that always plays: keep it while it does not matter
            if after > 0 and danger > 2:
                score -= self.wild_hold if after > 2 else 2.0
            score -= unseen[colour] * self.scarcity  # scarce colours are harder for the others
            if info.kind == "wd4":
                active = view.active_color
                bluff = active is not None and counts[active] > 0
                if bluff:
                    # a bluff risks 4 cards: only worth it against a seat about to win
                    score += 6.0 if victim_size == 1 else -30.0
                score += self.attack(victim_size) * 1.2
        else:
            if info.colour != view.active_color:
                score += self.change_bonus  # changing colour by number/symbol hides what I hold
        if info.kind in ("skip", "rev", "draw2") and danger > self.quiet_above:
            score -= self.action_hold  # kept for when someone is close to going out
        if info.kind in ("skip", "draw2"):
            score += self.attack(victim_size) * (1.3 if info.kind == "draw2" else 1.0)
        elif info.kind == "rev" and n > 2:
            behind = sizes[(view.seat - view.direction) % n]
            score += (self.attack(victim_size) - self.attack(behind)) * 0.8
        elif info.kind == "rev":
            score += self.attack(victim_size)
        if after == 1 and danger <= 2:
            score += 1.0
        if info.number in (0, 7) and after > 0 and house_rule(view, "seven_o"):
            score += self.seven_o_score(view, info.number, after)
        return score

    def seven_o_score(self, view: Any, number: int, after: int) -> float:
        """H-2: what the hand a 7 or a 0 brings in is worth, against keeping mine."""
        sizes: Sequence[int] = view.hand_sizes
        n: int = view.players
        me: int = view.seat
        if number == 7:
            best = min(sizes[s] for s in range(n) if s != me)
            return float(self.swap_weight * (after - best))
        behind = sizes[(me - view.direction) % n]
        # the next seat, who moves next, is handed my hand: a short one is near a win
        return float(self.swap_weight * (after - behind) - self.attack(after) * 1.5)

    def attack(self, victim_size: int) -> float:
        """How much hurting the next seat is worth, by its hand size."""
        if victim_size <= 1:
            return 12.0 * self.attack_bias
        if victim_size == 2:
            return 7.0 * self.attack_bias
        if victim_size <= 4:
            return 2.5 * self.attack_bias
        return 0.6 * self.attack_bias

    def choose_challenge(self, view: Any, actions: Sequence[Action]) -> Action:
        """Challenge when the posterior chance of a bluff beats the cost of being wrong."""
        challenge = next(a for a in actions if a.kind == "challenge")
        accept = next(a for a in actions if a.kind == "accept")
        return challenge if self.opponents.should_challenge(view) else accept

    def bluff_chance(self, view: Any) -> float:
        return self.opponents.bluff_chance(view)


class HardUnoBrain(UnoBrain):
    """Hard's prior: normal, retuned over duplicate deals against three normal players
    (``bench/tune_uno.py``). It keeps Skips, Reverses and Draw Twos for defence while no
    opponent is near going out, and does not chase colours a seat once drew on."""

    action_hold = 3.0
    void_bonus = 0.0


class EasyUnoBrain(UnoBrain):
    """A beginner: any matching card, wilds included; the colour it holds most; never
    challenges; plays a drawn card whenever it can."""

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        kinds = {a.kind for a in actions}
        if "swap" in kinds:  # H-2: the seat with the fewest cards
            swaps = [a for a in actions if a.kind == "swap"]
            fewest = min(view.hand_sizes[a.target] for a in swaps)
            return rng.choice([a for a in swaps if view.hand_sizes[a.target] == fewest])
        if "challenge" in kinds and "play" not in kinds:
            return next(a for a in actions if a.kind == "accept")
        if "color" in kinds:
            colour = best_colour(view.hand, unseen_by_colour(view))
            return next(a for a in actions if a.choice == colour)
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[0]
        card = rng.choice(list(dict.fromkeys(a.card for a in plays)))
        colour = best_colour(view.hand, unseen_by_colour(view), exclude=card)
        choices = [a for a in plays if a.card is card]
        return next((a for a in choices if a.choice in (None, colour)), choices[0])


# -- registration -----------------------------------------------------------------------


def _brain(level: str, game_id: str) -> Brain:
    if level == "hard":
        return HardUnoBrain()  # the search's prior: normal, retuned
    return EasyUnoBrain() if level == "easy" else UnoBrain()


def _reasons(view: Any, action: Action) -> tuple[str, list[Any]]:
    from .hint import uno_reasons

    return uno_reasons(view, action)


for _game in ("uno", "uno-minecraft"):
    register_strategy(_game, Strategy(_brain, searchable=True, reasons=_reasons))
