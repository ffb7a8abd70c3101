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

import heapq
import itertools
import operator
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, cast

from game.core.board import Board
from game.core.hexgrid import DIRECTIONS, Hex, distance, neighbours
from game.core.system import counted, possessive
from game.systems.tactical.rules import overwatch
from game.systems.tactical.rules.attacks import check_advantage, declare_or_offer, spend_advantage
from game.systems.tactical.rules.check import Modifier, roll_check
from game.systems.tactical.rules.commands import Charge, Dash, DashPay, Move, SpecialMove, StuckStep
from game.systems.tactical.rules.common import active_unit, find_weapon, hex_name, known_unit, name
from game.systems.tactical.rules.events import (
    AdrenalineSpent,
    AdvantageSpent,
    AttackGivenUp,
    DashFailed,
    UnitMoved,
)
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.models import RulesData
from game.systems.tactical.rules.overwatch import resolve_guard_counter
from game.systems.tactical.rules.state import AdvantageKind, GameState, UnitState
from game.systems.tactical.rules.terrain import can_stand_on
from game.systems.tactical.rules.txn import Reject, Rejection, Txn

MoveMode = Literal["move", "dash", "charge", "special_move", "stuck_step"]


# --------------------------------------------------------------------------- costs

class _Named:
    """A unit's display name, looked up only when a sentence is made with it (`f"{who} ..."`):
    the checks below run for every what-if of a click and almost always pass."""

    __slots__ = ("state", "unit_id")

    def __init__(self, state: GameState, unit_id: str) -> None:
        self.state = state
        self.unit_id = unit_id

    def __format__(self, spec: str) -> str:
        return format(name(self.state, self.unit_id), spec)

    def __str__(self) -> str:
        return name(self.state, self.unit_id)


def enter_cost(state: GameState, unit: UnitState, h: Hex) -> int | None:
    """Movement points to enter `h`, or None when the unit can never enter it."""
    board, rules = state.board, state.setup.rules
    if h not in board:
        return None
    if board.is_road(h):
        return max(1, rules.road_move_cost)  # a road is never free: every step costs 1 or more
    name_ = board.terrain_at(h)
    if not can_stand_on(rules, state.unit_type(unit.id), name_):
        return None
    return rules.terrain[name_].move_cost


def is_difficult(state: GameState, h: Hex) -> bool:
    if h not in state.board or state.board.is_road(h):
        return False
    terrain = state.setup.rules.terrain.get(state.board.terrain_at(h))
    return terrain is not None and terrain.difficult


def difficult_word(state: GameState, h: Hex) -> str | None:
    """The terrain's name when `h` is difficult terrain (e.g. 'swamp'), else None."""
    return _terrain_word(state, h) if is_difficult(state, h) else None


