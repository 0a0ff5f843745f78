"""The engine is pure Python: importing it (and playing) pulls in no UI library."""

from __future__ import annotations

import subprocess
import sys

CHECK = """
import sys
import unotable.engine
from unotable.engine import GAME_IDS, get_game
for game_id in GAME_IDS:
    spec = get_game(game_id)
    match = spec.new_match(spec.min_players, seed=1)
    seat = match.actors()[0]
    match.apply(seat, match.legal_actions(seat)[0])
    match.view(seat)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich", "asyncssh"))
print(",".join(bad))
"""


def test_engine_imports_no_textual_or_rich():
    result = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.strip() == "", f"the engine imported {result.stdout.strip()}"


DRIVER_CHECK = """
import sys
from unotable.controller import Controller, Seat, VirtualClock
ctrl = Controller("uno-hearts", [Seat("A", "normal"), Seat("B", "easy"), Seat("C", "hard")],
                  {"target": 20}, 3, clock=VirtualClock())
ctrl.run(max_hands=1)
ctrl.snapshot(None)
bad = sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "rich", "asyncssh"))
print(",".join(bad))
"""


def test_the_driver_and_the_computer_players_import_no_ui():
    result = subprocess.run(
        [sys.executable, "-c", DRIVER_CHECK],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.strip() == "", f"the controller imported {result.stdout.strip()}"
