"""Thousands of seeded UNO hands under every combination of the house rules (RULES §4).

Every card stays in exactly one place, scores add up, matches end, nothing raises, views
leak nothing, the engine's legal actions are the rules written out plainly, and a
determinized copy of a seat's view gives that seat the very same view. The player is
"a random playable card, else a random action" (RLCard's random agent); uniformly
random play would draw for thousands of turns. Each failure names game, players, seed
and options, so ``play_out(...)`` replays it.
"""

from __future__ import annotations

import itertools
import random
from operator import attrgetter

import pytest
from test_uno_properties import check_final_scores, rulebook_legal

from unotable.engine import get_game
from unotable.engine.uno import determinize
from unotable.engine.uno.cards import ALL_CARDS

GAMES = ("uno", "uno-minecraft")
STACKS = ("off", "same", "any")
COMBOS = [
    {"stack": stack, "seven_o": seven, "draw_to_match": match}
    for stack, seven, match in itertools.product(STACKS, (False, True), (False, True))
]
MAX_ACTIONS = 20_000
_index = attrgetter("index")


def card_multiset(cards) -> list[int]:
    return sorted(map(_index, cards))


def play_out(game: str, players: int, seed: int, house: dict, target: int = 1, view_every=0):
    """One seeded match, invariants checked after every action (see module).

    Cards and events are checked after every action when ``view_every`` is set (the views
    then every ``view_every`` actions), otherwise at the end of every hand: the cheap run.
    """
    options = {"target": target, "wd4_bluff": seed % 3 != 1, **house}
    options["scoring"] = "running" if seed % 4 == 3 else "standard"
    where = f"{game} players={players} seed={seed} options={options}"
    match = get_game(game).new_match(players, options, seed=seed)
    rng = random.Random(seed)
    deck = card_multiset(match.DECK)
    actions = 0
    while not match.over:
        if match.hand_over:
            assert card_multiset(match.zones()) == deck, f"{where}: cards lost at a hand's end"
            match.next_hand()
            continue
        seat = match.current
        if match.exposed is not None and rng.random() < 0.3:
            seat = rng.choice(match.actors())  # an out-of-turn call or catch
        legal = match.legal_actions(seat)
        assert legal, f"{where}: seat {seat} has no legal action at action {actions}"
        plays = [a for a in legal if a.kind == "play"]
        events = match.apply(seat, rng.choice(plays or legal))
        actions += 1
        if view_every:
            for event in events:
                if event.private_to is not None:
                    other = (min(event.private_to) + 1) % players
                    assert event.seen_by(other).cards == (), f"{where}: {event.kind} leaks"
                elif event.kind in ("draw", "bonus", "received", "reveal", "hand"):
                    raise AssertionError(f"{where}: a public {event.kind} event at {actions}")
            assert card_multiset(match.zones()) == deck, f"{where}: cards lost at {actions}"
            if actions % view_every == 0 and not match.over and not match.hand_over:
                k = rng.randrange(players)
                view = match.view(k)
                assert {str(a) for a in view.legal} == rulebook_legal(view), f"{where}: {actions}"
                check_known(match, view, where)
                twin = determinize(view, random.Random(actions))
                assert twin.view(k) == view, f"{where}: view of seat {k} at {actions}"
                assert card_multiset(twin.zones()) == deck, f"{where}: determinized at {actions}"
        assert actions < MAX_ACTIONS, f"{where}: no end"
    assert card_multiset(match.zones()) == deck, f"{where}: cards lost at the end"
    check_final_scores(match, where)
    return match


def check_known(match, view, where: str) -> None:
    """What a view says a seat knows of a hand is really in that hand."""
    for holder, cards in enumerate(view.known):
        hand = list(match.hands[holder])
        for card in cards:
            assert card in hand, f"{where}: seat {view.seat} 'knows' {card} in seat {holder}"
            hand.remove(card)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("house", COMBOS, ids=lambda h: "-".join(str(v) for v in h.values()))
def test_many_short_matches_under_every_house_rule_combination(game, house):
    # 12 combinations x 2 games x 7 player counts x 12 seeds: 2,016 matches of one hand,
    # and a few longer ones below; a sixth check every action, views and determinized copies
    for players in range(2, 9):
        for seed in range(12):
            play_out(game, players, seed, house, view_every=9 if seed % 6 == 0 else 0)


@pytest.mark.parametrize("game", GAMES)
def test_full_matches_with_every_house_rule(game):
    house = {"stack": "any", "seven_o": True, "draw_to_match": True}
    hands = 0
    for players in (2, 4, 6):
        match = play_out(game, players, 40_000 + players, house, target=500, view_every=20)
        hands += match.hand_number
    assert hands > 3


def test_every_rule_happens_in_the_property_matches():
    """The random matches do exercise each rule (else the checks above prove little)."""
    seen = set()
    house = {"stack": "any", "seven_o": True, "draw_to_match": True}
    for seed in range(12):
        match = play_out("uno-minecraft", 4, seed, house)
        seen |= {e.kind for e in match.log}
        seen |= {e.data.get("reason") for e in match.log if e.kind == "penalty"}
    wanted = {"pending_draw", "accept", "swap", "pass_hands", "received", "draw_to_match", "stack"}
    assert wanted <= seen, wanted - seen
    assert len(ALL_CARDS) == 55
