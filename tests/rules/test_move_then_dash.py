"""A move then a dash asked all at once (move_then_dash.py) gives exactly what the per-hex what-ifs
give: `dash_reach(state_after_move(...))` from every hex `move_reach_keeping_dash` can end on; so
does the dash after a move to one hex (`dash_after_move`), for every hex of the board."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.core.hexgrid import Hex
from game.systems.tactical.rules import (
    Accepted,
    Dash,
    Move,
    Rejection,
    apply,
    dash_after_move,
    dash_payments,
    dash_reach,
    legal_commands,
    move_reach_keeping_dash,
    move_then_dash_commands,
    move_then_dash_reach,
    move_then_dash_sources,
    parse_command,
    state_after_move,
)
from game.systems.tactical.rules.commands import MoveThenDash
from game.systems.tactical.rules.move_then_dash import move_then_dash_plan, move_then_dash_targets

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
    road = {(x, 3) for x in range(30)}
    board = Board.filled(30, 7, overrides={(5, 2): "woods", (6, 4): "water"}, roads=road)
    units = [("u0", "armoured_car", "blue", (1, 3)), ("f1", "rifle_section", "blue", (3, 3)),
             ("e1", "rifle_section", "red", (8, 2)), ("e2", "militia_band", "red", (9, 4))]
    state = make_state(units, board=board, phase="movement")
    assert _check(state, "u0") > 0
    # 6 points a move or a dash off the road, 9 along it: past column 16 only by road both times
    far = [board.offset_of(h) for h in move_then_dash_reach(state, "u0") if board.offset_of(h)[0] > 16]
    assert far and all(row == 3 for _, row in far)


# --------------------------------------------------------------------------- the MoveThenDash command

def _run(state: Any, uid: str) -> Any:
    """A state where `uid` has a hex only a move then a dash reaches, that hex and its plan."""
    goal = max(move_then_dash_targets(state, uid))
    return goal, move_then_dash_plan(state, uid, goal)


def test_a_move_then_dash_command_makes_the_events_and_state_of_a_move_then_a_dash() -> None:
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (9, 6))],
                       phase="movement")
    goal, plan = _run(state, "r1")
    c = plan.command
    assert parse_command(c.model_dump(mode="json")) == c  # saved and read back as it was
    one = apply(state, c)
    first = apply(state, Move(unit_id="r1", path=c.move_path))
    two = apply(first.state, Dash(unit_id="r1", path=c.dash_path))
    assert one.events == first.events + two.events
    assert one.state.units == two.state.units and one.state.rng == two.state.rng
    assert one.state.units["r1"].hex == goal and one.state.seq == state.seq + 1  # one command, one step


def test_a_move_then_dash_is_refused_whole_when_either_part_is_refused_and_nothing_was_rolled() -> None:
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (9, 6))],
                       phase="movement")
    _, plan = _run(state, "r1")
    c = plan.command
    far = Hex(*state.board.hex_at(9, 2))
    assert isinstance(apply(state, c.model_copy(update={"dash_path": (far,)})), Rejection)  # not next to it
    assert isinstance(apply(state, c.model_copy(update={"move_path": (far,)})), Rejection)
    tired = state.model_copy(update={"units": {**state.units, "r1": state.units["r1"].model_copy(
        update={"adrenaline": 0})}})
    out = apply(tired, MoveThenDash(unit_id="r1", move_path=c.move_path, dash_path=c.dash_path))
    assert isinstance(out, Rejection) and "Adrenaline" in out.reason


def test_a_dash_refused_after_a_move_that_drew_fire_leaves_the_move_and_says_why() -> None:
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("w1", "rifle_section", "red", (6, 2))],
                       phase="movement", rule_changes={"overwatch_triggers": ["move", "dash", "charge"]})
    state = state.model_copy(update={"forced_rolls": (1,), "units": {**state.units, "w1": state.units["w1"].model_copy(
        update={"stance": "overwatch", "stance_weapon": "bolt rifles"})}})
    step = Hex(*state.board.hex_at(2, 2))
    out = apply(state, MoveThenDash(unit_id="r1", move_path=(step,), dash_path=(Hex(*state.board.hex_at(9, 6)),)))
    assert isinstance(out, Accepted)
    assert "overwatch_fired" in [e.kind for e in out.events] and out.state.units["r1"].hex == step
    failed = [e for e in out.events if e.kind == "dash_failed"]
    assert len(failed) == 1 and failed[0].reason.startswith("stopped after the move")
    assert not out.state.units["r1"].dashed


@settings(max_examples=40, deadline=None)
@given(battles())
def test_every_move_then_dash_offered_is_accepted_and_ends_where_it_was_offered(battle: Any) -> None:
    board, units = battle
    state = make_state(units, board=board, phase="movement")
    if not state.unit_type("u0").living:
        return  # a vehicle's dash rolls a pilot check that may fail: the path rules are the same
    for goal in sorted(move_then_dash_targets(state, "u0")):
        plan = move_then_dash_plan(state, "u0", goal)
        assert plan is not None, goal
        out = apply(state, plan.command)
        assert isinstance(out, Accepted), (goal, out)
        assert out.state.units["u0"].hex == goal or any(e.kind == "overwatch_fired" for e in out.events)


@settings(max_examples=40, deadline=None)
@given(battles())
def test_legal_commands_list_a_move_then_dash_to_each_hex_only_it_reaches_and_apply_accepts_each(battle: Any) -> None:
    board, units = battle
    state = make_state(units, board=board, phase="movement")
    listed = [c for c in legal_commands(state) if isinstance(c, MoveThenDash) and c.unit_id == "u0"]
    assert [c.dash_path[-1] for c in listed] == sorted(move_then_dash_targets(state, "u0"))  # each hex once
    assert listed == move_then_dash_commands(state, "u0")
    for c in listed:
        out = apply(state, c)
        assert isinstance(out, Accepted), (c, out)
        if state.unit_type("u0").living:  # (a vehicle's pilot check may fail and spend the dash)
            assert out.state.units["u0"].hex == c.dash_path[-1] or any(e.kind == "overwatch_fired"
                                                                       for e in out.events)


def test_no_move_then_dash_is_listed_once_the_unit_has_moved() -> None:
    state = make_state([("r1", "rifle_section", "blue", (1, 2)), ("m1", "militia_band", "red", (9, 6))],
                       phase="movement")
    assert move_then_dash_commands(state, "r1")
    move = next(c for c in legal_commands(state) if isinstance(c, Move) and c.unit_id == "r1")
    after = apply(state, move)
    assert isinstance(after, Accepted)
    assert not [c for c in legal_commands(after.state) if isinstance(c, MoveThenDash)]


@pytest.mark.parametrize("kind", ["rifle_section", "armoured_car"])
@pytest.mark.parametrize("adrenaline", [0, 1, 3])
@pytest.mark.parametrize("leadership", [0, 1, 2, 3])
def test_the_dash_payments_say_exactly_which_ways_of_paying_apply_accepts(kind: str, adrenaline: int,
                                                                           leadership: int) -> None:
    state = make_state([("r1", kind, "blue", (1, 2)), ("m1", "militia_band", "red", (9, 6))], phase="movement")
    state = state.model_copy(update={"units": {**state.units, "r1": state.units["r1"].model_copy(
        update={"adrenaline": adrenaline, "leadership": leadership})}})
    ways = dash_payments(state, "r1")
    assert [w.pay for w in ways] == (["adrenaline", "leadership"] if state.unit_type("r1").living else ["pilot"])
    reach = dash_reach(state, "r1")
    path = tuple(h for h in reach.path_to(max(h for h in reach.costs if h != reach.start)) if h != reach.start)
    default = apply(state, Dash(unit_id="r1", path=path))
    for w in ways:
        out = apply(state, Dash(unit_id="r1", path=path, pay=w.pay))
        assert isinstance(out, Accepted) == (w.refusal is None), (w, out)
        if isinstance(out, Rejection):
            assert out.reason == w.refusal
        if w.default:  # the way a dash naming no payment pays: the very same outcome
            assert out == default
    assert sum(w.default for w in ways) == (1 if isinstance(default, Accepted) else 0)
    held = {"adrenaline": adrenaline, "leadership": leadership, "pilot": None}
    assert all(w.held == held[w.pay] for w in ways)
