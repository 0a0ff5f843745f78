"""Run the shared tables alone: ``python -m unotable.tables --data-dir DIR``.

``unotable serve`` runs the same service inside its own process; this entry point is for
tests (a kill -9 and a restart) and benchmarks. It stops on SIGINT or SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
from pathlib import Path

from . import DEFAULT_GRACE, DEFAULT_MAX_SEATS, DEFAULT_MAX_TABLES
from .service import TableService


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m unotable.tables")
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--max-tables", type=int, default=DEFAULT_MAX_TABLES)
    parser.add_argument("--max-seats", type=int, default=DEFAULT_MAX_SEATS)
    parser.add_argument("--grace", type=float, default=DEFAULT_GRACE)
    parser.add_argument("--speed", default="normal")
    args = parser.parse_args(argv)

    async def serve() -> None:
        service = TableService(
            args.data_dir,
            max_tables=args.max_tables,
            max_seats=args.max_seats,
            grace=args.grace,
            speed=args.speed,
        )
        await service.start()
        print(f"tables at {service.socket_path}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
        await service.stop()

    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
