"""Which terrain a unit may stand on: the one copy of that rule, asked by every reach and move
(movement.py) and by the scenario loader's placement checks. A module of its own so that loading
a scenario does not import the movement rules with it (start-up time, issue 14)."""

from __future__ import annotations

from game.systems.tactical.rules.models import RulesData, UnitType


def can_stand_on(rules: RulesData, unit_type: UnitType, terrain: str) -> bool:
    """Whether a unit of `unit_type` may enter or stand on `terrain` (a terrain name of the rules
    data) off road: impassable terrain is closed to it, except `hover_passable` terrain (water)
    to a hover unit; a terrain the rules do not know is closed too. The one copy of that rule:
    `enter_cost` (every reach and move) and scenario placement checks ask it."""
    t = rules.terrain.get(terrain)
    if t is None:
        return False
    return not t.impassable or (t.hover_passable and unit_type.unit_class == "hover")
