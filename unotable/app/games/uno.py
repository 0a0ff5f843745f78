"""UNO and UNO Minecraft: colour cards, the discard pile, UNO calls, challenges, Creepers."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text

from unotable.engine import Event
from unotable.engine.uno.cards import (
    COLORS,
    CREEPER,
    CREEPER_CARD,
    DRAW_TWO,
    NUMBER,
    REVERSE,
    SKIP,
    WILD,
    WILD_DRAW_FOUR,
)

from ..words import Seats, article, plural
from .base import NOT_MINE, Ask, Dialog, GamePresentation, SeatRow

COLOUR_KEYS = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
COLOUR_WORDS = {"R": "Red", "Y": "Yellow", "G": "Green", "B": "Blue"}
WILD_LABELS = {WILD: "Wild", WILD_DRAW_FOUR: "Wild+4", CREEPER: "Creeper"}
ACTION_WORDS = {SKIP: "Skip", REVERSE: "Reverse", DRAW_TWO: "Draw Two"}
PENALTY_REASONS = {
    "draw_two": "for a Draw Two",
    "wild_draw_four": "for a Wild Draw Four",
    "challenge": "after the challenge",
    "catch": "for being caught without calling UNO",
    "stack": "for the stacked draw",
}


class UnoPresentation(GamePresentation):
    game_id: ClassVar[str] = "uno"
    title: ClassVar[str] = "UNO"
    has_uno_calls: ClassVar[bool] = True
    # the discard box's inside: the widest card label of the deck ("Wild+4") and a space
    # each side, so the box and the draw pile beside it never move as the top card changes
    pile_width: ClassVar[int] = len("Wild+4") + 2
    # the house rules (RULES §4) in the lobby: a short line each, in players' words
    option_words: ClassVar[dict[str, dict[Any, str]]] = {
        "stack": {"off": "off", "same": "same card", "any": "+4 on +2 too"},
    }
    option_help: ClassVar[dict[str, str]] = {
        "stack": "Answer a Draw Two or Wild Draw Four with another: the draw grows and passes on.",
        "seven_o": "A 7 swaps hands with a player you choose; a 0 passes every hand along.",
        "draw_to_match": "Drawing on your turn goes on until you draw a card you can play.",
    }

    # -- card faces -----------------------------------------------------------------------

    def label(self, card: Any) -> str:
        """'R7', 'R+2', 'Y-skip', 'Wild', 'Wild+4', 'Creeper'."""
        return WILD_LABELS.get(card.effect, card.text)

    def colour_key(self, card: Any) -> str:
        return "wild" if card.is_wild else COLOUR_KEYS[card.color]

    def letter_colour_key(self, letter: str) -> str:
        return COLOUR_KEYS.get(letter, "wild")

    def declared_colour_key(self, card: Any, choice: str | None) -> str:
        if choice is not None and card.is_wild:
            return self.letter_colour_key(choice)
        return self.colour_key(card)

    def sort_key(self, card: Any, by: str) -> tuple[int, ...]:
        # wilds after every colour and every value
        key = (4, 13 + card.index) if card.is_wild else (card.color_index, card.index % 13)
        return key if by == "suit" else key[::-1]

    def choice_word(self, choice: str | None) -> str:
        return "" if choice is None else COLOUR_WORDS.get(choice, choice)

    def suit_word(self, letter: str | None) -> str:
        return "" if letter is None else f"{COLOUR_WORDS.get(letter, letter)} ({letter})"

    def face_word(self, card: Any) -> str | None:
        """What else a card matches besides its colour: '8', 'Skip'; None for a wild."""
        if card.is_wild:
            return None
        return card.face if card.effect == NUMBER else ACTION_WORDS[card.effect]

    # -- prompts and dialogs --------------------------------------------------------------

    def status(self, view: Any, name: str, uno_marked: bool) -> str:
        kinds = {a.kind for a in view.legal if a.kind not in ("catch", "uno")}
        you = "" if name == "You" else f", {name}"
        if view.pending == "challenge":
            answer = (
                "challenge, accept or stack on it" if "play" in kinds else "challenge or accept it"
            )
            return (
                f"A Wild Draw Four was played on you{you}, over "
                f"{self.choice_word(view.challenge_color)}: {answer} in the dialog."
            )
        if view.pending == "stack":
            return self.stack_status(view, you, "play" in kinds)
        if view.pending == "swap":
            return f"You played a 7{you}: choose whom to swap hands with, in the dialog."
        if view.pending == "drawn" and view.drawn is not None:
            return f"You drew {self.label(view.drawn)}{you}: play it or keep it, in the dialog."
        if view.pending == "color":
            return f"The first card is a Wild{you}: choose its colour in the dialog."
        to_match = bool(view.options.get("draw_to_match"))  # H-3: D draws until one plays
        if "play" not in kinds and "draw" in kinds:
            if to_match:
                return f"Nothing in your hand matches{you}: press D to draw until a card does."
            return f"Nothing in your hand matches{you}: press D to draw a card."
        if "pass" in kinds and "play" not in kinds:
            return f"There is nothing to draw and nothing to play{you}: press D to pass."
        colour = self.choice_word(view.active_color) if view.active_color else "any colour"
        face = self.face_word(view.top)
        match = colour + (f" or {article(face)} {face}" if face else "")
        draw = "D to draw until a card matches" if to_match else "D to draw"
        reminder = ""
        if uno_marked:
            reminder = "UNO! will be called with your play (U to undo)."
        elif len(view.hand) == 2 and "play" in kinds:
            reminder = "Two cards left: press U to call UNO with your play."
        # with a reminder the keys are left to the keys bar: the status keeps its two rows at
        # 80 columns, where a third would lay the table out anew, and back, on such turns
        keys = "" if reminder else f" ({self.keys_hint()})"
        text = f"Your turn{you}: play a card matching {match}{keys}, or {draw}."
        return f"{text}\n{reminder}" if reminder else text

    def stack_status(self, view: Any, you: str, can_stack: bool) -> str:
        """A draw aimed at the player (stacking, RULES §4.1): how many cards, and what to do."""
        count = view.pending_draw
        cards = plural(count, "card")
        if not can_stack:
            return (
                f"{cards} are aimed at you{you}, and you have nothing to stack on them: "
                f"press D to take the {cards}."
            )
        return (
            f"Draw {count} or stack {self.stackable(view)}{you}: {cards} are pending. "
            f"Stack with {self.keys_hint()}, or press D to take the {cards}."
        )

    def key_word(self, action: str, view: Any, kinds: set[str]) -> str | None:
        # D takes a draw aimed at the player (stacking, RULES §4.1): say how many
        if action == "draw" and "accept" in kinds and "draw" not in kinds:
            return f"Take {view.pending_draw}"
        return None

    def stackable(self, view: Any) -> str:
        """What may go on the pending draw, in words: 'a Draw Two or a Wild Draw Four'."""
        if view.top.effect == WILD_DRAW_FOUR:
            return "a Wild Draw Four"
        if view.options.get("stack") == "any":
            return "a Draw Two or a Wild Draw Four"
        return "a Draw Two"

    def attempt_choice(self, card: Any) -> str | None:
        return COLORS[0] if card.is_wild else None

    def dialog(self, ask: Ask) -> Dialog | None:
        view, legal, names = ask.view, ask.legal, ask.names
        kinds = {a.kind for a in legal}
        if "color" in kinds:
            return Dialog(
                "The first card is a Wild: choose the colour",
                [(str(a), self.held_label(a.choice, view.hand)) for a in legal],
                "Choosing does not use up your turn.",
            )
        if "challenge" in kinds:
            offender = (view.current - view.direction) % view.players
            who = names.object(offender)  # mid-sentence: "you" when it is the reader
            draws = names.verb(offender, "draws")
            colour = self.choice_word(view.challenge_color)
            options = [
                ("challenge", f"Challenge {who}"),
                ("accept", "Accept: draw 4, miss the turn"),
            ]
            explanation = (
                f"The colour on the pile was {colour}. Challenge if you think {who} held "
                f"{article(colour)} {colour} card. If so, {who} {draws} 4 and you play on; "
                "if not, you draw 6 and miss your turn."
            )
            stacks = self.stack_options(ask)
            if stacks:
                options += stacks
                explanation += " Or stack a Wild Draw Four on it: the draw grows and moves on."
            return Dialog(
                f"A Wild Draw Four was played on you, over {colour}", options, explanation
            )
        if "swap" in kinds:
            return Dialog(
                "Swap hands with whom?",
                [
                    (
                        str(a),
                        f"{names.subject(a.target)} ({plural(view.hand_sizes[a.target], 'card')})",
                    )
                    for a in legal
                    if a.kind == "swap"
                ],
                "You played a 7: you take the hand of the player you choose, and they take yours.",
            )
        if "keep" in kinds:
            label = self.label(view.drawn) if view.drawn is not None else "it"
            plays = [a for a in legal if a.kind == "play"]
            # the play that leaves one card is offered with the UNO call first: U cannot
            # be pressed while the dialog is open
            calls = [a for a in plays if a.uno]
            options = [
                (str(a), f"Play {self.play_label(a.card, a.choice)} and call UNO!") for a in calls
            ]
            plain = "Play {} without calling UNO" if calls else "Play {}"
            options += [
                (str(a), plain.format(self.play_label(a.card, a.choice)))
                for a in plays
                if not a.uno
            ]
            options.append(("keep", "Keep it and end the turn"))
            return Dialog(f"You drew {label}, and it can be played", options)
        return None

    def stack_options(self, ask: Ask) -> list[tuple[str, str]]:
        """The stacking plays on a pending draw, as dialog answers, each saying where the
        grown draw goes: 'Stack Wild+4→R: 8 cards go to Cy' (UNO calls first)."""
        view, names = ask.view, ask.names
        plays = [a for a in ask.legal if a.kind == "play"]
        victim = (view.seat + view.direction) % view.players
        options = []
        calls = [a for a in plays if a.uno]
        for action in calls + [a for a in plays if not a.uno]:
            card = action.card
            total = view.pending_draw + (4 if card.effect == WILD_DRAW_FOUR else 2)
            line = f"Stack {self.play_label(card, action.choice)}"
            if calls:
                line += " and call UNO!" if action.uno else " without calling UNO"
            line += f": {plural(total, 'card')} go to {names.object(victim)}"
            options.append((str(action), line))
        return options

    def declaration(self, card: Any, plays: list[Any], view: Any) -> Dialog:
        return Dialog(
            f"Play {self.label(card)}: choose the colour",
            [(str(a), self.held_label(a.choice, view.hand)) for a in plays],
        )

    def held_label(self, letter: str, hand: tuple[Any, ...]) -> str:
        held = sum(1 for card in hand if card.color == letter)
        return f"{self.suit_word(letter)}  (you hold {held})"

    # -- the table ------------------------------------------------------------------------

    def centre(self, view: Any, names: Seats, width: int) -> tuple[str, Text]:
        return f"Hand {view.hand_number}", self.pile(view, names)

    def pile(self, view: Any, names: Seats) -> Text:
        tl, tr, bl, br, h, v = ("+", "+", "+", "+", "-", "|") if self.ascii_only else "╭╮╰╯─│"
        top_label = self.label(view.top)
        inner = max(self.pile_width, len(top_label) + 2)
        pile_text = str(view.draw_pile_size)
        pile_inner = max(6, len(pile_text) + 2)
        text = Text()
        text.append(f" Discard{' ' * (inner - 5)}Draw pile\n", style=Style(dim=True))
        text.append(f" {tl}{h * inner}{tr}  {tl}{h * pile_inner}{tr}\n")
        text.append(f" {v}")
        text.append(top_label.center(inner), style=self.style(view.top, choice=view.active_color))
        text.append(f"{v}  {v}{pile_text.center(pile_inner)}{v}\n")
        text.append(f" {bl}{h * inner}{br}  {bl}{h * pile_inner}{br}\n")
        if view.active_color is None:
            text.append(" Colour: not chosen yet (the first card is a Wild)")
        else:
            text.append(" Match ")
            text.append_text(self.colour_chip(view.active_color))
            face = self.face_word(view.top)
            if face is not None:
                text.append(f" or {article(face)} {face}")
        if view.challenge_color is not None:
            text.append("\n Wild Draw Four played over ")
            text.append_text(self.colour_chip(view.challenge_color))
        pending = self.pending_line(view, names)
        if pending:
            text.append("\n " + pending, style=Style(bold=True))
        holders = [
            names.subject(seat) + (f" ({count})" if count > 1 else "")
            for seat in range(view.players)
            if (count := self.creepers_known(view, seat))
        ]
        if holders:
            text.append("\n Holding a Creeper all have seen: " + ", ".join(holders))
        return text

    def pending_line(self, view: Any, names: Seats) -> str:
        """What the table waits for, in words every seat may read."""
        who = names.subject(view.current)
        if view.phase == "over":
            return "The match is over."
        if view.active_color is None:
            return f"{names.does(view.current, 'chooses')} the colour."
        if view.challenge_color is not None or view.pending == "challenge":
            return f"{names.does(view.current, 'must')} challenge the Wild Draw Four or accept it."
        if view.pending == "stack":
            cards = plural(view.pending_draw, "card")
            return f"{names.does(view.current, 'must')} take {cards} or stack on them."
        if view.pending == "swap":
            return f"{names.does(view.current, 'chooses')} whom to swap hands with."
        if view.pending == "drawn":
            # only the drawing seat sees its card: nobody else learns whether it can be played
            if view.drawn is not None:
                return "Play the card you drew, or keep it."
            return f"{who} drew a card."
        if view.exposed is not None:
            return f"{names.does(view.exposed, 'has')} one card and did not call UNO!"
        return ""

    def creepers_known(self, view: Any, seat: int) -> int:
        """Revealed Creepers ``seat`` still holds, as far as the viewer knows."""
        if seat == view.seat:
            # the view keeps no list of our own revealed cards: at most those still in hand
            return min(view.revealed[seat], view.hand.count(CREEPER_CARD))
        return view.known[seat].count(CREEPER_CARD)

    def direction(self, view: Any) -> int:
        return int(view.direction)

    def seat_row(self, view: Any, seat: int) -> SeatRow:
        flags = []
        if view.exposed == seat:
            flags.append("no UNO!")
        elif view.hand_sizes[seat] == 1:
            flags.append("UNO")
        creepers = self.creepers_known(view, seat)
        if creepers:
            flags.append("Creeper" if creepers == 1 else f"{creepers} Creepers")
        return SeatRow([str(view.scores[seat])], flags)

    # -- the scoreboard -------------------------------------------------------------------

    def lowest_wins(self, options: Any) -> bool:
        return bool(options.get("scoring") == "running")

    # -- the log --------------------------------------------------------------------------

    def describe(self, event: Event, names: Seats) -> str | None:
        kind, seat, data = event.kind, event.seat, event.data
        if kind == "accept" and event.count:
            # a pending draw taken (stacking); a Wild Draw Four's plain accept has no count
            return f"{names.does(seat, 'takes')} {plural(event.count, 'card')}"
        if kind == "pending_draw":
            return f"{names.does(seat, 'must')} draw {event.count} or stack"
        if kind == "swap":
            target = names.object(data.get("target"))
            return f"{names.does(seat, 'swaps')} hands with {target}"
        if kind == "pass_hands":
            return "Every hand passes to the next player"
        if kind == "received":
            if not names.is_you(seat):
                return None  # the swap or pass line already says where the hands went
            shown = f": {self.card_list(event.cards)}" if event.cards else ""
            return f"You receive {names.possessive(data.get('from'))} hand{shown}"
        if kind == "draw_to_match":
            if names.is_you(seat):
                return None  # your own draw lines already named the cards
            return f"{names.does(seat, 'draws')} {plural(event.count, 'card')} to find a match"
        if kind == "draw" and data.get("reason") == "match" and not names.is_you(seat):
            return None  # the closing draw_to_match line tells how many
        line = _PLAIN.get(kind)
        if line is not None:
            return names.does(seat, line[0]) + line[1]
        if kind == "play":
            card = event.cards[0]
            choice = data.get("color") if card.is_wild else None
            text = f"{names.does(seat, 'plays')} {self.play_label(card, choice)}"
            if data.get("uno"):
                text += " and call UNO!" if names.is_you(seat) else " and calls UNO!"
            return text
        if kind == "creeper":
            return f"{names.subject(seat)} drew a Creeper, shown to everyone: three more cards"
        if kind == "bonus":
            shown = f": {self.card_list(event.cards)}" if event.cards else ""
            return f"{names.does(seat, 'takes')} {event.count} bonus cards for the Creeper{shown}"
        if kind == "penalty":
            reason = PENALTY_REASONS.get(data.get("reason", ""), "as a penalty")
            return f"{names.does(seat, 'must')} draw {event.count} {reason}"
        if kind == "exposed":
            if names.is_you(seat):
                return "You have one card and did not call UNO: press U to call it now!"
            return f"{names.subject(seat)} has one card and did not call UNO: catch them!"
        if kind == "uno":
            # an UNO called with the play is already in the play's line
            late = data.get("late")
            return f"{names.does(seat, 'calls')} UNO! (late, but safe)" if late else None
        if kind == "catch":
            target = names.object(data.get("target"))
            return f"{names.does(seat, 'catches')} {target}: two cards for not calling UNO"
        if kind == "pass":
            return f"{names.does(seat, 'passes')} (nothing left to draw)"
        if kind == "challenge":
            verdict = "it was a bluff!"
            if not data.get("guilty"):
                verdict = "it was legal: the challenge fails"
            target = names.possessive(data.get("target"))
            return f"{names.does(seat, 'challenges')} {target} Wild Draw Four: {verdict}"
        if kind == "reveal":
            if not event.cards:
                return None
            hand = self.card_list(event.cards)
            return f"{names.does(seat, 'shows')} {names.their(seat)} hand: {hand}"
        if kind == "color":
            return f"{names.does(seat, 'chooses')} {self.choice_word(data.get('color'))}"
        if kind == "flip":
            return f"First card turned up: {self.card_list(event.cards)}"
        if kind == "flip_return":
            return f"{self.card_list(event.cards)} goes back into the pile; turning up another"
        if kind == "reverse":
            way = "clockwise" if data.get("direction", 1) > 0 else "counter-clockwise"
            return f"Play reverses: now {way}"
        if kind == "reshuffle":
            return "The discard pile is shuffled into a new draw pile"
        return NOT_MINE


# kinds worded as the seat doing something: (third-person verb, rest of the line)
_PLAIN = {
    "skip": ("is", " skipped"),
    "keep": ("keeps", " the drawn card"),
    "accept": ("accepts", " the Wild Draw Four"),
}


class MinecraftPresentation(UnoPresentation):
    """UNO Minecraft: UNO with Creepers, which the seats and the pile keep in view."""

    game_id: ClassVar[str] = "uno-minecraft"
    title: ClassVar[str] = "UNO Minecraft"
    pile_width: ClassVar[int] = len("Creeper") + 2  # one column wider than UNO's
