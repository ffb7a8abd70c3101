"""The Movement phase (design page §4): costs, reach, one unit per hex, roads, dash, special
move, stuck in difficult terrain, pinned and out-of-action units."""

from __future__ import annotations

import networkx as nx

from game.core.board import Board
from game.core.hexgrid import neighbours
from game.systems.tactical.rules import Dash, Move, SpecialMove, StuckStep, dash_reach, move_reach
from game.systems.tactical.rules.movement import enter_cost

from .ailfix import RULES, at, edit_unit, kinds, make_state, no, of, ok

ROAD_ROW = {(c, 1) for c in range(10)}
ROAD_BOARD = Board.filled(10, 8, roads=ROAD_ROW)


def test_entering_a_hex_costs_its_terrain_move_cost():
    board = Board.filled(10, 8, overrides={(2, 1): "woods", (3, 1): "swamp"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], board=board, phase="movement")
    reach = move_reach(st, "r1")
    assert reach.costs[at(2, 1)] == 2 and reach.costs[at(0, 1)] == 1
    out = ok(st, Move(unit_id="r1", path=(at(2, 1), at(2, 2))))
    assert of(out.events, "unit_moved")[0].cost == 3


def test_a_path_costing_more_than_the_move_is_rejected_with_the_cost():
    board = Board.filled(10, 8, overrides={(2, 1): "woods", (3, 1): "swamp"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], board=board, phase="movement")
    reason = no(st, Move(unit_id="r1", path=(at(2, 1), at(3, 1))))
    assert "costs 5 movement points" in reason and "has 4" in reason


def test_move_reach_is_the_cheapest_cost_by_uniform_cost_search():
    overrides = {(3, r): "woods" for r in range(8)} | {(5, 2): "swamp", (4, 4): "rough", (3, 3): "clear"}
    board = Board.filled(10, 8, overrides=overrides)
    st = make_state([("k1", "battlemage_knight", "blue", (1, 3))], board=board, phase="movement")
    reach = move_reach(st, "k1")
    unit = st.units["k1"]
    g = nx.DiGraph()
    for h in board.terrain:
        for n in neighbours(h):
            c = enter_cost(st, unit, n)
            if c is not None:
                g.add_edge(h, n, weight=c)
    truth = nx.single_source_dijkstra_path_length(g, unit.hex, cutoff=6)
    truth.pop(unit.hex)
    assert dict(reach.costs) == truth
    for h, c in reach.costs.items():
        path = reach.path_to(h)
        assert path[-1] == h and sum(enter_cost(st, unit, p) for p in path) == c


def test_units_pass_through_friends_but_not_enemies_and_end_on_an_empty_hex():
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (2, 1)),
                     ("m1", "militia_band", "red", (4, 1))], phase="movement")
    ok(st, Move(unit_id="r1", path=(at(2, 1), at(3, 1))))
    assert "Rifle Section 2 is there" in no(st, Move(unit_id="r1", path=(at(2, 1),)))
    reason = no(st, Move(unit_id="r1", path=(at(2, 1), at(3, 1), at(4, 1), at(5, 1))))
    assert "enemy Militia Band 1 is there" in reason
    reach = move_reach(st, "r1")
    assert at(2, 1) not in reach and at(4, 1) not in reach and at(3, 1) in reach


def test_paths_must_be_contiguous_on_the_map_and_passable():
    board = Board.filled(10, 8, overrides={(2, 1): "water"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("h1", "hover_skiff", "blue", (1, 3))],
                    board=board, phase="movement")
    assert "not contiguous" in no(st, Move(unit_id="r1", path=(at(3, 1),)))
    assert "water is impassable" in no(st, Move(unit_id="r1", path=(at(2, 1),)))
    assert "off the map" in no(st, Move(unit_id="r1", path=(at(1, 0), at(1, -1))))
    ok(st, Move(unit_id="h1", path=(at(2, 2), at(2, 1))))  # hover crosses water
    assert "water is impassable" in no(st, Move(unit_id="r1", path=(at(2, 2), at(2, 1))))


