"""The one loop that drives a match: it carries out ``Controller.next_step()``.

Every driver uses it: ``run`` plays inline (sim, tournaments, benchmarks, tests), jumping
a virtual clock to each due moment; ``drive`` is the same loop as a task on an asyncio
loop (the app's table, a shared table in the server), where a computer thinks in a worker
thread and the loop sleeps until something is due or a human's intent wakes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from .clock import VirtualClock
from .steps import AskHuman, Deal, Over, React, StandIn, Think, TimeOut, WaitUntil

if TYPE_CHECKING:
    from unotable.engine import Action

    from .controller import Controller, Request, Turn

log = logging.getLogger(__name__)

MAX_STEPS_PER_RUN = 2_000_000  # a guard against an engine that never ends

Changed = Callable[[], Awaitable[None] | None]
ThinkIn = Callable[[Callable[[], "Action"]], Awaitable["Action"]]


async def _in_thread(work: Callable[[], Action]) -> Action:
    return await asyncio.to_thread(work)


class Runner:
    def __init__(
        self,
        controller: Controller,
        *,
        on_change: Changed | None = None,
        on_notice: Callable[[str], None] | None = None,
        think_in: ThinkIn = _in_thread,
    ) -> None:
        """``on_change`` runs after every change the loop makes (save, then show; it may
        be a coroutine function); ``on_notice`` gets a line for the players (a computer
        that failed, a stand-in sitting down); ``think_in`` runs a computer's thinking."""
        self.controller = controller
        self.on_change = on_change
        self.on_notice = on_notice
        self.think_in = think_in
        self._wake: asyncio.Event | None = None
        self._stopped = False
        self._thinking: Request | None = None

    # -- inline ---------------------------------------------------------------------------

    def run(
        self, *, max_hands: int | None = None, max_actions: int | None = None, deal: bool = True
    ) -> Turn:
        """Play until a human must decide, the match ends, ``max_hands`` hands have ended
        in this call or ``max_actions`` actions were applied. Between hands the next is
        dealt at once when ``deal`` (nobody is shown the finished hand here).

        A virtual clock jumps to each due moment; a real one is slept on.
        """
        c = self.controller
        hands_at_start = len(c.hand_results)
        stop_at = None if max_actions is None else c.version + max_actions
        for _ in range(MAX_STEPS_PER_RUN):
            if stop_at is not None and c.version >= stop_at:
                break
            if max_hands is not None and len(c.hand_results) - hands_at_start >= max_hands:
                break
            step = c.next_step()
            if isinstance(step, Over):
                break
            if isinstance(step, StandIn):
                self._stand_in(step.seat)
            elif isinstance(step, TimeOut):
                self._time_out(step.seat)
            elif c.hand_over:
                if not deal:
                    break
                c.next_hand()
            elif isinstance(step, Think | React):
                if not c.perform(step.ask):
                    continue
            elif isinstance(step, WaitUntil) or (isinstance(step, AskHuman) and c.asks()):
                # a computer's pause, or the head start humans get to react: no human
                # acts here, so time moves on to the computer
                self._sleep_until(step.at if isinstance(step, WaitUntil) else c.asks()[0].due)
                continue
            else:
                break  # only a human may act now
            if self.on_change is not None:
                self._changed_inline()
        else:
            raise RuntimeError(f"match seed {c.match.seed} did not end")
        return c.turn()

    def _changed_inline(self) -> None:
        assert self.on_change is not None
        if inspect.isawaitable(self.on_change()):
            raise TypeError("run() cannot wait for a coroutine's on_change: use drive()")

    def _sleep_until(self, moment: float) -> None:
        clock = self.controller.clock
        if isinstance(clock, VirtualClock):
            clock.advance_to(moment)
        else:
            time.sleep(max(0.0, moment - clock.now()))

    # -- as a task --------------------------------------------------------------------------

    async def drive(self) -> None:
        """Drive the match until ``stop()``: deal, think, react and wait, one step at a time."""
        c = self.controller
        wake = self._wake = self._wake or asyncio.Event()
        while not self._stopped:
            wake.clear()
            step = c.next_step()
            if isinstance(step, Deal):
                c.next_hand()
            elif isinstance(step, StandIn):
                self._stand_in(step.seat)
            elif isinstance(step, TimeOut):
                self._time_out(step.seat)
            elif isinstance(step, React):
                if not c.react(step.ask):
                    continue  # nothing changed: it chose not to act
            elif isinstance(step, Think):
                if not await self._think(step):
                    continue
            elif isinstance(step, WaitUntil):
                await self._wait(wake, step.at, jump=True)
                continue
            else:
                # a human's move (or Over): on a virtual clock time stands still for them,
                # so they get their head start however fast the test presses keys
                until = step.until if isinstance(step, AskHuman) else None
                await self._wait(wake, until, jump=False)
                continue
            await self._changed()

    async def _think(self, step: Think) -> bool:
        c = self.controller
        request = c.request_for(step.ask)
        self._thinking = request
        action: Action | None
        try:
            action = await self.think_in(lambda: c.think(request))
        except asyncio.CancelledError:
            c.cancel_thinking(request)
            raise
        except Exception:  # a computer player's bug must not stop the table
            log.exception("the computer at seat %d failed", request.seat)
            self._notice(f"{c.name(request.seat)}'s computer player failed; it plays a legal card")
            action = None
        finally:
            self._thinking = None
        if self._stopped:
            return False
        return bool(c.deliver(request, action))

    async def _wait(self, wake: asyncio.Event, until: float | None, jump: bool) -> None:
        clock = self.controller.clock
        if isinstance(clock, VirtualClock):
            # nothing waits real time on a virtual clock: let intents already sent go
            # first, then jump to the moment due
            await asyncio.sleep(0)
            if jump and until is not None and not wake.is_set():
                clock.advance_to(until)
                return
            await wake.wait()
            return
        timeout = None if until is None else max(0.0, until - clock.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)

    async def _changed(self) -> None:
        if self.on_change is None:
            return
        result = self.on_change()
        if inspect.isawaitable(result):
            await result

    def _stand_in(self, seat: int) -> None:
        c = self.controller
        c.stand_in(seat)
        self._notice(f"A Normal computer plays for {c.name(seat)} until they return.")

    def _time_out(self, seat: int) -> None:
        c = self.controller
        c.time_out(seat)
        if c.standing_in(seat):
            self._notice(
                f"{c.name(seat)} missed two turns: a computer plays for them until they act."
            )
        else:
            self._notice(f"{c.name(seat)}'s time ran out: a computer played that turn.")

    def _notice(self, text: str) -> None:
        if self.on_notice is not None:
            self.on_notice(text)

    # -- from outside the loop ----------------------------------------------------------------

    def wake(self) -> None:
        """Something changed (an intent, a player came or went): look at the table again."""
        if self._wake is not None:
            self._wake.set()

    def stop(self) -> None:
        """End ``drive`` (a computer still thinking is asked to finish early)."""
        self._stopped = True
        if self._thinking is not None:
            self.controller.cancel_thinking(self._thinking)
        self.wake()
