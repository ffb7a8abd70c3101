"""Campaign battle -> AI:L tactical scenario (docs/scales.md "To a tactical battle").

`tactical_plan` returns the scenario as plain data (what game.systems.tactical.io.scenario reads) and which
tactical unit stands for which campaign unit, so the way back can count each one's losses.
The map's cells come in as data (`Cells`): the ground generated from the campaign hex
(game/bridge/ground.py, written by game/bridge/tiled.py), or any tactical map read by
game/bridge/files.py. Each army deploys on the map's edge towards the side it came from.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.bridge.ground import army_edges, compass, direction_vectors, edge_cells
from game.bridge.models import ScalesRules
from game.bridge.sides import BridgeError, Side, open_battle, place_name, sides_of, terrain_of
from game.core.hexgrid import Stagger
from game.systems.campaign.rules.state import CampaignState

Cell = tuple[int, int]  # Tiled's [column, row]


@dataclass(frozen=True)
class Cells:
    """The tactical map as placement sees it: its size and the cells every unit may stand on."""

    width: int
    height: int
    standable: frozenset[Cell]
    stagger: Stagger = Stagger("y", "odd")


@dataclass(frozen=True)
class TacticalPlan:
    map_name: str  # the map's file name, beside the scenario
    scenario: dict[str, Any]  # the scenario file's data, `map` the bare file name
    origin: dict[str, str]  # tactical unit id -> campaign unit id
    defender: str
    attacker: str
    edges: dict[str, tuple[str, str]] = field(default_factory=dict)  # campaign army id -> (its edge, why)


def fielded(rules: ScalesRules, side: Side, state: CampaignState) -> list[tuple[str, str, str]]:
    """(tactical id, tactical type, campaign unit id) for each tactical unit the side fields."""
    table = rules.tactical.units.get(side.power)
    if table is None:
        raise BridgeError(f"scales rules: no tactical units for the power {side.power!r} "
                          f"(tactical.units knows {', '.join(sorted(rules.tactical.units))})")
    out: list[tuple[str, str, str]] = []
    for uid in side.units:
        t = state.units[uid].type_id
        types = table.get(t)
        if types is None:
            raise BridgeError(f"scales rules: tactical.units.{side.power} has no entry for the campaign unit "
                              f"type {t!r} (unit {uid})")
        for k, tt in enumerate(types, start=1):
            out.append((f"{uid}-{k}", tt, uid))
    return out


def unit_names(rows: list[tuple[str, str, str]], state: CampaignState) -> dict[str, str]:
    """[decision] What players read for each tactical unit: its campaign unit's type numbered
    within the side ("Zone Rifle Division 2"), and, when one campaign unit fields several tactical
    units, which of them ("Zone Rifle Division 2, 1 of 3"). The ids (`rifles.6-1`) stay for the
    way back and the GM's detail."""
    per_unit: dict[str, int] = {}
    for _tid, _tt, cuid in rows:
        per_unit[cuid] = per_unit.get(cuid, 0) + 1
    ordinal: dict[str, int] = {}  # campaign unit -> its number among its type's units in the side
    counts: dict[str, int] = {}
    for cuid in per_unit:
        kind = state.unit_type(cuid).name
        counts[kind] = counts.get(kind, 0) + 1
        ordinal[cuid] = counts[kind]
    out: dict[str, str] = {}
    seen: dict[str, int] = {}
    for tid, _tt, cuid in rows:
        seen[cuid] = seen.get(cuid, 0) + 1
        name = f"{state.unit_type(cuid).name} {ordinal[cuid]}"
        out[tid] = name if per_unit[cuid] == 1 else f"{name}, {seen[cuid]} of {per_unit[cuid]}"
    return out


def tactical_origin(state: CampaignState, battle_id: str, rules: ScalesRules) -> dict[str, str]:
    """Tactical unit id -> campaign unit id, as tactical_plan fields them (for the way back: it
    needs no map)."""
    battle = open_battle(state, battle_id)
    defender, attacker = sides_of(state, battle)
    return {tid: cuid for side in (defender, attacker) for tid, _tt, cuid in fielded(rules, side, state)}


def tactical_plan(state: CampaignState, battle_id: str, rules: ScalesRules, cells: Cells,
                  seed: int = 1, map_name: str = "") -> TacticalPlan:
    battle = open_battle(state, battle_id)
    terrain = terrain_of(state, battle)
    defender, attacker = sides_of(state, battle)
    tr = rules.tactical
    vecs = direction_vectors(state.cs.map.stagger_axis)
    edges = {e.army: e for e in army_edges(state, battle_id)}
    taken: set[Cell] = set()
    units: list[dict[str, Any]] = []
    origin: dict[str, str] = {}
    sides: list[dict[str, Any]] = []
    edge_text: dict[str, tuple[str, str]] = {}
    for i, side in enumerate((defender, attacker)):  # the defender is placed first
        rows = fielded(rules, side, state)
        names = unit_names(rows, state)
        for army in state.forces(battle, side.player):
            mine = [r for r in rows if state.units[r[2]].army == army.id]
            if not mine:
                continue
            e = edges[army.id]
            at = edge_cells(cells.width, cells.height, cells.stagger, cells.standable, vecs[e.direction],
                            len(mine), taken)
            edge_text[army.id] = (compass(vecs[e.direction]), e.why)
            for (tid, ttype, cuid), c in zip(mine, at, strict=True):
                taken.add(c)
                origin[tid] = cuid
                units.append({"id": tid, "type": ttype, "side": side.player, "at": [c[0], c[1]],
                              "name": names[tid]})
        best = max(side.generals, key=lambda g: (g.level, g.id), default=None)
        stats = tr.commander(side.general_level)
        commander: dict[str, Any] = {
            "name": best.name if best else f"{side.name} field officer",
            "stats": dict(stats.stats), "skills": dict(stats.skills), "unit": rows[0][0]}
        sides.append({"id": side.player, "name": side.name, "colour": side.colour or tr.colours[i % len(tr.colours)],
                      "commander": commander})
    where = place_name(state, battle)
    scenario: dict[str, Any] = {
        "name": f"Battle {battle.id} at {where}, week {state.week}",
        "description": (f"Campaign battle {battle.id} ({terrain or 'unknown terrain'}) fought out as a tactical "
                        f"battle: {state.player_says(defender.player, 'defends')}, {state.player_says(attacker.player, 'attacks')}. "
                        + " ".join(f"{state.army_says(a, 'deploys')} on the {edge} edge."
                                   for a, (edge, _why) in edge_text.items())
                        + " Its result goes back to the campaign when it ends."),
        "map": map_name,
        "map_units": False,
        "seed": seed,
        "round_limit": tr.round_limit,
        "sides": sides,
        "units": units,
        "objectives": [
            {"kind": "destroy_all", "side": attacker.player, "description": f"Destroy every unit of {defender.name}."},
            {"kind": "destroy_all", "side": defender.player, "description": f"Destroy every unit of {attacker.name}."},
            {"kind": "survive", "side": defender.player, "round": tr.round_limit,
             "description": f"Hold the field to the end of round {tr.round_limit}."},
        ],
    }
    return TacticalPlan(map_name, scenario, origin, defender.player, attacker.player, edge_text)


def check_complete(rules: ScalesRules, powers: Mapping[str, Any]) -> list[str]:
    """Campaign unit types (by power) the tactical table does not map: for tests and `validate`."""
    out = []
    for pid, power in powers.items():
        for t in power.units:
            if t not in rules.tactical.units.get(pid, {}):
                out.append(f"{pid}.{t}")
    return out
