"""The save format: a match record as JSON text, read back safely, and rebuilt by replay.

A save is JSON: a format tag and version, the game, options, seats, seed and every
``[seat, action]`` in notation. Replaying the actions rebuilds the exact state, because
the engine is deterministic given the seed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from .files import read_limited
from .record import SAVE_FORMAT_VERSION, MatchRecord, SeatRecord

if TYPE_CHECKING:
    from unotable.engine import Match

SAVE_FORMAT = "unotable-save"


class SaveError(Exception):
    """A save that cannot be used. The message says what is wrong and where the file went."""

    def __init__(self, message: str, moved_to: Path | None = None) -> None:
        super().__init__(message)
        self.moved_to = moved_to


class NewerSaveError(SaveError):
    """A save written by a newer unotable, in a format this one does not know."""


# -- JSON ---------------------------------------------------------------------------------


def record_to_dict(record: MatchRecord) -> dict[str, Any]:
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_FORMAT_VERSION,
        "game": record.game,
        "options": dict(record.options),
        "seats": [{"name": s.name, "kind": s.kind} for s in record.seats],
        "seed": record.seed,
        "started": record.started,
        "finished": record.finished,
        **(
            {"undos": [[at, [list(p) for p in back]] for at, back in record.undos]}
            if record.undos
            else {}
        ),
        "actions": [[seat, text] for seat, text in record.actions],
    }


def dumps(record: MatchRecord, extra: dict[str, Any] | None = None) -> str:
    """The save text: one key per line and one action per line, so it reads and diffs well.

    ``extra`` adds top-level keys (history entries carry a ``summary``); the loader
    ignores keys it does not know.
    """
    data = record_to_dict(record)
    actions = data.pop("actions")
    data.update(extra or {})
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in data.items()]
    if actions:
        body = ",\n".join(f"    {json.dumps(pair)}" for pair in actions)
        lines.append(f'  "actions": [\n{body}\n  ]')
    else:
        lines.append('  "actions": []')
    return "{\n" + "\n".join(lines) + "\n}\n"


def load_file(path: Path) -> MatchRecord:
    """The record in a save file, read safely (see files.read_limited).

    FileNotFoundError if there is none; SaveError for anything else that is wrong.
    """
    try:
        # the bytes are dropped once decoded, the text once parsed: one copy at a time
        data = parse_json(read_limited(path))
    except FileNotFoundError:
        raise
    except OSError as exc:
        reason = str(exc) if exc.strerror is None else f"it could not be read ({exc.strerror})"
        raise SaveError(reason) from exc
    return record_from_dict(data)


def loads(text: str | bytes) -> MatchRecord:
    """The record in a save's text; SaveError (and nothing else) for anything unusable."""
    return record_from_dict(parse_json(text))


