"""Resolving one battle for one week against the campaign state: the reveal, scouting facts,
dice pools, the roll, the verdict (combat.py), casualty rolls and placement, and the moves
that follow. Called by the engine once every side's orders are in, in player order.
"""

from __future__ import annotations

from typing import Any

from game.core.roller import Roller
from game.core.system import possessive
from game.systems.campaign.rules import hexes
from game.systems.campaign.rules.combat import (
    GOT_AWAY,
    Play,
    Pool,
    SideFacts,
    Taken,
    UnitFacts,
    build_pool,
    make_plays,
    verdict,
)
from game.systems.campaign.rules.events import (
    ArmyDestroyed,
    ArmyLocked,
    ArmyMoved,
    BattleEnded,
    CasualtiesPlaced,
    DiceRolled,
    Ev,
    OrdersRevealed,
    PoolBuilt,
    ResultRead,
    Routed,
)
from game.systems.campaign.rules.models import BAND_NAMES, MANOEUVRE_NAMES, Coord, UnitType
from game.systems.campaign.rules.state import (
    ArmyState,
    BattleState,
    CampaignState,
    Orders,
    UnitState,
    WeekLog,
)


class Work:
    """A mutable scratch copy of the parts of the state a resolution changes."""

    def __init__(self, state: CampaignState, roller: Roller) -> None:
        self.state = state
        self.roller = roller
        self.armies: dict[str, ArmyState] = dict(state.armies)
        self.units: dict[str, UnitState] = dict(state.units)
        self.generals = dict(state.generals)
        self.battles = dict(state.battles)
        self.events: list[Ev] = []

    def snapshot(self) -> CampaignState:
        return self.state.model_copy(update={"armies": self.armies, "units": self.units,
                                             "generals": self.generals, "battles": self.battles})

    def roll(self, n: int, battle: str, player: str | None, purpose: str,
             sides: int | None = None, roller: Roller | None = None) -> tuple[tuple[int, ...], int]:
        """n dice of the rules' kind (successes counted), or n dice of `sides` (a range roll);
        `roller`: a generator of their own instead of the campaign's (a week's scouting seed)."""
        rules = self.state.cs.rules.dice
        r = self.roller if roller is None else roller
        start = len(r.dice)
        dice = tuple(r.roll(sides or rules.sides, purpose) for _ in range(n))
        forced = sum(1 for d in r.dice[start:] if d.forced)
        succ = 0 if sides else sum(1 for d in dice if d >= rules.success_on)
        self.events.append(DiceRolled(battle=battle, player=player, purpose=purpose, dice=dice,
                                      successes=succ, forced=forced))
        return dice, succ


def unit_capacity(t: UnitType, u: UnitState) -> int:
    """Casualties the unit can still take before it is destroyed."""
    if u.destroyed:
        return 0
    if t.armour:
        return t.armour - u.armour_damage
    if t.large:
        return t.large - u.large_damage
    return 1


def side_facts(state: CampaignState, battle: BattleState, player: str, armies: dict[str, ArmyState] | None = None,
               units: dict[str, UnitState] | None = None) -> SideFacts:
    armies = armies if armies is not None else state.armies
    units = units if units is not None else state.units
    mine = [a for a in armies.values() if a.battle == battle.id and a.owner == player]
    facts = tuple(UnitFacts(u, state.cs.unit_types[units[u].type_id])
                  for a in mine for u in a.units if not units[u].destroyed)
    gens = state.fighting_generals(battle, player)
    traits = frozenset(t for g in gens for t in g.traits)
    terrain = state.cs.map.terrain.get(battle.hex, "")
    tr = state.cs.rules.terrain.get(terrain)
    gm_dice, gm_why = battle.gm_dice.get(player, (0, ""))
    return SideFacts(player, facts, max((g.level for g in gens), default=0), traits, len(mine),
                     battle.scouting.get(player, 0), any(a.locked_week >= state.week for a in mine),
                     bool(tr and tr.difficult), gm_dice, gm_why)