def terrain_bars_dash(state: GameState, unit: UnitState) -> str | None:
    """Why difficult terrain keeps the unit from dashing (or charging) now, or None.

    A unit that started its turn in difficult terrain, or has entered some this turn, cannot dash;
    neither can one standing in it now (placed there by a GM, say). The sentence names the terrain."""
    who = _Named(state, unit.id)  # looked up only when a sentence needs it
    here = difficult_word(state, unit.hex)
    if here is not None:
        return (f"{who} is in difficult terrain ({here}, {hex_name(state.board, unit.hex)}): "
                "a unit in difficult terrain cannot dash or charge")
    if unit.difficult_terrain is not None:
        return (f"{who} has been in difficult terrain ({unit.difficult_terrain}) this turn: "
                "it cannot dash or charge until its side's next turn")
    return None


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
    # The state the reach was worked out on, and what its searches passed beyond `costs` (the
    # hexes friends hold, and the road search's own costs): path_to rebuilds a cheapest path from
    # them, looking back from its end one hex at a time (memo: each hex's step back, per kind).
    _state: GameState = field(repr=False, compare=False)
    _prev_memo: dict[bool, dict[Hex, Hex]] = field(default_factory=dict, repr=False, compare=False)
    # avoid_difficult: a move reach that keeps out of difficult terrain (move_reach_keeping_dash);
    # a dash always does.
    avoid_difficult: bool = False
    _passed: Mapping[Hex, int] = field(default_factory=dict, repr=False, compare=False)
    _road_costs: Mapping[Hex, int] = field(default_factory=dict, repr=False, compare=False)
    _road_passed: Mapping[Hex, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def hexes(self) -> frozenset[Hex]:
        return frozenset(self.costs)

    def __contains__(self, h: object) -> bool:
        return h in self.costs

    def path_to(self, h: Hex) -> list[Hex]:
        """The cheapest path to `h` (hexes entered, start excluded); [] for the start or unreachable.
        Of several equally cheap steps into a hex, the one from the first neighbour in direction
        order (looking back along each direction) is taken."""
        if h not in self.costs:
            return []
        road = h in self.road_only
        prev = self._prev_memo.setdefault(road, {})
        state = self._state
        walk = _walk(state, state.unit_type(self.unit_id).unit_class == "hover", road,
                     self.mode == "dash" or self.avoid_difficult)
        path = [h]
        while h != self.start:
            p = prev.get(h)
            if p is None:
                p = prev[h] = self._step_back(h, road, walk)
            h = p
            path.append(h)
        path.reverse()
        return path[1:]

    def _cost(self, h: Hex, road: bool) -> int | None:
        """What the search of this kind (road or not) found `h` to cost, friends' hexes too."""
        if road:
            got = self._road_costs.get(h)
            return got if got is not None else self._road_passed.get(h)
        got = self._passed.get(h)
        if got is None and h not in self.road_only:
            got = self.costs.get(h)
        return got

    def _step_back(self, h: Hex, road: bool, walk: _Walk) -> Hex:
        """The neighbour `h` is cheapest reached from: the first in direction order whose cost
        plus the step into `h` is `h`'s cost."""
        index, rows = walk.grid.index, walk.rows
        ch = self._cost(h, road)
        k = index[h]
        q, r = h
        for dq, dr in DIRECTIONS:
            p = Hex(q - dq, r - dr)
            pc = self._cost(p, road)
            if pc is None or ch is None or pc >= ch:
                continue
            i = index[p]
            row = rows[i] if i < len(rows) else None
            if row is None:  # (the walk's memo made again since the search: a new board came in between)
                row = walk.row(self._state, self._state.units[self.unit_id], i)
            if any(pc + step == ch and k in group for step, group in row):
                return p
        raise AssertionError(f"no step back from {h} in {self.unit_id}'s reach")  # a search's cost always has one


class _Grid:
    """One board as flat lists, so the search runs on small whole numbers (list positions)
    instead of hashing Hex tuples: `hexes[i]` is the hex at index i, `index` the reverse.
    Made once per board; a hex outside the board (a unit standing off it) is appended when first
    asked for. `scratch` holds each side's search marks (see _Scratch)."""

    __slots__ = ("board", "hexes", "index", "scratch", "_around")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.hexes: list[Hex] = list(board.terrain)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.hexes)}
        self.scratch: dict[str, _Scratch] = {}
        self._around: list[tuple[int, ...] | None] = []

    def around(self, i: int) -> tuple[int, ...]:
        """The indices of the hexes next to index i that are on the board (each walk's rows and
        the searches back ask them: worked out once per hex, not once per walk)."""
        around = self._around
        if len(around) <= i:
            around.extend([None] * (len(self.hexes) - len(around)))
        got = around[i]
        if got is None:
            get = cast("dict[tuple[int, int], int]", self.index).get
            q, r = self.hexes[i]  # (plain tuples find the Hex keys: a Hex is made for none of them)
            got = around[i] = tuple(j for j in (get((q + dq, r + dr)) for dq, dr in DIRECTIONS) if j is not None)
        return got

    def index_of(self, h: Hex) -> int:
        i = self.index.get(h)
        if i is None:
            h = Hex(*h)
            i = self.index[h] = len(self.hexes)
            self.hexes.append(h)
            for sc in self.scratch.values():
                sc.marks.append(0)
        return i

    def scratch_for(self, side: str, blocked: frozenset[int]) -> _Scratch:
        """The side's marks, with `blocked` (the hexes its enemies hold) marked closed."""
        sc = self.scratch.get(side)
        if sc is None:
            sc = self.scratch[side] = _Scratch(len(self.hexes))
        if sc.blocked is not blocked:
            if sc.blocked != blocked:
                marks = sc.marks
                for j in sc.blocked - blocked:
                    marks[j] = 0
                for j in blocked - sc.blocked:
                    marks[j] = _CLOSED
            sc.blocked = blocked
        return sc


# Above every stamp a search will ever use (one per search).
_CLOSED = 1 << 62


