"""Wild Twist Hearts properties over thousands of seeded random matches.

Every card stays in exactly one place, points add up at every game's end, matches end,
views never show hidden cards, clone and determinize give playable, faithful matches.
Failure messages name the seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.engine import Action, IllegalAction, get_game
from unotable.engine.wild_twist import DECK, WildTwistMatch, determinize

SPEC = get_game("wild-twist-hearts")
PLAYER_COUNTS = (4, 5, 6, 7, 8)


def places(match: WildTwistMatch) -> list[Any]:
    """Every card the match holds, wherever it is."""
    found = [c for hand in match.hands for suit in hand for c in suit]
    found += match.leftovers
    found += [c for pile in match.taken for c in pile]
    found += [entry[1] for entry in match.trick]
    return found


def check_cards(match: WildTwistMatch, where: str) -> None:
    found = places(match)  # cards are interned: 56 distinct objects are the whole deck
    assert len(found) == 56 and len(set(found)) == 56, f"{where}: cards lost or doubled"
    sizes = [sum(map(len, hand)) for hand in match.hands]
    assert sizes == match.sizes, f"{where}: hand sizes"


def check_hand_end(match: WildTwistMatch, events: list[Any], where: str) -> None:
    """The game just scored: its points add up to the 27 on the cards."""
    result = match.hand_results[-1]
    taken = result.notes["taken_points"]
    assert sum(taken) == 27, f"{where}: taken points {taken}"
    shooter = result.notes.get("moon")
    n = match.players
    if shooter is None:
        assert result.points == taken and 27 not in taken, where
    else:
        assert taken[shooter] == 27, where
        if result.notes["moon_choice"] == "self":
            expected = tuple(-27 if s == shooter else 0 for s in range(n))
        else:
            expected = tuple(0 if s == shooter else 27 for s in range(n))
        assert result.points == expected, where
    before = match.hand_results[-2].totals if len(match.hand_results) > 1 else (0,) * n
    assert result.totals == tuple(b + p for b, p in zip(before, result.points, strict=True))
    end = next(e for e in events if e.kind == "hand_end")
    assert end.data["points"] == result.points and end.data["totals"] == result.totals


def random_match(players: int, seed: int, length: int = 1, **options: Any) -> WildTwistMatch:
    match = SPEC.new_match(players, {"length": length, **options}, seed=seed)
    assert isinstance(match, WildTwistMatch)
    return match


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_thousands_of_random_matches_keep_the_cards_and_the_score(players: int) -> None:
    matches = 1200  # 6,000 seeded matches over the five player counts
    moons = 0
    for seed in range(matches):
        length = 1 if seed % 10 else 3
        match = random_match(players, seed, length, no_points_first_trick=seed % 3 == 0)
        rng = random.Random(seed)
        where = f"players={players} seed={seed}"
        check_cards(match, where)
        budget = length * (56 + 4)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            budget -= 1
            assert budget > 0, f"{where}: the match does not end"
            seat = match.current
            assert seat is not None and match.actors() == (seat,), where
            legal = match.legal_actions(seat)
            assert legal, f"{where}: no legal action"
            events = match.apply(seat, rng.choice(legal))
            check_cards(match, where)
            if any(e.kind == "hand_end" for e in events):
                check_hand_end(match, events, where)
                moons += "moon" in match.hand_results[-1].notes
        assert len(match.hand_results) == length, where
        totals = match.scores
        assert match.winners == tuple(s for s in range(players) if totals[s] == min(totals))
    assert moons > 0 or players > 5  # random play does shoot the moon now and then


def swap_hidden(match: WildTwistMatch, seat: int, rng: random.Random) -> WildTwistMatch | None:
    """A copy differing only in cards hidden from ``seat``: two other places swap a card."""
    other = match.clone()
    holders = [s for s in range(match.players) if s != seat and match.sizes[s]]
    spots = [("hand", s) for s in holders] + ([("left", 0)] if match.leftovers else [])
    if len(spots) < 2:
        return None
    (kind_a, a), (kind_b, b) = rng.sample(spots, 2)

    def pick(kind: str, s: int) -> tuple[list[Any], Any]:
        if kind == "left":
            return other.leftovers, rng.choice(other.leftovers)
        suit = rng.choice([x for x in other.hands[s] if x])
        return suit, rng.choice(suit)

    list_a, card_a = pick(kind_a, a)
    list_b, card_b = pick(kind_b, b)
    list_a.remove(card_a)
    list_b.remove(card_b)
    for card, kind, s in ((card_b, kind_a, a), (card_a, kind_b, b)):
        target = other.leftovers if kind == "left" else other.hands[s][card.suit]
        target.append(card)
        target.sort(key=lambda c: c.index)
    return other


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_views_never_show_hidden_cards(players: int) -> None:
    for seed in range(40):
        match = random_match(players, 1000 + seed, no_points_first_trick=seed % 2 == 0)
        rng = random.Random(seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            if match.phase == "play" and (match.trick or match.tricks) and rng.random() < 0.3:
                watcher = rng.randrange(players)
                other = swap_hidden(match, watcher, rng)
                if other is not None:
                    assert other.view(watcher) == match.view(watcher), f"seed={seed}"
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        for watcher in range(players):
            for event in match.events_for(watcher):
                if event.kind == "deal" and event.seat != watcher:
                    assert event.cards == (), f"seed={seed}: a deal shows another hand"
                if event.kind == "trick_won":
                    assert not set(event.cards) & set(match.leftovers), f"seed={seed}"


DEAL = [
    ["2C", "3C", "4C", "2D", "3D", "4D", "5D", "2S", "3S", "4S", "2H", "3H", "4H", "5H"],
    ["5C", "6C", "7C", "6D", "7D", "8D", "9D", "5S", "6S", "7S", "6H", "7H", "8H", "9H"],
    ["8C", "9C", "10C", "10D", "JD", "QD", "KD", "8S", "9S", "10S", "10H", "JH", "QH", "KH"],
    ["JC", "QC", "KC", "AC", "AD", "WD", "JS", "QS", "KS", "AS", "WS", "AH", "WH", "WC"],
]


def test_two_deals_differing_only_in_hidden_cards_look_the_same() -> None:
    swapped = [list(h) for h in DEAL]
    swapped[1][swapped[1].index("6D")], swapped[2][swapped[2].index("10D")] = "10D", "6D"
    first = SPEC.from_deal(4, seed=5, hands=DEAL, dealer=3)
    second = SPEC.from_deal(4, seed=5, hands=swapped, dealer=3)
    for match in (first, second):
        for move in ("decline", "2C", "5C", "8C", "AC"):
            if match.hand_over:
                match.next_hand()
            match.apply(match.current, move)
    for seat in (0, 3):
        assert first.view(seat) == second.view(seat)
        assert first.events_for(seat) == second.events_for(seat)
    assert first.view(1) != second.view(1)


def view_fields(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in view.__dataclass_fields__}


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_determinize_is_faithful_honours_voids_and_plays_to_the_end(players: int) -> None:
    checked = 0
    for seed in range(60):
        match = random_match(players, 5000 + seed, no_points_first_trick=seed % 2 == 1)
        rng = random.Random(seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            if rng.random() < 0.25 or match.phase != "play" or not match.tricks:
                watcher = seat if rng.random() < 0.7 else rng.randrange(players)
                view = match.view(watcher)
                # the true hands' missing suits are always satisfiable wishes
                lacking = [
                    frozenset("CDHS"[i] for i in range(4) if not match.hands[s][i])
                    for s in range(players)
                ]
                sample = determinize(view, rng, avoid=lacking)
                where = f"players={players} seed={seed} seat={watcher}"
                assert view_fields(sample.view(watcher)) == view_fields(view), where
                check_cards(sample, where)
                for s in range(players):
                    if s != watcher:
                        held = {"CDHS"[c.suit] for suit in sample.hands[s] for c in suit}
                        assert not held & lacking[s], f"{where}: avoid ignored for {s}"
                        assert not held & view.voids[s], f"{where}: void ignored for {s}"
                play_rng = random.Random(seed)
                while not sample.over:
                    if sample.hand_over:
                        sample.next_hand()
                        continue
                    s = sample.current
                    sample.apply(s, play_rng.choice(sample.legal_actions(s)))
                checked += 1
            if match.hand_over:
                match.next_hand()
            match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert checked > 200


def test_determinize_keeps_what_the_opening_revealed() -> None:
    rest = [str(c) for c in DECK if str(c) not in ("2C", "3C", "WC")]
    hands = [rest[:11], ["3C", *rest[11:21]], rest[21:32], ["WC", *rest[32:42]], rest[42:53]]
    rng = random.Random(3)
    match = SPEC.from_deal(5, seed=5, hands=hands, leftovers=["2C"], dealer=4)
    for _ in range(30):  # seat 0 watches seat 3 decide: seat 3 holds the Wild Club
        sample = determinize(match.view(0), rng)
        assert sample.current == 3 and any(c.text == "WC" for c in sample.hands[3][0])
    if match.hand_over:
        match.next_hand()
    match.apply(3, "decline")
    for _ in range(30):  # seat 1 must lead: it holds the lowest club of any hand
        sample = determinize(match.view(0), rng)
        held = [c for hand in sample.hands for c in hand[0] if not c.wild]
        lowest = min(held, key=lambda c: c.rank)
        assert lowest in sample.hands[1][0]
        assert [a.card for a in sample.legal_actions(1)] == [lowest]
    if match.hand_over:
        match.next_hand()
    match.apply(1, "3C")
    for _ in range(30):
        sample = determinize(match.view(4), rng)
        assert [str(c) for c in sample.leftovers] == ["2C"]
        assert any(c.text == "WC" for c in sample.hands[3][0])


def test_clone_is_independent_and_replays_identically() -> None:
    match = random_match(6, 77, length=2)
    rng = random.Random(1)
    for _ in range(40):
        if match.hand_over:
            match.next_hand()
        match.apply(match.current, rng.choice(match.legal_actions(match.current)))
    copy = match.clone()
    before = [match.view(s) for s in range(6)]
    moves = random.Random(2)
    replay = random.Random(2)
    while not copy.over:
        if copy.hand_over:
            copy.next_hand()
            continue
        copy.apply(copy.current, moves.choice(copy.legal_actions(copy.current)))
    assert [match.view(s) for s in range(6)] == before
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        match.apply(match.current, replay.choice(match.legal_actions(match.current)))
    assert match.log == copy.log and match.scores == copy.scores  # same rng: same next deal


def test_same_seed_and_actions_in_notation_give_the_same_match() -> None:
    for seed in range(20):
        match = random_match(4 + seed % 5, seed, length=2)
        rng = random.Random(seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            match.apply(match.current, rng.choice(match.legal_actions(match.current)))
        again = random_match(4 + seed % 5, seed, length=2)
        for seat, action in match.history:
            if again.hand_over:
                again.next_hand()
            again.apply(seat, str(action))
        assert again.log == match.log and again.winners == match.winners, f"seed={seed}"


def test_illegal_actions_raise_and_change_nothing() -> None:
    tried = 0
    for seed in range(30):
        match = random_match(4 + seed % 5, 9000 + seed)
        rng = random.Random(seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            legal = match.legal_actions(seat)
            if match.phase != "play" or rng.random() < 0.2:
                texts = ("decline", "moon:self", "moon:others", "WH", "2C>LOW", "2C!", "draw")
                wrong = [a for c in DECK for a in c.plays] + [SPEC.parse_action(t) for t in texts]
                wrong += [Action("play"), Action("play", card="QS"), Action("catch", target=0)]
                wrong += [
                    Action("give", cards=DECK[:3]),
                    Action("play", card=DECK[13], choice="UP"),
                ]
                wrong = [a for a in wrong if a not in legal]
                before = match.view(seat), len(match.log), len(match.history)
                for action in rng.sample(wrong, 5):
                    with pytest.raises(IllegalAction):
                        match.apply(seat, action)
                    tried += 1
                other = (seat + 1) % match.players
                with pytest.raises(IllegalAction, match=f"seat {seat}'s turn"):
                    match.apply(other, legal[0])
                assert (match.view(seat), len(match.log), len(match.history)) == before
            if match.hand_over:
                match.next_hand()
            match.apply(seat, rng.choice(legal))
    assert tried > 100


def test_determinize_at_the_moon_choice_and_after_the_end() -> None:
    moon_deal = [
        ["WC", "AC", "KC", "QC", "JC", "WD", "AD", "KD", "QD", "JD", "WS", "AS", "KS", "QS"],
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "2D", "3D", "4D", "5D", "6D"],
        ["7D", "8D", "9D", "10D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS"],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "AH", "WH"],
    ]
    match = SPEC.from_deal(4, {"length": 1}, seed=5, hands=moon_deal, dealer=3)
    if match.hand_over:
        match.next_hand()
    match.apply(0, "decline")
    while match.phase != "moon":
        if match.hand_over:
            match.next_hand()
        match.apply(match.current, match.legal_actions(match.current)[0])
    rng = random.Random(8)
    for seat in range(4):
        sample = determinize(match.view(seat), rng)
        assert sample.view(seat) == match.view(seat)
        real = match.clone()
        if sample.hand_over:
            sample.next_hand()
        sample.apply(0, "moon:self")
        real.apply(0, "moon:self")
        assert sample.hand_results[-1] == real.hand_results[-1]
    if match.hand_over:
        match.next_hand()
    match.apply(0, "moon:others")
    sample = determinize(match.view(1), rng)
    assert sample.over and sample.winners == match.winners == (0,)
    assert sample.view(1) == match.view(1)
