"""Advantage on triggered shots (design page §3: Advantage buys a unit's hit rolls; §6: overwatch
shots and guard counters are triggered, so the Advantage is named when the stance is taken)."""

from __future__ import annotations

from game.systems.tactical.rules import Charge, Dash, EnterStance, overwatch_exposure
from game.systems.tactical.rules.attacks import make_setup
from game.systems.tactical.rules.odds import outcome_distribution

from .ailfix import at, edit_unit, make_state, no, of, ok

PAIR = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]


def test_advantage_named_with_an_overwatch_stance_is_held_until_the_shot():
    st = edit_unit(make_state(PAIR, phase="attack"), "r1", leadership=2)
    out = ok(st, EnterStance(unit_id="r1", stance="overwatch", weapon="bolt rifles", advantage=2,
                             advantage_kind="leadership"))
    r1 = out.state.units["r1"]
    assert (r1.stance_advantage, r1.stance_advantage_kind, r1.leadership) == (2, "leadership", 2)  # not spent yet
    assert "holds 2 Leadership points, not 3" in no(st, EnterStance(
        unit_id="r1", stance="overwatch", weapon="bolt rifles", advantage=3, advantage_kind="leadership"))
    assert "no roll" in no(st, EnterStance(unit_id="r1", stance="defensive", advantage=1,
                                           advantage_kind="leadership"))


def test_the_overwatch_shot_spends_the_advantage_named_with_the_stance_and_the_preview_counts_it():
    st = make_state([("m1", "militia_band", "red", (0, 1)), ("w1", "rifle_section", "blue", (8, 1))],
                    phase="movement", active="red", forced=[1])
    st = edit_unit(st, "w1", stance="overwatch", stance_weapon="bolt rifles", acted_round=1, leadership=2,
                   stance_advantage=2, stance_advantage_kind="leadership")
    shot = overwatch_exposure(st, "m1", [at(1, 1)], "dash")[0]
    assert shot.odds.joint == outcome_distribution(
        make_setup(st, "w1", "m1", "bolt rifles", overwatch_shot=True, target_at=at(1, 1), advantage=2)).joint
    out = ok(st, Dash(unit_id="m1", path=(at(1, 1),)))
    hit = of(out.events, "roll_made")[0]
    assert ("Advantage x2", 2) in hit.modifiers and ("overwatch snap shot", -2) in hit.modifiers
    assert out.state.units["w1"].leadership == 0 and out.state.units["w1"].stance_advantage == 0
    assert [(e.unit_id, e.points) for e in of(out.events, "advantage_spent")] == [("w1", 2)]


def test_a_guard_counter_spends_what_is_left_of_the_advantage_named_with_the_stance():
    st = make_state([("m1", "militia_band", "red", (1, 1)), ("r1", "rifle_section", "blue", (5, 1))],
                    phase="movement", active="red", forced=[1, 1, 1, 1],
                    rule_changes={"defensive_action_prompt": "never"})
    # named 2 with the stance, but only 1 point is left by the time the charge comes
    st = edit_unit(st, "r1", stance="guard", stance_weapon="bayonets", acted_round=1, leadership=1,
                   stance_advantage=2, stance_advantage_kind="leadership")
    out = ok(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears"))
    counter = of(out.events, "roll_made")[0]
    assert counter.unit_id == "r1" and ("Advantage x1", 1) in counter.modifiers
    assert out.state.units["r1"].leadership == 0
