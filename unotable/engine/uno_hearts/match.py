"""The UNO Hearts match (Mattel, 1995): RULES.md §1.

Seats are 0…n−1 clockwise; "left" is +1 (D-1). All state is plain lists and ints so
clone() is cheap; the cards and their pre-built plays live in :mod:`.cards`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from types import MappingProxyType
from typing import Any

from ..core import (
    Action,
    Event,
    GameSpec,
    Match,
    check_seat_turn,
    make_event,
    parse_action,
)
from ..errors import IllegalAction, OptionError
from ..tricks import (
    check_dealer,
    check_view_seat,
    hand_end_event,
    lowest_seats,
    moon_points,
    record_hand,
    void_sets,
)
from .cards import (
    DECK,
    DECK_RANGE,
    FOLLOW_NAMES,
    G8,
    GREEN,
    HEART,
    NO_SUIT,
    P8,
    PURPLE,
    SUIT_INDEX,
    SUIT_LETTERS,
    SUIT_NAMES,
    WILD,
    Y13,
    YELLOW,
    Card,
    _cards,
    parse_card,
    sort_key,
)
from .view import Completed, UnoHeartsView

GAME_ID = "uno-hearts"
HAND_SIZE = 13
TARGET = 60
MOON_POINTS = 20

PHASE_PASS = "pass"
PHASE_PLAY = "play"
PHASE_DIRECTION = "direction"
PHASE_MOON = "moon"
PHASE_OVER = "over"
PHASE_HAND_OVER = "hand_over"  # the hand has ended; next_hand() deals the next

LEFT, RIGHT, SWAP = "left", "right", "swap"
MOON_SELF, MOON_OTHERS = "self", "others"
MOON_MODES = ("shooter_choice", "others_plus_20", "self_minus_20")

ACTION_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"play": SUIT_LETTERS, "direction": (LEFT, RIGHT), "moon": (MOON_SELF, MOON_OTHERS)}
)
RNG_OWNED, RNG_SHARED, RNG_SEEDED = 0, 1, 2  # see UnoHeartsMatch._own_rng

DIRECTION_ACTIONS = (Action("direction", choice=LEFT), Action("direction", choice=RIGHT))
MOON_ACTIONS = (Action("moon", choice=MOON_SELF), Action("moon", choice=MOON_OTHERS))
VOID_SETS: tuple[frozenset[str], ...] = void_sets(SUIT_LETTERS)
VOIDS_SHOWN_BY_HEART_LEAD = 0b1110  # leading a heart while unbroken shows Y, P, G void


class UnoHeartsMatch(Match):
    """A match of UNO Hearts. All state is plain lists and ints for fast clone()."""

    game_id = GAME_ID
    moon_points = MOON_POINTS  # what a moon shot is worth, for the shooter's choice

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        options: dict[str, Any],
        seed: int | None,
        deal: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(spec, players, options, seed, deal)
        self._rng_mode = RNG_OWNED
        self.target: int = options["target"]
        self.pass_three: bool = options["pass_three"]
        self.moon_mode: str | None = options["moon_mode"] if options["shoot_the_moon"] else None
        self._init_state()
        if deal is None:
            self.dealer = self.rng.randrange(players)  # D-2: first dealer uniformly random
            self.log.extend(self._deal_from_rng())
        else:
            self.log.extend(self._deal_explicit(dict(deal)))

    # -- state ----------------------------------------------------------------------------

    def _init_state(self) -> None:
        n = self.players
        self.phase = PHASE_PLAY
        self._current: int | None = None
        self.dealer = 0
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.draw_pile: list[Card] = []  # top of the pile is the END of the list
        self.leader: int | None = None
        self.last_trick: Completed | None = None
        self.seen: list[set[Card]] = [set() for _ in range(n)]  # cards each seat ever held
        self._init_hand_state()

    def _deal_from_rng(self) -> list[Event]:
        # a shuffle by random sort keys: deterministic from the rng, 3x faster than shuffle()
        rand = self._own_rng().random
        keys = [rand() for _ in DECK_RANGE]
        order = sorted(DECK_RANGE, key=keys.__getitem__)
        n = self.players
        hands = [
            [DECK[i] for i in sorted(order[s * HAND_SIZE : (s + 1) * HAND_SIZE])] for s in range(n)
        ]
        return self._start_hand(hands, [DECK[i] for i in order[n * HAND_SIZE :]])

    def _deal_explicit(self, deal: dict[str, Any]) -> list[Event]:
        n = self.players
        dealer = deal.pop("dealer", 0)
        check_dealer(dealer, n)
        raw_hands = deal.pop("hands", None)
        raw_pile = deal.pop("draw_pile", None)
        if deal:
            raise OptionError(f"unknown deal keys: {', '.join(sorted(deal))}")
        if raw_hands is None or len(raw_hands) != n:
            raise OptionError(f"hands must give one hand for each of the {n} seats")
        hands = [_cards(h, f"seat {s}'s hand") for s, h in enumerate(raw_hands)]
        size = len(hands[0])
        if not 1 <= size <= HAND_SIZE or any(len(h) != size for h in hands):
            raise OptionError(f"every hand must hold the same number of cards (1 to {HAND_SIZE})")
        if self.pass_three and size < 3:
            raise OptionError("pass three needs at least three cards in each hand")
        dealt = [c for h in hands for c in h]
        if raw_pile is None:
            # the undealt cards, shuffled by the seed
            used = set(dealt)
            pile = [c for c in DECK if c not in used]
            self._own_rng().shuffle(pile)
        else:
            pile = _cards(raw_pile, "draw pile")
        everything = dealt + pile
        if len(set(everything)) != len(everything):
            raise OptionError("a card is dealt twice")
        self.dealer = dealer
        return self._start_hand(hands, pile)

    def _start_hand(self, hands: list[list[Card]], pile_top_first: list[Card]) -> list[Event]:
        """Set up a new hand: hands as dealt, the draw pile top first."""
        n = self.players
        self.hand_number += 1
        self._init_hand_state()
        self._set_hands(hands)
        self.draw_pile = pile_top_first[::-1]
        leader = (self.dealer + 1) % n
        self.leader = leader
        pile_size = len(self.draw_pile)
        events = []
        for seat in range(n):
            events.append(
                make_event(
                    "deal",
                    seat=seat,
                    cards=tuple(self.hands[seat]),
                    count=len(self.hands[seat]),
                    data={"dealer": self.dealer, "hand": self.hand_number, "draw_pile": pile_size},
                    private_to=frozenset((seat,)),
                )
            )
        if self.pass_three:
            self.phase = PHASE_PASS
            self._current = None
        else:
            self.phase = PHASE_PLAY
            self._current = leader
        return events

    def _init_hand_state(self) -> None:
        n = self.players
        self.counts: list[list[int]] = [[0] * 5 for _ in range(n)]  # per seat, per suit
        self._reset_trick()
        self.hearts_broken = False
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.hand_points = [0] * n
        self.tricks_won = [0] * n
        self.tricks: list[Completed] = []
        self.voids = [0] * n  # bit s set: seat has shown it holds no natural card of suit s
        self.passes: list[tuple[Card, ...] | None] = [None] * n  # pass-three choices
        self._gives: list[list[Action] | None] = [None] * n  # pass-three legal actions
        self.received: list[tuple[Card, ...]] = [() for _ in range(n)]
        self.pass_hands: list[tuple[int, int, str]] = []
        self.moon_shooter: int | None = None
        self._legal: list[Action] | None = None  # legal plays of the current seat, cached

    def _reset_trick(self) -> None:
        self.trick: list[tuple[int, Card, str | None]] = []
        self.lead = NO_SUIT
        self.best_seat = -1
        self.best_rank = -1
        self.trick_wild_sum = 0
        self.trick_points = 0
        self.trick_pass = False

    def _set_hands(self, hands: list[list[Card]]) -> None:
        """Hands as dealt (any order): sorted, counted by suit, and seen by their holders."""
        for seat in range(self.players):
            hand = sorted(hands[seat], key=sort_key)
            self.hands[seat] = hand
            counts = self.counts[seat]
            for card in hand:
                counts[card.suit] += 1
            self.seen[seat] = set(hand)

    # -- what callers ask ------------------------------------------------------------------

    @property
    def current(self) -> int | None:
        return self._current

    def actors(self) -> tuple[int, ...]:
        if self.phase == PHASE_PASS:
            return tuple(s for s in range(self.players) if self.passes[s] is None)
        if self._current is None:
            return ()
        return (self._current,)

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PHASE_PLAY:
            if seat != self._current:
                return []
            legal = self._legal
            if legal is None:
                legal = self._legal = self._legal_plays(seat)
            return legal.copy()
        if phase == PHASE_PASS:
            if not 0 <= seat < self.players or self.passes[seat] is not None:
                return []
            gives = self._gives[seat]
            if gives is None:  # 286 choices for 13 cards: built once per hand and seat
                hand = self.hands[seat]
                gives = self._gives[seat] = [Action("give", cards=c) for c in combinations(hand, 3)]
            return gives.copy()
        if seat != self._current:
            return []
        if phase == PHASE_DIRECTION:
            return list(DIRECTION_ACTIONS)
        if phase == PHASE_MOON:
            return list(MOON_ACTIONS)
        return []

    def _legal_plays(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        counts = self.counts[seat]
        lead = self.lead
        if lead != NO_SUIT and counts[lead]:
            return [c.action for c in hand if c.suit == lead]
        if lead == NO_SUIT and not self.hearts_broken:
            calls = [s for s in (YELLOW, PURPLE, GREEN) if not counts[s]]
            if counts[HEART] == len(hand):
                plays = [c.action for c in hand]  # all natural hearts: may lead one
            else:
                plays = [c.action for c in hand if c.suit != HEART and c.suit != WILD]
        else:
            calls = [s for s in (HEART, YELLOW, PURPLE, GREEN) if not counts[s]]
            plays = [c.action for c in hand if c.suit != WILD]
        if counts[WILD]:
            for card in hand[len(hand) - counts[WILD] :]:  # wilds sort last
                actions = card.actions
                plays.extend([actions[s] for s in calls])
        return plays

    # -- applying actions ------------------------------------------------------------------

    def _apply(self, seat: int, action: Action) -> list[Event]:
        phase = self.phase
        kind = action.kind
        if phase == PHASE_PLAY:
            if kind != "play":
                raise IllegalAction(self._wrong_kind(seat, kind))
            return self._play(seat, action)
        if phase == PHASE_PASS:
            if kind != "give":
                raise IllegalAction(self._wrong_kind(seat, kind))
            return self._give(seat, action)
        if phase == PHASE_DIRECTION:
            if kind != "direction":
                raise IllegalAction(self._wrong_kind(seat, kind))
            check_seat_turn(self, seat, self._current)
            if action.choice not in (LEFT, RIGHT):  # "swap" is only the 2-player announcement
                raise IllegalAction(
                    "choose which way the hands pass: direction:left or direction:right"
                )
            return self._pass_hand(action.choice)
        if phase == PHASE_MOON:
            if kind != "moon":
                raise IllegalAction(self._wrong_kind(seat, kind))
            check_seat_turn(self, seat, self._current)
            return self._moon(action.choice)
        raise IllegalAction("the match is over")

    def _wrong_kind(self, seat: int, kind: str) -> str:
        phase = self.phase
        if phase == PHASE_PASS:
            return "first everyone passes three cards to the left, as in give:H3,Y13,P8"
        if seat != self._current:
            return f"it is seat {self._current}'s turn, not seat {seat}'s"
        if phase == PHASE_PLAY:
            return f"it is time to play a card ({kind} is not a move now)"
        if phase == PHASE_DIRECTION:
            return "choose which way the hands pass: direction:left or direction:right"
        return "you shot the moon: choose moon:self (−20 for you) or moon:others (+20 each)"

    def _play(self, seat: int, action: Action) -> list[Event]:
        if seat != self._current:
            check_seat_turn(self, seat, self._current)
        card = action.card
        hand = self.hands[seat]
        if not isinstance(card, Card) or card not in hand:
            raise IllegalAction(f"you do not hold {card}")
        if action.uno:
            raise IllegalAction("there is no UNO call in UNO Hearts")
        counts = self.counts[seat]
        lead = self.lead
        if card.wild:
            if lead != NO_SUIT and counts[lead]:
                raise IllegalAction(self._must_follow(hand, lead))
            suit = SUIT_INDEX.get(action.choice or "", NO_SUIT)
            if suit == NO_SUIT:
                raise IllegalAction(self._bad_call(card, counts, "call a suit for the Wild Draw"))
            if counts[suit]:
                name = SUIT_NAMES[suit]
                problem = f"a Wild Draw may not be called {name} while you hold a {name} card"
                raise IllegalAction(self._bad_call(card, counts, problem))
            if lead == NO_SUIT and suit == HEART and not self.hearts_broken:
                problem = "hearts are not broken: a Wild Draw may not be led as a heart"
                raise IllegalAction(self._bad_call(card, counts, problem))
            event = card.events[seat][suit]
        else:
            suit = card.suit
            if lead == NO_SUIT:
                if suit == HEART and not self.hearts_broken and counts[HEART] != len(hand):
                    raise IllegalAction("hearts are not broken: lead another suit")
            elif suit != lead and counts[lead]:
                raise IllegalAction(self._must_follow(hand, lead))
            if action.choice is not None:  # after the rules, so "play it" is a legal hint
                raise IllegalAction(f"only a Wild Draw is called: play {card} on its own")
            event = card.events[seat]

        # checked: now change the state
        self._legal = None
        hand.remove(card)
        counts[card.suit] -= 1
        rank = card.rank
        events = [event]
        if lead == NO_SUIT:
            self.lead = suit
            self.leader = seat
            self.best_seat = seat
            self.best_rank = rank
            if suit == HEART and not self.hearts_broken and not card.wild:
                self.voids[seat] |= VOIDS_SHOWN_BY_HEART_LEAD
        else:
            if suit != lead or card.wild:
                self.voids[seat] |= 1 << lead
            if suit == lead and (rank > self.best_rank or (rank == self.best_rank and card.wild)):
                self.best_seat = seat
                self.best_rank = rank
        if card.wild:
            self.voids[seat] |= 1 << suit
            self.trick_wild_sum += rank
            self.trick.append((seat, card, SUIT_LETTERS[suit]))
        else:
            self.trick.append((seat, card, None))
            self.trick_points += card.points
            if card is P8 or card is G8:
                self.trick_pass = True
        if not self.hearts_broken and (suit == HEART or card is Y13):
            self.hearts_broken = True  # D-11
            events.append(make_event("hearts_broken", seat=seat, cards=(card,)))
        if len(self.trick) == self.players:
            self._finish_trick(events)
        else:
            self._current = (seat + 1) % self.players
        return events

    def _bad_call(self, card: Card, counts: list[int], problem: str) -> str:
        """``problem``, then the calls that are allowed (so the example is never illegal)."""
        leading = self.lead == NO_SUIT
        calls = [
            f"{card}>{SUIT_LETTERS[s]}"
            for s in range(4)
            if not counts[s] and not (leading and s == HEART and not self.hearts_broken)
        ]
        if calls:
            return f"{problem} (you may call {' or '.join(calls)})"
        if self.hearts_broken:
            return f"{problem} (you hold every suit, so {card} cannot be led now)"
        return (
            f"{problem} ({card} cannot be led now: you hold yellow, purple and green, "
            "and hearts are not broken)"
        )

    @staticmethod
    def _must_follow(hand: list[Card], lead: int) -> str:
        example = next(c for c in hand if c.suit == lead)
        return f"you must follow {FOLLOW_NAMES[lead]}: you hold {example}"

    def _finish_trick(self, events: list[Event]) -> None:
        winner = self.best_seat
        plays = tuple(self.trick)
        cards = tuple([play[1] for play in plays])
        taken = self.taken[winner]
        taken.extend(cards)
        points = self.trick_points
        self.tricks_won[winner] += 1
        completed = (self.leader if self.leader is not None else winner, winner, plays)
        self.tricks.append(completed)
        self.last_trick = completed
        # hot path: Event's fields positionally (kind, seat, cards, count, data)
        data = {"points": points, "trick": len(self.tricks), "leader": self.leader}
        events.append(make_event("trick_won", winner, cards, len(cards), data))
        wanted = self.trick_wild_sum
        if wanted:
            # §1.7.2: the taker draws face up into the trick pile; shortfall ignored (D-14)
            pile = self.draw_pile
            got = min(wanted, len(pile))
            drawn = tuple(pile[len(pile) - got :][::-1])
            del pile[len(pile) - got :]
            taken.extend(drawn)
            drawn_points = sum([c.points for c in drawn])
            points += drawn_points
            data = {"wanted": wanted, "points": drawn_points}
            events.append(make_event("draw_to_pile", winner, drawn, got, data))
        self.hand_points[winner] += points
        pass_hand = self.trick_pass
        self._reset_trick()
        self.leader = winner
        self._current = winner
        if not self.hands[winner]:
            self._end_hand(events)
        elif pass_hand:
            if self.players == 2:
                events.extend(self._pass_hand(SWAP))  # D-8: no choice, the hands swap
            else:
                self.phase = PHASE_DIRECTION

    def _pass_hand(self, direction: str) -> list[Event]:
        """Every seat passes its whole hand (D-16); the taker then leads."""
        n = self.players
        shift = -1 if direction == RIGHT else 1  # seat s receives from s - shift
        self.hands = [self.hands[(s - shift) % n] for s in range(n)]
        self.counts = [self.counts[(s - shift) % n] for s in range(n)]
        self.voids = [self.voids[(s - shift) % n] for s in range(n)]
        for seat in range(n):
            self.seen[seat].update(self.hands[seat])
        taker = self._current
        assert taker is not None
        self.pass_hands.append((len(self.tricks), taker, direction))
        self.phase = PHASE_PLAY
        self._legal = None
        return [make_event("pass_hand", seat=taker, data={"direction": direction})]

    def _give(self, seat: int, action: Action) -> list[Event]:
        if self.passes[seat] is not None:
            raise IllegalAction("you have already chosen your three cards")
        hand = self.hands[seat]
        chosen: tuple[Card, ...] = action.cards  # type: ignore[assignment]  # checked below
        if len(chosen) != 3 or len({id(c) for c in chosen}) != 3:
            raise IllegalAction("pass exactly three different cards, as in give:H3,Y13,P8")
        for card in chosen:
            if not isinstance(card, Card) or card not in hand:
                raise IllegalAction(f"you do not hold {card}")
        self.passes[seat] = tuple(sorted(chosen, key=sort_key))
        events = [make_event("pass_chosen", seat=seat, count=3)]
        if all(p is not None for p in self.passes):
            events.extend(self._exchange())
        return events

    def _exchange(self) -> list[Event]:
        """Pass three to the left (§1.3, D-8), all at once."""
        n = self.players
        events = []
        gifts = [p for p in self.passes if p is not None]
        for seat in range(n):
            for card in gifts[seat]:
                self.hands[seat].remove(card)
                self.counts[seat][card.suit] -= 1
        for seat in range(n):
            got = gifts[(seat - 1) % n]
            self.received[seat] = got
            hand = self.hands[seat]
            hand.extend(got)
            hand.sort(key=sort_key)
            for card in got:
                self.counts[seat][card.suit] += 1
            self.seen[seat].update(got)
        for seat in range(n):
            to = (seat + 1) % n
            events.append(
                make_event(
                    "pass",
                    seat=seat,
                    cards=gifts[seat],
                    count=3,
                    data={"to": to},
                    private_to=frozenset((seat, to)),
                )
            )
        self.phase = PHASE_PLAY
        self._current = self.leader
        self._legal = None
        return events

    # -- end of a hand -----------------------------------------------------------------------

    def _end_hand(self, events: list[Event]) -> None:
        points = self.hand_points
        mode = self.moon_mode
        if mode is not None:
            scorers = [s for s in range(self.players) if points[s] > 0]
            if len(scorers) == 1:  # D-17
                shooter = scorers[0]
                if mode == "shooter_choice":
                    self.phase = PHASE_MOON
                    self.moon_shooter = shooter
                    self._current = shooter
                    return
                choice = MOON_OTHERS if mode == "others_plus_20" else MOON_SELF
                self._score_moon(shooter, choice, events)
                return
        self._score_hand(tuple(points), {}, events)

    def _moon(self, choice: str | None) -> list[Event]:
        if choice not in (MOON_SELF, MOON_OTHERS):
            raise IllegalAction("choose moon:self or moon:others")
        shooter = self.moon_shooter
        assert shooter is not None
        events: list[Event] = []
        self._score_moon(shooter, choice, events)
        return events

    def _score_moon(self, shooter: int, choice: str, events: list[Event]) -> None:
        points = tuple(moon_points(self.players, shooter, choice == MOON_SELF, MOON_POINTS))
        events.append(make_event("moon", seat=shooter, data={"choice": choice}))
        self._score_hand(points, {"moon": shooter, "moon_choice": choice}, events)

    def _score_hand(
        self, points: tuple[int, ...], notes: dict[str, Any], events: list[Event]
    ) -> None:
        notes["taken_points"] = tuple(self.hand_points)
        notes["dealer"] = self.dealer
        result = record_hand(self, points, notes)
        totals = result.totals
        self.moon_shooter = None
        over = max(totals) >= self.target  # D-18: "reaches" means >=
        winners = lowest_seats(totals) if over else ()
        events.append(hand_end_event(result, winners))
        if over:
            self.winners = winners  # D-3: co-winners
            self.phase = PHASE_OVER
            self._current = None
            events.append(
                make_event(
                    "match_end", data={"points": points, "totals": totals, "winners": winners}
                )
            )
            return
        # the table stays as it ended until next_hand() deals again
        self.phase = PHASE_HAND_OVER
        self._current = None
        self._hand_over = True

    def _deal_next(self, deal: dict[str, Any] | None) -> list[Event]:
        self.dealer = (self.dealer + 1) % self.players  # the deal passes left (D-2)
        if deal is None:
            return self._deal_from_rng()
        deal.setdefault("dealer", self.dealer)
        return self._deal_explicit(deal)

    # -- views -------------------------------------------------------------------------------

    def view(self, seat: int | None) -> UnoHeartsView:
        n = self.players
        check_view_seat(seat, n)
        in_pass = self.phase == PHASE_PASS
        if seat is None:  # a spectator knows no hand
            known: tuple[tuple[Card, ...], ...] = ((),) * n
        else:
            seen = self.seen[seat]
            known = tuple(
                () if s == seat or in_pass else tuple(c for c in self.hands[s] if c in seen)
                for s in range(n)
            )
        tricks = tuple(self.tricks)
        return UnoHeartsView(
            game=GAME_ID,
            seat=seat,
            players=n,
            phase=self.phase,
            current=self._current,
            hand=() if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            dealer=self.dealer,
            scores=tuple(self.scores),
            hand_number=self.hand_number,
            legal=() if seat is None else tuple(self.legal_actions(seat)),
            trick=tuple(self.trick),
            lead_suit=SUIT_LETTERS[self.lead] if self.lead != NO_SUIT else None,
            hearts_broken=self.hearts_broken,
            leader=self.leader,
            tricks=tricks,
            taken=tuple(tuple(t) for t in self.taken),
            tricks_won=tuple(self.tricks_won),
            hand_points_visible=tuple(self.hand_points),
            last_trick=self.last_trick,
            last_hand=self.hand_results[-1] if self.hand_results else None,
            voids=tuple(VOID_SETS[m] for m in self.voids),
            draw_pile_size=len(self.draw_pile),
            target=self.target,
            options=self.options,
            pass_pending=tuple(s for s in range(n) if self.passes[s] is None) if in_pass else (),
            passed=() if seat is None else self.passes[seat] or (),
            received=() if seat is None else self.received[seat],
            known_hands=known,
            pass_hands=tuple(self.pass_hands),
            moon_shooter=self.moon_shooter,
            hand_results=tuple(self.hand_results),
        )

    # -- notation, copies --------------------------------------------------------------------

    @classmethod
    def parse_card(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text, parse_card, ACTION_CHOICES)

    def _own_rng(self) -> random.Random:
        """The rng, made this match's own first if a clone shares it or only its seed is set."""
        mode = self._rng_mode
        if mode == RNG_SHARED:
            rng = random.Random(0)
            rng.setstate(self.rng.getstate())
            self.rng = rng
        elif mode == RNG_SEEDED:
            self.rng = random.Random(self.seed)
        self._rng_mode = RNG_OWNED
        return self.rng

    def clone(self) -> UnoHeartsMatch:
        """An independent copy; the rng is shared until either deals (copy on use)."""
        other = object.__new__(UnoHeartsMatch)
        d = other.__dict__
        d.update(self.__dict__)
        if self._rng_mode == RNG_OWNED:
            # copying a Random costs more than the rest of a clone: share it, copy on use
            self._rng_mode = d["_rng_mode"] = RNG_SHARED
        d["scores"] = self.scores.copy()
        d["hand_results"] = self.hand_results.copy()
        d["history"] = self.history.copy()
        d["log"] = self.log.copy()
        d["hands"] = [h.copy() for h in self.hands]
        d["counts"] = [c.copy() for c in self.counts]
        d["draw_pile"] = self.draw_pile.copy()
        d["trick"] = self.trick.copy()
        d["taken"] = [t.copy() for t in self.taken]
        d["hand_points"] = self.hand_points.copy()
        d["tricks_won"] = self.tricks_won.copy()
        d["tricks"] = self.tricks.copy()
        d["voids"] = self.voids.copy()
        d["seen"] = [s.copy() for s in self.seen]
        d["passes"] = self.passes.copy()
        d["_gives"] = self._gives.copy()
        d["received"] = self.received.copy()
        d["pass_hands"] = self.pass_hands.copy()
        if self._legal is not None:
            d["_legal"] = self._legal.copy()
        return other
