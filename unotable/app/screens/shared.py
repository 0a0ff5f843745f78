"""Shared tables (served only): the server's open tables, to join, watch or create one.

The list asks the server's table service over its local socket and refreshes itself every
two seconds while it is on top; covered (a table, a dialog) it asks nothing, and it asks at
once when it is shown again. Joining or creating opens a connection that the table screen
then keeps.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.message import Message
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from unotable.tables.client import TableClient
from unotable.tables.protocol import ProtocolError

from ..widgets.choices import Choices
from ..widgets.keysbar import KeysBar
from .common import TooSmall

REFRESH_SECONDS = 2.0
ANSWER_SECONDS = 10.0


def table_line(info: dict[str, Any], titles: dict[str, str]) -> str:
    seats = info["seats"]
    free = sum(1 for s in seats if s["kind"] == "human" and s["open"] and not s["taken"])

    def label(seat: dict[str, Any]) -> str:
        if seat["kind"] != "human":
            return f"{seat['name']} ({seat['kind']})"
        return seat["name"] + (" (hot-seat)" if seat.get("local") else "")

    who = ", ".join(label(s) for s in seats if s["taken"] or s["kind"] != "human")
    if info["over"]:
        state = "over"
    elif not info["started"]:
        state = f"waiting, {free} free seat{'s' * (free != 1)}"
    else:
        state = f"hand {info['hand']}" + (f", {free} free" if free else "")
    watching = f" · {info['watching']} watching" if info.get("watching") else ""
    return f"{titles.get(info['game'], info['game'])}  [{state}]  {who}{watching}"


def describe_setup(setup: dict[str, Any]) -> str:
    """A new table's setup in a few words: "UNO, 4 seats, 2 for friends"."""
    from ..games import game_titles

    title = game_titles().get(setup["game"], setup["game"])
    seats = setup["seats"]
    free = sum(1 for seat in seats if seat.get("open"))
    return f"{title}, {len(seats)} seats, {free} for friends"