class _Scratch:
    """A search's marks, one per hex index, kept between searches so none needs a fresh list:
    each search takes a new `stamp`, higher than any before, and marks every hex it reaches
    with it, so a mark below the stamp means "not reached yet". Hexes an enemy holds stay marked
    `_CLOSED` (above every stamp) while the occupancy holds, so the search never enters them and
    never has to ask. One per side, as each side has its own enemies."""

    __slots__ = ("marks", "stamp", "blocked")

    def __init__(self, size: int) -> None:
        self.marks: list[int] = [0] * size
        self.stamp = 0
        self.blocked: frozenset[int] = frozenset()


# A hex's neighbours a unit may enter, grouped by step cost: ((cost, (index, ...)), ...), cheapest first.
_Row = tuple[tuple[int, tuple[int, ...]], ...]


class _Walk:
    """One kind of movement on one board under one rules set (hover or not, road hexes only or
    not, difficult terrain allowed or not): `rows[i]` lists the hexes a unit can step to from
    index i, grouped by what entering them costs (cheapest first), filled in hex by hex as searches reach them. Terrain never
    changes during a battle, so every later search reuses them (a pure memo of enter_cost)."""

    __slots__ = ("grid", "rules", "rows", "hover", "road_only", "no_difficult", "steps")

    def __init__(self, grid: _Grid, rules: RulesData, hover: bool, road_only: bool, no_difficult: bool) -> None:
        self.grid = grid
        self.rules = rules
        self.hover = hover
        self.road_only = road_only
        self.no_difficult = no_difficult
        self.rows: list[_Row | None] = []
        # What entering each hex costs under this walk (0: closed to it; -1: not asked yet): each
        # hex is a neighbour of six, and is asked once, not once per row it is in.
        self.steps: list[int] = []

    def step(self, state: GameState, unit: UnitState, j: int) -> int:
        """What entering the hex of index `j` costs under this walk, 0 when it is closed to it."""
        steps = self.steps
        if len(steps) < len(self.grid.hexes):
            steps.extend([-1] * (len(self.grid.hexes) - len(steps)))
        step = steps[j]
        if step < 0:
            n = self.grid.hexes[j]
            cost = enter_cost(state, unit, n)
            if cost is None or (self.road_only and not self.grid.board.is_road(n)) \
                    or (self.no_difficult and is_difficult(state, n)):
                cost = 0
            step = steps[j] = cost
        return step

    def row(self, state: GameState, unit: UnitState, i: int) -> _Row:
        grid = self.grid
        rows = self.rows
        if len(rows) < len(grid.hexes):
            rows.extend([None] * (len(grid.hexes) - len(rows)))
        steps = self.steps
        if len(steps) < len(grid.hexes):
            steps.extend([-1] * (len(grid.hexes) - len(steps)))
        by_step: dict[int, list[int]] = {}
        for j in grid.around(i):  # (off the board: never enterable)
            step = steps[j]
            if step < 0:
                step = self.step(state, unit, j)
            if step:
                by_step.setdefault(step, []).append(j)
        row = rows[i] = tuple((step, tuple(by_step[step])) for step in sorted(by_step))
        return row


_GRIDS: list[_Grid] = []
_WALKS: dict[tuple[int, int, bool, bool, bool], _Walk] = {}
_CACHE_SIZE = 8


def _grid(board: Board) -> _Grid:
    for g in _GRIDS:
        if g.board is board:
            return g
    if len(_GRIDS) >= _CACHE_SIZE:
        dropped = _GRIDS.pop(0)
        for key in [k for k, w in _WALKS.items() if w.grid is dropped]:
            del _WALKS[key]
    g = _Grid(board)
    _GRIDS.append(g)
    return g


def _walk(state: GameState, hover: bool, road_only: bool, no_difficult: bool) -> _Walk:
    board, rules = state.board, state.setup.rules
    key = (id(board), id(rules), hover, road_only, no_difficult)
    w = _WALKS.get(key)
    if w is not None and w.grid.board is board and w.rules is rules:
        return w
    if len(_WALKS) >= 4 * _CACHE_SIZE:
        del _WALKS[next(iter(_WALKS))]
    w = _WALKS[key] = _Walk(_grid(board), rules, hover, road_only, no_difficult)
    return w


