"""The real app in a real terminal (a pty, read by the pyte emulator) at 80x24, with
NO_COLOR=1, --ascii and 8 seats: a hand played with keys, from the lobby to its results,
and no line of any frame cut (issue 27, "Done when").

What "cut" means here, checked on every complete frame the app draws:

- **No word is cut short.** Every word on screen (a run of letters) is one the app can
  print: a word of unotable's own source and help texts (its sentences, names, card
  faces), or of the few Textual adds. A word cut by a border or a panel's edge ("Winne",
  "shooter cho") is in neither. A cut the app marks itself ("guest-a2~") is allowed, and
  so are the ends of words a dialog's border (█) covers on the table beneath it.
- **The notices are whole.** The hand's notice for cards past the 10th is one of the
  wordings the app means to show, all of it on screen; the status line's last line ends
  a sentence ("." "!" ")" ...), so no line of it is hidden under the keys.

The app's frames are complete screens: the test answers the app's question whether the
terminal supports synchronized output, so each frame comes between the markers of one
update and is checked only once it has all arrived. It waits on what the screen shows,
never on the clock (the deadlines only bound a hang).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from functools import cache
from pathlib import Path

import pyte

import unotable
from unotable.app.widgets.hand import beyond_hints
from unotable.controller.seats import DEFAULT_NAMES

COLS, ROWS = 80, 24
WAIT = 90.0  # seconds without any progress before the test gives up (a hang, not pacing)
SYNC_QUERY = b"\x1b[?2026$p"  # "do you support synchronized output?"
SYNC_YES = b"\x1b[?2026;2$y"
SYNC_START, SYNC_END = b"\x1b[?2026h", b"\x1b[?2026l"
WORD = re.compile(r"[A-Za-z]+")
MARKED_CUT = ("~", "…")  # the app's own mark for a name it shortened
OVER = "█"  # a dialog's border, drawn over the table: what it hides is not cut
TEXTUAL_WORDS = {"palette"}  # the footer's "^p palette"
SENTENCE_END = tuple(".!?):…")


@cache
def vocabulary() -> frozenset[str]:
    """Every word of unotable's source, help and style texts, in lower case."""
    words: set[str] = set(TEXTUAL_WORDS)
    root = Path(unotable.__file__).parent
    for path in root.rglob("*"):
        if path.suffix in (".py", ".md", ".tcss"):
            words.update(w.lower() for w in WORD.findall(path.read_text(encoding="utf-8")))
    return frozenset(words)


def cut_words(screen: str) -> list[str]:
    """The words on screen that the app cannot have meant: cut short somewhere."""
    known = vocabulary()
    found = []
    for line in screen.splitlines():
        for match in WORD.finditer(line):
            before, after = line[match.start() - 1 : match.start()], line[match.end() :][:1]
            if after in MARKED_CUT or OVER in (before, after):
                continue
            if match.group().lower() not in known:
                found.append(f"{match.group()!r} in {line.strip()!r}")
    return found


def hand_box(lines: list[str]) -> tuple[int, int] | None:
    """The rows of the hand's panel (its top and bottom border), if it is on screen."""
    top = next((i for i, line in enumerate(lines) if "hand (" in line and "╭" in line), None)
    if top is None:
        return None
    bottom = next((i for i in range(top + 1, len(lines)) if lines[i].startswith("╰")), None)
    return None if bottom is None else (top, bottom)


def cut_notices(screen: str) -> list[str]:
    """The hand's notice and the status line, where either is not whole."""
    lines = screen.splitlines()
    box = hand_box(lines)
    if box is None:
        return []
    top, bottom = box
    problems = []
    inside = " ".join(" ".join(line.strip().strip("│") for line in lines[top + 1 : bottom]).split())
    if "Cards 11" in inside:
        meant = [hint for count in (11, 21) for hint in beyond_hints(count, ascii_only=True)]
        if not any(hint in inside for hint in meant):
            problems.append(f"the hand's notice is cut: {inside!r}")
    status = [line.strip() for line in lines[bottom + 1 : -1] if line.strip()]
    if status and not status[-1].endswith(SENTENCE_END):
        problems.append(f"the status line is cut: {' / '.join(status)!r}")
    return problems


