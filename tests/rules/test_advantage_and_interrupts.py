"""Advantage spending by kind, and the edges of the interrupt rules (design page §3, §4.4, §5.6, §6)."""

from __future__ import annotations

from game.systems.tactical.rules import Attack, Charge, Dash, EndPhase
from game.systems.tactical.rules.commands import AssignLeadership

from .ailfix import at, commander, edit_unit, kinds, make_state, no, of, ok

NEVER = {"defensive_action_prompt": "never"}
PAIR = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]


def test_leadership_points_held_by_a_unit_are_spent_on_its_hit_roll():
    st = edit_unit(make_state(PAIR, phase="attack", forced=[1, 1], rule_changes=NEVER), "r1", leadership=2)
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles", advantage=2,
                        advantage_kind="leadership"))
    assert ("Advantage x2", 2) in of(out.events, "roll_made")[0].modifiers
    assert out.state.units["r1"].leadership == 0


def test_personal_advantage_is_spent_by_the_commanders_unit():
    st = make_state(PAIR, phase="attack", forced=[1, 1], rule_changes=NEVER,
                    commanders={"blue": commander(unit="r1")})
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "personal": 1}})
    out = ok(st.model_copy(update={"sides": sides}), Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles",
                                                            advantage=1, advantage_kind="personal"))
    assert out.state.sides["blue"].advantage["personal"] == 0


def test_leadership_is_handed_out_only_in_initiative_or_the_sides_own_turn():
    st = make_state(PAIR, phase="movement", active="red")
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "leadership": 1}})
    st = st.model_copy(update={"sides": sides})
    assert "own turn" in no(st, AssignLeadership(side="blue", unit_id="r1", points=1))
    assert "not one of Blue's units" in no(st, AssignLeadership(side="blue", unit_id="m1", points=1))


def test_no_defensive_action_is_offered_against_an_overwatch_shot():
    st = make_state([("m1", "militia_band", "red", (0, 1)), ("r1", "rifle_section", "blue", (6, 1))],
                    phase="movement", active="red", forced=[1])
    st = edit_unit(st, "r1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1)
    out = ok(st, Dash(unit_id="m1", path=(at(1, 1),)))
    assert "overwatch_fired" in kinds(out.events) and out.state.pending is None


def test_an_out_of_action_watcher_does_not_fire():
    st = make_state([("m1", "militia_band", "red", (0, 1)), ("r1", "rifle_section", "blue", (6, 1))],
                    phase="movement", active="red")
    st = edit_unit(st, "r1", stance="overwatch", stance_weapon="bolt rifles", out_of_action="next_turn")
    assert "overwatch_fired" not in kinds(ok(st, Dash(unit_id="m1", path=(at(1, 1),))).events)


def test_a_vehicle_failing_its_pilot_check_to_charge_keeps_its_attack():
    st = make_state([("w1", "warjack", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))], phase="movement",
                    forced=[1])  # intellect 3 + pilot 3 + 1 = 7 < 10
    out = ok(st, Charge(unit_id="w1", path=(at(2, 1), at(3, 1)), target_id="m1", weapon="shock blade"))
    assert "dash_failed" in kinds(out.events) and "attack_declared" not in kinds(out.events)
    w1 = out.state.units["w1"]
    assert w1.hex == at(1, 1) and w1.dashed and not w1.action_used


def test_a_mover_stopped_on_a_friends_hex_falls_back_to_the_last_free_hex():
    # r1 dashes through its friend r2 on (1,1); w1, 8 hexes away (long, AC 15), pins it there:
    # 3 + 2 + 10 + braced 2 - overwatch 2 = 15 hits, damage 6 on 6+, casualty 1 + 5 left = 6
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("r2", "rifle_section", "blue", (1, 1)),
                     ("w1", "rifle_section", "red", (9, 1))], phase="movement", forced=[10, 6, 1])
    st = edit_unit(st, "w1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1)
    out = ok(st, Dash(unit_id="r1", path=(at(1, 1), at(2, 1), at(3, 1))))
    assert of(out.events, "attack_resolved")[0].result == "pinned"
    assert out.state.units["r1"].hex == at(0, 1) and out.state.units["r2"].hex == at(1, 1)
    last = of(out.events, "unit_moved")[-1]
    assert last.stopped and last.path == [at(1, 1), at(0, 1)]


def test_a_marker_placed_during_the_units_own_turn_lasts_through_its_next_turn():
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement", forced=[10, 6, 1])
    st = edit_unit(st, "w1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1)
    s = ok(st, Dash(unit_id="r1", path=(at(1, 1), at(2, 1)))).state
    assert s.units["r1"].pinned == "next_turn"
    s = ok(ok(s, EndPhase(side="blue")).state, EndPhase(side="blue")).state  # blue's turn ends
    assert s.units["r1"].pinned == "next_turn"  # its next turn has not come yet


def test_leadership_points_may_be_spent_on_a_vehicles_pilot_check_but_command_advantage_may_not():
    st = make_state([("c1", "armoured_car", "blue", (1, 1))], phase="movement", forced=[3])
    st = edit_unit(st, "c1", leadership=1)
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "command": 1}})
    st = st.model_copy(update={"sides": sides})
    assert "hit rolls only" in no(st, Dash(unit_id="c1", path=(at(2, 1),), advantage=1, advantage_kind="command"))
    out = ok(st, Dash(unit_id="c1", path=(at(2, 1),), advantage=1, advantage_kind="leadership"))
    roll = of(out.events, "roll_made")[0]
    assert ("Advantage x1", 1) in roll.modifiers and roll.total == 10 and roll.success  # 3 + 3 + 3 + 1
    assert out.state.units["c1"].hex == at(2, 1) and out.state.units["c1"].leadership == 0
    living = make_state([("r1", "rifle_section", "blue", (1, 1))], phase="movement")
    assert "needs none" in no(edit_unit(living, "r1", leadership=1),
                              Dash(unit_id="r1", path=(at(2, 1),), advantage=1, advantage_kind="leadership"))
