"""The week as an explicit state machine, and every command's handler.

    movement (player order, `end_turn` passes) -> declare (every player in a contested hex,
    sealed answers) -> pickup (player order) -> narrative (every player in a battle) -> orders
    (sealed, every side of every battle once) -> resolution in player order -> end of week.

A phase with nobody to ask is skipped. Commands go through the core kernel
(`game.core.kernel`): a handler works on a `CampaignTxn` (txn.py), replacing `txn.state` with
new immutable states and emitting events, and raises `Reject(reason)` for anything illegal, so
`apply` never half-changes a state.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.core.dice import Rng
from game.core.kernel import Outcome, Reject, dispatch
from game.core.system import possessive
from game.systems.campaign.rules import battle as battle_mod
from game.systems.campaign.rules import dice_seed, external, hexes
from game.systems.campaign.rules.combat import orders_refusal
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GiveOrders,
    GmBattleAbandon,
    GmBattleDice,
    GmBattleResult,
    GmEditUnit,
    GmForceRolls,
    GmMoveArmy,
    GmSetGeneral,
    GmSetLock,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.events import (
    ArmyJoined,
    ArmyLeft,
    ArmyMoved,
    BattleEnded,
    BattleStarted,
    Declared,
    GeneralMoved,
    GmDid,
    NarrativeFinished,
    OrdersSealed,
    PhaseBegan,
    Posted,
    TurnPassed,
    WeekEnded,
)
from game.systems.campaign.rules.gm_lock import GmLock
from game.systems.campaign.rules.models import CampaignSetup, Coord
from game.systems.campaign.rules.state import (
    ArmyState,
    BattleState,
    CampaignState,
    GeneralState,
    Orders,
    Post,
    UnitState,
    hex_key,
    key_hex,
)
from game.systems.campaign.rules.txn import CampaignTxn

MAX_POST = 8000


class SetupError(ValueError):
    pass


def initial_state(setup: CampaignSetup, seed: int) -> CampaignState:
    units: dict[str, UnitState] = {}
    armies: dict[str, ArmyState] = {}
    players = {p.id for p in setup.players}
    for a in setup.armies:
        if a.id in armies:
            raise SetupError(f"two armies are called {a.id}")
        if a.owner not in players:
            raise SetupError(f"army {a.id} belongs to unknown player {a.owner}")
        if not a.units:
            raise SetupError(f"army {a.id} has no units")
        for u in a.units:
            if u.id in units:
                raise SetupError(f"two units are called {u.id}")
            if u.type_id not in setup.unit_types:
                raise SetupError(f"unit {u.id}: unknown unit type {u.type_id}")
            units[u.id] = UnitState(id=u.id, type_id=u.type_id, army=a.id)
        armies[a.id] = ArmyState(id=a.id, name=a.name, owner=a.owner, hex=a.hex, route=a.route,
                                 units=tuple(u.id for u in a.units))
    generals: dict[str, GeneralState] = {}
    for g in setup.generals:
        if g.army not in armies or armies[g.army].owner != g.owner:
            raise SetupError(f"General {g.id} must start with an army of its owner {g.owner}")
        generals[g.id] = GeneralState(id=g.id, name=g.name, owner=g.owner, level=g.level, traits=g.traits,
                                      army=g.army, hex=armies[g.army].hex)
    return CampaignState(setup=setup, armies=armies, units=units, generals=generals,
                         rng=Rng.from_seed(seed).state, readings=setup.rules.readings)


# --------------------------------------------------------------------------- who is asked

def active_player(state: CampaignState) -> str | None:
    if state.phase in ("movement", "pickup") and state.turn < len(state.players):
        return state.players[state.turn]
    return None


def battle_players(state: CampaignState) -> list[str]:
    involved = {p for b in state.open_games() for p in b.sides}
    return [p for p in state.players if p in involved]


def waiting_for(state: CampaignState) -> list[str]:
    if state.phase in ("movement", "pickup"):
        p = active_player(state)
        return [p] if p else []
    if state.phase == "declare":
        pending = pending_declarations(state)
        return [p for p in state.players if any(p in left for left in pending.values())]
    if state.phase == "narrative":
        return [p for p in battle_players(state) if p not in state.narrative_done]
    if state.phase == "orders":
        return [p for p in state.players
                if any(p in b.sides and p not in b.orders and b.fought_as == "tables" for b in state.open_games())]
    return []


# --------------------------------------------------------------------------- movement queries

def movement_points(state: CampaignState, army: ArmyState) -> int:
    alive = state.alive_units(army.id)
    if not alive:
        return 0
    return min(state.unit_type(u).mobility for u in alive) + state.cs.rules.movement.bonus


def enemy_at(state: CampaignState, c: Coord, owner: str) -> bool:
    return any(a.hex == c and a.owner != owner for a in state.armies.values())


def entry_cost(state: CampaignState, c: Coord) -> int | None:
    t = state.cs.rules.terrain.get(state.cs.map.terrain.get(c, ""))
    return None if t is None else t.cost


@dataclass(frozen=True)
class ReachEntry:
    cost: int
    path: tuple[Coord, ...]
    stops: str  # "" or why the army must stop there


def reach(state: CampaignState, army_id: str) -> dict[Coord, ReachEntry]:
    """Every hex the army can end its move in this week, with the cheapest path (the same rules
    `move_army` checks). Entering a hex with an enemy army or a battle ends the move."""
    army = state.armies[army_id]
    mp = movement_points(state, army)
    m = state.cs.map
    best: dict[Coord, ReachEntry] = {}
    heap: list[tuple[int, tuple[Coord, ...]]] = [(0, (army.hex,))]
    seen: dict[Coord, int] = {army.hex: 0}
    while heap:
        cost, path = heapq.heappop(heap)
        at = path[-1]
        if cost > seen.get(at, 1 << 30):
            continue
        for nb in hexes.adjacent(m, at):
            c = entry_cost(state, nb)
            if c is None or cost + c > mp:
                continue
            total = cost + c
            if total >= seen.get(nb, 1 << 30):
                continue
            seen[nb] = total
            stop = "enemy" if enemy_at(state, nb, army.owner) else ("battle" if state.battle_at(nb) else "")
            best[nb] = ReachEntry(total, path[1:] + (nb,), stop)
            if not stop:
                heapq.heappush(heap, (total, path + (nb,)))
    best.pop(army.hex, None)
    return best


def _check_path(state: CampaignState, army: ArmyState, path: tuple[Coord, ...]) -> tuple[int, str]:
    if not path:
        raise Reject("A move needs at least one hex to enter.")
    mp = movement_points(state, army)
    m = state.cs.map
    at = army.hex
    cost = 0
    for i, c in enumerate(path):
        if not hexes.on_map(m, c):
            raise Reject(f"Hex {c[0]},{c[1]} is off the map.")
        if not hexes.is_adjacent(m, at, c):
            raise Reject(f"Hex {c[0]},{c[1]} is not next to {at[0]},{at[1]}: a path goes hex by hex.")
        step = entry_cost(state, c)
        if step is None:
            raise Reject(f"Armies cannot enter hex {c[0]},{c[1]} ({m.terrain.get(c, 'nothing')}).")
        cost += step
        if cost > mp:
            raise Reject(f"{state.army_says(army.id, 'has')} {mp} movement points; this path costs {cost} by hex {c[0]},{c[1]}.")
        stop = "an enemy army" if enemy_at(state, c, army.owner) else ("a battle" if state.battle_at(c) else "")
        if stop and i != len(path) - 1:
            raise Reject(f"{state.army_says(army.id, 'must')} stop at hex {c[0]},{c[1]}: it holds {stop}.")
        at = c
    last = path[-1]
    why = "enemy" if enemy_at(state, last, army.owner) else ("battle" if state.battle_at(last) else "")
    return cost, why


# --------------------------------------------------------------------------- handlers

Handler = Callable[[CampaignTxn, Any], None]


def _move(txn: CampaignTxn, cmd: MoveArmy) -> None:
    state = txn.state
    _need_phase(state, "movement")
    army = _army(state, cmd.army)
    if army.owner != active_player(state):
        raise Reject(f"It is {possessive(state.player_name(active_player(state) or ''))} movement, not "
                     f"{possessive(state.player_name(army.owner))}.")
    if army.moved:
        raise Reject(f"{state.army_says(army.id, 'has')} already moved this week.")
    if held_in_battle(state, army):
        raise Reject(f"{state.army_says(army.id, 'is')} held in a battle and cannot move on.")
    cost, why = _check_path(state, army, cmd.path)
    left = army.battle if army.battle and cmd.path[-1] != army.hex else None
    last = cmd.path[-1]
    prev = cmd.path[-2] if len(cmd.path) > 1 else army.hex
    txn.emit(ArmyMoved(army=army.id, path=cmd.path, cost=cost, stopped_by=why))
    upd: dict[str, Any] = {"hex": last, "route": prev, "moved": True, "spent": cost}
    if left:
        upd["battle"] = None
    b = state.battle_at(last)
    if b is not None:
        if army.owner in b.sides:
            upd["battle"] = b.id
            txn.emit(ArmyJoined(battle=b.id, army=army.id))
        else:
            upd["held_back"] = True
    armies = dict(state.armies)
    armies[army.id] = army.model_copy(update=upd)
    generals = {gid: (g.model_copy(update={"hex": last}) if g.army == army.id else g)
                for gid, g in state.generals.items()}
    txn.state = state.model_copy(update={"armies": armies, "generals": generals})
    if left:
        _leave_battle(txn, left, army.id)


def held_in_battle(state: CampaignState, army: ArmyState) -> bool:
    """Whether the army may not move this week because its battle holds it. A battle whose last
    week read as Skirmish for either side holds nobody in the next week (operational-rules §7.1)."""
    if not army.battle:
        return False
    b = state.battles.get(army.battle)
    return b is None or b.over or b.loose_week != state.week


def _leave_battle(txn: CampaignTxn, battle_id: str, army_id: str) -> None:
    """An army moved out of a battle that did not hold it: the battle is over for it (its Large
    damage is cleared, §7.3), and over for everyone when that side has no army left in it."""
    w = battle_mod.Work(txn.state, txn.roller)
    b = w.battles[battle_id]
    battle_mod.clear_large_damage(w, w.armies[army_id])
    w.events.append(ArmyLeft(battle=battle_id, army=army_id))
    owner = w.armies[army_id].owner
    if not any(a.battle == battle_id and a.owner == owner for a in w.armies.values()):
        how = f"{txn.state.player_name(owner)} left the field"
        for a in list(w.armies.values()):
            if a.battle == battle_id:
                w.armies[a.id] = a.model_copy(update={"battle": None})
                battle_mod.clear_large_damage(w, a)
        w.battles[battle_id] = b.model_copy(update={"over": True, "ended": how, "orders": {}})
        w.events.append(BattleEnded(battle=battle_id, how=how))
    txn.state = w.snapshot()
    txn.events.extend(w.events)


def _end_turn(txn: CampaignTxn, cmd: EndTurn) -> None:
    state = txn.state
    if state.phase not in ("movement", "pickup"):
        raise Reject(f"Nothing to end: the {state.phase} phase is answered by every player, not in turn.")
    nxt = state.turn + 1
    txn.state = state.model_copy(update={"turn": nxt})
    if nxt < len(state.players):
        txn.emit(TurnPassed(phase=state.phase, player=state.players[nxt]))
        return
    txn.emit(TurnPassed(phase=state.phase, player=None))
    if state.phase == "movement":
        _begin_declare(txn)
    else:
        _begin_narrative(txn)


def _begin_declare(txn: CampaignTxn) -> None:
    state = txn.state
    decl: dict[str, dict[str, bool | None]] = {}
    order = state.players
    hexes_seen: set[Coord] = set()
    for a in state.armies.values():
        if a.hex in hexes_seen:
            continue
        hexes_seen.add(a.hex)
        if state.battle_at(a.hex) is not None:
            continue
        owners = sorted({x.owner for x in state.armies_at(a.hex)}, key=order.index)
        if len(owners) >= 2:
            decl[hex_key(a.hex)] = {owners[0]: None, owners[1]: None}
    txn.state = state.model_copy(update={"phase": "declare", "declarations": dict(sorted(decl.items()))})
    txn.emit(PhaseBegan(week=state.week, phase="declare"))
    if not decl:
        _begin_pickup(txn)


def pending_declarations(state: CampaignState) -> dict[str, list[str]]:
    """Contested hex ("c,r") -> the players still to declare there, in player order. Either side's
    declaration to fight starts the battle [source], so from the third readings a hex where someone
    has declared to fight asks nobody else [decision] (before them, both were asked)."""
    out: dict[str, list[str]] = {}
    for k, d in state.declarations.items():
        if state.cs.rules.readings >= 3 and any(v for v in d.values()):
            continue
        left = [p for p, v in d.items() if v is None]
        if left:
            out[k] = left
    return out


def _declare(txn: CampaignTxn, cmd: Declare) -> None:
    state = txn.state
    _need_phase(state, "declare")
    key = hex_key(cmd.hex)
    d = state.declarations.get(key)
    if d is None:
        raise Reject(f"No contested hex at {key} needs a declaration.")
    if cmd.player not in d:
        raise Reject(f"{state.player_says(cmd.player, 'has')} no say in the hex {key}.")
    if d[cmd.player] is not None:
        raise Reject(f"{state.player_says(cmd.player, 'has')} already declared for hex {key}.")
    if cmd.player not in pending_declarations(state).get(key, []):
        fighter = next(p for p, v in d.items() if v)
        raise Reject(f"The battle at hex {key} is already on: {state.player_name(fighter)} declared to fight, "
                     "and either side's declaration starts it.")
    decl = {k: dict(v) for k, v in state.declarations.items()}
    decl[key][cmd.player] = cmd.fight
    state = txn.state = state.model_copy(update={"declarations": decl})
    txn.emit(Declared(player=cmd.player, hex=cmd.hex, fight=cmd.fight))
    if pending_declarations(state):
        return
    w = battle_mod.Work(state, txn.roller)
    n = state.next_battle
    for k, dd in decl.items():
        if not any(dd.values()):
            continue
        c = key_hex(k)
        sides = tuple(dd)
        bid = f"B{n}"
        n += 1
        b = BattleState(id=bid, hex=c, sides=(sides[0], sides[1]), started_week=state.week)
        for a in list(w.armies.values()):
            if a.hex == c:
                if a.owner in b.sides:
                    w.armies[a.id] = a.model_copy(update={"battle": bid})
                else:
                    w.armies[a.id] = a.model_copy(update={"held_back": True})
        w.events.append(BattleStarted(battle=bid, hex=c, sides=b.sides))
        scouting: dict[str, int] = {}
        # a week with a scouting seed: the battle's own generator (dice_seed.py), not the campaign's
        own = dice_seed.scouting_roller(state, c, {a.id: a.hex for a in w.armies.values() if a.battle == bid})
        for p in b.sides:
            dice = battle_mod.scouting_dice(state, b, p, w.armies)
            if dice:
                _, s = w.roll(dice, bid, p, f"scouting roll of {state.player_name(p)}", roller=own)
            else:
                s = 0
            scouting[p] = s
        w.battles[bid] = b.model_copy(update={"scouting": scouting})
    txn.state = w.snapshot().model_copy(update={"next_battle": n, "declarations": {}})
    txn.events.extend(w.events)
    _begin_pickup(txn)


def _begin_pickup(txn: CampaignTxn) -> None:
    txn.emit(PhaseBegan(week=txn.state.week, phase="pickup"))
    txn.state = txn.state.model_copy(update={"phase": "pickup", "turn": 0, "declarations": {}})


def _pickup(txn: CampaignTxn, cmd: Pickup) -> None:
    state = txn.state
    _need_phase(state, "pickup")
    g = state.generals.get(cmd.general)
    if g is None:
        raise Reject(f"There is no General called {cmd.general}.")
    if g.owner != active_player(state):
        raise Reject(f"{g.name} does not belong to the player whose pick-up move it is.")
    if g.picked_up:
        raise Reject(f"{g.name} has already made a pick-up move this week.")
    army = _army(state, cmd.army)
    if army.owner != g.owner:
        raise Reject(f"{g.name} can only join an army of its own side.")
    if army.id == g.army:
        raise Reject(f"{g.name} is already with {army.name}.")
    rng = state.cs.rules.movement.pickup_range
    dist = hexes.hex_distance(state.cs.map, g.hex, army.hex)
    if dist > rng:
        raise Reject(f"{state.army_says(army.id, 'is')} {dist} hexes from {g.name}; a pick-up move reaches {rng}.")
    generals = dict(state.generals)
    generals[g.id] = g.model_copy(update={"army": army.id, "hex": army.hex, "picked_up": True})
    txn.state = state.model_copy(update={"generals": generals})
    txn.emit(GeneralMoved(general=g.id, army=army.id, hex=army.hex))


def _begin_narrative(txn: CampaignTxn) -> None:
    txn.state = txn.state.model_copy(update={"phase": "narrative", "narrative_done": ()})
    txn.emit(PhaseBegan(week=txn.state.week, phase="narrative"))
    if not battle_players(txn.state):
        _end_week(txn)


def _post(txn: CampaignTxn, cmd: WritePost) -> None:
    state = txn.state
    _need_phase(state, "narrative")
    b = state.battles.get(cmd.battle)
    if b is None or b.over:
        raise Reject(f"There is no battle {cmd.battle} going on.")
    if cmd.player not in b.sides:
        raise Reject(f"{state.player_says(cmd.player, 'has')} no forces in battle {b.id}.")
    if cmd.player in state.narrative_done:
        raise Reject(f"{state.player_says(cmd.player, 'has')} finished posting this week.")
    if not cmd.text.strip():
        raise Reject("A story post needs some text.")
    if len(cmd.text) > MAX_POST:
        raise Reject(f"A story post is at most {MAX_POST} characters.")
    present = {a.id for a in state.forces(b, cmd.player)}
    for gid in cmd.generals:
        g = state.generals.get(gid)
        if g is None or g.owner != cmd.player:
            raise Reject(f"{gid} is not a General of {state.player_name(cmd.player)}.")
        if g.army not in present:
            raise Reject(f"{g.name} is not with the forces in battle {b.id}, so cannot be written into it.")
    post = Post(battle=b.id, player=cmd.player, week=state.week, text=cmd.text, generals=tuple(cmd.generals))
    txn.state = state.model_copy(update={"posts": (*state.posts, post)})
    txn.emit(Posted(player=cmd.player, battle=b.id, generals=tuple(cmd.generals)))


def _narrative_done(txn: CampaignTxn, cmd: NarrativeDone) -> None:
    state = txn.state
    _need_phase(state, "narrative")
    if cmd.player not in battle_players(state):
        raise Reject(f"{state.player_says(cmd.player, 'has')} no battle to write about.")
    if cmd.player in state.narrative_done:
        raise Reject(f"{state.player_says(cmd.player, 'has')} already finished posting.")
    done = (*state.narrative_done, cmd.player)
    state = txn.state = state.model_copy(update={"narrative_done": done})
    txn.emit(NarrativeFinished(player=cmd.player))
    if all(p in done for p in battle_players(state)):
        txn.state = state.model_copy(update={"phase": "orders"})
        txn.emit(PhaseBegan(week=state.week, phase="orders"))


def _orders(txn: CampaignTxn, cmd: GiveOrders) -> None:
    state = txn.state
    _need_phase(state, "orders")
    b = state.battles.get(cmd.battle)
    if b is None or b.over:
        raise Reject(f"There is no battle {cmd.battle} going on.")
    if cmd.player not in b.sides:
        raise Reject(f"{state.player_says(cmd.player, 'is')} not a side of battle {b.id}.")
    if cmd.player in b.orders:
        raise Reject(f"{state.player_says(cmd.player, 'has')} already sealed orders for battle {b.id}.")
    if b.fought_as != "tables":
        raise Reject(f"Battle {b.id} is being fought out as a {b.fought_as} battle; it takes no orders "
                     f"unless the GM abandons it.")
    facts = battle_mod.side_facts(state, b, cmd.player)
    why = orders_refusal(state.cs.rules, facts, cmd.manoeuvre, cmd.stratagems, cmd.vanguard)
    if why:
        raise Reject(why)
    for name, c in (("withdraw_to", cmd.withdraw_to), ("breakthrough_to", cmd.breakthrough_to)):
        if c is not None and not hexes.is_adjacent(state.cs.map, b.hex, c):
            raise Reject(f"{name} {c[0]},{c[1]} is not next to the battle's hex.")
    o = Orders(manoeuvre=cmd.manoeuvre, stratagems=cmd.stratagems, vanguard=cmd.vanguard,
               withdraw_to=cmd.withdraw_to, breakthrough_to=cmd.breakthrough_to)
    battles = dict(state.battles)
    battles[b.id] = b.model_copy(update={"orders": {**b.orders, cmd.player: o}})
    txn.state = state.model_copy(update={"battles": battles})
    txn.emit(OrdersSealed(player=cmd.player, battle=b.id))
    if all(len(x.orders) >= 2 for x in txn.state.open_games()):
        _resolve_all(txn)


def battle_order(state: CampaignState) -> list[BattleState]:
    """Combat resolution in player order: by the earliest player in the battle, then by number."""
    order = state.players
    return sorted(state.open_games(), key=lambda b: (min(order.index(p) for p in b.sides), int(b.id[1:])))


def _resolve_all(txn: CampaignTxn) -> None:
    w = battle_mod.Work(txn.state, txn.roller)
    for b in battle_order(txn.state):
        battle_mod.resolve(w.snapshot(), w, b.id)
    txn.state = w.snapshot()
    txn.events.extend(w.events)
    _end_week(txn)


def _end_week(txn: CampaignTxn) -> None:
    state = txn.state
    units = {uid: (u.model_copy(update={"armour_damage": 0}) if u.armour_damage else u)
             for uid, u in state.units.items()}
    armies = {aid: a.model_copy(update={"moved": False, "held_back": False, "spent": 0})
              for aid, a in state.armies.items()}
    generals = {gid: g.model_copy(update={"picked_up": False}) for gid, g in state.generals.items()}
    txn.emit(WeekEnded(week=state.week))
    txn.state = state.model_copy(update={"units": units, "armies": armies, "generals": generals,
                                         "week": state.week + 1, "phase": "movement", "turn": 0,
                                         "narrative_done": (), "declarations": {}, "scouting_secret": None})
    txn.emit(PhaseBegan(week=txn.state.week, phase="movement"))


# --------------------------------------------------------------------------- GM

def _gm_move(txn: CampaignTxn, cmd: GmMoveArmy) -> None:
    state = txn.state
    army = _army(state, cmd.army)
    if not hexes.on_map(state.cs.map, cmd.to):
        raise Reject(f"Hex {cmd.to[0]},{cmd.to[1]} is off the map.")
    if entry_cost(state, cmd.to) is None:
        raise Reject(f"Armies cannot stand in hex {cmd.to[0]},{cmd.to[1]}.")
    armies = dict(state.armies)
    b = state.battle_at(cmd.to)
    armies[army.id] = army.model_copy(update={"hex": cmd.to, "route": army.hex,
                                              "battle": b.id if b and army.owner in b.sides else None})
    generals = {gid: (g.model_copy(update={"hex": cmd.to}) if g.army == army.id else g)
                for gid, g in state.generals.items()}
    txn.state = state.model_copy(update={"armies": armies, "generals": generals})
    txn.emit(ArmyMoved(army=army.id, path=(cmd.to,), cost=0, reason="gm"))
    txn.emit(GmDid(what=f"moved {army.name} to {cmd.to[0]},{cmd.to[1]}"))


def _gm_edit(txn: CampaignTxn, cmd: GmEditUnit) -> None:
    state = txn.state
    u = state.units.get(cmd.unit)
    if u is None:
        raise Reject(f"There is no unit called {cmd.unit}.")
    upd: dict[str, Any] = {}
    for f in ("armour_damage", "large_damage"):
        v = getattr(cmd, f)
        if v is not None:
            if not 0 <= v <= 99:
                raise Reject(f"{f} must be 0..99.")
            upd[f] = v
    if cmd.destroyed is not None:
        upd["destroyed"] = cmd.destroyed
    units = dict(state.units)
    units[u.id] = u.model_copy(update=upd)
    txn.state = state.model_copy(update={"units": units})
    txn.emit(GmDid(what=f"edited {u.id}: {upd}"))


def _gm_force(txn: CampaignTxn, cmd: GmForceRolls) -> None:
    state = txn.state
    if len(cmd.values) > 500:
        raise Reject("At most 500 forced values at a time.")
    sides = state.cs.rules.dice.sides
    if any(not 1 <= v <= sides for v in cmd.values):
        raise Reject(f"Forced values must be 1..{sides}.")
    txn.state = state.model_copy(update={"forced": (*state.forced, *cmd.values)})
    txn.emit(GmDid(what=f"forced the next rolls: {list(cmd.values)}"))


def _gm_general(txn: CampaignTxn, cmd: GmSetGeneral) -> None:
    state = txn.state
    g = state.generals.get(cmd.general)
    if g is None:
        raise Reject(f"There is no General called {cmd.general}.")
    if not 0 <= cmd.level <= 3:
        raise Reject("A General's level is 0 to 3.")
    generals = dict(state.generals)
    generals[g.id] = g.model_copy(update={"level": cmd.level})
    txn.state = state.model_copy(update={"generals": generals})
    txn.emit(GmDid(what=f"{g.name} is now level {cmd.level}"))


def _gm_dice(txn: CampaignTxn, cmd: GmBattleDice) -> None:
    """Characters' powers (operational-rules §7.12): the GM adds or removes a side's dice for the
    rest of a battle, with the reason (logged; shown in the pool, the planner and the report)."""
    state = txn.state
    b = state.battles.get(cmd.battle)
    if b is None or b.over:
        raise Reject(f"There is no battle {cmd.battle} going on.")
    if cmd.player not in b.sides:
        raise Reject(f"{state.player_says(cmd.player, 'is')} not a side of battle {b.id}.")
    if not -state.cs.rules.dice.max_pool <= cmd.dice <= state.cs.rules.dice.max_pool:
        raise Reject(f"The GM's dice for a battle are -{state.cs.rules.dice.max_pool} to "
                     f"{state.cs.rules.dice.max_pool}.")
    why = cmd.reason.strip()
    if cmd.dice and not why:
        raise Reject("Say why the GM adds or removes dice (the reason is logged and shown).")
    gm = dict(b.gm_dice)
    if cmd.dice:
        gm[cmd.player] = (cmd.dice, why)
    else:
        gm.pop(cmd.player, None)
    txn.state = state.model_copy(update={"battles": {**state.battles, b.id: b.model_copy(update={"gm_dice": gm})}})
    who = state.player_name(cmd.player)
    txn.emit(GmDid(what=(f"{'adds' if cmd.dice > 0 else 'removes'} {abs(cmd.dice)} dice for {who} in battle "
                         f"{b.id}: {why}") if cmd.dice else f"clears the GM's dice for {who} in battle {b.id}"))


def _gm_lock(txn: CampaignTxn, cmd: GmSetLock) -> None:
    """The GM's passphrase (rules/gm_lock.py): set once for the whole campaign, and only while no
    orders are sealed (until then the GM view shows nothing a player could not see)."""
    state = txn.state
    if state.gm_lock is not None:
        raise Reject("The GM's passphrase is already set: it holds for the whole campaign.")
    if any(b.orders for b in state.open_games()):
        raise Reject("Orders are sealed: the GM's passphrase may be set only while none are.")
    lock = GmLock(salt=cmd.salt, iterations=cmd.iterations, digest=cmd.digest)
    txn.state = state.model_copy(update={"gm_lock": lock})
    txn.emit(GmDid(what="the GM's passphrase is set for the whole campaign (kept only as a salted digest)"))


def _gm_result(txn: CampaignTxn, cmd: GmBattleResult) -> None:
    """An externally decided battle result (external.py); the week goes on as if the battle had
    been resolved: when it was the last one the phase waited for, the phase moves on."""
    external.apply_result(txn, cmd)
    _battle_settled(txn)


def _gm_abandon(txn: CampaignTxn, cmd: GmBattleAbandon) -> None:
    """A battle fought out goes back to the tables; when both its sides had sealed orders before
    (and nothing else is waited for), the week's battles are resolved now."""
    external.abandon(txn, cmd)
    if txn.state.phase == "orders" and all(len(x.orders) == 2 for x in txn.state.open_games()):
        _resolve_all(txn)