def parse_json(text: str | bytes) -> dict[str, Any]:
    """The top-level JSON object of a file; SaveError if it is not one."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SaveError("it is not text (not UTF-8)") from exc
    if not text.strip():
        raise SaveError("it is empty")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        # ValueError covers JSONDecodeError and numbers too long to convert
        raise SaveError(f"it is damaged or cut short (not valid JSON: {exc})") from exc
    if not isinstance(data, dict):
        raise SaveError("it is not a saved match (no JSON object at the top)")
    return data


def record_from_dict(data: dict[str, Any]) -> MatchRecord:
    from unotable.engine import game_ids

    if data.get("format") != SAVE_FORMAT:
        raise SaveError("it is not a unotable saved match (no format tag)")
    version = data.get("version")
    if not _is_int(version) or version < 1:
        raise SaveError(f"it has no valid format version (got {_short(version)})")
    if version > SAVE_FORMAT_VERSION:
        raise NewerSaveError(
            f"it was saved by a newer unotable (save format {version}; "
            f"this version reads up to {SAVE_FORMAT_VERSION})"
        )
    game = data.get("game")
    if game not in game_ids():
        raise SaveError(f"it names no known game (got {_short(game)})")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise SaveError("its options are not a JSON object")
    seats = data.get("seats")
    if not isinstance(seats, list) or not seats:
        raise SaveError("it has no list of seats")
    seat_records = []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise SaveError(f"seat {i} is not a JSON object")
        name, kind = seat.get("name"), seat.get("kind")
        if not isinstance(name, str) or not isinstance(kind, str):
            raise SaveError(f"seat {i} needs a text name and kind")
        seat_records.append(SeatRecord(name, kind))
    seed = data.get("seed")
    if not _is_int(seed):
        raise SaveError(f"its seed is not a whole number (got {_short(seed)})")
    started = data.get("started", "")
    finished = data.get("finished", False)
    if not isinstance(started, str) or not isinstance(finished, bool):
        raise SaveError("its start date or finished flag has the wrong type")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise SaveError("it has no list of actions")
    for i, pair in enumerate(actions):
        if (
            not isinstance(pair, list)
            or len(pair) != 2
            or not _is_int(pair[0])
            or not 0 <= pair[0] < len(seats)
            or not isinstance(pair[1], str)
        ):
            raise SaveError(f"action {i + 1} is not a [seat, notation] pair (got {_short(pair)})")
    # tuples in place, so a long match is not held twice
    pairs: list[tuple[int, str]] = actions
    for i, pair in enumerate(actions):
        pairs[i] = (pair[0], pair[1])
    return MatchRecord(
        game=game,
        options=options,
        seats=seat_records,
        seed=seed,
        actions=pairs,
        started=started,
        finished=finished,
        version=SAVE_FORMAT_VERSION,
        undos=_undos(data.get("undos", []), len(seats)),
    )


def _undos(value: Any, seats: int) -> list[tuple[int, list[tuple[int, str]]]]:
    """The take-backs of a save (optional: older saves have none)."""
    if not isinstance(value, list):
        raise SaveError("its undos are not a list")
    undos: list[tuple[int, list[tuple[int, str]]]] = []
    for i, item in enumerate(value):
        ok = isinstance(item, list) and len(item) == 2 and _is_int(item[0]) and item[0] >= 0
        back = item[1] if ok else None
        if not ok or not isinstance(back, list):
            raise SaveError(f"undo {i + 1} is not an [actions kept, taken back] pair")
        pairs = []
        for pair in back:
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and _is_int(pair[0])
                and 0 <= pair[0] < seats
                and isinstance(pair[1], str)
            ):
                raise SaveError(f"undo {i + 1} holds something that is not a [seat, notation] pair")
            pairs.append((pair[0], pair[1]))
        undos.append((item[0], pairs))
    return undos


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# -- rebuilding ---------------------------------------------------------------------------


def new_match(record: MatchRecord) -> Match:
    """The match as dealt, before any action; SaveError if the record cannot start one."""
    from unotable.engine import get_game

    try:
        spec = get_game(record.game)
        return spec.new_match(record.players, record.options, record.seed)
    except Exception as exc:  # an engine that cannot start it, for whatever reason
        raise SaveError(f"the match cannot be set up again: {exc}") from exc


def replay_action(match: Match, number: int, seat: int, text: str) -> None:
    """Apply action ``number`` (1-based) of a record; SaveError if it does not replay."""
    from unotable.engine.replay import ReplayError, replay_actions

    try:
        replay_actions(match, [(seat, text)], first=number)
    except ReplayError as exc:
        raise SaveError(str(exc)) from exc


def rebuild_match(record: MatchRecord) -> Match:
    """Replay every action of ``record`` with the engine; SaveError if any does not replay."""
    from unotable.engine.replay import ReplayError, replay_actions

    match = new_match(record)
    try:
        return replay_actions(match, record.actions)
    except ReplayError as exc:
        raise SaveError(str(exc)) from exc