def _search(state: GameState, unit: UnitState, walk: _Walk, start: int, limit: int, blocked: frozenset[int],
            skip: frozenset[int], out: dict[Hex, int], also: tuple[int, ...] = (),
            passed: dict[Hex, int] | None = None) -> None:
    """Uniform-cost search from index `start` up to `limit` points; `blocked`: the indices of
    enemy-held hexes. Puts the cost of every hex reached into `out`, but for the indices in `skip`.
    `also`: more hexes to start from at once (none blocked), each hex then costed from the nearest
    start (move_then_dash.py: the union of the dashes from every hex a move can end on).

    Step costs are small whole numbers, so the priority queue is a list of buckets, one per cost
    (Dial's algorithm): the same order as a binary heap, without its comparisons. What a step
    costs depends only on the hex entered, and hexes leave the buckets in order of cost, so the
    first time a hex is reached is also the cheapest: it goes into one bucket once, and is
    marked reached (see _Scratch) so no later step looks at it again."""
    grid = walk.grid
    hexes = grid.hexes
    sc = grid.scratch_for(unit.side, blocked)
    marks = sc.marks
    rows = walk.rows
    if len(rows) < len(marks):
        rows.extend([None] * (len(marks) - len(rows)))
    stamp = sc.stamp = sc.stamp + 1
    marks[start] = stamp
    buckets: list[list[int]] = [[] for _ in range(limit + 1)]
    buckets[0].append(start)
    for i in also:
        if marks[i] < stamp:
            marks[i] = stamp
            buckets[0].append(i)
    for cost in range(limit):
        room = limit - cost
        for i in buckets[cost]:
            if i not in skip:
                out[hexes[i]] = cost
            elif passed is not None:
                passed[hexes[i]] = cost
            row = rows[i]
            if row is None:
                row = walk.row(state, unit, i)
            for step, group in row:
                if step > room:
                    break  # the rest cost more still
                for j in group:
                    if marks[j] < stamp:  # neither reached yet nor held by an enemy
                        marks[j] = stamp
                        buckets[cost + step].append(j)
    # Every step costs at least 1: hexes reached with the whole allowance spent are not expanded.
    for i in buckets[limit]:
        if i not in skip:
            out[hexes[i]] = limit
        elif passed is not None:
            passed[hexes[i]] = limit
    if start in blocked:
        marks[start] = _CLOSED  # a unit sharing an enemy's hex (never in play): keep it closed


class _Occupancy:
    """Where the live units of one units mapping stand on one grid, as hex indices: `occupied`
    (every live unit's hex) and `enemy[side]` (the hexes that side's enemies hold). States never
    change in place, so the same mapping object always means the same occupancy.

    `exact`: no two live units share a hex (always so in play), so a unit's hex is held by it
    alone and a child's occupancy can be patched from its parent's (see `_derive`)."""

    __slots__ = ("units", "grid", "sides", "occupied", "enemy", "exact")

    def __init__(self, units: Mapping[str, UnitState], grid: _Grid, sides: tuple[str, ...],
                 occupied: frozenset[int], enemy: dict[str, frozenset[int]], exact: bool) -> None:
        self.units = units
        self.grid = grid
        self.sides = sides
        self.occupied = occupied
        self.enemy = enemy
        self.exact = exact


def _rebuild_occupancy(units: Mapping[str, UnitState], grid: _Grid, sides: tuple[str, ...]) -> _Occupancy:
    """The occupancy worked out from scratch: one pass over every unit (the straightforward way,
    kept as the fallback of `_derive` and as the tests' oracle)."""
    by_side: dict[str, set[int]] = {}
    index_of = grid.index_of
    live = 0
    for u in units.values():
        if not u.destroyed:
            live += 1
            by_side.setdefault(u.side, set()).add(index_of(u.hex))
    occupied = frozenset(k for keys in by_side.values() for k in keys)
    every_side = set(sides) | set(by_side)
    enemy = {side: frozenset(k for s, keys in by_side.items() if s != side for k in keys) for side in every_side}
    return _Occupancy(units, grid, sides, occupied, enemy, exact=len(occupied) == live)


# A child state changing more units than this is worked out from scratch (a pass over every unit
# costs about as much as patching this many).
_PATCH_MAX = 64


