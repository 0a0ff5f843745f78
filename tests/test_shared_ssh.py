"""Three players over SSH at one shared table, each in their own terminal (a pty, read by
a terminal emulator): they find the table, sit down, play a whole hand with their keys,
and no screen any of them is sent ever shows another player's cards."""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import asyncssh
import pyte
import pytest
from test_serve_ssh import connect, host_key, open_table, running_table  # noqa: F401

from unotable.app.games import presentation_for
from unotable.controller.wire import encode
from unotable.tables import table as table_module
from unotable.tables.client import snapshot_of
from unotable.tables.service import TableService

WAIT = 30.0
COLS, ROWS = 100, 30


class Terminal:
    """One player's SSH client with a pty: what their screen shows, frame by frame."""

    def __init__(self, name: str, process: Any) -> None:
        self.name = name
        self.process = process
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.frames = 0
        self.pressed_at: Any = None

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def read(self, timeout: float) -> bool:
        """Take in what arrived within ``timeout``; False if nothing did."""
        try:
            chunk = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except TimeoutError:
            return False
        assert chunk, f"{self.name}'s session ended: {self.text()}"
        self.stream.feed(chunk)
        self.frames += 1
        return True

    async def until(self, words: str, check: Any = None) -> None:
        deadline = time.monotonic() + WAIT
        while words not in self.text():
            assert time.monotonic() < deadline, f"{self.name}: no {words!r} on\n{self.text()}"
            if await self.read(0.2) and check is not None:
                check(self)

    def press(self, keys: str) -> None:
        self.process.stdin.write(keys.encode())


def shows(text: str, labels: set[str]) -> set[str]:
    """Labels written whole on screen: between spaces, brackets or punctuation (a toast's
    edge over "Y15" leaves "Y1▌", which is not a card shown)."""
    return {
        label
        for label in labels
        if re.search(rf"(?<![^\s\[(:,]){re.escape(label)}(?=[\s\]),.:!]|$)", text)
    }


def cards_named(snapshot: Any) -> set[str]:
    found: set[str] = set()

    def walk(item: Any) -> None:
        if isinstance(item, dict):
            if "$card" in item:
                found.add(item["$card"])
            for value in item.values():
                walk(value)
        elif isinstance(item, list):
            for value in item:
                walk(value)

    walk(snapshot)
    return found


