"""``unotable replay``: command-line errors, frames face up or as one seat, the viewer's keys."""

from __future__ import annotations

import json

import pytest
from match_driver import played
from textual.widgets import Static

from unotable import cli
from unotable.replay.frames import CHECKPOINT_EVERY, Replay, load_replay
from unotable.replay.viewer import PAGE, ReplayApp
from unotable.store import saves
from unotable.store.record import SAVE_FORMAT_VERSION, SeatRecord

HEARTS = ("uno-hearts", 4, 3, {"target": 25, "pass_three": True})


@pytest.fixture(scope="module")
def finished():
    game, players, seed, options = HEARTS
    record, match = played(game, players, seed, options)
    assert match.over
    return record, match


@pytest.fixture(scope="module")
def unfinished():
    record, match = played("uno", 3, seed=6, until=CHECKPOINT_EVERY * 2 + 5)
    record.seats[2] = SeatRecord("Ada", "human")
    assert not match.over
    return record, match


@pytest.fixture
def write(tmp_path):
    def write(record, name="match.json"):
        path = tmp_path / name
        path.write_text(saves.dumps(record))
        return path

    return write


def replay_cli(capsys, *argv):
    status = cli.main(["replay", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def views_after(record, count):
    match = saves.new_match(record)
    for number, (seat, text) in enumerate(record.actions[:count], 1):
        saves.replay_action(match, number, seat, text)
    return match


# -- errors --------------------------------------------------------------------------------


def test_missing_file(capsys, tmp_path):
    status, out, err = replay_cli(capsys, tmp_path / "nope.json")
    assert status == 1 and out == ""  # a runtime error: 2 is for usage errors
    assert err.startswith("unotable replay: error: cannot read") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{ damaged", "damaged or cut short"),
        (json.dumps({"format": "unotable-save", "version": SAVE_FORMAT_VERSION + 1}), "newer"),
        ("[]", "not a saved match"),
    ],
)
def test_bad_file(capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    status, out, err = replay_cli(capsys, path)
    assert status == 1 and out == "" and err.count("\n") == 1
    assert err.startswith("unotable replay: error: ") and message in err
    assert path.read_text() == content  # replay never moves or changes the file


def test_actions_that_do_not_replay(capsys, write, unfinished):
    record, _ = unfinished
    broken = saves.loads(saves.dumps(record))
    broken.actions.append((0, "give:R1"))
    status, _, err = replay_cli(capsys, write(broken), "--as", "0")
    assert status == 1 and f"action {len(broken.actions)}" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("seat", "message"),
    [
        (None, "still in play: say whose view to show with --as SEAT"),
        ("3", "there is no seat 3"),
        ("Zed", "no seat is called 'Zed'"),
    ],
)
def test_unfinished_match_needs_a_valid_seat(capsys, write, unfinished, seat, message):
    path = write(unfinished[0])
    status, out, err = replay_cli(capsys, path, *(["--as", seat] if seat else []))
    assert status == 2 and out == "" and message in err and err.count("\n") == 1


def test_ambiguous_seat_name(capsys, write, unfinished):
    record = saves.loads(saves.dumps(unfinished[0]))
    record.seats[0] = SeatRecord("ada", "human")
    status, _, err = replay_cli(capsys, write(record), "--as", "ADA")
    assert status == 2 and "several seats are called" in err


def test_missing_argument_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as caught:
        cli.main(["replay"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- what is shown -------------------------------------------------------------------------


def test_finished_match_shows_every_hand_at_every_step(finished):
    record, _ = finished
    replay = Replay(record, viewer=None)
    assert replay.finished and len(replay) == len(record.actions) + 1
    for number in (0, 1, CHECKPOINT_EVERY - 1, CHECKPOINT_EVERY, len(record.actions)):
        frame = replay.frame(number)
        expected = views_after(record, number)
        assert frame.hands == tuple(
            (f"{s.name} (seat {i})", " ".join(map(str, expected.view(i).hand)) or "(none)")
            for i, s in enumerate(record.seats)
        )
        if number:
            seat, text = record.actions[number - 1]
            assert (
                frame.action == text and frame.actor == f"{record.seats[seat].name} (seat {seat})"
            )
    last = replay.frame(len(record.actions))
    assert any(e.startswith("match_end") for e in last.events)


def test_text_output_has_one_block_per_step(capsys, write, finished):
    record, _ = finished
    status, out, _ = replay_cli(capsys, write(record), "--text")
    assert status == 0
    assert out.count("\nStep ") + out.startswith("Step ") == len(record.actions) + 1
    assert f"Step {len(record.actions)}/{len(record.actions)}: " in out


def test_as_seat_shows_only_what_that_seat_saw(write, unfinished, finished):
    for record, _ in (unfinished, finished):
        viewer = 2
        replay = load_replay(write(record), str(viewer))
        gives_hidden = secret_cards = 0
        for number in range(len(replay)):
            frame = replay.frame(number)
            match = views_after(record, number)
            (hand,) = frame.hands
            assert hand == (
                f"{record.seats[viewer].name} (seat {viewer})",
                " ".join(map(str, match.view(viewer).hand)) or "(none)",
            )
            if number:
                seat, text = record.actions[number - 1]
                if text.startswith("give:") and seat != viewer:
                    assert frame.action == "give: 3 cards"
                    gives_hidden += 1
            # secret cards of an event are not shown to a seat outside its private_to
            if number:
                before = views_after(record, number - 1)
                # a step that opens a hand shows its deal first (dealing is not an action)
                events = before.next_hand() if before.hand_over else []
                events += before.apply(*record.actions[number - 1])
            else:
                events = saves.new_match(record).log  # the deal
            assert len(events) == len(frame.events)
            for event, shown in zip(events, frame.events, strict=True):
                if event.private_to is not None and viewer not in event.private_to:
                    secret_cards += len(event.cards)
                    assert not {str(c) for c in event.cards} & set(shown.split())
        assert secret_cards > 0
        if record is finished[0]:
            assert gives_hidden > 0


def test_seat_by_name(write, unfinished):
    replay = load_replay(write(unfinished[0]), "ADA")
    assert replay.viewer == 2


# -- the viewer ----------------------------------------------------------------------------


async def test_viewer_steps_forward_and_back(finished):
    record, _ = finished
    replay = Replay(record, viewer=None)
    app = ReplayApp(replay)
    last = len(replay) - 1

    def title():
        return str(app.query_one("#step", Static).content)

    async with app.run_test() as pilot:
        assert app.position == 0 and "the deal" in title()
        await pilot.press("right", "l", "right")
        assert app.position == 3
        seat, text = record.actions[2]
        assert title() == f"Step 3 of {last}: {record.seats[seat].name} (seat {seat}) → {text}"
        await pilot.press("left", "h")
        assert app.position == 1
        await pilot.press("pagedown")
        assert app.position == 1 + PAGE
        await pilot.press("end")
        assert app.position == last and f"Step {last} of {last}" in title()
        await pilot.press("right")
        assert app.position == last  # stays at the end
        hands = str(app.query_one("#hands", Static).content)
        assert all(f"{s.name} (seat {i})" in hands for i, s in enumerate(record.seats))
        await pilot.press("home", "left")
        assert app.position == 0
        await pilot.press("q")
    assert app.return_code == 0
