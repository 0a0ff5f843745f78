"""The controller: one match, its seats, whose decision it is, and what each human may see.

The screens never apply a rule: they ask the controller what to show and hand it the
players' choices. Computer decisions are pure functions of a View, so the UI may run
``think`` in a background thread; a decision is applied only if the match has not
moved on meanwhile (see ``version``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS, Action, Event, HandResult, Match, View, get_game
from unotable.store.record import MatchRecord, SeatRecord

from .pacing import Pace
from .seats import Seat, make_computer

# View fields that hold one seat's private knowledge, and their empty values.
_EMPTY_PRIVATE: dict[str, Any] = {
    "drawn": None,
    "pending": None,
    "passed": (),
    "received": (),
}
# Games where whole hands or cards move between players (pass hand, pass three).
# events after which cards have changed owners (pass three, pass-hand 8s)
_HANDS_MOVED_EVENTS = frozenset({"pass", "pass_hand"})


@dataclass(frozen=True)
class Turn:
    """Whose decision the match waits on now."""

    seat: int | None  # None only when the match is over
    human: bool
    over: bool = False


@dataclass
class LogEntry:
    """One line of the match log, as the events that made it (redacted when shown)."""

    seat: int
    action: Action
    events: list[Event] = field(default_factory=list)


class Controller:
    def __init__(
        self,
        game: str,
        seats: Sequence[Seat],
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        *,
        started: str = "",
        speed: str = "normal",
        on_action: Callable[[Controller], None] | None = None,
    ) -> None:
        self.spec = get_game(game)
        self.seats = list(seats)
        self.match: Match = self.spec.new_match(len(self.seats), options, seed)
        self.pace = Pace(speed)
        self.on_action = on_action
        self.started = started or datetime.now(UTC).isoformat(timespec="seconds")
        self.fallbacks: dict[int, str] = {}  # seat -> the level actually playing
        self._computers: dict[int, Any] = {}
        for index, seat in enumerate(self.seats):
            if not seat.is_human:
                ai_seed = (self.match.seed * 7919 + index + 1) % 2**63
                player, used = make_computer(seat.kind, game, ai_seed)
                self._computers[index] = player
                if used != seat.kind:
                    self.fallbacks[index] = used
        self._reacted: set[tuple[int, int, int]] = set()  # (history length, exposed, seat)
        self.viewer: int | None = None  # the human whose private cards were last shown
        self.hands_moved = False
        self.log: list[LogEntry] = []
        self.fast_forward = False
        self.results_seen = 0  # hand results the UI has shown
        # seat -> the card it drew and had to keep, until its next turn (for its status line)
        self._kept: dict[int, Any] = {}

    # -- saving -------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls,
        record: MatchRecord,
        *,
        speed: str = "normal",
        on_action: Callable[[Controller], None] | None = None,
    ) -> Controller:
        """Rebuild a match exactly by replaying its actions (the engine is deterministic)."""
        seats = [Seat(s.name, s.kind) for s in record.seats]
        controller = cls(
            record.game, seats, record.options, record.seed, started=record.started, speed=speed
        )
        for seat, text in record.actions:
            controller._apply_logged(seat, controller.match.parse_action(text))
        controller._keep_if_forced()
        controller.results_seen = len(controller.match.hand_results)
        controller.on_action = on_action
        return controller

    def to_record(self) -> MatchRecord:
        return MatchRecord(
            game=self.spec.id,
            options=dict(self.match.options),
            seats=[SeatRecord(s.name, s.kind) for s in self.seats],
            seed=self.match.seed,
            actions=[(seat, str(action)) for seat, action in self.match.history],
            started=self.started,
            finished=self.match.over,
        )

    # -- what the screens ask -------------------------------------------------------------

    @property
    def game_id(self) -> str:
        return self.spec.id

    @property
    def version(self) -> int:
        """Changes with every applied action; a computer decision is stale once it moves."""
        return len(self.match.history)

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.is_human]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    @property
    def hand_results(self) -> list[HandResult]:
        return self.match.hand_results

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.seats[seat].name

    def is_human(self, seat: int) -> bool:
        return self.seats[seat].is_human

    def legal(self, seat: int) -> list[Action]:
        return self.match.legal_actions(seat)

    def view(self, seat: int) -> View:
        return self.match.view(seat)

    def turn(self) -> Turn:
        """The seat whose decision the match waits on.

        The seat whose turn it is, when it has something to do; otherwise (seats acting
        at once, as when passing cards) computers first, then humans in seat order.
        Out-of-turn actions (catch, late UNO) never make a seat the one waited on.
        """
        if self.match.over:
            return Turn(None, False, over=True)
        match = self.match
        waiting = [s for s in match.actors() if self._has_turn_action(s)]
        current = match.current
        if current is not None and current in waiting:
            return Turn(current, self.is_human(current))
        for seat in waiting:
            if not self.is_human(seat):
                return Turn(seat, False)
        if waiting:
            return Turn(waiting[0], True)
        raise RuntimeError("the match is not over but nobody may act")  # an engine bug

    def _has_turn_action(self, seat: int) -> bool:
        return any(a.kind not in OUT_OF_TURN_KINDS for a in self.match.legal_actions(seat))

    def exposed(self) -> int | None:
        """The seat that may be caught for a missed UNO call right now, if any."""
        for seat in self.match.actors():
            for action in self.match.legal_actions(seat):
                if action.kind == "catch":
                    return action.target
        return None

    def catch_action(self, seat: int) -> Action | None:
        for action in self.match.legal_actions(seat):
            if action.kind == "catch":
                return action
        return None

    def late_call_action(self, seat: int) -> Action | None:
        for action in self.match.legal_actions(seat):
            if action.kind == "uno":
                return action
        return None

    # -- privacy and hand-overs -----------------------------------------------------------

    def needs_handover(self, seat: int) -> bool:
        """True when ``seat`` (a human) must be handed the keyboard before seeing cards."""
        if not self.hot_seat:
            return False
        return self.viewer != seat or self.hands_moved

    def show_to(self, seat: int) -> None:
        """Record that ``seat``'s private cards are now on screen."""
        self.viewer = seat
        self.hands_moved = False

    def display_seat(self) -> int | None:
        """Whose cards the table may show now (None: nobody's, only public information)."""
        humans = self.humans
        if not humans:
            return None
        if not self.hot_seat:
            return humans[0]
        turn = self.turn()
        if turn.human and turn.seat is not None and self.needs_handover(turn.seat):
            return None
        if self.hands_moved:
            return None
        return self.viewer

    def public_view(self) -> View:
        """A view with no private cards, for a table nobody's cards may be shown on."""
        seat = self.display_seat()
        if seat is not None:
            return self.match.view(seat)
        # Seat 0's view with everything only seat 0 knows blanked out.
        base = self.match.view(0)
        private = {name: _EMPTY_PRIVATE[name] for name in _EMPTY_PRIVATE if hasattr(base, name)}
        for name in ("known", "known_hands"):  # per seat: what seat 0 knows of each hand
            if hasattr(base, name):
                private[name] = ((),) * base.players
        return replace(base, hand=(), legal=(), **private)

    # -- acting ---------------------------------------------------------------------------

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one action; raises IllegalAction (or NotationError) changing nothing.

        A human's drawn card that cannot be played is kept at once (its events are returned
        too): the engine still asks, so that nobody else learns whether it matched.
        """
        if isinstance(action, str):
            action = self.match.parse_action(action)
        events = list(self._apply_logged(seat, action))  # a copy: the log keeps the original
        self._kept.pop(seat, None)
        events += self._keep_if_forced()
        if any(event.kind in _HANDS_MOVED_EVENTS for event in events):
            self.hands_moved = True
        if self.on_action is not None:
            self.on_action(self)
        return events

    def _apply_logged(self, seat: int, action: Action) -> list[Event]:
        events = self.match.apply(seat, action)
        self.log.append(LogEntry(seat, action, events))
        return events

    def _keep_if_forced(self) -> list[Event]:
        forced = self._forced_keep()
        if forced is None:
            return []
        seat = forced[0]
        self._kept[seat] = getattr(self.match.view(seat), "drawn", None)  # from its own view
        return self._apply_logged(*forced)

    def _forced_keep(self) -> tuple[int, Action] | None:
        """(seat, keep) when a human's only choice is to keep the card it just drew.

        Computers take their forced keep as an ordinary, paced turn: keeping at once would
        show watchers, by the missing pause, that the drawn card did not match.
        """
        seat = self.match.current
        if seat is None or self.match.over or not self.seats[seat].is_human:
            return None
        turn_actions = [
            a for a in self.match.legal_actions(seat) if a.kind not in OUT_OF_TURN_KINDS
        ]
        if len(turn_actions) == 1 and turn_actions[0].kind == "keep":
            return seat, turn_actions[0]
        return None

    def kept_card(self, seat: int) -> Any:
        """The card ``seat`` drew and had to keep, while the turn has not come back to it."""
        if self.match.current == seat:
            return None
        return self._kept.get(seat)

    def think(self, seat: int, view: View) -> Action:
        """A computer's decision from its own view. Safe to call in a worker thread."""
        action: Action = self._computers[seat].choose(view)
        return action

    def decide(self, seat: int) -> Action:
        return self.think(seat, self.match.view(seat))

    def play_computer(self, seat: int) -> list[Event]:
        """Let the computer at ``seat`` act now (in this thread), after its reactions."""
        self.resolve_reactions()
        return self.apply(seat, self.decide(seat))

    # -- UNO catch timing (RULES.md D-35) -------------------------------------------------

    def pending_reactions(self) -> list[tuple[float, int]]:
        """Computers that may still react to the open exposure: (delay in seconds, seat)."""
        exposed = self.exposed()
        if exposed is None:
            return []
        result = []
        for seat in self._reaction_order(exposed):
            if (self.version, exposed, seat) not in self._reacted:
                result.append((self.pace.reaction_delay(self.seats[seat].kind), seat))
        return result

    def react(self, seat: int) -> list[Event]:
        """The computer at ``seat`` decides, once per exposure, whether to catch or call late."""
        exposed = self.exposed()
        key = (self.version, exposed, seat)
        if exposed is None or key in self._reacted or self.is_human(seat):
            return []
        self._reacted.add(key)
        action = self.late_call_action(seat) if seat == exposed else self.catch_action(seat)
        # the level's own habit decides (an Easy player often misses the chance)
        if action is None or not self._computers[seat].wants_to_act(self.match.view(seat)):
            return []
        return self.apply(seat, action)

    def resolve_reactions(self) -> list[Event]:
        """Every computer's pending reaction, in seat order from the next player, at once.

        Called before a turn action ends the exposure, so computers get their chance
        without any clock (RULES.md D-35: headless order).
        """
        events: list[Event] = []
        while True:
            pending = self.pending_reactions()
            if not pending:
                return events
            before = self.version
            for _, seat in pending:
                events.extend(self.react(seat))
                if self.version != before:
                    break

    def _reaction_order(self, exposed: int) -> list[int]:
        """Computer seats that could react, from the next player after the exposed one."""
        players = self.match.players
        order = [(exposed + k) % players for k in range(1, players + 1)]
        result = []
        for seat in order:
            if self.is_human(seat):
                continue
            if seat == exposed:
                if self.late_call_action(seat) is not None:
                    result.append(seat)
            elif self.catch_action(seat) is not None:
                result.append(seat)
        return result

    # -- playing a match to its end without a screen (tests, benchmarks) ------------------

    def run_computers(self, limit: int = 100_000) -> Turn:
        """Let computers act until a human must decide or the match ends."""
        for _ in range(limit):
            turn = self.turn()
            if turn.over or turn.human:
                return turn
            assert turn.seat is not None
            self.play_computer(turn.seat)
        raise RuntimeError("computers did not finish within the limit")

    def events_for(self, seat: int | None, entry: LogEntry) -> list[Event]:
        return [e.seen_by(seat) for e in entry.events]
