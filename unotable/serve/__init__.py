"""``unotable serve ssh|web``: host the table for other people.

Only the standard library is imported here: the CLI imports this module to build its
parser. asyncssh and textual-serve are imported when a server actually starts.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from unotable.tables import (
    DEFAULT_GRACE,
    DEFAULT_IDLE_CLOSE,
    DEFAULT_MAX_SEATS,
    DEFAULT_MAX_TABLES,
    DEFAULT_MAX_TABLES_PER_PLAYER,
    DEFAULT_TURN_TIME,
    MAX_TURN_TIME,
    MIN_TURN_TIME,
)

DEFAULT_HOST = "127.0.0.1"
DEFAULT_SSH_PORT = 2222
DEFAULT_WEB_PORT = 8000
DEFAULT_MAX_SESSIONS = 8
DEFAULT_MAX_SESSIONS_PER_ADDRESS = 4  # web: tabs from one address
DEFAULT_IDLE_MINUTES = 30.0
DEFAULT_AUTHORIZED_KEYS = Path("~/.ssh/authorized_keys")
WILDCARD_HOSTS = ("0.0.0.0", "::", "")
# Abuse limits; docs/serve.md ("Security") explains each.
DEFAULT_MAX_AUTH_TRIES = 6
DEFAULT_AUTH_DELAY = 0.5
DEFAULT_GUESSES_PER_MINUTE = 10
DEFAULT_GUESS_BURST = 5
DEFAULT_LOGIN_GRACE = 20.0
DEFAULT_MAX_UNAUTHENTICATED = 100
DEFAULT_MAX_UNAUTHENTICATED_PER_ADDRESS = 10
DEFAULT_SESSIONLESS_TIMEOUT = 60.0
DEFAULT_SHUTDOWN_GRACE = 3.0


class ServeError(Exception):
    """A reason the server cannot start or go on (a port in use, a key file it cannot use,
    a data dir that is not this account's alone): one line, exit status 1."""

    exit_status = 1


class ServeUsageError(ServeError):
    """Options that cannot work, whatever the machine: one line, exit status 2, as for
    argparse's own errors."""

    exit_status = 2


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid port: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0-65535 (0 picks a free one): {value}")
    return value


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of minutes: {text!r}") from None
    if not 0 <= value <= 7 * 24 * 60:
        raise argparse.ArgumentTypeError(f"minutes must be 0 (never) to 10080: {value:g}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of seconds: {text!r}") from None
    if not 0 <= value <= 24 * 3600:
        raise argparse.ArgumentTypeError(f"seconds must be 0 to 86400: {value:g}")
    return value


def configure(parser: argparse.ArgumentParser) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)",
    )
    common.add_argument(
        "--data-dir",
        type=Path,
        default=argparse.SUPPRESS,
        metavar="DIR",
        help="where host key and saved matches live (default: the user data directory)",
    )
    common.add_argument(
        "--shutdown-grace",
        type=_seconds,
        default=DEFAULT_SHUTDOWN_GRACE,
        metavar="SECONDS",
        help=f"at Ctrl+C, how long a player's client (ssh) or table (web) gets to finish "
        f"before it is cut off or killed (default {DEFAULT_SHUTDOWN_GRACE:g})",
    )
    _add_table_limits(common)
    modes = parser.add_subparsers(dest="serve_mode", metavar="MODE", required=True)

    ssh = modes.add_parser(
        "ssh",
        parents=[common],
        help="an SSH server: each connection plays its own table",
        description="Serve unotable over SSH: each connection gets its own table.",
    )
    ssh.add_argument("--port", type=_port, default=DEFAULT_SSH_PORT, help="default 2222")
    ssh.add_argument(
        "--authorized-keys",
        type=Path,
        metavar="FILE",
        help="public keys allowed in (default ~/.ssh/authorized_keys when it exists)",
    )
    ssh.add_argument(
        "--password-env",
        metavar="VAR",
        help="also let in anyone who types the password held in environment variable VAR",
    )
    ssh.add_argument(
        "--open",
        action="store_true",
        help="let anyone in without a key or password (a demo on a trusted network)",
    )
    ssh.add_argument(
        "--max-sessions",
        type=_positive_int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"tables at once; further players are told the table is full "
        f"(default {DEFAULT_MAX_SESSIONS})",
    )
    ssh.add_argument(
        "--idle-timeout",
        type=_minutes,
        default=DEFAULT_IDLE_MINUTES,
        metavar="MINUTES",
        help=f"disconnect after this long without a key press; the match is kept "
        f"(default {DEFAULT_IDLE_MINUTES:g}, 0 never)",
    )
    _add_ssh_limits(ssh)

    web = modes.add_parser(
        "web",
        parents=[common],
        help="a web server: each browser tab plays its own table",
        description="Serve unotable in a browser with textual-serve (no authentication).",
    )
    web.add_argument("--port", type=_port, default=DEFAULT_WEB_PORT, help="default 8000")
    web.add_argument(
        "--public-url",
        metavar="URL",
        help="the address browsers use, when it differs from http://HOST:PORT",
    )
    web.add_argument(
        "--max-sessions",
        type=_positive_int,
        default=DEFAULT_MAX_SESSIONS,
        metavar="N",
        help=f"tables (browser tabs) at once; one more is told the table is full "
        f"(default {DEFAULT_MAX_SESSIONS})",
    )
    web.add_argument(
        "--max-sessions-per-address",
        type=_positive_int,
        default=DEFAULT_MAX_SESSIONS_PER_ADDRESS,
        metavar="N",
        help=f"tables at once from one address (default {DEFAULT_MAX_SESSIONS_PER_ADDRESS})",
    )
    web.add_argument(
        "--idle-timeout",
        type=_minutes,
        default=DEFAULT_IDLE_MINUTES,
        metavar="MINUTES",
        help=f"close a tab's table after this long without a key press; the match is kept "
        f"(default {DEFAULT_IDLE_MINUTES:g}, 0 never)",
    )