def _derive(parent: _Occupancy, units: Mapping[str, UnitState]) -> _Occupancy | None:
    """The occupancy of `units` patched from its parent's, or None when it cannot be (then it is
    rebuilt). A child state shares every unit object but the one or two a command (or a what-if)
    changed, in the same order (`{**parent, uid: unit}`), so the changed ones are found by
    identity at C speed, and only their old and new hexes are patched; an enemy set no changed
    unit belongs to stays the very same object (so `_Grid.scratch_for` keeps its marks)."""
    prev = parent.units
    if not parent.exact or len(prev) != len(units) or not all(map(operator.is_, prev, units)):
        return None  # not the same ids in the same order (a unit added or dropped): rebuild
    changed = list(itertools.compress(units, map(operator.is_not, units.values(), prev.values())))
    if not changed:
        return _Occupancy(units, parent.grid, parent.sides, parent.occupied, parent.enemy, True)
    if len(changed) > _PATCH_MAX:
        return None
    index_of = parent.grid.index_of
    gone: dict[int, str] = {}
    came: dict[int, str] = {}
    for k in changed:
        old, new = prev[k], units[k]
        if not old.destroyed:
            gone[index_of(old.hex)] = old.side
        if not new.destroyed:
            j = index_of(new.hex)
            if j in came:
                return None  # two changed units on one hex: rebuild (and mark it inexact)
            came[j] = new.side
    occupied = parent.occupied.difference(gone)
    if not occupied.isdisjoint(came):
        return None  # a unit moved onto a hex another still holds: rebuild
    occupied = occupied.union(came)
    enemy = dict(parent.enemy)
    for side in set(gone.values()) | set(came.values()):
        if side not in enemy:
            return None  # a side the parent did not know: rebuild
    for side, held in parent.enemy.items():
        minus = [j for j, s in gone.items() if s != side]
        plus = [j for j, s in came.items() if s != side]
        if minus or plus:
            enemy[side] = held.difference(minus).union(plus)
    return _Occupancy(units, parent.grid, parent.sides, occupied, enemy, True)


# The occupancies of the latest units mappings seen (most recent first): a pure memo that spares a
# pass over every unit on each search, and the parents new states are derived from (a click's
# move + dash overlay makes dozens of what-if states, each one unit away from the same base).
_OCC: list[_Occupancy] = []
_OCC_SIZE = 64


def _occupancy(state: GameState, grid: _Grid) -> _Occupancy:
    units = state.units
    for o in _OCC:
        if o.units is units and o.grid is grid:
            return o
    sides = tuple(state.sides)
    occ = None
    for o in _OCC:
        if o.grid is grid and o.sides == sides:
            occ = _derive(o, units)
            break  # only the most recent one on this grid: the likeliest parent
    if occ is None:
        occ = _rebuild_occupancy(units, grid, sides)
    _OCC.insert(0, occ)
    del _OCC[_OCC_SIZE:]
    return occ


def _reach(state: GameState, unit_id: str, mode: Literal["move", "dash"], avoid_difficult: bool = False) -> Reach:
    unit = state.units[unit_id]
    ut = state.unit_type(unit_id)
    base = ut.move
    hover = ut.unit_class == "hover"
    no_difficult = mode == "dash" or avoid_difficult
    walk = _walk(state, hover, False, no_difficult)
    grid = walk.grid
    occ = _occupancy(state, grid)
    occupied = occ.occupied
    blocked = occ.enemy.get(unit.side, frozenset())
    start = grid.index_of(unit.hex)
    costs: dict[Hex, int] = {}
    passed: dict[Hex, int] = {}  # friends' hexes (and the start): passed, not ends (path_to)
    _search(state, unit, walk, start, base, blocked, occupied, costs, passed=passed)
    road_allowance = 0
    only: frozenset[Hex] = frozenset()
    road: dict[Hex, int] = {}
    road_passed: dict[Hex, int] = {}
    bonus = state.setup.rules.road_bonus.get(ut.unit_class, 0)
    if bonus and unit.hex in state.board.roads:
        road_allowance = base + bonus
        _search(state, unit, _walk(state, hover, True, no_difficult), start, road_allowance, blocked, occupied, road,
                passed=road_passed)
        extra = [h for h in road if h not in costs]
        for h in extra:
            costs[h] = road[h]
        only = frozenset(extra)
    return Reach(unit_id, unit.hex, mode, base, road_allowance, costs, only, state,
                 avoid_difficult=avoid_difficult and mode == "move", _passed=passed, _road_costs=road,
                 _road_passed=road_passed)


def has_a_free_step(state: GameState, unit_id: str, mode: Literal["move", "dash"]) -> bool:
    """True when the unit's move (or dash) reach surely holds a hex: a neighbour it may enter
    within its allowance (no difficult terrain for a dash) that nobody holds. False says nothing
    (the unit may still pass a friend to a free hex beyond): then ask the reach itself. Costs six
    neighbours, not a search, for the question "can this unit still move?"."""
    unit = state.units[unit_id]
    ut = state.unit_type(unit_id)
    if mode == "dash" and terrain_bars_dash(state, unit) is not None:
        return False
    walk = _walk(state, ut.unit_class == "hover", False, mode == "dash")
    grid = walk.grid
    occupied = _occupancy(state, grid).occupied
    i = grid.index_of(unit.hex)
    rows = walk.rows
    if len(rows) < len(grid.hexes):
        rows.extend([None] * (len(grid.hexes) - len(rows)))
    row = rows[i]
    if row is None:
        row = walk.row(state, unit, i)
    limit = ut.move
    for step, group in row:
        if step > limit:
            return False
        for j in group:
            if j not in occupied:
                return True
    return False


