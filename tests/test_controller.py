"""The controller: records, turns, hand-overs, privacy and the UNO catch timing."""

from __future__ import annotations

import pytest

from unotable.controller import Controller, Seat
from unotable.engine import IllegalAction, get_game


def seats(*kinds: str) -> list[Seat]:
    return [Seat(f"P{i}", kind) for i, kind in enumerate(kinds)]


def test_a_record_rebuilds_the_same_match() -> None:
    ctrl = Controller("uno-hearts", seats("random", "random", "random"), {"target": 30}, 5)
    for _ in range(20):
        turn = ctrl.turn()
        assert turn.seat is not None
        ctrl.play_computer(turn.seat)
    record = ctrl.to_record()
    assert record.game == "uno-hearts" and record.seed == 5 and len(record.actions) >= 20
    again = Controller.from_record(record)
    assert again.match.history == ctrl.match.history
    for seat in range(3):
        assert again.view(seat) == ctrl.view(seat)


def test_computers_play_until_a_human_must_decide() -> None:
    ctrl = Controller("uno", seats("random", "human", "random"), None, 3)
    turn = ctrl.run_computers()
    assert turn.human and turn.seat == 1
    assert ctrl.legal(1)


def test_a_whole_match_without_humans_ends_with_winners() -> None:
    ctrl = Controller("uno", seats("first", "random", "first"), {"target": 60}, 9)
    assert ctrl.run_computers().over
    assert ctrl.match.winners and ctrl.to_record().finished


def test_the_hook_runs_after_every_applied_action_and_never_for_an_illegal_one() -> None:
    saved: list[int] = []
    ctrl = Controller(
        "uno", seats("human", "random"), None, 1, on_action=lambda c: saved.append(c.version)
    )
    ctrl.match = get_game("uno").from_deal(
        2, seed=1, hands=[["R7", "B3"], ["G1", "G2"]], first_discard="R5", dealer=1
    )
    with pytest.raises(IllegalAction):
        ctrl.apply(0, "B3")
    assert saved == []
    ctrl.apply(0, "R7")
    assert saved == [1]


def test_one_human_never_needs_a_hand_over() -> None:
    ctrl = Controller("uno", seats("human", "random", "random"), None, 2)
    assert not ctrl.needs_handover(0)
    assert ctrl.display_seat() == 0


def test_two_humans_hand_over_and_see_only_their_own_cards() -> None:
    ctrl = Controller("uno", seats("human", "human", "random"), None, 4)
    turn = ctrl.run_computers()
    assert turn.human and turn.seat is not None
    assert ctrl.needs_handover(turn.seat)
    assert ctrl.display_seat() is None  # nobody's cards until the keyboard is handed over
    ctrl.show_to(turn.seat)
    assert not ctrl.needs_handover(turn.seat)
    assert ctrl.display_seat() == turn.seat
    other = 1 - turn.seat
    assert ctrl.needs_handover(other)
    assert ctrl.public_view().hand == ctrl.view(turn.seat).hand


def test_passing_cards_calls_for_a_hand_over_even_to_the_same_human() -> None:
    ctrl = Controller("uno-hearts", seats("human", "human", "random"), {"pass_three": True}, 8)
    ctrl.run_computers()
    for seat in (0, 1):
        ctrl.show_to(seat)
        give = next(a for a in ctrl.legal(seat) if a.kind == "give")
        ctrl.apply(seat, give)
    assert ctrl.hands_moved
    assert ctrl.needs_handover(1)
    ctrl.show_to(1)
    assert not ctrl.hands_moved


def exposed_computer(catchers: str) -> Controller:
    # Seat 1 ("first") never calls UNO: playing R2 leaves it exposed with one card.
    ctrl = Controller("uno", seats("human", "first", catchers), None, 1)
    ctrl.match = get_game("uno").from_deal(
        3,
        seed=1,
        hands=[["R7", "B9"], ["R2", "R3"], ["G1", "G2"]],
        first_discard="R5",
        dealer=2,
        draw_pile=["B6", "B7", "B8", "Y6", "Y7", "Y8"],
    )
    ctrl.apply(0, "R7")
    ctrl.apply(1, ctrl.decide(1))
    assert ctrl.exposed() == 1
    return ctrl


def test_computers_react_once_per_exposure_and_humans_never_automatically() -> None:
    ctrl = exposed_computer("hard")  # hard always catches
    pending = ctrl.pending_reactions()
    # From the next player on: seat 2 may catch, then seat 1 may still call late.
    assert [seat for _, seat in pending] == [2, 1]
    assert all(delay > 0 for delay, _ in pending)  # humans get the first chance
    ctrl.resolve_reactions()
    assert ctrl.exposed() is None
    assert str(ctrl.match.history[-1][1]) == "catch:1"
    assert ctrl.view(0).hand_sizes[1] == 3


