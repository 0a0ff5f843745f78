"""Three players over SSH at one shared table, each in their own terminal (a pty, read by
a terminal emulator): they find the table, sit down, play a whole hand with their keys,
and no screen any of them is sent ever shows another player's cards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pyte
import pytest
from test_serve_ssh import connect, host_key, open_table, running_table  # noqa: F401
from test_serve_web import web_server
from test_tables import cards_in, deal_seed

from unotable.app.games import presentation_for
from unotable.controller.wire import encode
from unotable.engine import get_game
from unotable.tables import table as table_module
from unotable.tables.client import snapshot_of
from unotable.tables.service import TableService

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up
COLS, ROWS = 80, 24
FIRST_SCREEN = "Shared tables on this server"  # a served player's first screen


# Colours (SGR: ESC [ ... m) set only a cell's attributes, never its text, and are most of
# what the app sends: the emulators below drop them unread, so pyte parses the rest faster.
SGR = re.compile(rb"\x1b\[[0-9;:]*m")
# an escape sequence cut off at the end of a chunk, held back until the rest arrives
CUT = re.compile(rb"\x1b(\[[0-9;:]*)?$")


class TextScreen:
    """A terminal emulator (pyte) that keeps the text a screen shows, without colours."""

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.held = b""
        self.fed = 0
        self._text = (-1, "")

    def feed(self, data: bytes) -> None:
        data = self.held + data
        cut = CUT.search(data)
        self.held = data[cut.start() :] if cut else b""
        self.stream.feed(SGR.sub(b"", data[: cut.start()] if cut else data))
        self.fed += 1

    def text(self) -> str:
        """The screen's text, worked out once per chunk fed."""
        if self._text[0] != self.fed:
            self._text = (self.fed, "\n".join(self.screen.display))
        return self._text[1]


class Terminal:
    """One player's SSH client with a pty: what their screen shows, frame by frame."""

    def __init__(self, name: str, process: Any) -> None:
        self.name = name
        self.process = process
        self.screen = TextScreen()
        self.frames = 0
        self.pressed_at: Any = None
        self.retry_at = 0.0

    def text(self) -> str:
        return self.screen.text()

    async def read(self, timeout: float) -> bool:
        """Take in what arrived within ``timeout``; False if nothing did."""
        try:
            chunk = await asyncio.wait_for(self.process.stdout.read(65536), timeout)
        except TimeoutError:
            return False
        assert chunk, f"{self.name}'s session ended: {self.text()}"
        self.screen.feed(chunk)
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


# words that name a kind of card in the rules' prose, not a card anyone holds
# the game's name for a card, also where a notice cuts it short ("Wild Dr▌")
PROSE = re.compile(r"Wild Draw (Four|Two)|Wild D\w*")


def remember_setup(player_dir: Path, setup: dict[str, Any]) -> None:
    """The lobby setup this player's app opens with (their last one)."""
    player_dir.mkdir(parents=True)
    (player_dir / "settings.json").write_text(json.dumps({"last_setup": setup}))


async def create_table(creator: Terminal, service: TableService) -> Any:
    """From the list they start at, the creator creates a table from their lobby setup,
    every other Human seat open for a friend; the table, waiting for them."""
    await creator.until("No shared table yet")
    creator.press("n")
    await creator.until("Who sits where?")
    creator.press("\r")  # create it as it is
    await creator.until("Waiting for players to sit down")
    (table,) = service.tables.values()
    return table


def shows(text: str, labels: set[str]) -> set[str]:
    """Labels written whole on screen: between spaces, brackets or punctuation (a toast's
    edge over "Y15" leaves "Y1▌", which is not a card shown)."""
    text = PROSE.sub("", text)
    return {
        label
        for label in labels
        if re.search(rf"(?<![^\s\[(:,]){re.escape(label)}(?=[\s\]),.:!]|$)", text)
    }


# A shedding game and a trick game over real SSH; the transport does not depend on the
# game, and every game plays a whole hand at a shared table with its frames checked in
# tests/test_tables.py. Each entry: the options, and a deal (the table's seed) whose hand
# is short when the humans play the hint's card and answer every dialog with its first
# choice (32 actions in UNO Minecraft, where most deals take 50 to 100).
HANDS = {
    "uno-minecraft": ({}, 89),
    "wild-twist-hearts": ({}, 7),
}


