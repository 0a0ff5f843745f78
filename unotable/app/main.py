"""The Textual app: it owns the preferences and the data folder, and moves between screens."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.filter import Monochrome, NoColor
from textual.screen import Screen

from .prefs import Prefs, load_prefs, save_prefs


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
        Binding("ctrl+c", "request_quit", "Quit", show=False, priority=True),
        Binding("f1", "rules", "Rules", show=False),
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
    ) -> None:
        super().__init__()
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
        self.saved_record: Any = None

    # -- preferences ----------------------------------------------------------------------

    @property
    def prefs(self) -> Prefs:
        if self._prefs is None:
            self._prefs, notice = load_prefs(self.data_dir if self.use_store else None)
            if notice:
                self.notices.append(notice)
            if self._prefs.theme == "monochrome":
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

    def apply_theme(self) -> None:
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

    def get_default_screen(self) -> Screen[Any]:
        # The lobby is the bottom screen: no empty screen beneath it to lay out as well.
        from .screens.lobby import LobbyScreen

        return LobbyScreen()

    def on_mount(self) -> None:
        if self._prefs is not None and self._prefs.theme == "monochrome":
            self.apply_theme()
        if self.resume:
            self.call_after_refresh(self.continue_saved)

    def on_ready(self) -> None:
        # Textual's Ready: the first frame is drawn, so screens may now add what can wait.
        self.first_frame_shown = True
        for screen in self.screen_stack:
            after_first_frame = getattr(screen, "after_first_frame", None)
            if after_first_frame is not None:
                after_first_frame()

    def continue_saved(self) -> None:
        notice = self.refresh_saved()
        record = self.saved_record
        if notice:
            self.notify(notice, severity="warning", timeout=10)
        if record is None:
            if notice is None:
                self.notify("There is no saved match to continue.", timeout=5)
            return
        from unotable.controller import Controller
        from unotable.engine.errors import EngineError

        try:
            controller = Controller.from_record(record, speed=self.prefs.speed)
        except (EngineError, ValueError) as error:
            self.notify(self.set_save_aside(error), severity="error", timeout=10)
            return
        self.start_match(controller)

    def set_save_aside(self, error: Exception) -> str:
        """Move an autosave that does not replay aside (never delete it); the notice to show."""
        from unotable.store.files import move_aside
        from unotable.store.paths import autosave_path

        assert self.data_dir is not None
        self.saved_record = None
        try:
            moved = move_aside(autosave_path(self.data_dir), "corrupt")
        except OSError:
            return f"The saved match could not be rebuilt ({error})."
        return f"The saved match could not be rebuilt ({error}); it was moved to {moved}."

    def has_saved(self) -> bool:
        return self.saved_record is not None

    def refresh_saved(self) -> str | None:
        """Look for the autosave again; returns a notice if it was damaged (and set aside)."""
        self.saved_record, notice = self.load_saved()
        return notice

    def load_saved(self) -> tuple[Any, str | None]:
        """(record or None, notice or None) for the autosaved match."""
        if not self.use_store or self.data_dir is None:
            return None, None
        from unotable.store.saves import SaveError, load_autosave

        try:
            return load_autosave(self.data_dir), None
        except SaveError as error:  # damaged or newer file, already moved aside
            return None, str(error)

    def autosave(self, controller: Any) -> None:
        if not self.use_store or self.data_dir is None:
            return
        from unotable.store import history, saves

        try:
            record = controller.to_record()
            if record.finished:
                # history first: if that fails, the autosave still holds the match
                history.record_finished(record, self.data_dir, controller.match)
                saves.clear_autosave(self.data_dir)
            else:
                saves.autosave(record, self.data_dir)
        except (OSError, saves.SaveError) as error:
            self.notify(f"Autosave failed: {error}", severity="warning")

    def start_match(self, controller: Any) -> None:
        from .screens.table import TableScreen

        controller.on_action = self.autosave
        self.push_screen(TableScreen(controller))

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


def _default_data_dir(use_store: bool) -> Path | None:
    if not use_store:
        return None
    from unotable.store.paths import default_data_dir

    return default_data_dir()
