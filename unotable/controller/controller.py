"""The one driver of every match: the app, ``sim``, tournaments, benchmarks and replay.

It owns the engine match, the seats and the computer players behind them, and decides
who is asked next (``asks``), in one documented order:

1. A hand that has ended waits for ``next_hand()`` (the app shows its scoreboard first;
   with no human at the table the headless ``run`` deals at once).
2. While a seat is exposed for a missed UNO call (RULES.md D-35), the computers that may
   react are asked once each, in this order: every other seat from the one after it,
   going round in seat order (a catch), then the exposed seat itself (a late call). Humans
   are never asked: they act whenever they like, and while a human could react,
   computers hold back ``Pace.human_first`` seconds so the humans get the first chance.
3. Then the seat whose decision the match waits on (``turn``): the seat to play, or,
   while several seats act at once (passing cards), computers first, then humans, each
   in seat order.

Time comes from an injected clock: pacing decides *when* a computer acts, never who or
in what order, so a virtual clock plays exactly the same match as the real one.

Viewers never touch the match: they get an immutable ``Snapshot`` of what they may see
and do (``snapshot``) and send back intents (``submit``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS, Action, Event, HandResult, Match, View, get_game
from unotable.engine.replay import replay_actions
from unotable.store.record import MatchRecord, SeatRecord

from .clock import Clock, RealClock, VirtualClock
from .pacing import Pace
from .seats import Seat, computer_seed, make_computer
from .snapshot import Intent, SeatInfo, Snapshot
from .steps import Ask, AskHuman, Deal, Over, React, StandIn, Step, Think, TimeOut, WaitUntil

# events after which cards have changed owners (pass three, pass-hand 8s, Seven-O's 7 and
# 0): every human takes the keyboard again before seeing a hand
_HANDS_MOVED_EVENTS = frozenset({"pass", "pass_hand", "swap", "pass_hands"})
STAND_IN_LEVEL = "normal"  # who plays for a human who is away past the grace
MISSED_TURNS_AWAY = 2  # turns timed out in a row before a seat counts as away
RECENT_EVENTS = 8  # the current hand's latest events a snapshot carries


@dataclass(frozen=True)
class Turn:
    """Whose decision the match waits on now."""

    seat: int | None  # None when the match is over or between hands
    human: bool
    over: bool = False
    hand_over: bool = False


@dataclass(frozen=True)
class Request:
    """A computer's turn, handed out to think about (possibly in another thread)."""

    seat: int
    view: View
    version: int
    # the computer asked: a stand-in may be dismissed (its player back) while it thinks
    player: Any = field(repr=False, compare=False)
    epoch: int = 0  # changes with each deal and undo, which leave ``version`` ambiguous


@dataclass(frozen=True)
class Undo:
    """One take-back: the match went back to ``at`` actions; ``taken_back`` were removed."""

    at: int
    taken_back: tuple[tuple[int, str], ...]


