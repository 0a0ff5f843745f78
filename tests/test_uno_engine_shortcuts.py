"""The UNO engine's shortcuts for the house rules agree with doing it the plain way.

Cards are taken off the pile in runs (``_take``, ``_creeper``, ``_draw_run``) where they
could be drawn one by one; Seven-O moves the hands in place; stacking finds its plays by
look-up; and with Seven-O and challenges, what each seat knows of the others' hands forgets
the cards played only when someone reads it (``_settle``). Each is checked here against a
plain version, over seeded random matches, for the very same events, state and views.
Failures name the seed.
"""

from __future__ import annotations

import random
from bisect import insort

import pytest

from unotable.engine import get_game
from unotable.engine.core import make_event
from unotable.engine.uno.cards import CREEPER_CARD, DRAW, DRAW_TWO, PLAYS, PLAYS_UNO, WD4

HOUSE = {"stack": "any", "seven_o": True, "draw_to_match": True}
GAMES = ["uno", "uno-minecraft"]


def _pick(match, seat, rng, draws=0.0):
    """RLCard's random agent: a random playable card, else a random action; with ``draws``,
    that often a draw while holding a playable card (D-30)."""
    legal = match.legal_actions(seat)
    if DRAW in legal and rng.random() < draws:
        return DRAW
    plays = [a for a in legal if a.kind == "play"]
    return rng.choice(plays or legal)


def _games(game, players, options, seeds, draws=0.0):
    """(seed, match, seat, action) at every decision of seeded matches (up to 3,000 each),
    before it is applied (the caller applies it)."""
    spec = get_game(game)
    for seed in range(seeds):
        match = spec.new_match(players, {**options, "target": 200}, seed=seed)
        rng = random.Random(seed)
        while not match.over and len(match.history) < 3_000:
            if match.hand_over:
                match.next_hand()
                continue
            seat = match.current
            yield seed, match, seat, _pick(match, seat, rng, draws)


def _draw_one_by_one(match, seat, count, reason):
    """_take the plain way: card by card, an event per stretch up to a Creeper or to the
    end of the pile, each Creeper's bonus cards likewise."""
    events = []
    hand = match.hands[seat]
    size = len(hand)
    data = {"reason": reason}

    def flush(kind, cards, data):
        if cards:
            events.append(make_event(kind, seat, tuple(cards), len(cards), data, frozenset({seat})))
            cards.clear()

    def draw(kind, count, data):
        cards = []
        for _ in range(count):
            if not match.draw_pile:
                flush(kind, cards, data)
                if not match._reshuffle(events):
                    break
            card = match.draw_pile.pop()
            insort(hand, card, key=lambda c: c.index)
            cards.append(card)
            if kind == "draw" and card is CREEPER_CARD:
                flush(kind, cards, data)
                match.revealed[seat] += 1
                match.public_known[seat].append(CREEPER_CARD)
                events.append(make_event("creeper", seat, (CREEPER_CARD,), 1))
                draw("bonus", 3, {})
        flush(kind, cards, data)

    draw("draw", count, data)
    if len(hand) > size:
        match.passes = 0
    return events


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 8])
def test_taking_cards_in_runs_is_drawing_them_one_by_one(game, players):
    taken = 0
    rng = random.Random(f"{game}-{players}")
    for seed, match, seat, action in _games(game, players, HOUSE, 6):
        for victim in range(players):  # now and then, a few cards for anyone
            if rng.random() < 0.2:
                count = rng.randrange(1, 9)
                plain = match.clone()
                fast = match.clone()
                plain.passes = fast.passes = 1  # (a card taken restarts the count of passes)
                expected = _draw_one_by_one(plain, victim, count, "draw_two")
                events = []
                fast._take(victim, count, "draw_two", events)
                assert events == expected, seed
                assert fast.state_key() == plain.state_key(), seed
                taken += 1
        match.apply(seat, action)
    assert taken > 200


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 4, 8])
@pytest.mark.parametrize("bluff", [True, False])
def test_drawing_a_run_at_once_is_drawing_card_by_card(game, players, bluff):
    draws = 0
    options = {**HOUSE, "wd4_bluff": bluff}
    for seed, match, seat, action in _games(game, players, options, 10, draws=0.1):
        if action == DRAW:
            plain = match.clone()
            events = plain._draw_to_match(seat)  # each card checked as it comes
            plain.history.append((seat, action))
            plain.log.extend(events)
            assert match.apply(seat, action) == events, seed
            assert match.state_key() == plain.state_key(), seed
            draws += 1
        else:
            match.apply(seat, action)
    assert draws > 100


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 8])
def test_hands_moved_in_place_go_where_they_should(game, players):
    """A swap or a pass: every hand, what all knew of it and the cards its last holder
    played are at its new seat, and the receivers get the hands they now hold."""
    moves = 0
    for seed, match, seat, action in _games(game, players, HOUSE, 6):
        before = match.clone()  # (what is known settled: only the coming play can wait)
        events = match.apply(seat, action)
        if len(match.hand_moves) == len(before.hand_moves):
            continue
        moves += 1
        dest = match.hand_moves[-1]
        held = [list(hand) for hand in before.hands]
        if action.kind == "play":  # a 0: it left the hand before the hands passed on
            held[seat].remove(action.card)
        for giver, receiver in enumerate(dest):
            assert match.hands[receiver] == held[giver], seed
            assert match.public_known[receiver] == before.public_known[giver], seed
            assert receiver not in match.private_known[receiver], seed  # (not one's own)
        if match.unseen is not None:  # the 0, waiting to be forgotten, went with its hand
            waiting = [None] * players
            waiting[dest[seat]] = [action.card]
            assert [u and u.cards for u in match.unseen] == waiting, seed
        received = [(e.seat, e.data["from"], e.cards) for e in events if e.kind == "received"]
        expected = [
            (receiver, giver, tuple(match.hands[receiver]))
            for giver, receiver in enumerate(dest)
            if giver != receiver
        ]
        assert received == expected, seed
        for giver, receiver in enumerate(dest):
            if giver != receiver:  # the giver knows all it gave
                known = match.view(giver).known[receiver]
                assert list(known) == sorted(match.hands[receiver], key=lambda c: c.index), seed
    assert moves > 50


