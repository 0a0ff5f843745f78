"""The last of a table night's defects (issue 27): the --ascii hand notice at 80x24, replay
--text in the table's words, the Creeper's discard box, trick columns, keys typed ahead of
a dialog, the lobby's first Tab, and the hand's keys under a keymap."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

from match_driver import played
from test_app_dialogs import UNO_PILE, with_deal
from test_app_support import controller, make_app, screen_text, settle, start, until
from textual import events
from textual.widgets import Button, Input

from unotable import cli
from unotable.app.describe import describe
from unotable.app.games import presentation_for
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.lobby import LobbyScreen
from unotable.app.widgets.hand import HandView
from unotable.app.words import Seats
from unotable.engine import get_game
from unotable.engine.uno.cards import CREEPER_CARD
from unotable.replay.frames import Replay
from unotable.store import saves
from unotable.store.record import SeatRecord

# -- 1. the hand's notice with --ascii at 80x24 ----------------------------------------------


def box_text(screen: str, title: str) -> str:
    """The words inside the panel whose top border carries ``title``, as one line."""
    lines = screen.splitlines()
    top = next(i for i, line in enumerate(lines) if title in line)
    inside = []
    for line in lines[top + 1 :]:
        if line.lstrip().startswith("╰"):
            break
        inside.append(line.strip().strip("│"))
    return " ".join(" ".join(inside).split())


async def test_the_ascii_hand_notice_is_whole_at_80x24_with_three_rows_of_cards() -> None:
    # 30 cards: three rows of chips at 80 columns, and the notice for cards past the 10th
    hand = [f"{colour}{n}" for colour in "RYG" for n in range(10)]
    ctrl = with_deal(
        controller("uno", ["human", "first"]),
        hands=[hand, ["B1", "B2"]],
        first_discard="R5",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = UnoTableApp(use_store=False, prefs=Prefs(speed="instant"), ascii_cards=True)
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await settle(pilot)
        shown = table.query_one(HandView)
        await until(pilot, lambda: len(shown.cards) == 30, "the hand drawn")
        await pilot.pause()
        notice = shown.render_text(shown.content_size.width).plain.splitlines()[-1]
        assert notice.startswith("Cards 11") and "20th" in notice, notice
        inside = box_text(screen_text(app), "hand (30 cards)")
        assert " ".join(notice.split()) in inside, inside


# -- 2. replay --text in the table's words ---------------------------------------------------


def replay_text(capsys: Any, path: Path, *argv: str) -> str:
    assert cli.main(["replay", str(path), "--text", *argv]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


# the engine's notation: "dealer=0", "phase: opening", "[[2 2C -] ...]", "event  play · ...",
# "Ada (seat 1) W+4>G", "color=G"
RAW = re.compile(
    r"dealer=|phase:|\[\[|\(seat \d\)|^\s*(event|table|hand|undo)\s{2}|\w=\w|\w>\w",
    re.MULTILINE,
)


def test_replay_text_speaks_the_tables_words(capsys: Any, tmp_path: Path) -> None:
    # as one seat saw it, that seat is "You"; an unfinished UNO match (short)
    record, _ = played("uno", 3, seed=6, until=12)
    record.seats = [SeatRecord(n, "human") for n in ("Ann", "Bo", "Cy")]
    path = tmp_path / "uno.json"
    path.write_text(saves.dumps(record))
    out = replay_text(capsys, path, "--as", "1")
    assert not RAW.search(out), RAW.search(out)
    blocks = out.strip().split("\n\n")
    assert len(blocks) == len(record.actions) + 1
    game = presentation_for("uno")
    replay = Replay(record, viewer=1)
    names = ["Ann", "Bo", "Cy"]
    for number, block in enumerate(blocks):
        step = replay.step(number)
        # every line the table's log would show for this step, worded as it words them
        for event in step.events:
            line = describe(event, names, game, 1)
            if line and event.kind not in ("hand", "deal"):
                assert f"\n  {line}\n" in block + "\n", (line, block)
        if step.seat is not None:
            who = Seats(names, 1).possessive(step.seat)
            assert block.startswith(f"Step {number}/{len(blocks) - 1}: {who} move"), block
        assert "Your hand: " in block and "Bo's hand" not in block
    assert "You deal first" in blocks[0] and "You are dealt" in blocks[0]


def test_replay_text_face_up_names_every_hand(capsys: Any, tmp_path: Path) -> None:
    record, match = played("wild-twist-hearts", 4, seed=2, options={"length": 1})
    assert match.over
    record.seats = [SeatRecord(n, "human") for n in ("Ann", "Bo", "Cy", "Di")]
    path = tmp_path / "twist.json"
    path.write_text(saves.dumps(record))
    out = replay_text(capsys, path)
    assert not RAW.search(out), RAW.search(out)
    first, *_, last = out.strip().split("\n\n")
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert f"{name} is dealt " in first and f"{name}'s hand: " in first
    assert "You" not in out  # nobody is the reader when every hand is shown
    assert "Match over: " in last and "Game 1 · over" in last
    assert re.search(r"\b(10|[2-9JQKA])[♣♦♥♠]", first)  # cards as the table shows them


# -- 3. the Creeper's discard box --------------------------------------------------------------


def pile_lines(game: Any, top: Any) -> list[str]:
    match = get_game(game.game_id).from_deal(
        2,
        {},
        1,
        hands=[["R1", "R2"], ["G1", "G2"]],
        draw_pile=UNO_PILE,
        first_discard="R5",
        dealer=1,
    )
    view = dataclasses.replace(match.view(0), top=top)
    return game.pile(view, Seats(["Ann", "Bo"])).plain.splitlines()[:4]


def test_the_minecraft_discard_box_fits_a_creeper_and_never_moves() -> None:
    game = presentation_for("uno-minecraft")
    plain = get_game("uno-minecraft").parse_card("R5")
    creeper, number = pile_lines(game, CREEPER_CARD), pile_lines(game, plain)
    assert creeper[0] == number[0]  # "Discard   Draw pile" at the same columns
    for a, b in zip(creeper[1:], number[1:], strict=True):
        assert len(a) == len(b), (a, b)  # the same box, so the draw pile's does not move
        assert a.endswith(b[b.rindex("  ") :])
    assert " Creeper " in creeper[2]  # a space each side: not cramped against the box
    uno_box = pile_lines(presentation_for("uno"), plain)[1]
    assert len(number[1]) == len(uno_box) + 1  # one column wider than UNO's


# -- 4. trick columns -------------------------------------------------------------------------


def grid(game_id: str, plays: list[tuple[int, str, str | None]], width: int = 38) -> list[str]:
    game = presentation_for(game_id)
    spec = get_game(game_id)
    cards = [(seat, spec.parse_card(card), declared) for seat, card, declared in plays]
    names = Seats(["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"])
    return game.trick_grid(cards, names, width).plain.splitlines()


def test_trick_columns_stay_put_when_a_10_or_a_declared_wild_joins() -> None:
    twos = grid("wild-twist-hearts", [(0, "3C", None), (1, "4C", None), (2, "5C", None)])
    tens = grid("wild-twist-hearts", [(0, "3C", None), (1, "10C", None), (2, "5C", None)])
    assert twos[0].index("Bo") == tens[0].index("Bo")
    with_wild = grid(
        "wild-twist-hearts",
        [(0, "WC", "LOW"), (1, "3C", None), (2, "10C", None), (3, "4C", None)],
    )
    assert with_wild[0].split() == ["Ann", "W♣", "LOWEST"]  # a line of its own
    assert with_wild[1].index("Cy") == twos[0].index("Bo")
    hearts = grid(
        "uno-hearts", [(0, "Y3", None), (1, "Y13", None), (2, "WD7", "P"), (3, "Y4", None)]
    )
    plain = grid("uno-hearts", [(0, "Y3", None), (1, "Y4", None)])
    assert hearts[0].index("Bo") == hearts[1].index("Di") == plain[0].index("Bo")


# -- 5. keys typed ahead of a dialog ------------------------------------------------------------


async def test_a_key_typed_before_a_dialog_opened_does_not_answer_it() -> None:
    # the first card is a Wild: the new match opens with a colour to choose
    ctrl = with_deal(
        controller("uno", ["human", "first"]),
        hands=[["R7", "B3"], ["G1", "G2"]],
        first_discard="W",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        typed_ahead = events.Key("2", "2")  # read while the last match's end was showing
        await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the colour dialog")
        dialog = app.screen
        app.post_message(typed_ahead)
        await pilot.pause()
        await pilot.pause()
        assert app.screen is dialog and dialog.is_attached
        assert not ctrl.match.history, "a key typed before the dialog answered it"
        await pilot.press("3")  # typed once it is on screen: it counts
        await until(pilot, lambda: len(ctrl.match.history) == 1, "the colour chosen")
        assert str(ctrl.match.history[0][1]) == "color:G"


async def test_a_key_pressed_while_a_dialog_showed_answers_it_asked_again() -> None:
    # the table moves on while the colour dialog is open (a new snapshot): the same
    # question is asked again, and a key pressed while the first showed still answers it
    ctrl = with_deal(
        controller("uno", ["human", "first"]),
        hands=[["R7", "B3"], ["G1", "G2"]],
        first_discard="W",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the colour dialog")
        first = app.screen
        await pilot.pause()
        pressed = events.Key("3", "3")  # read while the first dialog showed
        real = table.snap
        for snap in (dataclasses.replace(real, version=real.version + 1), real):
            shown = app.screen
            table.snapshot = snap  # a newer snapshot, then the table's own again
            await until(pilot, lambda s=shown: app.screen is not s, "the question asked again")
            await until(pilot, lambda: isinstance(app.screen, ChoiceScreen), "the dialog")
        assert app.screen is not first
        app.post_message(pressed)
        await until(pilot, lambda: len(ctrl.match.history) == 1, "the key answered it")
        assert str(ctrl.match.history[0][1]) == "color:G"


async def test_keys_typed_before_a_new_table_opened_do_not_play() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"]),
        hands=[["R7", "B3"], ["G1", "G2"]],
        first_discard="R5",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        typed_ahead = [events.Key("enter", "\r"), events.Key("1", "1")]  # Enter Enter Enter
        table = await start(pilot, ctrl)
        assert await settle(pilot) is table
        for key in typed_ahead:
            app.post_message(key)
        await pilot.pause()
        await pilot.pause()
        assert not ctrl.match.history, "a key typed before the table opened played a card"
        await pilot.press("1")
        await until(pilot, lambda: len(ctrl.match.history) >= 1, "R7 played")


# -- 6. the lobby's first Tab --------------------------------------------------------------------


async def test_the_first_tab_in_the_lobby_lands_on_a_visible_control() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.filled and app.focused is not None, "the lobby")
        assert app.focused is not None and app.focused.id == "games"
        await pilot.press("tab")
        focused = app.focused
        assert focused is not None and focused is not lobby.query_one("#options"), focused
        assert isinstance(focused, Input | Button) or focused.has_class("option")
        assert focused.id and focused.id.endswith(lobby.spec.options[0].name)
        region = focused.region
        assert region.area and app.screen.region.contains_region(region)


# -- 7. the hand's keys under a keymap ---------------------------------------------------------


async def test_the_hand_shows_the_pick_keys_as_remapped() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first"]),
        hands=[["R7", "R8", "B3"], ["G1", "G2"]],
        first_discard="R5",
        dealer=1,
        draw_pile=UNO_PILE,
    )
    app = make_app(keymap={"table.pick-1": "a", "table.pick-2": "b"})
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start(pilot, ctrl)
        assert await settle(pilot) is table
        shown = table.query_one(HandView)
        assert [str(c) for c in shown.cards] == ["R7", "R8", "B3"]
        keys_row = shown.text_lines()[1]
        assert keys_row.split() == ["a", "b", "·"], keys_row
        await pilot.press("b")
        await until(pilot, lambda: len(ctrl.match.history) >= 1, "the key played card 2")
        assert str(ctrl.match.history[0][1]) == "R8"