def _no_reach(state: GameState, unit_id: str, mode: Literal["move", "dash"]) -> Reach:
    unit = state.units[unit_id]
    return Reach(unit_id, unit.hex, mode, state.unit_type(unit_id).move, 0, {}, frozenset(), state)


def move_reach(state: GameState, unit_id: str) -> Reach:
    """Every hex the unit's move action can end on (whether or not it may move right now)."""
    return _reach(state, unit_id, "move")


def dash_reach(state: GameState, unit_id: str) -> Reach:
    """Every hex a dash (or charge) from the unit's current hex can end on: no difficult terrain
    on the way, and nowhere at all when difficult terrain bars the unit's dash this turn
    (`terrain_bars_dash`). Payment (Adrenaline, pilot check) is not looked at here."""
    if terrain_bars_dash(state, state.units[unit_id]) is not None:
        return _no_reach(state, unit_id, "dash")
    return _reach(state, unit_id, "dash")


def move_reach_keeping_dash(state: GameState, unit_id: str) -> Reach:
    """Where the move action can end and still leave the dash open: the move reach through terrain
    that is not difficult (its `path_to` keeps out of it too); empty when difficult terrain already
    bars the dash. A move then a dash reaches `dash_reach(state_after_move(state, unit_id, path))`
    from each of these hexes (and from the start, with an empty move)."""
    if terrain_bars_dash(state, state.units[unit_id]) is not None:
        return _no_reach(state, unit_id, "move")
    return _reach(state, unit_id, "move", avoid_difficult=True)


def first_difficult(state: GameState, start: Hex, path: Iterable[Hex]) -> str | None:
    """The first difficult terrain a unit standing on `start` meets walking `path` (start included)."""
    for h in (start, *path):
        word = difficult_word(state, Hex(*h))
        if word is not None:
            return word
    return None


def state_after_move(state: GameState, unit_id: str, path: Iterable[Hex]) -> GameState | Rejection:
    """The what-if state once the unit's move action has taken it along `path` (hexes entered),
    as `apply` would leave it before any overwatch: on the last hex, move action used, `moved`
    and the difficult terrain met set the same way. Rejection when the move is not legal now."""
    try:
        u = active_unit(state, unit_id, "movement")
        _can_move_now(state, u)
        if u.move_done:
            raise Reject(f"{name(state, u.id)} has already taken its move action this turn")
        info = check_path(state, u, path, "move")
    except Reject as exc:
        return Rejection(exc.reason)
    end = info.path[-1] if info.path else u.hex
    met = u.difficult_terrain or first_difficult(state, u.hex, info.path)
    there = u.model_copy(update={"hex": end, "move_done": True, "moved": u.moved or bool(info.path),
                                 "difficult_terrain": met})
    return state.model_copy(update={"units": {**state.units, unit_id: there}})


def _cheapest(state: GameState, unit: UnitState, goal: Hex, avoid_difficult: bool) -> int | None:
    """The cheapest cost from the unit's hex to `goal` with no allowance (None: no way at all):
    enemy-held hexes closed, friends passed, difficult terrain left out when `avoid_difficult`."""
    enemy = {u.hex for u in state.units.values() if u.alive and u.side != unit.side}
    best: dict[Hex, int] = {unit.hex: 0}
    queue: list[tuple[int, Hex]] = [(0, unit.hex)]
    while queue:
        cost, h = heapq.heappop(queue)
        if h == goal:
            return cost
        if cost > best.get(h, cost):
            continue
        for n in neighbours(h):
            step = enter_cost(state, unit, n)
            if step is None or n in enemy or (avoid_difficult and is_difficult(state, n)):
                continue
            c = cost + step
            if c < best.get(n, c + 1):
                best[n] = c
                heapq.heappush(queue, (c, n))
    return None


