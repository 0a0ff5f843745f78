"""The browser table: textual-serve runs one app process per browser tab (forked from the
session launcher, serve/prefork.py, on three pipes).

textual-serve has no authentication, so the caller binds to loopback unless told otherwise.
On top of textual-serve this adds: a websocket ``Origin`` check (another site's page may not
drive the table), terminal sizes clamped like SSH's, an allow-listed environment for each
table, tables that do not quit being killed, and the page's font served from here.

Each tab names itself (a random id the browser keeps in the tab's sessionStorage, so it
survives a reload of that tab but not a new tab) and connects to ``/ws/tab/<id>``. The
table learns the id, so its Continue resumes the match that tab was playing even when
another tab played more recently; a tab's new connection waits for its old table to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from unotable.serve import WILDCARD_HOSTS, ServeError, is_loopback
from unotable.serve.child import SESSION_ENV, app_args, app_argv, child_env, clamp_size
from unotable.serve.limits import QuietLog
from unotable.serve.paths import web_data_dir
from unotable.serve.prefork import Launcher, LauncherUnavailable, PipedProcess, spawn_piped
from unotable.tables import IDENTITY_ENV, PLAYER_ENV, TABLES_ENV
from unotable.tables.service import open_shared_tables

log = logging.getLogger("unotable.serve")

# textual-serve's page asks a font host for Roboto Mono; the same font ships in its static
# folder, so the page takes it from here (and falls back to the system's monospace).
EXTERNAL_FONT_LINK = (
    '<link\n      rel="stylesheet"\n      href="https://fonts.googleapis.com/css?family=Roboto%20Mono"\n'
    "    />"
)
LOCAL_FONT_STYLE = """<style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-VariableFont_wght.ttf")
          format("truetype");
        font-style: normal;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ config.static.url }}fonts/RobotoMono-Italic-VariableFont_wght.ttf")
          format("truetype");
        font-style: italic;
      }
    </style>"""


@dataclass(frozen=True)
class WebLimits:
    """Tabs with a table open, in all and from one address, and how long a table may go
    without a key press (seconds, 0 never); the same refusals as ``serve ssh``."""

    max_sessions: int = 8
    max_per_address: int = 4
    idle_timeout: float = 1800.0


TABLE_FULL = "unotable: table full ({} players); try later."
ADDRESS_FULL = "unotable: {} tables are open from your address; close one and try again."
IDLE_GOODBYE = "unotable: disconnected, idle too long. Your match is saved."


def public_url(host: str, port: int) -> str:
    """The address browsers use; the page's websocket address is built from it."""
    if host in WILDCARD_HOSTS:
        host = socket.gethostname()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def origin_of(url: str) -> str:
    """``scheme://host:port``, lower case, with the default port spelled out."""
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return "invalid:"
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}:{port}".lower()


def allowed_origins(url: str) -> frozenset[str]:
    """Pages that may open the table's websocket: the served address itself, and, when that
    is this machine, its other loopback names."""
    own = origin_of(url)
    parts = urlsplit(url)
    if not is_loopback(parts.hostname or ""):
        return frozenset({own})
    port = parts.port or 80
    names = ("localhost", "127.0.0.1", "[::1]")
    return frozenset({own} | {f"{parts.scheme}://{name}:{port}" for name in names})


TAB_ROUTE = "/ws/tab/{tab:[0-9a-f]{32}}"
# Runs before textual.js connects (it reads the address at window load).
TAB_SCRIPT = """<script>
      (function () {
        var key = "unotable-tab", tab = sessionStorage.getItem(key);
        if (!/^[0-9a-f]{32}$/.test(tab || "")) {
          var bytes = crypto.getRandomValues(new Uint8Array(16));
          var hex = function (b) { return (b + 256).toString(16).slice(1); };
          tab = Array.from(bytes, hex).join("");
          sessionStorage.setItem(key, tab);
        }
        var terminal = document.getElementById("terminal");
        terminal.dataset.sessionWebsocketUrl += "/tab/" + tab;
      })();
    </script>
  </body>"""


def local_font_page(template: str) -> str:
    """textual-serve's page, with the external font link replaced by the local font and
    the tab's own name added to the websocket address."""
    if EXTERNAL_FONT_LINK not in template or template.count("</body>") != 1:
        raise RuntimeError("textual-serve's page changed: its font link was not found")
    page = template.replace(EXTERNAL_FONT_LINK, LOCAL_FONT_STYLE)
    return page.replace("</body>", TAB_SCRIPT)


