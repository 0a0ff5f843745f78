"""Back-pressure at the shared tables: clients that never read cost the server little, a
client past its buffer is dropped with a reason, and memory is given back."""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from test_tables import Bot, connect, until_true

from unotable.tables import service as service_module
from unotable.tables import table as table_module
from unotable.tables.protocol import frame
from unotable.tables.service import TableService

MIB = 1024 * 1024
MAX_BUFFERED = MIB  # what a connection may have waiting, unread (table.MAX_BUFFERED)
CLIENTS = 200
SEATS = [
    {"name": "Ann", "kind": "human"},
    {"name": "", "kind": "human", "open": True},
    {"name": "Cy", "kind": "normal"},
]


def rss() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    tables = TableService(tmp_path, speed="instant", hand_over_wait=0.0, turn_time=None)
    await tables.start()
    try:
        yield tables
    finally:
        await tables.stop()


async def silent_watchers(service: TableService, table_id: str, n: int) -> list[socket.socket]:
    """``n`` clients that watch ``table_id`` and never read a byte."""
    loop = asyncio.get_running_loop()
    socks: list[socket.socket] = []
    base = len(service.connections)
    for _ in range(n):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        await loop.sock_connect(sock, str(service.socket_path))
        socks.append(sock)
        if len(socks) % 50 == 0 or len(socks) == n:  # within the listening backlog
            await until_true(lambda: len(service.connections) == base + len(socks))
    for sock in socks:
        await loop.sock_sendall(sock, frame({"type": "watch", "table": table_id}))
    return socks


async def test_200_clients_that_never_read_cost_little_and_memory_comes_back(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "MAX_CONNECTIONS", CLIENTS + 1)  # and Ann
    ann = await connect(service, 1)
    await ann.client.send({"type": "create", "game": "uno", "seats": SEATS, "name": "Ann"})
    await ann.until(lambda b: b.snap is not None, play=False)
    await ann.client.send({"type": "start"})
    (table,) = service.tables.values()
    await ann.until(lambda b: b.snap.version >= 2)
    gc.collect()
    before = rss()
    socks = await silent_watchers(service, table.table_id, CLIENTS)
    await until_true(lambda: len(table.connections) == CLIENTS + 1)
    # Ann and two computers play on; every action is news for 200 clients that do not read
    target = table.controller.version + 600
    grown = [0]

    def done(bot: Bot) -> bool:
        grown.append(rss() - before)
        return max(grown) > 20 * MIB or bot.snap.version >= target or bot.snap.over

    await ann.until(done)
    peak = max(grown)
    waiting = [
        c.writer.transport.get_write_buffer_size() for c in table.connections if c.seat is None
    ]
    print(f"growth {peak / MIB:.1f} MiB; largest unread buffer {max(waiting) / 1024:.0f} KiB")
    assert peak <= 20 * MIB
    assert max(waiting) <= MAX_BUFFERED
    for sock in socks:
        sock.close()
    await until_true(lambda: len(service.connections) == 1 and len(table.connections) == 1)
    gc.collect()
    await service.tidy()  # the server's periodic tidy gives freed memory back
    after = rss() - before
    print(f"after the clients left: {after / MIB:.1f} MiB over the start")
    assert after <= max(peak / 2, 4 * MIB)


async def test_a_client_past_its_buffer_is_dropped_with_a_reason(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "unotable.tables")
    ann = await connect(service, 1)
    await ann.client.send({"type": "create", "game": "uno", "seats": SEATS, "name": "Ann"})
    await ann.until(lambda b: b.snap is not None, play=False)
    (table,) = service.tables.values()
    (sock,) = await silent_watchers(service, table.table_id, 1)
    await until_true(lambda: len(table.connections) == 2)
    (silent,) = [c for c in table.connections if c.seat is None]
    size = silent.writer.transport.get_write_buffer_size
    line = "x" * 1000
    for _ in range(4 * MAX_BUFFERED // len(line)):  # the table talks; one client never reads
        table.system(line)
        if silent.closed:
            break
        await asyncio.sleep(0)
    assert silent.closed and size() <= MAX_BUFFERED
    await until_true(lambda: silent not in table.connections)
    assert "connection dropped: more than 1024 KiB unread" in caplog.text
    sock.close()


async def test_spectators_in_step_share_one_snapshot_frame(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each change is built and encoded once per kind of viewer, not once per connection
    ann = await connect(service, 1)
    await ann.client.send({"type": "create", "game": "uno", "seats": SEATS, "name": "Ann"})
    await ann.until(lambda b: b.snap is not None, play=False)
    (table,) = service.tables.values()
    socks = await silent_watchers(service, table.table_id, 30)
    await until_true(lambda: len(table.connections) == 31)
    counts = {"encoded": 0, "sent": 0}
    per_broadcast: list[tuple[int, int]] = []
    table_encode, send_frame = table_module.encode, table_module.Connection.send_frame
    broadcast = table.broadcast

    def counting_encode(snap: Any) -> Any:
        counts["encoded"] += 1
        return table_encode(snap)

    def counting_send(conn: Any, data: bytes) -> None:
        counts["sent"] += b'"type":"snapshot"' in data
        send_frame(conn, data)

    def counting_broadcast() -> None:
        counts.update(encoded=0, sent=0)
        broadcast()
        per_broadcast.append((counts["encoded"], counts["sent"]))

    monkeypatch.setattr(table_module, "encode", counting_encode)
    monkeypatch.setattr(table_module.Connection, "send_frame", counting_send)
    monkeypatch.setattr(table, "broadcast", counting_broadcast)
    await ann.client.send({"type": "start"})
    await ann.until(lambda b: b.snap.version >= 1)
    busiest = max(per_broadcast, key=lambda pair: pair[1])
    assert busiest[1] == 31 and busiest[0] == 2  # Ann's seat's frame, and the spectators'
    for sock in socks:
        sock.close()
