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
  mouse hovers), without making the what-if state;
- `move_then_dash_targets(state, uid, pay)`: the hexes only a move then a dash reaches (neither
  the move nor the dash alone), when the unit may still make both and pay for the dash that way;
- `move_then_dash_commands(state, uid, pay)`: a `MoveThenDash` command to each of those hexes
  (what `legal_commands` lists);
- `move_then_dash_plan(state, uid, goal, pay)`: the one `MoveThenDash` command to `goal` a
  player's click makes (which hex the move ends on: the fewest overwatch shots drawn, then the
  shortest dash, then the cheapest in all, then hex order), with its overwatch and costs.

The command itself (`MoveThenDash`, applied by `handle_move_then_dash`) is a Move then a Dash in
one transaction, with the events the two make one after the other.

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
from dataclasses import dataclass, replace
from functools import partial
from typing import NamedTuple

from game.core.hexgrid import Hex
from game.systems.tactical.rules.base_queries import (
    Exposure,
    dash_refusal,
    kept_dash_reach,
    kept_move_reach,
    memo,
    overwatch_exposure,
)
from game.systems.tactical.rules.commands import Dash, DashPay, Move, MoveThenDash
from game.systems.tactical.rules.events import DashFailed
from game.systems.tactical.rules.movement import (
    Reach,
    _holders,
    _Occupancy,
    _occupancy,
    _search,
    _Walk,
    _walk,
    dash_reach,
    handle_dash,
    handle_move,
    move_reach_keeping_dash,
    state_after_move,
)
from game.systems.tactical.rules.state import GameState, UnitState
from game.systems.tactical.rules.txn import Reject, Rejection, Txn


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


# --------------------------------------------------------------------------- the command

def handle_move_then_dash(txn: Txn, cmd: MoveThenDash) -> None:
    """The move, then the dash, in one transaction: the events of a Move then a Dash. A refused
    move refuses the whole; so does a refused dash, unless the move rolled dice (its overwatch
    stopped or pinned the unit): what was rolled stands, the move is made, and `DashFailed` says
    why the dash was not."""
    handle_move(txn, Move(unit_id=cmd.unit_id, path=cmd.move_path))
    rolled = bool(txn.dice)
    try:
        handle_dash(txn, Dash(unit_id=cmd.unit_id, path=cmd.dash_path, pay=cmd.pay, advantage=cmd.advantage,
                              advantage_kind=cmd.advantage_kind))
    except Reject as exc:  # the dash's checks come before anything it changes: only the move is in txn
        if not rolled:
            raise
        txn.emit(DashFailed(unit_id=cmd.unit_id, reason=f"stopped after the move: {exc.reason}"))


# --------------------------------------------------------------------------- what the client offers

def _entered(reach: Reach, h: Hex) -> tuple[Hex, ...]:
    """The hexes a reach's path to `h` enters (its start left out)."""
    path = list(reach.path_to(h) or [])
    if path and path[0] == reach.start:
        path = path[1:]
    return tuple(path)


def _may_move_then_dash(state: GameState, unit_id: str, pay: DashPay | None) -> bool:
    """The unit has neither moved nor dashed and can pay for the dash the way `pay` says."""
    u = state.units[unit_id]
    return not u.move_done and not u.dashed and dash_refusal(state, unit_id, pay) is None


def move_then_dash_targets(state: GameState, unit_id: str, pay: DashPay | None = None) -> frozenset[Hex]:
    """The hexes only a move then a dash reaches: `move_then_dash_reach` less what the move or the
    dash alone reaches, the unit's own hex and hexes someone stands on. Empty once the unit has
    moved or dashed, or when it cannot pay for a dash the way `pay` says (`dash_refusal`)."""
    if not _may_move_then_dash(state, unit_id, pay):
        return frozenset()
    move = kept_move_reach(state, unit_id).costs
    dash = kept_dash_reach(state, unit_id).costs
    start = state.units[unit_id].hex

    def run() -> frozenset[Hex]:
        held = _holders(state)
        return frozenset(h for h in move_then_dash_reach(state, unit_id)
                         if h not in move and h not in dash and h != start and h not in held)

    out: frozenset[Hex] = memo(state, ("move_then_dash_targets", unit_id), run)
    return out


