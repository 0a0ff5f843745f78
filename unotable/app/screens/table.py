"""The table: seats, the pile or trick, the hand of the human to act, status and log.

The screen applies no rule and drives nothing: it draws the controller's snapshot for
whoever may look at the screen now, sends the humans' choices back as intents, and runs
each computer's thinking in a worker thread when the controller says it is due.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, RichLog, Static
from textual.worker import Worker, WorkerState

from unotable.controller import Controller, Intent, Pace, Request, Snapshot
from unotable.engine import OUT_OF_TURN_KINDS, Action, EngineError, Event

from ..describe import describe
from ..games import GamePresentation, presentation_for
from ..widgets.center import CenterPanel
from ..widgets.hand import NUMBER_KEYS, HandView
from ..widgets.seats import SeatsPanel
from ..widgets.tracker import TrackerPanel
from ..words import plural
from . import prompts
from .common import TooSmall, screen_too_small

# Kinds answered in a dialog rather than by picking a card from the hand.
DIALOG_KINDS = ("color", "challenge", "direction", "give", "moon", "keep", "decline")


class TableScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "◀ ▶ card", show=False),
        Binding("right", "cursor(1)", "Next card", show=False),
        Binding("enter,space", "play", "Play"),
        Binding("d", "draw", "Draw"),
        Binding("u", "uno", "UNO!"),
        Binding("c", "catch", "Catch"),
        Binding("s", "sort", "Sort"),
        Binding("t", "last_trick", "Last trick"),
        Binding("h", "hint", "Hint"),
        Binding("g", "toggle_log", "Log"),
        Binding("k", "toggle_tracker", "Tracker"),
        Binding("f", "skip_ahead", "Skip ahead"),
        Binding("z", "undo", "Undo"),
        Binding("question_mark", "keys", "Keys"),
        Binding("f1", "rules", "Rules", show=False),
        Binding("o", "settings", "Settings", show=False),
        Binding("q", "request_quit", "Quit"),
        Binding("m", "chat", "Chat"),
        *[Binding(key, f"pick({i})", show=False) for i, key in enumerate(NUMBER_KEYS)],
    ]

    def __init__(self, controller: Controller) -> None:
        super().__init__(classes="table")
        self.controller = controller
        # a seat at a server's shared table (a RemoteTable): it drives nothing itself
        self.shared = bool(getattr(controller, "shared", False))
        self.game_id = controller.game_id
        self.sort_by = "suit"
        self.uno_marked = False
        self.error = ""
        self.recent: list[Event] = []  # the last few events, as the viewer then saw them
        self._style_key: tuple[str, bool] | None = None
        self._dialog_open = False
        self._thinking: Request | None = None  # a computer's turn being thought about
        self._timer: Timer | None = None  # wakes the table when the next computer is due
        self._paused = False
        self._log_viewer: int | str | None = "unset"
        self._log_count = 0
        self.snap: Snapshot = controller.snapshot(controller.screen_seat())
        self._events_seen = self.snap.log_length
        self._results_shown = len(self.snap.hand_results)
        self._leaving = False
        self._footer_keys: tuple[bool | None, ...] = ()
        self._hint: tuple[int, str] | None = None  # (snapshot version, the hint's words)

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="table-top"):
            yield SeatsPanel(id="seats")
            yield CenterPanel(id="center")
            yield RichLog(id="log", wrap=True, min_width=20, max_lines=2000, markup=False)
            yield TrackerPanel(id="tracker")
        with Vertical(id="hand-box"):
            yield HandView(id="hand")
        yield Static("", id="status")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#log", RichLog).border_title = "Log"
        self.query_one("#seats").border_title = "Seats"
        code = getattr(self.controller, "code", None)
        if self.shared and code:  # what a player needs to sit down again from elsewhere
            self.query_one("#seats").border_subtitle = f"rejoin code {code}"
        if self.shared:  # a countdown while a player is away
            self.set_interval(1.0, self._tick_shared)
        self.query_one(TrackerPanel).border_title = "Tracker"
        self.query_one(TrackerPanel).display = False
        wide = self.app.size.width >= 120
        self.query_one("#log").display = wide
        self.call_after_refresh(self.advance)

    # -- what is on screen ----------------------------------------------------------------

    @property
    def card_style(self) -> GamePresentation:
        app: Any = self.app
        return presentation_for(self.game_id, app.card_theme, app.ascii_cards)

    def names(self) -> list[str]:
        return [s.name for s in self.snap.seats]

    def kinds(self) -> list[str]:
        if self.shared:
            return self.controller.seat_labels() or [s.label for s in self.snap.seats]
        return [s.label for s in self.snap.seats]

    def acting_human(self) -> int | None:
        """The human whose decision is awaited and whose cards are on screen, if any."""
        return self.snap.viewer if self.snap.my_turn else None

    def take_snapshot(self) -> Snapshot:
        """The controller's snapshot for whoever may look at the screen now."""
        c = self.controller
        viewer = c.screen_seat()
        if viewer != self._log_viewer:
            self._log_count = 0  # another viewer: their own log, from the start
        since = min(self._log_count, self._events_seen)
        self.snap = c.snapshot(viewer, since=since)
        return self.snap

    def refresh_table(self) -> None:
        if not self.is_mounted:
            return
        c = self.controller
        app: Any = self.app
        if c.pace.speed != app.prefs.speed:
            c.pace = Pace(app.prefs.speed)
        snap = self.take_snapshot()
        view, viewer = snap.view, snap.viewer
        cards = self.card_style
        names = self.names()
        self.query_one(SeatsPanel).show(view, names, self.kinds(), snap.waiting_on, viewer, cards)
        recent = [describe(event, names, cards) for event in self.recent]
        self.query_one(CenterPanel).show(view, names, cards, [r for r in recent if r])
        if (cards.theme, cards.ascii_only) != self._style_key:
            self._style_key = (cards.theme, cards.ascii_only)
            self._log_viewer = "unset"  # redraw the log in the new card style
        hand = self.query_one(HandView)
        box = self.query_one("#hand-box")
        if viewer is None:
            box.border_title = "Cards hidden"
            hand.hide("Cards are hidden until the next player takes the keyboard.")
        else:
            ordered = cards.sort(view.hand, self.sort_by)
            playable = set()
            if snap.my_turn:
                legal_cards = {a.card for a in snap.actions if a.kind == "play"}
                playable = {i for i, card in enumerate(ordered) if card in legal_cards}
            hand.show(ordered, playable, cards)
            mine = names[viewer] == "You" or self.shared  # a shared table: one player's screen
            owner = "Your hand" if mine else f"{names[viewer]}'s hand"
            box.border_title = f"{owner} ({plural(len(ordered), 'card')})"
        self.query_one("#status", Static).update(self.status_text())
        self._update_log(snap)
        self.query_one(TrackerPanel).show(snap, names, cards)
        # The footer rebuilds itself on refresh_bindings: only when the keys really change.
        keys = tuple(
            self.check_action(name, ())
            for name in ("play", "draw", "uno", "catch", "last_trick", "skip_ahead", "undo", "hint")
        )
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.refresh_bindings()

    def _update_log(self, snap: Snapshot) -> None:
        log = self.query_one("#log", RichLog)
        if snap.viewer != self._log_viewer:
            log.clear()  # the snapshot holds this viewer's whole log
            self._log_viewer = snap.viewer
        names, cards = self.names(), self.card_style
        for index, event in enumerate(snap.events, snap.log_start):
            if index < self._log_count:
                continue
            line = describe(event, names, cards)
            if line:
                log.write(line)
        self._log_count = snap.log_length

    def status_text(self) -> Text:
        snap = self.snap
        text = Text()
        if self.error:
            text.append("✗ " if not self.card_style.ascii_only else "x ", style="bold red")
            text.append(self.error + "\n", style="bold")
        names = self.names()
        if snap.over:
            text.append("The match is over.")
            return text
        if snap.hand_over:
            text.append("The hand is over.")
            return text
        seat = snap.waiting_on
        assert seat is not None
        if snap.exposed is not None and snap.catchers:
            text.append(
                f"{names[snap.exposed]} has one card and did not call UNO: press C to catch!\n",
                style="bold",
            )
        if snap.kept is not None:  # the controller kept it: say why, to this seat only
            label = self.card_style.label(snap.kept)
            text.append(f"You drew {label}: it does not match, so you keep it.\n")
        if snap.my_turn:
            if self._hint is not None and self._hint[0] == snap.version:
                text.append(f"Hint: {self._hint[1]}\n", style="italic")
            text.append(prompts.status_for(snap, self.card_style, self.uno_marked))
        elif self.shared:
            text.append(self.controller.waiting_words(seat))
        elif snap.waiting_human:
            text.append(f"Waiting for {names[seat]} to take the keyboard.")
        else:
            c = self.controller
            speed = "" if c.fast_forward else "  (F skips ahead to the next human decision)"
            text.append(f"{names[seat]} ({snap.seats[seat].label}) is playing…{speed}")
        return text

    # -- moving the match on --------------------------------------------------------------

    def advance(self) -> None:
        """Show results, hand the keyboard over, ask a human, or wait for the next computer."""
        if self._leaving or not self.is_mounted:
            return
        self.refresh_table()
        if self._dialog_open or self._thinking is not None:
            return
        if screen_too_small(*self.app.size):
            self._paused = True
            return
        snap = self.snap
        if len(snap.hand_results) > self._results_shown:
            self._show_scoreboard()
            return
        if snap.over:
            return
        if snap.handover_to is not None:
            self.controller.fast_forward = False
            self._hand_over(snap.handover_to)
            return
        if snap.my_turn:
            self.controller.fast_forward = False
            self._ask_human(snap.viewer)
        self._schedule()

    def _schedule(self) -> None:
        """Wake up when the controller's next computer action is due."""
        c = self.controller
        due = c.next_due()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if due is None:
            return
        delay = due - c.clock.now()
        if delay <= 0:
            self.call_later(self._tick)
        else:
            self._timer = self.set_timer(delay, self._tick)

    def _tick(self) -> None:
        self._timer = None
        c = self.controller
        if self._leaving or self._dialog_open or self._thinking is not None:
            return
        ask = c.due_ask()
        if ask is None:
            self.advance()
            return
        if ask.kind == "react":
            if c.perform(ask):
                self.after_action()
            else:
                self.advance()
            return
        request = c.request_for(ask)
        self._thinking = request
        self.run_worker(partial(c.think, request), thread=True, exit_on_error=False, group="think")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "think" or self._thinking is None:
            return
        if event.state not in (WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        request = self._thinking
        self._thinking = None
        c = self.controller
        if self._leaving:
            return
        if event.state == WorkerState.SUCCESS:
            c.deliver(request, event.worker.result)
            self.after_action()
        elif event.state == WorkerState.ERROR:
            self.notify(f"{c.name(request.seat)}'s computer player failed; it plays a legal card")
            legal = [a for a in c.legal(request.seat) if a.kind not in OUT_OF_TURN_KINDS]
            c.deliver(request, legal[0])
            self.after_action()
        else:
            self.advance()

    def after_action(self) -> None:
        """Note what just happened, then move on."""
        snap = self.take_snapshot()
        names, cards = self.names(), self.card_style
        new = [
            event
            for index, event in enumerate(snap.events, snap.log_start)
            if index >= self._events_seen
        ]
        for event in new:
            line = describe(event, names, cards)
            if line and event.kind not in ("deal", "hand"):
                self.recent.append(event)  # shown in the centre's recent lines, not as a toast
        self.recent = self.recent[-6:]
        self._events_seen = snap.log_length
        self.advance()

    # -- humans ---------------------------------------------------------------------------

    def _hand_over(self, seat: int) -> None:
        from .handover import HandOverScreen

        snap = self.snap
        exposed = snap.exposed if seat in snap.catchers else None
        self._dialog_open = True
        self.app.push_screen(
            HandOverScreen(snap.name(seat), snap.name(exposed) if exposed is not None else None),
            partial(self._handed_over, seat),
        )

    def _handed_over(self, seat: int, answer: str | None) -> None:
        self._dialog_open = False
        c = self.controller
        snap = self.snap
        if answer == "catch" and snap.exposed is not None and seat in snap.catchers:
            c.submit(Intent(seat, f"catch:{snap.exposed}"))
        c.show_to(seat)
        self.error = ""
        self.after_action()

    def _ask_human(self, seat: int | None) -> None:
        if seat is None:
            return
        legal = [a for a in self.snap.actions if a.kind not in OUT_OF_TURN_KINDS]
        kinds = {a.kind for a in legal}
        if kinds & set(DIALOG_KINDS):
            self._dialog_open = True
            prompts.ask(self, seat, legal, partial(self._answered, seat))
        self.refresh_table()

    def _answered(self, seat: int, action: Action | None) -> None:
        self._dialog_open = False
        if action is not None:
            self.send(seat, action)
        else:
            self.advance()

    def send(self, seat: int, action: Action) -> bool:
        """Send a human's intent; an illegal one shows the engine's reason and changes nothing."""
        try:
            self.controller.submit(Intent(seat, str(action)))
        except EngineError as error:
            self.error = str(error)
            self.refresh_table()
            self.advance()
            return False
        self.error = ""
        if action.kind == "play":
            self.uno_marked = False
        self.after_action()
        return True

    # -- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        snap = self.snap
        seat = self.acting_human()
        kinds = {a.kind for a in snap.actions} if seat is not None else set()
        uno_game = self.card_style.has_uno_calls
        if action in ("play", "cursor", "pick"):
            return seat is not None and "play" in kinds
        if action == "draw":
            return seat is not None and bool(kinds & {"draw", "pass"})
        if action == "uno":
            return uno_game and (snap.late_caller is not None or "play" in kinds)
        if action == "catch":
            return uno_game and bool(snap.catchers)
        if action == "last_trick":
            return self.card_style.has_tricks
        if action == "skip_ahead":
            busy = snap.over or snap.hand_over or snap.waiting_human
            return not self.shared and not busy
        if action == "chat":
            return self.shared
        if action == "undo":
            return self.controller.undo_refused() is None
        if action == "hint":
            return seat is not None and not self._dialog_open
        return True

    def _catcher(self) -> int | None:
        """The human who catches when C is pressed: the one at the keyboard, if they may."""
        snap = self.snap
        if snap.viewer in snap.catchers:
            return snap.viewer
        return snap.catchers[0] if snap.catchers else None

    def action_cursor(self, step: int) -> None:
        self.query_one(HandView).move(step)

    def action_pick(self, index: int) -> None:
        hand = self.query_one(HandView)
        if index < len(hand.cards):
            hand.cursor = index
            self.action_play()

    @on(HandView.Picked)
    def _picked(self, event: HandView.Picked) -> None:
        if self.acting_human() is not None:
            self.action_play()

    def action_play(self) -> None:
        seat = self.acting_human()
        hand = self.query_one(HandView)
        if seat is None or self._dialog_open or not hand.cards:
            return
        card = hand.cards[hand.cursor]
        plays = [a for a in self.snap.actions if a.kind == "play" and a.card is card]
        if not plays:
            self.send(seat, prompts.attempt(self.card_style, card))
            return
        wanted = [a for a in plays if a.uno == self.uno_marked] or [a for a in plays if not a.uno]
        if len(wanted) == 1:
            self.send(seat, wanted[0])
            return
        self._dialog_open = True
        prompts.ask_declaration(self, card, wanted, partial(self._answered, seat), self.card_style)

    def action_draw(self) -> None:
        seat = self.acting_human()
        if seat is None or self._dialog_open:
            return
        legal = self.snap.actions
        for kind in ("draw", "pass"):
            for action in legal:
                if action.kind == kind:
                    self.send(seat, action)
                    return

    def action_uno(self) -> None:
        late = self.snap.late_caller
        if late is not None:
            self.send(late, Action("uno"))
            return
        if self.acting_human() is not None:
            self.uno_marked = not self.uno_marked
            self.refresh_table()

    def action_catch(self) -> None:
        seat = self._catcher()
        if seat is None:
            self.error = "Nobody can be caught right now."
            self.refresh_table()
            return
        exposed = self.snap.exposed
        if exposed is not None:
            self.send(seat, Action("catch", target=exposed))

    def action_sort(self) -> None:
        self.sort_by = "value" if self.sort_by == "suit" else "suit"
        self.notify(f"Sorted by {'value' if self.sort_by == 'value' else 'colour or suit'}")
        self.refresh_table()

    def action_toggle_log(self) -> None:
        log = self.query_one("#log")
        log.display = not log.display
        self._arrange_middle(self.app.size.width, "log")

    def action_toggle_tracker(self) -> None:
        tracker = self.query_one(TrackerPanel)
        tracker.display = not tracker.display
        self._arrange_middle(self.app.size.width, "tracker")
        self.refresh_table()

    def _arrange_middle(self, width: int, first: str = "") -> None:
        """Below 120 columns the log or the tracker takes the middle's place rather than
        squeezing it; below 160 the one opened (``first``) also takes the other's."""
        log, tracker = self.query_one("#log"), self.query_one(TrackerPanel)
        if log.display and tracker.display and width < 160:
            (tracker if first == "log" else log).display = False
        self.query_one(CenterPanel).display = width >= 120 or not (log.display or tracker.display)

    def action_hint(self) -> None:
        """What the Normal computer would do, and why; the cursor moves to its card."""
        from unotable.ai.hint import hint

        from ..hints import hint_sentence

        if self.acting_human() is None or self._dialog_open:
            return
        advice = hint(self.snap.view, self.game_id)
        if advice is None:
            return
        self._hint = (self.snap.version, hint_sentence(advice, self.card_style, self.names()))
        if advice.action.kind == "play":
            hand = self.query_one(HandView)
            for index, card in enumerate(hand.cards):
                if card is advice.action.card:
                    hand.cursor = index
                    break
            if advice.action.uno:
                self.uno_marked = True  # so Enter plays exactly what the hint says
        self.refresh_table()

    def action_skip_ahead(self) -> None:
        self.controller.fast_forward = True
        self.notify("Skipping ahead to the next human decision")
        self.advance()

    def action_undo(self) -> None:
        """Take back the human's last decision and what the computers did after it."""
        from unotable.engine import IllegalAction

        c = self.controller
        if self._dialog_open:
            return
        try:
            undo = c.undo()
        except IllegalAction as refused:
            self.notify(str(refused), severity="warning")
            return
        mine = [text for seat, text in undo.taken_back if seat == self.snap.viewer]
        others = len(undo.taken_back) - len(mine)
        after = f", and {others} computer move{'s' * (others != 1)} after it" if others else ""
        self.notify(f"Took back {', '.join(mine) or 'your move'}{after}.", timeout=4)
        # the log and the results start again from the rebuilt match
        self.recent = []
        self.error = ""
        self.uno_marked = False
        self._log_viewer = "unset"
        self.snap = c.snapshot(c.screen_seat())
        self._events_seen = self.snap.log_length
        self._results_shown = len(self.snap.hand_results)
        self.advance()

    def action_last_trick(self) -> None:
        from .trick import LastTrickScreen

        view = self.snap.view
        if getattr(view, "last_trick", None) is None:
            self.notify("No trick has been completed yet.")
            return
        self.app.push_screen(LastTrickScreen(view, self.names(), self.card_style))

    def action_keys(self) -> None:
        from .help import KeysScreen

        self.app.push_screen(KeysScreen())

    def action_rules(self) -> None:
        from .help import RulesScreen

        self.app.push_screen(RulesScreen(self.game_id))

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen(), lambda _: self.refresh_table())

    def action_request_quit(self) -> None:
        if self.controller.over:
            self._leave("lobby")
            return
        self._ask_leave()

    def _ask_leave(self, then: Any = None) -> None:
        """Ask whether to leave; ``then`` runs if the player stays."""
        from .common import ChoiceScreen

        def answered(answer: str | None) -> None:
            if answer in ("lobby", "quit"):
                self._leave(answer)
            elif then is not None:
                then()

        saved = " It is saved: in the lobby, Continue or Saved matches (M) picks it up again."
        self.app.push_screen(
            ChoiceScreen(
                "Leave this match?",
                [("stay", "Keep playing"), ("lobby", "Back to the lobby"), ("quit", "Quit")],
                explanation="The match stops here." + saved,
                dialog_id="quit-dialog",
            ),
            answered,
        )

    def _leave(self, where: str | None) -> None:
        self._leaving = True
        if self.shared:
            self.run_worker(self.controller.leave(), group="leave")
        if self._timer is not None:
            self._timer.stop()
        self.workers.cancel_group(self, "think")
        if where == "quit":
            self.app.exit()
        else:
            self._pop_table()

    def _pop_table(self) -> None:
        """Close the table and any dialog of its still open, one screen at a time."""
        top = self.app.screen
        if self not in self.app.screen_stack:
            return
        if top is self:
            self.app.pop_screen()
            return
        if not top.has_class("quit-dialog"):  # the quit dialog is closing itself
            self.app.pop_screen()
        self.set_timer(0.05, self._pop_table)

    def _restart(self, fresh: Controller) -> None:
        """Play again: the same table, a new match (the screen stack stays as it is)."""
        app: Any = self.app
        fresh.on_action = app.autosave
        fresh.undo_allowed = self.controller.undo_allowed
        self.controller = fresh
        self.recent = []
        self.error = ""
        self.uno_marked = False
        self._thinking = None
        self._log_viewer = "unset"
        self.snap = fresh.snapshot(fresh.screen_seat())
        self._events_seen = self.snap.log_length
        self._results_shown = len(self.snap.hand_results)
        self.advance()

    # -- results --------------------------------------------------------------------------

    def _show_scoreboard(self) -> None:
        from .scoreboard import ScoreboardScreen

        c = self.controller
        self._dialog_open = True
        self.app.push_screen(ScoreboardScreen(c.snapshot(c.screen_seat())), self._after_scoreboard)

    def _after_scoreboard(self, answer: str | None) -> None:
        c = self.controller
        self._dialog_open = False
        self._results_shown = len(c.hand_results)
        if answer == "leave" and not c.over:
            self._ask_leave(then=self._show_scoreboard)  # staying brings the scores back
            return
        if not c.over:
            if c.hand_over:
                c.next_hand()  # the finished hand was on screen until now
            self.recent = []
            self.after_action()
            return
        if answer == "again" and not self.shared:
            seats = list(c.seats)
            fresh = Controller(
                c.game_id, seats, dict(c.match.options), None, clock=c.clock, speed=c.pace.speed
            )
            self._restart(fresh)
        elif answer == "quit":
            self._leave("quit")
        else:
            self._leave("lobby")

    # -- shared tables --------------------------------------------------------------------

    def remote_update(self, news: str) -> None:
        """The shared table sent something: show it (called on the app's loop)."""
        c: Any = self.controller
        if self._leaving or not self.is_attached:
            return  # news for a screen already gone (the app is closing)
        if news == "refused" and c.refusal:
            self.error = c.refusal
            self.refresh_table()
            self.advance()
        elif news == "chat" and c.chat:
            line = c.chat[-1]
            who = line.get("from")
            self.notify(f"{who}: {line['text']}" if who else line["text"], timeout=6)
        elif news == "closed":
            self.notify(f"Shared table: {c.closed_reason}", severity="warning", timeout=10)
        else:
            self.error = ""
            self.after_action()

    def _tick_shared(self) -> None:
        presence = getattr(self.controller, "presence", [])
        if any(p.get("back_within") is not None for p in presence) and not self._leaving:
            self.query_one("#status", Static).update(self.status_text())

    def action_chat(self) -> None:
        from .chat import ChatScreen

        c: Any = self.controller

        def said(line: tuple[str | None, int | None] | None) -> None:
            if line is not None:
                c.say(*line)

        self.app.push_screen(ChatScreen(), said)

    # -- terminal size --------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        log = self.query_one("#log")
        if event.size.width >= 120 and not log.display:
            log.display = True
        self._arrange_middle(event.size.width, "tracker")
        if self._paused and not screen_too_small(event.size.width, event.size.height):
            self._paused = False
            self.call_after_refresh(self.advance)
