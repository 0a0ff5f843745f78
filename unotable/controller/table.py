"""What a table screen talks to: the ``Table`` interface.

Two kinds implement it: ``LocalTable`` (a match at this terminal, driven here by a
``Runner``) and ``RemoteTable`` (a seat at a shared table, whose match is driven by the
server). A screen subscribes to its news, draws ``snapshot`` and sends commands back;
it never reaches behind the interface.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from .snapshot import Command, News, Snapshot

Listener = Callable[[News], None]


class Table(Protocol):
    game_id: str
    shared: bool  # a seat at a server's table (chat, rejoin code, presence)
    rejoin_code: str | None  # what a player needs to sit down again from elsewhere

    @property
    def snapshot(self) -> Snapshot:
        """The newest snapshot for this terminal (its log from the start)."""
        ...

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` with every piece of news, on the caller's event loop."""
        ...

    def unlisten(self, listener: Listener) -> None: ...

    def send(self, command: Command) -> None:
        """An intent or a request from this terminal. Never raises for a refused one:
        the answer comes back as news ("refused", with the reason)."""
        ...

    def recent_chat(self) -> list[tuple[str | None, str]]:
        """The latest chat lines (sender, text) sent before a screen started listening."""
        ...

    def seat_labels(self) -> list[str]:
        """Each seat's kind as the seats panel shows it ("Human", "Away", "Normal", ...)."""
        ...

    def waiting_words(self, seat: int) -> str:
        """What this terminal is told while ``seat``'s decision is awaited."""
        ...

    def counts_down(self) -> bool:
        """Whether ``waiting_words`` holds a countdown (an away player's seat waiting): the
        screen then redraws it every second."""
        ...


class Newsroom:
    """The listeners of a table and its newest snapshot: what both tables keep alike."""

    _snapshot: Snapshot

    def __init__(self) -> None:
        self._listeners: list[Listener] = []

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    def listen(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def unlisten(self, listener: Listener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _tell(self, news: News) -> None:
        for listener in list(self._listeners):
            listener(news)
