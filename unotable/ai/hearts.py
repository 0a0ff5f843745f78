"""Hand-written strategies for the two trick-taking games (UNO Hearts, Wild Twist Hearts).

Everything is read from the seat's view: the cards played to every trick of this hand,
the public taken piles, the voids each seat has shown, hand sizes. From that the normal
brain knows which cards are still unseen and who can still follow, and plays classic
Hearts: duck under the winning card with the highest card that loses, shed high cards
while a suit is fresh, discard the most dangerous card when void, lead what is least
likely to win, and spoil a moon shot. Easy is a short list of simple habits.

The rules come from the game's facts (``GameSpec.facts``): its deck, card points, trick
strength, what follows suit, the 13-point card, HIGH/LOW wilds, the moon and the target.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unotable.engine import Action, Card, GameFacts, get_game

from .base import Brain
from .cards import TrickCard, trick_card
from .strategies import Strategy, register_strategy

MOON_WATCH = 0.3  # a lone scorer holding this share of the moon's worth may be shooting it


def facts_of(game_id: str) -> GameFacts:
    return get_game(game_id).facts


@dataclass
class Table:
    """What the seat can work out from its view, computed once per decision."""

    game: str
    facts: GameFacts
    me: int
    n: int
    hand: tuple[Any, ...]
    trick: tuple[tuple[int, Any, str | None], ...]
    lead: str | None
    unseen: list[Any]  # cards not in my hand and never shown: other hands, piles, leftovers
    unseen_by_suit: dict[str, list[int]]  # suit -> ranks (naturals only)
    unseen_naturals: dict[str, list[Card]]  # suit -> the natural cards behind those ranks
    voids: tuple[frozenset[str], ...]
    sizes: tuple[int, ...]
    in_hands: float  # share of the unseen cards that sit in other seats' hands
    danger_unseen: bool  # the 13-point card is still out there
    draw_density: float  # UNO Hearts: expected points per card drawn to a trick pile
    hand_points: tuple[int, ...]
    moon_threat: int | None  # a seat that may be shooting the moon
    known: tuple[tuple[Any, ...], ...]  # cards I know other seats hold

    @property
    def danger_suit(self) -> str:
        """The suit of the 13-point card (UNO Hearts' yellow 13, Wild Twist's Q♠)."""
        danger = self.facts.danger_card
        return "" if danger is None or danger.color is None else danger.color

    @property
    def danger_rank(self) -> int:
        danger = self.facts.danger_card
        return 99 if danger is None else trick_card(danger).rank


def read_table(view: Any) -> Table:
    game = view.game
    facts = facts_of(game)
    deck = facts.deck
    danger = facts.danger_card
    gone: set[Any] = set(view.hand)
    for _leader, _winner, plays in view.tricks:
        for _seat, card, _declared in plays:
            gone.add(card)
    for _seat, card, _declared in view.trick:
        gone.add(card)
    for pile in view.taken:
        gone.update(pile)
    known = tuple(getattr(view, "known_hands", ()) or ((),) * view.players)
    unseen = [c for c in deck if c not in gone]
    by_suit: dict[str, list[int]] = {}
    naturals: dict[str, list[Card]] = {}
    danger_unseen = False
    points_unseen = 0
    for card in unseen:
        info = trick_card(card)
        points_unseen += info.points
        if card is danger:
            danger_unseen = True
        if info.suit is not None and not info.wild:
            by_suit.setdefault(info.suit, []).append(info.rank)
            naturals.setdefault(info.suit, []).append(card)
    draw_density = points_unseen / len(unseen) if unseen else 0.0
    points = tuple(view.hand_points_visible)
    others = sum(s for i, s in enumerate(view.hand_sizes) if i != view.seat)
    in_hands = min(1.0, others / len(unseen)) if unseen else 1.0
    return Table(
        game=game,
        facts=facts,
        me=view.seat,
        n=view.players,
        hand=tuple(view.hand),
        trick=tuple(view.trick),
        lead=view.lead_suit,
        unseen=unseen,
        unseen_by_suit=by_suit,
        unseen_naturals=naturals,
        voids=tuple(view.voids),
        sizes=tuple(view.hand_sizes),
        in_hands=in_hands,
        danger_unseen=danger_unseen,
        draw_density=draw_density,
        hand_points=points,
        moon_threat=_moon_threat(view, facts, points),
        known=known,
    )


def _moon_threat(view: Any, facts: GameFacts, points: tuple[int, ...]) -> int | None:
    options = getattr(view, "options", {}) or {}
    if facts.moon_points is None or not facts.moon_possible(options):
        return None
    threshold = round(MOON_WATCH * facts.moon_points)
    scorers = [s for s, p in enumerate(points) if p > 0]
    if len(scorers) == 1 and scorers[0] != view.seat and points[scorers[0]] >= threshold:
        return scorers[0]
    return None


def strength(game: str, card: Any, declared: str | None, lead: str) -> int:
    """How strongly a played card competes for a trick led in ``lead`` (-1: it cannot win)."""
    return facts_of(game).trick_strength(card, declared, lead)


def current_winner(table: Table) -> tuple[int, int]:
    """(seat, strength) of the card winning the current trick; (-1, -1) before the lead."""
    best_seat, best = -1, -1
    lead = table.lead
    if lead is None:
        return best_seat, best
    for seat, card, declared in table.trick:
        value = strength(table.game, card, declared, lead)
        if value > best:
            best_seat, best = seat, value
    return best_seat, best


def later_seats(table: Table) -> list[int]:
    """Seats still to play to the current trick after me."""
    played = len(table.trick)
    return [(table.me + k) % table.n for k in range(1, table.n - played)]


class HeartsBrain(Brain):
    """The normal strategy for both Hearts games."""

    shed_when_safe = True  # play high into a fresh suit when nothing is at stake
    fresh_factor = 2.0  # a suit is fresh while others hold this many of it per seat
    lowest_leads = False
    void_lead_bonus = 0.1
    heart_lead_penalty = 0.3
    take_last_safe = True  # last to a pointless trick: win it with the highest card
    uh_wild_discard = 0.0  # UNO Hearts: how keen to discard a Wild Draw (naturals 100+)

    def __init__(self, game_id: str) -> None:
        self.game = game_id
        self.facts = facts = facts_of(game_id)
        if any(facts.trick_draws(card) for card in facts.wild_cards):
            # (UNO Hearts) half the deck stays undealt and a Wild Draw can pull points into
            # any trick: winning "safe" tricks with high cards costs more than it sheds
            self.shed_when_safe = False

    # -- entry point -----------------------------------------------------------------------

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        kind = actions[0].kind
        if view.phase == "pass" or kind == "give":
            return self.choose_give(view, actions)
        if kind == "direction":
            return self.choose_direction(view, actions)
        if kind == "moon":
            return self.choose_moon(view, actions)
        if view.phase == "opening":
            return self.choose_opening(view, actions)
        table = read_table(view)
        plays = [a for a in actions if a.kind == "play"]
        if not plays:
            return actions[0]
        if table.lead is None:
            return self.choose_lead(table, plays)
        lead = table.lead
        following = [a for a in plays if table.facts.follows(a.card, a.choice, lead)]
        if len(following) == len(plays):
            return self.choose_follow(table, plays)
        return self.choose_discard(table, plays)

    # -- card play -------------------------------------------------------------------------

    def strength_of(self, table: Table, action: Action, lead: str) -> int:
        return strength(table.game, action.card, action.choice, lead)

    def trick_points(self, table: Table) -> float:
        """Points already in the trick, counting the cards a Wild Draw will pull in."""
        points = 0.0
        draws = table.facts.trick_draws
        for _seat, card, _declared in table.trick:
            points += trick_card(card).points
            pulled = draws(card)
            if pulled:
                points += pulled * table.draw_density
        return points

    def choose_follow(self, table: Table, plays: list[Action]) -> Action:
        lead = table.lead
        assert lead is not None
        winner, best = current_winner(table)
        later = later_seats(table)
        last = not later
        points = self.trick_points(table)
        danger_late = lead == table.danger_suit and table.danger_unseen and not last and lead != "H"
        void_later = any(lead in table.voids[s] for s in later)
        risky = points > 0 or danger_late or void_later or lead == "H"

        def power(a: Action) -> int:
            return self.strength_of(table, a, lead)

        under = [a for a in plays if power(a) < best]
        over = [a for a in plays if power(a) > best]
        threat = table.moon_threat
        if threat is not None and winner == threat and over and (points > 0 or lead == "H"):
            return max(over, key=power)  # take a point: the moon is off
        if risky or table.sizes[table.me] <= 2:
            if under:
                # the highest card that still loses; the 13-point card first if it loses
                return max(under, key=lambda a: (trick_card(a.card).points >= 13, power(a)))
            if last:
                return max(over, key=lambda a: (-_penalty(table, a), power(a)))
            return min(over, key=lambda a: (_penalty(table, a), power(a)))
        # nobody has shown a void and nothing is at stake: shed a high card now
        safe = [a for a in plays if not trick_card(a.card).points and not _high_low(table, a)]
        if safe and ((last and self.take_last_safe) or self.suit_is_fresh(table, lead)):
            return max(safe, key=power)
        if under:
            return max(under, key=lambda a: (trick_card(a.card).points >= 13, power(a)))
        return min(plays, key=lambda a: (_penalty(table, a), power(a)))

    def suit_is_fresh(self, table: Table, suit: str) -> bool:
        """Most cards of the suit are still out: nobody is likely to be void yet."""
        if not self.shed_when_safe:
            return False
        out = len(table.unseen_by_suit.get(suit, ()))
        return out * table.in_hands >= self.fresh_factor * (table.n - 1)

    def choose_discard(self, table: Table, plays: list[Action]) -> Action:
        winner, _best = current_winner(table)
        threat = table.moon_threat
        feeding_threat = threat is not None and winner == threat

        def priority(a: Action) -> float:
            info = trick_card(a.card)
            if feeding_threat and info.points:
                return -100.0 + info.rank
            if info.points >= 13:
                return 1000.0
            if info.wild:
                if info.suit is None:  # a wild that takes the suit it calls (UNO Hearts)
                    call = 0.5 if a.choice == "H" else 0.0  # a wild called heart breaks hearts
                    return self.uh_wild_discard + info.rank / 20.0 - call
                return 150.0 if info.suit == "H" else 1.0
            suit = info.suit or ""
            value = self.rank_risk(table, info)
            if suit == table.danger_suit and table.danger_unseen and info.rank > table.danger_rank:
                return 500.0 + info.rank
            if suit == "H":
                return 200.0 + info.rank
            mine = sum(1 for c in table.hand if trick_card(c).suit == suit)
            if mine == 1:
                value += 3.0  # last card of a suit: discarding it makes a void
            return 100.0 + value

        return max(plays, key=priority)

    def rank_risk(self, table: Table, info: TrickCard) -> float:
        """How many unseen cards of its suit this card beats (likely trick wins later)."""
        ranks = table.unseen_by_suit.get(info.suit or "", ())
        return float(sum(1 for r in ranks if r < info.rank))

    def choose_lead(self, table: Table, plays: list[Action]) -> Action:
        if self.lowest_leads:
            return min(plays, key=lambda a: (trick_card(a.card).points, _rank_of(table, a)))

        def score(a: Action) -> float:
            info = trick_card(a.card)
            facts = table.facts
            suit = facts.lead_suit(a.card, a.choice) or ""
            mine = facts.trick_strength(a.card, a.choice, suit)
            naturals = table.unseen_naturals.get(suit, [])
            others = [s for s in range(table.n) if s != table.me and suit not in table.voids[s]]
            if not naturals or not others:
                value = 1.0  # nobody can follow: I win and they discard onto me
            else:
                power = facts.trick_strength
                lower = sum(1 for c in naturals if power(c, None, suit) < mine)
                value = lower / (len(naturals) + 1)
            if info.points >= 13:
                value += 10.0
            elif info.points:
                value += self.heart_lead_penalty
            high = not info.wild and info.rank > table.danger_rank
            if suit == table.danger_suit and table.danger_unseen and high:
                value += 5.0  # leading the ace or king of the queen's suit catches her
            if info.wild:
                if facts.wild_values:  # HIGH or LOW (Wild Twist)
                    value = 3.0 if a.choice == "HIGH" else 0.35
                else:
                    value += 0.3
            held = sum(1 for c in table.hand if trick_card(c).suit == suit)
            if held == 1:
                value -= self.void_lead_bonus  # leading a singleton makes a void
            return value

        return min(plays, key=score)

    # -- other decisions -------------------------------------------------------------------

    def choose_give(self, view: Any, actions: Sequence[Action]) -> Action:
        table = read_table(view)
        ranked = sorted(view.hand, key=lambda c: -self.pass_priority(table, c))
        chosen = set(ranked[:3])
        for action in actions:
            if set(action.cards) == chosen:
                return action
        return max(actions, key=lambda a: sum(self.pass_priority(table, c) for c in a.cards))

    def pass_priority(self, table: Table, card: Any) -> float:
        info = trick_card(card)
        if info.wild:
            return -2.0 + info.points
        same = [trick_card(c) for c in table.hand if trick_card(c).suit == info.suit]
        low_guards = sum(1 for c in same if c.rank < info.rank and not c.wild)
        value = info.rank / 6.0
        if info.points == 13:
            return 20.0 if low_guards < 4 else 2.0
        if info.suit == "H":
            value += 1.0
        if len(same) <= 2:
            value += 1.5  # short suit: pass it to make a void
        if info.suit == table.danger_suit and info.rank > table.danger_rank and low_guards < 4:
            value += 2.0  # passing above the 13-point card keeps it from catching me
        return value

    def choose_direction(self, view: Any, actions: Sequence[Action]) -> Action:
        """Receive the hand that has shown more voids; break ties by hurting the leader."""
        n, me = view.players, view.seat
        left = next((a for a in actions if a.choice == "left"), actions[0])
        right = next((a for a in actions if a.choice == "right"), actions[-1])
        # passing left: my hand goes to me+1 and I receive me-1's hand
        from_right = len(view.voids[(me - 1) % n])
        from_left = len(view.voids[(me + 1) % n])
        if from_right != from_left:
            return left if from_right > from_left else right
        return left if view.scores[(me + 1) % n] <= view.scores[(me - 1) % n] else right

    def choose_moon(self, view: Any, actions: Sequence[Action]) -> Action:
        """RULES §1.8: the moon's worth to the others only when it ends the match with me
        sole lowest; a match that ends by length has no such ending (D-26): take it."""
        self_action = next(a for a in actions if a.choice == "self")
        others = next((a for a in actions if a.choice == "others"), self_action)
        facts = self.facts
        if facts.target_option is None or facts.moon_points is None:
            return self_action
        options = getattr(view, "options", None) or {}
        target = facts.target_points(options) if facts.target_option in options else view.target
        me = view.seat
        worth = facts.moon_points
        totals = [s + (0 if i == me else worth) for i, s in enumerate(view.scores)]
        if max(totals) >= target and all(totals[me] < t for i, t in enumerate(totals) if i != me):
            return others
        return self_action

    def choose_opening(self, view: Any, actions: Sequence[Action]) -> Action:
        """Keep the Wild Club (a sure duck or a sure win later) unless forced to choose."""
        for action in actions:
            if action.kind == "decline":
                return action
        naturals = [a for a in actions if a.kind == "play" and not trick_card(a.card).wild]
        return naturals[0] if naturals else actions[0]


def _high_low(table: Table, action: Action) -> bool:
    """A wild played HIGH or LOW (Wild Twist): worth keeping for later."""
    return bool(table.facts.wild_values) and trick_card(action.card).wild


def _rank_of(table: Table, action: Action) -> int:
    info = trick_card(action.card)
    if info.wild:
        return table.facts.wild_values.get(action.choice or "", info.rank)
    return info.rank


def _penalty(table: Table, action: Action) -> float:
    """Cards I would rather not spend winning a trick: point cards, Wild Twist wilds."""
    info = trick_card(action.card)
    return info.points + (2.0 if _high_low(table, action) else 0.0)


class EasyHeartsBrain(HeartsBrain):
    """Simple habits: follow low, dump the biggest card when void, lead low."""

    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        kind = actions[0].kind
        if kind == "give":
            return self.choose_give(view, actions)
        if kind in ("direction", "moon") or view.phase == "opening":
            return rng.choice(list(actions)) if kind != "moon" else self.choose_moon(view, actions)
        plays = [a for a in actions if a.kind == "play"]
        lead = view.lead_suit

        values = self.facts.wild_values

        def size(a: Action) -> int:
            info: TrickCard = trick_card(a.card)
            if info.wild:
                return values.get(a.choice or "", info.rank)
            return info.rank

        if lead is None:
            return min(plays, key=size)
        follows = self.facts.follows
        following = [a for a in plays if follows(a.card, a.choice, lead)]
        if following:
            return min(following, key=size)
        return max(plays, key=lambda a: (trick_card(a.card).points, size(a)))


# -- registration -----------------------------------------------------------------------


def _brain(level: str, game_id: str) -> Brain:
    return EasyHeartsBrain(game_id) if level == "easy" else HeartsBrain(game_id)


def _reasons(view: Any, action: Action) -> tuple[str, list[Any]]:
    from .hint import hearts_reasons

    return hearts_reasons(view, action)


for _game in ("uno-hearts", "wild-twist-hearts"):
    register_strategy(_game, Strategy(_brain, searchable=True, reasons=_reasons))
