"""The card tracker's counting: what a careful player remembers of this hand, as plain data.

What goes in: the events as the viewer saw them (cards played, turned up, revealed
Creepers, cards drawn face up into trick piles, UNO calls), the public table of the view
(hand sizes, voids, points taken, the draw pile), the viewer's own hand and, in UNO, the
cards the view says the viewer knows another seat holds (``view.known``: a revealed
Creeper, a hand a challenge showed it, and with Seven-O the hand it gave away; RULES
§4.2). The events themselves are never read for hidden cards: a card drawn into someone's
hand, a card passed, a hand shown in a challenge count only as far as the view still
knows them held. So two positions the viewer cannot tell apart always give the same counts.

``track(game_id, view, events)`` returns an :class:`UnoTrack` or a :class:`HeartsTrack`;
``unotable.app.widgets.tracker`` draws it. Nothing here imports rich or textual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unotable.engine import SHEDDING, Event, get_game

# -- UNO ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ColourCount:
    letter: str
    played: int  # played or turned up this hand, reshuffled ones included
    on_pile: int  # in the discard pile now
    reshuffled: int  # went back into the draw pile with a reshuffle
    yours: int  # in the viewer's hand
    unseen: int  # not on the discard pile, not in the viewer's hand, not known in another's


@dataclass(frozen=True, slots=True)
class WildPlay:
    seat: int | None
    card: Any
    before: str | None  # the active colour it was played on
    after: str | None  # the colour it named


@dataclass(frozen=True, slots=True)
class UnoTrack:
    game: str
    colours: tuple[ColourCount, ...]
    wilds_played: tuple[tuple[str, int], ...]  # (notation, times played): W, W+4, C
    last_wild: WildPlay | None
    last_wd4: WildPlay | None
    creepers: tuple[int, ...]  # per seat: Creepers revealed this hand
    one_card: tuple[int, ...]  # seats holding one card
    called_uno: tuple[int, ...]  # of those, the ones who called UNO
    draw_pile: int | None  # None: the game's view does not show it
    reshuffles: int
    discard: tuple[Any, ...]  # the discard pile as the events rebuild it (bottom first)
    # per seat: the cards the viewer knows it holds (its own seat: none), in the engine's
    # order; they move with a hand that is swapped or passed (RULES §4.2)
    known: tuple[tuple[Any, ...], ...] = ()


# -- Hearts -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SuitCount:
    letter: str | None  # None: UNO Hearts Wild Draws, which have no suit until played
    played: tuple[Any, ...]  # seen face up this hand: played to tricks, drawn to piles
    out: tuple[Any, ...]  # not seen and not in the viewer's hand
    yours: int


@dataclass(frozen=True, slots=True)
class HeartsTrack:
    game: str
    suits: tuple[SuitCount, ...]  # the four suits, then UNO Hearts' Wild Draws
    voids: tuple[frozenset[str], ...]  # per seat, suits it has shown it lacks
    points_total: int  # penalty points in the deck
    points_taken: tuple[int, ...]  # per seat, taken this hand (face up in trick piles)
    points_out: int  # not taken yet (hands, draw pile, left-over cards)
    points_yours: int  # of those, in the viewer's hand
    danger: Any  # the 13-point card
    danger_state: str  # "taken", "trick" (in the trick now), "yours" or "out"
    danger_seat: int | None  # who took it, or played it to the trick
    draw_pile: int | None  # UNO Hearts' undealt pile
    leftovers: int  # Wild Twist: face-down cards left from the deal


Track = UnoTrack | HeartsTrack


def hand_events(events: Sequence[Event]) -> list[Event]:
    """The events of the hand in play: from its deal on (the whole list if none is seen)."""
    start = 0
    for index in range(len(events) - 1, -1, -1):
        if events[index].kind == "deal":
            start = index
            while start > 0 and events[start - 1].kind == "deal":
                start -= 1  # the Hearts games deal with one event per seat
            break
    return list(events[start:])


def track(game_id: str, view: Any, events: Sequence[Event]) -> Track:
    """The tracker's counts for ``view`` (any seat's, or a spectator's) and the log."""
    if get_game(game_id).facts.family == SHEDDING:
        return track_uno(game_id, view, events)
    return track_hearts(game_id, view, events)