class Terminal:
    """The app on a pty of 80x24, and what its screen shows after each complete frame."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.leader, follower = pty.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
        self.process = subprocess.Popen(
            argv,
            stdin=follower,
            stdout=follower,
            stderr=follower,
            env=env,
            start_new_session=True,
        )
        os.close(follower)
        self.screen = pyte.Screen(COLS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.pending = b""
        self.synced = False  # the app wraps each frame in a synchronized update

    def frames(self, timeout: float) -> list[str]:
        """The screens of the frames completed within ``timeout`` (none: nothing came)."""
        ready, _, _ = select.select([self.leader], [], [], timeout)
        if not ready:
            return []
        try:
            data = os.read(self.leader, 1 << 16)
        except OSError:  # EIO: the app has ended
            data = b""
        assert data, f"the app ended (status {self.process.poll()}):\n{self.text()}"
        if SYNC_QUERY in data:
            os.write(self.leader, SYNC_YES)
        self.synced = self.synced or SYNC_START in data
        self.pending += data
        if not self.synced:  # the first frames, before the app knows: taken as they come
            self.stream.feed(self.pending)
            self.pending = b""
            return []
        shown = []
        while (end := self.pending.find(SYNC_END)) >= 0:
            frame, self.pending = (
                self.pending[: end + len(SYNC_END)],
                self.pending[end + len(SYNC_END) :],
            )
            self.stream.feed(frame)
            shown.append(self.text())
        return shown

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def press(self, keys: str) -> None:
        os.write(self.leader, keys.encode())

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        os.close(self.leader)


def decision(screen: str) -> str | None:
    """The keys this player presses now: the last answer of a dialog (keep the drawn
    card, accept the Wild Draw Four), D on their turn (the hand grows past 20 cards), or
    S in the lobby; None while the others play."""
    if "Enter or a number to choose" in screen:
        numbers = [int(n) for n in re.findall(r"(?<![\w+-])([1-9])  \S", screen)]
        return str(max(numbers)) if numbers else None
    if "Your turn" in screen or "press D to" in screen:
        return "d"
    if "then Start" in screen and "Seed" in screen:  # the lobby, filled in
        return "s"
    return None


def own_env(tmp_path: Path) -> dict[str, str]:
    """A user whose home, config and data folders are in ``tmp_path``, with no unotable
    or Textual settings from the environment the tests run in."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "UNOTABLE_"))}
    base = {k: v for k, v in base.items() if not k.startswith("TEXTUAL")}
    return {
        **base,
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "xdg-data"),
        "TERM": "xterm-256color",
    }


def test_a_hand_at_80x24_ascii_no_color_8_seats_cuts_no_line(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    seats = [["You", "human"]] + [[name, "normal"] for name in DEFAULT_NAMES[1:8]]
    setup = {"game": "uno", "seats": seats, "options": {}}
    (data / "settings.json").write_text(json.dumps({"speed": "instant", "last_setup": setup}))
    env = {**own_env(tmp_path), "NO_COLOR": "1"}
    # seed 7: always drawing, this player holds 31 cards before Ben goes out
    argv = [sys.executable, "-m", "unotable", "--ascii", "--seed", "7", "--data-dir", str(data)]
    terminal = Terminal(argv, env)
    checked = 0  # complete frames seen, each checked
    pressed_at = -1  # how many had been seen when the last keys went
    problems: list[str] = []
    try:
        deadline = time.monotonic() + WAIT
        over = False
        while not over:
            assert time.monotonic() < deadline, f"stuck; last screen:\n{terminal.text()}"
            for screen in terminal.frames(0.5):
                checked += 1
                deadline = time.monotonic() + WAIT
                found = cut_words(screen) + cut_notices(screen)
                problems += [f"{p}\n{screen}" for p in found[:1]]
                assert len(problems) < 3, "\n\n".join(problems)
                # keys answered late can change the deal's course: the hand may end the match
                over = over or "Hand 1 is over" in screen or "Match over" in screen
            if over or checked == pressed_at:
                continue  # nothing drawn since the last keys: they are not answered yet
            keys = decision(terminal.text())
            if keys is not None:
                terminal.press(keys)  # pressed twice before it is drawn: still harmless
                pressed_at = checked
    finally:
        terminal.close()
    assert not problems, "\n\n".join(problems)
    # a hand's worth of frames, each checked; how many depends on how busy the machine is (an
    # app that falls behind draws several moves in one frame): 90 alone, 49 in a full run
    assert checked > 20
