"""The AI:L check: stat + skill + die (d10, or d6 when the skill is 0) against a Challenge Target.

Meet-or-beat succeeds; every full `threshold` points over the target is one bonus.
Dice come through a `DieSource` (game.core.roller), so the engine can draw them from the game's
seeded generator (recording each one), a test can script them, and the odds code can enumerate them.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.core.roller import DieSource
from game.systems.tactical.rules.models import CheckRules


@dataclass(frozen=True, slots=True)
class Modifier:
    """A named part of a roll or target: an edge (+/-), Advantage spent, an AC component."""

    label: str
    value: int


@dataclass(frozen=True, slots=True)
class CheckResult:
    """A check rolled: the stat and skill used, the die, the modifiers and the target."""
    label: str
    stat_name: str
    stat: int
    skill_name: str
    skill: int
    die_sides: int
    die: int
    modifiers: tuple[Modifier, ...]
    target: int

    @property
    def total(self) -> int:
        return self.stat + self.skill + self.die + sum(m.value for m in self.modifiers)

    @property
    def margin(self) -> int:
        return self.total - self.target

    @property
    def success(self) -> bool:
        return self.margin >= 0

    def bonuses(self, threshold: int) -> int:
        """Full `threshold` steps over the target (0 on a failure)."""
        return self.margin // threshold if self.success else 0


def die_for(skill: int, rules: CheckRules) -> int:
    return rules.skilled_die if skill > 0 else rules.unskilled_die


def roll_check(
    label: str,
    stat_name: str,
    stat: int,
    skill_name: str,
    skill: int,
    target: int,
    roller: DieSource,
    rules: CheckRules,
    modifiers: tuple[Modifier, ...] = (),
) -> CheckResult:
    sides = die_for(skill, rules)
    die = roller(sides, label)
    return CheckResult(label, stat_name, stat, skill_name, skill, sides, die, modifiers, target)


def success_chance(base: int, target: int, sides: int) -> float:
    """Exact probability that base + 1d`sides` >= target."""
    need = target - base
    if need <= 1:
        return 1.0
    if need > sides:
        return 0.0
    return (sides - need + 1) / sides
