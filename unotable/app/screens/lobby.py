"""The lobby: pick a game, the seats and the options, then start (or continue a save)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from ..widgets.choices import Choices
from ..widgets.keysbar import KeysBar
from .common import KEPT_KEYS, TooSmall

# keys kept while the lobby fills in: more than anyone types ahead in that second
MAX_TYPED_AHEAD = 32

if TYPE_CHECKING:
    from unotable.controller.seats import Seat
    from unotable.engine import GameSpec

# The first frame shows the built-in games before the engine, the controller and the
# settings are imported (a test checks these against the engine's names); the fill then
# lists every game of the registry by its presentation's title (``game_titles()``).
GAME_TITLES = {
    "uno": "UNO",
    "uno-minecraft": "UNO Minecraft",
    "uno-hearts": "UNO Hearts",
    "wild-twist-hearts": "Wild Twist Hearts",
}

MAX_SEATS = 8
DEFAULT_GAME = "uno"
DEFAULT_SEAT_COUNT = 4


class Games(dict[str, "GameSpec"]):
    """game id -> spec, each engine imported the first time its game is looked at."""

    def __missing__(self, game_id: str) -> GameSpec:
        from unotable.engine import get_game

        spec = get_game(game_id)
        self[game_id] = spec
        return spec


HOUSE_RULES_TITLE = "House rules (not in the rulebook)"


class LobbyScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start", id="lobby.start"),
        Binding("c", "continue", "Continue", id="lobby.continue"),
        Binding("m", "saved_matches", "Saved", id="lobby.saved"),
        Binding("j", "shared_tables", "Shared tables", id="lobby.shared"),
        Binding("o", "settings", "Settings", id="lobby.settings"),
        Binding("t", "stats", "Stats", id="lobby.stats"),
        Binding("f1", "rules", "Rules", id="lobby.rules"),
        Binding("question_mark", "keys", "Keys", id="lobby.keys"),
        Binding("q", "quit_app", "Quit", id="lobby.quit"),
        Binding("plus,equals_sign", "more_seats", "More seats", show=False, id="lobby.more-seats"),
        Binding("minus", "fewer_seats", "Fewer seats", show=False, id="lobby.fewer-seats"),
    ]

    def __init__(self) -> None:
        super().__init__(classes="lobby")
        self.games = Games()
        self.game_ids = list(GAME_TITLES)
        self.game_id = DEFAULT_GAME
        self.seat_count = DEFAULT_SEAT_COUNT
        self.saved_options: dict[str, dict[str, Any]] = {}
        self._option_generation = 0
        self.filled = False  # its seats are in (mounted just after the first frame)
        self.seat_names: list[str] = []  # set in the fill, with the controller's defaults
        self.seat_kinds: list[str] = []
        self._start_focus_pending = False
        self._fill_scheduled = False
        self.complete = False  # the game's options too: the whole lobby is there
        self._covered = False  # a table opened over the lobby while it was filling in
        self._typed_ahead: list[events.Key] = []  # keys typed while it filled in

    def _option_id(self, name: str) -> str:
        return f"opt{self._option_generation}-{name}"

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield TooSmall()
        yield Static(
            "[b]unotable[/b] · choose a game, the seats and the options, then Start",
            id="lobby-title",
        )
        with Horizontal(id="lobby-body"):
            with Vertical(id="lobby-left"):
                yield Label("Game", classes="section-title")
                yield Choices(
                    *[Option(GAME_TITLES[gid], id=gid) for gid in self.game_ids],
                    id="games",
                    compact=True,
                )
                yield Static("", id="game-desc")
                yield Label("Options", classes="section-title")
                # not focusable itself: Tab goes from the games straight to the first
                # option, never to a box that shows no focus (its help scrolls into view)
                yield VerticalScroll(id="options", can_focus=False)
            yield Vertical(id="lobby-right")

    def _right_side(self) -> list[Widget]:
        widgets: list[Widget] = [
            Horizontal(
                Label("Seats", classes="section-title"),
                Button("−", id="fewer", compact=True),
                Static("4", id="seat-count"),
                Button("+", id="more", compact=True),
                Static("", id="seat-limits"),
                id="seat-count-row",
            )
        ]
        widgets += [self._seat_row(i) for i in range(self.seat_count)]
        widgets += [
            Horizontal(
                Label("Seed", classes="seat-number-wide"),
                Input(placeholder="random", type="integer", id="seed", compact=True),
                id="seed-row",
            ),
            Static("", id="lobby-message"),
            Horizontal(
                Button("Start", id="start", variant="primary", compact=True),
                Button("Continue", id="continue", compact=True),
                Button("Saved", id="saved", compact=True, tooltip="Saved matches (M)"),
                id="lobby-buttons",
            ),
        ]
        return widgets

    def _seat_row(self, i: int) -> Horizontal:
        from unotable.controller.seats import KIND_LABELS, SEAT_KINDS

        from ..widgets.cycle import Cycle

        name = Input(self.seat_names[i], id=f"seat-name-{i}", max_length=12, compact=True)
        name.add_class("seat-name")
        kinds = [(KIND_LABELS[k], k) for k in SEAT_KINDS]
        kind = Cycle(kinds, self.seat_kinds[i], id=f"seat-kind-{i}")
        kind.add_class("seat-kind")
        number = Label(f"{i + 1}", classes="seat-number")
        return Horizontal(number, name, kind, classes="seat-row", id=f"seat-row-{i}")

    def on_mount(self) -> None:
        # The game list is drawn first; seats and options follow right after that frame
        # (the app calls after_first_frame; a lobby opened later fills after a refresh).
        app: Any = self.app
        if getattr(app, "first_frame_shown", True) and not self._fill_scheduled:
            self._fill_scheduled = True
            self.call_after_refresh(self._fill)

    def after_first_frame(self) -> None:
        """Called by the app once its first frame is on the terminal: fill in the rest
        once that frame is out (a table opened at once covers the lobby first)."""
        if not self._fill_scheduled:
            self._fill_scheduled = True
            self.call_after_refresh(self._fill)

    def holds(self, key: events.Key) -> bool:
        """Keep a key typed while the lobby fills in (typed ahead, or read with the first
        frame) until it has: it would do nothing yet, or act on half a lobby."""
        if self.complete or key.key in KEPT_KEYS:
            return False
        if len(self._typed_ahead) < MAX_TYPED_AHEAD:  # a flood is not kept, nor replayed
            self._typed_ahead.append(key)
        return True

    def covered(self) -> None:
        """A table, or a served player's first screen (the Shared tables list), opens over
        the lobby. What the lobby has not begun to fill in yet waits until it shows again:
        beneath them it would be laid out and styled for nothing (its seats and options
        cost as much as the table's own opening, and a served player's process the memory
        of every widget it ran, see docs/serve.md)."""
        if not self.complete:
            self._covered = True
            self._typed_ahead.clear()  # meant for the lobby, not for the table

    async def _fill(self) -> None:
        """After the first frame: the seats, then the game's options; a step not begun
        while a table covers the lobby is taken once it shows again."""
        if not self.filled and not self._covered:
            await self._fill_seats()
        if self.filled and not self.complete and not self._covered:
            await self._fill_options()
        if self._covered:
            self._show_notices(in_lobby=False)  # they cannot wait for the lobby

    def _load_setup(self) -> None:
        """The setup this player last used (their settings), or the defaults."""
        from unotable.controller.seats import DEFAULT_NAMES, HUMAN

        app: Any = self.app
        self.seat_names = list(DEFAULT_NAMES[:MAX_SEATS])
        self.seat_kinds = [HUMAN] + ["normal"] * (MAX_SEATS - 1)
        self._restore(app.prefs.last_setup)

    async def _fill_seats(self) -> None:
        app: Any = self.app
        self._list_games()
        self._load_setup()
        right_side = self.query_one("#lobby-right").mount_all(self._right_side())
        footer = self.mount(KeysBar())
        await right_side
        await footer
        if not app.is_running:
            return  # the app closed as the seats were mounted: their buttons were never built
        self.filled = True
        self.refresh_bindings()
        if app.first_seed is not None:
            self.query_one("#seed", Input).value = str(app.first_seed)
        notice = app.refresh_saved() if not app.resume else None
        if notice:
            app.notices.append(notice)
        self._show_saved()
        if app.save_problem is not None:
            app.notices.append(app.save_problem_text())  # last: it stays in the message line

    async def _fill_options(self) -> None:
        games = self.query_one("#games", OptionList)
        if self.game_id in self.game_ids:
            games.highlighted = self.game_ids.index(self.game_id)
        await self._show_game()
        self.complete = True
        if self._start_focus_pending:
            self.query_one("#start", Button).focus()
        else:
            games.focus()
        self._show_notices(in_lobby=True)
        for key in self._typed_ahead:  # read again, in order, by a lobby all there now
            self.app.post_message(events.Key(key.key, key.character))
        self._typed_ahead.clear()

    def _show_notices(self, in_lobby: bool) -> None:
        """The app's notices as toasts, and the last one in the lobby's message line."""
        app: Any = self.app
        for notice in app.notices:
            self.notify(notice, severity="warning", timeout=10)
            if in_lobby:
                self._message(notice, error=True)
        app.notices.clear()

    def _list_games(self) -> None:
        """Every game with a presentation, registered ones too, replaces the first frame's."""
        from ..games import game_titles

        titles = game_titles()
        if list(titles.items()) == [(g, GAME_TITLES.get(g)) for g in self.game_ids]:
            return
        self.game_ids = list(titles)
        games = self.query_one("#games", OptionList)
        games.clear_options()
        games.add_options([Option(title, id=gid) for gid, title in titles.items()])
        if self.game_id not in titles:
            self.game_id = DEFAULT_GAME

    @on(events.DescendantFocus)
    def _show_option_help(self, event: events.DescendantFocus) -> None:
        """An option that gets the focus shows its help too (the box scrolls to it)."""
        box = self.query_one("#options", VerticalScroll)
        row = event.widget
        while row.parent is not None and row.parent is not box:
            row = row.parent  # type: ignore[assignment]
        if row.parent is not box:
            return
        siblings = list(box.children)
        after = siblings[siblings.index(row) + 1 :]
        if after and after[0].has_class("option-help"):
            box.scroll_to_widget(after[0], animate=False)

    async def on_screen_resume(self) -> None:
        if self._covered and self.app.screen is self:  # (not its resume at start-up)
            self._covered = False
            await self._fill()
        if not self.complete:
            return  # its fill is on the way
        app: Any = self.app
        app.table_closed()
        notice = app.refresh_saved()
        if notice:
            self.notify(notice, severity="warning", timeout=10)
        self._show_saved()
        # back from a table: the game list has the keys again, so Enter Enter starts
        self.query_one("#games", OptionList).focus()

    def _show_saved(self) -> None:
        app: Any = self.app
        saved = app.saved
        count = saved.total if saved is not None else 0
        self.query_one("#continue", Button).display = app.has_saved()
        button = self.query_one("#saved", Button)
        button.display = count > 0
        button.label = f"Saved matches ({count})"
        self.refresh_bindings()

    # -- remembering the setup ------------------------------------------------------------

    def _restore(self, lobby: dict[str, Any]) -> None:
        from unotable.controller.seats import SEAT_KINDS

        if not lobby:
            return
        if lobby.get("game") in self.game_ids:
            self.game_id = lobby["game"]
        seats = lobby.get("seats") or []
        if isinstance(seats, list) and seats:
            self.seat_count = len(seats)
            for i, item in enumerate(seats[:MAX_SEATS]):
                try:
                    name, kind = str(item[0]), str(item[1])
                except (IndexError, TypeError):
                    continue
                self.seat_names[i] = name[:12]
                if kind in SEAT_KINDS:
                    self.seat_kinds[i] = kind
        options = lobby.get("options")
        if isinstance(options, dict):
            self.saved_options = {k: dict(v) for k, v in options.items() if isinstance(v, dict)}

    def setup(self) -> dict[str, Any]:
        """The lobby as it stands, in the form remembered in the settings."""
        self._remember_options()
        return {
            "game": self.game_id,
            "seats": [[s.name, s.kind] for s in self.seats()],
            "options": self.saved_options,
        }

    # -- game and options -----------------------------------------------------------------

    @property
    def spec(self) -> GameSpec:
        return self.games[self.game_id]

    @on(OptionList.OptionHighlighted, "#games")
    async def _game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if self.filled and event.option.id and event.option.id != self.game_id:
            self._remember_options()
            self.game_id = event.option.id
            await self._show_game()

    @on(OptionList.OptionSelected, "#games")
    def _game_selected(self, event: OptionList.OptionSelected) -> None:
        if self.filled:
            self.query_one("#start", Button).focus()
        else:
            self._start_focus_pending = True

    async def _show_game(self) -> None:
        from unotable.engine.errors import OptionError

        spec = self.spec
        self.query_one("#game-desc", Static).update(spec.description)
        self.seat_count = max(spec.min_players, min(spec.max_players, self.seat_count))
        self._show_seats()
        box = self.query_one("#options", VerticalScroll)
        await box.remove_children()
        self._option_generation += 1  # fresh ids: never confused with the old widgets
        saved = self.saved_options.get(spec.id, {})
        words = self._words()
        widgets = []
        grouped = False
        for option in spec.options:
            if option.group == "house" and not grouped:
                grouped = True  # RULES §4: shown apart from the rulebook's own options
                widgets.append(Label(HOUSE_RULES_TITLE, classes="section-title house-rules"))
            value = saved.get(option.name, option.default)
            try:
                value = option.check(value)
            except OptionError:
                value = option.default
            widgets.append(_option_widget(self._option_id(option.name), option, value, words))
            help_text = words.option_help.get(option.name, option.help) if words else option.help
            widgets.append(Static(help_text, classes="option-help"))
        if not widgets:
            widgets.append(Static("This game has no options.", classes="option-help"))
        await box.mount_all(widgets)

    def _words(self) -> Any:
        """The game's presentation class (its words for options), or None without one."""
        from ..games import presentation_class

        try:
            return presentation_class(self.game_id)
        except ValueError:
            return None

    def _remember_options(self) -> None:
        from unotable.engine.errors import OptionError

        with contextlib.suppress(OptionError):
            self.saved_options[self.game_id] = self.options(check=False)

    def options(self, check: bool = True) -> dict[str, Any]:
        """The options as set; OptionError (with the option's label) if one is invalid."""
        from textual.widgets import Checkbox

        from unotable.engine.errors import OptionError

        from ..widgets.cycle import Cycle

        values: dict[str, Any] = {}
        for option in self.spec.options:
            matches = self.query(f"#{self._option_id(option.name)}")
            if not matches:
                continue
            widget = matches.first()
            if isinstance(widget, Checkbox | Cycle):
                values[option.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if not text.lstrip("-").isdigit():
                    if check:
                        raise OptionError(f"{option.label}: please enter a whole number")
                    continue
                values[option.name] = int(text)
        if check:
            try:
                return self.spec.check_options(values)
            except OptionError as error:
                label = {o.name: o.label for o in self.spec.options}
                message = str(error)
                for name, text in label.items():
                    message = message.replace(f"option {name} ", f"{text}: ")
                raise OptionError(message) from error
        return values

    # -- seats ----------------------------------------------------------------------------

    def _show_seats(self) -> None:
        spec = self.spec
        self.query_one("#seat-count", Static).update(str(self.seat_count))
        self.query_one("#seat-limits", Static).update(
            f"({spec.min_players}–{spec.max_players} players)"
        )
        rows = self.query(".seat-row")
        for i, row in enumerate(rows):
            row.display = i < self.seat_count
        missing = [
            self._seat_row(i)
            for i in range(len(rows), self.seat_count)
            if not self.query(f"#seat-row-{i}")
        ]
        if missing:  # rows are made when first needed: a quicker lobby
            self.query_one("#lobby-right").mount_all(missing, after=rows.last())

    def action_fewer_seats(self) -> None:
        self._fewer()

    def action_more_seats(self) -> None:
        self._more()

    @on(Button.Pressed, "#fewer")
    def _fewer(self) -> None:
        if self.seat_count > self.spec.min_players:
            self.seat_count -= 1
            self._show_seats()
        else:
            self._message(f"{self.spec.name} needs at least {self.spec.min_players} players.")

    @on(Button.Pressed, "#more")
    def _more(self) -> None:
        if self.seat_count < self.spec.max_players:
            self.seat_count += 1
            self._show_seats()
        else:
            self._message(f"{self.spec.name} seats at most {self.spec.max_players} players.")

    def seats(self) -> list[Seat]:
        from unotable.controller.seats import HUMAN, Seat

        from ..widgets.cycle import Cycle

        result = []
        for i in range(self.seat_count):
            matches = self.query(f"#seat-name-{i}")
            if not matches:  # not mounted yet
                result.append(Seat(self.seat_names[i], self.seat_kinds[i]))
                continue
            name = self.query_one(f"#seat-name-{i}", Input).value.strip() or f"Seat {i + 1}"
            kind = self.query_one(f"#seat-kind-{i}", Cycle).value
            result.append(Seat(name, kind if isinstance(kind, str) else HUMAN))
        return result

    def seed(self) -> int | None:
        text = self.query_one("#seed", Input).value.strip()
        return int(text) if text.lstrip("-").isdigit() else None

    # -- starting -------------------------------------------------------------------------

    def _message(self, text: str, error: bool = False) -> None:
        message = self.query_one("#lobby-message", Static)
        message.update(Text(text))  # may name a saved match's players or a file
        message.set_class(error, "error")

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        if not self.filled:
            return
        from unotable.engine.errors import OptionError

        try:
            options = self.options()
        except OptionError as error:
            self._message(str(error), error=True)
            return
        seats = self.seats()
        names = [s.name.casefold() for s in seats]
        if len(set(names)) < len(names):
            self._message("Please give every seat a different name.", error=True)
            return
        humans = [i for i, s in enumerate(seats) if s.is_human]
        unnamed = [i for i in humans if seats[i].name.casefold() == "you"]
        if len(humans) > 1 and unnamed:
            # at one keyboard "You" would be every player: each types their own name
            self._message(
                f"Two or more people play: please type a name for seat {unnamed[0] + 1} "
                '("You" would mean everyone).',
                error=True,
            )
            for field in self.query(f"#seat-name-{unnamed[0]}"):
                field.focus()
            return
        from unotable.controller import Controller

        app: Any = self.app
        app.prefs.last_setup = self.setup()
        app.save_prefs()
        try:
            controller = Controller(
                self.game_id, seats, options, self.seed(), speed=app.prefs.speed
            )
        except OptionError as error:
            self._message(str(error), error=True)
            return
        self._message("")
        app.start_match(controller)

    @on(Button.Pressed, "#continue")
    def action_continue(self) -> None:
        app: Any = self.app
        if app.has_saved():
            app.continue_saved()
        else:
            self._message("There is no saved match to continue.")

    @on(Button.Pressed, "#saved")
    def action_saved_matches(self) -> None:
        from .saved import SavedMatchesScreen

        app: Any = self.app

        def chosen(match_id: str | None) -> None:
            if match_id is not None:
                app.resume_saved(match_id)

        self.app.push_screen(SavedMatchesScreen(), chosen)

    def action_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.push_screen(SettingsScreen())

    def action_stats(self) -> None:
        from unotable.app.screens.stats import StatsScreen

        app: Any = self.app
        self.app.push_screen(StatsScreen(app.data_dir))

    def action_rules(self) -> None:
        from .help import RulesScreen

        self.app.push_screen(RulesScreen(self.game_id or DEFAULT_GAME))

    def action_keys(self) -> None:
        from .help import KeysScreen

        self.app.push_screen(KeysScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        app: Any = self.app
        if action in ("continue", "saved_matches"):
            return app.has_saved()
        if action == "shared_tables":
            return app.tables_socket is not None
        return True

    def action_shared_tables(self) -> None:
        """The server's shared tables; a new one takes this lobby's game, options and seats
        (the first seat is this player's, other human seats are open to anyone)."""
        from unotable.engine.errors import OptionError

        from .shared import SharedTablesScreen

        app: Any = self.app
        if not self.filled or app.tables_socket is None:
            return
        try:
            setup = self.shared_setup()
        except OptionError as error:
            self._message(str(error), error=True)
            return
        self.app.push_screen(SharedTablesScreen(app.tables_socket, setup))

    def shared_setup(self) -> dict[str, Any]:
        """What a new shared table takes: this lobby's game, options and seats (the first
        seat is this player's, other human seats are open to anyone). A lobby not filled
        in yet gives the setup the player last used. OptionError if an option is invalid."""
        from unotable.engine.errors import OptionError

        app: Any = self.app
        if self.filled:
            options = self.options()
        else:
            if not self.seat_names:
                self._load_setup()
            try:
                options = self.spec.check_options(self.saved_options.get(self.game_id, {}))
            except OptionError:  # (settings from another version): the game's defaults
                options = self.spec.check_options({})
        seats = [
            {"name": s.name, "kind": s.kind, "open": i > 0 and s.is_human}
            for i, s in enumerate(self.seats())
        ]
        seats[0] = {"name": app.player_name or seats[0]["name"], "kind": "human"}
        return {"game": self.game_id, "options": options, "seats": seats}

    def action_quit_app(self) -> None:
        self.app.exit()

    def action_request_quit(self) -> None:
        self.app.exit()


def _option_widget(widget_id: str, option: Any, value: Any, words: Any = None) -> Any:
    from ..widgets.cycle import Cycle
    from ..widgets.toggle import Toggle

    kind, label = option.kind, option.label
    if kind == "bool":
        return Toggle(label, bool(value), id=widget_id, compact=True, classes="option")
    if kind == "choice":
        return Horizontal(
            Label(label, classes="option-label"),
            Cycle(
                [(_choice_label(option.name, c, words), c) for c in option.choices],
                value,
                id=widget_id,
            ),
            classes="option-row",
        )
    return Horizontal(
        Label(label, classes="option-label"),
        Input(str(value), type="integer", id=widget_id, compact=True, max_length=6),
        classes="option-row",
    )


def _choice_label(option: str, value: Any, words: Any = None) -> str:
    if words is not None:
        return str(words.choice_label(option, value))
    return str(value).replace("_", " ")
