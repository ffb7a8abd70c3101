"""Triggered interrupts (design page §6) and the charge (§4.4): overwatch after every step of a
dash or charge, nearest watcher first, -2 snap shot, stopping the mover; guard counters."""

from __future__ import annotations

from game.core.board import Board
from game.systems.tactical.rules import Charge, Dash, Move, overwatch_exposure
from game.systems.tactical.rules.attacks import make_setup
from game.systems.tactical.rules.odds import outcome_distribution

from .ailfix import at, edit_unit, kinds, make_state, of, ok

WIDE = Board.filled(20, 6)


def watch(state, uid, weapon="bolt rifles"):
    return edit_unit(state, uid, stance="overwatch", stance_weapon=weapon, acted_round=1)


def test_a_dash_into_overwatch_range_draws_a_snap_shot_at_minus_two():
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement", forced=[1])
    st = watch(st, "w1")
    out = ok(st, Dash(unit_id="r1", path=(at(1, 1),)))
    fired = of(out.events, "overwatch_fired")
    assert len(fired) == 1 and (fired[0].watcher_id, fired[0].step) == ("w1", 1)
    hit = of(out.events, "roll_made")[0]
    assert ("overwatch snap shot", -2) in hit.modifiers and hit.unit_id == "w1"
    assert out.state.units["w1"].stance == "none"


def test_an_ordinary_move_does_not_trigger_overwatch_unless_the_rules_add_it():
    units = [("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))]
    st = watch(make_state(units, phase="movement"), "w1")
    assert "overwatch_fired" not in kinds(ok(st, Move(unit_id="r1", path=(at(1, 1),))).events)
    st = watch(make_state(units, phase="movement", forced=[1],
                          rule_changes={"overwatch_triggers": ("move", "dash", "charge")}), "w1")
    assert "overwatch_fired" in kinds(ok(st, Move(unit_id="r1", path=(at(1, 1),))).events)


def test_overwatch_is_checked_after_every_step_and_fires_when_the_mover_enters_range():
    # bolt rifles reach 14 hexes: from (19,1) the mover at (1,1) is out of range until (5,1)
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("w1", "rifle_section", "red", (19, 1))],
                    board=WIDE, phase="movement", forced=[1])
    st = watch(st, "w1")
    path = (at(2, 1, WIDE), at(3, 1, WIDE), at(4, 1, WIDE), at(5, 1, WIDE))
    out = ok(st, Dash(unit_id="r1", path=path))
    fired = of(out.events, "overwatch_fired")
    assert [(f.step, f.at) for f in fired] == [(4, at(5, 1, WIDE))]
    moves = of(out.events, "unit_moved")
    assert moves[0].path[-1] == at(5, 1, WIDE)  # the mover is shown arriving before the shot


def test_every_qualifying_watcher_fires_nearest_first_and_only_once():
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (9, 1)),
                     ("w2", "rifle_section", "red", (7, 1))], phase="movement", forced=[1, 1])
    st = watch(watch(st, "w1"), "w2")
    out = ok(st, Dash(unit_id="r1", path=(at(1, 1), at(2, 1))))
    assert [f.watcher_id for f in of(out.events, "overwatch_fired")] == ["w2", "w1"]


def test_a_mover_pinned_by_overwatch_stops_on_that_hex():
    # w1 at distance 7 (long, AC 15): 3 + 2 + d10 10 + braced 2 - 2 = 15 hits; damage 6 on 6+;
    # casualty 1 + strength left 5 = 6: pinned
    st = make_state([("r1", "rifle_section", "blue", (0, 1)), ("w1", "rifle_section", "red", (8, 1))],
                    phase="movement", forced=[10, 6, 1])
    st = watch(st, "w1")
    out = ok(st, Dash(unit_id="r1", path=(at(1, 1), at(2, 1), at(3, 1))))
    assert of(out.events, "attack_resolved")[0].result == "pinned"
    u = out.state.units["r1"]
    assert u.hex == at(1, 1) and u.pinned == "next_turn" and u.strength == 5
    assert of(out.events, "unit_moved")[-1].stopped


