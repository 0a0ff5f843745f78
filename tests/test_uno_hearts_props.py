"""UNO Hearts property tests: thousands of seeded random matches for every player count.

After every action: every card is in exactly one place (cheap size check; a full check
at every trick), the actors have legal actions. At every hand end: the points add up.
Now and then: a seat's view is unchanged when cards hidden from it are swapped, and a
determinization of the view gives back the same view. Every match must end.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.engine import Action, IllegalAction, get_game
from unotable.engine.uno_hearts import DECK, UnoHeartsMatch, determinize

SPEC = get_game("uno-hearts")
MATCHES_PER_COUNT = 1200  # 8,400 seeded matches over the seven player counts
FULL_LENGTH_EVERY = 50  # one match in this many plays to the full target of 60
MAX_ACTIONS = 20_000
TOTAL_POINTS = 37


def random_options(rng: random.Random, index: int) -> dict[str, Any]:
    return {
        "target": 60 if index % FULL_LENGTH_EVERY == 0 else rng.choice((1, 1, 2, 5, 10, 20)),
        "pass_three": rng.random() < 0.3,
        "shoot_the_moon": rng.random() < 0.4,
        "moon_mode": rng.choice(("shooter_choice", "others_plus_20", "self_minus_20")),
    }


def choose(match: UnoHeartsMatch, seat: int, rng: random.Random) -> Action:
    if match.phase == "pass":
        # the 286 listed gives are checked elsewhere; a direct sample keeps this fast
        return Action("give", cards=tuple(rng.sample(match.hands[seat], 3)))
    return rng.choice(match.legal_actions(seat))


def check_all_cards_placed(match: UnoHeartsMatch, where: str) -> None:
    places = [c for h in match.hands for c in h] + match.draw_pile
    places += [c for t in match.taken for c in t] + [c for _, c, _ in match.trick]
    assert len(places) == len(DECK), where
    assert len(set(places)) == len(DECK), where


def check_hidden_cards_do_not_show(match: UnoHeartsMatch, rng: random.Random, where: str) -> None:
    """Swap two cards that seat k cannot see and shuffle the draw pile: k's view is the same."""
    n = match.players
    k = rng.randrange(n)
    seen = match.seen[k]
    before = match.view(k)
    other = match.clone()
    spots = [
        (s, i) for s in range(n) if s != k for i, c in enumerate(other.hands[s]) if c not in seen
    ]
    spots += [(-1, i) for i in range(len(other.draw_pile))]
    if len(spots) >= 2:
        (sa, ia), (sb, ib) = rng.sample(spots, 2)
        pile_a = other.hands[sa] if sa >= 0 else other.draw_pile
        pile_b = other.hands[sb] if sb >= 0 else other.draw_pile
        pile_a[ia], pile_b[ib] = pile_b[ib], pile_a[ia]
        for seat in range(n):
            other.hands[seat].sort(key=lambda c: c.index)
            other.counts[seat] = [sum(c.suit == s for c in other.hands[seat]) for s in range(5)]
        other._legal = None
    rng.shuffle(other.draw_pile)
    after = other.view(k)
    assert after == before, f"{where}: seat {k}'s view shows hidden cards"
    assert after.hand == before.hand


def check_determinization(match: UnoHeartsMatch, rng: random.Random, where: str) -> None:
    seat = rng.randrange(match.players)
    view = match.view(seat)
    sample = determinize(view, rng)
    assert sample.view(seat) == view, f"{where}: determinization of seat {seat} differs"
    check_all_cards_placed(sample, where)


def check_legal_list_is_exactly_what_apply_allows(match: UnoHeartsMatch, where: str) -> None:
    seat = match.current
    if match.phase != "play" or seat is None:
        return
    legal = set(match.legal_actions(seat))
    tried = set()
    for card in match.hands[seat]:
        calls = ("H", "Y", "P", "G", None) if card.wild else (None, "H")
        for call in calls:
            action = Action("play", card=card, choice=call)
            tried.add(action)
            try:
                match.clone().apply(seat, action)
            except IllegalAction:
                assert action not in legal, f"{where}: {action} listed but refused"
            else:
                assert action in legal, f"{where}: {action} allowed but not listed"
    assert legal <= tried, where
    other = (seat + 1) % match.players
    if other != seat and match.hands[other]:
        with pytest.raises(IllegalAction, match=f"it is seat {seat}'s turn"):
            match.clone().apply(other, Action("play", card=match.hands[other][0]))