class Controller:
    def __init__(
        self,
        game: str,
        seats: Sequence[Seat],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        *,
        clock: Clock | None = None,
        speed: str = "normal",
        computers: Mapping[int, Any] | None = None,
        on_action: Callable[[Controller], None] | None = None,
        on_decision: Callable[[int, Action, float], None] | None = None,
        started: str = "",
        match: Match | None = None,
    ) -> None:
        """``match``: an already dealt match to drive (an explicit deal in tests)."""
        self.spec = get_game(game)
        self.seats = list(seats)
        if match is None:
            match = self.spec.new_match(len(self.seats), options, seed)
        elif match.players != len(self.seats) or match.spec.id != self.spec.id:
            raise ValueError("the match given does not fit this game and these seats")
        self.match: Match = match
        self.clock: Clock = clock if clock is not None else RealClock()
        self.pace = Pace(speed)
        self.on_action = on_action
        self.on_decision = on_decision  # (seat, action, seconds thinking), for sim and benches
        self.started = started or datetime.now(UTC).isoformat(timespec="seconds")
        self.fallbacks: dict[int, str] = {}  # seat -> the level actually playing
        self._computers: dict[int, Any] = {}
        given = dict(computers or {})
        for index, seat in enumerate(self.seats):
            if seat.is_human:
                continue
            if index in given:
                self._computers[index] = given[index]
                continue
            player, used = make_computer(seat.kind, game, computer_seed(self.match.seed, index))
            self._computers[index] = player
            if used != seat.kind:
                self.fallbacks[index] = used
        self._epoch = 0  # bumped by each deal and undo: with version, names one position
        self._asked: set[tuple[int, int, int]] = set()  # (version, epoch, seat) asked already
        self._since = self.clock.now()  # when the current position arose
        self._legal_cache: dict[int, list[Action]] = {}
        self._legal_position = (-1, -1)
        self.undos: list[Undo] = []  # every take-back, in order (saved with the match)
        self.undo_allowed = True  # the app turns it off for served tables
        self.viewer: int | None = None  # the human whose cards the shared screen may show
        self.hands_moved = False
        self.fast_forward = False
        # seat -> the card it drew and had to keep, until its next turn (for its status line)
        self._kept: dict[int, Any] = {}
        # between hands: how long the finished hand stays up (None: until every human at
        # the table is ready), who is ready, and since when it is over
        self.hand_over_wait: float | None = None
        self._ready: set[int] = set()
        self._hand_ended_at: float | None = None
        self._hand_log_start = 0  # where the current hand's events begin in the log
        # humans who are away (shared tables): since when, and the grace before a
        # computer plays for them (None: their seat just waits)
        self.grace: float | None = None
        self._away_since: dict[int, float] = {}
        self._stand_ins: dict[int, Any] = {}
        # seconds a human has for a turn before a computer plays it (None: no limit), and
        # the turns each seat let run out in a row
        self.turn_timeout: float | None = None
        self._missed: dict[int, int] = {}
        # hot-seat: a hand shown to one human only (a challenged Wild Draw Four), which
        # the screen keeps for them until they have seen it: (seat, the event)
        self._showing: tuple[int, Event] | None = None
        # every human plays at this one screen (a LocalTable): hot-seat hand-overs and
        # private showings are the screen's; a shared table's players each have their own
        self.one_screen = False

    # -- saving -------------------------------------------------------------------------

    @classmethod
    def from_record(
        cls,
        record: MatchRecord,
        *,
        clock: Clock | None = None,
        speed: str = "normal",
        on_action: Callable[[Controller], None] | None = None,
        upto: int | None = None,
    ) -> Controller:
        """Rebuild a match exactly by replaying its actions (the engine is deterministic).

        ``upto`` stops after that many actions (replay, undo).
        """
        seats = [Seat(s.name, s.kind) for s in record.seats]
        controller = cls(
            record.game,
            seats,
            record.options,
            record.seed,
            clock=clock,
            speed=speed,
            started=record.started,
        )
        actions = record.actions if upto is None else record.actions[:upto]
        for seat, text in actions:
            controller.replay(seat, text)
        controller.undos = [Undo(at, tuple((s, t) for s, t in back)) for at, back in record.undos]
        controller._keep_if_forced()
        controller.on_action = on_action
        return controller

    def replay(self, seat: int, action: Action | str, number: int = 0) -> list[Event]:
        """Apply recorded action ``number`` as it was: no hook, no forced keep (the record
        has it). ReplayError if it does not replay."""
        if self.match.hand_over:
            self._deal()
        log_length = len(self.match.log)
        replay_actions(self.match, [(seat, action)], first=number)
        self._moved()
        return self.match.log[log_length:]

    def fork(self) -> Controller:
        """An independent copy of this table on a virtual clock (replay checkpoints)."""
        return Controller(
            self.spec.id,
            self.seats,
            clock=VirtualClock(self.clock.now()),
            speed=self.pace.speed,
            computers=self._computers,
            started=self.started,
            match=self.match.clone(),
        )

    def record_later(self) -> Callable[[], MatchRecord]:
        """``to_record`` of the match as it is now, to be built later (in another thread):
        only the history is copied here."""
        history = tuple(self.match.history)
        game, options, seed = self.spec.id, dict(self.match.options), self.match.seed
        seats = [SeatRecord(s.name, s.kind) for s in self.seats]
        started, finished = self.started, self.match.over
        undos = [(u.at, list(u.taken_back)) for u in self.undos]

        def build() -> MatchRecord:
            return MatchRecord(
                game=game,
                options=options,
                seats=seats,
                seed=seed,
                actions=[(seat, str(action)) for seat, action in history],
                started=started,
                finished=finished,
                undos=undos,
            )

        return build

    def to_record(self) -> MatchRecord:
        return self.record_later()()

    # -- facts ----------------------------------------------------------------------------

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
    def hand_over(self) -> bool:
        return self.match.hand_over

    @property
    def humans(self) -> list[int]:
        """The seats a human decides for now (a computer standing in for one does not)."""
        return [i for i, s in enumerate(self.seats) if s.is_human and i not in self._stand_ins]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) >= 2

    @property
    def hand_results(self) -> list[HandResult]:
        return self.match.hand_results

    def name(self, seat: int | None) -> str:
        return "nobody" if seat is None else self.seats[seat].name

    def is_human(self, seat: int) -> bool:
        """A human decides for ``seat`` now (not a computer, nor one standing in)."""
        return self.seats[seat].is_human and seat not in self._stand_ins

    # -- presence (shared tables) -----------------------------------------------------------

    def set_present(self, seat: int, present: bool) -> None:
        """A human's player came or went. Back: their seat is theirs again at once. Away:
        after ``grace`` seconds a computer plays it (a ``StandIn`` step), if grace is set."""
        if present:
            self._away_since.pop(seat, None)
            if self._stand_ins.pop(seat, None) is not None:
                self.fallbacks.pop(seat, None)
                self._moved()
        elif self.seats[seat].is_human and seat not in self._away_since:
            self._away_since[seat] = self.clock.now()

    def away(self, seat: int) -> float | None:
        """Seconds until a computer plays for ``seat``'s absent player (None: not waiting)."""
        since = self._away_since.get(seat)
        if since is None or seat in self._stand_ins or self.grace is None:
            return None
        return max(0.0, since + self.grace - self.clock.now())

    def standing_in(self, seat: int) -> bool:
        return seat in self._stand_ins

    def stand_in(self, seat: int, player: Any = None) -> None:
        """A computer plays for ``seat``'s absent player until they are present again."""
        if player is None:
            from unotable.ai import make_player

            player = make_player(STAND_IN_LEVEL, self.spec.id, computer_seed(self.match.seed, seat))
        self._stand_ins[seat] = player
        self.fallbacks[seat] = getattr(player, "level", STAND_IN_LEVEL)
        self._moved()

    def _player(self, seat: int) -> Any:
        return self._stand_ins.get(seat) or self._computers[seat]

    def legal(self, seat: int) -> list[Action]:
        """``seat``'s legal actions, computed once per position."""
        position = (self.version, self._epoch)
        if self._legal_position != position:
            self._legal_cache = {}
            self._legal_position = position
        found = self._legal_cache.get(seat)
        if found is None:
            found = self._legal_cache[seat] = self.match.legal_actions(seat)
        return found

    def view(self, seat: int | None) -> View:
        return self.match.view(seat)

    def turn(self) -> Turn:
        """The seat whose decision the match waits on (out-of-turn calls never count)."""
        match = self.match
        if match.over:
            return Turn(None, False, over=True)
        if match.hand_over:
            return Turn(None, False, hand_over=True)
        actors = match.actors()
        current = match.current
        if current is not None and current in actors and self._has_turn_action(current, actors):
            return Turn(current, self.is_human(current))
        waiting = [s for s in actors if self._has_turn_action(s, actors)]
        for seat in waiting:
            if not self.is_human(seat):
                return Turn(seat, False)
        if waiting:
            return Turn(waiting[0], True)
        raise RuntimeError("the match is not over but nobody may act")  # an engine bug

    def _acts_now(self, seat: int) -> bool:
        """``seat`` is a human with a decision to make now while several seats choose at
        once (each passing cards): every one of them is asked, not one after another."""
        if self.match.current is not None or not self.is_human(seat):
            return False
        actors = self.match.actors()
        return len(actors) > 1 and seat in actors and self._has_turn_action(seat, actors)

    def _has_turn_action(self, seat: int, actors: tuple[int, ...]) -> bool:
        if len(actors) == 1:  # nobody else may act: no out-of-turn window is open
            return True
        return any(a.kind not in OUT_OF_TURN_KINDS for a in self.legal(seat))

    def exposed(self) -> int | None:
        """The seat that may be caught for a missed UNO call right now, if any."""
        if len(self.match.actors()) <= 1:
            return None
        for seat in self.match.actors():
            for action in self.legal(seat):
                if action.kind == "catch":
                    return action.target
        return None

    def catch_action(self, seat: int) -> Action | None:
        return next((a for a in self.legal(seat) if a.kind == "catch"), None)

    def late_call_action(self, seat: int) -> Action | None:
        return next((a for a in self.legal(seat) if a.kind == "uno"), None)

    def kept_card(self, seat: int) -> Any:
        """The card ``seat`` drew and had to keep, while the turn has not come back to it."""
        if self.match.current == seat:
            return None
        return self._kept.get(seat)

    # -- who is asked next ------------------------------------------------------------------

    def asks(self) -> list[Ask]:
        """The computers the driver will ask, in the one order (see the module docstring)."""
        if self.match.over or self.match.hand_over:
            return []
        result: list[Ask] = []
        exposed = self.exposed()
        if exposed is not None:
            humans_may_react = any(
                self.catch_action(h) or self.late_call_action(h) for h in self.humans
            )
            due = self._since + (self.pace.human_first if humans_may_react else 0.0)
            players = self.match.players
            for seat in [(exposed + k) % players for k in range(1, players + 1)]:
                if self.is_human(seat) or (self.version, self._epoch, seat) in self._asked:
                    continue
                if seat == exposed and self.late_call_action(seat) is None:
                    continue
                if seat != exposed and self.catch_action(seat) is None:
                    continue
                result.append(Ask(seat, "react", due))
        turn = self.turn()
        if turn.seat is not None and not turn.human:
            delay = 0.0 if self.fast_forward else self.pace.play_delay
            due = max([self._since + delay, *(a.due for a in result)])
            result.append(Ask(turn.seat, "turn", due))
        return result

    def next_step(self) -> Step:
        """What happens next: the one question every driver asks (see ``steps``)."""
        now = self.clock.now()
        standing = self._stand_in_due(now)
        if standing is not None:
            return StandIn(standing)
        if self.match.over:
            return Over()
        moments = self._away_deadlines()
        if self.match.hand_over:
            waiting = self.not_ready()
            deadline = self.deal_at()
            if not waiting or (deadline is not None and now >= deadline):
                return Deal()
            return AskHuman(waiting, _earliest([*moments, deadline]))
        asks = self.asks()
        if asks and asks[0].due <= now:
            return React(asks[0]) if asks[0].kind == "react" else Think(asks[0])
        turn = self.turn()
        due = asks[0].due if asks else None
        if turn.human and turn.seat is not None:
            deadline = self.turn_deadline()
            if deadline is not None and now >= deadline:
                return TimeOut(turn.seat)
            return AskHuman((turn.seat,), _earliest([*moments, due, deadline]))
        until = _earliest([*moments, due])
        if until is None:  # no computer to ask and no human: an engine or seat bug
            raise RuntimeError("the match is not over but nobody may act")
        return WaitUntil(until)

    def _stand_in_due(self, now: float) -> int | None:
        if self.grace is None or self.match.over:
            return None
        for seat, since in sorted(self._away_since.items()):
            if seat not in self._stand_ins and now >= since + self.grace:
                return seat
        return None

    def _away_deadlines(self) -> list[float]:
        if self.grace is None:
            return []
        return [t + self.grace for s, t in self._away_since.items() if s not in self._stand_ins]

    # -- turn time-outs (shared tables) ------------------------------------------------------

    def turn_deadline(self) -> float | None:
        """When the awaited human's turn runs out (None: no limit, or no human's turn)."""
        if self.turn_timeout is None or self.match.over or self.match.hand_over:
            return None
        turn = self.turn()
        if not turn.human or turn.seat is None:
            return None
        return self._since + self.turn_timeout

    def time_out(self, seat: int) -> list[Event]:
        """``seat``'s time ran out: a computer plays this one turn for it. Its player
        counts as away after MISSED_TURNS_AWAY of these in a row."""
        from unotable.ai import make_player

        turn = self.turn()
        if turn.seat != seat or not turn.human:
            return []
        player = self._stand_ins.get(seat) or make_player(
            STAND_IN_LEVEL, self.spec.id, computer_seed(self.match.seed, seat)
        )
        action = player.choose(self.match.view(seat))
        if action not in self.legal(seat):
            action = next(a for a in self.legal(seat) if a.kind not in OUT_OF_TURN_KINDS)
        missed = self._missed.get(seat, 0) + 1
        events = self.apply(seat, action)
        self._missed[seat] = missed  # apply() forgets misses: this one was not the player
        if missed >= MISSED_TURNS_AWAY:
            self._away_since[seat] = self.clock.now() - (self.grace or 0.0)
            self.stand_in(seat, player)
        return events

    def missed_turns(self, seat: int) -> int:
        return self._missed.get(seat, 0)

    # -- between hands ------------------------------------------------------------------------

    def ready(self, seats: Sequence[int]) -> None:
        """These humans have seen the finished hand."""
        if self.match.hand_over:
            self._ready.update(s for s in seats if 0 <= s < len(self.seats))

    def not_ready(self) -> tuple[int, ...]:
        """Between hands: the humans at the table the next deal still waits for."""
        return tuple(s for s in self.humans if s not in self._ready and s not in self._away_since)

    def deal_at(self) -> float | None:
        """Between hands: when the next hand is dealt anyway (None: when all are ready)."""
        if self.hand_over_wait is None or self._hand_ended_at is None:
            return None
        return self._hand_ended_at + self.hand_over_wait

    def request_for(self, ask: Ask) -> Request:
        """A computer's turn, to think about in any thread, then ``deliver``."""
        seat = ask.seat
        view = self.match.view(seat)
        return Request(seat, view, self.version, self._player(seat), self._epoch)

    def think(self, request: Request) -> Action:
        """A computer's decision from its own view. Safe to call in a worker thread."""
        action: Action = request.player.choose(request.view)
        return action

    def cancel_thinking(self, request: Request) -> None:
        """Ask a computer that is thinking (in another thread) to finish early."""
        cancel = getattr(request.player, "cancel", None)
        if cancel is not None:
            cancel()

    def deliver(self, request: Request, action: Action | None) -> list[Event]:
        """Apply a computer's decision, unless the match moved on meanwhile.

        An illegal choice, or none (a computer player's bug), falls back to its first
        legal action.
        """
        if request.version != self.version or request.epoch != self._epoch:
            return []
        if request.seat in self.humans:  # its player came back while it was thought about
            return []
        if action is None or action not in self.legal(request.seat):
            legal = [a for a in self.legal(request.seat) if a.kind not in OUT_OF_TURN_KINDS]
            action = legal[0]
        return self.apply(request.seat, action)

    def react(self, ask: Ask) -> list[Event]:
        """Ask one computer, once per position, whether it calls UNO late or catches."""
        seat = ask.seat
        self._asked.add((self.version, self._epoch, seat))
        exposed = self.exposed()
        action = self.late_call_action(seat) if seat == exposed else self.catch_action(seat)
        if action is None:
            return []
        player = self._player(seat)
        view = self.match.view(seat)
        wants = getattr(player, "wants_to_act", None)
        # the level's own habit decides (an Easy player often misses the chance)
        if wants is not None and not wants(view):
            return []
        chosen = player.choose(view)  # the player says it, as it would at its turn
        return self.apply(seat, chosen if chosen == action else action)

    def perform(self, ask: Ask) -> list[Event]:
        """Carry out one ask in this thread (headless drivers; reactions in the app)."""
        if ask.kind == "react":
            return self.react(ask)
        request = self.request_for(ask)
        started = time.perf_counter()
        action = self.think(request)
        if self.on_decision is not None:
            self.on_decision(ask.seat, action, time.perf_counter() - started)
        return self.deliver(request, action)

    def run(
        self, *, max_hands: int | None = None, max_actions: int | None = None, deal: bool = True
    ) -> Turn:
        """Play without a screen until a human must decide (see ``Runner.run``)."""
        from .runner import Runner

        return Runner(self).run(max_hands=max_hands, max_actions=max_actions, deal=deal)

    def next_hand(self) -> list[Event]:
        """Deal the next hand once everyone has seen how the last one ended."""
        events = self._deal()
        self._moved()
        self.hands_moved = True
        if self.on_action is not None:
            self.on_action(self)
        return events

    def _deal(self) -> list[Event]:
        self._hand_log_start = len(self.match.log)
        events = self.match.next_hand()
        self._epoch += 1
        self._ready.clear()
        self._hand_ended_at = None
        self._kept.clear()  # a card kept last hand says nothing about this one
        return events

    def skip_ahead(self) -> None:
        """Computers play without pauses until a human's decision is awaited."""
        self.fast_forward = True

    def set_speed(self, speed: str) -> None:
        self.pace = Pace(speed)  # raises ValueError for an unknown speed

    # -- undo ---------------------------------------------------------------------------------

    def undo_refused(self) -> str | None:
        """Why the human may not take back a decision now, or None if they may."""
        if not self.undo_allowed:
            return "Undo is off at a served table."
        humans = self.humans
        if len(humans) != 1:
            return "Undo is only for one human against computers, not in hot-seat."
        if self.over:
            return "The match is over."
        if not any(seat == humans[0] for seat, _ in self.match.history):
            return "You have made no decision to take back yet."
        return None

    def undo(self) -> Undo:
        """Take back the human's last decision and everything the computers did after it.

        The match is rebuilt from its seed and the actions before it (the engine is
        deterministic, so a redrawn card is the same card: undo cannot fish for a better
        draw). A card the human had to keep goes back with the draw that brought it.
        IllegalAction if undo is not allowed now (see ``undo_refused``).
        """
        from unotable.engine import IllegalAction

        refused = self.undo_refused()
        if refused is not None:
            raise IllegalAction(refused)
        human = self.humans[0]
        history = [(seat, str(action)) for seat, action in self.match.history]
        at = max(i for i, (seat, _) in enumerate(history) if seat == human)
        while True:
            rebuilt = self._rebuilt(history[:at])
            if at == 0 or not self._forced_keep_in(rebuilt):
                break
            at = max((i for i, (seat, _) in enumerate(history[:at]) if seat == human), default=0)
        undo = Undo(at, tuple(history[at:]))
        self.match = rebuilt
        self.undos.append(undo)
        self._epoch += 1
        self._kept.clear()
        self._ready.clear()
        self._showing = None
        self._hand_ended_at = None
        self._hand_log_start = _hand_start(rebuilt)
        self.fast_forward = False
        self.hands_moved = True
        self._moved()
        if self.on_action is not None:
            self.on_action(self)
        return undo

    def _rebuilt(self, actions: Sequence[tuple[int, str]]) -> Match:
        match = self.spec.new_match(self.match.players, dict(self.match.options), self.match.seed)
        replay_actions(match, actions)
        return match

    def _forced_keep_in(self, match: Match) -> bool:
        current, self.match = self.match, match
        try:
            return self._forced_keep() is not None
        finally:
            self.match = current

    # -- humans -------------------------------------------------------------------------------

    def submit(
        self, intent: Intent | tuple[int, Action | str] | int, action: Action | str | None = None
    ) -> list[Event]:
        """A human's choice: ``submit(Intent)``, ``submit((seat, action))`` or
        ``submit(seat, action)``. Raises IllegalAction or NotationError, changing nothing."""
        from unotable.engine import IllegalAction

        if isinstance(intent, int) and not isinstance(intent, bool):
            if action is None:
                raise IllegalAction("say which action the seat takes")
            intent = Intent(intent, str(action))
        elif isinstance(intent, tuple):
            intent = Intent(intent[0], str(intent[1]))
        if not isinstance(intent, Intent):
            raise IllegalAction(f"not an intent: {intent!r}")
        seat = intent.seat
        if not 0 <= seat < len(self.seats) or not self.is_human(seat):
            raise IllegalAction(f"seat {seat} is not a human's seat")
        if intent.version is not None and intent.version != self.version:
            raise IllegalAction("the table has moved on since you chose; look again")
        return self.apply(seat, intent.action)

    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Apply one action; raises IllegalAction (or NotationError) changing nothing.

        A human's drawn card that cannot be played is kept at once (its events are returned
        too): the engine still asks, so that nobody else learns whether it matched.
        """
        if isinstance(action, str):
            action = self.match.parse_action(action)
        events = list(self.match.apply(seat, action))
        self._missed.pop(seat, None)
        self._note_private_show(events)
        self._moved()
        self._kept.pop(seat, None)
        events += self._keep_if_forced()
        if any(event.kind in _HANDS_MOVED_EVENTS for event in events):
            self.hands_moved = True
        if self.on_action is not None:
            self.on_action(self)
        return events

    def _note_private_show(self, events: Sequence[Event]) -> None:
        """Hot-seat: a human shown another hand sees it before the keyboard moves on."""
        if not (self.hot_seat and self.one_screen):
            return
        for event in events:
            shown_to = event.private_to
            if event.kind == "reveal" and shown_to and len(shown_to) == 1:
                (seat,) = shown_to
                if self.is_human(seat):
                    self._showing = (seat, event)

    def seen(self, seat: int) -> None:
        """``seat`` has seen the hand shown to them: the screen may move on."""
        if self._showing is not None and self._showing[0] == seat:
            self._showing = None

    def _moved(self) -> None:
        self._since = self.clock.now()
        if self.match.hand_over and self._hand_ended_at is None:
            self._hand_ended_at = self._since
        if self.viewer is not None and self.hot_seat:
            turn = self.turn()
            if not turn.human or turn.seat != self.viewer:
                self.viewer = None  # their decisions are done: the next human is handed over
        if self.fast_forward and not self.match.hand_over:
            turn = self.turn()
            if turn.over or turn.human:
                self.fast_forward = False  # skipped ahead as far as the next human decision

    def _keep_if_forced(self) -> list[Event]:
        forced = self._forced_keep()
        if forced is None:
            return []
        seat, keep = forced
        self._kept[seat] = getattr(self.match.view(seat), "drawn", None)  # from its own view
        events = self.match.apply(seat, keep)
        self._moved()
        return events

    def _forced_keep(self) -> tuple[int, Action] | None:
        """(seat, keep) when a human's only choice is to keep the card it just drew.

        Computers take their forced keep as an ordinary, paced turn: keeping at once would
        show watchers, by the missing pause, that the drawn card did not match.
        """
        seat = self.match.current
        if seat is None or self.match.over or self.match.hand_over:
            return None
        if not self.seats[seat].is_human:
            return None
        turn_actions = [a for a in self.legal(seat) if a.kind not in OUT_OF_TURN_KINDS]
        forced = self.match.spec.facts.forced_kinds  # UNO: keeping the card just drawn
        if len(turn_actions) == 1 and turn_actions[0].kind in forced:
            return seat, turn_actions[0]
        return None

    # -- privacy and hand-overs -----------------------------------------------------------

    def needs_handover(self, seat: int) -> bool:
        """True when ``seat`` (a human) must be handed the keyboard before seeing cards."""
        if not self.hot_seat:
            return False
        return self.viewer != seat or self.hands_moved

    def show_to(self, seat: int) -> None:
        """Record that ``seat`` has taken the keyboard: its cards may now be on screen."""
        self.viewer = seat
        self.hands_moved = False

    def screen_seat(self) -> int | None:
        """Whose cards the shared screen may show now (None: nobody's).

        One human: always theirs. Hot-seat: a human's, only from their hand-over to their
        last decision; between decisions (computers' turns, a finished hand) nobody's.
        """
        humans = self.humans
        if not humans:
            return None
        if not self.hot_seat:
            return humans[0]
        if self._showing is not None:
            return self._showing[0]  # a hand shown to them alone: theirs until seen
        turn = self.turn()
        if turn.human and turn.seat == self.viewer and not self.hands_moved:
            return self.viewer
        return None

    def display_seat(self) -> int | None:
        return self.screen_seat()

    def recent(self, viewer: int | None) -> tuple[Event, ...]:
        """The current hand's latest events, as ``viewer`` may see them."""
        log = self.match.log
        start = max(self._hand_log_start, len(log) - RECENT_EVENTS)
        return tuple(e.seen_by(viewer) for e in log[start:])

    def snapshot(self, viewer: int | None, since: int = 0, spectator: bool = False) -> Snapshot:
        """What ``viewer`` may see and do now; the log from ``since`` on."""
        match = self.match
        view = match.view(viewer)
        turn = self.turn()
        if viewer is not None and turn.seat != viewer and self._acts_now(viewer):
            turn = Turn(viewer, True)  # several seats choose at once (passing): this one too
        exposed = self.exposed()
        catchers = tuple(h for h in self.humans if exposed is not None and self.catch_action(h))
        late = (
            exposed
            if exposed is not None
            and self.is_human(exposed)
            and self.late_call_action(exposed) is not None
            else None
        )
        handover = None
        if turn.human and turn.seat is not None and self.needs_handover(turn.seat):
            handover = turn.seat
        log = match.log
        return Snapshot(
            version=self.version,
            game=self.spec.id,
            viewer=viewer,
            seats=tuple(
                SeatInfo(s.name, s.kind, s.label, self.fallbacks.get(i))
                for i, s in enumerate(self.seats)
            ),
            view=view,
            waiting_on=turn.seat,
            waiting_human=turn.human,
            hand_over=turn.hand_over,
            over=turn.over,
            handover_to=handover,
            exposed=exposed,
            catchers=catchers,
            late_caller=late,
            kept=self.kept_card(viewer) if viewer is not None else None,
            events=tuple(e.seen_by(viewer) for e in log[since:]),
            log_start=since,
            log_length=len(log),
            hand_results=tuple(match.hand_results),
            winners=tuple(match.winners),
            recent=self.recent(viewer),
            not_ready=self.not_ready() if match.hand_over else (),
            deal_in=self._deal_in(),
            spectator=spectator,
            fast_forward=self.fast_forward,
            undo_refused=self.undo_refused(),
            turn_ends_in=self._turn_ends_in(),
            shown=self._showing[1] if self._showing and self._showing[0] == viewer else None,
        )

    def _turn_ends_in(self) -> float | None:
        deadline = self.turn_deadline()
        return None if deadline is None else max(0.0, round(deadline - self.clock.now(), 1))

    def _deal_in(self) -> float | None:
        at = self.deal_at() if self.match.hand_over else None
        return None if at is None else max(0.0, round(at - self.clock.now(), 1))


def _earliest(moments: Sequence[float | None]) -> float | None:
    found = [m for m in moments if m is not None]
    return min(found) if found else None


def _hand_start(match: Match) -> int:
    """Where the latest hand's events begin in ``match``'s log (after its deal)."""
    log = match.log
    for index in range(len(log) - 1, -1, -1):
        if log[index].kind == "deal" and (index == 0 or log[index - 1].kind != "deal"):
            return index
    return 0