def scouting_dice(state: CampaignState, battle: BattleState, player: str, armies: dict[str, ArmyState]) -> int:
    mine = [a for a in armies.values() if a.battle == battle.id and a.owner == player]
    scouts = [state.cs.unit_types[state.units[u].type_id].mobility for a in mine for u in a.units
              if not state.units[u].destroyed and "scout" in state.cs.unit_types[state.units[u].type_id].traits]
    if not scouts:
        return 0
    level = max((g.level for g in state.generals.values() if g.owner == player and g.army in {a.id for a in mine}),
                default=0)
    return max(scouts) + level


def order_units(state: CampaignState, w: Work, uids: list[str], first: list[str]) -> list[str]:
    """Casualty order: `first` in its order (vanguard first), then the rest largest first."""
    def size(uid: str) -> tuple[int, str]:
        t = state.cs.unit_types[w.units[uid].type_id]
        return (-unit_capacity(t, w.units[uid]), uid)
    head = [first[0]] + sorted(first[1:], key=size) if first else []
    firsts, among = set(first), set(uids)  # (sets: n log n for a million units, issue 34)
    rest = sorted([u for u in uids if u not in firsts], key=size)
    return [u for u in head + rest if u in among]


def place(state: CampaignState, w: Work, order: list[str], count: int) -> list[tuple[str, int]]:
    placed: dict[str, int] = {}
    left = count
    for uid in order:
        if left <= 0:
            break
        u = w.units[uid]
        t = state.cs.unit_types[u.type_id]
        while left > 0 and not w.units[uid].destroyed:
            u = w.units[uid]
            left -= 1
            placed[uid] = placed.get(uid, 0) + 1
            w.units[uid] = hit(t, u, 1)
    return list(placed.items())


def hit(t: UnitType, u: UnitState, n: int) -> UnitState:
    if t.armour:
        dmg = u.armour_damage + n
        return u.model_copy(update={"armour_damage": dmg, "destroyed": dmg >= t.armour})
    if t.large:
        dmg = u.large_damage + n
        return u.model_copy(update={"large_damage": dmg, "destroyed": dmg >= t.large})
    return u.model_copy(update={"destroyed": True})


def _passable(state: CampaignState, c: Coord) -> bool:
    tr = state.cs.rules.terrain.get(state.cs.map.terrain.get(c, ""))
    return tr is not None and tr.cost is not None


def _free_of_enemy(w: Work, c: Coord, owner: str) -> bool:
    return not any(a.hex == c and a.owner != owner for a in w.armies.values())


def destinations(state: CampaignState, w: Work, army: ArmyState, move: str, orders: Orders) -> list[Coord]:
    """Where an army may go for a result, best choice first (empty: it cannot leave)."""
    m = state.cs.map
    at = army.hex
    ok = [c for c in hexes.adjacent(m, at) if _passable(state, c) and _free_of_enemy(w, c, army.owner)]
    if move == "breakthrough":
        want = orders.breakthrough_to
        return breakthrough_path(state, w, army, want) if want in ok else []
    route = army.route if army.route is not None and army.route in hexes.adjacent(m, at) else None
    if move == "arc":
        cand = hexes.arc(m, at, route) if route is not None else hexes.adjacent(m, at)
        allowed = [c for c in cand if c in ok]
        if orders.withdraw_to in allowed:
            assert orders.withdraw_to is not None
            allowed.remove(orders.withdraw_to)
            allowed.insert(0, orders.withdraw_to)
        return allowed
    if move in ("route", "fall_back", "rout"):
        first = route if route is not None else (ok[0] if ok else None)
        if first is None or first not in ok:
            return []
        if move == "rout":
            nxt = hexes.beyond(m, at, first)
            if nxt is not None and _passable(state, nxt) and _free_of_enemy(w, nxt, army.owner):
                return [first, nxt]
        return [first]
    return []


