"""The UNO match: RULES.md §3, classic and Minecraft (the Creeper, §3.10), and the house
rules of §4 (stacking H-1, Seven-O H-2, draw to match H-3), each off unless chosen."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from ..core import (
    EMPTY,
    Action,
    Event,
    GameSpec,
    HandResult,
    Match,
    cards_from,
    check_viewer,
    make_event,
    parse_action,
    shuffle,
)
from ..errors import IllegalAction, OptionError
from .cards import (
    ACCEPT,
    CATCH,
    CHALLENGE,
    CLASSIC_CARDS,
    CLASSIC_DECK,
    COLOR_CHOICES,
    COLOR_INDEX,
    COLOR_NAMES,
    COLORS,
    CREEPER_CARD,
    DRAW,
    DRAW_TWO,
    KEEP,
    MATCH,
    MINECRAFT_DECK,
    PASS,
    PLAYS,
    PLAYS_UNO,
    REVERSE,
    SKIP,
    SWAP,
    TURN_PLAYS,
    UNO_CALL,
    WD4,
    UnoCard,
    parse_card,
)
from .cards import ALL_CARDS as _ALL_CARDS
from .view import UnoView

HAND_SIZE = 7
PENDING_COLOR = "color"
PENDING_DRAWN = "drawn"
PENDING_CHALLENGE = "challenge"
PENDING_STACK = "stack"  # H-1: a Draw Two or Wild Draw Four aimed at the current seat
PENDING_SWAP = "swap"  # H-2: the current seat played a 7 and chooses whom to swap with
STACK_MODES: Mapping[str, int] = MappingProxyType({"off": 0, "same": 1, "any": 2})
_CHOICES: Mapping[str, tuple[str, ...]] = MappingProxyType({"play": COLORS, "color": COLORS})
_WORD_TO_COLOR = {name: letter for letter, name in COLOR_NAMES.items()}
_SINGLE_SEATS = tuple((s,) for s in range(16))
_NO_CARDS: tuple[UnoCard, ...] = ()
# hands are kept sorted by card index; a dict's own lookup is the cheapest key to call
_card_index = {card: card.index for card in _ALL_CARDS}.__getitem__
_TURN_PLAYS, _TURN_PLAYS_TWO = TURN_PLAYS  # without and with the UNO calls (two cards held)


# Events repeat a lot; they are immutable, so the common ones are built once.
# Indexed [seat][slot]: slot = card index * 10 + (declared colour index + 1) * 2 + uno.
_PLAY_EVENTS: list[list[Event | None]] = [[None] * (len(_ALL_CARDS) * 10) for _ in range(16)]
_DRAW_EVENTS: list[list[Event | None]] = [[None] * len(_ALL_CARDS) for _ in range(16)]
_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({s}) for s in range(16))
_FROM = tuple(MappingProxyType({"from": s}) for s in range(16))  # a received hand's giver
_TARGETS = tuple(MappingProxyType({"target": s}) for s in range(16))  # a swap's other seat
_DIRECTIONS = {step: MappingProxyType({"direction": step}) for step in (1, -1)}
_TURN_DRAW = MappingProxyType({"reason": "turn"})


def _per_seat(kind: str, **data: Any) -> tuple[Event, ...]:
    """One shared event per seat for a kind that carries nothing else."""
    shared = MappingProxyType(data) if data else EMPTY
    return tuple(make_event(kind, s, data=shared) for s in range(16))


# H-2: a swap's events [seat][target] (made as needed) and a pass's [direction][seat]
_SWAP_EVENTS: list[list[Event | None]] = [[None] * 16 for _ in range(16)]
_PASS_EVENTS = {
    step: tuple(make_event("pass_hands", s, data=_DIRECTIONS[step]) for s in range(16))
    for step in (1, -1)
}


class _SevenOTables:
    """H-2's fixed data for a table of n seats: each seat's swap actions, and for a swap
    [seat][target] and a pass [direction] each hand's new seat (``hand_moves``) and the
    gifts (giver, receiver), by giver (the order of the ``received`` events)."""

    def __init__(self, n: int) -> None:
        seats = range(n)

        def swapped(a: int, b: int) -> tuple[int, ...]:
            dest = list(seats)
            dest[a], dest[b] = b, a
            return tuple(dest)

        def gifts(dest: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
            return tuple((s, d) for s, d in enumerate(dest) if s != d)

        self.choices = tuple(tuple(SWAP[other] for other in seats if other != s) for s in seats)
        self.swap_seats = [[swapped(a, b) for b in seats] for a in seats]
        self.swap_gifts = [[gifts(dest) for dest in row] for row in self.swap_seats]
        self.pass_seats = {step: tuple((s + step) % n for s in seats) for step in (1, -1)}
        self.pass_gifts = {step: gifts(dest) for step, dest in self.pass_seats.items()}


_SEVEN_O: dict[int, _SevenOTables] = {}  # by table size, made as needed (_seven_o)


def _seven_o(n: int) -> _SevenOTables:
    tables = _SEVEN_O[n] = _SevenOTables(n)
    return tables


_SEVENS_AND_ZEROS = frozenset(c for c in _ALL_CARDS if c.effect == 0 and c.points in (0, 7))
_ZEROS = frozenset(c for c in _SEVENS_AND_ZEROS if c.points == 0)
# the cards of each colour: whether a hand holds one is a set look-up a card
_COLOURED = tuple(frozenset(c for c in _ALL_CARDS if c.color_index == i) for i in range(4))
# H-1: what may be stacked: on a Wild Draw Four; on a Draw Two with stack=same; on a Draw
# Two with stack=any; and each such card's plays, without and with the UNO calls
_DRAW_TWOS = tuple(c for c in _ALL_CARDS if c.effect == DRAW_TWO)
_STACKABLE_SETS = tuple(frozenset(cards) for cards in ((WD4,), _DRAW_TWOS, (*_DRAW_TWOS, WD4)))
_STACK_PLAYS = {c: PLAYS[c.index] for c in _STACKABLE_SETS[2]}
_STACK_PLAYS_UNO = {c: PLAYS[c.index] + PLAYS_UNO[c.index] for c in _STACKABLE_SETS[2]}
_PENDING_DRAW_EVENTS: dict[tuple[int | None, int, int], Event] = {}  # (by, victim, count)
_ACCEPT_EVENTS: dict[tuple[int, int, int | None], Event] = {}  # (seat, count, target)
# H-3: a run's draw of one card, [seat][card] (made as needed); the public draw_to_match
# events, per seat, at count * 4 + bonus (_run_event), a run of one card made at once
_MATCH_DRAW = MappingProxyType({"reason": "match"})
_MATCH_DRAW_EVENTS: list[list[Event | None]] = [[None] * len(_ALL_CARDS) for _ in range(16)]
_RUN_EVENTS: tuple[dict[int, Event], ...] = tuple(
    {4: make_event("draw_to_match", s, count=1, data=MappingProxyType({"bonus": 0}))}
    for s in range(16)
)
# by the number of cards reshuffled (the house rules' long draws reshuffle small piles often)
_RESHUFFLE_EVENTS = tuple(make_event("reshuffle", count=k) for k in range(len(MINECRAFT_DECK)))
_SKIP_EVENTS = _per_seat("skip")
_CREEPER_EVENTS = tuple(make_event("creeper", s, (CREEPER_CARD,), 1) for s in range(16))
_KEEP_EVENTS = _per_seat("keep")
_EXPOSED_EVENTS = _per_seat("exposed")
_UNO_EVENTS = _per_seat("uno", late=False)
_LATE_UNO_EVENTS = _per_seat("uno", late=True)
_REVERSE_EVENTS = {step: _per_seat("reverse", direction=step) for step in (1, -1)}
_REASONS: dict[str, Mapping[str, Any]] = {"match": _MATCH_DRAW}  # reason -> its shared data
_PENALTY_EVENTS: dict[tuple[int, int, str], Event] = {}  # (seat, count, reason) -> event


def _reason(reason: str) -> Mapping[str, Any]:
    data = _REASONS.get(reason)
    if data is None:
        data = _REASONS[reason] = MappingProxyType({"reason": reason})
    return data


@dataclass(slots=True)
class _Unseen:
    """The cards one hand played that the others' lists of it (private_known) may still
    hold: UnoMatch._settle drops them. ``since[observer]``: where the cards that observer's
    list must drop start (a list made later than the first play; 0 if not given)."""

    cards: list[UnoCard]
    since: dict[int, int] = field(default_factory=dict)


class UnoMatch(Match):
    """Classic UNO (108 cards)."""

    game_id: ClassVar[str] = "uno"
    DECK: ClassVar[tuple[UnoCard, ...]] = CLASSIC_DECK
    CARDS: ClassVar[frozenset[UnoCard]] = frozenset(CLASSIC_CARDS)
    WITH_CREEPERS: ClassVar[bool] = False
    _rng_shared = False  # a clone shares self.rng: copy it before drawing (_own_rng)
    # The table's state lives in slots: CPython reads and writes a slot at about the cost
    # of a local, while a match's __dict__ holding 30 names or more turns every attribute
    # access into a dict lookup. clone() copies them; Match's own fields stay in __dict__.
    __slots__ = (
        "bluff_allowed",
        "color",
        "current",
        "dealer",
        "direction",
        "discard",
        "draw_by",
        "draw_count",
        "draw_pile",
        "draw_to_match",
        "drawn",
        "exposed",
        "hand_moves",
        "hands",
        "out_of_play",
        "passes",
        "pending",
        "private_known",
        "public_known",
        "revealed",
        "running_scores",
        "seven_o",
        "stack_mode",
        "target",
        "unseen",
        "wd4_color",
        "wd4_guilty",
        "wd4_hand",
        "wd4_player",
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
        self._reset_table()
        events: list[Event] = []
        if deal is None:
            self.dealer = self._choose_dealer(events)
            self._start_hand(events)
        else:
            self._start_explicit_hand(dict(deal), events)
        self.log.extend(events)

    # -- state ----------------------------------------------------------------------

    def _reset_table(self) -> None:
        n = self.players
        self.bluff_allowed: bool = bool(self.options["wd4_bluff"])
        self.running_scores: bool = self.options["scoring"] == "running"
        self.target: int = int(self.options["target"])
        # house rules (§4); a match saved before they existed has none of them
        self.stack_mode: int = STACK_MODES[self.options.get("stack", "off")]  # 0 off, 1, 2
        self.seven_o: bool = bool(self.options.get("seven_o", False))
        self.draw_to_match: bool = bool(self.options.get("draw_to_match", False))
        self.draw_count = 0  # the pending draw (H-1; 4 while a challenge is pending): cards
        self.draw_by: int | None = None  # who played the card that made the pending draw
        self.hand_moves: list[tuple[int, ...]] = []  # H-2: per swap or pass, each hand's new seat
        self.dealer = 0
        self.hands: list[list[UnoCard]] = [[] for _ in range(n)]
        self.draw_pile: list[UnoCard] = []  # the top card is last
        self.discard: list[UnoCard] = []  # the top card is last
        self.color = 0  # index into COLORS of the active colour
        self.direction = 1
        self.current = None
        self.pending: str | None = None
        self.drawn: UnoCard | None = None
        self.exposed: int | None = None
        self.passes = 0
        self.wd4_player: int | None = None
        self.wd4_color = 0  # the active colour the pending WD4 was played on
        self.wd4_guilty = False
        self.wd4_hand: tuple[UnoCard, ...] = ()
        self.revealed = [0] * n
        self.public_known: list[list[UnoCard]] = [[] for _ in range(n)]
        # per holder: observer -> the cards the observer knows the holder still holds (a
        # challenge showed them; with Seven-O, the hand the observer gave, or one that moved).
        # Kept up to date lazily: with Seven-O nearly every hand is known to someone, and
        # searching those lists at every play would cost more than the rest of the play. A
        # list holds the cards as they were shown (a tuple, until something is forgotten);
        # ``unseen`` keeps, per seat and moving with the hands, the cards the hand played
        # since (_Unseen; None: none, and None for the whole list when no seat has any).
        # Whatever reads private_known calls _settle first.
        self.private_known: list[dict[int, Sequence[UnoCard]]] = [{} for _ in range(n)]
        self.unseen: list[_Unseen | None] | None = None
        self.out_of_play: list[UnoCard] = []  # cards an explicit deal left out

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is: ``current`` under its older name."""
        return self.current

    @turn.setter
    def turn(self, seat: int | None) -> None:
        self.current = seat

    @property
    def last_hand(self) -> HandResult | None:
        return self.hand_results[-1] if self.hand_results else None

    # -- notation -------------------------------------------------------------------

    @classmethod
    def parse_card(cls, text: str) -> UnoCard:
        return parse_card(text, cls.WITH_CREEPERS)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        if isinstance(text, str) and (">" in text or ":" in text):
            text = _colour_words_to_letters(text)
        return parse_action(text, cls.parse_card, _CHOICES)

    # -- setting up a hand ----------------------------------------------------------

    def _choose_dealer(self, events: list[Event]) -> int:
        """D-28: everyone draws, highest number deals; tied players draw again."""
        deck = list(self.DECK)
        shuffle(self._own_rng(), deck)
        drawing = list(range(self.players))
        round_number = 1
        while True:
            best = -1
            best_seats: list[int] = []
            for seat in drawing:
                card = deck.pop()
                value = card.points if card.effect == 0 else 0
                events.append(
                    make_event(
                        "dealer_draw",
                        seat,
                        (card,),
                        1,
                        MappingProxyType({"value": value, "round": round_number}),
                    )
                )
                if value > best:
                    best, best_seats = value, [seat]
                elif value == best:
                    best_seats.append(seat)
            if len(best_seats) == 1:
                events.append(make_event("dealer", best_seats[0]))
                return best_seats[0]
            drawing = best_seats
            round_number += 1

    def _new_hand_state(self) -> None:
        n = self.players
        self.hand_number += 1
        self.hands = [[] for _ in range(n)]
        self.direction = 1
        self.pending = None
        self.drawn = None
        self.exposed = None
        self.passes = 0
        self.wd4_player = None
        self.wd4_hand = ()
        self.draw_count = 0
        self.draw_by = None
        self.hand_moves = []
        self.revealed = [0] * n
        self.public_known = [[] for _ in range(n)]
        self.private_known = [{} for _ in range(n)]
        self.unseen = None
        self.out_of_play = []

    def _start_hand(self, events: list[Event]) -> None:
        self._new_hand_state()
        deck = list(self.DECK)
        shuffle(self._own_rng(), deck)
        n = self.players
        hands = self.hands
        for _ in range(HAND_SIZE):
            for i in range(1, n + 1):
                hands[(self.dealer + i) % n].append(deck.pop())
        for hand in hands:
            hand.sort(key=_card_index)
        self.draw_pile = deck
        self.discard = []
        self._deal_events(events)
        self._flip(None, events)

    def _start_explicit_hand(self, deal: dict[str, Any], events: list[Event]) -> None:
        """``from_deal``: hands, draw_pile (top first), first_discard, dealer."""
        known = {"hands", "draw_pile", "first_discard", "dealer"}
        unknown = set(deal) - known
        if unknown:
            raise OptionError(f"unknown deal keys {sorted(unknown)}; use {sorted(known)}")
        self._new_hand_state()
        n = self.players
        raw_hands = deal.get("hands")
        if raw_hands is None or len(raw_hands) != n:
            raise OptionError(f"the deal needs hands=[...] with one hand per seat ({n})")
        dealer = deal.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
            raise OptionError(f"dealer must be a seat number from 0 to {n - 1}")
        self.dealer = dealer
        self.hands = [sorted(self._cards(h), key=_card_index) for h in raw_hands]
        if not all(self.hands):
            raise OptionError("every seat needs at least one card in the deal")
        first = deal.get("first_discard")
        first_card = None if first is None else self._cards([first])[0]
        remaining = list(self.DECK)
        for card in [c for h in self.hands for c in h] + ([first_card] if first_card else []):
            if card not in remaining:
                raise OptionError(f"the deal holds more {card} cards than the deck has")
            remaining.remove(card)
        if deal.get("draw_pile") is None:
            shuffle(self._own_rng(), remaining)
            self.draw_pile = remaining
        else:
            pile = self._cards(deal["draw_pile"])
            for card in pile:
                if card not in remaining:
                    raise OptionError(f"the deal holds more {card} cards than the deck has")
                remaining.remove(card)
            self.draw_pile = pile[::-1]
            self.out_of_play = remaining
        self.discard = []
        self._deal_events(events)
        self._flip(first_card, events)

    def _cards(self, items: Any) -> list[UnoCard]:
        cards: list[UnoCard] = cards_from(list(items), self.parse_card)  # type: ignore[assignment]
        for card in cards:
            if card not in self.CARDS:
                raise OptionError(f"{card} is not a card of {self.spec.name}")
        return cards

    def _deal_events(self, events: list[Event]) -> None:
        events.append(
            make_event("deal", self.dealer, count=HAND_SIZE, data={"hand": self.hand_number})
        )
        for seat, hand in enumerate(self.hands):
            events.append(make_event("hand", seat, tuple(hand), len(hand), private_to=_ONLY[seat]))

    def _flip(self, card: UnoCard | None, events: list[Event]) -> None:
        """D-29: turn up the first discard and apply its effect."""
        pile = self.draw_pile
        while True:
            if card is None:
                if not pile:
                    raise OptionError("the draw pile is empty: nothing to turn up")
                card = pile.pop()
            events.append(make_event("flip", None, (card,), 1))
            if card is not WD4:
                break
            if all(c is WD4 for c in pile):
                raise OptionError("there is no card but Wild Draw Fours left to turn up")
            pile.insert(self._own_rng().randrange(len(pile) + 1), card)
            events.append(make_event("flip_return", None, (card,), 1))
            card = None
        self.discard.append(card)
        n = self.players
        left = (self.dealer + 1) % n
        self.current = left
        if card.is_wild:
            self.pending = PENDING_COLOR
            self.color = 0
            return
        self.color = card.color_index
        effect = card.effect
        if effect == SKIP:
            events.append(_SKIP_EVENTS[left])
            self.current = (left + 1) % n
        elif effect == REVERSE:
            self.direction = -1
            events.append(make_event("reverse", None, data={"direction": -1}))
            self.current = self.dealer
        elif effect == DRAW_TWO:
            if self.stack_mode:  # H-1: a pending draw the left player answers
                self._pending_draw(None, left, 2, events)
                return
            self._penalty(left, 2, "draw_two", events)
            events.append(_SKIP_EVENTS[left])
            self.current = (left + 1) % n

    # -- drawing --------------------------------------------------------------------

    def _reshuffle(self, events: list[Event]) -> bool:
        """§3.8: the discard pile but its top becomes the draw pile. False if impossible."""
        discard = self.discard
        if len(discard) <= 1:
            return False
        top = discard.pop()
        pile = discard
        shuffle(self._own_rng(), pile)
        self.draw_pile = pile
        self.discard = [top]
        events.append(_RESHUFFLE_EVENTS[len(pile)])
        return True

    def _take(self, seat: int, count: int, reason: str, events: list[Event]) -> list[UnoCard]:
        """Draw ``count`` cards for ``seat`` (as many as exist), Creepers triggering: the
        cards go in runs, each up to a Creeper or to the end of the pile, and each makes the
        same event as drawing its cards one by one would."""
        hand = self.hands[seat]
        data = _reason(reason)
        taken: list[UnoCard] = []
        left = count
        while left:
            pile = self.draw_pile
            if not pile:
                if not self._reshuffle(events):
                    break
                pile = self.draw_pile
            run = pile[-left:]  # (the whole pile if it holds fewer)
            run.reverse()  # the top card first, as drawn
            if self.WITH_CREEPERS and CREEPER_CARD in run:
                del run[run.index(CREEPER_CARD) + 1 :]
            del pile[-len(run) :]
            hand += run
            hand.sort(key=_card_index)  # (stable: as if each were inserted in turn)
            events.append(make_event("draw", seat, tuple(run), len(run), data, _ONLY[seat]))
            taken += run
            left -= len(run)
            if run[-1] is CREEPER_CARD:
                self._creeper(seat, events)
        if taken:
            self.passes = 0
        return taken

    def _flush(
        self, seat: int, chunk: list[UnoCard], data: Mapping[str, Any], events: list[Event]
    ) -> None:
        if chunk:
            events.append(make_event("draw", seat, tuple(chunk), len(chunk), data, _ONLY[seat]))
            chunk.clear()

    def _creeper(self, seat: int, events: list[Event]) -> None:
        """D-36: reveal the Creeper, then 3 silent bonus cards that trigger nothing."""
        self.revealed[seat] += 1
        self.public_known[seat].append(CREEPER_CARD)
        events.append(_CREEPER_EVENTS[seat])
        hand = self.hands[seat]
        left = 3
        while left:  # in runs to the end of the pile, as in _take
            pile = self.draw_pile
            if not pile:
                if not self._reshuffle(events):
                    break
                pile = self.draw_pile
            bonus = pile[-left:]
            del pile[-left:]
            bonus.reverse()
            hand += bonus
            hand.sort(key=_card_index)
            events.append(make_event("bonus", seat, tuple(bonus), len(bonus), {}, _ONLY[seat]))
            left -= len(bonus)

    def _penalty(self, seat: int, count: int, reason: str, events: list[Event]) -> None:
        key = (seat, count, reason)
        event = _PENALTY_EVENTS.get(key)
        if event is None:
            event = _PENALTY_EVENTS[key] = make_event(
                "penalty", seat, count=count, data=_reason(reason)
            )
        events.append(event)
        self._take(seat, count, reason, events)

    # -- what a seat may do ----------------------------------------------------------

    def actors(self) -> tuple[int, ...]:
        if self.winners:
            return ()
        exposed = self.exposed
        if exposed is None:
            return _SINGLE_SEATS[self.current] if self.current is not None else ()
        return tuple(range(self.players))  # the exposed seat calls, the others catch

    def legal_actions(self, seat: int) -> list[Action]:
        acts: list[Action] = []
        if seat == self.current:  # (None once the hand or the match is over)
            pending = self.pending
            if pending is None:  # an ordinary turn (inlined: the hottest case)
                hand = self.hands[seat]
                # (a bool would index the table through a slower, generic path)
                table = _TURN_PLAYS_TWO if len(hand) == 2 else _TURN_PLAYS
                plays = table[self.discard[-1].index][self.color]
                previous = None
                for card in hand:
                    found = plays[card.index]  # None: the card does not match
                    if found is not None and card is not previous:
                        previous = card  # a hand is sorted: equal cards sit together
                        acts += found
                if not self.bluff_allowed and WD4 in hand and self._holds_color(hand):
                    acts = [a for a in acts if a.card is not WD4]
                if self.draw_pile or len(self.discard) > 1:
                    acts.append(DRAW)
                elif not acts:
                    acts.append(PASS)
            elif pending == PENDING_DRAWN:
                drawn = self.drawn
                assert drawn is not None
                hand = self.hands[seat]
                if MATCH[self.discard[-1].index][self.color][drawn.index] and (
                    drawn is not WD4 or self.bluff_allowed or not self._holds_color(hand)
                ):
                    acts += PLAYS[drawn.index]
                    if len(hand) == 2:
                        acts += PLAYS_UNO[drawn.index]
                acts.append(KEEP)
            elif pending == PENDING_CHALLENGE:
                if self.stack_mode:
                    acts += self._stack_plays(seat)
                acts += (CHALLENGE, ACCEPT)
            elif pending == PENDING_STACK:
                acts += self._stack_plays(seat)
                acts.append(ACCEPT)
            elif pending == PENDING_SWAP:
                n = self.players
                acts += (_SEVEN_O.get(n) or _seven_o(n)).choices[seat]
            else:
                acts += COLOR_CHOICES
        elif self.winners:
            return acts
        exposed = self.exposed
        if exposed is not None and 0 <= seat < self.players:
            acts.append(UNO_CALL if seat == exposed else CATCH[exposed])
        return acts

    def _stack_plays(self, seat: int) -> list[Action]:
        """H-1: the victim's stacking plays on the pending Draw Two or Wild Draw Four."""
        hand = self.hands[seat]
        # the stackable cards held, by hashing the hand once (``card in hand`` for each
        # would compare it with the held cards one by one, a rich comparison each)
        which = 0 if self.discard[-1] is WD4 else self.stack_mode
        held = _STACKABLE_SETS[which].intersection(hand)
        if not held:  # (about half the time)
            return []
        plays = _STACK_PLAYS_UNO if len(hand) == 2 else _STACK_PLAYS
        if len(held) == 1:
            (card,) = held
            return list(plays[card])
        acts: list[Action] = []
        for card in sorted(held, key=_card_index):  # in hand order
            acts += plays[card]
        return acts

    def _stack_refusal(self, card: UnoCard) -> str | None:
        """Why ``card`` may not be stacked on the pending draw now (None: it may)."""
        on_wd4 = self.discard[-1] is WD4
        if card is WD4 and (on_wd4 or self.stack_mode == 2):
            return None
        if card.effect == DRAW_TWO and not on_wd4:
            return None
        accept = f"or accept the {self.draw_count} cards"
        if on_wd4:
            if card.effect == DRAW_TWO:
                return f"a Draw Two never goes on a Wild Draw Four: stack a Wild Draw Four {accept}"
            return f"you can only stack a Wild Draw Four here, {accept}"
        if card is WD4:
            return (
                "stacking is same-card only at this table: a Wild Draw Four does not go on "
                f"a Draw Two; stack a Draw Two {accept}"
            )
        if self.stack_mode == 2:
            return f"you can only stack a Draw Two or a Wild Draw Four here, {accept}"
        return f"you can only stack a Draw Two here, {accept}"

    def _answer_words(self) -> str:
        """What the victim of a pending draw may do, in words."""
        count = self.draw_count
        top = self.discard[-1]
        if self.pending == PENDING_CHALLENGE:
            stack = ", stack a Wild Draw Four" if self.stack_mode else ""
            return (
                f"a Wild Draw Four was played on you: challenge it{stack} "
                f"or accept the {count} cards"
            )
        if top is WD4:
            cards = "a Wild Draw Four"
        else:
            cards = "a Draw Two or a Wild Draw Four" if self.stack_mode == 2 else "a Draw Two"
        return f"{count} cards are aimed at you: stack {cards}, or accept them"

    def _holds_color(self, hand: list[UnoCard]) -> bool:
        return not _COLOURED[self.color].isdisjoint(hand)

    def _playable(self, card: UnoCard, hand: list[UnoCard]) -> bool:
        if not MATCH[self.discard[-1].index][self.color][card.index]:
            return False
        return card is not WD4 or self.bluff_allowed or not self._holds_color(hand)

    # -- applying an action ------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        # the hot path, an action by the seat to move, skips Match.apply's checks: a seat
        # equal to the turn is on the table, and the hand is in play (current is None
        # between hands and once the match is over; the handlers check the rest); plays,
        # draws, keeps and the house rules' accepts and swaps go straight to their handlers
        if type(action) is Action and seat.__class__ is int and seat == self.current:
            kind = action.kind
            if kind == "play":
                events = self._play(seat, action)
            elif kind == "draw":
                events = self._draw_run(seat) if self.draw_to_match else self._draw(seat)
            elif kind == "keep":
                events = self._keep(seat)
            elif kind == "accept" and self.pending == PENDING_STACK:
                events = self._accept_draw(seat)
            elif kind == "swap":
                events = self._swap(seat, action)
            else:
                events = self._apply(seat, action)
            self.history.append((seat, action))
            self.log.extend(events)
            return events
        return super().apply(seat, action)

    def _apply(self, seat: int, action: Action) -> list[Event]:
        kind = action.kind
        if kind == "play":
            return self._play(seat, action)
        if kind == "swap":
            return self._swap(seat, action)
        if kind == "draw":
            return self._draw(seat)
        if kind == "uno":
            return self._late_call(seat)
        if kind == "catch":
            return self._catch(seat, action)
        if kind == "keep":
            return self._keep(seat)
        if kind in ("challenge", "accept"):
            if self.pending == PENDING_STACK and seat == self.current:
                if kind == "accept":
                    return self._accept_draw(seat)
                what = "a stacked Wild Draw Four" if self.discard[-1] is WD4 else "a Draw Two"
                raise IllegalAction(f"{what} cannot be challenged; " + self._answer_words())
            if kind == "accept" and self.stack_mode and seat == self.current and not self.pending:
                raise IllegalAction("there is nothing to accept: no draw is aimed at you")
            return self._answer(seat, kind == "challenge")
        if kind == "color":
            return self._choose_color(seat, action)
        if kind == "pass":
            return self._pass(seat)
        raise IllegalAction(f"{action} is not an action in UNO")

    def _check_turn(self, seat: int, pending: str | None) -> None:
        turn = self.current
        if seat != turn:
            if turn is None:
                raise IllegalAction("nobody is to play a card right now")
            raise IllegalAction(f"it is seat {turn}'s turn, not seat {seat}'s")
        current = self.pending
        if current == pending:
            return
        if current == PENDING_CHALLENGE:
            if self.stack_mode:
                raise IllegalAction(self._answer_words())
            raise IllegalAction("a Wild Draw Four was played on you: challenge or accept it")
        if current == PENDING_STACK:
            raise IllegalAction(self._answer_words())
        if current == PENDING_SWAP:
            raise IllegalAction("choose a player to swap hands with first (swap:N)")
        if current == PENDING_COLOR:
            top = self.discard[-1].name
            raise IllegalAction(f"first choose the colour of the {top} on the pile (color:R)")
        if current == PENDING_DRAWN:
            raise IllegalAction("you drew this turn: play the drawn card or keep it")
        if pending == PENDING_DRAWN:
            raise IllegalAction("you have not drawn a card this turn")
        if pending == PENDING_CHALLENGE:
            raise IllegalAction("there is no Wild Draw Four to answer")
        if pending == PENDING_SWAP:
            if not self.seven_o:
                raise IllegalAction("there is no swapping hands at this table (Seven-O is off)")
            raise IllegalAction("you may swap hands only right after playing a 7")
        raise IllegalAction(
            "there is no colour to choose now: a wild names its colour as you play it (W>G)"
        )

    def _play(self, seat: int, action: Action) -> list[Event]:
        card = action.card
        # every UnoCard is a card of the game but the Creeper in classic UNO
        if card.__class__ is not UnoCard or (card is CREEPER_CARD and card not in self.CARDS):
            raise IllegalAction(f"{card!s} is not a card of {self.spec.name}")
        turn = self.current
        stacked = 0  # H-1: the pending draw this play stacks on
        if seat != turn or self.pending is not None:
            pending = self.pending
            if pending == PENDING_DRAWN and seat == turn:
                if card is not self.drawn:
                    raise IllegalAction("you drew this turn: you may only play the drawn card")
            elif seat == turn and self.stack_mode and pending in (PENDING_STACK, PENDING_CHALLENGE):
                stacked = self.draw_count
            else:
                self._check_turn(seat, None)
        hand = self.hands[seat]
        try:
            position = hand.index(card)
        except ValueError:
            raise IllegalAction(f"you do not hold {card}") from None
        if stacked:
            refusal = self._stack_refusal(card)
            if refusal is not None:
                raise IllegalAction(refusal)
        top = self.discard[-1]
        color = self.color
        if not MATCH[top.index][color][card.index]:
            raise IllegalAction(
                f"{card} does not match the {top} on the pile "
                f"(active colour {COLOR_NAMES[COLORS[color]]})"
            )
        choice = action.choice
        if card.is_wild:
            if choice not in COLOR_INDEX:
                raise IllegalAction(f"say which colour the {card.name} makes: {card}>R, {card}>G")
        elif choice is not None:
            raise IllegalAction(f"only a wild card names a colour: play {card}, not {action}")
        if card is WD4 and not self.bluff_allowed and not stacked and self._holds_color(hand):
            raise IllegalAction(
                f"Wild Draw Four is a bluff here: you hold a {COLOR_NAMES[COLORS[color]]} card"
            )
        uno = action.uno
        if uno and len(hand) != 2:
            raise IllegalAction("call UNO only with the play that leaves you one card")

        # -- carry it out (nothing above changed anything) --
        self.exposed = None
        self.pending = None
        self.drawn = None
        self.passes = 0
        del hand[position]
        self.discard.append(card)
        if stacked:  # the pending draw grows and moves on; no challenge is left to answer
            self.draw_count = 0
            self.wd4_player = None
            self.wd4_hand = ()
        if self.private_known[seat]:  # those who know cards of this hand forget it (_settle)
            unseen = self.unseen
            if unseen is None:
                unseen = self.unseen = [None] * self.players
            played = unseen[seat]
            if played is None:
                unseen[seat] = _Unseen([card])
            else:
                played.cards.append(card)
        known = self.public_known[seat]
        if known and card in known:
            known.remove(card)
        if choice is None:  # not a wild (checked above)
            new_color = card.color_index
            slot = card.index * 10 + uno
        else:
            new_color = COLOR_INDEX[choice]
            slot = card.index * 10 + new_color * 2 + 2 + uno
        event = _PLAY_EVENTS[seat][slot]
        if event is None:
            data = {"color": COLORS[new_color], "uno": uno, "action": str(action)}
            event = make_event("play", seat, (card,), 1, MappingProxyType(data))
            _PLAY_EVENTS[seat][slot] = event
        events = [event]
        self.color = new_color
        n = self.players
        step = self.direction
        effect = card.effect
        if not hand:
            if effect == DRAW_TWO or card is WD4:
                self._penalty(
                    (seat + step) % n,
                    (2 if effect == DRAW_TWO else 4) + stacked,
                    "stack" if stacked else "draw_two" if effect == DRAW_TWO else "wild_draw_four",
                    events,
                )
            self._end_hand(seat, False, events)
            return events
        if uno:
            events.append(_UNO_EVENTS[seat])
        elif len(hand) == 1 and not (self.seven_o and card in _ZEROS):
            self.exposed = seat  # (a Seven-O 0 passes the hands on at once: nobody is exposed)
            events.append(_EXPOSED_EVENTS[seat])
        if effect == 0 or (card.is_wild and card is not WD4):
            if self.seven_o and card in _SEVENS_AND_ZEROS:
                if card not in _ZEROS:  # a 7, H-2: the same turn goes on with the choice of a seat
                    self.pending = PENDING_SWAP
                    return events
                self._pass_hands(seat, events)
            self.current = (seat + step) % n
        elif effect == SKIP:
            victim = (seat + step) % n
            events.append(_SKIP_EVENTS[victim])
            self.current = (victim + step) % n
        elif effect == REVERSE:
            step = self.direction = -step
            events.append(_REVERSE_EVENTS[step][seat])
            self.current = (seat + (2 * step if n == 2 else step)) % n
        elif effect == DRAW_TWO:
            victim = (seat + step) % n
            if self.stack_mode:  # H-1: pending until the victim answers
                self._pending_draw(seat, victim, stacked + 2, events)
                return events
            self._penalty(victim, 2, "draw_two", events)
            events.append(_SKIP_EVENTS[victim])
            self.current = (victim + step) % n
        else:  # Wild Draw Four
            victim = (seat + step) % n
            if stacked:  # H-1: a stacked Wild Draw Four is never challenged
                self._pending_draw(seat, victim, stacked + 4, events)
            elif self.bluff_allowed:
                self.wd4_player = seat
                self.wd4_color = color
                self.wd4_guilty = not _COLOURED[color].isdisjoint(hand)
                self.wd4_hand = tuple(hand)
                self.pending = PENDING_CHALLENGE
                self.current = victim
                self.draw_count = 4
                self.draw_by = seat
                if self.stack_mode:
                    events.append(self._pending_event(seat, victim, 4))
            elif self.stack_mode:
                self._pending_draw(seat, victim, 4, events)
            else:
                self._penalty(victim, 4, "wild_draw_four", events)
                events.append(_SKIP_EVENTS[victim])
                self.current = (victim + step) % n
        return events

    def _settle(self) -> None:
        """Bring private_known up to date: each observer's list forgets the cards the hand
        played since it was made (``unseen``); a list left empty goes."""
        unseen = self.unseen
        if unseen is None:
            return
        self.unseen = None
        for holder, played in enumerate(unseen):
            if played is not None:
                private = self.private_known[holder]
                for observer, seen in list(private.items()):
                    kept = list(seen)
                    for card in played.cards[played.since.get(observer, 0) :]:
                        if card in kept:
                            kept.remove(card)
                    if kept:
                        private[observer] = kept
                    else:
                        del private[observer]

    def _draw(self, seat: int) -> list[Event]:
        if self.draw_to_match:
            return self._draw_run(seat)
        if seat != self.current or self.pending is not None:
            self._check_turn(seat, None)
        if not self.draw_pile and len(self.discard) <= 1:
            self._refuse_draw(seat)
        events: list[Event] = []
        self.exposed = None
        hand = self.hands[seat]
        pile = self.draw_pile
        if pile:
            card = pile.pop()
            self.passes = 0
            insort(hand, card, key=_card_index)
            if card is CREEPER_CARD:
                events.append(make_event("draw", seat, (card,), 1, _TURN_DRAW, _ONLY[seat]))
                self._creeper(seat, events)
            else:
                event = _DRAW_EVENTS[seat][card.index]
                if event is None:
                    event = make_event("draw", seat, (card,), 1, _TURN_DRAW, _ONLY[seat])
                    _DRAW_EVENTS[seat][card.index] = event
                events.append(event)
        else:
            card = self._take(seat, 1, "turn", events)[0]
        # Always a decision, even when the card cannot be played: ending the turn at once
        # would tell everyone whether the drawn card was playable.
        self.pending = PENDING_DRAWN
        self.drawn = card
        return events

    def _refuse_draw(self, seat: int) -> None:
        if self._can_play(seat):
            raise IllegalAction("there is nothing to draw: play a matching card")
        raise IllegalAction("there is nothing to draw: pass")

    def _draw_to_match(self, seat: int) -> list[Event]:
        """H-3: one action drawing card after card until one may be played (or none is
        left). The cards are the drawer's alone; ``draw_to_match`` tells everyone how many.
        Card by card, each checked as it comes (the usual runs go at once: _draw_run)."""
        events: list[Event] = []
        self.exposed = None
        hand = self.hands[seat]
        chunk: list[UnoCard] = []
        data = _reason("match")
        drawn = 0
        card: UnoCard | None = None
        bonus_before = len(hand)
        matches = MATCH[self.discard[-1].index][self.color]  # (a reshuffle keeps the top)
        while True:
            if not self.draw_pile:
                self._flush(seat, chunk, data, events)
                if not self._reshuffle(events):
                    break  # nothing left: the last card drawn can only be kept
            card = self.draw_pile.pop()
            drawn += 1
            insort(hand, card, key=_card_index)
            chunk.append(card)
            if card is CREEPER_CARD:  # playable: it ends the run (its bonus cards are not checked)
                self._flush(seat, chunk, data, events)
                self._creeper(seat, events)
                break
            if matches[card.index] and (
                card is not WD4 or self.bluff_allowed or not self._holds_color(hand)
            ):
                break
        self._flush(seat, chunk, data, events)
        self.passes = 0
        bonus = len(hand) - bonus_before - drawn
        events.append(
            _RUN_EVENTS[seat].get(drawn * 4 + bonus) or self._run_event(seat, drawn, bonus)
        )
        self.pending = PENDING_DRAWN
        self.drawn = card
        return events

    def _draw_run(self, seat: int) -> list[Event]:
        """H-3 as _draw_to_match, at once where the pile holds the run: the cards down to
        the first one that may be played are taken together, with the same cards, events
        and state as drawing them one by one. Card by card (_draw_to_match) where the pile
        runs out first, a Creeper ends the run (its bonus cards follow), or it ends on a
        Wild Draw Four that may not be played (§3.7: that depends on the cards drawn)."""
        if seat != self.current or self.pending is not None:
            self._check_turn(seat, None)
        pile = self.draw_pile
        if not pile and len(self.discard) <= 1:
            self._refuse_draw(seat)
        matches = MATCH[self.discard[-1].index][self.color]
        at = len(pile) - 1
        while at >= 0 and not matches[pile[at].index]:  # from the top: the first that matches
            at -= 1
        if at < 0:
            return self._draw_to_match(seat)
        card = pile[at]
        if card is CREEPER_CARD or (card is WD4 and not self.bluff_allowed):
            return self._draw_to_match(seat)
        self.exposed = None
        self.passes = 0
        self.pending = PENDING_DRAWN
        self.drawn = card
        hand = self.hands[seat]
        count = len(pile) - at
        if count == 1:  # the usual run
            pile.pop()
            insort(hand, card, key=_card_index)
            event = _MATCH_DRAW_EVENTS[seat][card.index] or self._run_draw_event(seat, card)
            return [event, _RUN_EVENTS[seat][4]]
        taken = pile[at:]
        del pile[at:]
        taken.reverse()  # the top card first, as drawn
        hand += taken
        hand.sort(key=_card_index)  # (stable: as if each were inserted in turn)
        return [
            make_event("draw", seat, tuple(taken), count, _MATCH_DRAW, _ONLY[seat]),
            _RUN_EVENTS[seat].get(count * 4) or self._run_event(seat, count, 0),
        ]

    def _run_draw_event(self, seat: int, card: UnoCard) -> Event:
        """H-3: the draw of one card in a run, made once per seat and card (the callers
        look in _MATCH_DRAW_EVENTS first)."""
        event = make_event("draw", seat, (card,), 1, _MATCH_DRAW, _ONLY[seat])
        _MATCH_DRAW_EVENTS[seat][card.index] = event
        return event

    def _run_event(self, seat: int, drawn: int, bonus: int) -> Event:
        """H-3: the public ``draw_to_match`` event, made once per seat, count and bonus
        (the callers look in _RUN_EVENTS first, at ``drawn * 4 + bonus``: a bonus is one
        Creeper's cards, at most 3)."""
        data = MappingProxyType({"bonus": bonus})
        event = _RUN_EVENTS[seat][drawn * 4 + bonus] = make_event(
            "draw_to_match", seat, count=drawn, data=data
        )
        return event

    def _can_play(self, seat: int) -> bool:
        hand = self.hands[seat]
        return any(self._playable(card, hand) for card in hand)

    def _keep(self, seat: int) -> list[Event]:
        if seat != self.current or self.pending != PENDING_DRAWN:
            self._check_turn(seat, PENDING_DRAWN)
        self.exposed = None
        self.pending = None
        self.drawn = None
        self.current = (seat + self.direction) % self.players
        return [_KEEP_EVENTS[seat]]

    def _pass(self, seat: int) -> list[Event]:
        self._check_turn(seat, None)
        if self.draw_pile or len(self.discard) > 1:
            instead = "play or draw a card" if self._can_play(seat) else "draw a card"
            raise IllegalAction(f"you may pass only when there is nothing to draw: {instead}")
        if self._can_play(seat):
            raise IllegalAction("you hold a matching card: you must play it")
        events = [make_event("pass", seat)]
        self.exposed = None
        self.passes += 1
        if self.passes >= self.players:
            self._end_blocked(seat, events)
        else:
            self.current = (seat + self.direction) % self.players
        return events

    def _answer(self, seat: int, challenge: bool) -> list[Event]:
        """D-33: the Wild Draw Four victim challenges or accepts."""
        self._check_turn(seat, PENDING_CHALLENGE)
        events: list[Event] = []
        self.exposed = None
        self.pending = None
        offender = self.wd4_player
        assert offender is not None
        step = self.direction
        n = self.players
        if not challenge:
            events.append(make_event("accept", seat, data={"target": offender}))
            self._penalty(seat, 4, "wild_draw_four", events)
            events.append(_SKIP_EVENTS[seat])
            self.current = (seat + step) % n
        else:
            guilty = self.wd4_guilty
            events.append(
                make_event("challenge", seat, data={"target": offender, "guilty": guilty})
            )
            shown = self.wd4_hand
            events.append(make_event("reveal", offender, shown, len(shown), {}, _ONLY[seat]))
            self.private_known[offender][seat] = shown
            played = None if self.unseen is None else self.unseen[offender]
            if played is not None:  # it forgets only what the hand plays from now on
                played.since[seat] = len(played.cards)
            if guilty:
                self._penalty(offender, 4, "challenge", events)
                self.current = seat
            else:
                self._penalty(seat, 6, "challenge", events)
                events.append(_SKIP_EVENTS[seat])
                self.current = (seat + step) % n
        self.wd4_player = None
        self.wd4_hand = ()
        self.draw_count = 0
        self.draw_by = None
        return events

    # -- house rules: stacking (H-1) and Seven-O (H-2) -------------------------------------

    def _pending_event(self, by: int | None, victim: int, count: int) -> Event:
        key = (by, victim, count)
        event = _PENDING_DRAW_EVENTS.get(key)
        if event is None:
            data = MappingProxyType({"by": by})
            event = _PENDING_DRAW_EVENTS[key] = make_event(
                "pending_draw", victim, count=count, data=data
            )
        return event

    def _pending_draw(self, by: int | None, victim: int, count: int, events: list[Event]) -> None:
        """H-1: ``count`` cards aimed at ``victim``, who must accept or stack."""
        self.pending = PENDING_STACK
        self.draw_count = count
        self.draw_by = by
        self.current = victim
        events.append(self._pending_event(by, victim, count))

    def _accept_draw(self, seat: int) -> list[Event]:
        """H-1: the victim draws the whole pending count and is skipped."""
        count = self.draw_count
        top = self.discard[-1]
        key = (seat, count, self.draw_by)
        event = _ACCEPT_EVENTS.get(key)
        if event is None:
            data = MappingProxyType({"target": self.draw_by})
            event = _ACCEPT_EVENTS[key] = make_event("accept", seat, count=count, data=data)
        events = [event]
        self.exposed = None
        self.pending = None
        self.draw_count = 0
        self.draw_by = None
        if top is WD4:
            reason = "wild_draw_four" if count == 4 else "stack"
        else:
            reason = "draw_two" if count == 2 else "stack"
        self._penalty(seat, count, reason, events)
        events.append(_SKIP_EVENTS[seat])
        self.current = (seat + self.direction) % self.players
        return events

    def _swap(self, seat: int, action: Action) -> list[Event]:
        """H-2: after a 7, swap hands with the chosen seat."""
        if seat != self.current or self.pending != PENDING_SWAP:
            self._check_turn(seat, PENDING_SWAP)
        target = action.target
        n = self.players
        if target is None or not 0 <= target < n:
            raise IllegalAction(f"there is no seat {target} at this table of {n}")
        if target == seat:
            raise IllegalAction("you cannot swap hands with yourself: choose another player")
        event = _SWAP_EVENTS[seat][target]
        if event is None:
            event = _SWAP_EVENTS[seat][target] = make_event("swap", seat, data=_TARGETS[target])
        events = [event]
        # in place: what is kept per seat changes seats with the hand
        hands, public, private = self.hands, self.public_known, self.private_known
        hands[seat], hands[target] = hands[target], hands[seat]
        public[seat], public[target] = public[target], public[seat]
        private[seat], private[target] = private[target], private[seat]
        unseen = self.unseen
        if unseen is not None:
            unseen[seat], unseen[target] = unseen[target], unseen[seat]
        tables = _SEVEN_O.get(n) or _seven_o(n)
        self._hands_moved(tables.swap_gifts[seat][target], events)
        self.hand_moves.append(tables.swap_seats[seat][target])
        self.pending = None
        self.current = (seat + self.direction) % n
        return events

    def _pass_hands(self, seat: int, events: list[Event]) -> None:
        """H-2: after a 0, every hand goes to the next seat in the direction of play."""
        step = self.direction
        events.append(_PASS_EVENTS[step][seat])
        # in place: what is kept per seat moves one seat on with the hand
        kept: list[list[Any]] = [self.hands, self.public_known, self.private_known]
        if self.unseen is not None:
            kept.append(self.unseen)
        for table in kept:
            if step == 1:
                table.insert(0, table.pop())
            else:
                table.append(table.pop(0))
        tables = _SEVEN_O.get(self.players) or _seven_o(self.players)
        self._hands_moved(tables.pass_gifts[step], events)
        self.hand_moves.append(tables.pass_seats[step])

    def _hands_moved(self, gifts: tuple[tuple[int, int], ...], events: list[Event]) -> None:
        """After the hands changed seats, each (giver, receiver) in ``gifts``: the giver
        knows the whole hand it gave, the receiver sees it (§4.2); what others knew of a
        hand moved along with it. Nobody is exposed afterwards."""
        hands = self.hands
        private = self.private_known
        unseen = self.unseen
        for giver, receiver in gifts:
            seen_by = private[receiver]  # observer -> what it knows of this hand
            if receiver in seen_by:
                del seen_by[receiver]  # (nobody "knows" its own cards)
            given = tuple(hands[receiver])
            seen_by[giver] = given
            if unseen is not None:
                played = unseen[receiver]
                if played is not None:  # the giver forgets only what is played from now
                    played.since[giver] = len(played.cards)
            events.append(
                make_event("received", receiver, given, len(given), _FROM[giver], _ONLY[receiver])
            )
        self.exposed = None

    def _choose_color(self, seat: int, action: Action) -> list[Event]:
        self._check_turn(seat, PENDING_COLOR)
        choice = action.choice
        if choice not in COLOR_INDEX:
            raise IllegalAction(f"choose one of the colours {', '.join(COLORS)}")
        self.color = COLOR_INDEX[choice]
        self.pending = None
        return [make_event("color", seat, data={"color": choice})]

    def _late_call(self, seat: int) -> list[Event]:
        if self.exposed != seat:
            raise IllegalAction("you have nothing to call UNO for now")
        self.exposed = None
        return [_LATE_UNO_EVENTS[seat]]

    def _catch(self, seat: int, action: Action) -> list[Event]:
        target = action.target
        exposed = self.exposed
        if target not in range(self.players):
            raise IllegalAction(f"there is no seat {target} at this table of {self.players}")
        if exposed is None or target != exposed:
            raise IllegalAction(f"seat {target} cannot be caught now")
        if seat == exposed:
            raise IllegalAction("you cannot catch yourself: call uno instead")
        self.exposed = None
        events = [make_event("catch", seat, data={"target": exposed})]
        if len(self.hands[exposed]) == 1:
            self._penalty(exposed, 2, "catch", events)
        return events

    # -- the end of a hand and of the match ------------------------------------------------

    def _end_blocked(self, last: int, events: list[Event]) -> None:
        """§3.8: lowest hand value wins; ties to the first in turn order from the next."""
        n = self.players
        step = self.direction
        best: int | None = None
        best_value = 0
        for i in range(1, n + 1):
            seat = (last + i * step) % n
            value = _hand_value(self.hands[seat])
            if best is None or value < best_value:
                best, best_value = seat, value
        assert best is not None
        self._end_hand(best, True, events)

    def _end_hand(self, winner: int, blocked: bool, events: list[Event]) -> None:
        values = [_hand_value(h) for h in self.hands]
        values[winner] = 0  # scored as if they had gone out
        if self.running_scores:
            points = values
        else:
            points = [0] * self.players
            points[winner] = sum(values)
        for seat, p in enumerate(points):
            self.scores[seat] += p
        totals = tuple(self.scores)
        result = HandResult(
            self.hand_number,
            tuple(points),
            totals,
            MappingProxyType({"winner": winner, "blocked": blocked}),
        )
        self.hand_results.append(result)
        events.append(
            make_event(
                "hand_end",
                winner,
                data={
                    "hand": self.hand_number,
                    "points": tuple(points),
                    "totals": totals,
                    "winner": winner,
                    "blocked": blocked,
                    # scoring counts the cards left in every hand: they are shown (§3.9)
                    "hands": tuple(tuple(hand) for hand in self.hands),
                },
            )
        )
        self.exposed = None
        self.pending = None
        self.drawn = None
        self.draw_count = 0
        if max(totals) >= self.target:
            if self.running_scores:
                low = min(totals)
                self.winners = tuple(s for s, t in enumerate(totals) if t == low)
            else:
                self.winners = (winner,)
            self.current = None
            events.append(make_event("match_end", data={"winners": self.winners, "totals": totals}))
            return
        self.current = None  # the table stays as it ended until next_hand() deals again
        self._hand_over = True

    def _deal_next(self, deal: dict[str, Any] | None) -> list[Event]:
        events: list[Event] = []
        self.dealer = (self.dealer + 1) % self.players
        if deal is None:
            self._start_hand(events)
        else:
            deal.setdefault("dealer", self.dealer)
            self._start_explicit_hand(deal, events)
        return events

    # -- views and copies ---------------------------------------------------------------

    def view(self, seat: int | None) -> UnoView:
        n = self.players
        check_viewer(seat, n)
        if self.unseen is not None:
            self._settle()
        known: list[tuple[UnoCard, ...]] = []
        for holder in range(n):
            public = self.public_known[holder]  # revealed Creepers still held: everyone's
            private = None if seat is None else self.private_known[holder].get(seat)
            if holder == seat or not private:
                known.append(tuple(public))
            else:
                merged = list(private)
                extra = public.count(CREEPER_CARD) - merged.count(CREEPER_CARD)
                merged += [CREEPER_CARD] * max(0, extra)
                known.append(tuple(sorted(merged, key=_card_index)))
        pending = self.pending if seat == self.current else None
        phase = "over" if self.winners else "hand_over" if self._hand_over else "play"
        return UnoView(
            game=self.game_id,
            seat=seat,
            players=n,
            phase=phase,
            current=self.current,
            hand=_NO_CARDS if seat is None else tuple(self.hands[seat]),
            hand_sizes=tuple(len(h) for h in self.hands),
            dealer=self.dealer,
            scores=tuple(self.scores),
            hand_number=self.hand_number,
            legal=() if seat is None else tuple(self.legal_actions(seat)),
            options=self.options,
            top=self.discard[-1],
            active_color=None if self.pending == PENDING_COLOR else COLORS[self.color],
            direction=self.direction,
            draw_pile_size=len(self.draw_pile),
            discard=tuple(self.discard),
            pending=self.pending,
            drawn=self.drawn if pending == PENDING_DRAWN else None,
            exposed=self.exposed,
            revealed=tuple(self.revealed),
            known=tuple(known),
            challenge_color=(COLORS[self.wd4_color] if self.pending == PENDING_CHALLENGE else None),
            passes=self.passes,
            last_hand=self.last_hand,
            pending_draw=self.draw_count,
            pending_draw_target=self.current if self.draw_count else None,
            hand_moves=tuple(self.hand_moves),
            known_to_all=tuple(map(tuple, self.public_known)),
        )

    def _own_rng(self) -> random.Random:
        """The rng to draw from, made this match's own first if a clone shares it."""
        if self._rng_shared:
            rng = random.Random.__new__(random.Random)  # skip seeding from the OS
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self._rng_shared = False
        return self.rng

    def clone(self) -> UnoMatch:
        if self.unseen is not None:
            self._settle()
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.bluff_allowed = self.bluff_allowed
        twin.running_scores = self.running_scores
        twin.target = self.target
        twin.dealer = self.dealer
        twin.color = self.color
        twin.direction = self.direction
        twin.current = self.current
        twin.pending = self.pending
        twin.drawn = self.drawn
        twin.exposed = self.exposed
        twin.passes = self.passes
        twin.wd4_player = self.wd4_player
        twin.wd4_color = self.wd4_color
        twin.wd4_guilty = self.wd4_guilty
        twin.wd4_hand = self.wd4_hand
        twin.stack_mode = self.stack_mode
        twin.seven_o = self.seven_o
        twin.draw_to_match = self.draw_to_match
        twin.draw_count = self.draw_count
        twin.draw_by = self.draw_by
        twin.hand_moves = list(self.hand_moves)
        # copying a Random costs more than the rest of a clone, and most playouts never
        # draw from it: both share it until either draws (copy on use, _own_rng)
        self._rng_shared = twin._rng_shared = True
        twin.scores = list(self.scores)
        twin.hand_results = list(self.hand_results)
        twin.history = list(self.history)
        twin.log = list(self.log)
        twin.hands = [list(h) for h in self.hands]
        twin.draw_pile = list(self.draw_pile)
        twin.discard = list(self.discard)
        twin.revealed = list(self.revealed)
        twin.public_known = [list(k) for k in self.public_known]
        twin.private_known = [
            {o: v[:] for o, v in seen.items()} if seen else {} for seen in self.private_known
        ]
        twin.unseen = None
        twin.out_of_play = list(self.out_of_play)
        return twin

    # -- for tests and tools ----------------------------------------------------------------

    def zones(self) -> list[UnoCard]:
        """Every card of the hand in play, wherever it is (hands, piles, set aside)."""
        cards = [c for h in self.hands for c in h]
        return cards + self.draw_pile + self.discard + self.out_of_play

    def state_key(self) -> tuple[Any, ...]:
        """A snapshot of the whole state, for 'nothing changed' checks."""
        if self.unseen is not None:
            self._settle()
        return (
            tuple(tuple(h) for h in self.hands),
            tuple(self.draw_pile),
            tuple(self.discard),
            self.color,
            self.direction,
            self.current,
            self.pending,
            self.drawn,
            self.exposed,
            self.passes,
            self.wd4_player,
            self.wd4_guilty,
            tuple(self.scores),
            self.hand_number,
            self.dealer,
            self.winners,
            len(self.history),
            len(self.log),
            tuple(self.revealed),
            tuple(tuple(k) for k in self.public_known),
            tuple(
                sorted(
                    ((o, h), tuple(v))
                    for h, seen in enumerate(self.private_known)
                    for o, v in seen.items()
                )
            ),
            self.draw_count,
            self.draw_by,
            tuple(self.hand_moves),
            self.rng.getstate(),
        )


class MinecraftMatch(UnoMatch):
    """UNO Minecraft: classic plus four Creepers (112 cards)."""

    game_id: ClassVar[str] = "uno-minecraft"
    DECK: ClassVar[tuple[UnoCard, ...]] = MINECRAFT_DECK
    CARDS: ClassVar[frozenset[UnoCard]] = frozenset(_ALL_CARDS)
    WITH_CREEPERS: ClassVar[bool] = True


def _hand_value(hand: list[UnoCard]) -> int:
    return sum(card.points for card in hand)


def _colour_words_to_letters(text: str) -> str:
    """Accept 'W>green' and 'color:red' as well as 'W>G' and 'color:R'."""
    head, sep, tail = text.rpartition(">") if ">" in text else text.partition(":")
    word = tail.strip().rstrip("!").strip().lower()
    if word in _WORD_TO_COLOR:
        bang = "!" if tail.rstrip().endswith("!") else ""
        return f"{head}{sep}{_WORD_TO_COLOR[word]}{bang}"
    return text


__all__ = ["MinecraftMatch", "UnoMatch"]
