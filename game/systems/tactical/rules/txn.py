"""The transaction a command is applied in: the evolving state, the events, the dice drawn.

Handlers work on a `Txn` and raise `Reject(reason)` for any illegal request; the half-built
transaction is then dropped, so a rejected command never changes anything. Dice come only from
the state's generator, after any GM-forced rolls queued in the state, and every die drawn ends
up in a `RollMade` event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from game.core.dice import Rng
from game.core.system import Accepted as Accepted
from game.core.system import Reject as Reject
from game.core.system import Rejection as Rejection
from game.systems.tactical.rules.check import CheckResult
from game.systems.tactical.rules.events import EventBase, RollMade
from game.systems.tactical.rules.state import GameState, UnitState

Outcome = Accepted[GameState, EventBase] | Rejection


@dataclass
class Die:
    """One die rolled in a transaction: its sides, what it was for, its value, forced or not."""
    sides: int
    purpose: str
    value: int
    forced: bool
    reported: bool = False


@dataclass
class Txn:
    """A command being applied: the evolving state, its events, and the dice drawn."""

    state: GameState
    events: list[EventBase] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = Rng(self.state.rng)
        self._forced = list(self.state.forced_rolls)

    # -------------------------------------------------------------- dice

    def roll(self, sides: int, purpose: str) -> int:
        """A Roller: forced rolls first (clamped to the die), then the seeded generator."""
        if self._forced:
            value = max(1, min(sides, self._forced.pop(0)))
            forced = True
        else:
            value, self._rng = self._rng.roll(sides)
            forced = False
        self.dice.append(Die(sides, purpose, value, forced))
        return value

    def unreported(self) -> list[Die]:
        return [d for d in self.dice if not d.reported]

    def report_check(self, result: CheckResult, unit_id: str | None, *, opposed: bool = False) -> None:
        """Emit the RollMade of a check (its die is the oldest unreported one with that value).

        opposed: an opposed roll (initiative) has no target, margin or success of its own."""
        die = self._take_die(result.die_sides, result.die)
        self.emit(RollMade(
            label=result.label, unit_id=unit_id, stat_name=result.stat_name, stat=result.stat,
            skill_name=result.skill_name, skill=result.skill, die_sides=result.die_sides, die=result.die,
            forced=die.forced if die else False, modifiers=[(m.label, m.value) for m in result.modifiers],
            target=None if opposed else result.target, total=result.total,
            margin=None if opposed else result.margin, success=None if opposed else result.success,
        ))

    def report_die(self, label: str, unit_id: str | None, target: int | None = None,
                   success: bool | None = None, modifiers: Sequence[tuple[str, int]] = ()) -> None:
        """Emit the RollMade of the oldest unreported die (a plain die roll, e.g. damage)."""
        die = next(d for d in self.dice if not d.reported)
        die.reported = True
        total = die.value + sum(v for _, v in modifiers)
        self.emit(RollMade(
            label=label, unit_id=unit_id, die_sides=die.sides, die=die.value, forced=die.forced,
            modifiers=list(modifiers), target=target, total=total,
            margin=None if target is None else total - target, success=success,
        ))

    def report_rest(self, unit_id: str | None) -> None:
        """Every die not yet reported gets a plain RollMade (nothing is rolled unseen)."""
        for die in self.unreported():
            die.reported = True
            self.emit(RollMade(label=die.purpose, unit_id=unit_id, die_sides=die.sides, die=die.value,
                               forced=die.forced, total=die.value))

    def _take_die(self, sides: int, value: int) -> Die | None:
        for d in self.dice:
            if not d.reported and d.sides == sides and d.value == value:
                d.reported = True
                return d
        return None

    # -------------------------------------------------------------- state

    def emit(self, event: EventBase) -> None:
        self.events.append(event)

    def update(self, **changes: Any) -> None:
        self.state = self.state.model_copy(update=changes)

    def unit(self, unit_id: str) -> UnitState:
        return self.state.units[unit_id]

    def set_unit(self, unit: UnitState) -> None:
        units = dict(self.state.units)
        units[unit.id] = unit
        self.update(units=units)

    def change_unit(self, unit_id: str, **changes: Any) -> UnitState:
        unit = self.state.units[unit_id].model_copy(update=changes)
        self.set_unit(unit)
        return unit

    def finish(self) -> Accepted[GameState, EventBase]:
        self.report_rest(None)
        self.update(rng=self._rng.state, forced_rolls=tuple(self._forced), seq=self.state.seq + 1)
        return Accepted(self.state, tuple(self.events))
