"""Whether a full-screen app can run here: a terminal to draw on and to read keys from."""

from __future__ import annotations

import os
import sys

SCRIPTED_USE = "for scripted use: unotable sim, or unotable replay FILE --text"


def terminal_problem(what: str = "the table") -> str | None:
    """Why ``what`` (a full-screen app) cannot run here, in one line, or None if it can.

    Without this check Textual starts anyway: escape codes go into a file or pipe, and the
    app waits for keys that never come.
    """
    if os.environ.get("TEXTUAL_DRIVER"):
        return None  # another driver draws it (the web server's), not this terminal
    if os.environ.get("TERM") == "dumb":
        return f"{what} needs a terminal that can draw on the screen, and TERM is 'dumb'"
    if not all(stream is not None and stream.isatty() for stream in (sys.stdin, sys.stdout)):
        return f"{what} needs a terminal: standard input and output must both be one"
    return None