def play_match(players: int, seed: int, deep: bool) -> UnoHeartsMatch:
    rng = random.Random(seed)
    options = random_options(rng, seed)
    match = SPEC.new_match(players, options, seed=seed)
    assert isinstance(match, UnoHeartsMatch)
    where = f"players={players} seed={seed} options={options}"
    totals = [0] * players
    taken_points = [0] * players
    hands = 0
    for step in range(MAX_ACTIONS):
        if match.over:
            break
        if match.hand_over:
            match.next_hand()
            continue
        actors = match.actors()
        assert actors, f"{where}: nobody can act at step {step}"
        seat = actors[rng.randrange(len(actors))] if match.phase == "pass" else actors[0]
        assert seat == match.current or match.phase == "pass", where
        pile_before = match.draw_pile
        if deep and rng.random() < 0.05:
            check_hidden_cards_do_not_show(match, rng, f"{where} step {step}")
            check_determinization(match, rng, f"{where} step {step}")
            check_legal_list_is_exactly_what_apply_allows(match, f"{where} step {step}")
        if match.hand_over:
            match.next_hand()
        events = match.apply(seat, choose(match, seat, rng))
        size = sum(map(len, match.hands)) + len(match.draw_pile) + sum(map(len, match.taken))
        assert size + len(match.trick) == len(DECK), f"{where} step {step}"
        for event in events:
            if event.kind in ("trick_won", "draw_to_pile"):
                taken_points[event.seat] += sum(c.points for c in event.cards)
            elif event.kind == "deal":
                assert event.private_to == frozenset((event.seat,)), where
            elif event.kind == "pass":
                assert event.private_to == frozenset((event.seat, event.data["to"])), where
            elif event.kind == "hand_end":
                hands += 1
                result = match.hand_results[-1]
                notes = result.notes
                assert notes["taken_points"] == tuple(taken_points), where
                left = sum(c.points for c in pile_before)
                assert sum(taken_points) + left == TOTAL_POINTS, where
                check_moon(match, result.points, taken_points, notes, where)
                totals = [t + p for t, p in zip(totals, result.points, strict=True)]
                assert result.totals == tuple(totals), where
                assert event.data["totals"] == result.totals, where
                taken_points = [0] * players
        if events and events[-1].kind in ("trick_won", "draw_to_pile", "pass_hand", "deal"):
            check_all_cards_placed(match, f"{where} step {step}")
    else:
        pytest.fail(f"{where}: no end after {MAX_ACTIONS} actions")
    assert hands == len(match.hand_results), where
    assert max(match.scores) >= options["target"], where
    low = min(match.scores)
    assert match.winners == tuple(s for s in range(players) if match.scores[s] == low), where
    assert match.actors() == (), where
    return match


def check_moon(
    match: UnoHeartsMatch,
    points: tuple[int, ...],
    taken: list[int],
    notes: Any,
    where: str,
) -> None:
    scorers = [s for s, p in enumerate(taken) if p > 0]
    moon_on = match.options["shoot_the_moon"]
    if moon_on and len(scorers) == 1:
        shooter = scorers[0]
        assert notes["moon"] == shooter, where
        if notes["moon_choice"] == "self":
            expected = tuple(-20 if s == shooter else 0 for s in range(match.players))
        else:
            expected = tuple(0 if s == shooter else 20 for s in range(match.players))
        assert points == expected, where
    else:
        assert "moon" not in notes, where
        assert points == tuple(taken), where


@pytest.mark.parametrize("players", range(2, 9))
def test_random_matches_keep_every_invariant(players: int) -> None:
    for seed in range(MATCHES_PER_COUNT):
        play_match(players, seed * 10 + players, deep=seed % 10 == 0)


@pytest.mark.parametrize("players", [2, 4, 8])
def test_determinized_matches_play_to_the_end(players: int) -> None:
    rng = random.Random(players)
    for seed in range(40):
        match = SPEC.new_match(players, random_options(rng, seed + 1), seed=seed)
        assert isinstance(match, UnoHeartsMatch)
        for _ in range(rng.randrange(0, 60)):
            if match.over:
                break
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.actors()[0]
            match.apply(seat, choose(match, seat, rng))
        view = match.view(rng.randrange(players))
        sample = determinize(view, rng)
        for _ in range(MAX_ACTIONS):
            if sample.over:
                break
            if sample.hand_over:
                sample.next_hand()
                continue
            seat = sample.actors()[0]
            sample.apply(seat, choose(sample, seat, rng))
        assert sample.over, f"players={players} seed={seed}"