class SharedTablesScreen(Screen[None]):
    """The server's shared tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "join", "Join", priority=True, id="shared.join"),
        Binding("j", "join", "Join", show=False, id="shared.join-j"),
        Binding("w", "watch", "Watch", id="shared.watch"),
        Binding("c", "code", "Rejoin with a code", id="shared.code"),
        Binding("n", "create", "New shared table", id="shared.new"),
        Binding("escape", "back", "Lobby", id="shared.back"),
    ]

    def __init__(self, socket_path: str, setup: dict[str, Any]) -> None:
        """``setup``: the lobby's game, options and seats, for a new table."""
        super().__init__(classes="shared-tables")
        self.socket_path = socket_path
        self.setup = setup
        self.tables: list[dict[str, Any]] = []
        self._shown: list[tuple[str, str]] = []  # (table, line) as the list shows them
        self._busy = False
        self._refresher: Timer | None = None
        self._covered = False

    def compose(self) -> ComposeResult:
        yield TooSmall()  # (a served player's first screen: it must say so itself)
        yield Static("Shared tables on this server", id="shared-title")
        yield Choices(id="shared-list")
        yield Static("", id="shared-message")
        yield KeysBar()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._refresher = self.set_interval(REFRESH_SECONDS, self._tick)
        self._tick()

    def on_screen_suspend(self) -> None:
        """Covered by a table or a dialog: the list asks the server nothing until it is
        shown again. (Each message this screen handled underneath would also make Textual
        redraw the whole screen on top: a seated player who does nothing costs nothing.)"""
        self._covered = True
        if self._refresher is not None:
            self._refresher.pause()
        self.workers.cancel_group(self, "list")

    def on_screen_resume(self) -> None:
        if self._covered and self._refresher is not None:
            self._covered = False
            self._refresher.reset()  # running again, the next refresh a whole interval on
            self._tick()  # and one now: tables may have come and gone meanwhile

    def _tick(self) -> None:
        if not self._busy and self.is_active:
            self.run_worker(self.refresh_list(), exclusive=True, group="list")

    def _say(self, text: str) -> None:
        # Text, not a markup string: it may carry a server's reason or a table's names
        with contextlib.suppress(NoMatches):  # the screen may be closing (Esc mid-join)
            self.query_one("#shared-message", Static).update(Text(text))

    async def refresh_list(self) -> None:
        try:
            client = await TableClient.connect(self.socket_path)
        except OSError:
            self._say("The server's shared tables are not available.")
            return
        try:
            await client.send({"type": "list"})
            answer = await client.receive(timeout=ANSWER_SECONDS)
        except (OSError, TimeoutError, ValueError):
            answer = None
        finally:
            await client.close()
        if not answer or answer.get("type") != "tables":
            return
        try:
            listing = self.query_one(OptionList)
        except NoMatches:
            return  # the screen closed (Esc) while the answer came
        from ..games import game_titles

        self.tables = answer["tables"]
        titles = game_titles()
        shown = [(str(t["table"]), table_line(t, titles)) for t in self.tables]
        if shown == self._shown and listing.option_count:
            return  # nothing shown changes: keep the list (and its highlight), draw nothing
        self._shown = shown
        highlighted = listing.highlighted
        listing.clear_options()
        if not self.tables:
            empty = f"No shared table yet. {self._new_table_hint()}"
            listing.add_option(Option(Text(empty), disabled=True))
            return
        listing.add_options([Option(Text(line), id=table) for table, line in shown])
        listing.highlighted = min(highlighted or 0, len(self.tables) - 1)

    def _new_table_hint(self) -> str:
        if any(seat.get("open") for seat in self.setup["seats"]):
            return (
                f"N creates one from your lobby setup ({describe_setup(self.setup)}); Esc: "
                "the lobby, to choose another game or play alone."
            )
        return (
            f"Your lobby setup ({describe_setup(self.setup)}) has no seat for a friend: in "
            "the lobby (Esc), make their seats Human, then J and N here."
        )

    def _chosen(self) -> str | None:
        """The highlighted table (the first, while the list has no highlight yet)."""
        if not self.tables:
            return None
        try:
            listing = self.query_one(OptionList)
        except NoMatches:
            return None  # keys typed ahead of Esc reach a screen already closing
        index = listing.highlighted if listing.highlighted is not None else 0
        return str(self.tables[min(index, len(self.tables) - 1)]["table"])

    class JoinAfterKeys(Message):
        """Sent from the list up the way its keys go: the join, after the keys before it."""

    def action_join(self) -> None:
        # Enter is a priority key: Textual runs it at once, while a Down typed just before
        # it still makes its way from the list up to the app, where its binding runs (Down
        # Enter, read together, joined the table above the one chosen). This message takes
        # the same way up, behind the Down; the join then waits behind it at the app.
        try:
            listing = self.query_one(OptionList)
        except NoMatches:
            return
        listing.post_message(self.JoinAfterKeys())

    @on(JoinAfterKeys)
    def _join_after_keys(self, message: JoinAfterKeys) -> None:
        message.stop()
        self.app.call_later(self._join_chosen)

    def _join_chosen(self) -> None:
        table = self._chosen()
        if table is not None:
            app: Any = self.app
            code = app.shared_codes.get(table)  # this player's seat there, from before
            self._open({"type": "join", "table": table, "code": code})

    def action_code(self) -> None:
        """Sit down again at your seat with the code the table showed you (when you did not
        log in with a key, the code is what proves the seat is yours)."""
        table = self._chosen()
        if table is None:
            return

        def entered(code: str | None) -> None:
            if code:
                self._open({"type": "join", "table": table, "code": code.strip().lower()})

        self.app.push_screen(CodeScreen(), entered)

    def action_watch(self) -> None:
        table = self._chosen()
        if table is not None:
            self._open({"type": "watch", "table": table})

    def action_create(self) -> None:
        others = [
            (i, seat["name"]) for i, seat in enumerate(self.setup["seats"]) if seat.get("open")
        ]
        if not others:
            self._say(self._new_table_hint())
            return

        def planned(here: list[int] | None) -> None:
            if here is None:
                return
            if len(here) == len(others):
                self._say("Leave at least one seat open for a friend (N to choose again).")
                return
            seats = [
                {**seat, "open": False, "here": True} if i in here else seat
                for i, seat in enumerate(self.setup["seats"])
            ]
            self._open({"type": "create", **self.setup, "seats": seats})

        self.app.push_screen(SeatPlanScreen(others), planned)

    def action_back(self) -> None:
        self.app.pop_screen()

    def _open(self, message: dict[str, Any]) -> None:
        if self._busy:
            return
        self._busy = True
        self.run_worker(self._connect(message), group="open")

    async def _connect(self, message: dict[str, Any]) -> None:
        app: Any = self.app
        message = {**message, "identity": app.player_identity, "name": app.player_name}
        client: TableClient | None = None
        early: list[dict[str, Any]] = []  # chat lines sent on sitting down, before the snapshot
        try:
            client = await TableClient.connect(self.socket_path)
            await client.send(message)
            joined = None
            while True:
                answer = await client.receive(timeout=ANSWER_SECONDS)
                if answer is None or answer["type"] in ("refused", "closed"):
                    self._say(f"Not possible: {answer['reason'] if answer else 'no answer'}")
                    await client.close()
                    return
                if answer["type"] == "joined":
                    joined = answer
                elif answer["type"] == "snapshot" and joined is not None:
                    break
                elif joined is not None:
                    early.append(answer)
        except (OSError, TimeoutError, ValueError, ProtocolError) as error:
            self._say(f"The table did not answer ({error or 'timed out'}).")
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.close()
            return
        except asyncio.CancelledError:
            # the list closed (Esc) while the table answered: leave the seat, not a ghost
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.close()
            raise
        finally:
            self._busy = False
        from unotable.tables.remote import RemoteTable

        if joined.get("code"):
            app.shared_codes[joined["table"]] = joined["code"]
        remote = RemoteTable(client, joined, answer, early)
        if self not in app.screen_stack:
            await remote.leave()  # Esc came first: the player no longer wants this table
            return
        app.start_shared(remote)


