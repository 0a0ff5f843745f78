"""Thousands of complete seeded UNO matches: cards are conserved, views leak nothing.

Each failure message names the game, player count and seed, so it can be replayed with
``play_out(game, players, seed, target)``.
"""

from __future__ import annotations

import random
from operator import attrgetter

import pytest

from unotable.engine import get_game
from unotable.engine.uno import determinize

GAMES = ("uno", "uno-minecraft")
MATCHES_PER_COUNT = 500  # x 7 player counts: 3,500 matches per game; low target: one hand each
MAX_ACTIONS = 200_000
_index = attrgetter("index")


def card_multiset(cards) -> list[int]:
    """Cards as sorted indices: equal lists mean equal multisets (cheap enough per action)."""
    return sorted(map(_index, cards))


def play_out(
    game: str,
    players: int,
    seed: int,
    target: int = 1,
    uniform: bool = False,
    view_every: int = 0,
) -> object:
    """Play one match with random legal moves, checking invariants after every action.

    The player is random-card-if-any (``uniform``: uniformly random). Out-of-turn
    seats act now and then. Every ``view_every`` actions one seat's view is checked
    against a determinized copy of the match (it must not change: no hidden card shows).
    """
    # the seed also picks the options: every third match without bluffing, every fourth running
    options = {"target": target, "wd4_bluff": seed % 3 != 1}
    options["scoring"] = "running" if seed % 4 == 3 else "standard"
    where = f"{game} players={players} seed={seed} options={options} uniform={uniform}"
    match = get_game(game).new_match(players, options, seed=seed)
    rng = random.Random(seed)
    deck = card_multiset(match.DECK)
    actions = 0
    choice = rng.choice
    while not match.over:
        if match.hand_over:
            match.next_hand()
            continue
        seat = match.current
        if match.exposed is not None and rng.random() < 0.3:
            seat = choice(match.actors())  # an out-of-turn call or catch
        legal = match.legal_actions(seat)
        assert legal, f"{where}: seat {seat} has no legal action at action {actions}"
        plays = legal if uniform else [a for a in legal if a.kind == "play"]
        events = match.apply(seat, choice(plays or legal))
        actions += 1
        assert card_multiset(match.zones()) == deck, f"{where}: cards lost or doubled at {actions}"
        for event in events:
            if event.private_to is not None:
                other = (min(event.private_to) + 1) % players
                assert event.seen_by(other).cards == (), f"{where}: {event.kind} leaks"
        if view_every and actions % view_every == 0 and not match.over and not match.hand_over:
            k = rng.randrange(players)
            view = match.view(k)
            assert {str(a) for a in view.legal} == rulebook_legal(view), f"{where}: at {actions}"
            twin = determinize(view, random.Random(actions))
            assert twin.view(k) == view, f"{where}: view of seat {k} at {actions}"
            assert card_multiset(twin.zones()) == deck, f"{where}: determinized deck at {actions}"
        assert actions < MAX_ACTIONS, f"{where}: no end"
    check_final_scores(match, where)
    return match


def rulebook_legal(view) -> set[str]:
    """RULES §3.5-3.9 and the house rules of §4 written out plainly from the view, to
    compare with the engine."""
    options = view.options
    stack = options.get("stack", "off")
    legal: set[str] = set()
    hand = view.hand
    top, active = view.top, view.active_color
    with_uno = len(hand) == 2

    def add_play(card) -> None:
        texts = [f"{card}>{c}" for c in "RYGB"] if card.color is None else [str(card)]
        legal.update(texts)
        if with_uno:
            legal.update(t + "!" for t in texts)

    def playable(card) -> bool:
        matches = card.color is None or card.color == active
        matches = matches or (top.color is not None and card.face == top.face)
        holds_active = any(c.color == active for c in hand)
        if str(card) == "W+4" and not options["wd4_bluff"] and holds_active:
            return False
        return matches

    def stackable(card) -> bool:
        if str(top) == "W+4":
            return str(card) == "W+4"
        return card.kind == "draw2" or (str(card) == "W+4" and stack == "any")

    if view.seat == view.current:
        if view.pending is None:
            for card in hand:
                if playable(card):
                    add_play(card)
            if view.draw_pile_size or len(view.discard) > 1:
                legal.add("draw")
            elif not legal:
                legal.add("pass")
        elif view.pending == "drawn":
            # a drawn card that does not match can only be kept (D-30)
            if playable(view.drawn):
                add_play(view.drawn)
            legal.add("keep")
        elif view.pending in ("challenge", "stack"):
            if stack != "off":
                for card in hand:
                    if stackable(card):
                        add_play(card)
            legal.add("accept")
            if view.pending == "challenge":
                legal.add("challenge")
        elif view.pending == "swap":
            legal |= {f"swap:{s}" for s in range(view.players) if s != view.seat}
        else:
            legal |= {f"color:{c}" for c in "RYGB"}
    if view.exposed is not None:
        legal.add("uno" if view.exposed == view.seat else f"catch:{view.exposed}")
    return legal