def test_a_human_catch_is_an_ordinary_action() -> None:
    ctrl = exposed_computer("human")
    assert [seat for _, seat in ctrl.pending_reactions()] == [1]  # only the late call
    action = ctrl.catch_action(2)
    assert action is not None
    ctrl.apply(2, action)
    assert ctrl.exposed() is None


def test_a_missing_computer_level_falls_back_and_is_remembered() -> None:
    ctrl = Controller("uno", seats("human", "grandmaster"), None, 1)
    assert ctrl.fallbacks == {1: "random"}
    assert ctrl.to_record().seats[1].kind == "grandmaster"


def test_the_public_view_holds_nobodys_secrets() -> None:
    ctrl = Controller("uno-hearts", seats("human", "human", "random"), {"pass_three": True}, 8)
    ctrl.run_computers()
    ctrl.show_to(0)
    ctrl.apply(0, next(a for a in ctrl.legal(0) if a.kind == "give"))
    assert ctrl.view(0).passed  # seat 0 knows what it gave...
    public = ctrl.public_view()
    assert public.hand == () and public.legal == () and public.passed == ()
    assert all(cards == () for cards in public.known_hands)


# -- a drawn card that cannot be played (RULES.md D-30, D-5) ------------------------------------


def drawing_human(pile: list[str], opponent: str = "first") -> Controller:
    """Seat 0 (human) holds nothing matching the R5 and draws the top of ``pile``."""
    ctrl = Controller("uno", seats("human", opponent), None, 1)
    ctrl.match = get_game("uno").from_deal(
        2, seed=1, hands=[["B3", "Y4"], ["G1", "G2"]], first_discard="R5", dealer=1, draw_pile=pile
    )
    return ctrl


def test_an_unplayable_drawn_card_is_kept_without_asking() -> None:
    saved: list[int] = []
    ctrl = drawing_human(["G9", "B6", "B7"])
    ctrl.on_action = lambda c: saved.append(c.version)
    events = ctrl.apply(0, "draw")
    assert [e.kind for e in events] == ["draw", "keep"]
    assert [(s, str(a)) for s, a in ctrl.match.history] == [(0, "draw"), (0, "keep")]
    assert [[e.kind for e in entry.events] for entry in ctrl.log] == [["draw"], ["keep"]]
    assert saved == [2]  # one save, after the keep
    assert ctrl.turn().seat == 1 and str(ctrl.kept_card(0)) == "G9"
    assert ctrl.kept_card(1) is None
    ctrl.run_computers()  # seat 1 draws B6, cannot play it either, and keeps it too
    assert [str(a) for _, a in ctrl.match.history[2:]] == ["draw", "keep"]
    assert ctrl.turn().seat == 0 and ctrl.kept_card(0) is None  # the turn came back


def test_a_playable_drawn_card_still_asks() -> None:
    ctrl = drawing_human(["R9", "B6"])
    events = ctrl.apply(0, "draw")
    assert [e.kind for e in events] == ["draw"]
    assert ctrl.turn().seat == 0 and ctrl.kept_card(0) is None
    assert [str(a) for a in ctrl.legal(0)] == ["R9", "keep"]


def test_a_computer_takes_its_forced_keep_as_a_paced_turn() -> None:
    ctrl = Controller("uno", seats("random", "random", "random"), {"target": 30}, 4)
    forced = 0
    while not ctrl.over:
        turn = ctrl.turn()
        assert turn.seat is not None
        choices = [a.kind for a in ctrl.legal(turn.seat) if a.kind not in ("uno", "catch")]
        forced += choices == ["keep"]
        ctrl.play_computer(turn.seat)
    assert forced > 0  # asked like any other decision, so it is paced like one


def test_the_centre_panel_does_not_say_whether_a_drawn_card_plays() -> None:
    from unotable.app.games import presentation_for
    from unotable.app.words import Seats

    uno = presentation_for("uno")
    names = Seats(["P0", "P1"])
    lines = []
    for pile in (["R9", "B6"], ["G9", "B6"]):  # playable, then not
        match = drawing_human(pile).match
        match.apply(0, "draw")
        assert uno.pending_line(match.view(0), names) == "Play the card you drew, or keep it."
        lines.append(uno.pending_line(match.view(1), names))
    assert lines == ["P0 drew a card.", "P0 drew a card."]