def _stack_plays_by_scan(match, seat):
    """The stacking plays the plain way: down the hand, each card judged on its own."""
    on_wd4 = match.discard[-1] is WD4
    hand = match.hands[seat]
    acts, previous = [], None
    for card in hand:
        if card is previous:
            continue
        previous = card
        if card is WD4:
            ok = on_wd4 or match.stack_mode == 2
        else:
            ok = card.effect == DRAW_TWO and not on_wd4
        if ok:
            acts += PLAYS[card.index]
            if len(hand) == 2:
                acts += PLAYS_UNO[card.index]
    return acts


@pytest.mark.parametrize("stack", ["same", "any"])
@pytest.mark.parametrize("players", [2, 4])
def test_stacking_plays_found_by_look_up_are_the_hand_scanned(stack, players):
    answers = 0
    for seed, match, seat, action in _games("uno", players, {**HOUSE, "stack": stack}, 8):
        if match.pending in ("stack", "challenge"):
            assert match._stack_plays(seat) == _stack_plays_by_scan(match, seat), seed
            answers += 1
        match.apply(seat, action)
    assert answers > 100


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_knowledge_read_late_is_knowledge_kept_up_to_date(game, players):
    """One match read after every action (so nothing waits to be forgotten), its twin read
    now and then, after clones too: the same views, seat by seat."""
    spec = get_game(game)
    for seed in range(8):
        options = {**HOUSE, "target": 200, "wd4_bluff": seed % 2 == 0}
        eager = spec.new_match(players, options, seed=seed)
        lazy = spec.new_match(players, options, seed=seed)
        rng = random.Random(seed)
        while not eager.over:
            if eager.hand_over:
                eager.next_hand()
                lazy.next_hand()
            else:
                seat = eager.current
                action = _pick(eager, seat, rng)
                assert eager.apply(seat, action) == lazy.apply(seat, action), seed
            seen = [eager.view(s) for s in range(players)]
            assert all(all(by.values()) for by in eager.private_known), seed  # (none empty)
            if rng.random() < 0.05:
                lazy = lazy.clone()
            if rng.random() < 0.1:
                assert [lazy.view(s) for s in range(players)] == seen, seed
        assert [lazy.view(s) for s in range(players)] == seen, seed