@pytest.mark.parametrize("game", list(HANDS))
async def test_three_ssh_players_play_a_hand_at_one_table(
    game: str,
    tmp_path: Path,
    host_key: asyncssh.SSHKey,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    options, seed = HANDS[game]
    deal_seed(monkeypatch, seed)
    ann_dir = tmp_path / "users" / "ann"
    setup = {
        "game": game,
        "seats": [["ann", "human"], ["bo", "human"], ["cy", "human"], ["Comp", "normal"]],
        "options": options,
    }
    remember_setup(ann_dir, setup)
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
            table = await create_table(ann, service)
            style = presentation_for(game)
            controller = table.controller

            def labels(cards: Any) -> set[str]:
                return {style.label(controller.match.parse_card(c)) for c in cards}

            def at_version(compute: Any) -> Any:
                """``compute(*args)``, worked out once per state of the match."""
                cache: dict[Any, Any] = {}
                version = [-1]

                def cached(*args: Any) -> Any:
                    if version[0] != controller.version:
                        cache.clear()
                        version[0] = controller.version
                    if args not in cache:
                        cache[args] = compute(*args)
                    return cache[args]

                return cached

            @at_version
            def public_now() -> set[str]:
                return labels(cards_in(encode(controller.snapshot(None))))

            @at_version
            def hand_of(seat: int) -> set[str]:
                return {style.label(c) for c in controller.match.view(seat).hand}

            # every card a seat was ever sent, and every card a spectator ever saw: a
            # screen may lag behind its frames, so what it shows is judged by all of them
            sent: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
            public: set[str] = set()
            frames: dict[int, int] = {0: 0, 1: 0, 2: 0}
            original_send = table_module.Connection.send_frame

            def send_frame(conn: Any, data: bytes) -> None:
                """Every snapshot frame a player is sent names only cards of their own
                hand, cards any spectator sees, and cards shown to them alone (a
                challenged hand, their own draws)."""
                message = json.loads(data)
                if message.get("type") == "snapshot" and conn.seat is not None:
                    seat = conn.seat
                    snap = snapshot_of(message)
                    assert snap.view.seat == seat
                    match = controller.match
                    own = hand_of(seat)
                    shown = {
                        style.label(card)
                        for event in match.log
                        if event.private_to is not None and seat in event.private_to
                        for card in event.cards
                    }
                    public.update(public_now())
                    extra = labels(cards_in(message["snapshot"])) - own - public - shown
                    assert not extra, f"seat {seat} was sent {extra}"
                    sent[seat].update(labels(cards_in(message["snapshot"])))
                    frames[seat] += 1
                original_send(conn, data)

            monkeypatch.setattr(table_module.Connection, "send_frame", send_frame)

            def check(player: Terminal) -> None:
                """Nothing on this player's screen belongs to another hand, unless it was
                sent to this player or everyone has seen it."""
                seat = names.index(player.name)
                match = controller.match
                public.update(public_now())
                for other in range(len(setup["seats"])):
                    if other == seat:
                        continue
                    theirs = hand_of(other)
                    leaked = shows(player.text(), theirs - sent[seat] - public)
                    assert not leaked, (
                        f"{player.name} sees seat {other}'s {leaked}:\n{player.text()}\n"
                        f"{[str(e) for e in match.log[-8:]]}"
                    )

            for player in (bo, cy):
                await player.until(FIRST_SCREEN)  # a served player starts at the list
                await player.until(f"{get_game(game).name}  [waiting")  # the table, in the list
                player.press("\r")
                await player.until("Your hand", check)
            assert table.started and [s.holder is not None for s in table.seats[:3]] == [1, 1, 1]

            # everyone plays with their keys, when their own screen says it is their turn:
            # the hint's card (H, then Enter; U first on two cards), D when nothing
            # matches, the first choice in a dialog; every frame sent to them is checked
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
                    if player.pressed_at == moment and time.monotonic() < player.retry_at:
                        continue  # its last key press has not been taken yet
                    if dialog:
                        player.press("1")
                    elif table.controller.turn().seat != seat:
                        continue
                    elif "press D to" in screen:  # draw, or pass when nothing is left
                        player.press("d")
                    elif "Your turn" in screen or "Your lead" in screen:
                        if "press U to call UNO" in screen:
                            player.press("u")  # with the next play, as a player should
                        player.press("h")
                        await asyncio.sleep(0.05)
                        player.press("\r")
                    else:
                        continue
                    player.pressed_at = moment
                    # a key that reached a screen about to change is dropped: press again
                    player.retry_at = time.monotonic() + 3
            for player in players:
                await player.until(" 1 is over", check)  # "Hand 1", or "Game 1" in Wild Twist
            assert all(p.frames > 20 for p in players)
            assert min(frames.values()) > 10  # every seat's snapshots were checked
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
    setup = {
        "game": "uno",
        "seats": [["ann", "human"], ["bo", "human"], ["Comp", "normal"]],
        "options": {},
    }
    remember_setup(ann_dir, setup)
    async with running_table(
        host_key,
        data_dir=tmp_path,
        table_speed="instant",
        tables={"grace": 1.0},
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
            table = await create_table(ann, service)
            await bo.until(FIRST_SCREEN)  # a served player starts at the list
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
            await bo.until(FIRST_SCREEN)  # a served player starts at the list
            await bo.until("UNO  [hand 1")
            bo.press("\r")
            await bo.until("Your hand")
            assert not table.controller.standing_in(1) and 1 not in table.controller.fallbacks
            await ann.until("bo is back")
        finally:
            ann_conn.close()
            bo_conn.close()


async def test_a_browser_tab_sits_at_an_ssh_players_table(
    tmp_path: Path,
    host_key: asyncssh.SSHKey,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`serve ssh` and `serve web` on one data dir share their tables: a player in a
    browser tab finds the table an SSH player made, sits down and plays at it."""
    deal_seed(monkeypatch, 7)  # a deal where the guest, at seat 2, plays first
    ann_dir = tmp_path / "users" / "ann"
    setup = {
        "game": "uno",
        "seats": [["ann", "human"], ["Guest", "human"], ["Comp", "normal"]],
        "options": {},
    }
    remember_setup(ann_dir, setup)
    async with (
        contextlib.AsyncExitStack() as stack,
        running_table(host_key, data_dir=tmp_path, table_speed="instant") as server,
    ):
        service = server.tables
        assert isinstance(service, TableService)  # the SSH server runs the tables
        conn = await connect(server, username="ann")
        try:
            ann = Terminal("ann", await open_table(conn, term_size=(COLS, ROWS)))
            table = await create_table(ann, service)
            port = await stack.enter_async_context(web_server(tmp_path))
            tab = "c" * 32
            url = f"ws://127.0.0.1:{port}/ws/tab/{tab}?width={COLS}&height={ROWS}"
            async with (
                aiohttp.ClientSession(trust_env=False) as http,
                http.ws_connect(url) as websocket,
            ):
                browser = Browser(websocket)
                await browser.until(FIRST_SCREEN)  # a served player starts at the list
                await browser.until("UNO  [waiting")  # the SSH player's table, listed
                await browser.press("\r")
                await browser.until("Your hand")
                assert table.started and table.seats[1].holder is not None
                assert table.seats[1].name == "guest-cccc"  # the tab's player, at seat 2
                await ann.until("guest-cccc")
                # the browser's player plays: a key there moves the one controller
                deadline = time.monotonic() + WAIT
                while table.controller.turn().seat != 1:  # the guest's turn comes
                    assert time.monotonic() < deadline, f"no turn for the guest:\n{ann.text()}"
                    await browser.read(0.05)
                    await ann.read(0.05)
                    if table.controller.turn().seat == 0 and "Your turn" in ann.text():
                        ann.press("d")
                        await ann.read(0.5)
                before = len(table.controller.match.log)
                await browser.until("Your turn")
                await browser.press("d")
                await until_true(lambda: len(table.controller.match.log) > before)
                assert (
                    table.controller.match.log[before].kind,
                    table.controller.match.log[before].seat,
                ) == ("draw", 1)
        finally:
            conn.close()


class Browser:
    """A browser tab's terminal, as textual-serve's page would draw it."""

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket
        self.screen = TextScreen()

    def text(self) -> str:
        return self.screen.text()

    async def read(self, timeout: float) -> None:
        try:
            message = await self.websocket.receive(timeout=timeout)
        except TimeoutError:
            return
        assert message.type == aiohttp.WSMsgType.BINARY, message
        self.screen.feed(message.data)

    async def until(self, words: str) -> None:
        deadline = time.monotonic() + WAIT
        while words not in self.text():
            assert time.monotonic() < deadline, f"the browser shows no {words!r}:\n{self.text()}"
            await self.read(0.2)

    async def press(self, keys: str) -> None:
        await self.websocket.send_json(["stdin", keys])


async def until_true(check: Any) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