def breakthrough_path(state: CampaignState, w: Work, army: ArmyState, first: Coord | None) -> list[Coord]:
    """A Breakthrough (operational-rules §7.11): past the beaten army into `first` (always: the
    breakthrough itself), then straight on with the movement points the army has left this week,
    stopping in a hex that holds an enemy army or a battle, before impassable ground or the map's
    edge, or when the points run out."""
    if first is None:
        return []
    if state.cs.rules.readings < 2:  # the first reading: one hex
        return [first]
    m = state.cs.map
    alive = [u for u in army.units if not w.units[u].destroyed]
    if not alive:
        return [first]
    points = (min(state.cs.unit_types[w.units[u].type_id].mobility for u in alive)
              + state.cs.rules.movement.bonus - army.spent - _cost(state, first))
    path = [first]
    at, nxt = army.hex, first
    while not _stops(state, w, nxt, army.owner):
        at, nxt_c = nxt, hexes.beyond(m, at, nxt)
        if nxt_c is None or not _passable(state, nxt_c) or _cost(state, nxt_c) > points:
            break
        points -= _cost(state, nxt_c)
        nxt = nxt_c
        path.append(nxt)
    return path


def _cost(state: CampaignState, c: Coord) -> int:
    tr = state.cs.rules.terrain.get(state.cs.map.terrain.get(c, ""))
    return tr.cost if tr is not None and tr.cost is not None else 1 << 30


def _stops(state: CampaignState, w: Work, c: Coord, owner: str) -> bool:
    return not _free_of_enemy(w, c, owner) or any(not b.over and b.hex == c for b in w.battles.values())


def move_army(w: Work, army: ArmyState, path: list[Coord], reason: Any) -> None:
    prev = army.hex if len(path) == 1 else path[-2]
    w.armies[army.id] = army.model_copy(update={"hex": path[-1], "route": prev, "battle": None})
    for g in list(w.generals.values()):
        if g.army == army.id:
            w.generals[g.id] = g.model_copy(update={"hex": path[-1]})
    w.events.append(ArmyMoved(army=army.id, path=tuple(path), cost=0, reason=reason))


