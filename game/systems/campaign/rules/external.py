"""Battles resolved outside the campaign's tables (docs/scales.md), a separate addition to the
campaign rules: the tables' own resolution (battle.py) is untouched.

- `gm_battle_choice`: how a battle is resolved: by the tables, or fought out as a tactical or a
  mass battle (its save named in the command, so the campaign save refers to it). While a battle
  is fought out its sides give it no orders, and the orders phase waits for its result.
- `gm_battle_abandon`: a battle fought out goes back to the tables; nothing else changes.
- `gm_battle_result`: a battle fought out (game/bridge/) comes back as casualties per unit, the
  loser's moves and a band; this ends the campaign battle.
"""

from __future__ import annotations

from game.core.kernel import Reject
from game.systems.campaign.rules import battle as battle_mod
from game.systems.campaign.rules import hexes
from game.systems.campaign.rules.commands import GmBattleAbandon, GmBattleChoice, GmBattleResult
from game.systems.campaign.rules.events import (
    ArmyDestroyed,
    BattleAbandoned,
    BattleChosen,
    BattleEnded,
    CasualtiesPlaced,
    GmDid,
)
from game.systems.campaign.rules.models import BAND_NAMES
from game.systems.campaign.rules.state import BattleState, CampaignState
from game.systems.campaign.rules.txn import CampaignTxn


def _open_battle(state: CampaignState, battle_id: str) -> BattleState:
    b = state.battles.get(battle_id)
    if b is None or b.over:
        raise Reject(f"There is no battle {battle_id} going on.")
    return b


def _with(state: CampaignState, b: BattleState) -> CampaignState:
    return state.model_copy(update={"battles": {**state.battles, b.id: b}})


def fought_out(b: BattleState) -> bool:
    """Whether a battle is being fought out as a tactical or mass battle (no orders are asked)."""
    return b.fought_as != "tables"


def choose(txn: CampaignTxn, cmd: GmBattleChoice) -> None:
    state = txn.state
    b = _open_battle(state, cmd.battle)
    if fought_out(b):
        raise Reject(f"Battle {b.id} is being fought out as a {b.fought_as} battle; abandon it first "
                     f"(gm_battle_abandon) to choose again.")
    if cmd.scale == "tables":
        if cmd.save:
            raise Reject("A battle resolved by the tables has no battle save.")
        txn.emit(BattleChosen(battle=b.id, scale="tables", note=cmd.note))
        return
    b = b.model_copy(update={"fought_as": cmd.scale, "battle_save": cmd.save})
    txn.state = _with(state, b)
    txn.emit(BattleChosen(battle=b.id, scale=cmd.scale, save=cmd.save, note=cmd.note))


def abandon(txn: CampaignTxn, cmd: GmBattleAbandon) -> None:
    state = txn.state
    b = _open_battle(state, cmd.battle)
    if b.fought_as == "tables":
        raise Reject(f"Battle {b.id} is not being fought out; there is nothing to abandon.")
    ev = BattleAbandoned(battle=b.id, scale=b.fought_as, save=b.battle_save, note=cmd.note)
    txn.state = _with(state, b.model_copy(update={"fought_as": "tables", "battle_save": ""}))
    txn.emit(ev)


def apply_result(txn: CampaignTxn, cmd: GmBattleResult) -> None:
    state = txn.state
    b = _open_battle(state, cmd.battle)
    if cmd.source is not None and fought_out(b) and cmd.source.scale != b.fought_as:
        raise Reject(f"Battle {b.id} is being fought out as a {b.fought_as} battle, not a {cmd.source.scale} one.")
    if cmd.winner is not None and cmd.winner not in b.sides:
        raise Reject(f"{cmd.winner} is not a side of battle {b.id}.")
    if (cmd.winner is None) != (cmd.band == 0):
        raise Reject("A result with a winner has a band of 1 to 4; a draw has band 0 and no winner.")
    in_battle = {u: a.owner for a in state.armies.values() if a.battle == b.id for u in a.units}
    for uid, n in cmd.casualties.items():
        if uid not in in_battle:
            raise Reject(f"{uid} is not a unit in battle {b.id}.")
        if n < 0:
            raise Reject(f"Casualties on {uid} cannot be negative.")
        cap = battle_mod.unit_capacity(state.unit_type(uid), state.units[uid])
        if n > cap:
            raise Reject(f"{state.unit_name(uid)} can take at most {cap} casualties; the result gives it {n}.")
    for aid, path in cmd.moves.items():
        a = state.armies.get(aid)
        if a is None or a.battle != b.id:
            raise Reject(f"{aid} is not an army in battle {b.id}.")
        at = a.hex
        for c in path:
            if not hexes.is_adjacent(state.cs.map, at, c):
                raise Reject(f"{a.name}: hex {c[0]},{c[1]} is not next to {at[0]},{at[1]}.")
            tr = state.cs.rules.terrain.get(state.cs.map.terrain.get(c, ""))
            if tr is None or tr.cost is None:
                raise Reject(f"{state.army_says(a.id, 'cannot')} enter hex {c[0]},{c[1]}.")
            at = c
    w = battle_mod.Work(state, txn.roller)  # nothing is rolled
    for player in b.sides:
        placed = []
        killed = []
        for uid in [u for u, p in in_battle.items() if p == player]:
            n = cmd.casualties.get(uid, 0)
            if not n or w.units[uid].destroyed:
                continue
            w.units[uid] = battle_mod.hit(state.unit_type(uid), w.units[uid], n)
            placed.append((uid, n))
            if w.units[uid].destroyed:
                killed.append(uid)
        total = sum(n for _, n in placed)
        if not placed:
            continue
        w.events.append(CasualtiesPlaced(battle=b.id, player=player, count=total, rolled=total, mitigated=0,
                                         extra=0, placed=tuple(placed), destroyed=tuple(killed)))
    for aid, path in cmd.moves.items():
        a = w.armies[aid]
        if path and any(not w.units[u].destroyed for u in a.units):
            battle_mod.move_army(w, a, list(path), "fought_out")  # (the battle fought out moved it)
    for a in list(w.armies.values()):
        if a.battle == b.id or a.hex == b.hex:
            if a.battle == b.id and all(w.units[u].destroyed for u in a.units):
                del w.armies[a.id]
                for g in list(w.generals.values()):
                    if g.army == a.id:
                        w.generals[g.id] = g.model_copy(update={"army": None})
                w.events.append(ArmyDestroyed(army=a.id))
                continue
            if a.battle == b.id:
                w.armies[a.id] = a.model_copy(update={"battle": None})
            for u in a.units:
                if w.units[u].large_damage and not w.units[u].destroyed:
                    w.units[u] = w.units[u].model_copy(update={"large_damage": 0})
    result = BAND_NAMES[cmd.band] + (f" for {state.player_name(cmd.winner)}" if cmd.winner else "")
    how = f"resolved outside the tables: {result}" + (f" ({cmd.note})" if cmd.note else "")
    w.battles[b.id] = b.model_copy(update={"over": True, "ended": how, "orders": {}})
    w.events.append(BattleEnded(battle=b.id, how=how))
    w.events.append(GmDid(what=f"applied the result of battle {b.id}: {result}"))
    txn.state = w.snapshot()
    txn.events.extend(w.events)
