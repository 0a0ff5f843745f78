"""The keys overlay (?) scrolls to every row at 80x24, and it, the table's key bindings and
the README's key table list the same keys (issue 27, item 3)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from test_app_support import controller, drawn, make_app, screen_text, settle, start
from textual.containers import VerticalScroll

from unotable.app.main import UnoTableApp
from unotable.app.screens.help import KeysScreen, keys_table
from unotable.app.screens.table import TableScreen
from unotable.app.widgets.hand import KEY_NAMES

README = Path(__file__).resolve().parent.parent / "README.md"
SHOWN = {"left": "←", "right": "→", "question_mark": "?"}
# the number row with Shift, as Textual names its keys: written "Shift+1 … 9, 0"
SHIFTED = {name: f"Shift+{n}" for name, n in zip(KEY_NAMES[10:], "1234567890", strict=True)}
SHIFT_GROUP = re.compile(r"Shift\+(\d)\s*…\s*(\d)(?:,?\s*(\d))?")
TOKEN = re.compile(r"←|→|Enter|Space|Ctrl\+C|F\d+|\?|(\d)\s*…\s*(\d)|\b[A-Z0-9]\b")


def binding_keys() -> set[str]:
    """Every key the table screen answers to (and the app's own keys), as the docs write them."""
    keys: set[str] = set()
    for binding in [*TableScreen.BINDINGS, *UnoTableApp.BINDINGS]:
        for key in binding.key.split(","):  # type: ignore[union-attr]
            shown = SHOWN.get(key) or SHIFTED.get(key)
            keys.add(shown or (key.upper() if len(key) <= 2 else key.title()))
    return {k.replace("Ctrl+c", "Ctrl+C") for k in keys}


def doc_keys(cells: list[str]) -> set[str]:
    keys: set[str] = set()
    for cell in cells:
        for group in SHIFT_GROUP.finditer(cell):
            first, last, extra = group.groups()
            keys |= {f"Shift+{n}" for n in range(int(first), int(last) + 1)}
            keys |= {f"Shift+{extra}"} if extra else set()
        for match in TOKEN.finditer(SHIFT_GROUP.sub("", cell)):
            if match.group(1):  # a range: 1…9
                keys |= {str(n) for n in range(int(match.group(1)), int(match.group(2)) + 1)}
            else:
                keys.add(match.group(0))
    return keys


def readme_key_cells() -> list[str]:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("| key | at the table |") :].split("\n\n")[0]
    return [line.split("|")[1] for line in table.splitlines()[2:]]


def test_bindings_overlay_and_readme_list_the_same_keys() -> None:
    bound = {k.replace("Ctrl+C", "Ctrl+C") for k in binding_keys()}
    assert {"Z", "H", "K", "1", "0", "←", "?", "F1", "Ctrl+C"} <= bound
    overlay = doc_keys([key for key, _ in keys_table()[0]])
    readme = doc_keys(readme_key_cells())
    assert overlay == bound, (sorted(bound - overlay), sorted(overlay - bound))
    assert readme == bound, (sorted(bound - readme), sorted(readme - bound))


def test_readme_does_not_offer_h_and_l_for_the_cursor() -> None:
    cells = readme_key_cells()
    assert not any(re.search(r"\bh l\b", cell) for cell in cells)


def test_key_tokens_read_ranges_and_letters() -> None:
    assert doc_keys(["Enter or Space, 1…9 0, mouse click"]) == {"Enter", "Space"} | {
        str(n) for n in range(10)
    }
    assert doc_keys(["F1 · ?", "Q or Ctrl+C"]) == {"F1", "?", "Q", "Ctrl+C"}
    assert doc_keys(["Shift+1 … 9, 0"]) == {f"Shift+{n}" for n in range(10)}


async def open_keys(pilot: Any) -> VerticalScroll:
    await start(pilot, controller("uno", ["human", "normal", "normal"]))
    await settle(pilot)
    await pilot.press("question_mark")
    while not isinstance(pilot.app.screen, KeysScreen):
        await pilot.pause()
    box = pilot.app.screen.query_one("#keys-text", VerticalScroll)
    while not box.max_scroll_y:
        await pilot.pause()
    return box


async def test_every_row_of_the_keys_overlay_is_reachable_at_80x24() -> None:
    rows, _ = keys_table()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        box = await open_keys(pilot)
        seen = screen_text(app)
        assert rows[-1][0] not in seen.split("Keys", 1)[1]  # it does not all fit at once
        for key in ["j"] * 3 + ["pagedown"] * 3 + ["end"]:
            before = box.scroll_y
            await pilot.press(key)
            await drawn(pilot)
            seen += screen_text(app)
            if before < box.max_scroll_y:
                assert box.scroll_y > before, key
        assert box.scroll_y == box.max_scroll_y
        for key in ["k", "up", "pageup", "home"]:
            before = box.scroll_y
            await pilot.press(key)
            await drawn(pilot)
            assert box.scroll_y < before or before == 0, key
        assert box.scroll_y == 0
        for key, does in rows:  # each row's key beside the start of what it does
            start_of_row = re.escape(key) + r" +" + r" +".join(map(re.escape, does.split()[:2]))
            assert re.search(start_of_row, seen), (key, does)
        assert "quits." in seen  # the notes under the table too
