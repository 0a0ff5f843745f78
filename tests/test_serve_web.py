"""`unotable serve web`: a real server on 127.0.0.1, its page, a browser's websocket, Ctrl+C."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp

from unotable.serve.web import public_url

WAIT = 60.0  # a hang detector only: each wait ends as soon as its state shows up
FIRST_SCREEN = "Shared tables on this server"  # a served player's first screen


ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def screen_text(output: bytes) -> str:
    """The text a terminal would show, without escape sequences."""
    return ESCAPES.sub(b"", output).decode("utf-8", "replace")


def processes_mentioning(text: str) -> list[int]:
    """Live processes whose command line contains ``text`` (Linux /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if text.encode() in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_for_listener(port: int) -> None:
    deadline = time.monotonic() + WAIT
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            assert time.monotonic() < deadline, "the web server never listened"
            await asyncio.sleep(0.05)
        else:
            writer.close()
            await writer.wait_closed()
            return


async def test_page_and_app_over_websocket(tmp_path: Path) -> None:
    port = free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "unotable",
        "serve",
        "web",
        "--port",
        str(port),
        "--data-dir",
        str(tmp_path),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        await wait_for_listener(port)
        async with aiohttp.ClientSession(trust_env=False) as http:
            async with http.get(f"http://127.0.0.1:{port}/") as response:
                assert response.status == 200
                page = await response.text()
            assert f"ws://127.0.0.1:{port}/ws" in page
            assert "unotable" in page

            # What a browser does next: open the websocket and get the app's screen.
            screen = b""
            url = f"ws://127.0.0.1:{port}/ws?width=100&height=30"
            async with http.ws_connect(url) as websocket:
                deadline = time.monotonic() + WAIT
                while FIRST_SCREEN not in screen_text(screen):  # the Shared tables list
                    left = deadline - time.monotonic()
                    assert left > 0, f"no list; got {screen_text(screen)[-300:]!r}"
                    message = await websocket.receive(timeout=left)
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    screen += message.data
                assert (tmp_path / "web").is_dir()
                # the page's terminal takes the focus (the browser says so): the app, no
                # longer blurred, draws the list's footer with its keys
                await websocket.send_json(["focus"])
                more = bytearray()
                await _read_until(websocket, more, "New shared table")

                # Ctrl+C with the tab still open: the tab is closed and its app ends.
                server.send_signal(signal.SIGINT)
                while message.type == aiohttp.WSMsgType.BINARY:
                    message = await websocket.receive(timeout=WAIT)
        assert await asyncio.wait_for(server.wait(), WAIT) == 0
        deadline = time.monotonic() + WAIT
        while processes_mentioning(str(tmp_path)):
            assert time.monotonic() < deadline, "the app outlived the web server"
            await asyncio.sleep(0.05)
    finally:
        if server.returncode is None:
            server.kill()
            await server.wait()


@contextlib.asynccontextmanager
async def web_server(data_dir: Path) -> AsyncIterator[int]:
    """`unotable serve web` on ``data_dir``, listening; its port. Ctrl+C stops it after."""
    port = free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "unotable", "serve", "web", "--port", str(port), "--data-dir", str(data_dir)),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        await wait_for_listener(port)
        yield port
    finally:
        server.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(server.wait(), WAIT)
        finally:
            if server.returncode is None:
                server.kill()
                await server.wait()


def test_public_url() -> None:
    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_url("::1", 8080) == "http://[::1]:8080"
    assert public_url("0.0.0.0", 80) == f"http://{socket.gethostname()}:80"


async def _read_until(websocket: Any, screen: bytearray, text: str) -> None:
    deadline = time.monotonic() + WAIT
    while text not in screen_text(bytes(screen)):
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} never shown; got {screen_text(bytes(screen))[-300:]!r}"
        message = await websocket.receive(timeout=left)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        screen += message.data