async def test_three_ssh_players_play_a_hand_at_one_table(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann_dir = tmp_path / "users" / "ann"
    ann_dir.mkdir(parents=True)
    setup = {
        "game": "uno-hearts",
        "seats": [["ann", "human"], ["bo", "human"], ["cy", "human"], ["Comp", "normal"]],
        "options": {"pass_three": False},
    }
    (ann_dir / "settings.json").write_text(json.dumps({"last_setup": setup}))
    async with running_table(host_key, data_dir=tmp_path, table_speed="instant") as server:
        service = server.tables
        assert isinstance(service, TableService)
        names = ("ann", "bo", "cy")
        connections = [await connect(server, username=name) for name in names]
        try:
            players = [
                Terminal(name, await open_table(conn, term_size=(COLS, ROWS)))
                for name, conn in zip(names, connections, strict=True)
            ]
            ann, bo, cy = players
            await ann.until("Shared tables")
            ann.press("j")
            await ann.until("No shared table yet")
            ann.press("n")
            await ann.until("Waiting for players to sit down")
            (table,) = service.tables.values()
            style = presentation_for("uno-hearts")
            # every card each seat was ever sent as its own (its screen may lag behind)
            held: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
            original_send = table_module.Connection.send

            def send(conn: Any, message: dict[str, Any]) -> None:
                if message.get("type") == "snapshot" and conn.seat is not None:
                    snap = snapshot_of(json.loads(json.dumps(message)))
                    held.setdefault(conn.seat, set()).update(style.label(c) for c in snap.view.hand)
                original_send(conn, message)

            monkeypatch.setattr(table_module.Connection, "send", send)

            def check(player: Terminal) -> None:
                """Nothing on this player's screen belongs to another hand, unless everyone
                has seen it or this player once held it."""
                seat = names.index(player.name)
                match = table.controller.match
                hands = {s: {style.label(c) for c in match.view(s).hand} for s in range(4)}
                public = {
                    style.label(match.parse_card(c))
                    for c in cards_named(encode(table.controller.snapshot(None)))
                }
                for other, labels in hands.items():
                    if other != seat:
                        leaked = shows(player.text(), labels - held[seat] - public)
                        assert not leaked, (
                            f"{player.name} sees seat {other}'s {leaked}:\n{player.text()}\n"
                            f"{[str(e) for e in match.log[-8:]]}"
                        )

            for player in (bo, cy):
                await player.until("Shared tables")
                player.press("j")
                await player.until("UNO Hearts  [waiting")  # the table, in the list
                player.press("\r")
                await player.until("Your hand", check)
            assert table.started and [s.holder is not None for s in table.seats[:3]] == [1, 1, 1]

            # everyone plays with their keys: the hint's card (H, then Enter), the first
            # choice in a dialog; every frame each of them is sent is checked
            deadline = time.monotonic() + 4 * WAIT
            while not table.controller.match.hand_results:
                assert time.monotonic() < deadline, (
                    "the hand did not finish:\n"
                    + "\n".join(p.text() for p in players)
                    + f"\n{table.controller.turn()} {table.controller.version}"
                )
                for seat, player in enumerate(players):
                    while await player.read(0.01):
                        check(player)
                    screen = player.text()
                    dialog = "Enter or a number to choose" in screen
                    moment = (table.controller.version, dialog)
                    if "✗" in screen:  # refused (the hand changed under the hint): again
                        player.pressed_at = None
                    if player.pressed_at == moment:
                        continue  # its last key press has not been taken yet
                    if dialog:
                        player.press("1")
                    elif table.controller.turn().seat == seat and "Your " in screen:
                        player.press("h")
                        await asyncio.sleep(0.05)
                        player.press("\r")
                    else:
                        continue
                    player.pressed_at = moment
                await asyncio.sleep(0.02)
            for player in players:
                await player.until("Hand 1 is over", check)
            assert all(p.frames > 20 for p in players)
        finally:
            for conn in connections:
                conn.close()


async def test_a_player_killed_mid_turn_gets_a_computer_then_their_seat_back(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,  # noqa: F811
) -> None:
    ann_key, bo_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    authorized = asyncssh.import_authorized_keys(
        "".join(k.export_public_key().decode() for k in (ann_key, bo_key))
    )
    fingerprint = ann_key.get_fingerprint()
    from unotable.serve.paths import key_folder

    ann_dir = tmp_path / "keys" / key_folder(fingerprint) / "ann"
    ann_dir.mkdir(parents=True)
    setup = {
        "game": "uno",
        "seats": [["ann", "human"], ["bo", "human"], ["Comp", "normal"]],
        "options": {},
    }
    (ann_dir / "settings.json").write_text(json.dumps({"last_setup": setup}))
    async with running_table(
        host_key,
        data_dir=tmp_path,
        table_speed="instant",
        rejoin_grace=1.0,
        open_access=False,
        authorized_keys=authorized,
    ) as server:
        service = server.tables
        assert isinstance(service, TableService)
        ann_conn = await connect(server, username="ann", client_keys=[ann_key])
        bo_conn = await connect(server, username="bo", client_keys=[bo_key])
        try:
            ann = Terminal("ann", await open_table(ann_conn, term_size=(COLS, ROWS)))
            bo = Terminal("bo", await open_table(bo_conn, term_size=(COLS, ROWS)))
            await ann.until("Shared tables")
            ann.press("j")
            await ann.until("No shared table yet")
            ann.press("n")
            await ann.until("Waiting for players to sit down")
            (table,) = service.tables.values()
            await bo.until("Shared tables")
            bo.press("j")
            await bo.until("UNO  [waiting")
            bo.press("\r")
            await bo.until("Your hand")
            assert table.started
            # ann keeps drawing when it is her turn, until it is bo's turn; then bo's
            # connection dies in the middle of it
            deadline = time.monotonic() + WAIT
            while table.controller.turn().seat != 1:
                assert time.monotonic() < deadline, (
                    f"bo's turn never came: {table.controller.turn()} "
                    f"{table.controller.legal(0)} on\n{ann.text()}"
                )
                await ann.read(0.05)
                if table.controller.turn().seat != 0:
                    continue
                before = table.controller.version
                if "Enter or a number to choose" in ann.text():
                    # a dialog of hers (a colour, a challenge, a drawn card): its first answer
                    ann.press("1")
                elif "Hand 1" in ann.text():
                    ann.press("d")  # she may always draw, whatever her hand holds
                else:
                    continue
                for _ in range(40):  # a key on a stale screen is refused: look again after
                    if table.controller.version != before:
                        break
                    await ann.read(0.05)
            version = table.controller.version
            bo_conn.abort()
            await ann.until("bo left; their seat waits")
            # the grace runs out: a computer plays bo's turn, and the others see it
            await ann.until("Comp.")
            assert table.controller.version > version
            assert table.controller.fallbacks.get(1) == "normal"
            # bo logs in again with his key: Enter sits him down at his own seat
            bo_conn = await connect(server, username="bo", client_keys=[bo_key])
            bo = Terminal("bo", await open_table(bo_conn, term_size=(COLS, ROWS)))
            await bo.until("Shared tables")
            bo.press("j")
            await bo.until("UNO  [hand 1")
            bo.press("\r")
            await bo.until("Your hand")
            assert table.seats[1].stand_in is None and 1 not in table.controller.fallbacks
            await ann.until("bo is back")
        finally:
            ann_conn.close()
            bo_conn.close()
