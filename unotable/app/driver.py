"""Textual's Linux driver with an input thread that sleeps while no key comes (issue #30).

Textual's input thread wakes ten times a second, key or no key: to see whether it should
stop, and whether a lone Escape has waited long enough to be a key of its own (rather than
the start of an escape sequence). For a player sitting at a served table that was 0.105%
of a core, all of it these wakeups, in every session. This driver's thread wakes for the
same two reasons, and only when they apply: just after the escape delay of the last input,
and when the driver stops (the stop event also writes to a pipe the thread watches).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import time
from codecs import getincrementaldecoder
from threading import Event
from typing import Any

from textual import constants
from textual._parser import ParseError
from textual._xterm_parser import XTermParser
from textual.drivers.linux_driver import LinuxDriver

# after the escape delay, so that the parser's own clock has passed its deadline as well
ESCAPE_MARGIN = 0.02
READ_SIZE = 4096  # what Textual reads at once


class WakingEvent(Event):
    """An event whose ``set`` also wakes a thread that waits on ``wake_fd``."""

    def __init__(self) -> None:
        super().__init__()
        self.wake_fd, self._wake_write = os.pipe()
        os.set_blocking(self.wake_fd, False)
        os.set_blocking(self._wake_write, False)

    def set(self) -> None:
        super().set()
        # (a full pipe already wakes the thread)
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_write, b"!")

    def drain(self) -> None:
        """Empty the pipe (read by the woken thread)."""
        with contextlib.suppress(BlockingIOError):
            while os.read(self.wake_fd, 512):
                pass

    def close(self) -> None:
        for fd in (self.wake_fd, self._wake_write):
            os.close(fd)
        self.wake_fd = self._wake_write = -1


class QuietLinuxDriver(LinuxDriver):
    """Textual's :class:`LinuxDriver`, whose input thread is idle while the player is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.exit_event: WakingEvent = WakingEvent()

    def close(self) -> None:
        super().close()
        if self.exit_event.wake_fd >= 0:
            self.exit_event.close()

    def run_input_thread(self) -> None:
        """Read keys (and mouse, paste, focus) as Textual's thread does, asleep in between."""
        fileno = self.fileno
        exit_event = self.exit_event
        # the selector Textual's own thread uses (it works for a tty everywhere)
        selector = selectors.SelectSelector()
        selector.register(fileno, selectors.EVENT_READ)
        selector.register(exit_event.wake_fd, selectors.EVENT_READ)
        parser = XTermParser(self._debug)
        decode = getincrementaldecoder("utf-8")().decode
        escape_due: float | None = None  # when a pending Escape (if any) is a key

        def read_keys(final: bool = False) -> bool:
            """Parse what is ready to read; False at end of input."""
            data = decode(os.read(fileno, READ_SIZE), final=final)
            if not data:
                return False
            for message in parser.feed(data):
                self.process_message(message)
            return True

        try:
            while not exit_event.is_set():
                timeout = None
                if escape_due is not None:
                    timeout = max(0.0, escape_due - time.monotonic())
                ready = selector.select(timeout)
                for key, _ in ready:
                    if key.fd == fileno:
                        if not read_keys():
                            break  # (stdin piped and ended: as Textual does)
                        escape_due = time.monotonic() + constants.ESCAPE_DELAY + ESCAPE_MARGIN
                    else:
                        exit_event.drain()
                for message in parser.tick():
                    self.process_message(message)
                if escape_due is not None and time.monotonic() >= escape_due:
                    escape_due = None
            selector.unregister(exit_event.wake_fd)
            if selector.select(0.1):  # a last read, as Textual's thread makes
                read_keys(final=True)
            for message in parser.tick():
                self.process_message(message)
        finally:
            selector.close()
            try:
                for _ in parser.feed(""):
                    pass
            except (EOFError, ParseError):
                pass
