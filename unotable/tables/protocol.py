"""The shared tables' wire: one JSON object per line over a local (Unix) socket.

Every frame has a ``type``. Frames from players are small and checked before use; a frame
that is too long, not JSON, not an object or of an unknown type ends that connection with
a reason, and never reaches a table.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from typing import Any

import msgspec

# A player's frames are short (an intent, a chat line); the table's carry snapshots.
MAX_CLIENT_FRAME = 4 * 1024
MAX_SERVER_FRAME = 4 * 1024 * 1024
CLIENT_TYPES = frozenset(
    {"list", "create", "join", "watch", "start", "intent", "show", "ready", "chat", "bye"}
)
# Nesting deeper than any real frame; deeper would also hit Python's recursion limit.
MAX_DEPTH = 32
MAX_CHAT = 120  # characters of a free chat line
QUICK_PHRASES = ("Good game!", "Well played!", "Oops.", "Your turn!", "Thanks!", "One more?")


class ProtocolError(Exception):
    """A frame that breaks the protocol; the connection that sent it is closed."""


# msgspec writes and reads the same JSON as ``json`` with these settings (compact, UTF-8
# unescaped), ten times as fast; one encoder and one decoder serve every frame
_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder()


def frame(message: dict[str, Any]) -> bytes:
    try:
        return _encoder.encode(message) + b"\n"
    except (TypeError, ValueError, OverflowError, msgspec.EncodeError):  # json says why
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


async def read_frame(reader: asyncio.StreamReader, limit: int) -> dict[str, Any] | None:
    """The next frame, or None at the end of the stream. ProtocolError if it is bad."""
    try:
        line = await reader.readuntil(b"\n")
    except asyncio.IncompleteReadError as end:
        if end.partial.strip():
            raise ProtocolError("the connection ended inside a frame") from None
        return None
    except asyncio.LimitOverrunError:
        raise ProtocolError(f"a frame longer than {limit} bytes") from None
    if len(line) > limit:
        raise ProtocolError(f"a frame longer than {limit} bytes")
    try:
        message = _decoder.decode(line)
    except RecursionError:
        raise ProtocolError(f"a frame nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:  # msgspec.DecodeError, or text that is not UTF-8
        raise ProtocolError("a frame that is not JSON") from None
    # counting brackets is cheap; only a frame with many is walked
    if line.count(b"[") + line.count(b"{") > MAX_DEPTH and nesting(message) > MAX_DEPTH:
        raise ProtocolError(f"a frame nested deeper than {MAX_DEPTH} levels")
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ProtocolError("a frame without a type")
    return message


_NESTED = (dict, list)


def nesting(value: Any) -> int:
    """How deeply lists and maps (as JSON decodes them) nest in ``value`` (a scalar is 0),
    without recursion; at most MAX_DEPTH + 1 (deep enough to refuse: the rest is not
    walked). Level by level, each level's maps and lists picked out by a comprehension:
    about twice as fast on a snapshot frame's thousands of values as one at a time."""
    level = [value] if type(value) in _NESTED else []
    depth = 0
    while level and depth <= MAX_DEPTH:
        depth += 1
        below: list[Any] = []
        for item in level:
            children = item.values() if type(item) is dict else item
            below += [child for child in children if type(child) in _NESTED]
        level = below
    return depth


def check_client_frame(message: dict[str, Any]) -> dict[str, Any]:
    if message["type"] not in CLIENT_TYPES:
        raise ProtocolError(f"unknown frame type {message['type'][:20]!r}")
    return message


def clean_text(text: Any, limit: int = MAX_CHAT) -> str:
    """A chat line or a name as others will see it: no control or format characters (no
    terminal escapes), spaces collapsed, at most ``limit`` characters."""
    if not isinstance(text, str):
        return ""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text[: limit * 4]
        if ch.isspace() or unicodedata.category(ch)[0] not in "CZ"
    )
    return " ".join(kept.split())[:limit]