def _battle_settled(txn: CampaignTxn) -> None:
    state = txn.state
    if state.phase == "orders" and all(len(x.orders) == 2 for x in state.open_games()):
        _resolve_all(txn)
        return
    if state.phase == "narrative":
        players = battle_players(state)
        if not players:
            _end_week(txn)
            return
        if all(p in state.narrative_done for p in players):
            txn.state = state.model_copy(update={"phase": "orders"})
            txn.emit(PhaseBegan(week=state.week, phase="orders"))


HANDLERS: dict[str, Handler] = {
    "move_army": _move, "end_turn": _end_turn, "declare": _declare, "pickup": _pickup, "post": _post,
    "narrative_done": _narrative_done, "orders": _orders, "gm_move_army": _gm_move, "gm_edit_unit": _gm_edit,
    "gm_force_rolls": _gm_force, "gm_set_general": _gm_general, "gm_battle_result": _gm_result,
    "gm_battle_choice": external.choose, "gm_battle_abandon": _gm_abandon, "gm_battle_dice": _gm_dice,
}

HANDLERS["gm_dice_seed"] = dice_seed.seed_week  # the dice commitment protocol (issue 31)
HANDLERS["gm_lock"] = _gm_lock  # the GM's passphrase, kept in the campaign's saves
HANDLERS["gm_scouting_seed"] = dice_seed.seed_scouting  # the scouting dice's commitment (docs/campaign.md)


def _need_phase(state: CampaignState, phase: str) -> None:
    if state.phase != phase:
        raise Reject(f"That belongs to the {phase} phase; this is the {state.phase} phase of week {state.week}.")


def _army(state: CampaignState, aid: str) -> ArmyState:
    a = state.armies.get(aid)
    if a is None:
        raise Reject(f"There is no army called {aid}.")
    return a


def _not_over(txn: CampaignTxn, kind: str) -> None:
    if txn.state.phase == "ended" and not kind.startswith("gm_"):
        raise Reject("The campaign is over.")


def apply(state: CampaignState, command: Any) -> Outcome:
    """Apply one command through the core kernel; a refused one returns a Rejection."""
    return dispatch(HANDLERS, command, begin=lambda: CampaignTxn.begin(state), finish=CampaignTxn.finish,
                    guard=_not_over, unknown=lambda cmd: f"Unknown command {str(getattr(cmd, 'kind', ''))!r}.")
