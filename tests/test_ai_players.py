"""Every level answers every kind of decision legally, reproducibly, and keeps the
out-of-turn contract (``wants_to_act`` / ``choose``) and the hard player's ``cancel``."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from unotable.ai import LEVELS, make_player
from unotable.ai.levels import build
from unotable.engine import Action, get_game
from unotable.tournament import drive

# (game, players, options, seeds): short matches that between them reach every decision
SETUPS = [
    ("uno", 4, {"target": 150}, range(3)),
    ("uno", 2, {"target": 100}, range(2)),
    ("uno-minecraft", 3, {"target": 150}, range(3)),
    ("uno-hearts", 4, {"target": 25, "pass_three": True, "shoot_the_moon": True}, range(2)),
    ("uno-hearts", 3, {"target": 20}, range(1)),
    ("wild-twist-hearts", 5, {"length": 2}, range(2)),
]
MIXED = ("hard", "normal", "easy", "random", "normal")


def lineup(game: str, players: int, seed: int) -> list[Any]:
    result = []
    for seat in range(players):
        level = MIXED[(seat + seed) % len(MIXED)]
        if level == "hard":
            result.append(build("hard", game, seed + seat, worlds=2))
        else:
            result.append(make_player(level, game, seed + seat))
    return result


def decision_kind(view: Any, action: Action) -> str:
    if action.kind == "play" and getattr(view, "pending", None) == "drawn":
        return "play-drawn"
    if action.kind == "play" and action.choice is not None:
        return "play-declared"
    if action.kind == "play" and action.uno:
        return "play-uno"
    return action.kind


def play_all(setups: list[Any]) -> tuple[Counter[str], dict[str, list[str]]]:
    kinds: Counter[str] = Counter()
    histories: dict[str, list[str]] = {}
    for game, players, options, seeds in setups:
        spec = get_game(game)
        for seed in seeds:
            match = spec.new_match(players, options, seed=seed)

            def check(seat: int, view: Any, action: Action, game: str = game) -> None:
                assert action in view.legal, f"{game}: {action} not legal for seat {seat}"
                kinds[f"{game}:{decision_kind(view, action)}"] += 1

            seats = lineup(game, players, seed)
            drive(match, seats, on_decision=check)
            for player in seats:
                assert not getattr(getattr(player, "brain", None), "errors", []), game
            assert match.over, f"{game} seed {seed} did not finish"
            histories[f"{game}/{players}/{seed}"] = [f"{s}:{a}" for s, a in match.history]
    return kinds, histories


@pytest.fixture(scope="module")
def played() -> tuple[Counter[str], dict[str, list[str]]]:
    return play_all(SETUPS)


def test_levels_are_listed() -> None:
    for level in ("easy", "normal", "hard", "random", "first"):
        assert level in LEVELS


@pytest.mark.parametrize(
    "kind",
    [
        "uno:play",
        "uno:play-declared",
        "uno:play-uno",
        "uno:draw",
        "uno:play-drawn",
        "uno-minecraft:keep",
        "uno:catch",
        "uno:accept",
        "uno:challenge",
        "uno-minecraft:play-declared",
        "uno-minecraft:play-drawn",
        "uno-hearts:give",
        "uno-hearts:play",
        "uno-hearts:play-declared",
        "uno-hearts:direction",
        "wild-twist-hearts:play",
        "wild-twist-hearts:play-declared",
        "wild-twist-hearts:decline",
    ],
)
def test_every_decision_kind_is_met_legally(played: Any, kind: str) -> None:
    kinds, _ = played
    assert kinds[kind] > 0, f"no {kind} decision in the sample: {sorted(kinds)}"


def test_same_seed_same_decisions(played: Any) -> None:
    _, first = played
    _, again = play_all(SETUPS[:1] + SETUPS[3:4])
    for key, history in again.items():
        assert history == first[key], key


def test_wild_twist_opening_and_moon_choices() -> None:
    spec = get_game("wild-twist-hearts")
    hands = [
        ["WC", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "2D"],
        ["2C", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD", "WD"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "WH"],
        ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "WS"],
    ]
    for level in ("easy", "normal", "hard"):
        match = spec.from_deal(4, {"length": 1}, seed=3, hands=hands, dealer=3)
        player = build(level, "wild-twist-hearts", 1, worlds=2)
        view = match.view(0)
        assert view.phase == "opening"
        assert player.choose(view) in view.legal
    moon = build("normal", "wild-twist-hearts", 1)
    match = spec.from_deal(4, {"length": 1}, seed=3, hands=hands, dealer=3)
    players = [moon, *(build("normal", "wild-twist-hearts", s) for s in (2, 3, 4))]
    drive(match, players)
    assert match.over


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_rare_uno_decisions(level: str) -> None:
    spec = get_game("uno")
    player = build(level, "uno", 1, worlds=2)
    # a Wild turned up first: the seat left of the dealer names the colour
    match = spec.from_deal(
        2, {}, seed=1, hands=[["R1", "R2", "B3"], ["G1", "G2"]], first_discard="W", dealer=1
    )
    view = match.view(0)
    assert {a.kind for a in view.legal} == {"color"}
    assert player.choose(view).choice == "R"  # the colour it holds most
    # nothing left to draw and nothing to play: pass
    match = spec.from_deal(
        2,
        {},
        seed=1,
        hands=[["B1", "B2"], ["G1", "G2"]],
        draw_pile=[],
        first_discard="R5",
        dealer=1,
    )
    view = match.view(0)
    assert [str(a) for a in view.legal] == ["pass"]
    assert str(player.choose(view)) == "pass"


class Offer:
    """A minimal view: only out-of-turn actions are legal."""

    def __init__(self, legal: tuple[Action, ...], seat: int = 1) -> None:
        self.legal = legal
        self.seat = seat
        self.hand_number = 1
        self.hand_sizes = (1, 5, 5, 5)
        self.discard = ()
        self.draw_pile_size = 50
        self.game = "uno"


def test_out_of_turn_contract() -> None:
    catch = Action("catch", target=0)
    call = Action("uno")
    hard = make_player("hard", "uno", 1)
    assert hard.wants_to_act(Offer((catch,)))
    assert hard.choose(Offer((catch,))) == catch
    assert hard.choose(Offer((call,), seat=0)) == call
    answers = Counter()
    for seed in range(200):
        easy = make_player("easy", "uno", seed)
        offer = Offer((catch,))
        wants = easy.wants_to_act(offer)
        assert all(easy.wants_to_act(offer) == wants for _ in range(3)), "answers must be stable"
        assert easy.choose(offer) == catch  # the only legal answer, acting or not
        answers[wants] += 1
    # easy catches only sometimes, normal nearly always
    assert 20 < answers[True] < 120
    normal_yes = sum(
        make_player("normal", "uno", s).wants_to_act(Offer((catch,))) for s in range(200)
    )
    assert normal_yes > 170


def test_out_of_turn_in_a_real_match() -> None:
    spec = get_game("uno")
    match = spec.from_deal(
        3,
        {},
        seed=1,
        hands=[["R1", "R2"], ["B5", "G5", "Y5"], ["B7", "G7"]],
        draw_pile=["B1", "B2", "B3", "B4"],
        first_discard="R5",
        dealer=2,
    )
    match.apply(0, "R1")  # no UNO call: seat 0 is exposed
    catcher = make_player("hard", "uno", 1)
    view = match.view(2)
    assert [str(a) for a in view.legal] == ["catch:0"]
    assert catcher.wants_to_act(view)
    match.apply(2, catcher.choose(view))
    assert len(match.hands[0]) == 3


def test_late_uno_call_in_a_real_match() -> None:
    spec = get_game("uno")
    match = spec.from_deal(
        3,
        {},
        seed=1,
        hands=[["R1", "R2"], ["B5", "G5", "Y5"], ["B7", "G7"]],
        draw_pile=["B1", "B2", "B3", "B4"],
        first_discard="R5",
        dealer=2,
    )
    match.apply(0, "R1")  # no UNO call: seat 0 is exposed and may still call
    caller = make_player("hard", "uno", 1)
    view = match.view(0)
    assert [str(a) for a in view.legal] == ["uno"]
    assert caller.wants_to_act(view)
    match.apply(0, caller.choose(view))
    assert match.view(1).exposed is None


def test_hard_cancel_returns_the_best_so_far() -> None:
    spec = get_game("uno-hearts")
    match = spec.new_match(4, {}, seed=5)
    player = build("hard", "uno-hearts", 1, budget_ms=60_000)
    brain = player.brain
    real = brain.determinize
    calls = []

    def counting(view: Any, rng: Any, avoid: Any = None) -> Any:
        calls.append(1)
        if len(calls) == 3:
            player.cancel()  # as the app would, from another thread
        return real(view, rng, avoid)

    brain.determinize = counting
    seat = match.current
    view = match.view(seat)
    while len(view.legal) < 2:
        match.apply(seat, view.legal[0])
        seat = match.current
        view = match.view(seat)
    action = player.choose(view)
    assert action in view.legal
    assert brain.last_stats["worlds"] == 3
    player.budget_ms = 5
    assert player.budget_ms == 5


class MoonView:
    def __init__(self, scores: tuple[int, ...], seat: int = 0, target: int = 60) -> None:
        self.scores = scores
        self.seat = seat
        self.target = target


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ((10, 45, 30, 20), "others"),  # +20 ends the game at 65 with seat 0 sole lowest
        ((10, 30, 30, 20), "self"),  # +20 would not end the game
        ((50, 45, 30, 40), "self"),  # +20 ends it but seat 0 would only tie
    ],
)
def test_uno_hearts_moon_policy(scores: tuple[int, ...], expected: str) -> None:
    from unotable.ai.hearts import HeartsBrain

    actions = (Action("moon", choice="self"), Action("moon", choice="others"))
    chosen = HeartsBrain("uno-hearts").choose_moon(MoonView(scores), actions)
    assert chosen.choice == expected
    assert HeartsBrain("wild-twist-hearts").choose_moon(MoonView(scores), actions).choice == "self"
