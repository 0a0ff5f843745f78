"""A player's side of a shared table: sends intents, receives snapshots made for its seat."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from unotable.controller.snapshot import Snapshot
from unotable.controller.wire import decode

from .protocol import MAX_SERVER_FRAME, frame, read_frame


class TableClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, socket_path: Path | str) -> TableClient:
        reader, writer = await asyncio.open_unix_connection(
            str(socket_path), limit=MAX_SERVER_FRAME
        )
        return cls(reader, writer)

    async def send(self, message: dict[str, Any]) -> None:
        self.writer.write(frame(message))
        await self.writer.drain()

    def post(self, message: dict[str, Any]) -> bool:
        """Write a frame now, without waiting for it to be read (a player's intent leaves
        before their screen redraws); whether the caller should ``drain`` (the client's
        send buffer is full). ConnectionError if the connection is gone."""
        if self.writer.is_closing():
            raise ConnectionError("the connection to the table is closed")
        try:
            self.writer.write(frame(message))
        except RuntimeError as error:  # written after the end of the stream
            raise ConnectionError(str(error)) from None
        try:  # as drain() would wait: the transport paused its writer past the high mark
            transport = self.writer.transport
            return bool(transport.get_write_buffer_size() > transport.get_write_buffer_limits()[1])
        except (AttributeError, RuntimeError):
            return True

    async def receive(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next frame from the table (None when it closed the connection)."""
        return await asyncio.wait_for(read_frame(self.reader, MAX_SERVER_FRAME), timeout)

    def buffered(self) -> bool:
        """Whether a whole frame is already read in and waiting (a burst, while drawing was
        slow): the seat takes it in before drawing anything."""
        return b"\n" in self.reader._buffer  # StreamReader keeps what it read here

    async def intent(self, action: str, version: int | None = None) -> None:
        await self.send({"type": "intent", "action": action, "version": version})

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


def snapshot_of(message: dict[str, Any]) -> Snapshot:
    """The Snapshot inside a ``snapshot`` frame."""
    data = message["snapshot"]
    game = data["fields"]["game"]
    snap: Snapshot = decode(data, game)
    return snap
