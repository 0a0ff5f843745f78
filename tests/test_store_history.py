"""Finished-match history (the last 100) and per-player stats."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from match_driver import played

from unotable.store import history, saves
from unotable.store.history import HistoryEntry, SeatFigures, seat_figures
from unotable.store.record import SeatRecord
from unotable.store.saves import SaveError


@pytest.fixture(scope="module")
def finished_uno():
    return played("uno", 3, seed=9, options={"target": 60})


def test_record_finished_writes_a_replayable_entry(tmp_path, finished_uno):
    record, match = finished_uno
    path = history.record_finished(record, tmp_path)  # rebuilds the match itself
    assert path.parent == tmp_path / "history"
    assert saves.rebuild_match(saves.loads(path.read_bytes())).log == match.log
    (entry,) = history.finished_matches(tmp_path)
    assert entry.game == "uno" and list(entry.seats) == record.seats
    assert entry.scores == tuple(match.scores) and entry.winners == match.winners
    assert entry.finished_at[:4].isdigit()
    assert entry.figures == tuple(seat_figures(match))


def test_unfinished_match_is_refused(tmp_path):
    record, match = played("uno", 2, seed=1, until=10)
    with pytest.raises(SaveError, match="finished"):
        history.record_finished(record, tmp_path, match)
    assert history.finished_matches(tmp_path) == []


def test_recording_the_same_match_twice_keeps_one_entry(tmp_path, finished_uno):
    record, match = finished_uno
    first = history.record_finished(record, tmp_path, match)
    second = history.record_finished(record, tmp_path, match)
    assert first == second
    assert len(history.finished_matches(tmp_path)) == 1


def test_history_keeps_the_last_100(tmp_path, finished_uno):
    record, match = finished_uno
    total = history.KEEP + 5
    for n in range(total):
        # the start time tells matches apart, as it does for real ones
        history.record_finished(replace(record, started=f"match {n}"), tmp_path, match)
    folder = tmp_path / "history"
    kept = sorted(folder.iterdir())
    assert len(kept) == history.KEEP
    started = [json.loads(p.read_text())["started"] for p in kept]
    assert started == [f"match {n}" for n in range(total - history.KEEP, total)]
    newest_first = history.finished_matches(tmp_path)
    assert [e.path for e in newest_first] == kept[::-1]


def test_damaged_entries_are_left_out(tmp_path, finished_uno):
    record, match = finished_uno
    good = history.record_finished(record, tmp_path, match)
    bad = history.record_finished(replace(record, started="other"), tmp_path, match)
    bad.write_text(bad.read_text()[:-100])
    assert [e.path for e in history.finished_matches(tmp_path)] == [good]


# -- figures, checked against what the replayed hands show ---------------------------------


def _hand_growth(record, index):
    """How many cards each seat's hand gained through action ``index`` (0-based)."""
    before = saves.new_match(record)
    for number, (seat, text) in enumerate(record.actions[:index], 1):
        saves.replay_action(before, number, seat, text)
    if before.hand_over:  # dealing is not an action: the next hand starts before it
        before.next_hand()
    sizes = [len(before.view(s).hand) for s in range(before.players)]
    seat, text = record.actions[index]
    before.apply(seat, text)
    return [len(before.view(s).hand) - sizes[s] for s in range(before.players)]


def test_uno_catches_and_challenges_match_the_cards_drawn():
    # two players and a driver that picks random seats: catches and challenges happen
    catches = challenges = 0
    for seed in range(5):
        record, match = played("uno", 2, seed=seed, options={"target": 40})
        figures = seat_figures(match)
        expected_catches = [0, 0]
        expected_challenges = [0, 0]
        for index, (seat, text) in enumerate(record.actions):
            if text.startswith("catch:"):
                caught = int(text.split(":")[1])
                if _hand_growth(record, index)[caught] > 0:
                    expected_catches[seat] += 1
            elif text == "challenge" and _hand_growth(record, index)[seat] == 0:
                expected_challenges[seat] += 1  # the bluffer drew instead
        assert [f.uno_catches for f in figures] == expected_catches
        assert [f.challenges_won for f in figures] == expected_challenges
        catches += sum(expected_catches)
        challenges += sum(expected_challenges)
    assert catches > 0 and challenges > 0  # the check above was not vacuous


def test_moons_and_points_per_hand():
    moons = 0
    for seed in range(3):
        _, match = played(
            "uno-hearts", 2, seed=seed, options={"target": 30, "shoot_the_moon": True}
        )
        figures = seat_figures(match)
        shooters = [e.seat for e in match.log if e.kind == "moon"]
        assert [f.moons for f in figures] == [shooters.count(s) for s in range(2)]
        assert [f.points for f in figures] == match.scores  # totals are the hands' sum
        assert all(f.hands == len(match.hand_results) > 0 for f in figures)
        moons += len(shooters)
    assert moons > 0


# -- stats per player name -----------------------------------------------------------------


def _entry(game, names, winners, figures):
    seats = tuple(SeatRecord(n, "human") for n in names)
    scores = tuple(f.points for f in figures)
    return HistoryEntry(
        Path("x"), "2026-01-01T00:00:00+00:00", game, seats, scores, winners, figures
    )


def test_stats_add_up_per_name_and_filter_by_game():
    entries = [
        _entry(
            "uno", ["Ann", "Bo"], (0,), (SeatFigures(3, 90, 0, 1, 2), SeatFigures(3, 10, 0, 0, 0))
        ),
        _entry(
            "uno-hearts",
            ["Bo", "Ann"],
            (0, 1),
            (SeatFigures(4, 8, 1, 0, 0), SeatFigures(4, 8, 0, 0, 0)),
        ),
        # one name at two seats: one match, won at most once
        _entry(
            "uno", ["Cy", "Cy", "Ann"], (0, 1), tuple(SeatFigures(1, 5, 0, 0, 0) for _ in range(3))
        ),
    ]
    stats = history.stats_from_entries(entries)
    ann, bo, cy = stats["Ann"], stats["Bo"], stats["Cy"]
    assert (ann.matches, ann.wins, ann.hands, ann.points) == (3, 2, 8, 103)
    assert (ann.uno_catches, ann.challenges_won) == (1, 2)
    assert ann.average_points == pytest.approx(103 / 8)
    assert (bo.matches, bo.wins, bo.moons, bo.average_points) == (2, 1, 1, pytest.approx(18 / 7))
    assert (cy.matches, cy.wins, cy.hands) == (1, 1, 2)
    assert list(stats) == ["Ann", "Bo", "Cy"]  # most matches first
    uno_only = history.stats_from_entries(entries, game="uno")
    assert uno_only["Ann"].matches == 2 and "Bo" in uno_only and uno_only["Bo"].moons == 0


def test_player_stats_reads_the_history(tmp_path, finished_uno):
    record, match = finished_uno
    history.record_finished(record, tmp_path, match)
    stats = history.player_stats(tmp_path)
    assert set(stats) == {s.name for s in record.seats}
    for seat, seat_record in enumerate(record.seats):
        player = stats[seat_record.name]
        assert player.matches == 1
        assert player.wins == (seat in match.winners)
        assert player.points == match.scores[seat]
    assert history.player_stats(tmp_path, game="uno-hearts") == {}
    assert history.player_stats(tmp_path / "nothing-here") == {}
