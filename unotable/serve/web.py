"""The browser table: textual-serve runs one app process per browser tab.

textual-serve has no authentication, so the caller binds to loopback unless told otherwise.
"""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

from unotable.serve import WILDCARD_HOSTS
from unotable.serve.child import app_command
from unotable.serve.paths import web_data_dir


def public_url(host: str, port: int) -> str:
    """The address browsers use; the page's websocket address is built from it."""
    if host in WILDCARD_HOSTS:
        host = socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def make_server(host: str, port: int, data_dir: Path, url: str | None) -> Any:
    from aiohttp import web
    from textual_serve.server import Server

    class TableServer(Server):
        """Ends open tabs' apps at shutdown, instead of waiting for browsers to leave."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._tabs: set[asyncio.Task[Any]] = set()

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            tab = asyncio.current_task()
            assert tab is not None
            self._tabs.add(tab)
            try:
                return await super().handle_websocket(request)
            finally:
                self._tabs.discard(tab)

        async def on_shutdown(self, app: web.Application) -> None:
            # textual-serve answers a cancelled tab by telling its app to quit.
            for tab in list(self._tabs):
                tab.cancel()
            if self._tabs:
                await asyncio.wait(set(self._tabs), timeout=5)

    command = app_command(web_data_dir(data_dir))
    return TableServer(
        command, host=host, port=port, title="unotable", public_url=url or public_url(host, port)
    )


def serve_forever(host: str, port: int, data_dir: Path, url: str | None) -> int:
    """Serve until Ctrl+C (textual-serve handles SIGINT and SIGTERM)."""
    server = make_server(host, port, data_dir, url)
    print(f"unotable: web table at {server.public_url}  (Ctrl+C stops it)", flush=True)
    server.serve()
    return 0
