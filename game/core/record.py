"""One history of a game, for every rule system: the client's undo, the GM's undo / redo (dice
included), the replay view, saves and `replay --verify` all use this one class.

A `Step` is an accepted command with the states around it. Undo pops a step; redo re-applies
the command to the same state, which draws the very same dice (the generator is in the state).
Whether a *player* may undo is the rule system's call (`RuleSystem.undoable`); the GM may undo
anything.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from game.core.system import Accepted, Outcome, RuleSystem, Step

__all__ = ["Record", "Step"]


@dataclass
class Record:
    """A game's history: the initial state and the steps applied to it, with the undone steps to redo."""
    system: RuleSystem
    initial: Any
    steps: list[Step] = field(default_factory=list)
    redo_stack: list[Step] = field(default_factory=list)
    on_change: Callable[[], None] | None = None

    @property
    def state(self) -> Any:
        return self.steps[-1].after if self.steps else self.initial

    def state_at(self, index: int) -> Any:
        """The state after the first `index` commands (0 = the initial state)."""
        if index <= 0 or not self.steps:
            return self.initial
        return self.steps[min(index, len(self.steps)) - 1].after

    @property
    def commands(self) -> list[Any]:
        return [s.command for s in self.steps]

    def all_events(self) -> list[Any]:
        return [e for s in self.steps for e in s.events]

    def apply(self, command: Any, *, gm: bool = False) -> Outcome:
        """Apply a command to the current state; an accepted one becomes a step (marked as the
        GM's when `gm` — a player's command made in GM mode — or when it is a GM command)."""
        outcome = self.system.apply(self.state, command)
        if isinstance(outcome, Accepted):
            self.redo_stack.clear()  # before the step is pushed: whoever is told of it sees no redo left
            self._push(Step(self.state, command, tuple(outcome.events), outcome.state,
                            gm=gm or self.system.is_gm_command(command)))
        return outcome

    def rolled_dice(self, step: Step) -> bool:
        return bool(self.system.rolls(step.events))

    def truncate(self, length: int) -> None:
        """Drop every step after the first `length` (an all-or-nothing pair of commands whose
        second part was refused). Not an undo: nothing goes on the redo stack."""
        if length < len(self.steps):
            del self.steps[length:]
            if self.on_change is not None:
                self.on_change()

    def append(self, step: Step) -> None:
        """Add a step applied elsewhere (a save's log being rebuilt)."""
        self._push(step)

    def _push(self, step: Step) -> None:
        self.steps.append(step)
        if self.on_change is not None:
            self.on_change()

    # ------------------------------------------------------------------ undo / redo
    @property
    def can_undo(self) -> bool:
        """A player's undo: the last step, if the rule system says it may be taken back."""
        return bool(self.steps) and self.system.undoable(self.steps[-1])

    def undo(self, *, gm: bool = False) -> Step | None:
        """Take back the last step (any step when `gm`). None when there is nothing allowed."""
        if not self.steps or (not gm and not self.can_undo):
            return None
        step = self.steps.pop()
        self.redo_stack.append(step)
        if self.on_change is not None:
            self.on_change()
        return step

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def redo(self) -> Outcome | None:
        """Re-apply the last undone command (same state, so the same dice)."""
        if not self.redo_stack:
            return None
        undone = self.redo_stack.pop()
        outcome = self.system.apply(self.state, undone.command)
        if isinstance(outcome, Accepted):
            self._push(Step(self.state, undone.command, tuple(outcome.events), outcome.state, gm=undone.gm))
        return outcome

    def round_starts(self, round_of: Callable[[Any], int] | None = None) -> dict[int, int]:
        """Round (or week) number -> index of the first command played in it (the round of a
        state: `round_of`, by default the system's summary)."""
        if round_of is None:
            def round_of(state: Any) -> int:
                return int(self.system.summary(state).get("round", 0))
        starts: dict[int, int] = {round_of(self.initial): 0}
        for i, step in enumerate(self.steps):
            starts.setdefault(round_of(step.before), i)
            starts.setdefault(round_of(step.after), i + 1)
        return starts

    # ---------------------------------------------------------------- the replay views' jumps
    # A period is a function of a state (a round, a Wave, a week and phase); it starts at 0 and at
    # every position (a number of commands) where its value changes. Every system's replay view
    # steps by these.
    def period_starts(self, period: Callable[[Any], Hashable]) -> list[tuple[Hashable, int]]:
        """(the period's value, the position it starts at), in order."""
        out = [(period(self.state_at(0)), 0)]
        for i in range(1, len(self.steps) + 1):
            value = period(self.state_at(i))
            if value != out[-1][0]:
                out.append((value, i))
        return out

    def period_start(self, period: Callable[[Any], Hashable], value: Hashable) -> int | None:
        """Where the period with this value first starts (None: the game never has it)."""
        return next((i for v, i in self.period_starts(period) if v == value), None)

    def next_start(self, index: int, period: Callable[[Any], Hashable]) -> int:
        """The start of the next period after position `index` (the end when there is none)."""
        return next((i for _, i in self.period_starts(period) if i > index), len(self.steps))

    def previous_start(self, index: int, period: Callable[[Any], Hashable]) -> int:
        """The start of this period when `index` is past it, else of the period before (0 at the
        first)."""
        return max((i for _, i in self.period_starts(period) if i < index), default=0)
