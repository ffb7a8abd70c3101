"""Issue 14: the queries a click and the first frame make, done incrementally, give exactly what
the straightforward ways give.

- A state's occupancy (which hexes units hold, per side the hexes its enemies hold) is patched
  from the latest one seen when only a few units changed (`movement._derive`); it must equal the
  occupancy worked out from scratch (`movement._rebuild_occupancy`, the oracle kept for this), for
  chains of what-if states, siblings of one base, destroyed units, and units piled on one hex.
- `can_still_move` answers most units without a reach search (`has_a_free_step`); it must agree
  with the full generator `legal_commands` uses, and `units_that_can_act` with its old definition.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.systems.tactical.bench.reach import nx_graphs, nx_reach
from game.systems.tactical.rules import (
    Accepted,
    GameState,
    apply,
    legal_commands,
    unit_can_act,
    units_that_can_act,
)
from game.systems.tactical.rules import movement as mv
from game.systems.tactical.rules.queries import _movement_commands, _slot_units, can_still_move

from .ailfix import RULES, make_state
from .test_soak_quick import ACTIVE, BOARD, UNITS

W, H = 9, 7
CELLS = [(c, r) for r in range(H) for c in range(W)]
TERRAIN = sorted(RULES.terrain)
TYPES = ["rifle_section", "militia_band", "hover_skiff", "battlemage_knight", "armoured_car", "field_gun"]


def board_and_state(data: st.DataObject, max_units: int = 9) -> GameState:
    overrides = {cell: data.draw(st.sampled_from(TERRAIN + ["clear"] * 6)) for cell in CELLS}
    roads = set(data.draw(st.lists(st.sampled_from(CELLS), max_size=25)))
    board = Board.filled(W, H, overrides=overrides, roads=roads)
    spots = data.draw(st.lists(st.sampled_from(CELLS), min_size=2, max_size=max_units, unique=True))
    specs = [(f"u{i}", data.draw(st.sampled_from(TYPES)), ("blue", "red", "green")[data.draw(st.integers(0, 2))
                                                                                     if i > 1 else i], cell)
             for i, cell in enumerate(spots)]
    return make_state(specs, board=board, phase="movement", sides=("blue", "red", "green"))


def changed(state: GameState, data: st.DataObject) -> GameState:
    """A what-if child: one or two units moved (anywhere, even onto another unit), destroyed or
    brought back."""
    units = dict(state.units)
    for _ in range(data.draw(st.integers(1, 2))):
        uid = data.draw(st.sampled_from(sorted(units)))
        what = data.draw(st.sampled_from(["move", "move", "move", "destroy", "revive"]))
        u = units[uid]
        if what == "move":
            c, r = data.draw(st.sampled_from(CELLS))
            units[uid] = u.model_copy(update={"hex": state.board.hex_at(c, r)})
        else:
            units[uid] = u.model_copy(update={"destroyed": what == "destroy"})
    return state.model_copy(update={"units": units})


def check_occupancy(state: GameState) -> None:
    grid = mv._grid(state.board)
    got = mv._occupancy(state, grid)
    want = mv._rebuild_occupancy(state.units, grid, tuple(state.sides))
    assert got.occupied == want.occupied
    assert got.enemy == want.enemy
    assert got.exact == want.exact or not got.exact  # a patched one is exact only when it truly is
    if got.exact:
        assert want.exact


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_an_occupancy_patched_from_its_parent_equals_one_worked_out_from_scratch(data: st.DataObject) -> None:
    base = board_and_state(data)
    check_occupancy(base)
    state = base
    for _ in range(data.draw(st.integers(1, 8))):
        parent = base if data.draw(st.booleans()) else state  # siblings of one base, or a chain
        mv._occupancy(parent, mv._grid(parent.board))  # the parent is the latest one seen
        state = changed(parent, data)
        check_occupancy(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reach_on_what_if_states_derived_one_from_another_equals_networkx(data: st.DataObject) -> None:
    state = board_and_state(data, max_units=6)
    check_against_networkx(state)
    for _ in range(data.draw(st.integers(1, 4))):
        state = changed(state, data)
        live = [u for u in state.units.values() if u.alive]
        if len({u.hex for u in live}) == len(live):  # networkx's oracle knows one unit a hex
            check_against_networkx(state)


def test_the_move_dash_overlay_states_share_one_base_and_stay_exact() -> None:
    state = make_state(UNITS, board=BOARD, phase="movement")
    reach = mv.move_reach(state, "r1")
    for h in sorted(reach.costs):
        after = mv.state_after_move(state, "r1", reach.path_to(h))
        assert isinstance(after, GameState)
        grid = mv._grid(after.board)
        derived = mv._occupancy(after, grid)
        assert derived.enemy["blue"] is mv._occupancy(state, grid).enemy["blue"]  # red's units did not change
        want = mv._rebuild_occupancy(after.units, grid, tuple(after.sides))
        assert (derived.occupied, derived.enemy) == (want.occupied, want.enemy)
        check_against_networkx(after)


def check_against_networkx(state: GameState) -> None:
    """Reach of every live unit (a destroyed one never moves) on `state` itself equals networkx's,
    and every path costs what the reach says."""
    for uid, unit in sorted(state.units.items()):
        if not unit.alive:
            continue
        for mode, fn in (("move", mv.move_reach), ("dash", mv.dash_reach)):
            reach = fn(state, uid)
            assert dict(reach.costs) == nx_reach(state, uid, mode, nx_graphs(state, uid, mode)), f"{uid} {mode}"
            for h, cost in reach.costs.items():
                path = reach.path_to(h)
                assert path[-1] == h and sum(mv.enter_cost(state, unit, p) or 0 for p in path) == cost


def full_can_still_move(state: GameState, uid: str) -> bool:
    return next(_movement_commands(state, state.units[uid]), None) is not None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_can_still_move_without_a_search_agrees_with_the_full_generator(data: st.DataObject) -> None:
    state = board_and_state(data)
    units = dict(state.units)
    for uid, u in units.items():
        flags = {k: data.draw(st.booleans()) for k in ("move_done", "dashed", "pinned", "out_of_action")}
        if data.draw(st.booleans()):
            flags = {k: False for k in flags}  # often a fresh unit, the case the shortcut answers
        units[uid] = u.model_copy(update={**flags, "adrenaline": data.draw(st.integers(0, 3))})
    state = state.model_copy(update={"units": units})
    for uid, u in state.units.items():
        if u.alive:
            assert can_still_move(state, u) == full_can_still_move(state, uid), uid


def test_a_unit_boxed_in_by_friends_with_a_free_hex_beyond_can_still_move() -> None:
    corridor = Board.filled(10, 8, "water", overrides={(c, 4): "clear" for c in range(10)})
    state = make_state([("r1", "rifle_section", "blue", (2, 4)), ("r2", "rifle_section", "blue", (1, 4)),
                        ("r3", "rifle_section", "blue", (3, 4)), ("m1", "militia_band", "red", (9, 4))],
                       board=corridor, phase="movement")
    assert not mv.has_a_free_step(state, "r1", "move")  # both neighbours held by friends
    assert can_still_move(state, state.units["r1"]) and full_can_still_move(state, "r1")  # passes one


def test_units_that_can_act_agrees_with_its_full_definition_and_unit_by_unit_through_random_games() -> None:
    for seed in range(3):
        state = make_state(UNITS, board=BOARD, seed=seed)
        pick = random.Random(seed)
        for _ in range(400):
            if state.phase == "ended":
                break
            for side in state.sides:
                old = ([u.id for u in _slot_units(state, side) if full_can_still_move(state, u.id)]
                       if state.phase == "movement" else None)
                if old is not None:
                    assert units_that_can_act(state, side) == old
                listed = set(units_that_can_act(state, side))
                assert {u for u in state.units if state.units[u].side == side and unit_can_act(state, u)} == listed
            cmds = legal_commands(state)
            active = [c for c in cmds if c.kind in ACTIVE]
            cmd = pick.choice(active) if active and pick.random() < 0.6 else pick.choice(cmds)
            out = apply(state, cmd)
            assert isinstance(out, Accepted)
            state = out.state
