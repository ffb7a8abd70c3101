"""Dice drawn for one command: GM-forced values first, then the state's seeded generator.

Every die drawn is kept (`Roller.dice`) so the rule system can report each one in an event and
`replay --verify` can compare them. The roller never touches module-level random or the clock.

    roller = Roller(state.rng, state.forced_rolls)
    v = roller.roll(10, "hit")        # 1..10
    new_rng, new_forced = roller.rng_state, roller.forced_left
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from game.core.dice import Rng


@dataclass
class Die:
    """One die drawn: its size, why it was rolled, the face, and whether a GM forced it."""

    sides: int
    purpose: str
    value: int
    forced: bool
    reported: bool = False


@dataclass
class Roller:
    rng_state: int
    forced: Sequence[int] = ()
    dice: list[Die] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = Rng(self.rng_state)
        self._forced = list(self.forced)

    def roll(self, sides: int, purpose: str) -> int:
        """A die in 1..sides: a queued forced value (clamped to the die) or the generator's."""
        if self._forced:
            value = max(1, min(sides, int(self._forced.pop(0))))
            forced = True
        else:
            value, self._rng = self._rng.roll(sides)
            forced = False
        self.rng_state = self._rng.state
        self.dice.append(Die(sides, purpose, value, forced))
        return value

    def set_forced(self, values: Sequence[int]) -> None:
        """Replace the queue of forced values still to come (a GM's command sets the next dice)."""
        self._forced = list(values)

    @property
    def forced_left(self) -> tuple[int, ...]:
        return tuple(self._forced)

    def unreported(self) -> list[Die]:
        return [d for d in self.dice if not d.reported]


class DieSource(Protocol):
    """Anything that rolls one die and returns a value in 1..sides, `purpose` labelling it for the
    log: a `Roller`'s `roll`, a kernel transaction's `roll`, or a test's script of values."""

    def __call__(self, sides: int, purpose: str) -> int: ...
