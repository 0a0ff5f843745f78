"""The computer player shell shared by every level and game.

A player is one object per seat per match. It sees only views. ``choose(view)`` returns
one of ``view.legal``; ``wants_to_act(view)`` answers the controller's out-of-turn offers
(late UNO call, catch): see docs/ai.md for the contract.
"""

from __future__ import annotations

import random
import zlib
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from unotable.engine import OUT_OF_TURN_KINDS, Action, View


def stable_unit(*parts: object) -> float:
    """A number in [0, 1) fixed by ``parts``: the same offer always gets the same answer.

    Python's ``hash`` of text changes between processes, so CRC32 of the text is used.
    """
    text = "|".join(map(str, parts)).encode()
    return (zlib.crc32(text) & 0xFFFFFFFF) / 2**32


class Brain(ABC):
    """A game strategy: picks among the turn actions (out-of-turn ones are filtered out)."""

    @abstractmethod
    def decide(self, view: Any, actions: Sequence[Action], rng: random.Random) -> Action:
        """One of ``actions``."""

    def notice(self, view: Any, action: Action) -> None:  # noqa: B027 - optional hook
        """A decision with only one legal action was taken (brains with memory update)."""


class ComputerPlayer:
    """Level knobs + a game brain + the out-of-turn contract."""

    def __init__(
        self,
        level: str,
        game_id: str,
        seed: int,
        brain: Brain,
        *,
        call_uno: float,
        late_call: float,
        catch: float,
    ) -> None:
        self.level = level
        self.game_id = game_id
        self.seed = seed
        self.brain = brain
        self.rng = random.Random(f"{level}/{game_id}/{seed}")
        self.call_uno = call_uno  # chance of calling UNO with the play
        self.late_call = late_call  # chance of a late call when left exposed
        self.catch = catch  # chance of catching an exposed seat when offered

    # -- the contract -----------------------------------------------------------------

    def choose(self, view: View) -> Action:
        legal = view.legal
        if not legal:
            raise ValueError("choose() needs a view with at least one legal action")
        out_of_turn = [a for a in legal if a.kind in OUT_OF_TURN_KINDS]
        if out_of_turn:
            act = self._out_of_turn_choice(view, out_of_turn)
            if act is not None:
                return act
            if len(out_of_turn) == len(legal):
                # Only out-of-turn actions and we would rather not: the caller should have
                # asked wants_to_act(); returning one of them is the only legal answer.
                return out_of_turn[0]
            legal = tuple(a for a in legal if a.kind not in OUT_OF_TURN_KINDS)
        if len(legal) == 1:
            self.brain.notice(view, legal[0])
            return legal[0]
        return self.brain.decide(view, self._uno_flag(view, legal), self.rng)

    def wants_to_act(self, view: View) -> bool:
        """Whether this player takes an out-of-turn action offered in ``view`` now.

        True for an ordinary turn. For a view whose legal actions include ``uno`` or
        ``catch:P``, the answer is fixed by the offer (asking twice gives the same answer)
        and ``choose(view)`` then returns that action.
        """
        out_of_turn = [a for a in view.legal if a.kind in OUT_OF_TURN_KINDS]
        if not out_of_turn:
            return bool(view.legal)
        return self._out_of_turn_choice(view, out_of_turn) is not None

    # -- helpers ----------------------------------------------------------------------

    def _offer_key(self, view: View) -> str:
        discard = getattr(view, "discard", ())
        return (
            f"{self.seed}/{view.seat}/{view.hand_number}/{view.hand_sizes}/{len(discard)}/"
            f"{getattr(view, 'draw_pile_size', '')}"
        )

    def _out_of_turn_choice(self, view: View, offers: Sequence[Action]) -> Action | None:
        key = self._offer_key(view)
        for action in offers:
            if action.kind == "uno":
                if self.late_call >= 1 or stable_unit(key, "uno") < self.late_call:
                    return action
            elif self.catch >= 1 or stable_unit(key, "catch", action.target) < self.catch:
                return action
        return None

    def _uno_flag(self, view: View, legal: Sequence[Action]) -> Sequence[Action]:
        """Keep only one of ``R7``/``R7!``: whether this player remembers to call UNO."""
        if not any(a.uno for a in legal):
            return legal
        remembers = self.call_uno >= 1 or self.rng.random() < self.call_uno
        calling = {(a.card, a.choice) for a in legal if a.uno}
        return tuple(
            a
            for a in legal
            if a.uno == remembers or not (a.kind == "play" and (a.card, a.choice) in calling)
        )
