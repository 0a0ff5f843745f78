"""A table at this terminal: one controller, driven by one ``Runner``, shown on one screen.

After every change (a computer's move, a deal, a human's intent) it builds one snapshot
for whoever may look at the screen now and tells its listeners; the screen draws that and
nothing else. Intents come back through ``send``.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from unotable.engine import EngineError, Event, IllegalAction

from .runner import Runner
from .snapshot import (
    Command,
    Intent,
    Leave,
    News,
    Ready,
    Say,
    Seen,
    SetSpeed,
    SkipAhead,
    Snapshot,
    StartNow,
    TakeBack,
    TookKeyboard,
)
from .table import Newsroom

if TYPE_CHECKING:
    from .controller import Controller


class LocalTable(Newsroom):
    shared = False
    rejoin_code = None

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        controller.one_screen = True
        self.runner = Runner(controller, on_change=self._changed, on_notice=self._notice)
        super().__init__()
        self._viewer: int | str | None = "unset"
        self._events: list[Event] = []  # the viewer's log, as it was sent to the screen
        self._snapshot = self._take()

    @property
    def game_id(self) -> str:
        return self.controller.game_id

    async def drive(self) -> None:
        """The match's one loop (run it as a task while the table is open)."""
        await self.runner.drive()

    # -- news ---------------------------------------------------------------------------------

    def _take(self) -> Snapshot:
        """One snapshot for the screen's viewer; its log grows from what was sent before."""
        c = self.controller
        viewer = c.screen_seat()
        if viewer != self._viewer:
            self._viewer = viewer
            self._events = []  # another viewer: their own log, from the start
        snap = c.snapshot(viewer, since=len(self._events))
        self._events.extend(snap.events)
        return dataclasses.replace(snap, events=tuple(self._events), log_start=0)

    def _changed(self) -> None:
        self._snapshot = self._take()
        self._tell(News("snapshot", self._snapshot))
        self.runner.wake()

    def _notice(self, text: str) -> None:
        self._tell(News("notice", text=text))

    # -- what the screen sends ---------------------------------------------------------------

    def send(self, command: Command) -> None:
        c = self.controller
        try:
            if isinstance(command, Intent):
                c.submit(command)
            elif isinstance(command, Ready):
                c.ready(c.humans)  # one keyboard: whoever pressed it speaks for the table
            elif isinstance(command, TookKeyboard):
                self._took_keyboard(command)
            elif isinstance(command, Seen):
                c.seen(command.seat)
            elif isinstance(command, SkipAhead):
                c.skip_ahead()
            elif isinstance(command, SetSpeed):
                c.set_speed(command.speed)
            elif isinstance(command, TakeBack):
                self._notice(self._take_back())
            elif isinstance(command, Leave):
                self.runner.stop()
                return
            elif isinstance(command, Say | StartNow):
                raise IllegalAction("that is for shared tables")
            else:
                raise IllegalAction(f"not something a table does: {command!r}")
        except (EngineError, ValueError) as error:
            self._tell(News("refused", text=str(error)))
            return
        self._changed()

    def _took_keyboard(self, command: TookKeyboard) -> None:
        c = self.controller
        exposed = c.exposed()
        if command.catch and exposed is not None and c.catch_action(command.seat) is not None:
            c.submit(Intent(command.seat, f"catch:{exposed}"))
        c.show_to(command.seat)

    def _take_back(self) -> str:
        c = self.controller
        viewer = c.screen_seat()
        undo = c.undo()
        mine = [text for seat, text in undo.taken_back if seat == viewer]
        others = len(undo.taken_back) - len(mine)
        after = f", and {others} computer move{'s' * (others != 1)} after it" if others else ""
        self._viewer = "unset"  # the log starts again from the rebuilt match
        return f"Took back {', '.join(mine) or 'your move'}{after}."

    # -- words for the screen -----------------------------------------------------------------

    def recent_chat(self) -> list[tuple[str | None, str]]:
        return []  # no chat at one keyboard

    def seat_labels(self) -> list[str]:
        return [s.label for s in self._snapshot.seats]

    def counts_down(self) -> bool:
        return False  # one keyboard: nobody is away

    def waiting_words(self, seat: int) -> str:
        snap = self._snapshot
        name = snap.name(seat)
        if snap.waiting_human:
            return f"Waiting for {name} to take the keyboard."
        skip = "" if snap.fast_forward else "  (F skips ahead to the next human decision)"
        return f"{name} ({snap.seats[seat].label}) is playing…{skip}"
