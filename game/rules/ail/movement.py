"""The Movement phase (design page §4): reach, paths, roads, dash, special move, charge, stuck.

Costs: entering a hex costs its terrain's `move_cost`; a road hex costs `road_move_cost` whatever
its terrain (and a road hex is passable and never difficult: bridges, causeways). Impassable
terrain can't be entered (hover units may cross `hover_passable` terrain such as water). One unit
per hex: a unit may pass through friends but not enemies, and must end on an empty hex.

Road bonus: a move action whose whole path, start hex included, is on road hexes gets the unit
class's bonus added to its allowance; each move action (move, dash, charge) is judged on its own.

Reach is uniform-cost search (Dijkstra). Two searches are made: the ordinary one with the base
move, and one restricted to road hexes with the bonus; hexes only the second reaches are marked
as "thanks to the road bonus".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from game.hexgrid import DIRECTIONS, Hex, distance, neighbours
from game.rules.ail import overwatch
from game.rules.ail.attacks import check_advantage, declare_or_offer, resolve_guard_counter, spend_advantage
from game.rules.ail.check import Modifier, roll_check
from game.rules.ail.commands import Charge, Dash, DashPay, Move, SpecialMove, StuckStep
from game.rules.ail.common import active_unit, find_weapon, hex_name, known_unit, name
from game.rules.ail.events import AdrenalineSpent, AdvantageSpent, AttackGivenUp, DashFailed, UnitMoved
from game.rules.ail.los import has_line_of_sight
from game.rules.ail.state import AdvantageKind, GameState, UnitState
from game.rules.ail.txn import Reject, Txn

MoveMode = Literal["move", "dash", "charge", "special_move", "stuck_step"]


# --------------------------------------------------------------------------- costs

def enter_cost(state: GameState, unit: UnitState, h: Hex) -> int | None:
    """Movement points to enter `h`, or None when the unit can never enter it."""
    board, rules = state.board, state.setup.rules
    if h not in board:
        return None
    if board.is_road(h):
        return max(1, rules.road_move_cost)  # a road is never free: every step costs 1 or more
    terrain = rules.terrain.get(board.terrain_at(h))
    if terrain is None:
        return None
    if terrain.impassable:
        if not (terrain.hover_passable and state.unit_type(unit.id).unit_class == "hover"):
            return None
    return terrain.move_cost


def is_difficult(state: GameState, h: Hex) -> bool:
    if h not in state.board or state.board.is_road(h):
        return False
    terrain = state.setup.rules.terrain.get(state.board.terrain_at(h))
    return terrain is not None and terrain.difficult


def road_bonus(state: GameState, unit: UnitState) -> int:
    return state.setup.rules.road_bonus.get(state.unit_type(unit.id).unit_class, 0)


def _terrain_word(state: GameState, h: Hex) -> str:
    return state.board.terrain.get(h, "off the map").replace("_", " ")


# --------------------------------------------------------------------------- reach

@dataclass(frozen=True)
class Reach:
    """Where a unit can go with one move action.

    costs: movement points to each reachable end hex (start excluded); road_only: hexes reachable
    only thanks to the road bonus; allowance / road_allowance: the points available off / on road.
    """

    unit_id: str
    start: Hex
    mode: Literal["move", "dash"]
    allowance: int
    road_allowance: int
    costs: Mapping[Hex, int]
    road_only: frozenset[Hex]
    # The searches' costs by hex key (see _key) and the neighbour rows they walked: path_to
    # rebuilds a cheapest path backwards from them.
    _best: Mapping[int, int] = field(repr=False)
    _adj: Mapping[int, tuple[tuple[int, int], ...]] = field(repr=False)
    _road_best: Mapping[int, int] = field(repr=False)
    _road_adj: Mapping[int, tuple[tuple[int, int], ...]] = field(repr=False)
    _prev_memo: dict[bool, dict[int, int]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def hexes(self) -> frozenset[Hex]:
        return frozenset(self.costs)

    def __contains__(self, h: object) -> bool:
        return h in self.costs

    def path_to(self, h: Hex) -> list[Hex]:
        """The cheapest path to `h` (hexes entered, start excluded); [] for the start or unreachable."""
        if h not in self.costs:
            return []
        prev = self._predecessors(h in self.road_only)
        start = _key(self.start)
        k = _key(h)
        path = [h]
        while k != start:
            k = prev[k]
            path.append(_HEX_OF[k])
        path.reverse()
        return path[1:]

    def _predecessors(self, road: bool) -> dict[int, int]:
        """For every key reached, the neighbour it is cheapest reached from (first in direction
        order); worked out once per Reach, on the first path asked for."""
        memo = self._prev_memo.get(road)
        if memo is not None:
            return memo
        best = self._road_best if road else self._best
        adj = self._road_adj if road else self._adj
        prev: dict[int, int] = {}
        for k, ck in best.items():
            for d in _DIR_KEYS:
                pk = k - d
                pc = best.get(pk)
                if pc is None or pc >= ck:
                    continue
                if any(n == k and pc + step == ck for n, step in adj.get(pk, ())):
                    prev[k] = pk
                    break
        self._prev_memo[road] = prev
        return prev


# The search runs on whole-number keys instead of Hex tuples (an int hashes to itself; a tuple
# is hashed again at every lookup): key = (q + 4096) * 8192 + (r + 4096), for maps below 4096
# hexes a side. `_hex_of` turns keys back into hexes (a memo of every key seen).
_OFF = 4096
_SPAN = 8192
_HEX_OF: dict[int, Hex] = {}


# Key offsets of the six neighbours, in DIRECTIONS order (k - d is the neighbour in direction d's
# opposite, so walking them all covers every neighbour).
_DIR_KEYS = tuple(dq * _SPAN + dr for dq, dr in DIRECTIONS)


def _key(h: Hex) -> int:
    return (h[0] + _OFF) * _SPAN + (h[1] + _OFF)


def _hex_of(k: int) -> Hex:
    h = _HEX_OF.get(k)
    if h is None:
        h = _HEX_OF[k] = Hex(k // _SPAN - _OFF, k % _SPAN - _OFF)
    return h


# Entry costs per (board, rules, hover or not, dash or not, road only), filled lazily hex by hex:
# terrain never changes during a battle, so each hex's enterable neighbours and their costs are
# worked out once and reused by every later search (a pure memo, same answers as enter_cost).
_Adjacency = dict[int, tuple[tuple[int, int], ...]]
_ADJ_CACHE: dict[tuple[int, int, bool, bool, bool], tuple[object, object, _Adjacency]] = {}
_ADJ_CACHE_SIZE = 32


def _adjacency(state: GameState, unit: UnitState, road_only: bool, no_difficult: bool) -> _Adjacency:
    hover = state.unit_type(unit.id).unit_class == "hover"
    key = (id(state.board), id(state.setup.rules), hover, road_only, no_difficult)
    hit = _ADJ_CACHE.get(key)
    if hit is not None and hit[0] is state.board and hit[1] is state.setup.rules:
        return hit[2]
    if len(_ADJ_CACHE) >= _ADJ_CACHE_SIZE:
        _ADJ_CACHE.pop(next(iter(_ADJ_CACHE)))
    adj: _Adjacency = {}
    _ADJ_CACHE[key] = (state.board, state.setup.rules, adj)
    return adj


def _neighbour_costs(state: GameState, unit: UnitState, h: Hex, road_only: bool, no_difficult: bool,
                     ) -> tuple[tuple[int, int], ...]:
    out: list[tuple[int, int]] = []
    for n in neighbours(h):
        step = enter_cost(state, unit, n)
        if step is None or (road_only and not state.board.is_road(n)):
            continue
        if no_difficult and is_difficult(state, n):
            continue
        k = _key(n)
        _HEX_OF[k] = n  # every key a search can reach decodes with a plain lookup
        out.append((k, step))
    return tuple(out)


def _search(state: GameState, unit: UnitState, limit: int, *, road_only: bool, no_difficult: bool,
            blocked: frozenset[int] | None = None) -> tuple[dict[int, int], _Adjacency]:
    """Uniform-cost search from the unit's hex up to `limit` points, on hex keys; `blocked`: the
    keys of enemy-held hexes. Returns (cost to each key reached, the neighbour rows it used).

    Step costs are small whole numbers, so the priority queue is a list of buckets, one per cost
    (Dial's algorithm): the same order as a binary heap, without its comparisons."""
    if blocked is None:
        blocked = _occupancy(state)[2].get(unit.side, frozenset())
    adj = _adjacency(state, unit, road_only, no_difficult)
    big = 1 << 30
    start = _key(unit.hex)
    _HEX_OF[start] = unit.hex
    best: dict[int, int] = {start: 0}
    get = best.get
    buckets: list[list[int]] = [[] for _ in range(limit + 1)]
    buckets[0].append(start)
    # Every step costs at least 1: hexes reached with the whole allowance spent are not expanded.
    for cost in range(limit):
        bucket = buckets[cost]
        for h in bucket:
            if best[h] != cost:
                continue  # a stale entry: h was reached cheaper later
            row = adj.get(h)
            if row is None:
                row = adj[h] = _neighbour_costs(state, unit, _hex_of(h), road_only, no_difficult)
            room = limit - cost
            for n, step in row:
                if step <= room and cost + step < get(n, big) and n not in blocked:
                    c = cost + step
                    best[n] = c
                    buckets[c].append(n)
    return best, adj


# Occupancy of the latest units mapping seen: (units object, every live unit's hex key, enemy-held
# hex keys per side). States never change in place, so the same mapping object always means the
# same occupancy; a pure memo that spares a pass over every unit on each search.
_OCC: list[tuple[object, frozenset[int], dict[str, frozenset[int]]]] = []


def _occupancy(state: GameState) -> tuple[object, frozenset[int], dict[str, frozenset[int]]]:
    units = state.units
    if _OCC and _OCC[0][0] is units:
        return _OCC[0]
    by_side: dict[str, set[int]] = {}
    for u in units.values():
        if not u.destroyed:
            by_side.setdefault(u.side, set()).add(_key(u.hex))
    occupied = frozenset(k for keys in by_side.values() for k in keys)
    sides = set(state.sides) | set(by_side)
    enemy = {side: frozenset(k for s, keys in by_side.items() if s != side for k in keys) for side in sides}
    _OCC[:] = [(units, occupied, enemy)]
    return _OCC[0]


def _reach(state: GameState, unit_id: str, mode: Literal["move", "dash"]) -> Reach:
    unit = state.units[unit_id]
    base = state.unit_type(unit_id).move
    no_difficult = mode == "dash"
    _, occupied, enemy = _occupancy(state)
    blocked = enemy.get(unit.side, frozenset())
    best, adj = _search(state, unit, base, road_only=False, no_difficult=no_difficult, blocked=blocked)
    hex_of = _HEX_OF  # filled for every key the searches produce
    costs = {hex_of[k]: c for k, c in best.items() if k not in occupied}
    road_best: dict[int, int] = {}
    road_adj: _Adjacency = {}
    road_allowance = 0
    only = set()
    bonus = road_bonus(state, unit)
    if bonus and state.board.is_road(unit.hex):
        road_allowance = base + bonus
        road_best, road_adj = _search(state, unit, road_allowance, road_only=True, no_difficult=no_difficult,
                                      blocked=blocked)
        for k, c in road_best.items():
            if k not in occupied and k not in best:
                h = hex_of[k]
                costs[h] = c
                only.add(h)
    return Reach(unit_id, unit.hex, mode, base, road_allowance, costs, frozenset(only), best, adj, road_best,
                 road_adj)


def move_reach(state: GameState, unit_id: str) -> Reach:
    """Every hex the unit's move action can end on (whether or not it may move right now)."""
    return _reach(state, unit_id, "move")


def dash_reach(state: GameState, unit_id: str) -> Reach:
    """Every hex a dash (or charge) from the unit's current hex can end on: no difficult terrain."""
    return _reach(state, unit_id, "dash")


# --------------------------------------------------------------------------- path checks

@dataclass(frozen=True)
class PathInfo:
    path: tuple[Hex, ...]  # hexes entered, start excluded
    cost: int
    allowance: int
    road_bonus: int


def check_path(state: GameState, unit: UnitState, path: Iterable[Hex], mode: MoveMode) -> PathInfo:
    """Validate a path for a move/dash/charge; raise Reject saying exactly what is wrong."""
    steps = list(path)
    if steps and steps[0] == unit.hex:
        steps = steps[1:]
    who = name(state, unit.id)

    def where(h: Hex) -> str:
        return hex_name(state.board, h)

    occupied = state.occupied()
    cost = 0
    here = unit.hex
    for h in steps:
        h = Hex(*h)
        if distance(here, h) != 1:
            raise Reject(f"the path is not contiguous: {where(h)} is not next to {where(here)}")
        if h not in state.board:
            raise Reject(f"{where(h)} is off the map")
        step = enter_cost(state, unit, h)
        if step is None:
            raise Reject(f"{who} cannot enter {where(h)}: {_terrain_word(state, h)} is impassable")
        if mode in ("dash", "charge") and is_difficult(state, h):
            raise Reject(f"a {mode} may not enter difficult terrain: {where(h)} is {_terrain_word(state, h)}")
        other = occupied.get(h)
        if other is not None and other.side != unit.side:
            raise Reject(f"{who} cannot move through {where(h)}: enemy {name(state, other.id)} is there")
        cost += step
        here = h
    if steps:
        other = occupied.get(here)
        if other is not None and other.id != unit.id:
            raise Reject(f"{who} cannot end its move on {where(here)}: {name(state, other.id)} is there")
    base = state.unit_type(unit.id).move
    on_road = bool(steps) and state.board.is_road(unit.hex) and all(state.board.is_road(h) for h in steps)
    bonus = road_bonus(state, unit) if on_road else 0
    allowance = base + bonus
    if cost > allowance:
        road_note = "" if on_road else " (a road bonus applies only when the whole path, start included, is road)"
        raise Reject(f"that path costs {cost} movement points; {who} has {allowance}{road_note}")
    return PathInfo(tuple(Hex(*h) for h in steps), cost, allowance, bonus)


def _can_move_now(state: GameState, unit: UnitState) -> None:
    who = name(state, unit.id)
    if unit.out_of_action:
        raise Reject(f"{who} is out of action: it cannot move until the end of its side's next turn")
    if unit.pinned:
        raise Reject(f"{who} is pinned: it cannot move this Movement phase")


# --------------------------------------------------------------------------- walking a path

def walk(txn: Txn, unit_id: str, info: PathInfo, mode: MoveMode, *, emit_empty: bool = False) -> bool:
    """Move the unit along the path step by step, with overwatch checks after each step when the
    mode triggers it. Returns True when the unit got to the last hex of the path (it may have been
    pinned, put out of action or destroyed there: look at the unit)."""
    st = txn.state
    start = st.units[unit_id].hex
    triggers = ("move" if mode == "stuck_step" else mode) in st.setup.rules.overwatch_triggers
    segment: list[Hex] = [start]
    seg_cost = 0
    first_segment = True

    def flush(stopped: bool) -> None:
        nonlocal segment, seg_cost, first_segment
        if len(segment) > 1 or stopped or (emit_empty and first_segment):
            txn.emit(UnitMoved(unit_id=unit_id, path=segment, mode=mode, cost=seg_cost,
                               road_bonus=info.road_bonus if first_segment else 0, stopped=stopped))
            first_segment = False
        segment = [segment[-1]]
        seg_cost = 0

    for i, h in enumerate(info.path):
        seg_cost += enter_cost(txn.state, txn.unit(unit_id), h) or 0
        txn.change_unit(unit_id, hex=h, moved=True)
        segment.append(h)
        if not triggers:
            continue
        watchers = overwatch.qualifying_watchers(txn.state, unit_id, h)
        if not watchers:
            continue
        flush(False)
        stopped = overwatch.fire_at(txn, unit_id, h, i + 1, watchers)
        if stopped:
            _settle_stopped(txn, unit_id, info.path[:i], start, mode)
            return i == len(info.path) - 1
    flush(False)
    return True


def _settle_stopped(txn: Txn, unit_id: str, before: tuple[Hex, ...], start: Hex, mode: MoveMode) -> None:
    """A mover stopped by overwatch stays on that hex; if a friend holds it, it falls back to the
    last free hex it passed. [decision]"""
    u = txn.unit(unit_id)
    if not u.alive:
        return
    others = {o.hex for o in txn.state.units.values() if o.alive and o.id != unit_id}
    if u.hex not in others:
        txn.emit(UnitMoved(unit_id=unit_id, path=[u.hex], mode=mode, stopped=True))
        return
    for h in reversed((start, *before)):
        if h not in others:
            txn.change_unit(unit_id, hex=h)
            txn.emit(UnitMoved(unit_id=unit_id, path=[u.hex, h], mode=mode, stopped=True))
            return


# --------------------------------------------------------------------------- dash payment

def dash_payment(state: GameState, unit: UnitState, pay: DashPay | None) -> DashPay:
    """Which way the unit pays for a dash (checked, not yet paid)."""
    ut = state.unit_type(unit.id)
    who = name(state, unit.id)
    rules = state.setup.rules.dash
    if pay is None:
        if not ut.living:
            pay = "pilot"
        elif unit.adrenaline >= rules.adrenaline_cost:
            pay = "adrenaline"
        elif unit.leadership >= rules.leadership_per_adrenaline:
            pay = "leadership"
        else:
            raise Reject(f"{who} has no Adrenaline left (and fewer than {rules.leadership_per_adrenaline} "
                         "Leadership points) to dash")
    if pay == "pilot":
        if ut.living:
            raise Reject(f"{who} is not a vehicle: living units dash with Adrenaline or Leadership points")
        return pay
    if not ut.living:
        raise Reject(f"{who} has no Adrenaline; vehicles dash with a pilot check")
    if pay == "adrenaline" and unit.adrenaline < rules.adrenaline_cost:
        raise Reject(f"{who} has no Adrenaline left to dash")
    if pay == "leadership" and unit.leadership < rules.leadership_per_adrenaline:
        raise Reject(f"{who} has {unit.leadership} Leadership point(s); a dash needs "
                     f"{rules.leadership_per_adrenaline}")
    return pay


def pay_for_dash(txn: Txn, unit_id: str, pay: DashPay, advantage: int = 0,
                 advantage_kind: AdvantageKind | None = None) -> bool:
    """Pay; for a vehicle roll the pilot check (with any Advantage spent on it, already checked).
    False when the pilot check fails (the dash is spent)."""
    st = txn.state
    u = st.units[unit_id]
    rules = st.setup.rules
    if pay == "adrenaline":
        u = txn.change_unit(unit_id, adrenaline=u.adrenaline - rules.dash.adrenaline_cost)
        txn.emit(AdrenalineSpent(unit_id=unit_id, points=rules.dash.adrenaline_cost, left=u.adrenaline))
        return True
    if pay == "leadership":
        pts = rules.dash.leadership_per_adrenaline
        txn.change_unit(unit_id, leadership=u.leadership - pts)
        txn.emit(AdvantageSpent(side=u.side, advantage_kind="leadership", points=pts, unit_id=unit_id,
                                on="a dash"))
        return True
    ut = st.unit_type(unit_id)
    mods: tuple[Modifier, ...] = ()
    if advantage:
        spend_advantage(txn, unit_id, advantage, advantage_kind, "a pilot check")
        mods = (Modifier(f"Advantage x{advantage}", advantage),)
    result = roll_check(f"pilot check to dash: {ut.name}", "intellect", ut.stats.intellect, "pilot",
                        ut.skills.get("pilot", 0), rules.dash.pilot_ct, txn.roll, rules.check, mods)
    txn.report_check(result, unit_id)
    if not result.success:
        txn.emit(DashFailed(unit_id=unit_id, reason=f"pilot check failed ({result.total} vs {result.target})"))
    return result.success


# --------------------------------------------------------------------------- handlers

def handle_move(txn: Txn, cmd: Move) -> None:
    st = txn.state
    u = active_unit(st, cmd.unit_id, "movement")
    who = name(st, u.id)
    _can_move_now(st, u)
    if u.move_done:
        raise Reject(f"{who} has already taken its move action this turn")
    info = check_path(st, u, cmd.path, "move")
    txn.change_unit(u.id, move_done=True)
    walk(txn, u.id, info, "move", emit_empty=True)


def _second_move_allowed(state: GameState, u: UnitState) -> None:
    who = name(state, u.id)
    _can_move_now(state, u)
    if u.dashed:
        raise Reject(f"{who} has already dashed (or charged, or used its special move) this turn")


def handle_dash(txn: Txn, cmd: Dash) -> None:
    st = txn.state
    u = active_unit(st, cmd.unit_id, "movement")
    _second_move_allowed(st, u)
    info = check_path(st, u, cmd.path, "dash")
    if not info.path:
        raise Reject("a dash needs a path of at least one hex")
    pay = dash_payment(st, u, cmd.pay)
    if cmd.advantage:
        if pay != "pilot":
            raise Reject("Advantage on a dash is spent on a vehicle's pilot check; this dash needs none")
        check_advantage(st, u, cmd.advantage, cmd.advantage_kind, "pilot")
    txn.change_unit(u.id, move_done=True, dashed=True)
    if pay_for_dash(txn, u.id, pay, cmd.advantage, cmd.advantage_kind):
        walk(txn, u.id, info, "dash")


@dataclass(frozen=True)
class ChargePlan:
    """A charge that passed every check: who, whom, with what, along which path, paid how."""

    unit_id: str
    target_id: str
    weapon: str
    info: PathInfo
    pay: DashPay


def check_charge(state: GameState, cmd: Charge) -> ChargePlan:
    """Every legality check of a Charge (nothing rolled). Raises Reject."""
    u = active_unit(state, cmd.unit_id, "movement")
    who = name(state, u.id)
    _second_move_allowed(state, u)
    if u.action_used:
        raise Reject(f"{who} has already used its action this turn; a charge ends with its attack")
    target = known_unit(state, cmd.target_id)
    if target.side == u.side:
        raise Reject(f"{name(state, target.id)} is on {who}'s own side")
    weapon = find_weapon(state, u.id, cmd.weapon, melee=True)
    info = check_path(state, u, cmd.path, "charge")
    end = info.path[-1] if info.path else u.hex
    if distance(end, target.hex) != 1:
        raise Reject(f"a charge must end next to its target: {hex_name(state.board, end)} is {distance(end, target.hex)} hexes "
                     f"from {name(state, target.id)}")
    check_advantage(state, u, cmd.advantage, cmd.advantage_kind)
    pay = dash_payment(state, u, cmd.pay)
    if cmd.pilot_advantage:
        if pay != "pilot":
            raise Reject("pilot Advantage is spent on a vehicle's pilot check; this charge needs none")
        check_advantage(state, u, cmd.pilot_advantage, cmd.pilot_advantage_kind, "pilot")
        if cmd.advantage and cmd.advantage_kind == cmd.pilot_advantage_kind:
            check_advantage(state, u, cmd.advantage + cmd.pilot_advantage, cmd.advantage_kind)
    return ChargePlan(u.id, target.id, weapon.name, info, pay)


def handle_charge(txn: Txn, cmd: Charge) -> None:
    st = txn.state
    plan = check_charge(st, cmd)
    uid = plan.unit_id
    txn.change_unit(uid, move_done=True, dashed=True)
    if not pay_for_dash(txn, uid, plan.pay, cmd.pilot_advantage, cmd.pilot_advantage_kind):
        return  # the pilot check failed: no charge, the unit keeps its attack [decision]
    txn.change_unit(uid, action_used=True, acted_round=st.round)
    arrived = walk(txn, uid, plan.info, "charge", emit_empty=True)
    mover = txn.unit(uid)
    if not arrived or not mover.alive or mover.out_of_action:
        if mover.alive:
            txn.emit(AttackGivenUp(unit_id=uid, reason="its charge was stopped"))
        return
    if not resolve_guard_counter(txn, plan.target_id, uid):
        return
    declare_or_offer(txn, uid, plan.target_id, plan.weapon, cmd.advantage, cmd.advantage_kind, charge=True)


def special_move_destination(state: GameState, unit: UnitState, to: Hex) -> str | None:
    """None when the unit's special move may land on `to` (turn and phase aside), else why not."""
    who = name(state, unit.id)

    def where(h: Hex) -> str:
        return hex_name(state.board, h)

    sm = state.unit_type(unit.id).special_move
    if sm is None:
        return f"{who} has no special move"
    to = Hex(*to)
    if to not in state.board:
        return f"{where(to)} is off the map"
    d = distance(unit.hex, to)
    if d == 0:
        return f"{who} is already on {where(to)}"
    if d > sm.range:
        return f"{sm.name} reaches {sm.range} hexes; {where(to)} is {d} away"
    if enter_cost(state, unit, to) is None:
        return f"{who} cannot {sm.name} onto {where(to)}: {_terrain_word(state, to)} is impassable"
    other = state.unit_at(to)
    if other is not None:
        return f"{who} cannot {sm.name} onto {where(to)}: {name(state, other.id)} is there"
    if sm.needs_los and not has_line_of_sight(state.board, state.setup.rules, unit.hex, to):
        return f"{sm.name} needs line of sight to {where(to)}"
    return None


def special_move_targets(state: GameState, unit_id: str) -> list[Hex]:
    """Every hex the unit's special move can land on from where it stands (empty if it has none)."""
    unit = state.units[unit_id]
    sm = state.unit_type(unit_id).special_move
    if sm is None:
        return []
    out = []
    for dq in range(-sm.range, sm.range + 1):
        for dr in range(max(-sm.range, -dq - sm.range), min(sm.range, -dq + sm.range) + 1):
            h = Hex(unit.hex.q + dq, unit.hex.r + dr)
            if special_move_destination(state, unit, h) is None:
                out.append(h)
    return out


def handle_special_move(txn: Txn, cmd: SpecialMove) -> None:
    st = txn.state
    u = active_unit(st, cmd.unit_id, "movement")
    if st.unit_type(u.id).special_move is None:
        raise Reject(f"{name(st, u.id)} has no special move")
    _second_move_allowed(st, u)
    to = Hex(*cmd.to)
    why = special_move_destination(st, u, to)
    if why:
        raise Reject(why)
    start = u.hex
    txn.change_unit(u.id, hex=to, moved=True, move_done=True, dashed=True)
    txn.emit(UnitMoved(unit_id=u.id, path=[start, to], mode="special_move"))


def is_stuck(state: GameState, unit: UnitState) -> bool:
    """Terrain leaves the unit unable to enter any neighbouring hex with its move."""
    allowance = state.unit_type(unit.id).move
    for n in neighbours(unit.hex):
        c = enter_cost(state, unit, n)
        if c is not None:
            bonus = road_bonus(state, unit) if state.board.is_road(unit.hex) and state.board.is_road(n) else 0
            if c <= allowance + bonus:
                return False
    return True


def handle_stuck_step(txn: Txn, cmd: StuckStep) -> None:
    st = txn.state

    def where(h: Hex) -> str:
        return hex_name(st.board, h)

    u = active_unit(st, cmd.unit_id, "movement")
    who = name(st, u.id)
    _can_move_now(st, u)
    if u.move_done:
        raise Reject(f"{who} has already taken its move action this turn")
    if not is_stuck(st, u):
        raise Reject(f"{who} is not stuck: it can enter a neighbouring hex with its move")
    to = Hex(*cmd.to)
    if distance(u.hex, to) != 1:
        raise Reject(f"a stuck unit steps one hex: {where(to)} is not next to {where(u.hex)}")
    if enter_cost(st, u, to) is None:
        raise Reject(f"{who} cannot enter {where(to)}: {_terrain_word(st, to)} is impassable")
    other = st.unit_at(to)
    if other is not None:
        raise Reject(f"{who} cannot step onto {where(to)}: {name(st, other.id)} is there")
    if cmd.pay == "adrenaline":
        cost = st.setup.rules.dash.adrenaline_cost
        if not st.unit_type(u.id).living:
            raise Reject(f"{who} has no Adrenaline (a vehicle): it can only give up its attack to step")
        if u.adrenaline < cost:
            raise Reject(f"{who} has no Adrenaline left: it can give up its attack to step instead")
        u = txn.change_unit(u.id, adrenaline=u.adrenaline - cost)
        txn.emit(AdrenalineSpent(unit_id=u.id, points=cost, left=u.adrenaline))
    else:
        if u.action_used:
            raise Reject(f"{who} has no attack left to give up this turn")
        txn.change_unit(u.id, action_used=True, acted_round=st.round)
        txn.emit(AttackGivenUp(unit_id=u.id, reason="to step out of difficult terrain"))
    txn.change_unit(u.id, move_done=True)
    walk(txn, u.id, PathInfo((to,), enter_cost(st, u, to) or 0, 0, 0), "stuck_step")
