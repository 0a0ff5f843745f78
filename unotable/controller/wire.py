"""Snapshots and intents as JSON-ready data, and back.

Cards travel as their notation, actions as theirs; engine dataclasses (views, events,
hand results) travel as tagged field maps. Decoding needs the game, to parse cards.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Mapping
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


# cards and actions are few per game; a cache that fills past this is emptied and refilled
_CACHE_LIMIT = 4096
_SCALARS = frozenset({type(None), bool, int, float, str})

Encode = Callable[[Any], Any]
_by_type: dict[type, Encode] = {}
_cards: dict[Any, dict[str, str]] = {}
_actions: dict[Action, dict[str, str]] = {}


def encode(value: Any) -> Any:
    """A JSON-ready form of ``value`` (a snapshot, intent, or anything inside one).

    Each type met is given its encoder once (a dataclass's field names; a card's and an
    action's form are kept), so a seat's whole snapshot takes about a fifth of a plain
    walk's time. Parts of the result (a card's, an action's form) are shared between
    calls: write it out, do not change it."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    how = _by_type.get(kind)
    if how is None:
        how = _by_type[kind] = _encoder_for(kind)
    return how(value)


def _identity(value: Any) -> Any:
    return value


def _sequence(value: Any) -> list[Any]:
    return [v if type(v) in _SCALARS else (_by_type.get(type(v)) or encode)(v) for v in value]


def _set(value: Any) -> dict[str, Any]:
    return {"$set": sorted((encode(v) for v in value), key=repr)}


def _mapping(value: Any) -> dict[str, Any]:
    return {"$map": [[encode(k), encode(v)] for k, v in value.items()]}


def _action(value: Action) -> dict[str, str]:
    try:
        return _actions[value]
    except KeyError:
        pass
    except TypeError:  # unhashable (a card that is not): made each time
        return {"$action": str(value)}
    if len(_actions) >= _CACHE_LIMIT:
        _actions.clear()
    made = _actions[value] = {"$action": str(value)}
    return made


def _card(value: Any) -> dict[str, str]:
    try:
        return _cards[value]
    except KeyError:
        pass
    except TypeError:
        return {"$card": str(value)}
    if len(_cards) >= _CACHE_LIMIT:
        _cards.clear()
    made = _cards[value] = {"$card": str(value)}
    return made


def _dataclass(kind: type) -> Encode:
    names = tuple(f.name for f in dataclasses.fields(kind))
    tag = kind.__name__

    def fields(value: Any) -> dict[str, Any]:
        out = {}
        for name in names:
            v = getattr(value, name)
            t = type(v)
            if t in _SCALARS:
                out[name] = v
            else:
                how = _by_type.get(t)
                out[name] = how(v) if how is not None else encode(v)
        return {"$data": tag, "fields": out}

    return fields


def _encoder_for(kind: type) -> Encode:
    """How values of ``kind`` travel, checked in this order: scalars, actions, sequences,
    sets, mappings, dataclasses; every other value inside a view is a game's card."""
    if issubclass(kind, bool | int | float | str):
        return _identity
    if issubclass(kind, Action):
        return _action
    if issubclass(kind, tuple | list):
        return _sequence
    if issubclass(kind, frozenset | set):
        return _set
    if issubclass(kind, Mapping):
        return _mapping
    if dataclasses.is_dataclass(kind):
        return _dataclass(kind)
    return _card  # every other value inside a view is a game's card


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
