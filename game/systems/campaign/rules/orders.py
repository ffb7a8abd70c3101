"""What a side may order in one battle this week, as queries for a client's orders panel: the
manoeuvres with what each beats and loses to, the vanguards that may lead each (and the best),
every stratagem with its requirement and, when it cannot be declared, the reason, and the hexes
a withdrawal or a breakthrough may aim at. Each answer comes from the same checks the engine
applies to a `GiveOrders` (combat.orders_refusal, hexes.is_adjacent), so everything a panel
offers is accepted and nothing accepted is missing.

Everything is read from the state the caller passes: a client passes `view(state, player)`, so
no other side's sealed orders are read here.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.systems.campaign.rules import hexes
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import STAT_OF, SideFacts, orders_refusal, stratagem_refusal
from game.systems.campaign.rules.commands import GiveOrders
from game.systems.campaign.rules.models import (
    MANOEUVRE_NAMES,
    MANOEUVRES,
    STRATAGEMS,
    Coord,
    Manoeuvre,
    RulesData,
    Stratagem,
    display_name,
)
from game.systems.campaign.rules.planner import best_vanguard as _best
from game.systems.campaign.rules.state import BattleState, CampaignState

_NEED_TEXT = {
    "observer": "a unit or General with the observer trait",
    "scout": "a unit with the scout trait",
    "divisions": "{n} infantry divisions",
    "two_armies": "two friendly armies in the battle",
    "difficult_terrain": "difficult terrain in the battle's hex",
    "fast": "every unit at Mobility 4 or more",
    "long_range_vanguard": "a long-range unit as the vanguard",
}


def title(name: str) -> str:
    """A stratagem's or manoeuvre's name for people, as the rules write it ("hold_the_line" ->
    "Hold the Line")."""
    return MANOEUVRE_NAMES.get(name) or display_name(name)


@dataclass(frozen=True)
class ManoeuvreInfo:
    id: Manoeuvre
    name: str
    stat: str  # the stat its vanguard rolls with
    beats: tuple[Manoeuvre, ...]
    loses_to: tuple[Manoeuvre, ...]
    refusal: str | None = None  # None: these forces may order it (no unit may lead it: why)

    @property
    def tip(self) -> str:
        beats = ", ".join(MANOEUVRE_NAMES[m] for m in self.beats) or "nothing"
        loses = ", ".join(MANOEUVRE_NAMES[m] for m in self.loses_to) or "nothing"
        return (f"{self.name} (the vanguard rolls {self.stat.title()}): beats {beats}; loses to {loses}."
                + (f" Not now: {self.refusal}" if self.refusal else ""))


def manoeuvres(rules: RulesData) -> tuple[ManoeuvreInfo, ...]:
    """The six manoeuvres with the rules' matchups (what each beats, what beats it)."""
    out = []
    for m in MANOEUVRES:
        beats = tuple(rules.matchups.get(m, ()))
        loses = tuple(o for o in MANOEUVRES if m in rules.matchups.get(o, ()))
        out.append(ManoeuvreInfo(m, MANOEUVRE_NAMES[m], STAT_OF[m], beats, loses))
    return tuple(out)


def requirement(rules: RulesData, name: str) -> str:
    """What stratagem `name` needs and does, as a sentence from the rules data."""
    spec = rules.stratagems[name]  # type: ignore[index]
    goes = "any manoeuvre" if spec.with_ == "any" else " or ".join(MANOEUVRE_NAMES[m] for m in spec.with_)
    parts = []
    if spec.general_level:
        parts.append(f"a fighting General of level {spec.general_level}+")
    for need in spec.needs:
        parts.append(_NEED_TEXT.get(need, need).format(n=rules.continuous_front_divisions))
    needs = f" and needs {', '.join(parts)}" if parts else ""
    what = f" Effect: {spec.text}." if spec.text else ""
    return f"{title(name)} goes with {goes}{needs}.{what}"


@dataclass(frozen=True)
class StratagemOption:
    id: str
    name: str
    requirement: str
    goes_with: bool  # it may go with the manoeuvre at all
    refusal: str | None  # None: it may be added to the stratagems already chosen


@dataclass(frozen=True)
class VanguardOption:
    id: str
    name: str
    attack: int
    defense: int
    mobility: int
    durability: str
    refusal: str | None  # None: it may lead the manoeuvre

    @property
    def label(self) -> str:
        return f"{self.name}  A{self.attack} D{self.defense} M{self.mobility}"


@dataclass(frozen=True)
class OrdersChoices:
    """Everything an orders panel offers one side for one battle, given its current choice."""

    battle: str
    player: str
    orders: GiveOrders  # the current choice made legal (see `choices`)
    manoeuvres: tuple[ManoeuvreInfo, ...]
    vanguards: tuple[VanguardOption, ...]  # every unit of the forces, legal ones first
    best_vanguard: str
    stratagems: tuple[StratagemOption, ...]  # all of them, in the rules' order
    withdraw_hexes: tuple[Coord, ...]  # where a withdrawal may aim (only asked for when it may happen)
    breakthrough_hexes: tuple[Coord, ...]
    asks_withdraw_hex: bool
    asks_breakthrough_hex: bool
    dropped: tuple[str, ...]  # what the last change of manoeuvre or vanguard removed, and why


def _facts(state: CampaignState, battle: BattleState, player: str) -> SideFacts:
    return side_facts(state, battle, player)


