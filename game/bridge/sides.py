"""The two sides of a campaign battle as the translations see them: who defends, which campaign
units and Generals each brings."""

from __future__ import annotations

from dataclasses import dataclass

from game.systems.campaign.rules.state import BattleState, CampaignState, GeneralState


class BridgeError(ValueError):
    """A campaign battle that cannot be translated (one clear line)."""


@dataclass(frozen=True)
class Side:
    player: str
    name: str
    power: str
    units: tuple[str, ...]  # alive campaign unit ids, army by army
    generals: tuple[GeneralState, ...]  # every General with the side's armies in the battle
    defender: bool
    colour: str = ""  # "#rrggbb": the player's campaign colour, kept at every scale (CampaignSetup.colour_of)

    @property
    def general_level(self) -> int:
        return max((g.level for g in self.generals), default=0)


def open_battle(state: CampaignState, battle_id: str) -> BattleState:
    b = state.battles.get(battle_id)
    if b is None:
        known = ", ".join(sorted(state.battles)) or "none"
        raise BridgeError(f"there is no battle {battle_id} in this campaign (battles: {known})")
    if b.over:
        raise BridgeError(f"battle {battle_id} is over ({b.ended}); only an open battle can be fought out")
    return b


def defender_of(state: CampaignState, battle: BattleState) -> str:
    """[decision] The defender is the side none of whose armies moved this week (it held the
    hex); if both or neither moved, the side earlier in the battle's side order."""
    a, b = battle.sides
    moved = {p: any(x.moved for x in state.forces(battle, p)) for p in battle.sides}
    if moved[a] and not moved[b]:
        return b
    return a


def sides_of(state: CampaignState, battle: BattleState) -> tuple[Side, Side]:
    """(defender, attacker)."""
    d = defender_of(state, battle)
    powers = {p.id: p.power for p in state.cs.players}
    out = []
    for p in (d, *[s for s in battle.sides if s != d]):
        units = tuple(state.force_units(battle, p))
        if not units:
            raise BridgeError(f"{state.player_says(p, 'has')} no units left in battle {battle.id}")
        armies = {a.id for a in state.forces(battle, p)}
        gens = tuple(g for g in state.generals.values() if g.owner == p and g.army in armies)
        out.append(Side(p, state.player_name(p), powers.get(p, p), units, gens, p == d, state.cs.colour_of(p)))
    return out[0], out[1]


def terrain_of(state: CampaignState, battle: BattleState) -> str:
    return state.cs.map.terrain.get(battle.hex, "")


def place_name(state: CampaignState, battle: BattleState) -> str:
    name = state.cs.map.names.get(battle.hex)
    where = f"{battle.hex[0]},{battle.hex[1]}"
    return f"{name} ({where})" if name else f"hex {where}"
