"""Campaign battle -> mass battle file (docs/scales.md "To a mass battle").

Each side becomes one force: its campaign units' head counts (by unit kind) summed into one
Brute division per armour class, its Generals as individuals (the best one commands; a side
without a General gets a captain), the terrain kind read through the mass rules' own
`map_terrain` table from the hex's terrain.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.bridge.models import ScalesRules
from game.bridge.sides import BridgeError, Side, open_battle, place_name, sides_of, terrain_of
from game.systems.campaign.rules.state import CampaignState

ARMOUR_ORDER = ("heavy", "light", "none")


@dataclass(frozen=True)
class MassPlan:
    battle: dict[str, Any]  # the battle file's data
    heads: dict[str, dict[str, int]]  # player -> campaign unit id -> head count
    armour: dict[str, str]  # campaign unit id -> armour class
    defender: str
    attacker: str
    terrain_kind: str


def terrain_kind(rules: ScalesRules, map_terrain: Mapping[str, str], terrain: str) -> str:
    name = rules.mass.terrain.get(terrain)
    if name is None:
        raise BridgeError(f"scales rules: mass.terrain has no entry for campaign terrain {terrain!r}")
    kind = map_terrain.get(name)
    if kind is None:
        raise BridgeError(f"the mass rules' map_terrain has no kind for {name!r} (from campaign {terrain!r})")
    if kind == "expansive":
        raise BridgeError(f"campaign {terrain} reads as {name}, expansive ground: the mass rules refuse a battle there")
    return kind


def _force(rules: ScalesRules, state: CampaignState, side: Side) -> tuple[dict[str, Any], dict[str, int],
                                                                         dict[str, str]]:
    mr = rules.mass
    heads: dict[str, int] = {}
    armour: dict[str, str] = {}
    for uid in side.units:
        t = state.units[uid].type_id
        kind = mr.unit_kinds.get(t)
        if kind is None:
            raise BridgeError(f"scales rules: mass.unit_kinds has no kind for campaign unit type {t!r} (unit {uid})")
        heads[uid] = mr.kinds[kind].heads
        armour[uid] = mr.kinds[kind].armour
    by_class = {a: sum(h for u, h in heads.items() if armour[u] == a) for a in ARMOUR_ORDER}
    individuals: list[dict[str, Any]] = []
    gens = sorted(side.generals, key=lambda g: (-g.level, g.id))
    for g in gens:
        st = mr.general(g.level)
        individuals.append({"id": f"{side.player}-{g.id}", "name": g.name, "rings": dict(st.rings),
                            "skills": {"battle": st.battle}, "status": st.status})
    if not individuals:
        st = mr.general(0)
        individuals.append({"id": f"{side.player}-captain", "name": f"{side.name} captain",
                            "rings": dict(st.rings), "skills": {"battle": st.battle}, "status": st.status})
    force = {"id": side.player, "name": side.name, "commander": individuals[0]["id"],
             "colour": side.colour, "individuals": individuals,
             "brutes": [{"armour": a, "count": n} for a, n in by_class.items() if n > 0]}
    if state.player_plural(side.player):  # (only when plural: a battle file of a power named as one is as before)
        force["plural"] = True
    return force, heads, armour


def mass_plan(state: CampaignState, battle_id: str, rules: ScalesRules, map_terrain: Mapping[str, str],
              seed: int = 1) -> MassPlan:
    battle = open_battle(state, battle_id)
    terrain = terrain_of(state, battle)
    kind = terrain_kind(rules, map_terrain, terrain)
    defender, attacker = sides_of(state, battle)
    forces = []
    heads: dict[str, dict[str, int]] = {}
    armour: dict[str, str] = {}
    for side in (defender, attacker):
        f, h, a = _force(rules, state, side)
        forces.append(f)
        heads[side.player] = h
        armour.update(a)
    where = place_name(state, battle)
    data: dict[str, Any] = {
        "system": "mass-battle",
        "name": f"Battle {battle.id} at {where}, week {state.week}",
        "description": (f"Campaign battle {battle.id} ({terrain}) fought out as a mass battle: "
                        f"{state.player_says(defender.player, 'defends')}, "
                        f"{state.player_says(attacker.player, 'attacks')}. Its result goes back to the campaign when it ends."),
        "seed": seed,
        "prepared": True,
        "terrain": kind,
        "forces": forces,
    }
    return MassPlan(data, heads, armour, defender.player, attacker.player, kind)