def check_final_scores(match, where: str) -> None:
    totals = [0] * match.players
    for result in match.hand_results:
        for seat, points in enumerate(result.points):
            totals[seat] += points
        assert list(result.totals) == totals, where
        assert min(result.points) >= 0, where
        if match.options["scoring"] == "standard":
            assert sum(1 for p in result.points if p) <= 1, where
    assert totals == match.scores, where
    assert match.over and match.winners, where
    assert max(match.scores) >= match.options["target"], where
    if match.options["scoring"] == "running":
        low = min(match.scores)
        assert match.winners == tuple(s for s, t in enumerate(match.scores) if t == low), where
    # the last hand's cards are still on the table: its points are their values
    last = match.hand_results[-1]
    winner = last.notes["winner"]
    values = [sum(c.points for c in hand) for hand in match.hands]
    if not last.notes["blocked"]:
        assert values[winner] == 0, where
    values[winner] = 0
    expected = values if match.options["scoring"] == "running" else [0] * match.players
    if match.options["scoring"] == "standard":
        expected[winner] = sum(values)
    assert list(last.points) == expected, where


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", range(2, 9))
def test_many_short_matches_conserve_cards_and_score_correctly(game, players):
    for seed in range(MATCHES_PER_COUNT):
        play_out(game, players, seed, target=1, view_every=50 if seed % 10 == 0 else 0)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4, 8])
def test_full_matches_to_500(game, players):
    for seed in range(3):
        match = play_out(game, players, 10_000 + seed, target=500, view_every=25)
        assert match.hand_number > 1


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_uniformly_random_matches_end_too(game, players):
    for seed in range(5):
        play_out(game, players, 20_000 + seed, target=30, uniform=True, view_every=10)


def test_running_scoring_matches(deal):
    spec = get_game("uno")
    for seed in range(50):
        match = spec.new_match(3, {"target": 150, "scoring": "running"}, seed=seed)
        rng = random.Random(seed)
        while not match.over:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            legal = match.legal_actions(seat)
            plays = [a for a in legal if a.kind == "play"]
            match.apply(seat, rng.choice(plays or legal))
        check_final_scores(match, f"running seed={seed}")
        low = min(match.scores)
        assert match.winners == tuple(s for s, t in enumerate(match.scores) if t == low)


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_actions_same_events(game):
    for seed in range(20):
        a = play_out(game, 4, seed, target=100)
        b = play_out(game, 4, seed, target=100)
        assert a.log == b.log and a.history == b.history


def test_clone_is_independent_and_continues_identically():
    match = get_game("uno-minecraft").new_match(4, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        seat = match.current
        legal = match.legal_actions(seat)
        if match.hand_over:
            match.next_hand()
        match.apply(seat, rng.choice([a for a in legal if a.kind == "play"] or legal))
    twin = match.clone()
    before = match.state_key()
    assert twin.state_key() == before
    for _ in range(200):
        if twin.over:
            break
        if twin.hand_over:
            twin.next_hand()
            continue
        seat = twin.current
        action = twin.legal_actions(seat)[-1]  # mostly draws: exercises the rng
        events = twin.apply(seat, action)
        assert match.state_key() == before  # the original did not move
        assert match.apply(seat, action) == events
        before = match.state_key()
        assert twin.state_key() == before


def test_views_hide_other_hands_and_the_draw_pile(deal):
    """Two deals differing only in cards seat 0 cannot see give seat 0 equal views."""
    hands_a = [["R1", "G2", "W"], ["B3", "B4", "Y5"], ["G7", "G8", "Y9"]]
    hands_b = [["R1", "G2", "W"], ["G7", "Y9", "B4"], ["B3", "Y5", "G8"]]
    a = deal(hands_a, pile=["B6", "Y6", "G6", "R6"], first="R5", dealer=2)
    b = deal(hands_b, pile=["R6", "B6", "Y6", "G6"], first="R5", dealer=2)
    assert a.view(0) == b.view(0)
    assert a.view(1) != b.view(1)
    for match in (a, b):
        if match.hand_over:
            match.next_hand()
        match.apply(0, "W>B")
    assert a.view(0) == b.view(0)
    a.apply(1, "B3")
    b.apply(1, "B4")
    assert a.view(0) != b.view(0)  # a played card is public


def test_determinize_respects_avoid_when_it_can():
    match = get_game("uno").new_match(4, seed=3)
    view = match.view(0)
    twin = determinize(view, random.Random(1), avoid={1: frozenset({"R", "Y"})})
    assert not any(c.color in ("R", "Y") for c in twin.hands[1])
    assert twin.hands[0] == match.hands[0]
    impossible = determinize(view, random.Random(1), avoid={2: frozenset({"R", "Y", "G", "B"})})
    assert len(impossible.hands[2]) == len(match.hands[2])  # dropped: too few wilds


def test_determinized_match_plays_to_the_end():
    for seed in range(30):
        match = get_game("uno-minecraft").new_match(3, {"target": 50}, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(60)):
            seat = match.current
            legal = match.legal_actions(seat)
            if match.hand_over:
                match.next_hand()
            match.apply(seat, rng.choice([a for a in legal if a.kind == "play"] or legal))
            if match.over:
                break
            if match.hand_over:
                match.next_hand()
                continue
        if match.over:
            continue
        seat = rng.randrange(3)
        twin = determinize(match.view(seat), rng)
        while not twin.over:
            if twin.hand_over:
                twin.next_hand()
                continue
            s = twin.current
            legal = twin.legal_actions(s)
            twin.apply(s, rng.choice([a for a in legal if a.kind == "play"] or legal))
        assert twin.winners