def resolve(state: CampaignState, w: Work, battle_id: str) -> None:
    """One week of one battle: reveal, pools, dice, tables, casualties, moves, maybe its end."""
    battle = w.battles[battle_id]
    pa, pb = battle.sides
    oa, ob = battle.orders[pa], battle.orders[pb]
    fa, fb = side_facts(state, battle, pa, w.armies, w.units), side_facts(state, battle, pb, w.armies, w.units)
    play_a, play_b = make_plays(fa, oa.manoeuvre, oa.stratagems, oa.vanguard, fb, ob.manoeuvre, ob.stratagems,
                                ob.vanguard)
    for play, o in ((play_a, oa), (play_b, ob)):
        w.events.append(OrdersRevealed(battle=battle.id, player=play.player, manoeuvre=o.manoeuvre,
                                       stratagems=o.stratagems, vanguard=o.vanguard, plays_as=play.plays_as,
                                       dropped=play.dropped))
    first_week = battle.started_week == state.week
    rules = state.cs.rules
    pool_a = build_pool(rules, fa, play_a, fb, play_b, first_week)
    pool_b = build_pool(rules, fb, play_b, fa, play_a, first_week)
    successes: dict[str, int] = {}
    for play, pool in ((play_a, pool_a), (play_b, pool_b)):
        w.events.append(PoolBuilt(battle=battle.id, player=play.player, stat=pool.stat, parts=pool.parts,
                                  reinforcement_total=pool.reinforcement_total, dice=pool.dice))
    for play, pool in ((play_a, pool_a), (play_b, pool_b)):
        if play.fled:
            successes[play.player] = 0
            continue
        _, s = w.roll(pool.dice, battle.id, play.player,
                      f"{possessive(state.player_name(play.player))} {MANOEUVRE_NAMES[play.plays_as]} ({pool.stat})")
        successes[play.player] = s + pool.bonus_successes
    v = verdict(rules, play_a, play_b, successes[pa], successes[pb])
    w.events.append(ResultRead(battle=battle.id, week=state.week, successes=successes, margin=v.margin, band=v.band,
                               winner=v.winner, shift=v.shift, rows=v.rows))
    lines: list[str] = [f"{BAND_NAMES[v.band]}" + (f" for {state.player_name(v.winner)}" if v.winner else ""),
                        *v.rows]
    # casualties, each side in turn (the side order of the battle)
    pools = {pa: pool_a, pb: pool_b}
    plays = {pa: play_a, pb: play_b}
    orders = {pa: oa, pb: ob}
    for player in (pa, pb):
        t = v.taken[player]
        _casualties(state, w, battle, player, t, pools[player], plays[player], lines)
    # moves and locks
    gone: set[str] = set()
    destroyed_sides: set[str] = set()
    for player in (pa, pb):
        t = v.taken[player]
        if _side_destroyed(w, battle, player):
            gone.add(player)
            destroyed_sides.add(player)
            continue
        if t.locked:
            for a in _side_armies(w, battle, player):
                w.armies[a.id] = a.model_copy(update={"locked_week": state.week + 1})
                w.events.append(ArmyLocked(army=a.id, week=state.week + 1))
        if t.move in GOT_AWAY or t.move in ("fall_back", "rout", "breakthrough"):
            moved_any = False
            for a in _side_armies(w, battle, player):
                dest = destinations(state, w, a, t.move, orders[player])
                if not dest:
                    lines.append(f"{a.name} cannot {t.move.replace('_', ' ')}: no free hex; it stays")
                    continue
                path = dest if t.move in ("rout", "breakthrough") else dest[:1]
                move_army(w, a, path, _reason(t.move))
                if rules.readings >= 2:  # §7.3: the battle is over for this army
                    clear_large_damage(w, w.armies[a.id])
                moved_any = True
            if moved_any and not _side_armies(w, battle, player):
                gone.add(player)
    for player in (pa, pb):
        for a in list(w.armies.values()):
            if a.owner == player and a.battle == battle.id and not [u for u in a.units if not w.units[u].destroyed]:
                _destroy_army(w, a)
    loose = rules.readings >= 2 and "skirmish" in (play_a.reads_as, play_b.reads_as)  # §7.1: not held
    if loose:
        lines.append("read as Skirmish: the armies of this battle may move out next week")
    # (the lines are saved state: they keep the words they had before names' verbs agreed with a
    # scenario's `plural:`, so a save made then still replays bit for bit; people read the events)
    log = WeekLog(week=state.week, orders={pa: oa, pb: ob}, lines=tuple(lines))
    battle = battle.model_copy(update={"orders": {}, "log": (*battle.log, log),
                                       **({"loose_week": state.week + 1} if loose else {})})
    if gone or not _side_armies(w, battle, pa) or not _side_armies(w, battle, pb):
        how = "; ".join(f"{state.player_name(p)} " + ("destroyed" if p in destroyed_sides else "left the field")
                        for p in (pa, pb) if p in gone or not _side_armies(w, battle, p))
        battle = battle.model_copy(update={"over": True, "ended": how or "no opposing forces remain"})
        for a in list(w.armies.values()):
            if a.battle == battle.id:
                w.armies[a.id] = a.model_copy(update={"battle": None})
            if a.battle == battle.id or a.hex == battle.hex:
                clear_large_damage(w, a)
        w.events.append(BattleEnded(battle=battle.id, how=battle.ended))
    w.battles[battle.id] = battle