async def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def _act_until_saved(websocket: Any, screen: bytearray, saved: Callable[[], bool]) -> None:
    """Wait for the first save. The tab's match is dealt from a random seed, so its first
    card may be a Wild whose colour the human chooses in a dialog that takes no D: answer it."""

    async def read() -> None:
        while True:
            message = await websocket.receive()
            assert message.type == aiohttp.WSMsgType.BINARY, message
            screen.extend(message.data)

    reader = asyncio.create_task(read())
    try:
        deadline = time.monotonic() + WAIT
        answered = False
        while not saved():
            shown = screen_text(bytes(screen))
            assert not reader.done(), f"the tab closed; it showed {shown[-300:]!r}"
            assert time.monotonic() < deadline, f"the tab saved nothing; it shows {shown[-300:]!r}"
            if not answered and "Enter or a number to choose" in shown:  # the dialog
                await websocket.send_json(["stdin", "\r"])  # the first colour
                answered = True
            await asyncio.sleep(0.05)
    finally:
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reader


async def test_two_tabs_each_continue_their_own_match(tmp_path: Path) -> None:
    from unotable.store.matches import list_matches

    tabs = {"A": "a" * 32, "B": "b" * 32}
    web_dir = tmp_path / "web"

    def matches() -> list[Any]:
        return list_matches(web_dir).matches if web_dir.is_dir() else []

    def playing() -> set[str | None]:
        return {m.session for m in matches() if m.in_use}

    async with web_server(tmp_path) as port, aiohttp.ClientSession(trust_env=False) as http:
        async with http.get(f"http://127.0.0.1:{port}/") as response:
            page = await response.text()
        assert "sessionStorage" in page and '+= "/tab/"' in page  # the tab names itself

        def url(tab: str) -> str:
            return f"ws://127.0.0.1:{port}/ws/tab/{tabs[tab]}?width=100&height=30"

        # Each tab starts a match and leaves it open.
        for tab in ("A", "B"):
            screen = bytearray()
            async with http.ws_connect(url(tab)) as websocket:
                await _read_until(websocket, screen, FIRST_SCREEN)  # the Shared tables list
                await websocket.send_json(["stdin", "\x1b"])  # Esc: the lobby
                screen = bytearray()  # (the list's own words are no sign of the lobby)
                await _read_until(websocket, screen, "Seed")  # the seats are filled
                await websocket.send_json(["stdin", "s"])  # Start
                await _read_until(websocket, screen, "Your hand")
                await websocket.send_json(["stdin", "d"])  # an action: the match is saved
                await _act_until_saved(websocket, screen, lambda t=tab: tabs[t] in playing())
            # the tab closed: its table ends and lets its match go
            await _until(lambda t=tab: tabs[t] not in playing(), f"tab {tab} kept its match")
        own = {m.session: m.match_id for m in matches()}
        assert set(own) == {tabs["A"], tabs["B"]}
        assert matches()[0].session == tabs["B"]  # B played last

        # Both tabs come back (a reload each) and press C: each gets its own match,
        # although B's is the most recent one for A.
        async with http.ws_connect(url("A")) as tab_a, http.ws_connect(url("B")) as tab_b:
            for websocket in (tab_a, tab_b):
                await _read_until(websocket, bytearray(), "Continue")
            await tab_a.send_json(["stdin", "c"])
            await _until(lambda: playing() == {tabs["A"]}, "A did not continue its match")
            await tab_b.send_json(["stdin", "c"])
            await _until(lambda: playing() == {tabs["A"], tabs["B"]}, "B did not continue")
            assert {m.session: m.match_id for m in matches()} == own  # no new match

        # The old address without a tab's name still serves a table.
        async with http.ws_connect(f"ws://127.0.0.1:{port}/ws?width=80&height=24") as plain:
            await _read_until(plain, bytearray(), FIRST_SCREEN)
        # A malformed name is not a route at all.
        async with http.get(f"http://127.0.0.1:{port}/ws/tab/..%2f..%2fetc") as response:
            assert response.status == 404
