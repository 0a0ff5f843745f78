"""The settings file's keymap remaps any binding by its id; the footer and the keys overlay
show the remapped keys, and a clash is refused with a line naming both (issue 28)."""

from __future__ import annotations

import inspect
import json
import pkgutil
import re
from importlib import import_module
from pathlib import Path
from typing import Any

from test_app_support import controller, make_app, screen_text, settle, start, until
from textual.binding import Binding
from textual.dom import DOMNode

import unotable.app
from unotable.app.prefs import BINDING_HOLDERS, check_keymap, holder_bindings, load_prefs
from unotable.app.screens.help import ROW_BINDINGS, KeysScreen, keys_table
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import HandView
from unotable.app.widgets.keysbar import KeysBar


def binding_classes() -> dict[str, type]:
    """Every class of the app that declares BINDINGS, by "module:Class"."""
    found = {}
    for info in pkgutil.walk_packages(unotable.app.__path__, "unotable.app."):
        module = import_module(info.name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            mine = cls.__module__ == info.name and issubclass(cls, DOMNode)
            if mine and "BINDINGS" in cls.__dict__:
                found[f"{info.name}:{name}"] = cls
    return found


def test_every_binding_has_an_id_named_after_its_screen() -> None:
    classes = binding_classes()
    assert set(BINDING_HOLDERS.values()) == set(classes)
    seen: set[str] = set()
    for group, holder in BINDING_HOLDERS.items():
        own = classes[holder].__dict__["BINDINGS"]
        assert all(isinstance(b, Binding) and b.id for b in own), holder
        assert {b.id.split(".")[0] for b in own} == {group}, holder
        ids = [b.id for b in own]
        assert len(set(ids)) == len(ids) and not seen & set(ids), holder
        seen |= set(ids)
    assert {f"table.pick-{n}" for n in range(1, 21)} <= seen


def test_every_row_of_the_keys_page_names_its_bindings() -> None:
    rows = [key for key, _ in keys_table()[0]]
    table_ids = {b.id for b in holder_bindings("table")} | {b.id for b in holder_bindings("app")}
    assert set(ROW_BINDINGS) <= set(rows)
    assert {b for ids in ROW_BINDINGS.values() for b in ids} <= table_ids


def test_a_clash_is_refused_naming_both_bindings() -> None:
    # a key another binding of the same screen answers by default
    accepted, notices = check_keymap({"table.draw": "s"})
    assert accepted == {} and len(notices) == 1
    assert "table.sort" in notices[0] and "table.draw" in notices[0] and "\n" not in notices[0]
    # two bindings given the same key: the second is refused, the first applies
    accepted, notices = check_keymap({"table.draw": "x", "table.hint": "x"})
    assert accepted == {"table.draw": "x"}
    assert len(notices) == 1 and "table.draw" in notices[0] and "table.hint" in notices[0]
    # the app's keys reach every screen
    _, notices = check_keymap({"lobby.start": "f1"})
    assert "app.rules" in notices[0] and "lobby.start" in notices[0]
    # a swap is no clash; other screens may use the same key
    accepted, notices = check_keymap({"table.draw": "s", "table.sort": "d", "lobby.start": "x"})
    assert notices == [] and accepted["table.draw"] == "s" and accepted["lobby.start"] == "x"


def test_unknown_ids_and_bad_keys_are_ignored_with_a_notice() -> None:
    accepted, notices = check_keymap({"table.fly": "x", "table.draw": 3, "nowhere": "y"})
    assert accepted == {} and len(notices) == 3


def test_the_explanation_moves_with_its_binding() -> None:
    accepted, notices = check_keymap({"table.undo": "x", "table.play": "+"})
    assert notices == []
    assert accepted["table.undo-why"] == "x" and accepted["table.play"] == "plus"
    assert "table.play-why" not in accepted


def test_the_settings_file_keymap_is_read(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"keymap": {"table.draw": "x"}}))
    prefs, notice = load_prefs(tmp_path)
    assert notice is None and prefs.keymap == {"table.draw": "x"}


def key_bar(screen: Any) -> str:
    """The table's key bar (its footer) as shown now."""
    return " ".join(bar.words() for bar in screen.query(KeysBar))


def human_actions(ctrl: Any) -> list[str]:
    return [a.kind for seat, a in ctrl.match.history if seat == 0]


async def test_a_remapped_key_draws_and_the_footer_and_overlay_show_it() -> None:
    ctrl = controller("uno", ["human", "normal", "normal"])
    app = make_app(keymap={"table.draw": "x"})
    async with app.run_test(size=(100, 30)) as pilot:
        table = await start(pilot, ctrl)
        assert await settle(pilot) is table
        await until(pilot, lambda: "Draw" in key_bar(table), "the bar's draw key")
        assert " x Draw" in key_bar(table) and " d Draw" not in key_bar(table)
        before = human_actions(ctrl)
        await pilot.press("d")  # no longer the draw key
        await pilot.pause()
        assert human_actions(ctrl) == before
        await pilot.press("x")
        await until(pilot, lambda: len(human_actions(ctrl)) > len(before), "the draw")
        assert human_actions(ctrl)[len(before)] == "draw"
        if await settle(pilot) is not table:
            await pilot.press("2")  # the drawn card could be played: keep it
        await until(pilot, lambda: app.screen is table, "back at the table")
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, KeysScreen), "the keys overlay")
        await pilot.pause()
        text = screen_text(app)
        assert re.search(r"\bX +draw a card", text), text
        assert not re.search(r"\bD +draw a card", text)


async def test_a_remapped_key_plays_a_card() -> None:
    ctrl = controller("uno", ["human", "normal", "normal"])
    app = make_app(keymap={"table.play": "p"})
    async with app.run_test(size=(100, 30)) as pilot:
        table = await start(pilot, ctrl)
        while True:  # a turn with a playable card
            assert await settle(pilot) is table
            hand = table.query_one(HandView)
            if hand.playable:
                break
            await pilot.press("d")
            await settle(pilot)
            if app.screen is not table:
                await pilot.press("2")  # keep a playable drawn card
        index = min(hand.playable)
        while hand.cursor != index:
            await pilot.press("right")
        before = human_actions(ctrl)
        await pilot.press("p")
        await until(pilot, lambda: len(human_actions(ctrl)) > len(before), "the play")
        assert human_actions(ctrl)[len(before)] == "play"


async def test_a_clashing_keymap_is_told_at_start_and_not_applied() -> None:
    app = make_app(keymap={"table.draw": "s"})
    async with app.run_test(size=(100, 30)) as pilot:
        await until(
            pilot,
            lambda: any("table.sort" in n.message for n in app._notifications),
            "the clash is told",
        )
        message = next(n.message for n in app._notifications if "table.sort" in n.message)
        assert "table.draw" in message
        table = await start(pilot, controller("uno", ["human", "normal", "normal"]))
        await settle(pilot)
        await until(pilot, lambda: "Draw" in key_bar(table), "the bar's draw key")
        assert " d Draw" in key_bar(table) and " s Sort" in key_bar(table)
        assert isinstance(table, TableScreen)
