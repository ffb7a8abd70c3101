"""The tactical state's data versions, and the steps that bring old state data up to date.

Saves record the state version they were written at (`state_version` in the header, format 3);
`game.replay` runs these steps on the state document of an older save before
`SYSTEM.state_from_data` reads it. Steps work on plain data (the save's state document), never on
live objects, so they keep working when the classes change. Every version keeps a fixture save
in tests/fixtures/saves/ that must load, replay and verify.

Version 1: every save made before saves recorded a state version (formats 1 and 2). Its unit
records may lack the fields added after the first saves: stance Advantage (`stance_advantage`,
`stance_advantage_kind`), the standing order for casualty rolls (`casualty_advantage`,
`casualty_advantage_kind`) and the difficult terrain a unit is stuck in (`difficult_terrain`).

Version 2: every unit record names every field. A record that lacks one is a damaged or
hand-edited save and is refused naming the field, instead of silently taking a default.
"""

from __future__ import annotations

from typing import Any

from game.core.system import StateStep

STATE_VERSION = 2

# The unit fields version 1 may lack, with the value they had before they existed.
_V2_UNIT_FIELDS: dict[str, Any] = {
    "stance_advantage": 0,
    "stance_advantage_kind": None,
    "difficult_terrain": None,
    "casualty_advantage": 0,
    "casualty_advantage_kind": None,
}


def _v2(data: dict[str, Any]) -> dict[str, Any]:
    units = data["units"]
    if not isinstance(units, dict):
        raise TypeError(f"expected units to be a mapping, got {type(units).__name__}")
    out_units = {}
    for uid, unit in units.items():
        if not isinstance(unit, dict):
            raise TypeError(f"expected unit {uid!r} to be a mapping, got {type(unit).__name__}")
        out_units[uid] = {**unit, **{k: v for k, v in _V2_UNIT_FIELDS.items() if k not in unit}}
    return {**data, "units": out_units}


STATE_STEPS: dict[int, StateStep] = {
    1: StateStep(1, "every unit names its stance Advantage, casualty order and difficult terrain", _v2),
}
