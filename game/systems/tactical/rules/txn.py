"""The tactical battle's transaction on the core kernel (`game.core.kernel`): the evolving state,
the events, and the core roller's dice.

Handlers work on a `Txn` and raise `Reject(reason)` for any illegal request; the half-built
transaction is then dropped, so a rejected command never changes anything. Dice come only from
the core `Roller` (the state's generator, after any GM-forced rolls queued in the state), and
every die drawn ends up in a `RollMade` event.
"""

from __future__ import annotations

from typing import Any

from game.core.kernel import Accepted as Accepted
from game.core.kernel import Reject as Reject
from game.core.kernel import Rejection as Rejection
from game.core.kernel import Txn as KernelTxn
from game.core.roller import Die, Roller
from game.systems.tactical.rules.check import CheckResult
from game.systems.tactical.rules.events import EventBase, RollMade
from game.systems.tactical.rules.state import GameState, UnitState

Outcome = Accepted[GameState, EventBase] | Rejection


class Txn(KernelTxn[GameState, EventBase]):
    """A command being applied: the kernel's transaction plus the tactical reports of its dice."""

    @classmethod
    def begin(cls, state: GameState) -> Txn:
        return cls(state, Roller(state.rng, state.forced_rolls))

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
        """The outcome: a RollMade for any die not yet reported, and the generator, the forced
        rolls left and the sequence number written back into the state."""
        self.report_rest(None)
        self.update(rng=self.roller.rng_state, forced_rolls=self.roller.forced_left, seq=self.state.seq + 1)
        return self.accepted()
