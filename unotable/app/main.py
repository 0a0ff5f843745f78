"""The Textual app: it owns the preferences and the data folder, and moves between screens."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.driver import Driver
from textual.filter import Monochrome, NoColor
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from unotable.tables import IDENTITY_ENV, PLAYER_ENV, TABLES_ENV

from .memory import forget_hidden_drawing
from .prefs import Prefs, load_prefs, own_themes, save_prefs
from .stylesheet import SharedStylesheet


class UnoTableApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "unotable"
    # Screens show a "more room, please" notice below 80x24 (see app.tcss).
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [
        (0, "-narrow"),
        (80, "-wide"),
        (120, "-very-wide"),
    ]
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [
        (0, "-short"),
        (24, "-tall"),
        (34, "-very-tall"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+c", "request_quit", "Quit", show=False, priority=True, id="app.quit"),
        Binding("f1", "rules", "Rules", show=False, id="app.rules"),
    ]

    def __init__(
        self,
        *,
        data_dir: Path | None = None,
        ascii_cards: bool = False,
        seed: int | None = None,
        resume: bool = False,
        prefs: Prefs | None = None,
        use_store: bool = True,
        debug: bool = False,
    ) -> None:
        super().__init__()
        # unotable's themes are Textual themes: the palette, Settings and config share them
        for theme in own_themes():
            self.register_theme(theme)
        self.theme = "standard"
        # parsed for the theme it starts with, once per process (not per app, nor twice)
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())
        # --debug (or TEXTUAL=debug): an unexpected error shows its traceback here
        self.debug_errors = debug or "debug" in self.features
        if self.no_color:
            from .nocolor import StripColour

            kept = [f for f in self._filters if not isinstance(f, Monochrome | NoColor)]
            self._filters = [*kept, StripColour()]
        self.use_store = use_store
        self.data_dir = data_dir if data_dir is not None else _default_data_dir(use_store)
        self.notices: list[str] = []
        # None: read from the settings file when first needed (after the lobby's first frame)
        self._prefs = prefs
        self.force_ascii = ascii_cards
        self.first_seed = seed
        self.resume = resume
        self._mono_filter: Monochrome | None = None
        self.first_frame_shown = False
        self.served = os.environ.get(SERVED_ENV) == "1"
        self.session_tag = _session_tag() if self.served else None
        # shared tables: the server's table service, and who this player is to it
        self.tables_socket = os.environ.get(TABLES_ENV) if self.served else None
        self.player_identity = os.environ.get(IDENTITY_ENV) or None
        self.player_name = os.environ.get(PLAYER_ENV) or None
        self._shared_pump: Any = None
        self.shared_codes: dict[str, str] = {}  # table -> this player's rejoin code there
        if self.served and (served_notice := os.environ.get(SERVED_NOTICE_ENV)):
            self.notices.append(served_notice)
        self.saved: Any = None  # the store's SavedList, once looked at
        self.save_problem: str | None = None  # why the data dir cannot be written
        self._store_prepared = False
        self._playing: tuple[Any, Any] = (None, None)  # (controller, its MatchFile)
        self._writer: Any = None
        self._save_error = ""

    # -- preferences ----------------------------------------------------------------------

    @property
    def prefs(self) -> Prefs:
        if self._prefs is None:
            self._prefs, notice = load_prefs(self.data_dir if self.use_store else None)
            if notice:
                self.notices.append(notice)
            self.notices.extend(self._use_keymap(self._prefs))
            if self._prefs.theme != self.theme:
                self.call_later(self.apply_theme)
        return self._prefs

    @prefs.setter
    def prefs(self, prefs: Prefs) -> None:
        self._prefs = prefs

    @property
    def ascii_cards(self) -> bool:
        return self.force_ascii or self.prefs.card_style == "ascii"

    @property
    def card_theme(self) -> str:
        return "monochrome" if self.no_color else self.prefs.theme

    def save_prefs(self) -> None:
        notice = save_prefs(self.prefs, self.data_dir if self.use_store else None)
        if notice:
            self.notify(notice, severity="warning")

    def _use_keymap(self, prefs: Prefs) -> list[str]:
        """Apply the settings' keymap (Textual's set_keymap); a notice per refused entry."""
        if not prefs.keymap:
            return []
        from .prefs import check_keymap

        accepted, notices = check_keymap(prefs.keymap)
        self.set_keymap(accepted)
        return notices

    def _theme_changed(self, theme: Theme) -> None:
        """A theme chosen anywhere (the palette's "Theme" too) is kept for next time."""
        prefs = self._prefs
        if prefs is None or theme.name == prefs.theme or theme.name not in self.available_themes:
            return
        if theme.name != self.theme:
            # Textual publishes each change later: a stale one (two changes in quick
            # succession, ← → in Settings) would put back the older theme, forever
            return
        prefs.theme = theme.name
        self.save_prefs()
        self.apply_theme()
        from .screens.table import TableScreen

        for screen in self.screen_stack:
            if isinstance(screen, TableScreen):
                screen.prefs_changed()  # the cards take the theme's colours

    def apply_theme(self) -> None:
        if self.prefs.theme in self.available_themes and self.theme != self.prefs.theme:
            self.theme = self.prefs.theme
        mono = self.prefs.theme == "monochrome"
        if mono and self._mono_filter is None and not self.no_color:
            self._mono_filter = Monochrome()
            self._filters.append(self._mono_filter)
        elif not mono and self._mono_filter is not None:
            self._filters.remove(self._mono_filter)
            self._mono_filter = None
        self.refresh_css()
        self.screen.refresh(layout=True)
        for screen in self.screen_stack:
            for widget in screen.walk_children():
                widget.refresh()

    # -- screens --------------------------------------------------------------------------

    def get_driver_class(self) -> type[Driver]:
        driver_class = super().get_driver_class()
        if sys.platform != "win32":  # (its driver module imports termios)
            from textual.drivers.linux_driver import LinuxDriver

            from .driver import QuietLinuxDriver

            if driver_class is LinuxDriver:  # (not the web server's driver)
                return QuietLinuxDriver
        return driver_class

    def get_default_screen(self) -> Screen[Any]:
        # The lobby is the bottom screen: no empty screen beneath it to lay out as well.
        from .screens.lobby import LobbyScreen

        lobby = LobbyScreen()
        self._size_classes(lobby)
        return lobby

    def on_mount(self) -> None:
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.screen_change_signal.subscribe(self, self._screen_changed)
        if self._prefs is not None:  # given, not read from the settings file
            self.notices.extend(self._use_keymap(self._prefs))
            if self._prefs.theme != self.theme:
                self.apply_theme()
        if self.resume:
            self.continue_saved()  # the table first: the lobby beneath fills in later
        elif self.tables_socket is not None:
            self._open_shared_tables_first()

    def _open_shared_tables_first(self) -> None:
        """A served player with no match of their own to continue arrives at the server's
        shared tables: the tables their friends sit at, and N for a new one from their
        last setup. The lobby beneath (Esc: to play alone, or choose another game) fills
        in only if they go to it, so a player who only joins tables never runs it (about
        2 MiB less for each served player, and a quicker login; see docs/serve.md). A
        player with a saved match arrives at the lobby, its Continue ready."""
        from .screens.lobby import LobbyScreen
        from .screens.shared import SharedTablesScreen

        lobby = self.screen_stack[0] if self.screen_stack else None
        if not isinstance(lobby, LobbyScreen) or self.tables_socket is None:
            return
        if self._own_match_to_continue():
            return
        setup = lobby.shared_setup()  # (not filled in: the remembered setup, checked)
        lobby.covered()
        self.push_screen(SharedTablesScreen(self.tables_socket, setup))

    def _screen_changed(self, _top: Screen[Any]) -> None:
        forget_hidden_drawing(self.screen_stack)  # drawn whole again if it comes back

    def on_ready(self) -> None:
        # Textual's Ready: the first frame is drawn, so screens may now add what can wait.
        self.first_frame_shown = True
        for screen in self.screen_stack:
            after_first_frame = getattr(screen, "after_first_frame", None)
            if after_first_frame is not None:
                after_first_frame()

    # -- saved matches (unotable.store.matches: one file per match) ----------------------

    def prepare_store(self) -> None:
        """Start-up checks, once: can the data dir be written; old temp files removed."""
        if self._store_prepared or not self.use_store or self.data_dir is None:
            return
        self._store_prepared = True
        from unotable.store.matches import prepare

        self.save_problem, notices = prepare(self.data_dir)
        self.notices.extend(notices)

    @property
    def saving(self) -> bool:
        return self.use_store and self.data_dir is not None and self.save_problem is None

    def save_problem_text(self) -> str:
        return (
            f"Saving is off: {self.save_problem}. Matches will not be saved. "
            "Fix the folder's permissions, or start with --data-dir DIR."
        )

    def refresh_saved(self) -> str | None:
        """List the saved matches again; a notice if files had to be set aside."""
        self.prepare_store()
        if not self.saving:
            self.saved = None
            return None
        from unotable.store.matches import list_matches

        assert self.data_dir is not None
        self.saved = list_matches(self.data_dir)
        return " ".join(self.saved.notices) or None

    def _own_match_to_continue(self) -> bool:
        """A saved match nobody has open that is this player's: any in their own data
        dir, or, for a browser tab (its data dir shared with every tab), one it played."""
        self.refresh_saved()  # (its notices, if any, come with the lobby's own listing)
        if self.saved is None:
            return False
        free = [match for match in self.saved.matches if not match.in_use]
        if self.session_tag is not None:
            return any(match.session == self.session_tag for match in free)
        return bool(free)

    def has_saved(self) -> bool:
        return self.saved is not None and bool(self.saved.matches)

    def continue_saved(self) -> None:
        """Continue (and --resume): the most recently played match nobody else has open."""
        notice = self.refresh_saved()
        if notice:
            self.notify(notice, severity="warning", timeout=10)
        if self.saved is None or not self.saved.matches:
            if notice is None:
                self.notify("There is no saved match to continue.", timeout=5)
            return
        from unotable.store.matches import pick_continue

        chosen = pick_continue(self.saved.matches, self.session_tag)
        if chosen is None:
            self.resume_saved(self.saved.matches[0].match_id)  # says it is in use
            return
        self.resume_saved(chosen.match_id)

    def resume_saved(self, match_id: str) -> bool:
        """Take over a saved match and open its table; False (with a notice) if not."""
        from unotable.controller import Controller
        from unotable.engine.errors import EngineError
        from unotable.store.matches import MatchFile, MatchGone, MatchInUse
        from unotable.store.saves import SaveError

        assert self.data_dir is not None
        try:
            match_file = MatchFile.open(self.data_dir, match_id)
        except MatchInUse as error:
            self.offer_watch(match_id, str(error))
            return False
        except (MatchGone, OSError) as error:
            self.notify(str(error), severity="warning", timeout=8)
            return False
        try:
            record = match_file.load()
            controller = Controller.from_record(record, speed=self.prefs.speed)
        except (SaveError, EngineError, ValueError) as error:
            self.notify(str(match_file.set_aside(str(error))), severity="error", timeout=10)
            self.refresh_saved()
            return False
        self.start_match(controller, match_file)
        return True

    def offer_watch(self, match_id: str, reason: str) -> None:
        from .screens.common import ChoiceScreen

        def answer(choice: str | None) -> None:
            if choice == "watch":
                from .screens.saved import WatchScreen

                assert self.data_dir is not None
                self.push_screen(WatchScreen(self.data_dir, match_id))

        self.push_screen(
            ChoiceScreen(
                "This match is in use",
                [("watch", "Watch it (read only)"), ("back", "Back")],
                explanation=reason + " Only that session saves it; you may watch.",
                dialog_id="in-use-dialog",
            ),
            answer,
        )

    def autosave(self, controller: Any) -> None:
        """The table's on_action: hand the newest record to the background writer."""
        if not self.saving:
            return
        from unotable.store.matches import MatchFile, summary_of

        playing, match_file = self._playing
        if controller is not playing or match_file is None:
            self.release_match()  # "play again": a new match, a new file
            assert self.data_dir is not None
            try:
                match_file = MatchFile.create(self.data_dir)
            except OSError as error:
                self._save_failed(f"{error.strerror or error}")
                return
            self._playing = (controller, match_file)
        # the record is built in the writer's thread, from what the match holds now
        record = controller.record_later()
        if controller.over:
            self.writer.finish(match_file, record, controller.match)
            self._playing = (None, None)
        else:
            self.writer.save(match_file, record, summary_of(controller.match, self.session_tag))

    def table_closed(self) -> None:
        """Called by the lobby when it is back on top: no table, so no match being played."""
        from .screens.table import TableScreen

        if not any(isinstance(s, TableScreen) for s in self.screen_stack):
            self.release_match()

    def release_match(self) -> None:
        """The table closed: let another session take its match over once it is written."""
        _, match_file = self._playing
        self._playing = (None, None)
        if match_file is not None:
            self.writer.release(match_file)

    @property
    def writer(self) -> Any:
        if self._writer is None:
            from unotable.store.writer import AutosaveWriter

            failed = self._from_writer(self._save_failed)
            works = self._from_writer(self._save_works)
            self._writer = AutosaveWriter(
                on_error=failed, on_saved=lambda _: works("") if self._save_error else None
            )
        return self._writer

    def _from_writer(self, handler: Any) -> Any:
        """``handler`` run on the UI's loop, called from the writer thread without waiting."""
        loop = self._loop

        def call(message: str) -> None:
            if loop is not None:
                with contextlib.suppress(RuntimeError):  # the app has closed
                    loop.call_soon_threadsafe(handler, message)

        return call

    def _save_failed(self, message: str) -> None:
        if message != self._save_error:  # once per kind of failure, not after every move
            self.notify(f"Autosave failed: {message}. The match goes on.", severity="warning")
        self._save_error = message

    def _save_works(self, _: str) -> None:
        if self._save_error:
            self._save_error = ""
            self.notify("Autosave works again.", timeout=4)

    def flush_saves(self, timeout: float = 10.0) -> bool:
        """Wait for the writer (quitting); True if everything handed over is on disk."""
        if self._writer is None:
            return True
        self.release_match()
        return bool(self._writer.flush(timeout))

    def update_styles(self, node: DOMNode, animate: bool = True) -> None:
        """As Textual's, but not for a widget not mounted yet: Textual styles it anyway
        when a class of it changes before it is mounted (``compact=True``, a class added
        as it is built), and then again when it is mounted; the lobby's first styling took
        about twice as long for that."""
        if node is self or node.is_attached:
            super().update_styles(node, animate)

    def _load_screen_css(self, screen: Screen[Any]) -> None:
        """A screen pushed or switched to passes here before it is mounted."""
        self._size_classes(screen)
        super()._load_screen_css(screen)

    def _size_classes(self, screen: Screen[Any]) -> None:
        """Give a screen not mounted yet the size classes (``-wide``, ``-tall``, …) of the
        terminal now. Textual adds them at the screen's first resize, just after it is
        mounted, and then styles the whole screen anew (a sixth of opening a table);
        added before, they style the screen alone, before its widgets are there."""
        if screen.is_mounted:
            return
        width, height = self.size
        across, down = screen.HORIZONTAL_BREAKPOINTS, screen.VERTICAL_BREAKPOINTS
        for size, breakpoints in (
            (width, self.HORIZONTAL_BREAKPOINTS if across is None else across),
            (height, self.VERTICAL_BREAKPOINTS if down is None else down),
        ):  # as the screen's resize picks them (Textual's own rule)
            screen.add_class(*screen._get_breakpoint_classes(size, breakpoints or []))

    async def on_event(self, event: events.Event) -> None:
        quitting = self.return_code is not None or not self.screen_stack
        if isinstance(event, events.InputEvent) and quitting:
            return  # a key or click queued behind Q would open a screen never built
        if isinstance(event, events.Key):
            from .screens.common import typed_before
            from .screens.lobby import LobbyScreen

            if typed_before(self.screen, event):
                return  # typed before this screen (a new table, a dialog) was shown
            if isinstance(self.screen, LobbyScreen) and self.screen.holds(event):
                return  # read again once the lobby has filled in
        await super().on_event(event)

    def on_unmount(self) -> None:
        self.flush_saves()
        if self._shared_pump is not None:
            self._shared_pump.cancel()  # a shared table's frames have nobody to show them

    def start_match(self, controller: Any, match_file: Any = None) -> None:
        """Open the table. ``match_file``: the saved match it continues (None: a new one)."""
        from unotable.controller import LocalTable

        from .screens.table import TableScreen

        self.release_match()
        self._playing = (controller, match_file)
        controller.on_action = self.autosave
        controller.undo_allowed = not self.served  # a stranger's table keeps its record
        if self.use_store and self.save_problem is not None:
            self.notify(self.save_problem_text(), severity="warning", timeout=8)
        table = LocalTable(controller)
        # the match's one loop, for as long as the table is open (Leave stops it)
        self.workers.cancel_group(self, "table")
        self.run_worker(table.drive(), name="table", group="table")
        self._open_table(TableScreen(table))

    def play_again(self, finished: Any) -> None:
        """The same seats and options, a new match, in place of the finished table."""
        from unotable.controller import Controller

        controller, _ = self._playing
        if controller is None:
            return
        fresh = Controller(
            controller.game_id,
            list(controller.seats),
            dict(controller.match.options),
            None,
            clock=controller.clock,
            speed=controller.pace.speed,
        )

        def reopen(_: Any = None) -> None:
            self.start_match(fresh)

        if finished in self.screen_stack:
            self.pop_screen()
            self.call_after_refresh(reopen)
        else:
            reopen()

    def start_shared(self, remote: Any) -> None:
        """Sit at a shared table: the screen draws what the table sends this seat."""
        from .screens.table import TableScreen

        self.release_match()
        screen = TableScreen(remote)
        self._shared_pump = asyncio.ensure_future(remote.pump())
        self._open_table(screen)

    def _open_table(self, table: Screen[Any]) -> None:
        from .screens.common import keys_from_now
        from .screens.lobby import LobbyScreen

        for screen in self.screen_stack:
            if isinstance(screen, LobbyScreen):
                screen.covered()  # what it has yet to fill in waits until it shows again
        self.push_screen(keys_from_now(table))  # no key typed before it opened

    # -- actions --------------------------------------------------------------------------

    def action_request_quit(self) -> None:
        """Ctrl+C: the screen underneath decides (the table asks before abandoning)."""
        for screen in reversed(self.screen_stack):
            request = getattr(screen, "action_request_quit", None)
            if request is not None:
                request()
                return
        self.exit()

    def action_rules(self) -> None:
        from .screens.help import RulesScreen

        game = getattr(self.screen, "game_id", None) or "uno"
        self.push_screen(RulesScreen(game))

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> None:
        """Notifications carry player text (names, chat, errors naming files): always shown
        as plain text, whatever the caller asked (Textual's Widget.notify asks for markup)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def _handle_exception(self, error: Exception) -> None:
        """An unexpected error. Without --debug, and always when served, the player gets one
        line and the traceback (with its paths) goes to the log: the server's when served,
        else a file in the data dir. Textual's own handling would print locals and paths."""
        if self.debug_errors and not self.served:
            super()._handle_exception(error)
            return
        self._return_code = 1
        if self._exception is None:  # run_test re-raises it for the test
            self._exception = error
            self._exception_event.set()
        where = _log_error(error, self.served, self.data_dir if self.use_store else None)
        self._exit_renderables.append(apology(self.served, where))
        self._close_messages_no_wait()

    # -- served mode (unotable serve): nothing that writes files or reaches outside ------------

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            if not self.served or command.title in SERVED_COMMANDS:
                yield command
        yield from self.own_commands(screen)  # none writes outside the player's data folder

    def own_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The palette's entries for unotable's own actions, where they make sense:
        starting or reopening a match only from the lobby."""
        from .games import game_title
        from .screens.help import help_games
        from .screens.lobby import LobbyScreen

        if isinstance(screen, LobbyScreen):
            yield SystemCommand(
                "New match", "Start the game set up in the lobby", screen.action_start
            )
            if self.has_saved():
                yield SystemCommand(
                    "Continue", "Go on with the most recent saved match", self.continue_saved
                )
                yield SystemCommand(
                    "Saved matches", "Every saved match", screen.action_saved_matches
                )
            if self.tables_socket is not None:
                yield SystemCommand(
                    "Shared tables", "Tables on this server", screen.action_shared_tables
                )
        for game in help_games():
            title = game_title(game)
            yield SystemCommand(
                f"Rules: {title}",
                f"How to play {title}",
                partial(self._open, screen, "rules", game),
            )
        yield SystemCommand(
            "Keys list",
            "Every key of the table, as your keymap sets them",
            partial(self._open, screen, "keys"),
        )
        yield SystemCommand(
            "Settings", "Theme, computer speed, card style", partial(self._open, screen, "settings")
        )
        yield SystemCommand(
            "Statistics", "Wins and scores per player", partial(self._open, screen, "stats")
        )

    def _open(self, over: Screen[Any], what: str, game: str = "") -> None:
        """Open a help, settings or statistics screen for the palette, over ``over``."""
        from .screens.help import KeysScreen, RulesScreen
        from .screens.settings import SettingsScreen
        from .screens.stats import StatsScreen

        made: dict[str, Callable[[], Screen[Any]]] = {
            "rules": lambda: RulesScreen(game),
            "keys": KeysScreen,
            "settings": SettingsScreen,
            "stats": lambda: StatsScreen(self.data_dir if self.use_store else None),
        }
        screen = made[what]()
        # the table settles again when a screen the player opened closes
        push = getattr(over, "_user_screen", None)
        if push is not None and over is self.screen:
            push(screen)
        else:
            self.push_screen(screen)

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> str | None:
        if self.served:
            return None
        return super().deliver_screenshot(*args, **kwargs)

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        if self.served:
            raise PermissionError("a served table writes no screenshots")
        return super().save_screenshot(*args, **kwargs)

    # Textual's deliveries save to ~/Downloads in a terminal: a served table delivers nothing.
    def deliver_text(self, *args: Any, **kwargs: Any) -> str | None:
        if self.served:
            return None
        return super().deliver_text(*args, **kwargs)

    def deliver_binary(self, *args: Any, **kwargs: Any) -> str | None:
        if self.served:
            return None
        return super().deliver_binary(*args, **kwargs)


# Set by `unotable serve` in each table's environment (see unotable/serve/child.py).
SERVED_ENV = "UNOTABLE_SERVED"
SERVED_NOTICE_ENV = "UNOTABLE_SERVED_NOTICE"
SESSION_ENV = "UNOTABLE_SESSION"  # a web tab's own name: its Continue finds its own match
# Palette commands a served player keeps; Textual's others (Screenshot) write files.
SERVED_COMMANDS = frozenset({"Theme", "Quit", "Keys", "Minimize", "Maximize"})


ERROR_LOG_ENV = "UNOTABLE_ERROR_FD"  # set by `serve ssh`: a pipe into the server's log
ERROR_LOG_NAME = "errors.log"  # in the data dir, at a local terminal


def apology(served: bool, where: str | None) -> str:
    """The one line a player sees after an unexpected error."""
    if served:
        return "unotable: sorry, an unexpected error ended the game; the server's log has it."
    if where:
        return (
            f"unotable: sorry, an unexpected error ended the game; details in {where} "
            "(unotable --debug shows them here)."
        )
    return "unotable: sorry, an unexpected error ended the game (unotable --debug shows it)."


def _log_error(error: BaseException, served: bool, data_dir: Path | None) -> str | None:
    """Writes the traceback where the player's terminal is not; returns where, if a file."""
    import time
    import traceback

    text = "".join(traceback.format_exception(error))
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    entry = f"{stamp} unotable pid {os.getpid()}: unexpected error\n{text}"
    with contextlib.suppress(OSError, ValueError):
        if served and (fd := os.environ.get(ERROR_LOG_ENV, "")).isdigit():
            os.write(int(fd), entry.encode("utf-8", "replace")[-60_000:])
            return None
        if served and not os.isatty(2):  # serve web: stderr is a pipe to the server
            os.write(2, entry.encode("utf-8", "replace")[-60_000:])
            return None
    if data_dir is None:
        return None
    path = Path(data_dir) / ERROR_LOG_NAME
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as file:
            file.write(entry)
        return str(path)
    return None


def _session_tag() -> str | None:
    from unotable.store.matches import SESSION_TAG

    tag = os.environ.get(SESSION_ENV, "")
    return tag if SESSION_TAG.match(tag) else None


def _default_data_dir(use_store: bool) -> Path | None:
    if not use_store:
        return None
    from unotable.store.paths import default_data_dir

    return default_data_dir()
