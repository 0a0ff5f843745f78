"""`unotable serve web`: a real server on 127.0.0.1, its page, a browser's websocket, Ctrl+C."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import sys
import time
from pathlib import Path

import aiohttp

from unotable.serve.web import public_url

WAIT = 15.0


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
                while "Wild Twist Hearts" not in screen_text(screen):  # the lobby's game list
                    left = deadline - time.monotonic()
                    assert left > 0, f"no lobby; got {screen_text(screen)[-300:]!r}"
                    message = await websocket.receive(timeout=left)
                    assert message.type == aiohttp.WSMsgType.BINARY, message
                    screen += message.data
                assert (tmp_path / "web").is_dir()

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


def test_public_url() -> None:
    assert public_url("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_url("::1", 8080) == "http://[::1]:8080"
    assert public_url("0.0.0.0", 80) == f"http://{socket.gethostname()}:80"
