"""explain() agrees with apply(): a pass-three ``give:`` names a set of cards, in any order."""

from __future__ import annotations

from unotable.engine import get_game


def test_explain_accepts_a_give_in_any_card_order() -> None:
    hands = [
        ["H1", "Y2", "P3", "G4"],
        ["H5", "Y6", "P7", "G9"],
        ["H10", "Y11", "P12", "G14"],
    ]
    match = get_game("uno-hearts").from_deal(
        3, {"pass_three": True}, hands=hands, draw_pile=[], dealer=2
    )
    assert "give:H1,Y2,P3" in [str(a) for a in match.legal_actions(0)]
    for text in ("give:P3,H1,Y2", "give:Y2,P3,H1"):
        assert match.explain(0, text) is None
        assert match.clone().apply(0, text)  # apply() takes it too
    assert match.explain(0, "give:H1,H1,Y2")  # the same card twice is still refused
    assert match.explain(0, "give:H1,Y2,H5")  # a card seat 0 does not hold
    assert len(match.history) == 0


def test_explain_accepts_a_wild_given_first() -> None:
    hands = [
        ["H1", "Y2", "WD7", "G4"],
        ["H5", "Y6", "P7", "G9"],
        ["H10", "Y11", "P12", "G14"],
    ]
    match = get_game("uno-hearts").from_deal(
        3, {"pass_three": True}, hands=hands, draw_pile=[], dealer=2
    )
    assert "give:H1,Y2,WD7" in [str(a) for a in match.legal_actions(0)]
    assert match.explain(0, "give:WD7,H1,Y2") is None
