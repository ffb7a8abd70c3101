"""A move then a dash in one turn, asked all at once instead of one what-if per hex.

The move action may end on any hex of `move_reach_keeping_dash` (the move reach through terrain
that is not difficult), and a dash may then go wherever `dash_reach` reaches on the state the move
leaves (`state_after_move`). Asking that what-if for every hex the move can end on costs one
state and one search per hex (436 of them for a fast unit on an open map); these queries give
the same answers from one search:

- `move_then_dash_reach(state, uid)`: every hex some move then a dash can end on (the move's own
  end hexes left out), the union of those per-hex dash reaches;
- `move_then_dash_sources(state, uid, goal)`: for one hex, every hex the move can end on from which
  the dash then reaches it, with what the dash costs: the dash reach of each such what-if state,
  read at `goal`;
- `dash_after_move(state, uid, end)`: the dash reach's costs after the move to one hex (what the
  mouse hovers), without making the what-if state.

Why one search is enough: the move only takes the unit off its hex and puts it on another. A
dash's search is closed only by enemy-held hexes (friends, and the unit's own old hex, are passed
through), so it runs on the same graph from every end hex, and the union of the dash reaches is one
search from all of them at once; which hexes it may end on differs only in the unit's own old and
new hex. The road bonus adds a second search along roads from the end hexes on a road, as
`dash_reach` does from a single hex. The tests check both queries against the per-hex what-ifs.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from typing import NamedTuple

from game.core.hexgrid import Hex
from game.systems.tactical.rules.movement import (
    _Occupancy,
    _occupancy,
    _search,
    _Walk,
    _walk,
    move_reach_keeping_dash,
    state_after_move,
)
from game.systems.tactical.rules.state import GameState, UnitState
from game.systems.tactical.rules.txn import Rejection


def _move_ends(state: GameState, unit_id: str) -> dict[Hex, int]:
    """Where the move action can end and leave the dash open, with its cost; empty when the move
    cannot be made now (the rules' `state_after_move` refuses it: not the unit's turn, already
    moved, pinned ...). Those refusals do not depend on where the move goes, and every path the
    keeping-dash reach gives is legal, so asking once, for its first hex, stands for all.
    Kept for the last few (state, unit) pairs (states never change in place): a hover asks it
    for every hex the mouse crosses. Shared: not to be changed."""
    for kept_state, kept_unit, kept in _ENDS:
        if kept_state is state and kept_unit == unit_id:
            return kept
    ends = _find_move_ends(state, unit_id)
    _ENDS.insert(0, (state, unit_id, ends))
    del _ENDS[_ENDS_SIZE:]
    return ends


_ENDS: list[tuple[GameState, str, dict[Hex, int]]] = []
_ENDS_SIZE = 4


def _find_move_ends(state: GameState, unit_id: str) -> dict[Hex, int]:
    keep = move_reach_keeping_dash(state, unit_id)
    ends = {h: c for h, c in keep.costs.items() if h != keep.start}
    if not ends:
        return {}
    first = min(ends)
    if isinstance(state_after_move(state, unit_id, keep.path_to(first)), Rejection):
        return {}
    return ends


class _Dash(NamedTuple):
    """What every query here searches with: the unit, its dash allowance and road bonus, the dash's
    walk (no difficult terrain) and the one along roads, the occupancy, the enemy-held hexes."""

    unit: UnitState
    move: int
    bonus: int
    walk: _Walk
    road_walk: _Walk
    occ: _Occupancy
    blocked: frozenset[int]


def _dash(state: GameState, unit_id: str) -> _Dash:
    unit = state.units[unit_id]
    ut = state.unit_type(unit_id)
    hover = ut.unit_class == "hover"
    walk = _walk(state, hover, False, True)
    occ = _occupancy(state, walk.grid)
    return _Dash(unit, ut.move, state.setup.rules.road_bonus.get(ut.unit_class, 0), walk,
                 _walk(state, hover, True, True), occ, occ.enemy.get(unit.side, frozenset()))


def dash_after_move(state: GameState, unit_id: str, end: Hex) -> dict[Hex, int]:
    """What a dash costs to each hex it can end on once the move action has gone to `end`:
    `dash_reach(state_after_move(state, unit_id, path to end)).costs` (the dash's start left
    out), or empty when `end` is not a hex the move can end on keeping the dash open. Found
    without making that state: the dash's search runs on the same graph from `end`, with the
    unit's old hex free and `end` held (see the module's note); the road bonus as dash_reach
    gives it. Payment for the dash is not looked at, as in dash_reach."""
    end = Hex(*end)
    ends = _move_ends(state, unit_id)
    if end not in ends:
        return {}
    d = _dash(state, unit_id)
    unit, grid = d.unit, d.walk.grid
    start = grid.index_of(end)
    held = (d.occ.occupied - {grid.index_of(unit.hex)}) | {start}  # who stands where after the move
    costs: dict[Hex, int] = {}
    _search(state, unit, d.walk, start, d.move, d.blocked, held, costs)
    if d.bonus and end in state.board.roads:
        road: dict[Hex, int] = {}
        _search(state, unit, d.road_walk, start, d.move + d.bonus, d.blocked, held, road)
        for h, c in road.items():
            costs.setdefault(h, c)
    return costs


def move_then_dash_reach(state: GameState, unit_id: str) -> frozenset[Hex]:
    """Every hex a dash can end on after the move action has gone to a hex that keeps the dash
    open, other than those move end hexes themselves: the union, over every `m` of
    `move_reach_keeping_dash`, of `dash_reach(state_after_move(state, unit_id, path to m))`, less
    the `m`s. Payment for the dash (Adrenaline, a pilot check) is not looked at, as in dash_reach."""
    ends = _move_ends(state, unit_id)
    if not ends:
        return frozenset()
    d = _dash(state, unit_id)
    unit, grid = d.unit, d.walk.grid
    sources = sorted(grid.index_of(h) for h in ends)
    out: dict[Hex, int] = {}
    _search(state, unit, d.walk, sources[0], d.move, d.blocked, frozenset(), out, also=tuple(sources[1:]))
    on_road = sorted(grid.index_of(h) for h in ends if h in state.board.roads)
    if d.bonus and on_road:
        road: dict[Hex, int] = {}
        _search(state, unit, d.road_walk, on_road[0], d.move + d.bonus, d.blocked, frozenset(),
                road, also=tuple(on_road[1:]))
        out.update((h, c) for h, c in road.items() if h not in out)
    # Who else stands somewhere stays there; the unit's own old hex is free once it has moved.
    occupied, index = d.occ.occupied, grid.index
    return frozenset(h for h in out if h not in ends and (index[h] not in occupied or h == unit.hex))


def move_then_dash_sources(state: GameState, unit_id: str, goal: Hex) -> dict[Hex, int]:
    """For every hex `m` the move action can end on (keeping the dash open) from which the dash
    then reaches `goal`: the dash's cost, `dash_reach(state_after_move(state, unit_id, path to
    m)).costs[goal]`. Found by one search backwards from `goal` (a step costs what entering the
    hex stepped onto costs, so the way back is priced by the hex it leaves)."""
    goal = Hex(*goal)
    ends = dict(_move_ends(state, unit_id))
    ends.pop(goal, None)  # a dash ends elsewhere than it starts
    if not ends:
        return {}
    d = _dash(state, unit_id)
    unit, grid = d.unit, d.walk.grid
    if goal not in grid.index:
        return {}
    target = grid.index[goal]
    if goal != unit.hex and target in d.occ.occupied:
        return {}  # someone else stands there
    plain = _back(state, unit, d.walk, target, d.move, d.blocked)
    out = {m: plain[m] for m in ends if m in plain}
    if d.bonus:
        road = _back(state, unit, d.road_walk, target, d.move + d.bonus, d.blocked)
        for m in ends:
            if m not in out and m in road and m in state.board.roads:
                out[m] = road[m]
    return out


def _back(state: GameState, unit: UnitState, walk: _Walk, goal: int, limit: int,
          blocked: frozenset[int]) -> Mapping[Hex, int]:
    """What a dash costs from each hex to the hex of index `goal` (within `limit`): a uniform-cost
    search from `goal` backwards. Every hex on the way, the first included, is one the walk may
    enter (what the forward search's rows hold: `_Walk.step`) and no enemy holds, exactly the
    hexes a forward dash search passes; a step back is priced by the hex it leaves."""
    if goal in blocked or not walk.step(state, unit, goal):
        return {}
    grid = walk.grid
    hexes = grid.hexes
    best: dict[int, int] = {goal: 0}
    queue: list[tuple[int, int]] = [(0, goal)]
    while queue:
        cost, i = heapq.heappop(queue)
        if cost > best[i]:
            continue
        nxt = cost + walk.step(state, unit, i)
        if nxt > limit:
            continue
        for j in grid.around(i):
            if j in blocked or not walk.step(state, unit, j):
                continue
            if nxt < best.get(j, limit + 1):
                best[j] = nxt
                heapq.heappush(queue, (nxt, j))
    return {hexes[i]: c for i, c in best.items()}