def test_road_bonus_when_the_whole_path_including_the_start_is_road():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], board=ROAD_BOARD, phase="movement")
    path = tuple(at(c, 1) for c in range(2, 7))  # 5 road hexes: move 4 + infantry bonus 1
    out = ok(st, Move(unit_id="r1", path=path))
    moved = of(out.events, "unit_moved")[0]
    assert (moved.cost, moved.road_bonus) == (5, 1)
    reach = move_reach(st, "r1")
    assert at(6, 1) in reach.road_only and at(5, 1) not in reach.road_only


def test_no_road_bonus_when_the_start_or_any_hex_is_off_road():
    st = make_state([("r1", "rifle_section", "blue", (1, 2))], board=ROAD_BOARD, phase="movement")
    reason = no(st, Move(unit_id="r1", path=(at(1, 1), *(at(c, 1) for c in range(2, 6)))))
    assert "costs 5" in reason and "whole path, start included, is road" in reason
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], board=ROAD_BOARD, phase="movement")
    assert "costs 5" in no(st, Move(unit_id="r1", path=(at(2, 1), at(3, 1), at(4, 1), at(4, 2), at(5, 2))))


def test_road_bonus_applies_to_each_move_action_on_its_own():
    st = make_state([("r1", "rifle_section", "blue", (0, 1))], board=ROAD_BOARD, phase="movement")
    s = ok(st, Move(unit_id="r1", path=tuple(at(c, 1) for c in range(1, 5)))).state
    out = ok(s, Dash(unit_id="r1", path=tuple(at(c, 1) for c in range(5, 10))))
    assert of(out.events, "unit_moved")[0].road_bonus == 1
    assert out.state.units["r1"].hex == at(9, 1)
    assert at(9, 1) in dash_reach(s, "r1").road_only


def test_dash_costs_one_adrenaline_and_a_unit_without_any_cannot_dash():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    out = ok(st, Dash(unit_id="r1", path=(at(2, 1),)))
    assert out.state.units["r1"].adrenaline == 2 and of(out.events, "adrenaline_spent")[0].left == 2
    st = edit_unit(st, "r1", adrenaline=0)
    assert "no Adrenaline left" in no(st, Dash(unit_id="r1", path=(at(2, 1),)))


def test_dash_comes_after_the_move_action_and_only_once():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    s = ok(st, Dash(unit_id="r1", path=(at(2, 1),))).state
    assert "already taken its move action" in no(s, Move(unit_id="r1", path=(at(3, 1),)))
    assert "already dashed" in no(s, Dash(unit_id="r1", path=(at(3, 1),)))


def test_vehicle_dash_needs_a_pilot_check_and_a_failure_spends_the_dash():
    st = make_state([("c1", "armoured_car", "blue", (1, 1))], phase="movement", forced=[3])
    assert "vehicles dash with a pilot check" in no(st, Dash(unit_id="c1", path=(at(2, 1),), pay="adrenaline"))
    out = ok(st, Dash(unit_id="c1", path=(at(2, 1),)))  # intellect 3 + pilot 3 + 3 = 9 < 10
    roll = of(out.events, "roll_made")[0]
    assert (roll.skill_name, roll.target, roll.total, roll.success) == ("pilot", 10, 9, False)
    assert "dash_failed" in kinds(out.events) and "unit_moved" not in kinds(out.events)
    assert out.state.units["c1"].hex == at(1, 1) and out.state.units["c1"].dashed
    st = st.model_copy(update={"forced_rolls": (4,)})
    assert ok(st, Dash(unit_id="c1", path=(at(2, 1),))).state.units["c1"].hex == at(2, 1)


def test_living_units_cannot_take_a_pilot_check():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    assert "not a vehicle" in no(st, Dash(unit_id="r1", path=(at(2, 1),), pay="pilot"))


def test_dash_path_may_not_enter_difficult_terrain():
    board = Board.filled(10, 8, overrides={(2, 1): "swamp"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], board=board, phase="movement")
    assert "may not enter difficult terrain" in no(st, Dash(unit_id="r1", path=(at(2, 1),)))
    assert at(2, 1) in move_reach(st, "r1") and at(2, 1) not in dash_reach(st, "r1")