def test_overwatch_exposure_lists_the_shots_the_dash_will_draw_with_their_exact_odds():
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("w1", "rifle_section", "red", (19, 1)),
                     ("w2", "armoured_infantry", "red", (12, 4))], board=WIDE, phase="movement", forced=[1, 1])
    st = watch(watch(st, "w1"), "w2", "repeater rifles")
    path = [at(c, 1, WIDE) for c in range(2, 6)]
    exposure = overwatch_exposure(st, "r1", path, "dash")
    out = ok(st, Dash(unit_id="r1", path=tuple(path)))
    assert [(e.step, e.watcher_id) for e in exposure] == \
        [(f.step, f.watcher_id) for f in of(out.events, "overwatch_fired")]
    first = exposure[0]
    expected = outcome_distribution(make_setup(st, first.watcher_id, "r1", first.weapon, overwatch_shot=True,
                                               target_at=first.hex))
    assert first.odds.joint == expected.joint
    assert overwatch_exposure(st, "r1", path, "move") == []


CHARGE = [("m1", "militia_band", "red", (1, 1)), ("r1", "rifle_section", "blue", (5, 1))]


def test_a_charge_is_a_dash_ending_next_to_the_target_then_a_melee_attack():
    st = make_state(CHARGE, phase="movement", active="red", forced=[1, 1],
                    rule_changes={"defensive_action_prompt": "never"})
    out = ok(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears"))
    assert kinds(out.events)[:2] == ["adrenaline_spent", "unit_moved"]
    resolved = of(out.events, "attack_resolved")
    assert len(resolved) == 1 and resolved[0].mode == "charge"
    m1 = out.state.units["m1"]
    assert m1.action_used and m1.dashed and m1.hex == at(4, 1)


def test_a_charge_must_end_adjacent_and_use_a_melee_weapon():
    from .ailfix import no
    st = make_state(CHARGE, phase="movement", active="red")
    assert "must end next to its target" in no(st, Charge(unit_id="m1", path=(at(2, 1),), target_id="r1",
                                                          weapon="spears"))
    assert "not a melee weapon" in no(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)),
                                                 target_id="r1", weapon="bows"))


def test_a_guarding_unit_strikes_the_charger_first():
    st = make_state(CHARGE, phase="movement", active="red", forced=[1, 1, 1, 1])
    st = edit_unit(st, "r1", stance="guard", stance_weapon="bayonets", acted_round=1)
    out = ok(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears"))
    k = kinds(out.events)
    assert k.index("guard_counter") < k.index("attack_declared")
    modes = [e.mode for e in of(out.events, "attack_resolved")]
    assert modes == ["guard_counter", "charge"]
    assert out.state.units["r1"].stance == "none"


def test_a_charge_stopped_by_overwatch_makes_no_attack():
    st = make_state([("m1", "militia_band", "red", (0, 1)), ("r1", "rifle_section", "blue", (4, 1)),
                     ("w1", "rifle_section", "blue", (6, 1))], phase="movement", active="red",
                    forced=[10, 10, 1, 1])
    st = watch(st, "w1")
    # step 1 at distance 5 (medium, AC 10): 3+2+10+2-2 = 15: 2 hits; damage 10 (4+) and 1;
    # casualty 1 - 1 morale + 7 left - 1 (FP 3 over DUR 2) = 6: pinned
    out = ok(st, Charge(unit_id="m1", path=(at(1, 1), at(2, 1), at(3, 1)), target_id="r1", weapon="spears"))
    assert of(out.events, "overwatch_fired")[0].step == 1
    assert "attack_declared" not in kinds(out.events)
    assert out.state.units["m1"].hex == at(1, 1) and out.state.units["m1"].pinned
    assert of(out.events, "attack_given_up")[0].reason == "its charge was stopped"


def test_charge_preview_shows_the_guard_counter_and_the_charge_attack_from_the_last_hex():
    from game.systems.tactical.rules import Rejection, charge_preview
    from game.systems.tactical.rules.odds import outcome_distribution as dist

    st = make_state(CHARGE, phase="movement", active="red")
    st = edit_unit(st, "r1", stance="guard", stance_weapon="bayonets", acted_round=1)
    cmd = Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears")
    p = charge_preview(st, cmd)
    assert not isinstance(p, Rejection)
    there = edit_unit(st, "m1", hex=at(4, 1), moved=True)
    assert p.guard_weapon == "bayonets"
    assert p.guard_counter.joint == dist(make_setup(there, "r1", "m1", "bayonets", counter=True)).joint
    assert p.attack.odds.joint == dist(make_setup(there, "m1", "r1", "spears")).joint
    assert "braced" not in [m.label for m in p.attack.hit_modifiers]
    bad = Charge(unit_id="m1", path=(at(2, 1),), target_id="r1", weapon="spears")
    assert isinstance(charge_preview(st, bad), Rejection)