def clear_large_damage(w: Work, a: ArmyState) -> None:
    """Large damage lasts the whole battle and is cleared when the battle ends for the army
    (operational-rules §7.3: it withdrew, fell back, routed, got away, left, or the battle is over)."""
    for u in a.units:
        if w.units[u].large_damage and not w.units[u].destroyed:
            w.units[u] = w.units[u].model_copy(update={"large_damage": 0})


def _reason(move: str) -> Any:
    return {"arc": "withdraw", "route": "withdraw", "fall_back": "fall_back", "rout": "rout",
            "breakthrough": "breakthrough"}[move]


def _side_armies(w: Work, battle: BattleState, player: str) -> list[ArmyState]:
    return [a for a in w.armies.values() if a.battle == battle.id and a.owner == player]


def _side_destroyed(w: Work, battle: BattleState, player: str) -> bool:
    return not any(not w.units[u].destroyed for a in _side_armies(w, battle, player) for u in a.units)


def _destroy_army(w: Work, a: ArmyState) -> None:
    del w.armies[a.id]
    for g in list(w.generals.values()):
        if g.army == a.id:
            w.generals[g.id] = g.model_copy(update={"army": None})
    w.events.append(ArmyDestroyed(army=a.id))


def _casualties(state: CampaignState, w: Work, battle: BattleState, player: str, t: Taken, pool: Pool, play: Play,
                lines: list[str]) -> None:
    rolled = t.lo
    if t.hi > t.lo:
        dice, _ = w.roll(1, battle.id, None, f"casualties on {state.player_name(player)} ({t.lo}-{t.hi})",
                         sides=t.hi - t.lo + 1)
        rolled = t.lo + dice[0] - 1
    count = max(0, rolled + t.extra - t.mitigation)
    alive = [u for a in _side_armies(w, battle, player) for u in a.units if not w.units[u].destroyed]
    alive_set = set(alive)
    main = [u for u in pool.main_line if u in alive_set]
    if t.extra_supporting_first and t.extra:
        normal = max(0, count - t.extra)
        placed = place(state, w, order_units(state, w, alive, main), normal)
        left = [u for u in alive if not w.units[u].destroyed]
        main_set = set(main)
        support = [u for u in left if u not in main_set]
        order = order_units(state, w, support, []) + [u for u in order_units(state, w, left, main) if u in main_set]
        placed += place(state, w, order, count - normal)
    else:
        placed = place(state, w, order_units(state, w, alive, main), count)
    merged: dict[str, int] = {}
    for uid, n in placed:
        merged[uid] = merged.get(uid, 0) + n
    destroyed = [u for u in merged if w.units[u].destroyed]
    if t.last_stand_loss:
        for uid in main:
            if not w.units[uid].destroyed:
                w.units[uid] = w.units[uid].model_copy(update={"destroyed": True})
                destroyed.append(uid)
    w.events.append(CasualtiesPlaced(battle=battle.id, player=player, count=count, rolled=rolled,
                                     mitigated=min(t.mitigation, rolled + t.extra), extra=t.extra,
                                     placed=tuple(merged.items()), destroyed=tuple(destroyed)))
    lines.append(f"{state.player_name(player)} takes {count} {'casualty' if count == 1 else 'casualties'} "
                 f"(rolled {rolled}, +{t.extra} extra, "
                 f"-{t.mitigation} mitigated)" + (f"; destroyed: {', '.join(destroyed)}" if destroyed else ""))
    if t.rout:
        killed: list[str] = []
        for uid in [u for u in alive if not w.units[u].destroyed]:
            ut = state.cs.unit_types[w.units[uid].type_id]
            w.units[uid] = hit(ut, w.units[uid], state.cs.rules.rout_casualties)
            if w.units[uid].destroyed:
                killed.append(uid)
        w.events.append(Routed(battle=battle.id, player=player, destroyed=tuple(killed)))
        lines.append(f"{state.player_name(player)} routs: every unit takes one more casualty")