def track_uno(game_id: str, view: Any, events: Sequence[Event]) -> UnoTrack:
    facts = get_game(game_id).facts
    pile: list[Any] = []
    played: Counter[str] = Counter()  # colour letter or wild notation -> count
    reshuffled: Counter[str] = Counter()
    active: str | None = None
    last_wild: WildPlay | None = None
    last_wd4: WildPlay | None = None
    creepers = [0] * view.players
    called: set[int] = set()
    reshuffles = 0

    def key(card: Any) -> str:
        # a wild counts as itself, not under the colour or suit it may also carry
        return str(card) if card.wild else str(card.color)

    for event in hand_events(events):
        kind, seat = event.kind, event.seat
        if kind == "flip" and event.cards:
            card = event.cards[0]
            pile.append(card)
            played[key(card)] += 1
            if card.color is not None:
                active = card.color
        elif kind == "flip_return" and event.cards:
            card = event.cards[0]
            if pile and pile[-1] is card:
                pile.pop()
                played[key(card)] -= 1
        elif kind == "color":
            active = event.data.get("color", active)
        elif kind == "play" and event.cards:
            card = event.cards[0]
            before, active = active, event.data.get("color", card.color)
            pile.append(card)
            played[key(card)] += 1
            if card.wild:
                last_wild = WildPlay(seat, card, before, active)
                if str(card) == "W+4":
                    last_wd4 = last_wild
            if event.data.get("uno") and seat is not None:
                called.add(seat)
        elif kind == "uno" and seat is not None:
            called.add(seat)
        elif kind in ("draw", "bonus", "penalty") and seat is not None:
            called.discard(seat)  # back above one card: an old call no longer counts
        elif kind == "reshuffle":
            reshuffles += 1
            for card in pile[:-1]:
                reshuffled[key(card)] += 1
            pile = pile[-1:]
        elif kind == "creeper" and seat is not None and 0 <= seat < len(creepers):
            creepers[seat] += 1
    plain = Counter(key(card) for card in facts.deck if not card.wild)
    on_pile = Counter(key(card) for card in pile)
    yours = Counter(key(card) for card in view.hand)
    known = known_held(view)
    elsewhere = Counter(key(card) for cards in known for card in cards)
    colours = tuple(
        ColourCount(
            letter,
            played[letter],
            on_pile[letter],
            reshuffled[letter],
            yours[letter],
            max(0, plain[letter] - on_pile[letter] - yours[letter] - elsewhere[letter]),
        )
        for letter in facts.suits
    )
    wild_kinds = tuple(str(card) for card in facts.wild_cards)
    one_card = tuple(s for s, size in enumerate(view.hand_sizes) if size == 1)
    return UnoTrack(
        game=game_id,
        colours=colours,
        wilds_played=tuple((w, played[w]) for w in wild_kinds),
        last_wild=last_wild,
        last_wd4=last_wd4,
        creepers=tuple(creepers),
        one_card=one_card,
        called_uno=tuple(s for s in one_card if s in called),
        draw_pile=getattr(view, "draw_pile_size", None),
        reshuffles=reshuffles,
        discard=tuple(pile),
        known=known,
    )


def known_held(view: Any) -> tuple[tuple[Any, ...], ...]:
    """Per seat, the cards ``view`` knows that seat holds; none for the viewer's own seat
    (its hand is counted as its own) and none where a game's view has no ``known``."""
    players = int(view.players)
    known = tuple(getattr(view, "known", ()) or ())
    if len(known) != players:
        return ((),) * players
    return tuple(() if seat == view.seat else tuple(cards) for seat, cards in enumerate(known))


def deck_of(game_id: str) -> tuple[Any, ...]:
    """Every card of a trick-taking game's deck, in the engine's order."""
    return get_game(game_id).facts.deck


def _suit_of(card: Any) -> str | None:
    """The suit letter a card counts under (an UNO Hearts Wild Draw: None)."""
    return None if card.color is None else str(card.color)


def track_hearts(game_id: str, view: Any, events: Sequence[Event]) -> HeartsTrack:
    deck = deck_of(game_id)
    seen: set[Any] = set()
    order: list[Any] = []

    def see(card: Any) -> None:
        if card not in seen:
            seen.add(card)
            order.append(card)

    for event in hand_events(events):
        if event.kind in ("play", "draw_to_pile"):
            for card in event.cards:
                see(card)
    # the view's public table holds the same cards; taken piles also keep drawn cards
    for pile in view.taken:
        for card in pile:
            see(card)
    for _seat, card, _declared in view.trick:
        see(card)
    mine = set(view.hand)
    letters: list[str | None] = []
    for card in deck:
        letter = _suit_of(card)
        if letter not in letters:
            letters.append(letter)
    suits = []
    for letter in letters:
        suits.append(
            SuitCount(
                letter,
                tuple(c for c in order if _suit_of(c) == letter),
                tuple(c for c in deck if _suit_of(c) == letter and c not in seen and c not in mine),
                sum(1 for c in view.hand if _suit_of(c) == letter),
            )
        )
    total = sum(card.points for card in deck)
    taken = tuple(int(p) for p in view.hand_points_visible)
    danger = get_game(game_id).facts.danger_card
    state, holder = "out", None
    for seat, pile in enumerate(view.taken):
        if danger in pile:
            state, holder = "taken", seat
    for seat, card, _declared in view.trick:
        if card is danger:
            state, holder = "trick", seat
    if state == "out" and danger in mine:
        state, holder = "yours", view.seat
    return HeartsTrack(
        game=game_id,
        suits=tuple(suits),
        voids=tuple(view.voids),
        points_total=total,
        points_taken=taken,
        points_out=total - sum(taken),
        points_yours=sum(card.points for card in view.hand),
        danger=danger,
        danger_state=state,
        danger_seat=holder,
        draw_pile=getattr(view, "draw_pile_size", None),
        leftovers=int(getattr(view, "leftovers_count", 0)),
    )


__all__ = [
    "ColourCount",
    "HeartsTrack",
    "SuitCount",
    "Track",
    "UnoTrack",
    "WildPlay",
    "hand_events",
    "known_held",
    "track",
]