def _add_table_limits(common: argparse.ArgumentParser) -> None:
    tables = common.add_argument_group(
        "shared tables (docs/tables.md): players at one table from their own terminals"
    )
    tables.add_argument(
        "--max-tables",
        type=_positive_int,
        default=DEFAULT_MAX_TABLES,
        metavar="N",
        help=f"shared tables at once (default {DEFAULT_MAX_TABLES})",
    )
    tables.add_argument(
        "--max-tables-per-player",
        type=_positive_int,
        default=DEFAULT_MAX_TABLES_PER_PLAYER,
        metavar="N",
        help="open shared tables one player (a key; without one, an address) may have "
        f"created (default {DEFAULT_MAX_TABLES_PER_PLAYER})",
    )
    tables.add_argument(
        "--max-seats",
        type=_table_seats,
        default=DEFAULT_MAX_SEATS,
        metavar="N",
        help=f"seats at one shared table, 2 to 8 (default {DEFAULT_MAX_SEATS})",
    )
    tables.add_argument(
        "--rejoin-grace",
        type=_seconds,
        default=DEFAULT_GRACE,
        metavar="SECONDS",
        help="how long a dropped player's seat waits for them before a computer plays it "
        f"(default {DEFAULT_GRACE:g})",
    )
    tables.add_argument(
        "--turn-time",
        type=_turn_seconds,
        default=DEFAULT_TURN_TIME,
        metavar="SECONDS",
        help="how long a player at a shared table has for a turn before a computer plays it; "
        f"two missed turns in a row and the seat counts as away (default {DEFAULT_TURN_TIME:g}, "
        f"{MIN_TURN_TIME} to {MAX_TURN_TIME}, 0 no limit)",
    )
    tables.add_argument(
        "--table-idle-minutes",
        type=_minutes,
        default=DEFAULT_IDLE_CLOSE / 60,
        metavar="MINUTES",
        help="a shared table nobody is at is closed after this long; its save stays and it "
        f"reopens when the server restarts (default {DEFAULT_IDLE_CLOSE / 60:g}, 0 never)",
    )
    tables.add_argument(
        "--no-shared-tables",
        action="store_true",
        help="every connection plays alone (no Shared tables in the lobby)",
    )


def _table_seats(text: str) -> int:
    value = _positive_int(text)
    if not 2 <= value <= 8:
        raise argparse.ArgumentTypeError(f"a table seats 2 to 8 players: {value}")
    return value


def _turn_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if value != 0 and not MIN_TURN_TIME <= value <= MAX_TURN_TIME:
        raise argparse.ArgumentTypeError(
            f"a turn's time is {MIN_TURN_TIME} to {MAX_TURN_TIME} seconds, or 0 for no limit"
        )
    return value


