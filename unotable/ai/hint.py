"""A hint for the seat to act: what the Normal level would do, and why, from public facts.

``hint(view, game_id)`` asks a fresh Normal player (seeded by the hand number, so the same
position always gets the same hint) for its choice and explains it with
:class:`ReasonPart` values: plain data naming a kind of reason, and the card, suit, seat or
count it is about. The app words them in each game's own words (``unotable.app.hints``);
nothing here knows how a card is drawn.

Every reason is read from the view: the seat's own hand, the cards played this hand, the
voids seats have shown, hand sizes, the pile. Nothing hidden is ever used, so two
positions a seat cannot tell apart always get the same hint.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unotable.engine import Action

from . import make_player
from .cards import UNO_COLOURS, trick_card, uno_card
from .strategies import strategy_for

ATTACK_KINDS = ("skip", "draw2", "wd4")
MAX_PARTS = 2  # one line of why: the two most telling reasons


@dataclass(frozen=True, slots=True)
class ReasonPart:
    """One reason, as data. ``kind`` says which; the other fields are what it is about.

    UNO kinds: ``uno_call``, ``attack`` (seat, count: its cards), ``most_colour`` (suit,
    count, ``change``: the play switches to it), ``saves_wild``, ``dump_points`` (card,
    count: its points), ``only_play``, ``matches``, ``draw_nothing_playable``,
    ``draw_keep_wild``, ``nothing_to_draw``, ``keep_drawn`` (card), ``play_drawn``,
    ``late_uno``, ``catch`` (seat), ``challenge`` / ``accept`` (seat, suit),
    ``choose_colour`` (suit, count). House rules (RULES §4): ``stack`` (card, seat: who
    the draw goes to next, count: its cards then), ``take_draw`` (count: nothing to stack
    with), ``keep_wd4`` (count: a Wild Draw Four kept back from a small draw),
    ``swap_fewest`` (seat, count: its cards), ``seven_swap`` (seat, count: the hand a 7
    takes), ``zero_pass`` (seat, count: the hand a 0 brings in from that seat).

    Hearts kinds: ``void`` (suit), ``winning`` (seat, card: the card winning the trick),
    ``under`` (seat, card), ``trick_points`` (count), ``take_safe``, ``forced_over``
    (suit), ``shed_high`` (suit), ``dump_points`` (card, count), ``high_card`` (card,
    count: unseen cards of its suit it beats), ``makes_void`` (suit), ``safe_low`` (card,
    count: unseen cards of its suit that beat it), ``nobody_follows`` (suit),
    ``moon_stop`` (seat), ``only_play``, ``other``.
    """

    kind: str
    card: Any = None
    suit: str | None = None
    seat: int | None = None
    count: int = 0
    change: bool = False


@dataclass(frozen=True, slots=True)
class Hint:
    """What to do (one of the view's legal actions), how to say it, and why.

    ``verb`` is ``play``, ``lead``, ``follow``, ``dump``, ``discard``, ``draw``, ``pass``,
    ``keep``, ``uno``, ``catch``, ``challenge``, ``accept``, ``colour``, ``stack`` (a play
    on a pending draw), ``swap`` (Seven-O's choice after a 7) or ``other``.
    """

    action: Action
    verb: str
    reason_parts: tuple[ReasonPart, ...]


def normal_choice(view: Any, game_id: str) -> Action:
    """The Normal level's choice, from a fresh player seeded by the hand number."""
    player = make_player("normal", game_id, seed=int(view.hand_number))
    return player.choose(view)


def hint(view: Any, game_id: str) -> Hint | None:
    """The Normal level's choice for ``view`` and why; None when there is nothing to do."""
    if view.seat is None or not view.legal:
        return None
    action = normal_choice(view, game_id)
    reasons = strategy_for(game_id).reasons
    if reasons is None:
        verb, parts = "other", [ReasonPart("other")]
    else:
        verb, parts = reasons(view, action)
    return Hint(action, verb, tuple(parts[:MAX_PARTS]))


# -- UNO ----------------------------------------------------------------------------------


def _colour_counts(hand: Sequence[Any], without: Any = None) -> dict[str, int]:
    counts = dict.fromkeys(UNO_COLOURS, 0)
    skipped = False
    for card in hand:
        if card is without and not skipped:
            skipped = True
            continue
        colour = uno_card(card).colour
        if colour is not None:
            counts[colour] += 1
    return counts


def _turn_plays(view: Any) -> list[Action]:
    return [a for a in view.legal if a.kind == "play"]


def uno_reasons(view: Any, action: Action) -> tuple[str, list[ReasonPart]]:
    kind = action.kind
    plays = _turn_plays(view)
    if kind == "uno":
        return "uno", [ReasonPart("late_uno")]
    if kind == "catch":
        return "catch", [ReasonPart("catch", seat=action.target)]
    pending_draw = getattr(view, "pending_draw", 0)
    if kind == "accept" and view.pending == "stack":
        if plays:
            return "accept", [ReasonPart("keep_wd4", count=pending_draw)]
        return "accept", [ReasonPart("take_draw", count=pending_draw)]
    if kind == "play" and view.pending in ("stack", "challenge"):
        victim = (view.seat + view.direction) % view.players
        wd4 = action.card is not None and uno_card(action.card).kind == "wd4"
        total = pending_draw + (4 if wd4 else 2)
        return "stack", [ReasonPart("stack", card=action.card, seat=victim, count=total)]
    if kind == "swap":
        target = action.target
        size = view.hand_sizes[target] if target is not None else 0
        return "swap", [ReasonPart("swap_fewest", seat=target, count=size)]
    if kind in ("challenge", "accept"):
        offender = (view.current - view.direction) % view.players
        return kind, [ReasonPart(kind, seat=offender, suit=view.challenge_color)]
    if kind == "color":
        counts = _colour_counts(view.hand)
        choice = action.choice or ""
        return "colour", [ReasonPart("choose_colour", suit=choice, count=counts.get(choice, 0))]
    if kind == "draw":
        if not plays:
            return "draw", [ReasonPart("draw_nothing_playable")]
        return "draw", [ReasonPart("draw_keep_wild")]
    if kind == "pass":
        return "pass", [ReasonPart("nothing_to_draw")]
    if kind == "keep":
        return "keep", [ReasonPart("keep_drawn", card=view.drawn)]
    if kind != "play":
        return "other", [ReasonPart("other")]
    return "play", _uno_play_reasons(view, action, plays)


def _uno_play_reasons(view: Any, action: Action, plays: list[Action]) -> list[ReasonPart]:
    card = action.card
    info = uno_card(card)
    parts: list[ReasonPart] = []
    if action.uno:
        parts.append(ReasonPart("uno_call"))
    n = view.players
    victim = (view.seat + view.direction) % n
    victim_size = view.hand_sizes[victim]
    attacks = info.kind in ATTACK_KINDS or (info.kind == "rev" and n == 2)
    if attacks and victim_size <= 4:
        parts.append(ReasonPart("attack", card=card, seat=victim, count=victim_size))
    counts = _colour_counts(view.hand, without=card)
    colour = info.colour or action.choice
    if colour is not None and counts[colour] and counts[colour] == max(counts.values()):
        change = colour != view.active_color
        parts.append(ReasonPart("most_colour", suit=colour, count=counts[colour], change=change))
    distinct = {a.card for a in plays}
    if len(distinct) == 1:
        parts.insert(0, ReasonPart("only_play", card=card))
    elif info.colour is not None and any(uno_card(c).colour is None for c in view.hand):
        parts.append(ReasonPart("saves_wild"))
    if info.points >= 20 and info.colour is not None and not attacks:
        parts.append(ReasonPart("dump_points", card=card, count=info.points))
    if view.pending == "drawn":
        parts.insert(0, ReasonPart("play_drawn", card=card))
    options = getattr(view, "options", {})
    if options.get("seven_o") and info.number in (0, 7) and len(view.hand) > 1:
        if info.number == 7:
            seat = min((s for s in range(n) if s != view.seat), key=lambda s: view.hand_sizes[s])
            parts.insert(0, ReasonPart("seven_swap", seat=seat, count=view.hand_sizes[seat]))
        else:
            behind = (view.seat - view.direction) % n
            parts.insert(0, ReasonPart("zero_pass", seat=behind, count=view.hand_sizes[behind]))
    if not parts:
        parts.append(ReasonPart("matches", card=card, suit=view.active_color))
    return parts


# -- Hearts -------------------------------------------------------------------------------


def hearts_reasons(view: Any, action: Action) -> tuple[str, list[ReasonPart]]:
    from .hearts import current_winner, later_seats, read_table, strength

    if action.kind != "play":
        return "other", [ReasonPart("other")]
    table = read_table(view)
    game = table.game
    card = action.card
    info = trick_card(card)
    plays = [a for a in view.legal if a.kind == "play"]
    only = len({a.card for a in plays}) == 1
    parts: list[ReasonPart] = []
    if only:
        parts.append(ReasonPart("only_play", card=card))
    lead = table.lead
    if lead is None:
        return "lead", parts + _lead_reasons(table, action, info)
    winner, best = current_winner(table)
    winning_card = next((c for s, c, _d in table.trick if s == winner), None)
    follows = table.facts.follows(card, action.choice, lead)
    trick_points = sum(trick_card(c).points for _s, c, _d in table.trick)
    if follows:
        mine = strength(game, card, action.choice, lead)
        if table.moon_threat is not None and winner == table.moon_threat and mine > best:
            return "follow", [*parts, ReasonPart("moon_stop", seat=winner)]
        if mine < best:
            parts.append(ReasonPart("under", card=winning_card, seat=winner))
            if trick_points:
                parts.append(ReasonPart("trick_points", count=trick_points))
            return "follow", parts
        following = [a for a in plays if table.facts.follows(a.card, a.choice, lead)]
        if all(strength(game, a.card, a.choice, lead) > best for a in following) and not only:
            parts.append(ReasonPart("forced_over", suit=lead, card=winning_card, seat=winner))
        if not later_seats(table) and not trick_points:
            parts.append(ReasonPart("take_safe"))
        elif not info.points:
            parts.append(ReasonPart("shed_high", suit=lead))
        return "follow", parts
    void = not any(trick_card(c).suit == lead and not trick_card(c).wild for c in table.hand)
    if void:
        parts.append(ReasonPart("void", suit=lead))
    if winner >= 0 and winner != table.me:
        parts.append(ReasonPart("winning", card=winning_card, seat=winner))
    if info.points:
        parts.append(ReasonPart("dump_points", card=card, count=info.points))
    else:
        mine_in_suit = sum(1 for c in table.hand if trick_card(c).suit == info.suit)
        if info.suit is not None and mine_in_suit == 1:
            parts.append(ReasonPart("makes_void", suit=info.suit))
        elif not info.wild:
            beats = sum(1 for r in table.unseen_by_suit.get(info.suit or "", ()) if r < info.rank)
            parts.append(ReasonPart("high_card", card=card, count=beats))
    return ("dump" if info.points else "discard"), parts


def _lead_reasons(table: Any, action: Action, info: Any) -> list[ReasonPart]:
    parts: list[ReasonPart] = []
    suit = table.facts.lead_suit(action.card, action.choice) or ""
    others = [s for s in range(table.n) if s != table.me and suit not in table.voids[s]]
    ranks = table.unseen_by_suit.get(suit, [])
    if not others:
        parts.append(ReasonPart("nobody_follows", suit=suit))
    elif not info.wild:
        higher = sum(1 for r in ranks if r > info.rank)
        if higher:
            parts.append(ReasonPart("safe_low", card=action.card, count=higher))
    held = sum(1 for c in table.hand if trick_card(c).suit == suit)
    if held == 1 and suit:
        parts.append(ReasonPart("makes_void", suit=suit))
    if not parts:
        parts.append(ReasonPart("other"))
    return parts


__all__ = ["Hint", "ReasonPart", "hint", "normal_choice"]
