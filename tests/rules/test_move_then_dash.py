"""A move then a dash asked all at once (move_then_dash.py) gives exactly what the per-hex what-ifs
give: `dash_reach(state_after_move(...))` from every hex `move_reach_keeping_dash` can end on; so
does the dash after a move to one hex (`dash_after_move`), for every hex of the board."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.hexgrid import Hex
from game.systems.tactical.rules import (
    Rejection,
    dash_after_move,
    dash_reach,
    move_reach_keeping_dash,
    move_then_dash_reach,
    move_then_dash_sources,
    state_after_move,
)

from .ailfix import make_state
from .test_reach_properties import battles


def _one_by_one(state: Any, uid: str) -> dict[Hex, dict[Hex, int]]:
    """Move end hex -> the dash reach's costs on the state that move leaves (the oracle)."""
    keep = move_reach_keeping_dash(state, uid)
    out: dict[Hex, dict[Hex, int]] = {}
    for m in keep.costs:
        if m == keep.start:
            continue
        after = state_after_move(state, uid, keep.path_to(m))
        if isinstance(after, Rejection):
            continue
        reach = dash_reach(after, uid)
        out[m] = {h: c for h, c in reach.costs.items() if h != reach.start}
    return out


def _check(state: Any, uid: str) -> int:
    per_end = _one_by_one(state, uid)
    union = {h for costs in per_end.values() for h in costs} - set(per_end)
    assert move_then_dash_reach(state, uid) == union
    for goal in set(state.board.terrain) | {state.units[uid].hex}:
        want = {m: costs[goal] for m, costs in per_end.items() if goal in costs}
        assert move_then_dash_sources(state, uid, goal) == want, goal
        # the dash after a move to this one hex, as the what-if state gives it (or nothing)
        assert dash_after_move(state, uid, goal) == per_end.get(goal, {}), goal
    return len(union)


@settings(max_examples=60, deadline=None)
@given(battles(), st.sampled_from(["movement", "attack"]), st.booleans())
def test_the_move_then_dash_reach_is_the_union_of_the_dashes_after_each_move(battle: Any, phase: str,
                                                                             moved: bool) -> None:
    board, units = battle
    state = make_state(units, board=board, phase=phase)
    if moved:  # its move action already taken: no move then dash at all, as the what-ifs say
        state = state.model_copy(update={"units": {**state.units,
                                                   "u0": state.units["u0"].model_copy(update={"move_done": True})}})
    _check(state, "u0")


def test_a_road_lets_the_dash_after_a_move_go_further_exactly_as_the_what_ifs_do() -> None:
    from game.core.board import Board

    road = {(x, 3) for x in range(30)}
    board = Board.filled(30, 7, overrides={(5, 2): "woods", (6, 4): "water"}, roads=road)
    units = [("u0", "armoured_car", "blue", (1, 3)), ("f1", "rifle_section", "blue", (3, 3)),
             ("e1", "rifle_section", "red", (8, 2)), ("e2", "militia_band", "red", (9, 4))]
    state = make_state(units, board=board, phase="movement")
    assert _check(state, "u0") > 0
    # 6 points a move or a dash off the road, 9 along it: past column 16 only by road both times
    far = [board.offset_of(h) for h in move_then_dash_reach(state, "u0") if board.offset_of(h)[0] > 16]
    assert far and all(row == 3 for _, row in far)
