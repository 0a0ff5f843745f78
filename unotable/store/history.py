"""Finished matches (the last 100) and the per-player statistics drawn from them.

Each finished match is one file in ``history/``: the full save (so it can be replayed)
plus a ``summary`` computed once, when it is recorded: date, seats, scores, winners and
each seat's figures for the stats screen.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import atomic_write
from .paths import history_dir
from .record import MatchRecord, SeatRecord
from .saves import SaveError, dumps, parse_json, rebuild_match, record_from_dict

if TYPE_CHECKING:
    from unotable.engine import Match

KEEP = 100
_ENTRY_NAME = re.compile(r"^(\d{6,})-([a-z-]+)-([0-9a-f]{12})\.json$")


@dataclass(frozen=True)
class SeatFigures:
    """One seat's figures in one finished match."""

    hands: int = 0  # hands played
    points: int = 0  # sum of the points scored in those hands
    moons: int = 0  # hands in which this seat shot the moon
    uno_catches: int = 0  # exposed seats this seat caught
    challenges_won: int = 0  # Wild Draw Four challenges this seat made that caught a bluff


@dataclass(frozen=True)
class HistoryEntry:
    path: Path
    finished_at: str  # ISO 8601, UTC
    game: str
    seats: tuple[SeatRecord, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    figures: tuple[SeatFigures, ...]

    @property
    def winner_names(self) -> tuple[str, ...]:
        return tuple(self.seats[i].name for i in self.winners)


@dataclass
class PlayerStats:
    """Everything the stats screen shows for one player name."""

    name: str
    matches: int = 0
    wins: int = 0
    hands: int = 0
    points: int = 0
    moons: int = 0
    uno_catches: int = 0
    challenges_won: int = 0

    @property
    def average_points(self) -> float | None:
        """Average points per hand (None before any hand)."""
        return self.points / self.hands if self.hands else None


# -- recording ----------------------------------------------------------------------------


def record_finished(record: MatchRecord, data_dir: Path, match: Match | None = None) -> Path:
    """Add a finished match to the history and drop the oldest beyond the last ``KEEP``.

    ``match`` is the live match if the caller has it (saves replaying it again).
    Recording the same match twice (a crash between recording and clearing the
    autosave) keeps one entry. SaveError if the record does not replay to a finished match.
    """
    if match is None:
        match = rebuild_match(record)
    if not match.over:
        raise SaveError("only a finished match goes into the history")
    folder = history_dir(data_dir)
    key = _match_key(record)
    existing = list(folder.glob(f"*-{key}.json")) if folder.is_dir() else []
    if existing:
        return existing[0]
    record = replace(record, finished=True)
    summary = {
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "scores": list(match.scores),
        "winners": list(match.winners),
        "figures": [asdict(f) for f in seat_figures(match)],
    }
    number = max((n for n, _ in _numbered(folder)), default=0) + 1
    path = folder / f"{number:06d}-{record.game}-{key}.json"
    atomic_write(path, dumps(record, extra={"summary": summary}))
    for _, old in _numbered(folder)[:-KEEP]:
        old.unlink(missing_ok=True)
    return path


def seat_figures(match: Match) -> list[SeatFigures]:
    """Each seat's figures, from the match's hand results, actions and events."""
    n = match.players
    hands = [0] * n
    points = [0] * n
    moons = [0] * n
    for result in match.hand_results:
        for seat in range(n):
            hands[seat] += 1
            points[seat] += result.points[seat]
        shooter = result.notes.get("moon")
        if isinstance(shooter, int) and 0 <= shooter < n:
            moons[shooter] += 1
    catches = [0] * n
    challenges = [0] * n
    catcher: int | None = None
    for event in match.log:
        if event.seat is None or not 0 <= event.seat < n:
            continue
        if event.kind == "catch":
            catcher = event.seat
        elif event.kind == "penalty" and event.data.get("reason") == "catch":
            # a catch counts only when the caught seat still held one card and drew
            if catcher is not None:
                catches[catcher] += 1
            catcher = None
        elif event.kind == "challenge" and event.data.get("guilty"):
            challenges[event.seat] += 1
    return [SeatFigures(hands[i], points[i], moons[i], catches[i], challenges[i]) for i in range(n)]


def _match_key(record: MatchRecord) -> str:
    identity = f"{record.game}|{record.seed}|{record.started}|{len(record.actions)}"
    return hashlib.sha256(identity.encode()).hexdigest()[:12]


def _numbered(folder: Path) -> list[tuple[int, Path]]:
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        m = _ENTRY_NAME.match(path.name)
        if m:
            found.append((int(m.group(1)), path))
    return sorted(found)


# -- reading ------------------------------------------------------------------------------


def finished_matches(data_dir: Path) -> list[HistoryEntry]:
    """The recorded matches, newest first. Unreadable entries are left out."""
    entries = []
    for _, path in reversed(_numbered(history_dir(data_dir))):
        try:
            entries.append(_read_entry(path))
        except (OSError, SaveError):
            continue
    return entries


def _read_entry(path: Path) -> HistoryEntry:
    data = parse_json(path.read_bytes())
    record = record_from_dict(data)
    summary = data.get("summary")
    if not isinstance(summary, dict):
        raise SaveError("no summary")
    n = record.players
    scores = _ints(summary.get("scores"), n)
    winners = _ints(summary.get("winners"), None)
    figures_data = summary.get("figures")
    finished_at = summary.get("finished_at")
    if not isinstance(figures_data, list) or len(figures_data) != n:
        raise SaveError("bad figures")
    if not isinstance(finished_at, str) or any(not 0 <= w < n for w in winners):
        raise SaveError("bad summary")
    figures = tuple(_figures(item) for item in figures_data)
    return HistoryEntry(
        path, finished_at, record.game, tuple(record.seats), scores, winners, figures
    )


def _ints(value: Any, length: int | None) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise SaveError("bad list")
    if any(not isinstance(v, int) or isinstance(v, bool) for v in value):
        raise SaveError("bad number")
    return tuple(value)


def _figures(item: Any) -> SeatFigures:
    if not isinstance(item, dict):
        raise SaveError("bad figures")
    names = SeatFigures.__dataclass_fields__
    values = {k: v for k, v in item.items() if k in names}
    if any(not isinstance(v, int) or isinstance(v, bool) for v in values.values()):
        raise SaveError("bad figures")
    return SeatFigures(**values)


def player_stats(data_dir: Path, game: str | None = None) -> dict[str, PlayerStats]:
    """Stats per player name over the recorded matches (of one game, if ``game`` is given).

    Most matches first, then by name.
    """
    return stats_from_entries(finished_matches(data_dir), game)


def stats_from_entries(
    entries: Iterable[HistoryEntry], game: str | None = None
) -> dict[str, PlayerStats]:
    stats: dict[str, PlayerStats] = {}
    for entry in entries:
        if game is not None and entry.game != game:
            continue
        counted: set[str] = set()
        for seat_record, figures in zip(entry.seats, entry.figures, strict=True):
            player = stats.setdefault(seat_record.name, PlayerStats(seat_record.name))
            # a name at two seats of one match played one match, and won it at most once
            if seat_record.name not in counted:
                player.matches += 1
                player.wins += any(entry.seats[w].name == seat_record.name for w in entry.winners)
                counted.add(seat_record.name)
            player.hands += figures.hands
            player.points += figures.points
            player.moons += figures.moons
            player.uno_catches += figures.uno_catches
            player.challenges_won += figures.challenges_won
    return dict(sorted(stats.items(), key=lambda item: (-item[1].matches, item[0].lower())))
