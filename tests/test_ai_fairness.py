"""Computer players never peek: cards hidden from a seat cannot change its decisions.

Match A is dealt explicitly and played for a while. Match B is the same deal except that
two other seats swap cards that stay in their hands (never shown) during that stretch.
The other seats replay A's actions in B; the seat under test, a fresh player with the
same seed, must choose exactly what it chose in A at every one of its decisions.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from unotable.ai.levels import build
from unotable.engine import get_game
from unotable.tournament import drive

GAMES = ("uno", "uno-minecraft", "uno-hearts", "wild-twist-hearts")
LEVELS = ("easy", "normal", "hard")
PREFIX = {"uno": 70, "uno-minecraft": 70, "uno-hearts": 30, "wild-twist-hearts": 30}


def make_player(level: str, game: str, seed: int) -> Any:
    if level == "hard":
        return build("hard", game, seed, worlds=3)  # a fixed amount of search: reproducible
    return build(level, game, seed)


def random_deal(game: str, players: int, seed: int) -> dict[str, Any]:
    """An explicit first deal, as notation, drawn from ``seed``."""
    rng = random.Random(seed)
    if game in ("uno", "uno-minecraft"):
        from unotable.engine.uno import CLASSIC_DECK, MINECRAFT_DECK

        deck = [str(c) for c in (MINECRAFT_DECK if game == "uno-minecraft" else CLASSIC_DECK)]
        rng.shuffle(deck)
        first = next(c for c in deck if c[1:].isdigit())
        deck.remove(first)
        hands = [deck[i * 7 : (i + 1) * 7] for i in range(players)]
        return {"hands": hands, "draw_pile": deck[players * 7 :], "first_discard": first}
    if game == "uno-hearts":
        from unotable.engine.uno_hearts import DECK as UH_DECK

        deck = [str(c) for c in UH_DECK]
        rng.shuffle(deck)
        hands = [deck[i * 13 : (i + 1) * 13] for i in range(players)]
        return {"hands": hands, "draw_pile": deck[players * 13 :]}
    from unotable.engine.wild_twist import DECK as WT_DECK

    deck = [str(c) for c in WT_DECK]
    rng.shuffle(deck)
    size = 56 // players
    hands = [deck[i * size : (i + 1) * size] for i in range(players)]
    return {"hands": hands, "leftovers": deck[players * size :]}


def group(game: str, card: str) -> str:
    """Cards swapped between hands must be alike for the rules (same colour or suit)."""
    if game in ("uno", "uno-minecraft"):
        return card[0] if card[0] in "RYGB" and len(card) > 1 else "wild"
    if game == "uno-hearts":
        return "wild" if card.startswith("WD") else card[0]
    return "wild" if card.startswith("W") else card[-1]


def swappable(game: str, card: str) -> bool:
    if game == "wild-twist-hearts":
        return not card.startswith("W") and card[-1] != "C"  # clubs decide the opening
    return group(game, card) != "wild"


def hidden_swap(game: str, deal: dict[str, Any], kept: list[set[str]], seat: int) -> Any:
    """Deal B: two other seats swap one never-shown card of the same colour/suit."""
    hands = [list(h) for h in deal["hands"]]
    others = [s for s in range(len(hands)) if s != seat]
    for a in others:
        for b in others:
            if a >= b:
                continue
            for x in sorted(kept[a]):
                for y in sorted(kept[b]):
                    if x != y and group(game, x) == group(game, y) and swappable(game, x):
                        hands[a][hands[a].index(x)] = y
                        hands[b][hands[b].index(y)] = x
                        return dict(deal, hands=hands)
    return None


def before_hands_move(game: str, history: list[Any], players: int) -> list[Any]:
    """UNO Hearts passes whole hands after a trick with P8/G8: stop the replay there."""
    if game != "uno-hearts":
        return history
    plays = 0
    pass_trick = False
    for index, (_seat, action) in enumerate(history):
        if action.kind != "play":
            continue
        pass_trick = pass_trick or str(action.card) in ("P8", "G8")
        plays += 1
        if plays % players == 0:
            if pass_trick:
                return history[: index + 1]
            pass_trick = False
    return history


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_decisions(game: str, level: str) -> None:
    players, seat = 4, 1
    spec = get_game(game)
    compared = 0
    for deal_seed in range(5):
        deal = random_deal(game, players, deal_seed)
        options = {"target": 10000} if game in ("uno", "uno-minecraft") else {}
        match_a = spec.from_deal(players, options, seed=deal_seed, dealer=0, **deal)
        chosen_a: list[str] = []

        def record(s: int, view: Any, action: Any, chosen: list[str] = chosen_a) -> None:
            if s == seat:
                chosen.append(str(action))

        lineup = [make_player(level if s == seat else "normal", game, 40 + s) for s in range(4)]
        drive(match_a, lineup, max_actions=PREFIX[game], max_hands=1, on_decision=record)
        history = before_hands_move(game, list(match_a.history), players)
        if any(s == seat and a.kind == "challenge" for s, a in history):
            continue  # a challenge shows the challenger a hand: that is not hidden any more
        chosen_a[:] = [str(a) for s, a in history if s == seat]
        played = {str(a.card) for _s, a in history if a.kind == "play"}
        kept = [
            {c for c in deal["hands"][t] if deal["hands"][t].count(c) == 1} - played
            for t in range(players)
        ]
        deal_b = hidden_swap(game, deal, kept, seat)
        if deal_b is None:
            continue
        match_b = spec.from_deal(players, options, seed=deal_seed, dealer=0, **deal_b)
        player = make_player(level, game, 40 + seat)
        chosen_b: list[str] = []
        for s, action in history:
            if s == seat and action.kind not in ("uno", "catch"):
                view = match_b.view(s)
                mine = player.choose(view)
                chosen_b.append(str(mine))
                match_b.apply(s, mine)
            elif s == seat:
                view = match_b.view(s)
                assert player.wants_to_act(view)
                mine = player.choose(view)
                chosen_b.append(str(mine))
                match_b.apply(s, mine)
            else:
                match_b.apply(s, action)
        assert chosen_b == chosen_a, f"{game} {level} deal {deal_seed}"
        compared += len(chosen_a)
    assert compared >= 5, f"too few decisions compared for {game} {level}"
