"""What a human must do now, in words, and the dialogs that ask for each kind of choice."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unotable.controller import Controller
from unotable.engine import Action

from ..cards import CardStyle
from .common import ChoiceScreen

Answer = Callable[[Action | None], None]


def status_for(c: Controller, seat: int, cards: CardStyle, uno_marked: bool) -> str:
    """The status line for the human at ``seat`` whose turn it is."""
    view = c.view(seat)
    name = c.name(seat)
    legal = [a for a in view.legal if a.kind not in ("catch", "uno")]
    kinds = {a.kind for a in legal}
    keys = "←/→ and Enter, or its number" if not cards.ascii_only else "arrows and Enter, or 1-9"
    if c.game_id in ("uno", "uno-minecraft"):
        if "play" not in kinds and "draw" in kinds:
            return f"{name}, nothing in your hand matches: press D to draw a card."
        if "pass" in kinds and "play" not in kinds:
            return f"{name}, there is nothing to draw and nothing to play: press D to pass."
        colour = cards.choice_word(view.active_color) if view.active_color else "any colour"
        face = getattr(view.top, "face", None)
        match = f"{colour}" + (f" or a {face}" if face else "")
        text = f"Your turn, {name}: play a card matching {match} ({keys}), or D to draw."
        if uno_marked:
            text += "\nUNO! will be called with your play (U to undo)."
        elif len(view.hand) == 2 and "play" in kinds:
            text += "\nTwo cards left: press U to call UNO with your play."
        return text
    if "play" not in kinds:
        return f"{name}, make your choice."
    lead = getattr(view, "lead_suit", None)
    if lead:
        return f"Your turn, {name}: follow {cards.suit_word(lead)} if you can ({keys})."
    text = f"Your lead, {name} ({keys})."
    if not view.hearts_broken:
        text += " Hearts are not broken yet."
    return text


def attempt(c: Controller, card: Any) -> Action:
    """The action a human meant by picking a card that is not playable (for the reason)."""
    choice = None
    if getattr(card, "is_wild", False):
        choice = "R"
    elif getattr(card, "wild", False):
        choice = "HIGH" if c.game_id == "wild-twist-hearts" else "Y"
    return Action("play", card=card, choice=choice)


def ask(screen: Any, seat: int, legal: list[Action], answer: Answer) -> None:
    """Push the dialog for a choice that is not a card from the hand."""
    c: Controller = screen.controller
    cards: CardStyle = screen.card_style
    kinds = {a.kind for a in legal}
    names = [s.name for s in c.seats]
    view = c.view(seat)
    options: list[tuple[str, str]] = []
    title, explanation, cancellable = "", "", False
    if "give" in kinds:
        from .passing import PassCardsScreen

        to = names[(seat + 1) % len(names)]
        screen.app.push_screen(PassCardsScreen(list(view.hand), legal, to, cards), answer)
        return
    if "color" in kinds:
        title = "The first card is a Wild: choose the colour"
        explanation = "Choosing does not use up your turn."
        options = [(str(a), _colour_label(a.choice, view.hand, cards)) for a in legal]
    elif "challenge" in kinds:
        offender = _previous_player(view)
        who = names[offender] if offender is not None else "They"
        title = "A Wild Draw Four was played on you"
        explanation = (
            f"Challenge if you think {who} held a card of the colour on the pile. "
            f"If so, {who} draws 4 and you play on; if not, you draw 6 and miss your turn."
        )
        options = [("challenge", f"Challenge {who}"), ("accept", "Accept: draw 4, miss the turn")]
    elif "direction" in kinds:
        n = len(names)
        title = "Pass Hand! Which way do all hands go?"
        explanation = "Every player passes their whole hand; then you lead."
        options = [
            ("direction:left", f"Left: each hand moves on, yours to {names[(seat + 1) % n]}"),
            ("direction:right", f"Right: back the other way, yours to {names[(seat - 1) % n]}"),
        ]
    elif "moon" in kinds:
        points = c.match.moon_points
        title = "You shot the moon!"
        explanation = "Choose how to score it."
        options = [
            ("moon:self", f"Take {points} off my own total"),
            ("moon:others", f"Add {points} to everyone else"),
        ]
    elif "keep" in kinds:
        drawn = getattr(view, "drawn", None)
        label = cards.label(drawn) if drawn is not None else "it"
        title = f"You drew {label}, and it can be played"
        options = [
            (str(a), f"Play {cards.play_label(a.card, a.choice)}" + (" (UNO!)" if a.uno else ""))
            for a in legal
            if a.kind == "play" and (a.uno == screen.uno_marked or not _has_uno_variant(legal))
        ]
        options.append(("keep", "Keep it and end the turn"))
    elif "decline" in kinds:
        title = "You hold the Wild Club"
        explanation = "You may open the game with it as LOWEST, or decline."
        options = []
        for a in legal:
            if a.kind == "decline":
                options.append(("decline", "Decline: the lowest club opens"))
            else:
                options.append((str(a), f"Open with {cards.play_label(a.card, a.choice)}"))
    by_key = {str(a): a for a in legal}
    screen.app.push_screen(
        ChoiceScreen(title, options, explanation=explanation, cancellable=cancellable),
        lambda key: answer(_chosen(by_key, key, c)),
    )


def _chosen(by_key: dict[str, Action], key: str | None, c: Controller) -> Action | None:
    if key is None:
        return None
    if key in by_key:
        return by_key[key]
    return c.match.parse_action(key)


def _has_uno_variant(legal: list[Action]) -> bool:
    return any(a.uno for a in legal)


def ask_declaration(
    screen: Any, card: Any, plays: list[Action], answer: Answer, cards: CardStyle
) -> None:
    """Ask which colour, suit, or HIGHEST/LOWEST a wild is played as."""
    c: Controller = screen.controller
    seat = screen.acting_human()
    view = c.view(seat if seat is not None else 0)
    label = cards.label(card)
    if c.game_id == "wild-twist-hearts":
        title = f"Play {label} as HIGHEST or LOWEST?"
        options = [
            (str(a), "HIGHEST: above the Ace" if a.choice == "HIGH" else "LOWEST: below the 2")
            for a in plays
        ]
        explanation = "It only counts when it is of the suit led."
    elif c.game_id == "uno-hearts":
        title = f"Play {label}: call which suit?"
        options = [(str(a), cards.suit_word(a.choice)) for a in plays]
        explanation = "Only suits you hold no natural card of can be called."
    else:
        title = f"Play {label}: choose the colour"
        options = [(str(a), _colour_label(a.choice, view.hand, cards)) for a in plays]
        explanation = ""
    by_key = {str(a): a for a in plays}
    screen.app.push_screen(
        ChoiceScreen(title, options, explanation=explanation),
        lambda key: answer(by_key.get(key) if key else None),
    )


def _colour_label(letter: str | None, hand: tuple[Any, ...], cards: CardStyle) -> str:
    held = sum(1 for card in hand if getattr(card, "color", None) == letter)
    return f"{cards.suit_word(letter)}  (you hold {held})"


def _previous_player(view: Any) -> int | None:
    if view.current is None:
        return None
    return (view.current - getattr(view, "direction", 1)) % view.players
