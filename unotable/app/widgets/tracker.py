"""The card tracker panel (K): what a careful player would remember of this hand.

The counting is ``unotable.app.tracker`` (public facts, and the cards the viewer's own
view knows in other hands); this panel keeps the viewer's events of the match as the
table's snapshots bring them in, and draws the counts in the game's own card labels and
colour words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from unotable.controller import Snapshot
from unotable.engine import Event

from ..games import GamePresentation
from ..tracker import HeartsTrack, Track, UnoTrack, track
from ..words import Seats, plural

DIM = Style(dim=True)
BOLD = Style(bold=True)
LIST_AT_MOST = 8  # out cards listed by name; more are summed up


class TrackerPanel(VerticalScroll, can_focus=False):
    """Scrolls with the mouse if it must; it never takes the keys from the hand."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.events: list[Event] = []  # the viewer's log of the match, from its start
        self.viewer: int | str | None = "unset"
        self.counts: Track | None = None
        self._body: Text | None = None  # what the body shows

    def compose(self) -> ComposeResult:
        yield Static("", id="tracker-body")

    def feed(self, snap: Snapshot) -> None:
        """Take in a snapshot's events: from 0 the whole log, else only what is new."""
        if snap.viewer != self.viewer or snap.log_start == 0:
            self.events = []
            self.viewer = snap.viewer
        if snap.log_start > len(self.events):
            return  # a gap (cannot happen while fed every snapshot): keep what we have
        del self.events[snap.log_start :]  # an undo may have taken events back
        self.events.extend(snap.events)

    def show(self, snap: Snapshot, names: Sequence[str], cards: GamePresentation) -> None:
        self.feed(snap)
        if not self.display:
            return
        self.counts = track(snap.game, snap.view, self.events)
        seats = Seats(names)
        if isinstance(self.counts, UnoTrack):
            body = render_uno(self.counts, seats, cards)
        else:
            body = render_hearts(self.counts, seats, cards)
        if body != self._body:  # most moves change nothing the tracker counts
            self._body = body
            self.query_one("#tracker-body", Static).update(body)


def _seat_list(seats: Seats, items: Sequence[tuple[int, str]]) -> str:
    return ", ".join(f"{seats.subject(s)}{(' ' + extra) if extra else ''}" for s, extra in items)


def render_uno(t: UnoTrack, seats: Seats, cards: GamePresentation) -> Text:
    text = Text()
    text.append(f"{'':11}Played Yours Unseen\n", style=DIM)
    for c in t.colours:
        chip = cards.colour_chip(c.letter)
        chip.truncate(11, pad=True)
        text.append_text(chip)
        text.append(f"{c.played:>6} {c.yours:>5} {c.unseen:>6}\n")
    names = {"W": "Wild", "W+4": "Wild+4", "C": "Creeper"}
    wilds = ", ".join(f"{names.get(w, w)} {n}" for w, n in t.wilds_played)
    text.append(f"Wilds played: {wilds}\n")
    creepers = [(s, str(n) if n > 1 else "") for s, n in enumerate(t.creepers) if n]
    if creepers:
        text.append(f"Creepers shown: {_seat_list(seats, creepers)}\n")
    for seat, held in enumerate(t.known):  # a challenge showed them, or a Seven-O hand moved
        if held:
            text.append(f"{seats.subject(seat)} holds (known): ", style=BOLD)
            text.append(cards.card_list(held) + "\n")
    arrow = "->" if cards.ascii_only else "→"
    shown = []
    if t.last_wild is not None and t.last_wild is not t.last_wd4:
        shown.append((f"Last {cards.label(t.last_wild.card)}", t.last_wild))
    if t.last_wd4 is not None:
        shown.append((f"Last {cards.label(t.last_wd4.card)}", t.last_wd4))
    for title, play in shown:
        before = cards.choice_word(play.before) or "nothing"
        after = cards.choice_word(play.after) or "?"
        text.append(f"{title}: {seats.subject(play.seat)}, {before} {arrow} {after}\n")
    if t.one_card:
        called = set(t.called_uno)
        items = [(s, "(UNO called)" if s in called else "(no call)") for s in t.one_card]
        text.append("One card: ", style=BOLD)
        text.append(_seat_list(seats, items) + "\n")
    else:
        text.append("Nobody is on one card\n", style=DIM)
    pile = "" if t.draw_pile is None else f"Draw pile {t.draw_pile}"
    if t.reshuffles:
        pile += f"{' · ' if pile else ''}reshuffled {plural(t.reshuffles, 'time')}"
    text.append(pile)
    return text


def _suit_line(cards: GamePresentation, letter: str | None) -> Text:
    if letter is None:
        return Text("Wild Draws", style=cards.colour_style("wild"))
    return cards.colour_chip(letter)


def render_hearts(t: HeartsTrack, seats: Seats, cards: GamePresentation) -> Text:
    text = Text()
    for suit in t.suits:
        text.append_text(_suit_line(cards, suit.letter))
        text.append(f" {len(suit.played)} played, {len(suit.out)} out")
        if suit.yours:
            text.append(f", {suit.yours} yours", style=DIM)
        text.append("\n")
        if not suit.out:
            continue
        out = list(suit.out)
        if len(out) <= LIST_AT_MOST:
            text.append("  out: " + cards.card_list(out) + "\n", style=DIM)
        else:
            top = sorted(out, key=lambda c: -c.rank)[:4]
            text.append("  highest out: " + cards.card_list(top) + "\n", style=DIM)
    voids = [
        (s, " ".join(_suit_symbol(cards, v) for v in sorted(vs)))
        for s, vs in enumerate(t.voids)
        if vs
    ]
    text.append("Voids: ", style=BOLD)
    text.append((_seat_list(seats, voids) if voids else "none shown") + "\n")
    text.append(f"Points out: {t.points_out} of {t.points_total}")
    if t.points_yours:
        text.append(f" ({t.points_yours} yours)")
    text.append("\n")
    takers = [(s, str(p)) for s, p in enumerate(t.points_taken) if p]
    text.append("Taken: ", style=BOLD)
    text.append((_seat_list(seats, takers) if takers else "nobody yet") + "\n")
    danger = cards.label(t.danger)
    where = {
        "taken": f"taken by {seats.object(t.danger_seat)}",
        "trick": f"in the trick ({seats.subject(t.danger_seat)})",
        "yours": "in your hand",
        "out": "not seen yet",
    }[t.danger_state]
    text.append(f"{danger}: {where}")
    if t.draw_pile is not None:
        text.append(f"\nDraw pile {t.draw_pile}", style=DIM)
    if t.leftovers:
        text.append(f"\n{plural(t.leftovers, 'left-over card')}, never shown", style=DIM)
    return text


def _suit_symbol(cards: GamePresentation, letter: str) -> str:
    """A suit in few letters for the voids line: '♠' (or 'S'), 'Y'."""
    word = cards.suit_word(letter)
    last = word.split(" ")[-1].strip("()")
    return last or letter
