"""What a seat knows of the others' hands once hands change owners (RULES §4.2), where it is
used: Hard's sampled deals and the card tracker.

Seven-O moves knowledge with the cards: the giver knows the hand it gave, a private reveal
(a challenge) stays with the seat it was shown to, a public one (a revealed Creeper) stays
everyone's in the hand now holding it. Hard's sampler must put every card its seat knows
in the hand that holds it, keep what all know public, and make nothing public that is not;
the tracker lists, per player, the cards the viewer knows they hold.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_app_dialogs import UNO_PILE, key_for, last_actions, with_deal
from test_app_support import controller, make_app, screen_text, settle, until

from unotable.ai.levels import build
from unotable.app.games import presentation_for
from unotable.app.screens.common import ChoiceScreen
from unotable.app.screens.handover import HandOverScreen
from unotable.app.screens.table import TableScreen
from unotable.app.tracker import UnoTrack, track
from unotable.app.widgets.tracker import TrackerPanel, render_uno
from unotable.app.words import Seats
from unotable.engine import get_game
from unotable.engine.uno import determinize

PILE = ["B6", "B7", "B8", "Y6", "Y7", "Y8", "G6", "G7", "G8", "B9", "Y9", "G9"]
SAMPLES = 40


def names(cards: Any) -> list[str]:
    return sorted(str(c) for c in cards)


def samples(match: Any, seat: int, count: int = SAMPLES) -> list[Any]:
    view = match.view(seat)
    worlds = [determinize(view, random.Random(seed)) for seed in range(count)]
    for world in worlds:
        assert world.view(seat) == view  # the searching seat sees its own position
    return worlds


def assert_same_public_knowledge(match: Any, world: Any) -> None:
    """In the sampled match, what everyone knows is what everyone really knows, and no
    seat that was shown nothing knows anything of a hand (their views' ``known``)."""
    assert world.view(None) == match.view(None)


# -- the views --------------------------------------------------------------------------------


def test_every_view_says_what_all_know_of_each_hand_where_the_cards_went(deal):
    hands = [["R7", "R1", "G7"], ["B1", "B2"], ["Y3", "Y4", "Y5"]]
    pile = ["C", "G6", "G8", "G9", "B9", "Y9"]
    match = deal(hands, pile=pile, game="uno-minecraft", seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    match.apply(1, "draw")  # a Creeper, shown to all (seat 1 revealed it)
    match.apply(1, "keep")
    for seat in (None, 0, 1, 2):
        assert [names(k) for k in match.view(seat).known_to_all] == [[], ["C"], []]
    match.apply(2, "G7!")
    match.apply(2, "swap:1")  # the Creeper's hand goes to seat 2
    for seat in (None, 0, 1, 2):
        view = match.view(seat)
        assert [names(k) for k in view.known_to_all] == [[], [], ["C"]]
        assert view.revealed == (0, 1, 0)  # who revealed it does not move
    assert match.view(None).known == match.view(None).known_to_all


# -- Hard's sampled deals ---------------------------------------------------------------------


def test_after_my_swap_every_sample_puts_my_old_hand_with_the_seat_i_gave_it_to(deal):
    hands = [["R7", "R1", "G1", "W+4", "B5"], ["B1", "B2", "B3"], ["Y3", "Y4", "Y5"], ["G5", "G9"]]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    match.apply(1, "draw")  # seat 1 takes a card nobody else sees
    match.apply(1, "keep")
    for world in samples(match, 0):
        assert names(world.hands[2]) == names(["R1", "G1", "W+4", "B5"])  # exactly
        assert names(world.hands[0]) == ["Y3", "Y4", "Y5"]
        assert len(world.hands[1]) == 4 and len(world.hands[3]) == 2  # the rest at random
        assert_same_public_knowledge(match, world)
    deals = {tuple(names(w.hands[1])) for w in samples(match, 0)}
    assert len(deals) > 1  # the unknown cards really are sampled


def test_after_a_zero_the_hand_i_gave_travels_on_with_each_pass(deal):
    hands = [["R0", "Y0", "B5", "B4"], ["G0", "G3", "G4"], ["Y3", "Y4", "Y5"]]
    match = deal(hands, pile=PILE, seven_o=True)
    match.apply(0, "R0")  # 0 -> 1 -> 2 -> 0: seat 1 holds Y0 B5 B4, as seat 0 knows
    for world in samples(match, 0):
        assert names(world.hands[1]) == ["B4", "B5", "Y0"]
        assert names(world.hands[0]) == ["Y3", "Y4", "Y5"]
    match.apply(1, "Y0")  # passes again: seat 0's old hand, less the Y0, is seat 2's now
    assert names(match.hands[2]) == ["B4", "B5"]
    for world in samples(match, 0):
        assert names(world.hands[2]) == ["B4", "B5"]  # it went on, as seat 0 saw it go
        assert names(world.hands[1]) == ["Y3", "Y4", "Y5"]  # the hand seat 0 gave next
    for world in samples(match, 1):
        assert names(world.hands[2]) == ["B4", "B5"]  # seat 1 gave it: seat 1 knows too


def test_a_public_creeper_stays_public_in_its_new_hand_in_every_sample(deal):
    hands = [["R7", "R1", "G7"], ["B1", "B2"], ["Y3", "Y4", "Y5"]]
    pile = ["C", "G6", "G8", "G9", "B9", "Y9"]
    match = deal(hands, pile=pile, game="uno-minecraft", seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    match.apply(1, "draw")  # the Creeper: shown to all
    match.apply(1, "keep")
    match.apply(2, "G7!")
    match.apply(2, "swap:1")  # seat 2 takes the hand with the Creeper in it
    for searcher in (0, 1):
        for world in samples(match, searcher):
            assert "C" in names(world.hands[2])
            # everyone knows it there in the sampled match too: not the searcher alone
            for seat in (0, 1, 2):
                if seat != 2:
                    assert "C" in names(world.view(seat).known[2])
            assert world.view(None).known[2] == match.view(None).known[2]
            assert_same_public_knowledge(match, world)


def test_a_creeper_seen_in_a_challenge_is_not_made_public_in_samples(deal):
    """Without any house rule: seat 2 revealed a Creeper and played it, and still holds one
    it was dealt. A challenge shows that one to seat 0 alone; samples must keep it so."""
    hands = [["R1", "R6", "B2", "B3"], ["R3", "R4", "B5", "B9"], ["C", "W+4", "G2", "Y2"]]
    pile = ["C", "G6", "G7", "G8", "B6", "B7", "B8", "Y6", "Y7", "Y8", "G9", "Y9"]
    match = deal(hands, pile=pile, game="uno-minecraft", wd4_bluff=True)
    for seat, action in [(0, "R1"), (1, "R3"), (2, "draw"), (2, "C>R"), (0, "R6"), (1, "R4")]:
        match.apply(seat, action)
    match.apply(2, "W+4>B")
    match.apply(0, "challenge")  # not a bluff: seat 0 sees seat 2's hand, Creeper included
    assert "C" in names(match.view(0).known[2]) and match.view(None).known[2] == ()
    assert match.view(2).revealed[2] == 1
    for world in samples(match, 0):
        assert names(world.hands[2]) == names(match.hands[2])
        assert world.view(1).known[2] == ()  # seat 1 was shown nothing
        assert_same_public_knowledge(match, world)


@pytest.mark.parametrize("game", ["uno", "uno-minecraft"])
def test_samples_keep_every_known_card_and_only_public_facts_public(game):
    """Seeded Seven-O matches: from any seat, each sampled deal puts every card that seat
    knows in the hand holding it, and everyone's knowledge equals the real one."""
    options = {"target": 1, "seven_o": True, "stack": "any", "wd4_bluff": True}
    checked = 0
    for players in (2, 3, 4, 6):
        for seed in range(8):
            match = get_game(game).new_match(players, options, seed=seed)
            rng = random.Random(seed)
            steps = 0
            while not (match.hand_over or match.over) and steps < 600:
                seat = match.current
                legal = match.legal_actions(seat)
                plays = [a for a in legal if a.kind == "play"]
                match.apply(seat, rng.choice(plays or legal))
                steps += 1
                if match.hand_over or match.over or not match.hand_moves:
                    continue
                me = rng.randrange(players)
                view = match.view(me)
                world = determinize(view, random.Random(steps))
                for holder, cards in enumerate(view.known):
                    rest = list(world.hands[holder])
                    for card in cards:
                        assert card in rest, f"{game} {players} {seed} {steps}: {card}"
                        rest.remove(card)
                assert world.view(me) == view
                assert world.view(None) == match.view(None), f"{game} {players} {seed} {steps}"
                checked += 1
    assert checked > 300


def test_hards_search_plays_only_in_deals_consistent_with_the_swaps(deal):
    """The search itself (refinements included) never moves a card Hard knows, and in
    every deal it plays out, what all know is public and nothing more."""
    hands = [["R7", "R1", "G7"], ["B1", "B2"], ["Y3", "G4", "G5"]]
    pile = ["C", "G6", "G8", "G9", "B9", "Y9", "B6", "B7", "B8", "Y6", "Y7", "Y8"]
    match = deal(hands, pile=pile, game="uno-minecraft", seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:2")
    match.apply(1, "draw")  # a Creeper, shown to all, and three cards nobody sees
    match.apply(1, "keep")
    match.apply(2, "G7!")
    match.apply(2, "swap:1")  # the Creeper's hand goes to seat 2; seat 0's old one to 1
    view = match.view(0)
    assert [names(k) for k in view.known] == [[], ["R1"], ["C"]]
    assert len(view.legal) > 2  # G4, G5 or draw: something to search
    hard = build("hard", "uno-minecraft", 3, worlds=30)
    brain = hard.brain
    seen: list[tuple[list[list[str]], bool]] = []
    real_playout = brain.playout
    public = match.view(None)

    def playout(world: Any, me: int, action: Any, seed: int) -> float:
        seen.append(([names(h) for h in world.hands], world.view(None) == public))
        return real_playout(world, me, action, seed)

    brain.playout = playout
    action = hard.choose(view)
    assert action in view.legal and not brain.errors
    assert brain.last_stats.get("worlds") == 30, brain.last_stats
    assert seen
    for hands_seen, same_public in seen:
        assert hands_seen[1] == ["R1"] and "C" in hands_seen[2]
        assert same_public


# -- the card tracker -------------------------------------------------------------------------


def test_tracker_lists_the_cards_known_in_each_hand_after_a_swap(deal):
    match = deal([["R7", "R3", "G7", "W+4"], ["B1", "B2"], ["Y3", "Y4", "B5"]], seven_o=True)
    match.apply(0, "R7")
    match.apply(0, "swap:1")
    words = presentation_for("uno")
    seats = Seats(["You", "Bob", "Cy"])
    mine = track("uno", match.view(0), match.events_for(0))
    assert isinstance(mine, UnoTrack)
    assert [names(k) for k in mine.known] == [[], ["G7", "R3", "W+4"], []]
    by = {c.letter: c for c in mine.colours}
    assert by["R"].unseen == 25 - 2 - 1  # R5 and R7 on the pile, R3 known in Bob's hand
    text = render_uno(mine, seats, words).plain
    assert "Bob holds (known): R3 G7 Wild+4" in text
    # Bob knows what he gave; Cy and a spectator know nothing of either hand
    bobs = render_uno(
        track("uno", match.view(1), match.events_for(1)), Seats(["Ann", "You", "Cy"]), words
    )
    assert "Ann holds (known): B1 B2" in bobs.plain
    for viewer in (2, None):
        counts = track("uno", match.view(viewer), match.events_for(viewer))
        assert isinstance(counts, UnoTrack) and not any(counts.known)
        assert "holds (known)" not in render_uno(counts, seats, words).plain
    match.apply(1, "R3")  # a known card played leaves the list
    after = track("uno", match.view(0), match.events_for(0))
    assert isinstance(after, UnoTrack)
    assert "Bob holds (known): G7 Wild+4" in render_uno(after, seats, words).plain


async def test_tracker_at_the_table_shows_the_hand_i_gave_away() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "first", "first"], seed=1, seven_o=True),
        hands=[["R7", "R3", "G9", "W+4"], ["B1", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start_table(pilot, ctrl)
        await pilot.press(key_for(table, "R7"))
        screen = await settle(pilot)
        assert isinstance(screen, ChoiceScreen), type(screen).__name__
        await pilot.press("1")  # swap with Bo
        await until(pilot, lambda: "swap:1" in last_actions(ctrl, 0), "the swap was sent")
        assert await settle(pilot) is table
        known = [str(c) for c in ctrl.view(0).known[1]]
        assert known and set(known) <= {"R3", "G9", "W+4"}
        await pilot.press("k")
        tracker = table.query_one(TrackerPanel)
        await until(pilot, lambda: tracker.display and tracker.counts is not None, "tracker")
        labels = " ".join(presentation_for("uno").label(c) for c in ctrl.view(0).known[1])
        await until(pilot, lambda: f"Bo holds (known): {labels}" in screen_text(app), "known")
        assert "Cy holds (known)" not in screen_text(app)


async def test_hot_seat_tracker_shows_each_human_only_their_own_knowledge() -> None:
    ctrl = with_deal(
        controller("uno", ["human", "human", "first"], seed=1, seven_o=True),
        hands=[["R7", "R3", "G9"], ["R4", "B2", "B3", "B4", "B5"], ["Y1", "Y2", "Y3"]],
        first_discard="R1",
        dealer=2,
        draw_pile=UNO_PILE * 2,
    )
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        table = await start_table(pilot, ctrl)
        await pilot.press(key_for(table, "R7"))
        assert isinstance(await settle(pilot), ChoiceScreen)
        await pilot.press("1")  # Ana swaps with Bo, who plays next
        await until(pilot, lambda: "swap:1" in last_actions(ctrl, 0), "the swap was sent")
        assert isinstance(await settle(pilot), HandOverScreen)
        await pilot.press("enter")
        assert await settle(pilot) is table and table.snap.viewer == 1
        await pilot.press("k")
        tracker = table.query_one(TrackerPanel)
        await until(pilot, lambda: tracker.viewer == 1 and tracker.counts is not None, "tracker")
        # Bo knows the hand he gave Ana; what Ana knows of his new hand is hers alone
        await until(
            pilot, lambda: "Ana holds (known): R4 B2 B3 B4 B5" in screen_text(app), "Bo's view"
        )
        assert "Bo holds (known)" not in screen_text(app)


async def start_table(pilot: Any, ctrl: Any) -> TableScreen:
    from test_app_support import start

    table = await start(pilot, ctrl)
    screen = await settle(pilot)
    if isinstance(screen, HandOverScreen):
        await pilot.press("enter")
        screen = await settle(pilot)
    assert screen is table
    return table