def unreachable_reason(state: GameState, unit_id: str, h: Hex, mode: Literal["move", "dash"] = "move") -> str | None:
    """Why one move action of `mode` ("move" or "dash") cannot end on `h`, or None when it can
    (h is in `move_reach` / `dash_reach`). The reasons, first that applies: the unit's own hex; off
    the map; impassable terrain (named); difficult terrain barring the dash; difficult terrain a
    dash may not enter; another unit on the hex; no way through (enemies or impassable terrain
    block every route); too far (the cost against the allowance). Whether the unit may move at
    all now (its turn, pinned, move already taken) is `why_unit_cannot_act`'s answer, not this."""
    unit = state.units[unit_id]
    who = _Named(state, unit_id)  # looked up only when a sentence needs it
    h = Hex(*h)
    where = hex_name(state.board, h)
    reach = move_reach(state, unit_id) if mode == "move" else dash_reach(state, unit_id)
    if h in reach.costs:
        return None
    if h == unit.hex:
        return f"{who} is already on {where}"
    if h not in state.board:
        return f"{where} is off the map"
    if enter_cost(state, unit, h) is None:
        terrain = state.setup.rules.terrain.get(state.board.terrain_at(h))
        hover = " (only hover units cross it)" if terrain is not None and terrain.hover_passable else ""
        return f"impassable: {_terrain_word(state, h)} at {where}{hover}; {who} cannot enter it"
    if mode == "dash":
        barred = terrain_bars_dash(state, unit)
        if barred:
            return barred
        if is_difficult(state, h):
            return f"a dash may not enter difficult terrain: {where} is {_terrain_word(state, h)}"
    other = state.unit_at(h)
    if other is not None:
        whose = "enemy " if other.side != unit.side else ""
        return f"occupied: {whose}{name(state, other.id)} is on {where}"
    cost = _cheapest(state, unit, h, avoid_difficult=mode == "dash")
    if cost is None:
        why = "enemy units or impassable terrain" + (" or difficult terrain" if mode == "dash" else "")
        return f"no way through to {where}: {why} block every route"
    allowance = reach.allowance
    if cost <= allowance:  # not expected (the reach is the same search); said plainly all the same
        return f"{where} is out of {possessive(f'{who}')} reach"
    road = (f" ({reach.road_allowance} on an all-road path)" if reach.road_allowance else "")
    action = "its move" if mode == "move" else "a dash"
    return f"too far: {where} costs {cost} movement points to reach; {action} gives {who} {allowance}{road}"


# --------------------------------------------------------------------------- path checks

@dataclass(frozen=True)
class PathInfo:
    """A path found by the movement search: the hexes entered, its cost and allowance."""
    path: tuple[Hex, ...]  # hexes entered, start excluded
    cost: int
    allowance: int
    road_bonus: int


def check_path(state: GameState, unit: UnitState, path: Iterable[Hex], mode: MoveMode) -> PathInfo:
    """Validate a path for a move/dash/charge; raise Reject saying exactly what is wrong."""
    steps = list(path)
    if steps and steps[0] == unit.hex:
        steps = steps[1:]
    who = _Named(state, unit.id)  # looked up only when a sentence needs it

    def where(h: Hex) -> str:
        return hex_name(state.board, h)

    if mode in ("dash", "charge"):
        barred = terrain_bars_dash(state, unit)
        if barred:
            raise Reject(barred)
    occupied = _holders(state)
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


_HOLDERS: list[tuple[Mapping[str, UnitState], dict[Hex, UnitState]]] = []


def _holders(state: GameState) -> dict[Hex, UnitState]:
    """`state.occupied()` (hex -> live unit there), kept for the latest few units mappings: a
    click's move + dash overlay checks dozens of paths on one base state. Read-only."""
    units = state.units
    for u, held in _HOLDERS:
        if u is units:
            return held
    held = state.occupied()
    _HOLDERS.insert(0, (units, held))
    del _HOLDERS[4:]
    return held


