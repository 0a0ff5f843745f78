"""The Wild Twist Hearts match (RULES.md §2): Hearts for 4–8 players with four suit Wilds.

All state is plain lists and ints so clone() is cheap; the cards and their pre-built
plays live in :mod:`.cards`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import chain
from operator import attrgetter, itemgetter
from types import MappingProxyType
from typing import Any, Final

from ..core import (
    Action,
    Event,
    GameSpec,
    Match,
    check_seat_turn,
    make_event,
    parse_action,
    shuffle,
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
    ACTION_CHOICES,
    CLUBS,
    DECK,
    DECLARATION_ALIASES,
    DECLINE,
    DIAMONDS,
    HEARTS,
    HIGH,
    LOW,
    MOON_CHOICES,
    MOON_OTHERS,
    MOON_POINTS,
    MOON_SELF,
    PLAY_EVENTS,
    SPADES,
    SUIT_LETTERS,
    SUIT_NAMES,
    TRICK_ENTRIES,
    WILD_CLUB,
    WILD_CLUB_LOW,
    WILD_HIGH_VALUE,
    WILD_LOW_VALUE,
    Card,
    as_card,
    by_suit_with_plays,
    parse_card,
)
from .view import CompletedTrick, WildTwistView

GAME_ID: Final = "wild-twist-hearts"
GAME_NAME: Final = "Wild Twist Hearts"

_VOID_SETS: Final = void_sets(SUIT_LETTERS)
_ONLY: Final = tuple(frozenset((seat,)) for seat in range(8))
_entry_card = itemgetter(1)
_card_points = attrgetter("points")

ALL_BUT_HEARTS: Final = 0b1011  # void mask bits of clubs, diamonds and spades


class WildTwistMatch(Match):
    """A match of Wild Twist Hearts: the full, secret state."""

    game_id = GAME_ID
    moon_points = MOON_POINTS  # what a moon shot is worth, for the shooter's choice
    # The game's state lives in slots: CPython reads and writes a slot at about the cost
    # of a local, while a match's __dict__ holding 30 names or more turns every attribute
    # access into a dict lookup. clone() copies them; Match's own fields stay in __dict__.
    __slots__ = (
        "best_seat",
        "best_value",
        "current",
        "dealer",
        "forced_lead",
        "hand_size",
        "hands",
        "hearts_broken",
        "last_trick",
        "lead_suit",
        "leader",
        "leftovers",
        "leftovers_to",
        "length",
        "moon_shooter",
        "no_points_first_trick",
        "opening_declined",
        "opening_holder",
        "out_of_play",
        "pending_points",
        "phase",
        "plays",
        "points_visible",
        "sizes",
        "taken",
        "trick",
        "tricks",
        "tricks_won",
        "void_masks",
    )
    # whose turn it is: a plain attribute (a slot), not Match's property: every caller
    # reads it once per decision
    current: int | None

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        options: dict[str, Any],
        seed: int | None,
        deal: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(spec, players, options, seed, deal)
        self.length: int = options["length"]
        self.no_points_first_trick: bool = options["no_points_first_trick"]
        self.hand_size = 56 // players
        self.last_trick: CompletedTrick | None = None
        if deal is None:
            self.dealer = self.rng.randrange(players)
            self.log.extend(self._deal_random())
        else:
            hands, leftovers, dealer = self._check_deal(deal)
            self.dealer = dealer
            self.log.extend(self._start_hand(hands, leftovers))

    # -- setting up a game (one deal) ---------------------------------------------------

    def _check_deal(self, deal: Mapping[str, Any]) -> tuple[list[list[Card]], list[Card], int]:
        unknown = set(deal) - {"hands", "leftovers", "dealer"}
        if unknown:
            raise OptionError(f"from_deal takes hands, leftovers and dealer, not {sorted(unknown)}")
        n = self.players
        dealer = deal.get("dealer", 0)
        check_dealer(dealer, n)
        given = deal.get("hands")
        if given is None or len(given) != n:
            raise OptionError(f"from_deal needs hands: one list of cards for each of {n} seats")
        hands = [[as_card(c) for c in hand] for hand in given]
        size = len(hands[0])
        if any(len(hand) != size for hand in hands) or not 1 <= size <= self.hand_size:
            raise OptionError(
                f"every hand must hold the same number of cards, from 1 to {self.hand_size} "
                f"(a full deal for {n} players), not {[len(h) for h in hands]}"
            )
        dealt = [card for hand in hands for card in hand]
        dealt_set = set(dealt)
        # without named leftovers a full deal leaves the rest in the middle; a partial one
        # (a scenario) leaves them out of play, as does any card the deal does not name
        full = size == self.hand_size
        rest = [card for card in DECK if card not in dealt_set] if full else []
        leftovers = [as_card(c) for c in deal.get("leftovers", rest)]
        everything = dealt + leftovers
        if len(set(everything)) != len(everything):
            twice = sorted({str(c) for c in everything if everything.count(c) > 1})
            raise OptionError(f"a card is dealt twice ({', '.join(twice)})")
        return hands, leftovers, dealer

    def _deal_random(self) -> list[Event]:
        # each game's shuffle comes from the seed and the game number alone, so clone()
        # need not copy a random generator (the match's rng only picks the first dealer)
        deck = list(DECK)
        shuffle(random.Random(self.seed * 100 + self.hand_number + 1), deck)
        n, size = self.players, self.hand_size
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(self.dealer + 1 + i) % n] = deck[i * size : (i + 1) * size]
        return self._start_hand(hands, deck[n * size :])

    def _start_hand(self, hands: list[list[Card]], leftovers: list[Card]) -> list[Event]:
        n = self.players
        self.hand_number += 1
        self.hands: list[list[list[Card]]] = []
        self.plays: list[list[list[Action]]] = []  # beside each hand: its play actions
        for hand in hands:
            suits, plays = by_suit_with_plays(hand)
            self.hands.append(suits)
            self.plays.append(plays)
        self.sizes = [len(hand) for hand in hands]
        if sum(self.sizes) + len(leftovers) == len(DECK):  # a full deal (no card twice)
            self.out_of_play: list[Card] = []
        else:
            in_play = {c for hand in hands for c in hand} | set(leftovers)
            self.out_of_play = [c for c in DECK if c not in in_play]  # a partial deal's rest
        self.leftovers = list(leftovers)
        self.leftovers_to: int | None = None
        self.trick: list[tuple[int, Card, str | None]] = []
        self.lead_suit = -1
        self.best_value = 0
        self.best_seat = 0
        self.tricks: list[CompletedTrick] = []
        self.taken: list[list[Card]] = [[] for _ in range(n)]
        self.points_visible = [0] * n
        self.tricks_won = [0] * n
        self.void_masks = [0] * n
        self.hearts_broken = False
        self.moon_shooter: int | None = None
        self.pending_points: list[int] = []
        self.opening_declined = False
        self.forced_lead: Card | None = None
        self.opening_holder = self._holder_of(WILD_CLUB)
        data = MappingProxyType(
            {"dealer": self.dealer, "hand": self.hand_number, "leftovers": len(self.leftovers)}
        )
        events = [
            make_event("deal", seat, tuple(chain.from_iterable(suits)), size, data, _ONLY[seat])
            for seat, (suits, size) in enumerate(zip(self.hands, self.sizes, strict=True))
        ]
        if self.opening_holder is not None:
            self.phase = "opening"
            self.current = self.opening_holder
            events.append(make_event("opening", seat=self.opening_holder))
        else:
            self._force_lowest_club()
        self.leader: int | None = self.current
        return events

    def _holder_of(self, card: Card) -> int | None:
        for seat, hand in enumerate(self.hands):
            if card in hand[card.suit]:
                return seat
        return None

    def _lowest_club(self) -> tuple[int, Card] | None:
        """The seat holding the lowest natural club in any hand, and that club."""
        best: tuple[int, Card] | None = None
        for seat, hand in enumerate(self.hands):
            clubs = hand[CLUBS]
            # a suit list is sorted with the Wild last: its first card is its lowest natural
            if clubs and not clubs[0].wild and (best is None or clubs[0].rank < best[1].rank):
                best = (seat, clubs[0])
        return best

    def _force_lowest_club(self) -> None:
        self.phase = "play"
        lowest = self._lowest_club()
        if lowest is None:  # only in a partial deal without natural clubs
            self.current = (self.dealer + 1) % self.players
            return
        self.current, self.forced_lead = lowest

    # -- what callers ask --------------------------------------------------------------

    def actors(self) -> tuple[int, ...]:
        return () if self.current is None else (self.current,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current:
            return []
        if self.phase == "play":
            plays = self.plays[seat]  # copied out at C speed: callers may change the list
            if self.trick:
                follow = plays[self.lead_suit]
                if follow:
                    return follow[:]
                if self.no_points_first_trick and not self.tricks:
                    hand = self.hands[seat]
                    safe = [a for suit in hand for c in suit if not c.points for a in c.plays]
                    if safe:
                        return safe
                return [*plays[CLUBS], *plays[DIAMONDS], *plays[HEARTS], *plays[SPADES]]
            if self.forced_lead is not None:
                return [self.forced_lead.plays[0]]
            if self.hearts_broken or not (plays[CLUBS] or plays[DIAMONDS] or plays[SPADES]):
                return [*plays[CLUBS], *plays[DIAMONDS], *plays[HEARTS], *plays[SPADES]]
            return [*plays[CLUBS], *plays[DIAMONDS], *plays[SPADES]]
        if self.phase == "opening":
            lowest = self._lowest_club()
            if lowest is not None and lowest[0] == seat:
                return [lowest[1].plays[0], WILD_CLUB_LOW]
            return [WILD_CLUB_LOW, DECLINE]
        if self.phase == "moon":
            return [MOON_SELF, MOON_OTHERS]
        return []

    def view(self, seat: int | None) -> WildTwistView:
        n = self.players
        check_view_seat(seat, n)
        lead = self.lead_suit
        return WildTwistView(
            game=GAME_ID,
            seat=seat,
            players=n,
            phase=self.phase,
            current=self.current,
            hand=() if seat is None else tuple(c for suit in self.hands[seat] for c in suit),
            hand_sizes=tuple(self.sizes),
            dealer=self.dealer,
            scores=tuple(self.scores),
            hand_number=self.hand_number,
            legal=() if seat is None else tuple(self.legal_actions(seat)),
            trick=tuple(self.trick),
            lead_suit=SUIT_LETTERS[lead] if lead >= 0 else None,
            hearts_broken=self.hearts_broken,
            leader=self.leader,
            tricks=tuple(self.tricks),
            taken=tuple(tuple(t) for t in self.taken),
            tricks_won=tuple(self.tricks_won),
            hand_points_visible=tuple(self.points_visible),
            last_trick=self.last_trick,
            last_hand=self.hand_results[-1] if self.hand_results else None,
            voids=tuple(_VOID_SETS[m] for m in self.void_masks),
            leftovers_count=len(self.leftovers),
            leftovers_to=self.leftovers_to,
            opening_holder=self.opening_holder,
            opening_declined=self.opening_declined,
            moon_shooter=self.moon_shooter,
            length=self.length,
            no_points_first_trick=self.no_points_first_trick,
            first_trick=not self.tricks,
            options=self.options,
            hand_results=tuple(self.hand_results),
        )

    @classmethod
    def parse_card(cls, text: str) -> Card:
        return parse_card(text)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        if isinstance(text, str) and ">" in text:
            head, _, declared = text.rpartition(">")
            alias = DECLARATION_ALIASES.get(declared.strip().upper())
            if alias is not None:
                text = f"{head}>{alias}"
        action = parse_action(text, parse_card, ACTION_CHOICES)
        if action.kind == "play" and not action.uno:
            card: Card = action.card  # type: ignore[assignment]  # parse_card made it
            plays = card.plays
            if action.choice is None and len(plays) == 1:
                return plays[0]  # the interned action
            if action.choice is not None and len(plays) == 2:
                return plays[action.choice == LOW]
        return action

    # -- applying actions ----------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        # the hot path, a card played by the seat to move, goes straight to _play (which
        # checks the card); all else takes Match.apply's checks. The phase is "play" only
        # while nobody has won and no hand is over.
        if (
            type(action) is Action
            and action.kind == "play"
            and seat.__class__ is int
            and seat == self.current
            and self.phase == "play"
        ):
            events = self._play(seat, action)
            self.history.append((seat, action))
            self.log.extend(events)
            return events
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "play" and self.phase == "play":
            if seat != self.current:
                check_seat_turn(self, seat, self.current)
            return self._play(seat, action)
        check_seat_turn(self, seat, self.current)
        phase = self.phase
        if phase == "opening":
            return self._opening(seat, action)
        if phase == "moon":
            if kind != "moon" or action.choice not in MOON_CHOICES:
                raise IllegalAction(
                    "you shot the moon: choose moon:self (−27 to you) or moon:others"
                )
            return self._score_moon(seat, action.choice)
        if kind in ("play", "decline", "moon"):
            raise IllegalAction(f"{action} is not possible now: play a card")
        raise IllegalAction(f"there is no {kind!r} in {GAME_NAME}")

    def _opening(self, seat: int, action: Action) -> list[Event]:
        if action.uno:
            raise IllegalAction(f"there is no UNO call in {GAME_NAME}")
        lowest = self._lowest_club()
        holds_lowest = lowest is not None and lowest[0] == seat
        if action.kind == "decline":
            if holds_lowest:
                assert lowest is not None
                raise IllegalAction(
                    f"you hold the lowest club too: lead {lowest[1]} or {WILD_CLUB_LOW}"
                )
            self.opening_declined = True
            self._force_lowest_club()
            self.leader = self.current
            return [make_event("decline", seat=seat)]
        if action.kind == "play" and action.card is WILD_CLUB:
            if action.choice != LOW:
                raise IllegalAction("the Wild Club may open the game only as LOW: play WC>LOW")
            self.phase = "play"
            return self._play(seat, action)
        if action.kind == "play" and holds_lowest and lowest is not None:
            if action.card is lowest[1] and action.choice is None:
                self.phase = "play"
                self.forced_lead = lowest[1]
                return self._play(seat, action)
            raise IllegalAction(f"open with {lowest[1]} or {WILD_CLUB_LOW}")
        raise IllegalAction(f"open with {WILD_CLUB_LOW} or decline")

    def _play(self, seat: int, action: Action) -> list[Event]:
        """Play a card for ``seat``, the seat to move (every caller has checked that)."""
        card = action.card
        if card.__class__ is not Card:
            raise IllegalAction(f"{card!r} is not a {GAME_NAME} card")
        hand = self.hands[seat]
        suit = card.suit
        held = hand[suit]
        try:
            position = held.index(card)
        except ValueError:
            raise IllegalAction(f"you do not hold {card}") from None
        declared = action.choice
        wild = card.wild
        if wild:
            if declared == HIGH:
                value = WILD_HIGH_VALUE
            elif declared == LOW:
                value = WILD_LOW_VALUE
            else:
                raise IllegalAction(self._rule_error(seat, card) or _declare_error(card))
            key = card.index * 2 + (declared == LOW)  # play_key, inlined
        elif declared is not None:
            raise IllegalAction(
                self._rule_error(seat, card) or f"only a Wild is declared HIGH or LOW: play {card}"
            )
        else:
            value = card.rank
            key = card.index * 2
        if action.uno:
            raise IllegalAction(f"there is no UNO call in {GAME_NAME}")
        trick = self.trick
        breaks = False
        if trick:
            lead = self.lead_suit
            if suit != lead:
                follow = hand[lead]
                if follow:
                    raise IllegalAction(_follow_error(lead, follow[0]))
                if card.points and self.no_points_first_trick and not self.tricks:
                    safe = [c for s in hand for c in s if not c.points]
                    if safe:
                        raise IllegalAction(_no_points_error(safe[0]))
                self.void_masks[seat] |= 1 << lead
                if suit == HEARTS and not self.hearts_broken:
                    breaks = True
            elif value > self.best_value:
                self.best_value = value
                self.best_seat = seat
        else:
            forced = self.forced_lead
            if forced is not None:
                if card is not forced:
                    raise IllegalAction(_forced_error(forced))
                self.forced_lead = None
            elif suit == HEARTS and not self.hearts_broken:
                if hand[CLUBS] or hand[DIAMONDS] or hand[SPADES]:
                    raise IllegalAction(HEARTS_NOT_BROKEN)
                breaks = True
                self.void_masks[seat] |= ALL_BUT_HEARTS  # the exception shows it
            self.lead_suit = suit
            self.best_value = value
            self.best_seat = seat
            self.leader = seat
        # checks done: change the state
        del held[position]
        if wild:  # a Wild is last in its suit, its two plays last in the suit's plays
            del self.plays[seat][suit][position:]
        else:
            del self.plays[seat][suit][position]
        self.sizes[seat] -= 1
        trick.append(TRICK_ENTRIES[seat][key])
        events = [PLAY_EVENTS[seat][key]]
        if breaks:
            self.hearts_broken = True
            events.append(make_event("hearts_broken", seat=seat, cards=(card,), count=1))
        if len(trick) == self.players:
            self._finish_trick(events)
        else:
            self.current = (seat + 1) % self.players
        return events

    def _rule_error(self, seat: int, card: Card) -> str | None:
        """Why ``card`` may not be played now, whatever its declaration (None: it may).

        A wrong declaration is reported only after this, so the error never suggests
        a play that the rules forbid anyway.
        """
        hand = self.hands[seat]
        if self.trick:
            lead = self.lead_suit
            if card.suit == lead:
                return None
            if hand[lead]:
                return _follow_error(lead, hand[lead][0])
            if card.points and self.no_points_first_trick and not self.tricks:
                safe = [c for s in hand for c in s if not c.points]
                return _no_points_error(safe[0]) if safe else None
            return None
        if self.forced_lead is not None:
            return None if card is self.forced_lead else _forced_error(self.forced_lead)
        all_hearts = not (hand[CLUBS] or hand[DIAMONDS] or hand[SPADES])
        if card.suit == HEARTS and not self.hearts_broken and not all_hearts:
            return HEARTS_NOT_BROKEN
        return None

    def _finish_trick(self, events: list[Event]) -> None:
        winner = self.best_seat
        plays = tuple(self.trick)
        cards = tuple(map(_entry_card, plays))  # map with a getter runs at C speed
        points = sum(map(_card_points, cards))
        self.taken[winner].extend(cards)
        self.points_visible[winner] += points
        self.tricks_won[winner] += 1
        leader = plays[0][0]
        data: dict[str, Any] = {"points": points, "leader": leader, "trick": len(self.tricks) + 1}
        if not self.tricks and self.leftovers:
            self.leftovers_to = winner
            data["leftovers"] = len(self.leftovers)
        completed = (leader, winner, plays)
        self.tricks.append(completed)
        self.last_trick = completed
        events.append(make_event("trick_won", winner, cards, len(cards), data))
        self.trick = []
        self.lead_suit = -1
        self.leader = winner
        self.current = winner
        if not self.sizes[winner]:
            self._score(events)

    def _score(self, events: list[Event]) -> None:
        points = list(self.points_visible)
        if self.leftovers_to is not None:
            points[self.leftovers_to] += sum(c.points for c in self.leftovers)
        for seat, seat_points in enumerate(points):
            if seat_points == MOON_POINTS:  # only all 14 hearts and the Q♠ make 27
                self.phase = "moon"
                self.current = seat
                self.moon_shooter = seat
                self.pending_points = points
                return
        self._end_hand(points, {}, events)

    def _score_moon(self, seat: int, choice: str) -> list[Event]:
        n = self.players
        points = moon_points(n, seat, choice == "self", MOON_POINTS)
        events = [make_event("moon", seat=seat, data={"choice": choice})]
        self.moon_shooter = None
        self._end_hand(points, {"moon": seat, "moon_choice": choice}, events)
        return events

    def _end_hand(self, points: list[int], notes: dict[str, Any], events: list[Event]) -> None:
        notes["taken_points"] = tuple(self.pending_points or points)
        notes["dealer"] = self.dealer
        notes["leftovers"] = tuple(str(c) for c in self.leftovers)
        notes["leftovers_to"] = self.leftovers_to
        result = record_hand(self, points, notes)
        over = self.hand_number >= self.length
        winners = lowest_seats(self.scores) if over else ()
        events.append(hand_end_event(result, winners, tuple(self.leftovers)))  # revealed
        if over:
            self.winners = winners  # D-3: co-winners
            self.phase = "over"
            self.current = None
            events.append(
                make_event("match_end", data={"totals": result.totals, "winners": winners})
            )
            return
        # the table stays as it ended until next_hand() deals again
        self.phase = "hand_over"
        self.current = None
        self._hand_over = True

    def _deal_next(self, deal: dict[str, Any] | None) -> list[Event]:
        self.dealer = (self.dealer + 1) % self.players  # the deal passes left (D-2)
        if deal is None:
            return self._deal_random()
        deal.setdefault("dealer", self.dealer)
        hands, leftovers, dealer = self._check_deal(deal)
        self.dealer = dealer
        return self._start_hand(hands, leftovers)

    # -- search support ------------------------------------------------------------------

    def clone(self) -> WildTwistMatch:
        other = object.__new__(WildTwistMatch)
        other.__dict__.update(self.__dict__)  # rng shared: the engine no longer draws from it
        other.length = self.length
        other.no_points_first_trick = self.no_points_first_trick
        other.hand_size = self.hand_size
        other.last_trick = self.last_trick
        other.dealer = self.dealer
        other.out_of_play = self.out_of_play  # never changed after the deal: shared
        other.leftovers_to = self.leftovers_to
        other.lead_suit = self.lead_suit
        other.best_value = self.best_value
        other.best_seat = self.best_seat
        other.hearts_broken = self.hearts_broken
        other.moon_shooter = self.moon_shooter
        other.opening_declined = self.opening_declined
        other.forced_lead = self.forced_lead
        other.opening_holder = self.opening_holder
        other.phase = self.phase
        other.current = self.current
        other.leader = self.leader
        other.scores = self.scores[:]
        other.hand_results = self.hand_results[:]
        other.history = self.history[:]
        other.log = self.log[:]
        other.hands = [[s[:] for s in hand] for hand in self.hands]
        other.plays = [[s[:] for s in plays] for plays in self.plays]
        other.sizes = self.sizes[:]
        other.leftovers = self.leftovers[:]
        other.trick = self.trick[:]
        other.tricks = self.tricks[:]
        other.taken = [t[:] for t in self.taken]
        other.points_visible = self.points_visible[:]
        other.tricks_won = self.tricks_won[:]
        other.void_masks = self.void_masks[:]
        other.pending_points = self.pending_points[:]
        return other


HEARTS_NOT_BROKEN: Final = "hearts are not broken: lead another suit"


def _follow_error(lead: int, held: Card) -> str:
    return f"you must follow {SUIT_NAMES[lead]}: you hold {held}"


def _no_points_error(safe: Card) -> str:
    return f"no points on the first trick: discard a card like {safe}"


def _forced_error(forced: Card) -> str:
    return f"the lowest club opens the game: lead {forced}"


def _declare_error(card: Card) -> str:
    return f"declare HIGH or LOW for a Wild: {card}>HIGH or {card}>LOW"
