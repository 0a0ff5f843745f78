"""The public API every game shares: actions, events, views, options, matches.

A game is a :class:`GameSpec`; ``spec.new_match(players, options, seed)`` starts a
:class:`Match`. A match knows which seats may act now (``actors()``), each seat's
legal actions, applies an action for a seat (returning the :class:`Event` values it
caused) and gives each seat a :class:`View` holding only what that seat may know.

Cards are small immutable, interned values owned by each game (``str(card)`` is its
notation). Actions are one immutable class for all games, with one notation:

=====================  ==========================================================
``R7`` / ``QS``        play that card
``W>G`` / ``WD7>H``    play a card and declare a colour, suit or ``HIGH``/``LOW``
``R7!``                play and call UNO in the same breath
``draw`` ``keep``      draw one card; keep the card just drawn
``pass``               pass (only when nothing can be drawn, UNO §3.8)
``challenge`` ``accept``  answer a Wild Draw Four
``uno``                late UNO call by the exposed seat
``catch:2``            catch exposed seat 2
``swap:2``             swap hands with seat 2 (UNO house rule Seven-O, after a 7)
``color:G``            declare the colour of a Wild turned up as first discard
``direction:left``     the taker's pass-hand direction (``left`` or ``right``)
``give:H3,Y13,P8``     the three cards passed (UNO Hearts option)
``moon:self``          shoot-the-moon choice (``self`` or ``others``)
``decline``            decline opening with the Wild Club (Wild Twist Hearts)
=====================  ==========================================================
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, runtime_checkable

from .errors import EngineError, IllegalAction, NotationError, OptionError


@runtime_checkable
class Card(Protocol):
    """What every game's card tells a caller, so nobody guesses at attributes.

    Cards are small interned values (compare with ``is`` or ``==``); ``str(card)`` is
    ``card.text``, the notation (``R7``, ``W+4``, ``H12``, ``WD7``, ``QS``, ``WC``).
    """

    @property
    def text(self) -> str: ...  # notation, as str(card)

    @property
    def color(self) -> str | None: ...  # colour letter (UNO) or suit letter; None if none

    @property
    def rank(self) -> int | str | None: ...  # number, face ("skip", "+2") or None

    @property
    def points(self) -> int: ...  # what the card scores in its game

    @property
    def wild(self) -> bool: ...


EMPTY: Mapping[str, Any] = MappingProxyType({})

# Action kinds that carry no argument; their notation is the kind itself.
BARE_KINDS = frozenset({"draw", "keep", "pass", "challenge", "accept", "uno", "decline"})
# Action kinds a seat may take while it is not its turn (UNO late call and catch, D-35).
OUT_OF_TURN_KINDS = frozenset({"uno", "catch"})
# Action kinds written ``kind:seat`` (``catch:2``; UNO Seven-O's ``swap:2``).
TARGET_KINDS = frozenset({"catch", "swap"})
# Action kinds written ``kind:choice``.
CHOICE_KINDS = frozenset({"color", "direction", "moon"})


@dataclass(frozen=True, slots=True)
class Action:
    """One thing a seat does. Immutable, hashable, printable as notation."""

    kind: str
    card: Card | None = None
    choice: str | None = None
    target: int | None = None
    cards: tuple[Card, ...] = ()
    uno: bool = False

    def __str__(self) -> str:
        kind = self.kind
        if kind == "play":
            text = str(self.card)
            if self.choice is not None:
                text += ">" + self.choice
            return text + "!" if self.uno else text
        if kind in BARE_KINDS:
            return kind
        if kind in TARGET_KINDS:
            return f"{kind}:{self.target}"
        if kind == "give":
            return "give:" + ",".join(str(c) for c in self.cards)
        return f"{kind}:{self.choice}"

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"


def parse_action(
    text: str,
    card_from_text: Callable[[str], Card],
    choices: Mapping[str, Iterable[str]] = EMPTY,
) -> Action:
    """Parse action notation, using the game's card parser and its allowed choices.

    ``choices`` maps ``"play"`` (the declarations after ``>``) and each kind in
    CHOICE_KINDS to the words allowed for it. Raises NotationError on anything else.
    """
    if not isinstance(text, str):
        raise NotationError(f"action notation must be text, not {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise NotationError("empty action")
    lowered = raw.lower()
    if lowered in BARE_KINDS:
        return Action(lowered)
    head, sep, rest = raw.partition(":")
    head_l = head.strip().lower()
    if sep:
        rest = rest.strip()
        if head_l in TARGET_KINDS:
            if not rest.isdigit() or not rest.isascii():
                raise NotationError(f"{head_l} needs a seat number, as in {head_l}:2 (got {raw!r})")
            return Action(head_l, target=int(rest))
        if head_l == "give":
            parts = [p.strip() for p in rest.split(",")]
            if not rest or any(not p for p in parts):
                raise NotationError(f"give needs cards separated by commas (got {raw!r})")
            return Action("give", cards=tuple(card_from_text(p) for p in parts))
        if head_l in CHOICE_KINDS:
            return Action(head_l, choice=_choice(head_l, rest, choices, raw))
        raise NotationError(f"unknown action {raw!r}")
    uno = raw.endswith("!")
    if uno:
        raw = raw[:-1].rstrip()
    card_text, gt, declared = raw.partition(">")
    card = card_from_text(card_text.strip())
    choice = _choice("play", declared.strip(), choices, text) if gt else None
    return Action("play", card=card, choice=choice, uno=uno)


def _choice(kind: str, word: str, choices: Mapping[str, Iterable[str]], raw: str) -> str:
    allowed = tuple(choices.get(kind, ()))
    for option in allowed:
        if word.upper() == option.upper():
            return option
    if not allowed:
        raise NotationError(f"this game has no {kind!r} choice (got {raw!r})")
    raise NotationError(f"{word!r} is not one of {', '.join(allowed)} (in {raw!r})")


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened, for logs and screens.

    ``cards`` may be secret: when ``private_to`` is set, only those seats see them and
    everyone else gets the event with ``cards`` emptied (``count`` still says how many).
    """

    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    count: int = 0
    data: Mapping[str, Any] = field(default_factory=lambda: EMPTY)  # one shared, read-only
    private_to: frozenset[int] | None = None

    def __init__(
        self,
        kind: str,
        seat: int | None = None,
        cards: tuple[Card, ...] = (),
        count: int = 0,
        data: Mapping[str, Any] = EMPTY,
        private_to: frozenset[int] | None = None,
    ) -> None:
        # a frozen dataclass's own __init__ goes through object.__setattr__ per field;
        # the slots' setters (bound below the class) cost half as much, and events are
        # made on every trick
        _set_kind(self, kind)
        _set_seat(self, seat)
        _set_cards(self, cards)
        _set_count(self, count)
        _set_data(self, data)
        _set_private_to(self, private_to)

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator who sees no secrets)."""
        if self.private_to is None or (seat is not None and seat in self.private_to):
            return self
        return replace(self, cards=())


_set_kind, _set_seat, _set_cards, _set_count, _set_data, _set_private_to = (
    Event.__dict__[name].__set__
    for name in ("kind", "seat", "cards", "count", "data", "private_to")
)


class _EventFields:
    """An Event's slots, writable: make_event fills one in, then gives it Event's class."""

    # Event's own, in Event's order: the layouts must match for __class__ to change
    __slots__ = ("kind", "seat", "cards", "count", "data", "private_to")  # noqa: RUF023


def make_event(
    kind: str,
    seat: int | None = None,
    cards: tuple[Card, ...] = (),
    count: int = 0,
    data: Mapping[str, Any] = EMPTY,
    private_to: frozenset[int] | None = None,
) -> Event:
    """``Event(...)`` with the same arguments, for the engines' hot paths, at about a
    third of the cost: a frozen dataclass pays a setter call per field, while a twin
    with the same slots takes plain stores and then becomes an Event (an equal,
    frozen Event of exactly that class)."""
    if not _FAST_EVENTS:
        return Event(kind, seat, cards, count, data, private_to)
    fields: Any = _EventFields()
    fields.kind = kind
    fields.seat = seat
    fields.cards = cards
    fields.count = count
    fields.data = data
    fields.private_to = private_to
    fields.__class__ = Event
    return fields  # type: ignore[no-any-return]  # an Event now (typing.cast costs a call)


def _fast_events_work() -> bool:
    """Whether make_event's twin has Event's very layout (checked once, at import)."""
    global _FAST_EVENTS
    if Event.__slots__ != _EventFields.__slots__:
        return False
    _FAST_EVENTS = True
    cards: Any = ("a",)  # any tuple does for a layout check
    try:
        made = make_event("check", 1, cards, 1, {"b": 2}, frozenset({1}))
    except TypeError:  # the layouts differ after all: __class__ cannot change
        _FAST_EVENTS = False
        return False
    _FAST_EVENTS = made.__class__ is Event and made == Event(
        "check", 1, cards, 1, {"b": 2}, frozenset({1})
    )
    return _FAST_EVENTS


_FAST_EVENTS = False
_fast_events_work()


@dataclass(frozen=True, slots=True)
class View:
    """What one seat may know. Games subclass it with their public table state."""

    game: str
    seat: int | None  # None: a spectator's view (public facts only)
    players: int
    phase: str  # "play", a game's own sub-phase ("pass", "choose", ...), or "over"
    current: int | None  # whose turn it is; None while several seats act at once
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    dealer: int
    scores: tuple[int, ...]  # match totals so far
    hand_number: int  # 1-based
    legal: tuple[Action, ...]  # what this seat may do right now


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one hand (UNO round, Hearts hand or Wild Twist game)."""

    number: int
    points: tuple[int, ...]  # points each seat scored in this hand, after adjustments
    totals: tuple[int, ...]  # match totals after this hand
    # e.g. {"winner": 2}, {"moon": 1, "moon_choice": "self"}
    notes: Mapping[str, Any] = field(default_factory=lambda: EMPTY)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option of a game, as the lobby shows it."""

    name: str
    label: str
    kind: str  # "bool", "int" or "choice"
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # "" for the rulebook's options; "house" for house rules, which the lobby shows apart
    # (under "House rules (not in the rulebook)"; UNO's RULES §4)
    group: str = ""

    def check(self, value: Any) -> Any:
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise OptionError(f"option {self.name} must be true or false, not {value!r}")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name} must be a whole number, not {value!r}")
            lo, hi = self.minimum, self.maximum
            if (lo is not None and value < lo) or (hi is not None and value > hi):
                raise OptionError(f"option {self.name} must be between {lo} and {hi}")
            return value
        if value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name} must be one of {allowed}, not {value!r}")
        return value


SHEDDING = "shedding"  # first to empty their hand (UNO)
TRICK_TAKING = "trick-taking"  # tricks and penalty points (the Hearts games)
FAMILIES = (SHEDDING, TRICK_TAKING)

Play = tuple[int, Card, str | None]  # (seat, card, declared), in play order


class GameFacts:
    """What a game's rules say about its cards and its end, for callers outside a match.

    The computer players, hints, the card tracker and the screens read these instead of
    restating the rules. Everything is fixed when the game is defined: the methods are
    pure, and nothing here is on the engines' hot paths (the engines keep their own
    incremental trick state). A trick-taking game whose trick rules differ from plain
    "follow the suit led, the highest card of it wins" subclasses this and overrides
    ``lead_suit``, ``follows`` and ``trick_strength``.
    """

    def __init__(
        self,
        *,
        family: str,
        deck: Iterable[Card],
        suits: Sequence[str] = (),
        wild_values: Mapping[str, int] = EMPTY,
        moon_points: int | None = None,
        moon_option: str | None = None,
        target_option: str | None = None,
        length_option: str | None = None,
        forced_kinds: Iterable[str] = (),
    ) -> None:
        """``deck``: every card of a full deck, copies repeated, in the game's order.

        ``suits``: the colour or suit letters, in the game's order. ``wild_values``: a
        declaration's trick value (Wild Twist's HIGH and LOW).
        ``moon_points``: what shooting the moon is worth (None: no moon); ``moon_option``
        names the bool option that turns it on (None: always on when there is a moon).
        ``target_option`` names the option holding the total that ends the match, and
        ``length_option`` the one holding how many hands it lasts. ``forced_kinds``: action
        kinds that, as a seat's only turn action, leave it no choice worth asking about
        (UNO's ``keep`` of a drawn card that cannot be played).
        """
        if family not in FAMILIES:
            raise ValueError(f"family must be one of {', '.join(FAMILIES)}, not {family!r}")
        copies: dict[Card, int] = {}
        for card in deck:
            copies[card] = copies.get(card, 0) + 1
        self.family = family
        self.copies: Mapping[Card, int] = MappingProxyType(copies)
        self.cards: tuple[Card, ...] = tuple(copies)  # every distinct card, in game order
        self.deck: tuple[Card, ...] = tuple(c for c, n in copies.items() for _ in range(n))
        self.suits: tuple[str, ...] = tuple(suits)
        self.wild_cards: tuple[Card, ...] = tuple(c for c in self.cards if c.wild)
        self.wild_values: Mapping[str, int] = MappingProxyType(dict(wild_values))
        self.moon_points = moon_points
        self.moon_option = moon_option
        self.target_option = target_option
        self.length_option = length_option
        self.forced_kinds = frozenset(forced_kinds)
        self.total_points = sum(c.points * n for c, n in copies.items())
        top = max((c.points for c in self.cards), default=0)
        biggest = [c for c in self.cards if c.points == top]
        # the one card that scores far more than the rest (Hearts' queen): trick games only
        self.danger_card: Card | None = (
            biggest[0] if family == TRICK_TAKING and len(biggest) == 1 and top > 1 else None
        )

    def __repr__(self) -> str:
        return f"<GameFacts {self.family}, {len(self.deck)} cards>"

    @property
    def trick_taking(self) -> bool:
        return self.family == TRICK_TAKING

    # -- cards ------------------------------------------------------------------------------

    def card_named(self, text: str) -> Card:
        """The card of this deck whose notation is exactly ``text`` (KeyError if none)."""
        for card in self.cards:
            if card.text == text:
                return card
        raise KeyError(text)

    def suit_count(self, suit: str) -> int:
        """How many cards of a full deck carry this colour or suit letter."""
        return sum(n for c, n in self.copies.items() if c.color == suit)

    # -- the end of a match -----------------------------------------------------------------

    def target_points(self, options: Mapping[str, Any]) -> int | None:
        """The total that ends the match under ``options`` (None: it ends by length)."""
        name = self.target_option
        return None if name is None else int(options[name])

    def match_length(self, options: Mapping[str, Any]) -> int | None:
        """How many hands the match lasts under ``options`` (None: it ends by points)."""
        name = self.length_option
        return None if name is None else int(options[name])

    def moon_possible(self, options: Mapping[str, Any]) -> bool:
        """Whether a seat may shoot the moon under ``options``."""
        if self.moon_points is None:
            return False
        return self.moon_option is None or bool(options.get(self.moon_option, False))

    # -- tricks -----------------------------------------------------------------------------

    def lead_suit(self, card: Card, declared: str | None = None) -> str | None:
        """The suit a trick led with ``card`` (declared as ``declared``) must follow."""
        return card.color

    def follows(self, card: Card, declared: str | None, lead: str) -> bool:
        """Whether playing ``card`` follows suit to a trick led in ``lead``."""
        return card.color == lead

    def trick_strength(self, card: Card, declared: str | None, lead: str) -> int:
        """How strongly a played card competes for a trick led in ``lead``.

        -1: it cannot win. Otherwise the higher value wins; the first played wins a tie.
        """
        rank = card.rank
        if card.color != lead or not isinstance(rank, int):
            return -1
        return rank

    def trick_winner(self, plays: Sequence[Play]) -> int:
        """The seat winning a trick so far: ``plays`` in play order, the lead first."""
        if not plays:
            raise ValueError("an empty trick has no winner")
        lead = self.lead_suit(plays[0][1], plays[0][2])
        best_seat, best = plays[0][0], -1
        if lead is None:
            return best_seat
        for seat, card, declared in plays:
            value = self.trick_strength(card, declared, lead)
            if value > best:
                best_seat, best = seat, value
        return best_seat

    def trick_draws(self, card: Card) -> int:
        """Cards that playing ``card`` pulls into the trick from the draw pile."""
        return 0


Determinizer = Callable[..., "Match"]  # (view, rng, avoid=None) -> Match


@dataclass(frozen=True)
class GameSpec:
    """A game: its id, its limits and options, its facts, and how to start a match of it."""

    id: str
    name: str
    description: str  # one line, for the lobby
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    match_class: type[Match] = field(repr=False)
    facts: GameFacts = field(default_factory=lambda: GameFacts(family=SHEDDING, deck=()))
    # ``determinizer(view, rng, avoid)``: a whole match consistent with a seat's view, its
    # unseen cards dealt at random (for the search player); None if the game has none
    determinizer: Determinizer | None = field(default=None, repr=False, compare=False)

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and validate; raises OptionError naming what is wrong."""
        result = self.default_options()
        known = {o.name: o for o in self.options}
        for name, value in (options or {}).items():
            if name not in known:
                allowed = ", ".join(known) or "none"
                raise OptionError(f"{self.id} has no option {name!r} (options: {allowed})")
            result[name] = known[name].check(value)
        return result

    def check_players(self, players: int) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"the number of players must be a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.name} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        return players

    def new_match(
        self, players: int, options: Mapping[str, Any] | None = None, seed: int | None = None
    ) -> Match:
        """A new match dealt from ``seed`` (a random seed is chosen and kept if None)."""
        checked = self.check_options(options)
        return self.match_class(self, self.check_players(players), checked, seed)

    def from_deal(
        self,
        players: int,
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        **deal: Any,
    ) -> Match:
        """A match whose first hand is the explicit deal given (for scenarios, puzzles).

        The keyword arguments are the game's own (``hands``, ``draw_pile``, ``dealer``,
        ...; see each game's ``setup_deal``). Cards may be given as notation strings.
        Later hands are dealt from ``seed``.
        """
        checked = self.check_options(options)
        return self.match_class(self, self.check_players(players), checked, seed, deal=deal)

    def parse_card(self, text: str) -> Card:
        return self.match_class.parse_card(text)

    def parse_action(self, text: str) -> Action:
        return self.match_class.parse_action(text)


class Match(ABC):
    """One match of one game: the full, secret state. Only the engine holds one.

    Subclasses implement the rules; callers use only the methods here.
    """

    game_id: ClassVar[str]
    _hand_over = False  # class default too: determinisers build matches without __init__

    def __init__(
        self,
        spec: GameSpec,
        players: int,
        options: dict[str, Any],
        seed: int | None,
        deal: Mapping[str, Any] | None = None,
    ) -> None:
        self.spec = spec
        self.players = players
        self.options = MappingProxyType(options)
        self.seed = random.randrange(2**63) if seed is None else seed
        self.rng = random.Random(self.seed)
        self.hand_number = 0
        self.scores = [0] * players
        self.hand_results: list[HandResult] = []
        self.winners: tuple[int, ...] = ()
        self.history: list[tuple[int, Action]] = []  # every applied (seat, action)
        self.log: list[Event] = []  # every event, in order, unredacted
        self._hand_over = False  # a hand has ended and the next is not dealt yet

    # -- what callers ask -------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the match has ended (``winners`` is then set)."""
        return bool(self.winners)

    @property
    def hand_over(self) -> bool:
        """True between hands: the finished hand stays readable until ``next_hand()``.

        Meanwhile nobody may act (``actors()`` is empty and ``apply`` refuses) and every
        view shows the table as the hand ended, with phase ``"hand_over"``.
        """
        return self._hand_over

    def next_hand(self, deal: Mapping[str, Any] | None = None) -> list[Event]:
        """Deal the next hand (only while ``hand_over``) and return its events.

        ``deal`` takes the same keywords as ``GameSpec.from_deal`` (the dealer defaults to
        the next one in turn); without it the hand is dealt from the match's seed, so a
        seed and the list of actions still reproduce the match exactly. Dealing is not an
        action: replayers call ``next_hand()`` whenever ``hand_over`` is True.
        """
        if not self._hand_over:
            raise IllegalAction("the hand is not over" if not self.winners else "the match is over")
        if deal is not None:
            self.clone()._deal_next(dict(deal))  # a bad deal raises here, changing nothing
        events = self._deal_next(None if deal is None else dict(deal))
        self._hand_over = False
        self.log.extend(events)
        return events

    def _deal_next(self, deal: dict[str, Any] | None) -> list[Event]:
        """Pass the deal on and deal the next hand (from ``deal`` if given)."""
        raise NotImplementedError

    def explain(self, seat: int, action: Action | str) -> str | None:
        """Why ``seat`` may not take ``action`` now, in players' words; None if it may."""
        try:
            if isinstance(action, str):
                action = self.parse_action(action)
        except EngineError as error:
            return str(error)
        seated = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players
        in_play = not self.winners and not self._hand_over
        if seated and in_play and _among(action, self.legal_actions(seat)):
            return None
        try:
            self.clone().apply(seat, action)
        except EngineError as error:
            return str(error)
        return "that is not allowed now"  # the rules code and the legal list disagree

    @property
    @abstractmethod
    def current(self) -> int | None:
        """The seat whose turn it is (None while several seats act at once, or at the end)."""

    @abstractmethod
    def actors(self) -> tuple[int, ...]:
        """Every seat that has at least one legal action now, in seat order."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Everything ``seat`` may do now (empty if nothing)."""

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know, and nothing more; ``None``: a spectator (no hand)."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Check and carry out one action; must raise before changing anything."""

    @classmethod
    @abstractmethod
    def parse_card(cls, text: str) -> Card:
        """The card that ``text`` names; NotationError if none."""

    @classmethod
    @abstractmethod
    def parse_action(cls, text: str) -> Action:
        """The action that ``text`` names; NotationError if none."""

    @abstractmethod
    def clone(self) -> Match:
        """An independent copy (same rng state) for search."""

    # -- the one way to change a match -----------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply ``action`` for ``seat`` and return the events it caused.

        Raises NotationError for unparseable text and IllegalAction (changing nothing)
        for an action the rules do not allow now.
        """
        # exact-type tests first: the search calls this millions of times
        if action.__class__ is not Action:
            if isinstance(action, str):
                action = self.parse_action(action)
            elif not isinstance(action, Action):
                raise NotationError(f"not an action: {action!r}")
        if seat.__class__ is not int or not 0 <= seat < self.players:
            n = self.players
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
                raise IllegalAction(f"there is no seat {seat!r} at this table of {n}")
        if self.winners:
            raise IllegalAction("the match is over")
        if self._hand_over:
            raise IllegalAction("the hand is over: the next one must be dealt first")
        events = self._apply(seat, action)
        self.history.append((seat, action))
        self.log.extend(events)
        return events

    def events_for(self, seat: int | None, start: int = 0) -> list[Event]:
        """The log from ``start`` on, as ``seat`` may see it."""
        return [e.seen_by(seat) for e in self.log[start:]]


def _among(action: Action, legal: Sequence[Action]) -> bool:
    """Whether ``action`` is one of ``legal``; a ``give`` is a set of cards, in any order."""
    if action in legal:
        return True
    if action.kind != "give":
        return False
    cards = frozenset(action.cards)
    return len(cards) == len(action.cards) and any(
        a.kind == "give" and len(a.cards) == len(cards) and frozenset(a.cards) == cards
        for a in legal
    )


def check_viewer(seat: Any, players: int) -> None:
    """A view is for a seat of this table or for a spectator (None); anything else raises."""
    # a negative index would otherwise show another seat's hand
    if seat is None:
        return
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalAction(f"there is no seat {seat!r} at this table of {players}")


# per list length - 1 (up to 256): the positions random.shuffle fills, from the last down
# to 1, each with the bits it draws, (i + 1).bit_length(); built on first use
_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _shuffle_fast(rng: random.Random, items: list[Any]) -> None:
    # random.shuffle's own algorithm with its _randbelow inlined: the same permutation
    # from the same generator state, without a Python call per card
    getrandbits = rng.getrandbits
    last = len(items) - 1
    plan = _PLANS.get(last)
    if plan is None:
        plan = tuple((i, (i + 1).bit_length()) for i in range(last, 0, -1))
        if last <= 256:  # the decks and discard piles; keep the cache small
            _PLANS[last] = plan
    for i, k in plan:
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _same_as_random_shuffle() -> bool:
    """Whether _shuffle_fast reproduces this Python's random.shuffle (seeds must replay)."""
    cls: Any = random.Random
    if cls._randbelow is not getattr(cls, "_randbelow_with_getrandbits", None):
        return False
    for seed in (0, 1, 12345):
        ours, theirs = list(range(112)), list(range(112))
        rng_a, rng_b = random.Random(seed), random.Random(seed)
        _shuffle_fast(rng_a, ours)
        rng_b.shuffle(theirs)
        if ours != theirs or rng_a.getstate() != rng_b.getstate():
            return False
    return True


_FAST_SHUFFLE = _same_as_random_shuffle()


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, faster: exactly the same order and generator state after."""
    if _FAST_SHUFFLE and rng.__class__ is random.Random:
        _shuffle_fast(rng, items)
    else:
        rng.shuffle(items)


def check_seat_turn(match: Match, seat: int, expected: int | None) -> None:
    """Raise the common 'not your turn' error."""
    if expected is None:
        raise IllegalAction("nobody is to play a card right now")
    if seat != expected:
        raise IllegalAction(f"it is seat {expected}'s turn, not seat {seat}'s")


def cards_from(items: Sequence[Any], parse: Callable[[str], Card]) -> list[Card]:
    """Cards given as notation strings or card values (for explicit deals)."""
    return [parse(c) if isinstance(c, str) else c for c in items]