class CodeScreen(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Back", id="code.back")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Your seat's rejoin code", classes="dialog-title")
            yield Input(placeholder="six letters and digits, as the table showed", max_length=12)
            yield Static("Enter sits you down; Esc goes back", classes="dialog-hint")
        yield KeysBar()

    @on(Input.Submitted)
    def _entered(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SeatPlanScreen(ModalScreen[list[int] | None]):
    """Which of the other Human seats friends take from their own terminals, and which are
    played here, hot-seat at this keyboard. Dismisses with the seats played here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back", id="seat-plan.back")
    ]

    def __init__(self, seats: list[tuple[int, str]]) -> None:
        super().__init__()
        self.seats = seats
        self.here: set[int] = set()

    def _prompt(self, seat: int, name: str) -> Text:
        where = "here, at this keyboard" if seat in self.here else "open for a friend"
        return Text(f"{seat + 1}  {name}: {where}")  # the name as typed, never markup

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Who sits where?", classes="dialog-title")
            yield Static(
                "A friend takes an open seat from their own terminal. A seat played here is "
                "hot-seat: the keyboard is handed over, and each sees only their own cards.",
                classes="dialog-text",
            )
            yield Choices(
                Option("Create the table", id="create"),
                *(Option(self._prompt(i, name), id=f"seat-{i}") for i, name in self.seats),
            )
            yield Static(
                "Enter creates it, or on a seat switches it; Esc goes back", classes="dialog-hint"
            )
        yield KeysBar()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        if event.option_id == "create":
            self.dismiss(sorted(self.here))
            return
        seat = int(str(event.option_id).removeprefix("seat-"))
        self.here ^= {seat}
        name = dict(self.seats)[seat]
        event.option_list.replace_option_prompt(f"seat-{seat}", self._prompt(seat, name))

    def action_cancel(self) -> None:
        self.dismiss(None)
