"""Which house rules a match plays with is said on the scoreboard, in the saved-match list
and in the text replay (issue 29); a rulebook match says nothing of them."""

from __future__ import annotations

from pathlib import Path

from test_app_support import controller, make_app, play_headless, screen_text, settle, start, until

from unotable.app.games import presentation_class
from unotable.app.main import UnoTableApp
from unotable.app.prefs import Prefs
from unotable.app.screens.saved import SavedMatchesScreen
from unotable.app.screens.scoreboard import ScoreboardScreen
from unotable.app.transcript import transcript
from unotable.replay.frames import Replay
from unotable.store.matches import MatchFile, summary_of

HOUSE = {"stack": "any", "seven_o": True}


def test_the_words_name_each_rule_on_and_nothing_for_the_rulebook() -> None:
    uno = presentation_class("uno")
    assert uno.house_rules(HOUSE) == "House rules: Stacking (+4 on +2 too), Seven-O"
    assert uno.house_rules({"stack": "off", "target": 200}) == ""
    assert presentation_class("uno-hearts").house_rules({}) == ""


async def test_the_scoreboard_says_which_house_rules_were_played() -> None:
    for options, said in ((HOUSE, True), ({}, False)):
        ctrl = controller("uno", ["human", "first", "first"], seed=3, **options)
        play_headless(ctrl, lambda c=ctrl: c.hand_over)
        app = make_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await start(pilot, ctrl)
            assert isinstance(await settle(pilot), ScoreboardScreen)
            assert ("House rules: Stacking (+4 on +2 too), Seven-O" in screen_text(app)) == said


async def test_the_saved_list_marks_a_match_with_house_rules(tmp_path: Path) -> None:
    for options in (HOUSE, {}):
        ctrl = controller("uno", ["human", "first", "first"], seed=3, **options)
        MatchFile.create(tmp_path).save(ctrl.to_record(), summary_of(ctrl.match))
    app = UnoTableApp(data_dir=tmp_path, prefs=Prefs(speed="instant"))
    async with app.run_test(size=(120, 30)) as pilot:
        app.push_screen(SavedMatchesScreen())
        await until(pilot, lambda: "UNO + house rules" in screen_text(app), "not marked")
        rows = [line for line in screen_text(app).splitlines() if "Ana, Bo, Cy" in line]
        assert len(rows) == 2 and sum("house rules" in row for row in rows) == 1


def test_the_text_replay_says_them_first() -> None:
    ctrl = controller("uno", ["first", "first", "first"], seed=3, **HOUSE)
    play_headless(ctrl, lambda: len(ctrl.match.history) >= 3)
    steps = list(transcript(Replay(ctrl.to_record(), None), ascii_only=True))
    assert steps[0] == "House rules: Stacking (+4 on +2 too), Seven-O"
    plain = controller("uno", ["first", "first", "first"], seed=3)
    play_headless(plain, lambda: len(plain.match.history) >= 3)
    assert not any("House rules" in s for s in transcript(Replay(plain.to_record(), None)))


async def test_f1_at_the_table_shows_its_house_rules_first() -> None:
    from unotable.app.screens.help import RulesScreen

    for options, said in ((HOUSE, True), ({}, False)):
        app = make_app()
        async with app.run_test(size=(100, 30)) as pilot:
            await start(pilot, controller("uno", ["human", "first"], seed=3, **options))
            await settle(pilot)
            await pilot.press("f1")
            await until(pilot, lambda a=app: isinstance(a.screen, RulesScreen), "no rules")
            await until(pilot, lambda a=app: "UNO" in screen_text(a), "rules not drawn")
            text = screen_text(app)
            assert ("House rules at this table" in text and "Seven-O" in text) == said
            assert ("Stacking (+4 on +2 too)" in text) == said
