"""The table: seats, the pile or trick, the hand of the human to act, status and log.

The screen applies no rule, drives nothing and keeps no match state: it holds the newest
snapshot its table sent (``snapshot``, a reactive) and draws everything from it, the
dialogs included, so nothing on screen outlives the state that produced it. A player's
choices go back to the table as intents.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import RichLog, Static

from unotable.controller import (
    Intent,
    Leave,
    News,
    Ready,
    Say,
    Seen,
    SetSpeed,
    SkipAhead,
    Snapshot,
    Table,
    TakeBack,
    TookKeyboard,
)
from unotable.engine import OUT_OF_TURN_KINDS, Action

from ..describe import describe
from ..games import GamePresentation, presentation_for
from ..memory import give_back_freed_memory
from ..upstream import forget_gone_widgets_styles, refit_height
from ..widgets.center import CenterPanel
from ..widgets.hand import KEY_NAMES, HandView
from ..widgets.keysbar import KeysBar
from ..widgets.rows import rows
from ..widgets.seats import SeatsPanel
from ..widgets.tracker import TrackerPanel
from ..words import plural
from . import prompts
from .common import TooSmall, keys_from_now, keys_since, screen_too_small

# Kinds answered in a dialog rather than by picking a card from the hand.
DIALOG_KINDS = ("color", "challenge", "direction", "give", "moon", "keep", "decline", "swap")
RECENT_LINES = 6
SKIPPED = ("deal", "hand")  # in the log, not among the centre's recent lines
COUNTDOWN = 15  # seconds: a turn's time shows only when this little is left
LOG_LINES = 2000  # the log panel keeps this many lines
STATUS_MAX_ROWS = 4  # app.tcss: #status { max-height: 4 }
STATUS_KEPT_ROWS = 2  # the status line's height kept through a hand (_fit_heights)


@dataclass(frozen=True)
class _Opened:
    """A dialog this screen opened because of the snapshot: why (``reason``) and which."""

    reason: tuple[Any, ...]  # what in the snapshot asked for it; gone -> it closes
    screen: Screen[Any]


# what a dialog asks, as far as its player can see it
_QUESTION = ("title_text", "choices", "explanation", "player", "exposed")


def same_question(old: _Opened, new: _Opened) -> bool:
    """Both dialogs ask the same of the same player (the same words, the same answers)."""
    if old.reason[:2] != new.reason[:2] or type(old.screen) is not type(new.screen):
        return False
    return all(getattr(old.screen, f, None) == getattr(new.screen, f, None) for f in _QUESTION)


class TableScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "cursor(-1)", "◀ ▶ card", show=False, id="table.cursor-left"),
        Binding("right", "cursor(1)", "Next card", show=False, id="table.cursor-right"),
        Binding("enter,space", "play", "Play", id="table.play"),
        Binding("d", "draw", "Draw", id="table.draw"),
        Binding("u", "uno", "UNO!", id="table.uno"),
        Binding("c", "catch", "Catch", id="table.catch"),
        Binding("s", "sort", "Sort", id="table.sort"),
        Binding("t", "last_trick", "Last trick", id="table.last-trick"),
        Binding("h", "hint", "Hint", id="table.hint"),
        Binding("g", "toggle_log", "Log", id="table.log"),
        Binding("k", "toggle_tracker", "Tracker", id="table.tracker"),
        Binding("f", "skip_ahead", "Skip ahead", id="table.skip-ahead"),
        Binding("z", "undo", "Undo", id="table.undo"),
        Binding("question_mark", "keys", "Keys", id="table.keys"),
        Binding("f1", "rules", "Rules", show=False, id="table.rules"),
        Binding("o", "settings", "Settings", show=False, id="table.settings"),
        Binding("q", "request_quit", "Quit", id="table.quit"),
        Binding("m", "chat", "Chat", id="table.chat"),
        # when the action above is off, the same key says why (a keymap moves both)
        Binding("z", "explain('undo')", show=False, id="table.undo-why"),
        Binding("u", "explain('uno')", show=False, id="table.uno-why"),
        Binding("c", "explain('catch')", show=False, id="table.catch-why"),
        *[
            Binding(key, f"pick({i})", show=False, id=f"table.pick-{i + 1}")
            for i, key in enumerate(KEY_NAMES)
        ],
    ]

    # repaint=False: the watcher redraws the panels that changed; a repaint of the whole
    # screen made every snapshot a full frame (about 8% more work a move at 8 seats)
    snapshot: reactive[Snapshot | None] = reactive(
        None, init=False, always_update=True, repaint=False
    )

    def __init__(self, table: Table) -> None:
        super().__init__(classes="table")
        self.table = table
        self.shared = table.shared
        self.game_id = table.game_id
        self.sort_by = "suit"
        self.uno_marked = False
        self._error: tuple[int, str] | None = None  # (snapshot version, the table's reason)
        self._hint: tuple[int, str] | None = None  # (snapshot version, the hint's words)
        self._opened: _Opened | None = None
        self._replaced: _Opened | None = None  # a dialog reconcile closed unanswered
        self._ready_for: int | None = None  # the finished hand this terminal is ready after
        self._card_style: tuple[tuple[str, str, bool], GamePresentation] | None = None
        self._offers: tuple[Snapshot, _Opened | None, dict[str, bool]] | None = None
        self._log_key: tuple[Any, ...] | None = None  # whose log, in which card style
        self._log_count = 0
        # lines for the log while it is hidden: Textual's RichLog keeps every line written
        # before it first has a size, past its max_lines (a log hidden all evening grew)
        self._unwritten: deque[str] = deque(maxlen=LOG_LINES)
        self._clock: Timer | None = None  # redraws a countdown each second (shared tables)
        self._hand_seen: int | None = None
        self._leaving = False
        self._panels: tuple[Widget, ...] = ()  # once composed: one gone, the table is closing
        self._open_after_frame = False  # a dialog is to open once the table has drawn
        self._snap_at = time.monotonic()
        self.snap_speed: str | None = None  # the speed last sent to the table
        self._was_wide = False
        self._heights = (0, 0)  # the hand's and the status line's lines, as last drawn
        self._status_rows = 1  # the status line's tallest text this hand: its height till the next
        self.set_reactive(TableScreen.snapshot, table.snapshot)

    @property
    def snap(self) -> Snapshot:
        snap = self.snapshot
        assert snap is not None
        return snap

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmall()
        with Horizontal(id="table-top"):
            yield SeatsPanel(id="seats")
            yield CenterPanel(id="center")
            yield RichLog(id="log", wrap=True, min_width=20, max_lines=LOG_LINES, markup=False)
            yield TrackerPanel(id="tracker")
        with Vertical(id="hand-box"):
            yield HandView(id="hand")
        yield Static("", id="status")
        yield KeysBar(id="keys", palette=False)

    def on_mount(self) -> None:
        if not self.query("#log"):
            return  # the app closed while this screen was being built: nothing to draw
        drawn = "#seats, #center, #log, #tracker, #hand-box, #hand, #status, #keys"
        self._panels = tuple(self.query(drawn))
        self.query_one("#log", RichLog).border_title = "Log"
        self.query_one("#seats").border_title = "Seats"
        if self.table.rejoin_code:  # what a player needs to sit down again from elsewhere
            code = Text(f"rejoin code {self.table.rejoin_code}")
            self.query_one("#seats").border_subtitle = code
        if self.shared:  # countdowns (a turn's time, an away player's seat, the next deal)
            self._clock = self.set_interval(1.0, self._tick_shared, pause=True)
        self.query_one(TrackerPanel).border_title = "Tracker"
        self.query_one(TrackerPanel).display = False
        self._was_wide = self.app.size.width >= 120
        self.query_one("#log").display = self._was_wide
        for sender, text in self.table.recent_chat():  # said before this screen listened
            self._news(News("chat", text=text, sender=sender))
        self.table.listen(self._news)
        # drawn now, so the first layout is the table's (a first frame laid out for empty
        # panels showed the hand's keys and the status line cut); the newest after it
        self._draw(self.snap)
        self.call_after_refresh(self._take_newest)

    def _take_newest(self) -> None:
        self.snapshot = self.table.snapshot

    def on_screen_resume(self) -> None:
        self._refresh_keys()  # a dialog closed: its keys were shown meanwhile

    def on_unmount(self) -> None:
        self.table.unlisten(self._news)

    # -- news from the table --------------------------------------------------------------

    def _news(self, news: News) -> None:
        if self._leaving or not self.is_attached or self not in self.app.screen_stack:
            return  # news for a screen already gone, or going (its panels removed one by one)
        if news.kind == "snapshot" and news.snapshot is not None:
            self.snapshot = news.snapshot
        elif news.kind == "refused":
            self._error = (self.snap.version, news.text)
            self.draw(self.snap)
        elif news.kind == "chat":
            who = news.sender
            self.notify(f"{who}: {news.text}" if who else news.text, timeout=6, markup=False)
        elif news.kind == "closed":
            self.notify(f"Shared table: {news.text}", severity="warning", timeout=10, markup=False)
        elif news.text:
            self.notify(news.text, timeout=4, markup=False)

    def watch_snapshot(self, snap: Snapshot | None) -> None:
        self._snap_at = time.monotonic()  # the countdowns it carries start from here
        if snap is None or not self._showing:
            return  # a table already closed (Esc while joining): its panels may be gone
        self.draw(snap)
        self.reconcile()

    @property
    def _showing(self) -> bool:
        """Mounted and among the app's screens, its panels all there: a closing screen's,
        or a closing app's (while the table is still among its screens), are removed one
        by one, in no order to rely on."""
        return (
            self.is_mounted
            and self in self.app.screen_stack
            and bool(self._panels)
            and all(panel.is_attached for panel in self._panels)
        )

    # -- what is on screen ----------------------------------------------------------------

    @property
    def card_style(self) -> GamePresentation:
        # asked for by every key's check_action: made once per game, theme and card style
        app: Any = self.app
        key = (self.game_id, app.card_theme, app.ascii_cards)
        if self._card_style is None or self._card_style[0] != key:
            self._card_style = (key, presentation_for(*key))
        return self._card_style[1]

    def names(self) -> list[str]:
        return [s.name for s in self.snap.seats]

    def acting_human(self) -> int | None:
        """The human whose decision is awaited and whose cards are on screen, if any."""
        return self.snap.viewer if self.snap.my_turn else None

    @property
    def error(self) -> str:
        """The table's last refusal, while the table is where it was refused."""
        if self._error is not None and self._error[0] == self.snap.version:
            return self._error[1]
        return ""

    def draw(self, snap: Snapshot) -> None:
        if self._showing:
            self._draw(snap)

    def _draw(self, snap: Snapshot) -> None:
        view, viewer = snap.view, snap.viewer
        if view.hand_number != self._hand_seen:  # a new hand: let go of what Textual kept
            self._hand_seen = view.hand_number
            forget_gone_widgets_styles()
            give_back_freed_memory()
            self._status_rows = 1
        cards = self.card_style
        names = self.names()
        labels = self.table.seat_labels()
        self.query_one(SeatsPanel).show(view, names, labels, snap.waiting_on, viewer, cards)
        # the viewer reads "You play ...": the log and the recent lines speak to them
        lines = [describe(e, names, cards, viewer) for e in snap.recent if e.kind not in SKIPPED]
        recent = [line for line in lines if line][-RECENT_LINES:]
        self.query_one(CenterPanel).show(view, names, cards, recent)
        hand = self.query_one(HandView)
        box = self.query_one("#hand-box")
        if viewer is None:
            box.border_title = "Cards hidden"
            hand.hide(self._hidden_words(snap))
        else:
            ordered = cards.sort(view.hand, self.sort_by)
            playable = set()
            if snap.my_turn:
                legal_cards = {a.card for a in snap.actions if a.kind == "play"}
                playable = {i for i, card in enumerate(ordered) if card in legal_cards}
            hand.show(ordered, playable, cards)
            mine = names[viewer] == "You" or self.shared  # a shared table: one player's screen
            owner = "Your hand" if mine else f"{names[viewer]}'s hand"
            box.border_title = Text(f"{owner} ({plural(len(ordered), 'card')})")  # names: no markup
        # (no layout for new words: a layout repaints every panel, and the height is
        # checked below)
        words = self.status_text()
        self.query_one("#status", Static).update(words, layout=False)
        self._draw_log(snap)
        self.query_one(TrackerPanel).show(snap, names, cards)
        self._refresh_keys()
        self._fit_heights(words)
        if self._clock is not None:  # ticks only while something counts down: idle is free
            timed = snap.turn_ends_in is not None or snap.deal_in is not None
            if timed or self.table.counts_down():
                self._clock.resume()
            else:
                self._clock.pause()

    def _fit_heights(self, words: Text) -> None:
        """Lay the table out anew when the hand or the status line changed its height.

        The status line keeps its tallest height, up to two lines, until the next hand:
        "your turn" takes two lines at 80 columns where "Bo is thinking" takes one, and a
        table that grew and shrank by a row every turn would jump under the eye and be
        laid out twice a turn. A rare longer text takes its lines only while it is shown."""
        status = self.query_one("#status", Static)
        width = status.content_size.width or 78
        needed = min(STATUS_MAX_ROWS, rows(self.app.console, words, width))
        self._status_rows = max(min(needed, STATUS_KEPT_ROWS), self._status_rows)
        heights = (self.query_one(HandView).line_count(), max(needed, self._status_rows))
        if heights != self._heights:
            if heights[1] != self._heights[1]:
                status.styles.min_height = heights[1]
            self._heights = heights
            refit_height(status)
            self._lay_out_anew()

    def _refit_status(self) -> None:
        words = self.query_one("#status", Static).content
        if isinstance(words, Text):
            self._fit_heights(words)

    def _lay_out_anew(self) -> None:
        """The next frame lays the table out anew: the hand or the status line changed
        its height.

        Textual's screen paints from a timer of its own, which may run between a widget's
        message that its text changed and the one that its size did: that frame showed the
        new text in the old sizes (the status line's second line, or the keys under a new
        row of cards, cut off). Asking for the layout here, before any paint, with the
        arrangements worked out anew, makes the next frame whole."""
        for node in (self, self.query_one("#hand-box")):
            node._clear_arrangement_cache()
        self.refresh(layout=True, repaint=False)

    def _refresh_keys(self) -> None:
        """The keys bar shows what may be done now (redrawn only when that changes)."""
        if self.is_mounted:
            self.query_one(KeysBar).show_keys()

    def _hidden_words(self, snap: Snapshot) -> str:
        if snap.spectator:
            return "You are watching: every player's cards stay hidden."
        if self.shared and not snap.hand_over and not snap.over:
            return "Your cards show when it is your turn to take the keyboard."
        return "Cards are hidden until the next player takes the keyboard."

    def _draw_log(self, snap: Snapshot) -> None:
        """The log widget shows the snapshot's log: appended to while it only grows,
        written again when the viewer, the card style or the log itself changes."""
        log = self.query_one("#log", RichLog)
        cards = self.card_style
        key = (snap.viewer, cards.theme, cards.ascii_only)
        if key != self._log_key or snap.log_length < self._log_count:
            log.clear()
            self._unwritten.clear()
            self._log_key = key
            self._log_count = 0
        names = self.names()
        for index, event in enumerate(snap.events, snap.log_start):
            if index < self._log_count:
                continue
            line = describe(event, names, cards, snap.viewer)
            if line:
                self._unwritten.append(line)
        self._log_count = snap.log_length
        self._write_log()

    def _write_log(self) -> None:
        """Write the lines kept for the log, once it is on screen."""
        log = self.query_one("#log", RichLog)
        if log.display and self._unwritten:
            # in one write: Textual measures, lays out and scrolls the log once a write, and
            # a hot-seat hand-over writes the whole log again for the next player
            log.write("\n".join(self._unwritten))
            self._unwritten.clear()

    def status_text(self) -> Text:
        snap = self.snap
        text = Text()
        error = self.error
        if error:
            text.append("✗ " if not self.card_style.ascii_only else "x ", style="bold red")
            text.append(error + "\n", style="bold")
        names = self.names()
        if snap.over:
            text.append("The match is over.")
            return text
        if snap.hand_over:
            text.append("The hand is over." + self._deal_words(snap))
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
        left = self._turn_left(snap)
        if snap.my_turn:
            if left is not None:
                text.append(f"{left} s left for your turn, then a computer plays it.\n", "bold")
            if self._hint is not None and self._hint[0] == snap.version:
                text.append(f"Hint: {self._hint[1]}\n", style="italic")
            text.append(prompts.status_for(snap, self.card_style, self.uno_marked))
        else:
            text.append(self.table.waiting_words(seat))
            if left is not None:
                text.append(f" ({left} s left)")
        return text

    def _turn_left(self, snap: Snapshot) -> int | None:
        """Seconds left for the awaited turn, in its last COUNTDOWN seconds only."""
        if snap.turn_ends_in is None:
            return None
        left = max(0, int(snap.turn_ends_in - (time.monotonic() - self._snap_at) + 0.5))
        return left if left <= COUNTDOWN else None

    def _deal_words(self, snap: Snapshot) -> str:
        """Between hands at a shared table: whom the next deal waits for, and how long."""
        if not self.shared or not snap.not_ready:
            return ""
        names = [snap.name(seat) for seat in snap.not_ready]
        verb = "is" if len(names) == 1 else "are"
        words = f" The next hand is dealt when {', '.join(names)} {verb} ready"
        if snap.deal_in is not None:
            left = max(0, int(snap.deal_in - (time.monotonic() - self._snap_at) + 0.5))
            words += f", or in {left} s at the latest"
        return words + "."

    # -- dialogs the snapshot asks for ----------------------------------------------------

    def _wanted(self, snap: Snapshot) -> tuple[Any, ...] | None:
        """The dialog the snapshot asks this terminal for now, as a reason; None: none."""
        if snap.shown is not None and snap.viewer is not None:
            return ("shown", snap.viewer, snap.log_length)
        if snap.over:
            return ("results", "final")
        if snap.hand_over:
            number = snap.view.hand_number
            return None if self._ready_for == number else ("results", number)
        if snap.handover_to is not None:
            return ("handover", snap.handover_to, snap.version)
        if snap.my_turn:
            legal = [a for a in snap.actions if a.kind not in OUT_OF_TURN_KINDS]
            if {a.kind for a in legal} & set(DIALOG_KINDS):
                return ("ask", snap.viewer, snap.version)
        return None

    def reconcile(self, *, table_drawn: bool = False) -> None:
        """Close a dialog that outlived its reason, and open the one the snapshot asks for
        (once the table has drawn the snapshot: ``table_drawn``).

        Waits while another screen (help, settings, leaving) is on top: it comes back
        here when that closes."""
        if self._leaving or not self.is_mounted:
            return
        if screen_too_small(*self.app.size):
            return
        opened = self._opened
        wanted = self._wanted(self.snap)
        if opened is not None:
            if opened.reason == wanted or (opened.reason[0] == "declare" and self._declaring()):
                return
            if opened.screen is not self.app.screen:
                return  # something else is on top: settle when it closes
            if not opened.screen.is_mounted:
                self.call_after_refresh(self.reconcile)  # closing it half-built breaks it
                return
            self._opened = None
            self._refresh_keys()
            self._replaced = opened  # closed unanswered: its question may come straight back
            opened.screen.dismiss(None)
        if wanted is None:
            self._replaced = None
        if wanted is None or self.app.screen is not self:
            return
        if table_drawn:
            self._open(wanted)
        elif not self._open_after_frame:
            # the table's own frame first (the card just drawn in the hand, the pile just
            # played on), the dialog over it in the next: what a key changed shows at once,
            # not once the dialog is built, and the table under the dialog is up to date
            self._open_after_frame = True
            self.call_after_refresh(self._after_table_frame)

    def _after_table_frame(self) -> None:
        """Settle again with the newest snapshot, now that the table has drawn it."""
        self._open_after_frame = False
        if self._showing:
            self.reconcile(table_drawn=True)

    def _declaring(self) -> bool:
        opened = self._opened
        return opened is not None and opened.reason[1] == self.snap.version and self.snap.my_turn

    def _open(self, reason: tuple[Any, ...]) -> None:
        snap = self.snap
        kind = reason[0]
        if kind == "results":
            from .scoreboard import ScoreboardScreen

            self._push(reason, ScoreboardScreen(snap), self._after_scoreboard)
        elif kind == "handover":
            from .handover import HandOverScreen

            seat = reason[1]
            exposed = snap.exposed if seat in snap.catchers else None
            screen = HandOverScreen(
                snap.name(seat), snap.name(exposed) if exposed is not None else None
            )
            self._push(reason, screen, lambda answer: self._handed_over(seat, answer))
        elif kind == "shown":
            from .common import ChoiceScreen

            seat, event = reason[1], snap.shown
            assert event is not None
            cards = " ".join(self.card_style.label(c) for c in event.cards) or "no cards"
            owner = snap.name(event.seat)
            screen = ChoiceScreen(
                f"{owner}'s hand, shown to {snap.name(seat)} only",
                [("seen", "Seen: go on")],
                explanation=f"{owner} held: {cards}",
                cancellable=False,
            )
            self._push(reason, screen, lambda _: self.table.send(Seen(seat)))
        elif kind == "ask":
            seat = reason[1]
            legal = [a for a in snap.actions if a.kind not in OUT_OF_TURN_KINDS]
            screen, answer = prompts.dialog(self, seat, legal)
            self._push(reason, screen, lambda key: self._answered(seat, answer(key)))

    def _push(self, reason: tuple[Any, ...], screen: Screen[Any], then: Callable[[Any], None]):
        opened = _Opened(reason, screen)
        self._opened = opened
        self._refresh_keys()

        def answered(result: Any) -> None:
            if self._opened is not opened:
                return  # closed because its reason is gone: nothing to answer
            self._opened = None
            self._refresh_keys()
            then(result)
            self.call_after_refresh(self.reconcile)

        # keys typed ahead (Enter Enter as a hand ends) never answer a dialog unseen; the
        # same question asked again (the table moved on while it was open) takes the keys
        # pressed since the first was shown
        keys_from_now(screen)
        replaced, self._replaced = self._replaced, None
        if replaced is not None and same_question(replaced, opened):
            keys_since(screen, replaced.screen)
        self.app.push_screen(screen, answered)

    def _user_screen(self, screen: Screen[Any], then: Callable[[Any], None] | None = None):
        """A screen the player opened (help, settings, ...): back here, settle again."""

        def closed(result: Any) -> None:
            if then is not None:
                then(result)
            self.call_after_refresh(self.reconcile)

        self.app.push_screen(screen, closed)

    def _handed_over(self, seat: int, answer: str | None) -> None:
        if answer == "leave":
            self._ask_leave(then=self.reconcile)  # staying hands the keyboard over again
            return
        if answer is not None:
            self._error = None
            self.table.send(TookKeyboard(seat, catch=answer == "catch"))

    def _answered(self, seat: int, action: Action | None) -> None:
        if action is not None:
            self.send(seat, action)

    def send(self, seat: int, action: Action) -> None:
        """Send a human's intent; a refusal comes back as news and changes nothing."""
        self._error = None
        if action.kind == "play":
            self.uno_marked = False
        self.table.send(Intent(seat, str(action), self.snap.version))

    # -- keys -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """True: offered; False: not in the footer now (cards hidden, a dialog of the
        table's open, nothing to call or catch). A key whose action is off falls through to
        ``explain``, which says why."""
        if self._leaving or not self.is_mounted:
            return False  # keys typed ahead reach a table that is closing
        snap = self.snap
        # Textual asks once per key, each time the keys are drawn: worked out once per moment
        if self._offers is None or self._offers[0] is not snap or self._offers[1] != self._opened:
            self._offers = (snap, self._opened, self._offered(snap))
        return self._offers[2].get(action, True)

    def key_word(self, action: str) -> str | None:
        """The keys bar's word for ``action`` now, where the game has a better one than the
        binding's ("Take 4" for D when a stack is aimed at the player)."""
        seat = self.acting_human() if self._opened is None else None
        if seat is None:
            return None
        kinds = {a.kind for a in self.snap.actions}
        return self.card_style.key_word(action, self.snap.view, kinds)

    def _offered(self, snap: Snapshot) -> dict[str, bool]:
        """Which of the table's actions are offered at this snapshot (the rest always are)."""
        seat = self.acting_human() if self._opened is None else None
        kinds = {a.kind for a in snap.actions} if seat is not None else set()
        uno_game = self.card_style.has_uno_calls
        playing = seat is not None and "play" in kinds
        busy = snap.over or snap.hand_over or snap.waiting_human
        return {
            "play": playing,
            "cursor": playing,
            "pick": playing,
            # a draw aimed at the player (UNO's stacking) is taken with D too
            "draw": seat is not None and bool(kinds & {"draw", "pass", "accept"}),
            "uno": uno_game and (snap.late_caller is not None or "play" in kinds),
            "catch": uno_game and bool(snap.catchers),
            "last_trick": self.card_style.has_tricks,
            "skip_ahead": not self.shared and not busy,
            "chat": self.shared,
            "undo": snap.undo_refused is None,
            "hint": seat is not None,
        }

    def action_explain(self, what: str) -> None:
        """A key pressed while its action is off: say why rather than nothing."""
        snap = self.snap
        if what == "undo":
            self.notify(snap.undo_refused or "Nothing to take back.", severity="warning")
        elif what == "uno":
            if not self.card_style.has_uno_calls:
                self.notify(f"{self.card_style.title} has no UNO call.")
            elif self.acting_human() is None:
                self.notify("UNO is called with the play that leaves you one card, on your turn.")
            else:
                self.notify("No card you can play now leaves you one card: nothing to call.")
        elif what == "catch":
            self.notify("Nobody can be caught right now.")

    def _catcher(self) -> int | None:
        """The human who catches when C is pressed: the one at the keyboard, if they may."""
        snap = self.snap
        if snap.viewer in snap.catchers:
            return snap.viewer
        return snap.catchers[0] if snap.catchers else None

    def _free(self) -> bool:
        """No dialog of the table's is waiting for an answer."""
        return self._opened is None and not self._leaving

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
        if seat is None or not self._free() or not hand.cards:
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
        screen, answer = prompts.declaration(self, card, wanted, self.card_style)
        self._push(
            ("declare", self.snap.version), screen, lambda key: self._answered(seat, answer(key))
        )

    def action_draw(self) -> None:
        seat = self.acting_human()
        if seat is None or not self._free():
            return
        legal = self.snap.actions
        # "accept" takes a pending draw (UNO's stacking): offered only when nothing to draw
        for kind in ("draw", "pass", "accept"):
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
            self.draw(self.snap)

    def action_catch(self) -> None:
        seat = self._catcher()
        exposed = self.snap.exposed
        if seat is None or exposed is None:
            self._error = (self.snap.version, "Nobody can be caught right now.")
            self.draw(self.snap)
            return
        self.send(seat, Action("catch", target=exposed))

    def action_sort(self) -> None:
        self.sort_by = "value" if self.sort_by == "suit" else "suit"
        self.notify(f"Sorted by {'value' if self.sort_by == 'value' else 'colour or suit'}")
        self.draw(self.snap)

    def action_toggle_log(self) -> None:
        log = self.query_one("#log")
        log.display = not log.display
        self._arrange_middle(self.app.size.width, "log")
        self._write_log()

    def action_toggle_tracker(self) -> None:
        tracker = self.query_one(TrackerPanel)
        tracker.display = not tracker.display
        self._arrange_middle(self.app.size.width, "tracker")
        self.draw(self.snap)

    def _arrange_middle(self, width: int, first: str = "") -> None:
        """Below 120 columns the log or the tracker takes the middle's place rather than
        squeezing it; below 160 the one opened (``first``) also takes the other's."""
        log, tracker = self.query_one("#log"), self.query_one(TrackerPanel)
        if log.display and tracker.display and width < 160:
            (tracker if first == "log" else log).display = False
        self.query_one(CenterPanel).display = width >= 120 or not (log.display or tracker.display)

    def action_hint(self) -> None:
        """What the Normal computer would do, and why; the cursor moves to its card."""
        from unotable.controller.advice import hint_for

        from ..hints import hint_sentence

        if self.acting_human() is None or not self._free():
            return
        advice = hint_for(self.snap.view, self.game_id)
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
        self.draw(self.snap)

    def action_skip_ahead(self) -> None:
        self.table.send(SkipAhead())
        self.notify("Skipping ahead to the next human decision")

    def action_undo(self) -> None:
        """Take back the human's last decision and what the computers did after it."""
        if not self._free():
            return
        refused = self.snap.undo_refused
        if refused is not None:
            self.notify(refused, severity="warning")
            return
        self._error = None
        self.uno_marked = False
        self.table.send(TakeBack())

    def action_last_trick(self) -> None:
        from .trick import LastTrickScreen

        view = self.snap.view
        if getattr(view, "last_trick", None) is None:
            self.notify("No trick has been completed yet.")
            return
        self._user_screen(LastTrickScreen(view, self.names(), self.card_style))

    def action_keys(self) -> None:
        from .help import KeysScreen

        self._user_screen(KeysScreen())

    def action_rules(self) -> None:
        from .help import RulesScreen

        self._user_screen(RulesScreen(self.game_id, getattr(self.snap.view, "options", None)))

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self._user_screen(SettingsScreen())

    def prefs_changed(self) -> None:
        """A setting changed: the speed goes to the table, the rest is drawn anew (the log
        too, from the snapshot's log: nothing of it is lost)."""
        app: Any = self.app
        if not self.shared and app.prefs.speed != self.snap_speed:
            self.snap_speed = app.prefs.speed
            self.table.send(SetSpeed(app.prefs.speed))
        self.draw(self.snap)

    def action_request_quit(self) -> None:
        if self.snap.over:
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

        if self.shared:
            what = (
                " Your seat waits for you: while others play on, a computer plays it after a"
                " while, until you come back (J, or C with your rejoin code). If nobody is"
                " left, the table pauses, then is closed and kept: Shared tables (J) lists"
                " it, and joining it reopens it where it was."
            )
        else:
            what = " It is saved: in the lobby, Continue or Saved matches (M) picks it up again."
        self._user_screen(
            ChoiceScreen(
                "Leave this match?",
                [("stay", "Keep playing"), ("lobby", "Back to the lobby"), ("quit", "Quit")],
                explanation=("You leave the table." if self.shared else "The match stops here.")
                + what,
                dialog_id="quit-dialog",
            ),
            answered,
        )

    def _leave(self, where: str | None) -> None:
        if self._leaving:
            return
        self._leaving = True
        self.app.clear_notifications()  # the table's notices do not follow into the lobby
        self.table.send(Leave())
        if where == "quit":
            self.app.exit()
        else:
            self._pop_table()

    def _pop_table(self) -> None:
        """Close the table and any dialog of its still open, one screen at a time."""
        if self not in self.app.screen_stack:
            return
        top = self.app.screen
        if top is self:
            self.app.pop_screen()
            return
        if not top.has_class("quit-dialog"):  # the quit dialog is closing itself
            self.app.pop_screen()
        self.set_timer(0.05, self._pop_table)

    # -- results --------------------------------------------------------------------------

    def _after_scoreboard(self, answer: str | None) -> None:
        snap = self.snap
        if answer == "leave" and not snap.over:
            self._ask_leave(then=self.reconcile)  # staying brings the scores back
            return
        if not snap.over:
            self._ready_for = snap.view.hand_number
            self.table.send(Ready())
            return
        if answer == "again" and not self.shared:
            app: Any = self.app
            self._leaving = True
            self.table.send(Leave())
            app.play_again(self)
        elif answer == "quit":
            self._leave("quit")
        else:
            self._leave("lobby")

    # -- shared tables --------------------------------------------------------------------

    def _tick_shared(self) -> None:
        if not self._leaving and self.snapshot is not None and self._showing:
            status = self.query_one("#status", Static)
            words = self.status_text()
            if words != status.content:  # a countdown moved; the same words draw nothing
                status.update(words, layout=False)
                self._fit_heights(words)

    def action_chat(self) -> None:
        from .chat import ChatScreen

        def said(line: tuple[str | None, int | None] | None) -> None:
            if line is not None:
                self.table.send(Say(*line))

        self._user_screen(ChatScreen(), said)

    # -- terminal size --------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if not self.query("#log"):
            return  # its panels not composed yet (an app quitting as it opened): nothing to fit
        log = self.query_one("#log", RichLog)
        wide = event.size.width >= 120
        if wide and not log.display:
            log.display = True
        elif not wide and self._was_wide and log.display:
            log.display = False  # narrowed: the pile comes back, G brings the log
        self._was_wide = wide
        self._arrange_middle(event.size.width, "tracker")
        self._write_log()
        self._status_rows = 1  # the status line's words wrap anew at the new width
        self.call_after_refresh(self._refit_status)
        if log.display:
            log.scroll_end(animate=False)
        if not screen_too_small(event.size.width, event.size.height):
            self.call_after_refresh(self.reconcile)
