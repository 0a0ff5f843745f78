"""Snapshots and intents as JSON-ready data, and back.

Cards travel as their notation, actions as theirs; engine dataclasses (views, events,
hand results) travel as tagged field maps. Decoding needs the game, to parse cards.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Mapping
from typing import Any

from unotable.engine import Action, Event, HandResult, View, get_game

from .snapshot import Intent, SeatInfo, Snapshot


def _view_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    pending: list[type] = [View]
    while pending:
        cls = pending.pop()
        # dataclass(slots=True) replaces a class; the discarded first draft can linger
        # among __subclasses__() until collected, so only the module's own class counts
        if getattr(sys.modules.get(cls.__module__), cls.__qualname__, None) is cls:
            found[cls.__name__] = cls
        pending.extend(cls.__subclasses__())
    return found


_DATACLASSES: dict[str, type] = {
    "Snapshot": Snapshot,
    "SeatInfo": SeatInfo,
    "Intent": Intent,
    "Event": Event,
    "HandResult": HandResult,
}


def encode(value: Any) -> Any:
    """A JSON-ready form of ``value`` (a snapshot, intent, or anything inside one)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, Action):
        return {"$action": str(value)}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, frozenset | set):
        return {"$set": sorted((encode(v) for v in value), key=repr)}
    if isinstance(value, Mapping):
        return {"$map": [[encode(k), encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"$data": type(value).__name__, "fields": fields}
    return {"$card": str(value)}  # every other value inside a view is a game's card


def decode(data: Any, game: str) -> Any:
    """The value ``encode`` made, with cards and actions parsed by ``game``'s rules."""
    spec = get_game(game)
    classes = {**_view_classes(), **_DATACLASSES}

    def walk(item: Any) -> Any:
        if isinstance(item, list):
            return tuple(walk(v) for v in item)
        if not isinstance(item, dict):
            return item
        if "$card" in item:
            return spec.parse_card(item["$card"])
        if "$action" in item:
            return spec.parse_action(item["$action"])
        if "$set" in item:
            return frozenset(walk(v) for v in item["$set"])
        if "$map" in item:
            return {walk(k): walk(v) for k, v in item["$map"]}
        if "$data" in item:
            cls = classes.get(item["$data"])
            if cls is None:
                raise ValueError(f"unknown data type {item['$data']!r}")
            return cls(**{name: walk(v) for name, v in item["fields"].items()})
        raise ValueError(f"not encoded data: {sorted(item)!r}")

    return walk(data)