def table_settings(args: argparse.Namespace) -> dict[str, object]:
    """The shared tables' limits, as TableService takes them."""
    return {
        "max_tables": args.max_tables,
        "max_tables_per_player": args.max_tables_per_player,
        "max_seats": args.max_seats,
        "grace": args.rejoin_grace,
        "turn_time": args.turn_time,
        "idle_close": args.table_idle_minutes * 60,
    }


def _add_ssh_limits(ssh: argparse.ArgumentParser) -> None:
    limits = ssh.add_argument_group("abuse limits (docs/serve.md, Security)")
    limits.add_argument(
        "--max-auth-tries",
        type=_positive_int,
        default=DEFAULT_MAX_AUTH_TRIES,
        metavar="N",
        help=f"failed logins before a connection is closed (default {DEFAULT_MAX_AUTH_TRIES})",
    )
    limits.add_argument(
        "--auth-delay",
        type=_seconds,
        default=DEFAULT_AUTH_DELAY,
        metavar="SECONDS",
        help=f"wait before a connection's second password check, doubling for each further "
        f"one, at most 8 s (default {DEFAULT_AUTH_DELAY:g})",
    )
    limits.add_argument(
        "--guesses-per-minute",
        type=_positive_int,
        default=DEFAULT_GUESSES_PER_MINUTE,
        metavar="N",
        help=f"passwords checked per source address and minute, over all its connections "
        f"(default {DEFAULT_GUESSES_PER_MINUTE})",
    )
    limits.add_argument(
        "--guess-burst",
        type=_positive_int,
        default=DEFAULT_GUESS_BURST,
        metavar="N",
        help=f"passwords an address may have checked at once before that rate applies "
        f"(default {DEFAULT_GUESS_BURST})",
    )
    limits.add_argument(
        "--login-grace",
        type=_seconds,
        default=DEFAULT_LOGIN_GRACE,
        metavar="SECONDS",
        help=f"time to log in before the connection is closed (default {DEFAULT_LOGIN_GRACE:g})",
    )
    limits.add_argument(
        "--max-unauthenticated",
        type=_positive_int,
        default=DEFAULT_MAX_UNAUTHENTICATED,
        metavar="N",
        help=f"connections not yet logged in, in total; beyond it the oldest of the busiest "
        f"address is dropped (default {DEFAULT_MAX_UNAUTHENTICATED})",
    )
    limits.add_argument(
        "--max-unauthenticated-per-address",
        type=_positive_int,
        default=DEFAULT_MAX_UNAUTHENTICATED_PER_ADDRESS,
        metavar="N",
        help=f"connections not yet logged in from one address; more are refused "
        f"(default {DEFAULT_MAX_UNAUTHENTICATED_PER_ADDRESS})",
    )
    limits.add_argument(
        "--sessionless-timeout",
        type=_seconds,
        default=DEFAULT_SESSIONLESS_TIMEOUT,
        metavar="SECONDS",
        help=f"close a logged-in connection that has no table open (ssh -N) after this long "
        f"(default {DEFAULT_SESSIONLESS_TIMEOUT:g}, 0 never)",
    )


def run(args: argparse.Namespace) -> int:
    # --data-dir may also come from the root parser (the app's own option).
    data_dir = args.data_dir if getattr(args, "data_dir", None) else None
    try:
        if args.serve_mode == "ssh":
            return _run_ssh(args, data_dir)
        return _run_web(args, data_dir)
    except ServeError as exc:
        problem, status = str(exc), exc.exit_status
    except OSError as exc:  # a start-up step without its own message: still one line
        problem, status = _os_error(exc), 1
    print(f"unotable serve {args.serve_mode}: error: {problem}", file=sys.stderr)
    return status


def _os_error(exc: OSError) -> str:
    reason = exc.strerror or str(exc) or type(exc).__name__
    return f"{exc.filename}: {reason}" if exc.filename else reason


