"""The middle of the table: the discard pile (UNO) or the current trick (Hearts games)."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from ..cards import CardStyle

HEARTS_GAMES = ("uno-hearts", "wild-twist-hearts")


class CenterPanel(Static):
    def show(self, view: Any, names: list[str], cards: CardStyle, recent: list[str]) -> None:
        if view.game in HEARTS_GAMES:
            body = render_trick(view, names, cards)
            self.border_title = f"Hand {view.hand_number} · trick {len(view.tricks) + 1}"
        else:
            body = render_pile(view, names, cards)
            self.border_title = f"Hand {view.hand_number}"
        if recent:
            body.append("\n")
            for line in recent[-6:]:
                body.append("\n" + line, style=Style(italic=True))
        self.update(body)


def _box(cards: CardStyle) -> tuple[str, str, str, str, str, str]:
    if cards.ascii_only:
        return "+", "+", "+", "+", "-", "|"
    return "╭", "╮", "╰", "╯", "─", "│"


def render_pile(view: Any, names: list[str], cards: CardStyle) -> Text:
    tl, tr, bl, br, h, v = _box(cards)
    top_label = cards.label(view.top)
    inner = max(8, len(top_label) + 2)
    pile_text = str(view.draw_pile_size)
    pile_inner = max(6, len(pile_text) + 2)
    text = Text()
    text.append(f" Discard{' ' * (inner - 5)}Draw pile\n", style=Style(dim=True))
    text.append(f" {tl}{h * inner}{tr}  {tl}{h * pile_inner}{tr}\n")
    text.append(f" {v}")
    chip_style = cards.style(view.top, choice=view.active_color if view.top.is_wild else None)
    text.append(top_label.center(inner), style=chip_style)
    text.append(f"{v}  {v}{pile_text.center(pile_inner)}{v}\n")
    text.append(f" {bl}{h * inner}{br}  {bl}{h * pile_inner}{br}\n")
    if view.active_color is None:
        text.append(" Colour: not chosen yet (the first card is a Wild)")
    else:
        text.append(" Match ")
        text.append_text(cards.colour_chip(view.active_color))
        face = getattr(view.top, "face", None)
        if face is not None:
            text.append(f" or {face}")
    pending = _pending(view, names)
    if pending:
        text.append("\n " + pending, style=Style(bold=True))
    creepers = [f"{names[s]} x{n}" for s, n in enumerate(view.revealed) if n]
    if creepers:
        text.append("\n Creepers revealed: " + ", ".join(creepers))
    return text


def _pending(view: Any, names: list[str]) -> str:
    current = view.current
    who = names[current] if current is not None else ""
    if view.phase == "over":
        return "The match is over."
    if view.active_color is None:
        return f"{who} chooses the colour."
    if view.challenge_color is not None or (view.pending == "challenge"):
        return f"{who} must answer a Wild Draw Four: challenge or accept."
    if view.pending == "drawn":
        # only the drawing seat sees its card: nobody else learns whether it can be played
        if view.drawn is not None:
            return "Play the card you drew, or keep it."
        return f"{who} drew a card."
    if view.exposed is not None:
        return f"{names[view.exposed]} has one card and did not call UNO!"
    return ""


def render_trick(view: Any, names: list[str], cards: CardStyle) -> Text:
    text = Text()
    lead = view.lead_suit
    if lead:
        text.append(" Lead: ")
        text.append_text(cards.colour_chip(lead))
    else:
        leader = view.current if view.current is not None else view.leader
        who = names[leader] if leader is not None else "?"
        text.append(f" Lead: {who}", style=Style(dim=True))
    text.append("  Hearts broken" if view.hearts_broken else "  Hearts not broken")
    text.append("\n")
    plays = list(view.trick)
    last = getattr(view, "last_trick", None)
    if not plays and last is not None and view.tricks:
        # Between tricks, the one just taken stays in view so it can be followed.
        _, winner, plays = last
        text.append(f" {names[winner]} took the last trick:\n", style=Style(italic=True))
    elif not plays:
        text.append(" (no cards played to this trick yet)", style=Style(dim=True))
    for i, (seat, card, declared) in enumerate(plays):
        name = names[seat][:9]
        cell = Text(f" {name:<9} ")
        cell.append_text(cards.text(card, choice=declared))
        pad = max(0, 20 - cell.cell_len)
        text.append_text(cell)
        text.append(" " * pad if i % 2 == 0 else "\n")
    if plays and len(plays) % 2 == 1:
        text.append("\n")
    extra = []
    pile = getattr(view, "draw_pile_size", None)
    if view.game == "uno-hearts" and pile is not None:
        extra.append(f"Draw pile {pile}")
    leftovers = getattr(view, "leftovers_count", 0)
    if leftovers:
        to = getattr(view, "leftovers_to", None)
        where = f"taken by {names[to]}" if to is not None else "go to the first trick's winner"
        extra.append(f"{leftovers} left-over card(s) {where}")
    if extra:
        text.append("\n " + " · ".join(extra), style=Style(dim=True))
    return text