def _can_move_now(state: GameState, unit: UnitState) -> None:
    who = _Named(state, unit.id)  # looked up only when a sentence needs it
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
    if txn.unit(unit_id).difficult_terrain is None and is_difficult(st, start):
        txn.change_unit(unit_id, difficult_terrain=_terrain_word(st, start))

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
        met = txn.unit(unit_id).difficult_terrain or difficult_word(txn.state, h)
        txn.change_unit(unit_id, hex=h, moved=True, difficult_terrain=met)
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
    who = _Named(state, unit.id)  # looked up only when a sentence needs it
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
        raise Reject(f"{who} has {counted(unit.leadership, 'Leadership point', 'Leadership points')}; a dash needs "
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
    who = _Named(st, u.id)  # looked up only when a sentence needs it
    _can_move_now(st, u)
    if u.move_done:
        raise Reject(f"{who} has already taken its move action this turn")
    info = check_path(st, u, cmd.path, "move")
    txn.change_unit(u.id, move_done=True)
    walk(txn, u.id, info, "move", emit_empty=True)


def _second_move_allowed(state: GameState, u: UnitState) -> None:
    who = _Named(state, u.id)  # looked up only when a sentence needs it
    _can_move_now(state, u)
    if u.dashed:
        raise Reject(f"{who} has already dashed (or charged, or used its special move) this turn")


def handle_dash(txn: Txn, cmd: Dash) -> None:
    st = txn.state
    u = active_unit(st, cmd.unit_id, "movement")
    _second_move_allowed(st, u)
    barred = terrain_bars_dash(st, u)
    if barred:
        raise Reject(barred)
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
    who = _Named(state, u.id)  # looked up only when a sentence needs it
    _second_move_allowed(state, u)
    if u.action_used:
        raise Reject(f"{who} has already used its action this turn; a charge ends with its attack")
    barred = terrain_bars_dash(state, u)
    if barred:
        raise Reject(barred)
    target = known_unit(state, cmd.target_id)
    if target.side == u.side:
        raise Reject(f"{name(state, target.id)} is on {possessive(f'{who}')} own side")
    weapon = find_weapon(state, u.id, cmd.weapon, melee=True)
    info = check_path(state, u, cmd.path, "charge")
    if not info.path:
        # A charge is a dash that ends in close combat: like any dash it moves at least one hex.
        # (An empty one would buy a braced melee attack, free of overwatch, for 1 Adrenaline.)
        beside = (f"{who} is already next to {name(state, target.id)}: attack it in the Attack phase instead"
                  if distance(u.hex, target.hex) == 1 else f"{who} must move to end next to {name(state, target.id)}")
        raise Reject(f"a charge is a dash that ends in close combat, so it moves at least one hex; {beside}")
    end = info.path[-1]
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
    who = _Named(state, unit.id)  # looked up only when a sentence needs it

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
    txn.change_unit(u.id, hex=to, moved=True, move_done=True, dashed=True,
                    difficult_terrain=u.difficult_terrain or difficult_word(st, to))
    txn.emit(UnitMoved(unit_id=u.id, path=[start, to], mode="special_move"))


def stuck_steps(state: GameState, unit: UnitState) -> list[Hex]:
    """The neighbours a stuck unit may step into: empty unless difficult terrain has cut its move
    to nothing, i.e. its move pays for no neighbouring hex and some neighbour it could enter is
    difficult terrain; then every such difficult neighbour (free of units or not: the step
    itself checks for units). A unit walled in only by terrain that is costly but not difficult
    (a bunker, say) is not stuck: it just cannot move. [source: tied to difficult terrain]"""
    if can_pay_a_step(state, unit):
        return []
    return [n for n in neighbours(unit.hex) if enter_cost(state, unit, n) is not None and is_difficult(state, n)]


def can_pay_a_step(state: GameState, unit: UnitState) -> bool:
    """The unit's move (with the road bonus for a road-to-road step) pays for some neighbour."""
    allowance = state.unit_type(unit.id).move
    for n in neighbours(unit.hex):
        c = enter_cost(state, unit, n)
        if c is None:
            continue
        bonus = road_bonus(state, unit) if state.board.is_road(unit.hex) and state.board.is_road(n) else 0
        if c <= allowance + bonus:
            return True
    return False


def handle_stuck_step(txn: Txn, cmd: StuckStep) -> None:
    st = txn.state

    def where(h: Hex) -> str:
        return hex_name(st.board, h)

    u = active_unit(st, cmd.unit_id, "movement")
    who = _Named(st, u.id)  # looked up only when a sentence needs it
    _can_move_now(st, u)
    if u.move_done:
        raise Reject(f"{who} has already taken its move action this turn")
    steps = stuck_steps(st, u)
    if not steps:
        if can_pay_a_step(st, u):
            raise Reject(f"{who} is not stuck: it can enter a neighbouring hex with its move")
        raise Reject(f"{who} is not stuck in difficult terrain: the step out is only for a unit whose move "
                     "difficult terrain has cut to nothing (no neighbouring hex is difficult terrain)")
    to = Hex(*cmd.to)
    if distance(u.hex, to) != 1:
        raise Reject(f"a stuck unit steps one hex: {where(to)} is not next to {where(u.hex)}")
    if enter_cost(st, u, to) is None:
        raise Reject(f"{who} cannot enter {where(to)}: {_terrain_word(st, to)} is impassable")
    if to not in steps:
        raise Reject(f"a stuck unit steps only into the difficult terrain that holds it: {where(to)} is "
                     f"{_terrain_word(st, to)}, which is not difficult")
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