def best_vanguard(state: CampaignState, battle_id: str, player: str, manoeuvre: Manoeuvre,
                  stratagems: tuple[str, ...] = ()) -> str | None:
    """The unit best fit to lead `manoeuvre`: the highest stat the manoeuvre rolls (Defense for a
    Last Stand's rearguard) among the units that may lead it; the planner assumes the same."""
    facts = _facts(state, state.battles[battle_id], player)
    return _best(facts, manoeuvre, manoeuvre == "withdraw" and "last_stand" in stratagems)


def _next_to(state: CampaignState, battle: BattleState) -> tuple[Coord, ...]:
    m = state.cs.map
    out = []
    for c in hexes.adjacent(m, battle.hex):
        t = state.cs.rules.terrain.get(m.terrain.get(c, ""))
        if t is not None and t.cost is not None:
            out.append(c)
    return tuple(out)


def choices(state: CampaignState, battle_id: str, player: str, manoeuvre: Manoeuvre = "defend",
            vanguard: str | None = None, stratagems: tuple[str, ...] = (), withdraw_to: Coord | None = None,
            breakthrough_to: Coord | None = None) -> OrdersChoices:
    """The options for `player` in battle `battle_id` around the choice given, and that choice
    made legal: a vanguard that cannot lead the manoeuvre becomes the best one, stratagems that
    no longer go with the manoeuvre or vanguard are dropped (each with its reason), a hex that is
    not next to the battle is forgotten."""
    b = state.battles[battle_id]
    rules = state.cs.rules
    facts = _facts(state, b, player)
    dropped: list[str] = []
    vans = []
    for u in facts.units:
        why = orders_refusal(rules, facts, manoeuvre, (), u.id)
        t = u.type
        vans.append(VanguardOption(u.id, t.name, t.attack, t.defense, t.mobility, t.durability, why))
    vans.sort(key=lambda v: v.refusal is not None)
    best = _best(facts, manoeuvre, manoeuvre == "withdraw" and "last_stand" in stratagems) or ""
    if vanguard is None or orders_refusal(rules, facts, manoeuvre, (), vanguard) is not None:
        if vanguard is not None and best and vanguard != best:
            bu = facts.unit(best)
            dropped.append(f"The vanguard is now {bu.type.name if bu else best}: "
                           f"{orders_refusal(rules, facts, manoeuvre, (), vanguard)}")
        vanguard = best
    kept: list[Stratagem] = []
    for s in stratagems:
        why = orders_refusal(rules, facts, manoeuvre, (*kept, s), vanguard)
        if why is None:
            kept.append(s)  # type: ignore[arg-type]
        else:
            dropped.append(f"{title(s)} dropped: {why}")
    options = []
    for s in STRATAGEMS:
        spec = rules.stratagems[s]
        goes = spec.with_ == "any" or manoeuvre in spec.with_
        if s in kept:
            why = None
        else:
            why = stratagem_refusal(rules, s, manoeuvre, facts, vanguard) or \
                orders_refusal(rules, facts, manoeuvre, (*kept, s), vanguard)
        options.append(StratagemOption(s, title(s), requirement(rules, s), goes, why))
    near = _next_to(state, b)
    asks_w = manoeuvre == "withdraw" or "flee" in kept
    asks_b = "breakthrough" in kept
    orders = GiveOrders(player=player, battle=battle_id, manoeuvre=manoeuvre, vanguard=vanguard,
                        stratagems=tuple(kept),
                        withdraw_to=withdraw_to if (asks_w and withdraw_to in near) else None,
                        breakthrough_to=breakthrough_to if (asks_b and breakthrough_to in near) else None)
    infos = []
    for info in manoeuvres(rules):
        whys = [orders_refusal(rules, facts, info.id, (), u.id) for u in facts.units]
        why = None if any(w is None for w in whys) else (whys[0] if whys else "These forces have no unit left.")
        infos.append(ManoeuvreInfo(info.id, info.name, info.stat, info.beats, info.loses_to, why))
    return OrdersChoices(battle_id, player, orders, tuple(infos), tuple(vans), best, tuple(options),
                         near, near, asks_w, asks_b, tuple(dropped))


def toggled(state: CampaignState, current: GiveOrders, stratagem: str) -> GiveOrders:
    """`current` with `stratagem` added (in the rules' order) or removed; unchanged when adding it
    is refused (the refusal is `choices(...).stratagems[...]`)."""
    have: list[str] = list(current.stratagems)
    if stratagem in have:
        have.remove(stratagem)
    else:
        facts = _facts(state, state.battles[current.battle], current.player)
        if orders_refusal(state.cs.rules, facts, current.manoeuvre, (*have, stratagem), current.vanguard):
            return current
        have.append(stratagem)
    ordered = tuple(s for s in STRATAGEMS if s in have)
    return current.model_copy(update={"stratagems": ordered})


def battles_to_order(state: CampaignState, player: str) -> list[BattleState]:
    """The open battles `player` still owes orders for (fought by the tables)."""
    return [b for b in state.open_games() if player in b.sides and player not in b.orders and b.fought_as == "tables"]


def enemy_assumption(state: CampaignState, battle_id: str, player: str) -> str:
    """What the planner assumes of the enemy, as a sentence."""
    b = state.battles[battle_id]
    foe = b.sides[1] if b.sides[0] == player else b.sides[0]
    its = state.player_agrees(foe, "its")
    return (f"{state.player_says(foe, 'is')} assumed to lead each manoeuvre with {its} strongest vanguard and "
            f"to declare no stratagems; {its} sealed orders are not known.")


__all__ = ["ManoeuvreInfo", "OrdersChoices", "StratagemOption", "VanguardOption", "battles_to_order",
           "best_vanguard", "choices", "enemy_assumption", "manoeuvres", "requirement", "title", "toggled"]