def _resolve_data_dir(data_dir: Path | None) -> Path:
    from unotable.serve.paths import default_data_dir, unsafe_dir_reason

    path = Path(data_dir).expanduser() if data_dir else default_data_dir()
    if path.exists() and not path.is_dir():
        raise ServeError(f"data dir {path} is not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
    except OSError as exc:
        raise ServeError(f"cannot make data dir {path}: {exc.strerror or exc}") from None
    path = path.resolve()
    # the shared tables' socket and saves live in tables/: both must be this account's alone
    for folder in (path, path / "tables"):
        if folder.is_dir() and (reason := unsafe_dir_reason(folder)):
            raise ServeError(f"data dir {reason}")
    return path


def is_loopback(host: str) -> bool:
    return host == "localhost" or host == "::1" or host.startswith("127.")


def _warn(message: str) -> None:
    print(f"WARNING: {message}", file=sys.stderr, flush=True)


def _run_ssh(args: argparse.Namespace, data_dir: Path | None) -> int:
    data_path = _resolve_data_dir(data_dir)
    password = _password(args.password_env)
    keys = None if args.open else _authorized_keys(args.authorized_keys, password is not None)
    if not (args.open or password or keys):
        raise ServeUsageError(
            f"nobody could log in: {DEFAULT_AUTHORIZED_KEYS} does not exist. "
            "Give --authorized-keys FILE, --password-env VAR, or --open"
        )
    if args.open:
        _warn("--open: anyone who can reach this port can play, no key or password asked")
    else:
        if keys:
            print(f"unotable: public keys from {keys[0]}", flush=True)
        if password:
            print(f"unotable: password from ${args.password_env}", flush=True)

    import asyncio

    from unotable.serve.ssh import SshSettings, serve_forever

    _log_to_stderr()
    settings = SshSettings(
        data_dir=data_path,
        host=args.host,
        port=args.port,
        authorized_keys=keys[1] if keys else None,
        authorized_keys_file=keys[0] if keys else None,  # read again when it changes
        password=None if args.open else password,
        open_access=args.open,
        max_sessions=args.max_sessions,
        idle_timeout=args.idle_timeout * 60,
        max_auth_tries=args.max_auth_tries,
        auth_delay=args.auth_delay,
        guesses_per_minute=args.guesses_per_minute,
        guess_burst=args.guess_burst,
        login_grace=args.login_grace,
        max_unauthenticated=args.max_unauthenticated,
        max_unauthenticated_per_address=args.max_unauthenticated_per_address,
        sessionless_timeout=args.sessionless_timeout,
        shutdown_grace=args.shutdown_grace,
        shared_tables=not args.no_shared_tables,
        tables=table_settings(args),
    )
    return asyncio.run(serve_forever(settings))


def _password(var: str | None) -> str | None:
    if var is None:
        return None
    # Taken out of the environment so that no player's app process inherits it.
    value = os.environ.pop(var, "")
    if not value:
        raise ServeError(f"--password-env {var}: that environment variable is not set or empty")
    return value


def _authorized_keys(given: Path | None, have_password: bool) -> tuple[Path, Any] | None:
    """(file, parsed keys), or None when there is no default file to use."""
    import asyncssh

    path = (given or DEFAULT_AUTHORIZED_KEYS).expanduser()
    if not path.is_file():
        if given is None:
            return None
        what = "not a file" if path.exists() else "no such file"
        raise ServeError(f"--authorized-keys {given}: {what}")
    try:
        return path, asyncssh.read_authorized_keys(path)
    except (OSError, ValueError, asyncssh.KeyImportError) as exc:
        if given is None and have_password:
            _warn(f"ignoring {path}: {exc}")
            return None
        raise ServeError(f"cannot use {path}: {exc}") from None


def _log_to_stderr() -> None:
    """One line per connection event, with the time."""
    import logging

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    # the shared tables' events and refusals (unotable.tables) go to the same log
    for name in ("unotable.serve", "unotable.tables"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)


def _run_web(args: argparse.Namespace, data_dir: Path | None) -> int:
    import socket

    try:  # before the warning below: a name that is no address is one error line
        socket.getaddrinfo(args.host or None, args.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise ServeError(f"--host {args.host}: not an address to listen on ({reason})") from None
    if not is_loopback(args.host):
        _warn(
            f"--host {args.host}: the web table has no login; "
            "anyone who can reach this address can play"
        )
    if args.port == 0:
        raise ServeUsageError("--port 0 is not supported for web (the page needs its own address)")
    from unotable.serve.web import WebLimits, serve_forever

    return serve_forever(
        args.host,
        args.port,
        _resolve_data_dir(data_dir),
        args.public_url,
        args.shutdown_grace,
        shared_tables=not args.no_shared_tables,
        tables=table_settings(args),
        limits=WebLimits(args.max_sessions, args.max_sessions_per_address, args.idle_timeout * 60),
    )
