"""After each hand: points, running totals, a chart of the totals, notable moments."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from unotable.controller import Snapshot

from ..games import GamePresentation, presentation_for
from ..widgets.keysbar import KeysBar
from ..words import Seats
from .common import TooSmall

BARS = " ▁▂▃▄▅▆▇█"
ASCII_BARS = " .:-=+*#%"


def leaders(snap: Snapshot, game: GamePresentation) -> list[int]:
    totals = list(snap.view.scores)
    best = min(totals) if game.lowest_wins(options_of(snap)) else max(totals)
    return [s for s, t in enumerate(totals) if t == best]


def chart(values: list[int], low: int, high: int, ascii_only: bool) -> str:
    """Totals over the hands as one line of bars."""
    bars = ASCII_BARS if ascii_only else BARS
    span = max(1, high - low)
    return "".join(bars[1 + round((v - low) * (len(bars) - 2) / span)] for v in values)


def options_of(snap: Snapshot) -> Any:
    return getattr(snap.view, "options", {})


def hand_events(snap: Snapshot, number: int) -> dict[str, int]:
    """Counts of the moments worth a line: UNO catches, challenges, moon shots."""
    counts = {"catch": 0, "challenge": 0, "moon": 0, "uno": 0}
    hand = 0
    for event in snap.events:
        if event.kind in ("deal",) and event.data.get("hand", event.data.get("hand_number")):
            hand = event.data.get("hand") or event.data.get("hand_number") or hand
        elif event.kind == "hand" and hand == 0:
            hand = 1
        if hand == number and event.kind in counts:
            if event.kind == "moon" and event.data.get("choice") is None:
                continue
            counts[event.kind] += 1
    return counts


class ScoreboardScreen(ModalScreen[str]):
    """Dismisses with "next" between hands; "again", "new" or "quit" at the end."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "default", "Continue", id="scores.continue"),
        Binding("a", "choose('again')", "Play again", id="scores.again"),
        Binding("n", "choose('new')", "New game", id="scores.new"),
        Binding("q", "leave", "Quit", id="scores.quit"),
        Binding("g", "log", "Log", id="scores.log"),
    ]

    def __init__(self, snap: Snapshot) -> None:
        super().__init__(classes="scoreboard")
        self.snap = snap  # from the start of the log: the whole match as its viewer saw it

    @property
    def game(self) -> GamePresentation:
        app: Any = self.app
        return presentation_for(self.snap.game, app.card_theme, app.ascii_cards)

    def compose(self) -> ComposeResult:
        c = self.snap
        app: Any = self.app
        ascii_only = app.ascii_cards
        result = c.hand_results[-1]
        names = [s.name for s in c.seats]
        yield TooSmall()
        with Vertical(id="score-box"):
            title = "Match over" if c.over else f"{self.game.round_word} {result.number} is over"
            yield Label(title, classes="dialog-title")
            house = self.game.house_rules(options_of(c))
            if house:
                yield Label(house, classes="dialog-hint", markup=False)
            with VerticalScroll(id="score-scroll"):
                yield Static(self.table(names, ascii_only), id="score-table")
                yield Static(self.summary(names), id="score-summary")
                left = self.left_in_hands(names)
                if left.plain:
                    yield Static(left, id="score-left")
            with Horizontal(id="score-buttons"):
                if c.over:
                    yield Button("Play again", id="again", variant="primary", compact=True)
                    yield Button("New game", id="new", compact=True)
                    yield Button("Quit", id="quit", compact=True)
                else:
                    yield Button("Next hand", id="next", variant="primary", compact=True)
        yield KeysBar()

    def on_mount(self) -> None:
        buttons = self.query(Button)  # none if it was closed before it was built
        if buttons:
            buttons.first().focus()

    def table(self, names: list[str], ascii_only: bool) -> Table:
        c = self.snap
        results = c.hand_results
        last = results[-1]
        history = [[r.totals[s] for r in results] for s in range(len(names))]
        low = min(min(h) for h in [*history, [0]])
        high = max(max(h) for h in [*history, [0]])
        table = Table(box=None, pad_edge=False, expand=False, header_style="bold")
        table.add_column("Player")
        # the game's own word: a Wild Twist match is played in games, not hands
        table.add_column(f"This {self.game.round_word.lower()}", justify="right")
        table.add_column("Total", justify="right")
        table.add_column(f"Totals over the {self.game.round_word.lower()}s")
        best = set(leaders(c, self.game))
        for seat, name in enumerate(names):
            style = Style(bold=True) if seat in best else Style()
            mark = " *" if seat in best else ""
            table.add_row(
                Text(name + mark, style=style),
                f"{last.points[seat]:+d}" if last.points[seat] else "0",
                Text(str(last.totals[seat]), style=style),
                chart([0, *history[seat]], min(low, 0), high, ascii_only)[-30:],
            )
        return table

    def summary(self, names: list[str]) -> Text:
        c = self.snap
        result = c.hand_results[-1]
        notes: Any = result.notes
        lines: list[str] = []
        seats = Seats(names, c.viewer)
        winner = notes.get("winner")
        if isinstance(winner, int):
            if notes.get("blocked"):
                lines.append(f"{seats.subject(winner)}: blocked round, lowest hand.")
            else:
                lines.append(f"{seats.subject(winner)} went out.")
        moon = notes.get("moon")
        if isinstance(moon, int):
            choice = notes.get("moon_choice")
            own = f"off {seats.their(moon)} own total"
            how = own if choice == "self" else "to everyone else"
            lines.append(f"{seats.subject(moon)} shot the moon: points {how}.")
        counts = hand_events(c, result.number)
        if counts["catch"]:
            lines.append(f"UNO catches this hand: {counts['catch']}.")
        if counts["challenge"]:
            lines.append(f"Wild Draw Four challenges this hand: {counts['challenge']}.")
        game = self.game
        best = [names[s] for s in leaders(c, game)]
        rule = "lowest" if game.lowest_wins(options_of(c)) else "highest"
        if c.over:
            lines.append(f"{seats.all_do(list(c.winners), 'wins')} the match!")
        else:
            goal = game.goal(options_of(c), len(c.hand_results))
            lines.append(f"Leading ({rule} total wins): {', '.join(best)}. {goal}".rstrip())
        return Text("\n".join(lines))

    def left_in_hands(self, names: list[str]) -> Text:
        """What every other player still held when the hand ended (their cards are
        counted for the score, so they are shown, as at a real table)."""
        end = next((e for e in reversed(self.snap.events) if e.kind == "hand_end"), None)
        hands = end.data.get("hands") if end is not None else None
        text = Text()
        if not hands:
            return text
        game = self.game
        seats = Seats(names, self.snap.viewer)
        for seat, cards in enumerate(hands):
            if not cards:
                continue
            text.append(f"{seats.subject(seat)} still held: ", style="bold")
            text.append(" ".join(game.label(card) for card in cards) + "\n")
        if text.plain:
            text = Text("Left in hands\n", style="bold underline") + text
        return text

    def action_log(self) -> None:
        """G: the whole log of the match so far, as this viewer saw it."""
        from .logview import LogScreen

        self.app.push_screen(LogScreen(self.snap, self.game))

    def action_default(self) -> None:
        self.dismiss("again" if self.snap.over else "next")

    def action_leave(self) -> None:
        """Q: quit at the end; between hands, the table asks whether to leave the match."""
        self.dismiss("quit" if self.snap.over else "leave")

    def action_choose(self, answer: str) -> None:
        if self.snap.over:
            self.dismiss(answer)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "choose":
            return self.snap.over
        return True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "next")