def move_then_dash_commands(state: GameState, unit_id: str, pay: DashPay | None = None) -> list[MoveThenDash]:
    """One `MoveThenDash` to each hex of `move_then_dash_targets` (those `legal_commands` lists
    for the unit, asked of it alone), in hex order: the move to the farthest hex it can end on
    (then the first in hex order) from which the dash reaches that hex, the dash along its reach's
    path. Each is the Move then the Dash the per-hex what-ifs check (`state_after_move`, then
    `dash_reach` on the state it leaves), so `apply` accepts it. A click makes the one
    `move_then_dash_plan` picks (it dodges overwatch); this is any one, found with few what-ifs:
    the farthest move ends reach the most, and the search stops once every hex has its command."""
    goals = set(move_then_dash_targets(state, unit_id, pay))
    if not goals:
        return []
    keep: Reach = memo(state, ("move_reach_keeping_dash", unit_id), lambda: move_reach_keeping_dash(state, unit_id))
    ends = {h: c for h, c in keep.costs.items() if h != keep.start}
    found: dict[Hex, MoveThenDash] = {}
    for m in sorted(ends, key=lambda h: (-ends[h], h)):
        if not goals:
            break
        if goals.isdisjoint(dash_after_move(state, unit_id, m)):  # (a search, no what-if state)
            continue
        mpath, after, dash = memo(state, ("move_then_dash_end", unit_id, m), partial(_after, state, unit_id, keep, m))
        if after is None or dash is None:
            continue
        for goal in goals.intersection(dash.costs):
            found[goal] = MoveThenDash(unit_id=unit_id, move_path=mpath, dash_path=_entered(dash, goal), pay=pay)
        goals.difference_update(dash.costs)
    return [found[h] for h in sorted(found)]


@dataclass(frozen=True)
class MoveThenDashPlan:
    """A move then a dash to one hex, as a click makes it: the command, the overwatch it draws
    (steps counted from the start of the move), the move's and the dash's costs."""

    command: MoveThenDash
    exposures: tuple[Exposure, ...]
    move_cost: int
    dash_cost: int


def move_then_dash_plan(state: GameState, unit_id: str, goal: Hex,
                        pay: DashPay | None = None) -> MoveThenDashPlan | None:
    """The move then dash to `goal` (one of `move_then_dash_targets`), or None. The move ends where
    the dash draws the fewest overwatch shots, then where the dash is shortest (the move goes as
    far as it can), then the cheapest in all; ties by hex order. Move ends are tried shortest dash
    first and the search stops at the first that draws no shot (none can rank better)."""
    goal = Hex(*goal)
    if goal not in move_then_dash_targets(state, unit_id, pay):
        return None
    keep: Reach = memo(state, ("move_reach_keeping_dash", unit_id), lambda: move_reach_keeping_dash(state, unit_id))
    move = {h: c for h, c in keep.costs.items() if h != keep.start}
    dcosts = move_then_dash_sources(state, unit_id, goal)
    best: tuple[tuple[int, int, int, Hex], MoveThenDashPlan] | None = None
    for m in sorted(dcosts, key=lambda m: (dcosts[m], move[m] + dcosts[m], m)):
        # what the move to m leaves, and the dash reach from there: the same for every goal (memo)
        mpath, after, dash = memo(state, ("move_then_dash_end", unit_id, m), partial(_after, state, unit_id, keep, m))
        if after is None:
            continue
        dpath = _entered(dash, goal)
        ex = _exposure(state, after, unit_id, mpath, dpath)
        rank = (len(ex), dcosts[m], move[m] + dcosts[m], m)
        if best is None or rank < best[0]:
            command = MoveThenDash(unit_id=unit_id, move_path=mpath, dash_path=dpath, pay=pay)
            best = (rank, MoveThenDashPlan(command, tuple(ex), move[m], dcosts[m]))
        if not ex:
            break
    return None if best is None else best[1]


def _after(state: GameState, unit_id: str, keep: Reach,
           m: Hex) -> tuple[tuple[Hex, ...], GameState | None, Reach | None]:
    """The move's path to `m`, the state it leaves (None if refused) and the dash reach there."""
    mpath = _entered(keep, m)
    after = state_after_move(state, unit_id, mpath)
    if isinstance(after, Rejection):
        return mpath, None, None
    return mpath, after, dash_reach(after, unit_id)


def _exposure(state: GameState, after: GameState, unit_id: str, move_path: tuple[Hex, ...],
              dash_path: tuple[Hex, ...]) -> list[Exposure]:
    """The overwatch a move then a dash would draw: the move's (when the rules' triggers include
    moves) and the dash's, asked of the state after the move, its steps counted from the start;
    a watcher fires once."""
    out = list(memo(state, ("exposure", unit_id, move_path, "move"),
                    lambda: overwatch_exposure(state, unit_id, move_path, "move"))) if move_path else []
    fired = {e.watcher_id for e in out}
    dash = overwatch_exposure(after, unit_id, dash_path, "dash")
    return out + [replace(e, step=e.step + len(move_path)) for e in dash if e.watcher_id not in fired]
