"""The games' facts come from the engine (GameSpec.facts), and a fifth game needs only
the registries: an engine spec, optionally a presentation, and (here) no strategy."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from unotable.ai import make_player
from unotable.ai.strategies import GENERIC, strategy_for
from unotable.engine import (
    SHEDDING,
    TRICK_TAKING,
    Action,
    Card,
    Event,
    GameFacts,
    GameSpec,
    HandResult,
    IllegalAction,
    Match,
    NotationError,
    View,
    game_ids,
    get_game,
    parse_action,
    register_game,
    unregister_game,
)

BUILT_IN = ("uno", "uno-minecraft", "uno-hearts", "wild-twist-hearts")


def test_each_built_in_game_states_its_deck_points_and_family() -> None:
    uno, mine = get_game("uno").facts, get_game("uno-minecraft").facts
    hearts, twist = get_game("uno-hearts").facts, get_game("wild-twist-hearts").facts
    assert (uno.family, hearts.family) == (SHEDDING, TRICK_TAKING)
    assert [len(f.deck) for f in (uno, mine, hearts, twist)] == [108, 112, 106, 56]
    assert uno.copies[uno.card_named("R0")] == 1 and uno.copies[uno.card_named("R7")] == 2
    assert mine.copies[mine.card_named("C")] == 4 and "C" not in {c.text for c in uno.cards}
    assert [c.text for c in uno.wild_cards] == ["W", "W+4"]
    assert [c.text for c in mine.wild_cards] == ["W", "W+4", "C"]
    assert all(uno.suit_count(colour) == 25 for colour in uno.suits)
    assert uno.card_named("B-skip").points == 20 and uno.card_named("W+4").points == 50
    assert (str(hearts.danger_card), str(twist.danger_card)) == ("Y13", "QS")
    assert uno.danger_card is None
    assert (hearts.total_points, twist.total_points) == (37, 27)
    assert (hearts.moon_points, twist.moon_points) == (20, 27)
    assert twist.wild_values == {"HIGH": 15, "LOW": 1}
    options = get_game("uno-hearts").default_options()
    assert hearts.target_points(options) == 60 and hearts.match_length(options) is None
    assert not hearts.moon_possible(options)
    assert hearts.moon_possible({**options, "shoot_the_moon": True})
    wt_options = get_game("wild-twist-hearts").default_options()
    assert twist.match_length(wt_options) == 3 and twist.target_points(wt_options) is None
    assert twist.moon_possible(wt_options) and not uno.moon_possible({})
    assert uno.forced_kinds == {"keep"} and not hearts.forced_kinds
    for game_id in BUILT_IN:
        assert all(isinstance(card, Card) for card in get_game(game_id).facts.cards)
        assert get_game(game_id).determinizer is not None


def test_trick_rules_of_each_hearts_game() -> None:
    hearts = get_game("uno-hearts").facts
    wd7, y7, y9 = (hearts.card_named(t) for t in ("WD7", "Y7", "Y9"))
    assert hearts.lead_suit(wd7, "P") == "P"
    assert not hearts.follows(wd7, "Y", "Y") and hearts.follows(y7, None, "Y")
    assert hearts.trick_winner([(0, y7, None), (1, wd7, "Y"), (2, y9, None)]) == 2
    assert hearts.trick_winner([(0, y7, None), (1, wd7, "Y")]) == 1  # the wild wins a tie
    assert hearts.trick_winner([(0, y7, None), (1, wd7, "G")]) == 0
    assert hearts.trick_draws(wd7) == 7 and hearts.trick_draws(y7) == 0
    twist = get_game("wild-twist-hearts").facts
    ws, qs, as_, kh = (twist.card_named(t) for t in ("WS", "QS", "AS", "KH"))
    assert twist.trick_winner([(3, qs, None), (0, ws, "HIGH"), (1, as_, None)]) == 0
    assert twist.trick_winner([(3, qs, None), (0, ws, "LOW"), (1, kh, None)]) == 3
    assert twist.trick_strength(kh, None, "S") == -1


@pytest.mark.parametrize(("game_id", "players"), [("uno-hearts", 4), ("wild-twist-hearts", 5)])
def test_the_facts_trick_winner_agrees_with_the_engine(game_id: str, players: int) -> None:
    facts = get_game(game_id).facts
    checked = 0
    for seed in range(6):
        match = get_game(game_id).new_match(players, seed=seed)
        rng = random.Random(seed)
        while not match.over and match.hand_number < 2:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current if match.current is not None else match.actors()[0]
            match.apply(seat, rng.choice(match.legal_actions(seat)))
            for _leader, winner, plays in match.view(None).tricks:  # type: ignore[attr-defined]
                assert facts.trick_winner(plays) == winner
                checked += 1
    assert checked > 100


def test_built_in_games_keep_their_strategies() -> None:
    for game_id in BUILT_IN:
        assert strategy_for(game_id) is not GENERIC
        assert strategy_for(game_id).searchable


# -- a fifth game, defined here: Crazy Eights --------------------------------------------

SUITS = ("C", "D", "H", "S")


class EightsCard:
    __slots__ = ("color", "points", "rank", "text", "wild")

    def __init__(self, suit: str, rank: int) -> None:
        self.color: str | None = suit
        self.rank = rank
        self.wild = rank == 8
        self.points = 50 if self.wild else rank
        self.text = f"{suit}{rank}"

    def __str__(self) -> str:
        return self.text

    def __deepcopy__(self, memo: dict[int, Any]) -> EightsCard:
        return self


DECK = tuple(EightsCard(s, r) for s in SUITS for r in range(1, 11))
BY_TEXT = {c.text: c for c in DECK}


@dataclass(frozen=True, slots=True)
class EightsView(View):
    top: Any
    suit: str


class EightsMatch(Match):
    game_id = "crazy-eights-test"

    def __init__(self, spec: GameSpec, players: int, options: dict[str, Any], seed: int | None,
                 deal: Mapping[str, Any] | None = None) -> None:  # fmt: skip
        super().__init__(spec, players, options, seed, deal)
        self.hand_number = 1
        self._deal()

    def _deal(self) -> None:
        pile = list(DECK)
        self.rng.shuffle(pile)
        self.hands = [sorted(pile[i * 5 : i * 5 + 5], key=str) for i in range(self.players)]
        self.stock = pile[self.players * 5 :]
        self.top = self.stock.pop()
        self.suit = str(self.top.color)
        self.turn = 0
        self.passes = 0  # in a row: everyone passing blocks the hand

    def _deal_next(self, deal: dict[str, Any] | None) -> list[Event]:
        self.hand_number += 1
        self._deal()
        return [Event("deal")]

    @property
    def current(self) -> int | None:
        return None if self.over or self._hand_over else self.turn

    def actors(self) -> tuple[int, ...]:
        return () if self.current is None else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current:
            return []
        plays: list[Action] = []
        for card in self.hands[seat]:
            if card.wild:
                plays += [Action("play", card=card, choice=s) for s in SUITS]
            elif card.color == self.suit or card.rank == self.top.rank:
                plays.append(Action("play", card=card))
        return plays or [Action("draw" if self.stock else "pass")]

    def view(self, seat: int | None) -> View:
        hand = tuple(self.hands[seat]) if seat is not None else ()
        return EightsView(
            self.game_id, seat, self.players, "play", self.current, hand,
            tuple(len(h) for h in self.hands), 0, tuple(self.scores), self.hand_number,
            tuple(self.legal_actions(seat)) if seat is not None else (), self.top, self.suit,
        )  # fmt: skip

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise IllegalAction("not allowed")
        self.passes = self.passes + 1 if action.kind == "pass" else 0
        if self.passes == self.players:
            return self._end_hand(None)
        if action.kind == "draw":
            self.hands[seat].append(self.stock.pop())
        elif action.kind == "play":
            card = action.card
            self.hands[seat].remove(card)
            self.top, self.suit = card, action.choice or str(card.color)
            if not self.hands[seat]:
                return self._end_hand(seat)
        self.turn = (self.turn + 1) % self.players
        return [Event(action.kind, seat)]

    def _end_hand(self, winner: int | None) -> list[Event]:
        points = [0] * self.players
        if winner is not None:  # the one who went out scores what the others hold
            points[winner] = sum(c.points for h in self.hands for c in h)
            self.scores[winner] += points[winner]
        self._hand_over = True
        self.hand_results.append(
            HandResult(self.hand_number, tuple(points), tuple(self.scores), {"winner": winner})
        )
        if winner is not None and self.scores[winner] >= self.options["target"]:
            self.winners = (winner,)
        return [Event("hand_end", winner, data={"hand": self.hand_number})]

    @classmethod
    def parse_card(cls, text: str) -> Card:
        try:
            return BY_TEXT[text.strip().upper()]
        except KeyError:
            raise NotationError(f"{text!r} is not a card") from None

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse_action(text, cls.parse_card, {"play": SUITS})

    def clone(self) -> Match:
        return copy.deepcopy(self)


EIGHTS = GameSpec(
    "crazy-eights-test", "Crazy Eights", "A test game.", 2, 4,
    (get_game("uno").options[0],), EightsMatch,
    facts=GameFacts(family=SHEDDING, deck=DECK, suits=SUITS, target_option="target"),
)  # fmt: skip


@pytest.fixture
def eights() -> Iterator[GameSpec]:
    register_game(EIGHTS)
    yield EIGHTS
    unregister_game(EIGHTS.id)


def test_a_registered_game_is_in_the_one_list_of_games(eights: GameSpec) -> None:
    assert get_game(eights.id) is eights
    assert game_ids()[: len(BUILT_IN)] == BUILT_IN and eights.id in game_ids()
    assert eights.facts.wild_cards and eights.facts.suit_count("H") == 10


def test_the_registry_forgets_an_unregistered_game() -> None:
    register_game(EIGHTS)
    unregister_game(EIGHTS.id)
    assert EIGHTS.id not in game_ids()
    with pytest.raises(ValueError, match="unknown game"):
        get_game(EIGHTS.id)


@pytest.mark.parametrize("level", ["random", "first", "easy", "normal", "hard"])
def test_computers_play_a_new_game_with_the_generic_strategy(eights: GameSpec, level: str) -> None:
    assert strategy_for(eights.id) is GENERIC
    match = eights.new_match(3, {"target": 60}, seed=4)
    players = [make_player(level, eights.id, seed) for seed in range(3)]
    hands = 0
    for _ in range(5000):
        if match.over or hands == 4:
            break
        if match.hand_over:
            hands += 1
            match.next_hand()
            continue
        seat = match.actors()[0]
        action = players[seat].choose(match.view(seat))
        assert action in match.legal_actions(seat)
        match.apply(seat, action)
    assert match.over or hands == 4


def test_a_presentation_registers_and_titles_the_game(eights: GameSpec) -> None:
    from unotable.app.games import (
        game_titles,
        presentation_class,
        register_presentation,
        unregister_presentation,
    )
    from unotable.app.games.uno import UnoPresentation

    class EightsPresentation(UnoPresentation):
        title = "Crazy Eights"

    assert eights.id not in game_titles()  # no presentation yet: headless only
    register_presentation(eights.id, EightsPresentation)
    try:
        assert presentation_class(eights.id) is EightsPresentation
        titles = game_titles()
        assert titles[eights.id] == "Crazy Eights"
        assert [titles[g] for g in BUILT_IN] == [get_game(g).name for g in BUILT_IN]
    finally:
        unregister_presentation(eights.id)
