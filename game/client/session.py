"""One battle as the client holds it: the static context (setup, board, map, layout), the current
rules state, and the history of accepted commands (for undo, the dice log, saves and replays).

The session is the ONLY client module that calls the rules engine's `apply`; everything the
client shows about the rules comes from the rules' own queries through the helpers here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import game.rules.ail as rules
from game.board import Board
from game.hexlayout import HexLayout
from game.rules.ail.models import BattleSetup


@dataclass(frozen=True)
class Step:
    """One accepted command: the state before it, the command, and the events it produced."""

    before: Any
    command: Any
    events: tuple[Any, ...]

    @property
    def rolled_dice(self) -> bool:
        return any(getattr(e, "kind", "") == "roll_made" or type(e).__name__ == "RollMade"
                   for e in self.events)


@dataclass
class Session:
    setup: BattleSetup
    board: Board
    layout: HexLayout
    state: Any
    map_data: Any = None            # game.io.tmx MapData when the battle came from a Tiled map
    seed: int = 0
    path: Path | None = None
    history: list[Step] = field(default_factory=list)
    last_rejection: str | None = None
    description: str = ""           # the scenario's briefing text (shown before a fresh battle)

    # ------------------------------------------------------------------ building
    @classmethod
    def start(cls, setup: BattleSetup, board: Board, layout: HexLayout, seed: int,
              map_data: Any = None, path: Path | None = None, description: str = "") -> Session:
        state = rules.initial_state(setup, board, seed)
        return cls(setup=setup, board=board, layout=layout, state=state, map_data=map_data,
                   seed=seed, path=path, description=description)

    # ------------------------------------------------------------------ commands
    def apply(self, command: Any) -> tuple[bool, tuple[Any, ...], str | None]:
        """Apply a command: (accepted, events, rejection reason)."""
        outcome = rules.apply(self.state, command)
        if isinstance(outcome, rules.Rejection):
            self.last_rejection = outcome.reason
            return False, (), outcome.reason
        self.history.append(Step(self.state, command, tuple(outcome.events)))
        self.state = outcome.state
        self.last_rejection = None
        return True, tuple(outcome.events), None

    @property
    def can_undo(self) -> bool:
        """Only the last command may be undone, and only when it rolled no dice."""
        return bool(self.history) and not self.history[-1].rolled_dice \
            and _undoable_kind(self.history[-1].command)

    def undo(self) -> bool:
        if not self.can_undo:
            return False
        step = self.history.pop()
        self.state = step.before
        return True

    @property
    def commands(self) -> list[Any]:
        return [s.command for s in self.history]

    def all_events(self) -> list[Any]:
        return [e for s in self.history for e in s.events]


def _undoable_kind(command: Any) -> bool:
    """Undo is for moves (the genre's 'take that back'), not for decisions others have seen."""
    return getattr(command, "kind", "") in ("move",)
