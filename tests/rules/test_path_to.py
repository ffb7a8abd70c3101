"""Reach.path_to looks back from the path's end one hex at a time, from the costs the reach's own
searches found (friends' hexes included). The path it gives is part of the rules' result (a
move's overwatch exposure follows it; a replay must give the same one), so it must be exactly the
path the earlier rebuild gave: a second search keeping every hex passed, then for each hex the
first neighbour, in direction order, it is cheapest reached from."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.core.hexgrid import DIRECTIONS, Hex
from game.systems.tactical.rules import GameState, dash_reach, move_reach
from game.systems.tactical.rules.movement import Reach, _occupancy, _search, _walk, move_reach_keeping_dash

from .ailfix import make_state
from .test_reach_memo import drawn_battle


def reference_path(state: GameState, reach: Reach, h: Hex) -> list[Hex]:
    """The earlier rebuild: every hex's predecessor from a second, full search."""
    road = h in reach.road_only
    unit = state.units[reach.unit_id]
    walk = _walk(state, state.unit_type(unit.id).unit_class == "hover", road,
                 reach.mode == "dash" or reach.avoid_difficult)
    blocked = _occupancy(state, walk.grid).enemy.get(unit.side, frozenset())
    best: dict[Hex, int] = {}
    _search(state, unit, walk, walk.grid.index_of(reach.start), reach.road_allowance if road else reach.allowance,
            blocked, frozenset(), best)
    index, rows = walk.grid.index, walk.rows
    prev: dict[Hex, Hex] = {}
    for x, cx in best.items():
        for dq, dr in DIRECTIONS:
            p = Hex(x[0] - dq, x[1] - dr)
            pc = best.get(p)
            if pc is not None and pc < cx and any(pc + step == cx and index[x] in group
                                                  for step, group in rows[index[p]] or ()):
                prev[x] = p
                break
    path = [h]
    while h != reach.start:
        h = prev[h]
        path.append(h)
    return path[::-1][1:]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_path_is_the_one_the_full_rebuild_gave(data: st.DataObject) -> None:
    _, state = drawn_battle(data, roads=30, units=(2, 9), any_sides=True)
    for uid in sorted(state.units):
        for fn in (move_reach, dash_reach, move_reach_keeping_dash):
            reach = fn(state, uid)
            ends = sorted(reach.costs)
            for h in ends + ends[::-1]:  # asked again, and in another order: the memo must agree
                assert reach.path_to(h) == reference_path(state, reach, h), f"{uid} {fn.__name__} to {h}"


def test_paths_through_friends_and_along_a_road_are_the_rebuilds():
    board = Board.filled(12, 5, overrides={(c, 1): "woods" for c in range(3, 9)},
                         roads={(c, 2) for c in range(12)})
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("r2", "rifle_section", "blue", (2, 2)),
                        ("r3", "rifle_section", "blue", (3, 3)), ("m1", "militia_band", "red", (6, 3))], board=board)
    reach = move_reach(state, "r1")
    assert reach.road_only  # the road bonus reaches further along the road
    for h in sorted(reach.costs):
        assert reach.path_to(h) == reference_path(state, reach, h)
    far = max(reach.road_only, key=lambda x: reach.costs[x])
    assert Hex(*board.hex_at(2, 2)) in reach.path_to(far)  # through the friend on the road


def test_a_path_asked_after_many_other_boards_were_searched_is_still_the_rebuilds():
    board = Board.filled(12, 5, overrides={(c, 1): "woods" for c in range(3, 9)}, roads={(c, 2) for c in range(12)})
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("r2", "rifle_section", "blue", (2, 2))], board=board)
    reach = move_reach(state, "r1")
    for k in range(12):  # more boards than the search keeps memos for: this one's are dropped
        other = Board.filled(6 + k, 5)
        move_reach(make_state([("r1", "rifle_section", "blue", (1, 2))], board=other), "r1")
    for h in sorted(reach.costs):
        assert reach.path_to(h) == reference_path(state, reach, h)