def make_server(
    host: str,
    port: int,
    data_dir: Path,
    url: str | None,
    shutdown_grace: float = 3.0,
    argv: Callable[[Path], list[str]] = app_argv,
    shared_tables: bool = True,
    tables: dict[str, Any] | None = None,
    limits: WebLimits | None = None,
    prefork: bool = True,
) -> Any:
    import jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server

    tables_dir = web_data_dir(data_dir)
    limits = limits or WebLimits()
    quiet = QuietLog(log)  # a flood of refusals: one line a minute per kind
    # the shared tables, started with the server (or another server's on this data dir)
    shared: dict[str, Any] = {"service": None, "socket": None}
    # tables forked from one process that imported the app (docs/serve.md); the default
    # command only: a test's stand-in app is started as it is
    launcher = Launcher(label=str(data_dir)) if prefork and argv is app_argv else None

    class Table(AppService):
        """One tab's app: its own process group, allow-listed environment, clamped size."""

        session: str | None = None  # the tab's own name, if its page gave one
        address = "?"  # the browser's, for the shared tables' per-address limits
        last_key = 0.0  # when the browser last sent a key (time.monotonic)

        async def send_bytes(self, data: bytes) -> bool:
            self.last_key = time.monotonic()
            return bool(await super().send_bytes(data))

        def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
            env = child_env(None, {}, home=tables_dir)
            env.pop("TERM")
            if self.session is not None:
                env[SESSION_ENV] = self.session
                # the tab sits down again; its address counts its tables and code guesses
                env[IDENTITY_ENV] = f"web:{self.session}@{self.address}"
                env[PLAYER_ENV] = "guest-" + self.session[:4]
            if shared["socket"] is not None:
                env[TABLES_ENV] = str(shared["socket"])
            env.update(
                TEXTUAL_DRIVER="textual.drivers.web_driver:WebDriver",
                TEXTUAL_FPS="60",
                TEXTUAL_COLOR_SYSTEM="truecolor",
                TERM_PROGRAM="textual",
                COLUMNS=str(width),
                ROWS=str(height),
            )
            return env

        async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
            env = self._build_environment(width, height)
            if launcher is not None:
                try:
                    process = await spawn_piped(launcher, app_args(tables_dir), env, tables_dir)
                except LauncherUnavailable as why:
                    quiet.info(
                        ("launcher", "unavailable"),
                        "session launcher unavailable (%s); the table starts as its own process",
                        why,
                    )
                else:
                    self._process, self._stdin = process, process.stdin
                    return process
            self._process = process = await asyncio.create_subprocess_exec(
                *argv(tables_dir),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=env,
                cwd=tables_dir,  # relative paths stay in the data dir
                start_new_session=True,  # so that everything it starts can be killed
            )
            assert process.stdin is not None
            self._stdin = process.stdin
            return process

        async def start(self, width: int, height: int) -> None:
            await super().start(*clamp_size(width, height))

        async def set_terminal_size(self, width: int, height: int) -> None:
            if isinstance(width, int) and isinstance(height, int):
                await super().set_terminal_size(*clamp_size(width, height))

        async def stop(self) -> None:
            """Ask the app to quit; kill its process group if it has not within the grace."""
            process = self._process
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._quit(process), shutdown_grace)
            if process is None:
                return
            if process.returncode is None:
                log.info("web table pid=%d did not quit; killed", process.pid)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGKILL)
                await process.wait()
            # textual-serve leaves the pipes to the garbage collector: three per tab.
            if isinstance(process, PipedProcess):
                process.close()  # and the launcher may reap it
                return
            transport = getattr(process, "_transport", None)
            if transport is not None:
                transport.close()

        async def _quit(self, process: Any) -> None:
            await super().stop()  # asks the app to quit; returns once it closed its output
            if process is not None:
                await process.wait()

    class TableServer(Server):
        """textual-serve, with the checks and limits above; ends open tabs at shutdown."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._tabs: set[asyncio.Task[Any]] = set()
            self._by_session: dict[str, asyncio.Task[Any]] = {}  # each tab's live table
            self._address: dict[asyncio.Task[Any], str] = {}  # tabs with a table
            self.origins = allowed_origins(self.public_url)

        def initialize_logging(self) -> None:
            super().initialize_logging()
            for name in ("unotable.serve", "unotable.tables"):
                logging.getLogger(name).setLevel(logging.INFO)

        async def _make_app(self) -> web.Application:
            import aiohttp_jinja2

            app = await super()._make_app()
            page = (Path(self.templates_path) / "app_index.html").read_text(encoding="utf-8")
            loader = jinja2.DictLoader({"app_index.html": local_font_page(page)})
            aiohttp_jinja2.setup(app, loader=loader)
            app.router.add_get(TAB_ROUTE, self.handle_websocket)
            return app

        async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
            origin = request.headers.get("Origin")
            # Browsers always send Origin; a page of another site must not get a table.
            if origin is not None and origin_of(origin) not in self.origins:
                log.info(
                    "refused %s user=- method=websocket reason=foreign origin %r",
                    request.remote,
                    origin[:100],
                )
                raise web.HTTPForbidden(text="unotable: this page may not open a table\n")
            tab = asyncio.current_task()
            assert tab is not None
            session = request.match_info.get("tab")
            if (refusal := self._full(request.remote or "?", session)) is not None:
                return await self._refuse(request, refusal)
            self._tabs.add(tab)
            self._address[tab] = request.remote or "?"
            try:
                if session is not None:
                    await self._take_over(session, tab)
                return await self._serve_tab(request, session)
            finally:
                self._tabs.discard(tab)
                self._address.pop(tab, None)
                if session is not None and self._by_session.get(session) is tab:
                    del self._by_session[session]

        def _full(self, address: str, session: str | None) -> str | None:
            """What to tell a tab that may not have a table now, or None. A reloaded tab's
            old table (about to end) does not count against it."""
            old = self._by_session.get(session) if session is not None else None
            others = [a for t, a in self._address.items() if t is not old]
            if len(others) >= limits.max_sessions:
                why = f"table full ({len(others)} players)"
                line = TABLE_FULL.format(len(others))
            elif (mine := others.count(address)) >= limits.max_per_address:
                why = f"too many tables from this address ({mine})"
                line = ADDRESS_FULL.format(mine)
            else:
                return None
            quiet.info(
                ("refused", address, why),
                "refused %s user=- method=websocket reason=%s",
                address,
                why,
            )
            return line

        async def _refuse(self, request: web.Request, line: str) -> web.WebSocketResponse:
            """Tell the browser's terminal why, in one line, and close."""
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            with contextlib.suppress(ConnectionError, RuntimeError):
                await websocket.send_bytes(f"\r\n{line}\r\n".encode())
            await websocket.close()
            return websocket

        async def _idle(self, table: Table) -> None:
            """Returns once the tab's table has had no key for ``idle_timeout`` seconds."""
            timeout = limits.idle_timeout
            if timeout <= 0:
                await asyncio.Event().wait()
            while (left := table.last_key + timeout - time.monotonic()) > 0:
                await asyncio.sleep(left)

        async def _take_over(self, session: str, tab: asyncio.Task[Any]) -> None:
            """A tab reconnected (a reload): end its old table first, so the match it was
            playing is free again when the new table looks for it."""
            old = self._by_session.get(session)
            self._by_session[session] = tab
            if old is not None and not old.done():
                old.cancel()
                await asyncio.wait({old}, timeout=shutdown_grace + 2)

        async def _serve_tab(
            self, request: web.Request, session: str | None
        ) -> web.WebSocketResponse:
            # textual-serve's handle_websocket, with this module's Table for the app.
            from textual_serve.server import to_int

            websocket = web.WebSocketResponse(heartbeat=15)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            table: Table | None = None
            try:
                await websocket.prepare(request)
                table = Table(
                    self.command,
                    write_bytes=websocket.send_bytes,
                    write_str=websocket.send_str,
                    close=websocket.close,
                    download_manager=self.download_manager,
                    debug=False,
                )
                table.session = session
                table.address = request.remote or "?"
                table.last_key = time.monotonic()
                await table.start(width, height)
                messages = asyncio.ensure_future(self._process_messages(websocket, table))
                idle = asyncio.ensure_future(self._idle(table))
                try:
                    await asyncio.wait({messages, idle}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    messages.cancel()
                    idle.cancel()
                if idle.done() and not idle.cancelled():
                    log.info("web table of %s closed: idle too long", request.remote)
                    await table.stop()
                    with contextlib.suppress(ConnectionError, RuntimeError):
                        await websocket.send_bytes(f"\r\n{IDLE_GOODBYE}\r\n".encode())
                    await websocket.close()
                elif messages.exception() is not None:
                    raise messages.exception()  # type: ignore[misc]
            except asyncio.CancelledError:
                await websocket.close()
            except Exception as error:
                log.info("web table failed: %r", error)
            finally:
                if table is not None:
                    await table.stop()
            return websocket

        async def on_startup(self, app: web.Application) -> None:
            await super().on_startup(app)
            if launcher is not None:
                launcher.start_soon()  # a first tab waits for it only if it is not ready
            if shared_tables:
                shared["service"], shared["socket"] = await open_shared_tables(
                    data_dir, **(tables or {})
                )

        async def on_shutdown(self, app: web.Application) -> None:
            # textual-serve answers a cancelled tab by telling its app to quit.
            for tab in list(self._tabs):
                tab.cancel()
            if self._tabs:
                await asyncio.wait(set(self._tabs), timeout=shutdown_grace + 2)
            if shared["service"] is not None:
                await shared["service"].stop()
            if launcher is not None:
                await launcher.close()

    return TableServer(
        " ".join(argv(tables_dir)),
        host=host,
        port=port,
        title="unotable",
        public_url=url or public_url(host, port),
    )


def serve_forever(
    host: str,
    port: int,
    data_dir: Path,
    url: str | None,
    shutdown_grace: float = 3.0,
    shared_tables: bool = True,
    tables: dict[str, Any] | None = None,
    limits: WebLimits | None = None,
) -> int:
    """Serve until Ctrl+C (textual-serve handles SIGINT and SIGTERM)."""
    server = make_server(
        host,
        port,
        data_dir,
        url,
        shutdown_grace,
        shared_tables=shared_tables,
        tables=tables,
        limits=limits,
    )
    print(f"unotable: web table at {server.public_url}  (Ctrl+C stops it)", flush=True)
    try:
        server.serve()
    except OSError as exc:  # a port in use, an address that is not this machine's
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ServeError(f"cannot listen on {host} port {port}: {reason}") from None
    return 0