def test_special_move_replaces_the_dash_ignores_blockers_and_needs_line_of_sight():
    board = Board.filled(10, 8, overrides={(3, 3): "woods"})
    units = [("k1", "battlemage_knight", "blue", (1, 1)), ("m1", "militia_band", "red", (2, 1)),
             ("m2", "militia_band", "red", (6, 6))]
    st = make_state(units, board=board, phase="movement")
    st = edit_unit(st, "m2", stance="overwatch", stance_weapon="bows")
    out = ok(st, SpecialMove(unit_id="k1", to=at(4, 1)))
    assert of(out.events, "unit_moved")[0].mode == "special_move"
    assert "overwatch_fired" not in kinds(out.events)
    assert "already dashed" in no(out.state, Dash(unit_id="k1", path=(at(5, 1),)))
    assert "reaches 3 hexes" in no(st, SpecialMove(unit_id="k1", to=at(5, 1)))
    st2 = make_state([("k1", "battlemage_knight", "blue", (2, 3))], board=board, phase="movement")
    assert "needs line of sight" in no(st2, SpecialMove(unit_id="k1", to=at(4, 3)))
    st3 = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    assert "has no special move" in no(st3, SpecialMove(unit_id="r1", to=at(2, 1)))


SWAMPED = Board.filled(10, 8, terrain="swamp", overrides={(4, 4): "clear"})


def test_a_unit_stuck_in_difficult_terrain_may_step_one_hex_giving_up_its_attack():
    st = make_state([("g1", "field_gun", "blue", (4, 4))], board=SWAMPED, phase="movement")
    assert "no Adrenaline" in no(st, StuckStep(unit_id="g1", to=at(5, 4), pay="adrenaline"))
    out = ok(st, StuckStep(unit_id="g1", to=at(5, 4), pay="attack"))
    u = out.state.units["g1"]
    assert u.hex == at(5, 4) and u.action_used and "attack_given_up" in kinds(out.events)


def test_a_stuck_living_unit_may_pay_adrenaline_to_step_instead():
    terrain = dict(RULES.terrain)
    terrain["swamp"] = terrain["swamp"].model_copy(update={"move_cost": 5})
    st = make_state([("m1", "militia_band", "blue", (4, 4))], board=SWAMPED, phase="movement",
                    rule_changes={"terrain": terrain})
    out = ok(st, StuckStep(unit_id="m1", to=at(5, 4), pay="adrenaline"))
    assert out.state.units["m1"].adrenaline == 1 and not out.state.units["m1"].action_used


def test_a_unit_that_can_enter_a_neighbour_is_not_stuck():
    st = make_state([("r1", "rifle_section", "blue", (4, 4))], board=SWAMPED, phase="movement")
    assert "is not stuck" in no(st, StuckStep(unit_id="r1", to=at(5, 4), pay="attack"))


def test_pinned_units_cannot_move_and_out_of_action_units_cannot_either():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    assert "is pinned" in no(edit_unit(st, "r1", pinned="this_turn"), Move(unit_id="r1", path=(at(2, 1),)))
    oa = edit_unit(st, "r1", out_of_action="this_turn")
    assert "out of action" in no(oa, Dash(unit_id="r1", path=(at(2, 1),)))


def test_a_second_move_action_is_rejected():
    st = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    s = ok(st, Move(unit_id="r1", path=(at(2, 1),))).state
    assert "already taken its move action" in no(s, Move(unit_id="r1", path=(at(3, 1),)))


def test_special_move_targets_are_exactly_the_hexes_the_special_move_accepts():
    from game.systems.tactical.rules import Accepted, apply, special_move_targets

    board = Board.filled(10, 8, overrides={(3, 3): "woods", (2, 1): "water"})
    st = make_state([("k1", "battlemage_knight", "blue", (2, 3)), ("m1", "militia_band", "red", (3, 2))],
                    board=board, phase="movement")
    targets = set(special_move_targets(st, "k1"))
    assert targets and at(4, 3) not in targets and at(2, 1) not in targets and at(3, 2) not in targets
    for h in board.terrain:
        accepted = isinstance(apply(st, SpecialMove(unit_id="k1", to=h)), Accepted)
        assert accepted == (h in targets), h
