"""The Attack phase through `apply` (design page §5): one action per unit, stances, Advantage,
the defensive action as a called interrupt, results applied to the target, every die recorded."""

from __future__ import annotations

from game.core.board import Board
from game.systems.tactical.rules import (
    Attack,
    DefensiveAction,
    EndPhase,
    EnterStance,
    Rejection,
    attack_preview,
)
from game.systems.tactical.rules.attacks import make_setup
from game.systems.tactical.rules.odds import outcome_distribution

from .ailfix import at, edit_unit, kinds, make_state, no, of, ok

NEVER = {"defensive_action_prompt": "never"}
PAIR = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]


def with_pool(state, side, kind, points):
    sides = dict(state.sides)
    sides[side] = sides[side].model_copy(update={"advantage": {**sides[side].advantage, kind: points}})
    return state.model_copy(update={"sides": sides})


def test_an_attack_records_every_die_and_applies_the_strength_loss():
    # distance 3: medium, AC 10. Hit 3 + 2 + 5 + braced 2 = 12: 1 hit; damage 10 (FP 3 > DUR 2: 4+);
    # casualty 5 - 1 morale + 7 left - 1 = 10: steady
    st = make_state(PAIR, phase="attack", forced=[5, 10, 5], rule_changes=NEVER)
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    rolls = of(out.events, "roll_made")
    assert [r.die for r in rolls] == [5, 10, 5] and all(r.forced for r in rolls)
    hit = rolls[0]
    assert (hit.stat_name, hit.stat, hit.skill_name, hit.skill, hit.target, hit.total, hit.margin) == \
        ("senses", 3, "firearms", 2, 10, 12, 2)
    assert ("braced", 2) in hit.modifiers
    assert rolls[1].target == 4 and rolls[1].success
    assert rolls[2].unit_id == "m1" and rolls[2].total == 10
    assert of(out.events, "strength_lost")[0].left == 7
    assert out.state.units["m1"].strength == 7 and out.state.units["r1"].action_used


def test_a_unit_that_moved_this_turn_is_not_braced():
    st = make_state(PAIR, phase="attack", forced=[5, 1], rule_changes=NEVER)
    st = edit_unit(st, "r1", moved=True)
    hit = of(ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).events, "roll_made")[0]
    assert ("braced", 2) not in hit.modifiers and hit.total == 10


def test_each_unit_takes_one_action_in_the_attack_phase():
    st = make_state(PAIR, phase="attack", forced=[1], rule_changes=NEVER)
    s = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).state
    assert "already used its action" in no(s, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert "already used its action" in no(s, EnterStance(unit_id="r1", stance="guard"))
    s = ok(st, EnterStance(unit_id="r1", stance="overwatch", weapon="bolt rifles")).state
    assert "(it is in overwatch)" in no(s, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))


def test_stances_need_the_right_weapon():
    st = make_state([("g1", "field_gun", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))], phase="attack")
    assert "no melee weapon" in no(st, EnterStance(unit_id="g1", stance="guard"))
    assert "is a melee weapon" in no(make_state(PAIR, phase="attack"),
                                      EnterStance(unit_id="r1", stance="overwatch", weapon="bayonets"))
    out = ok(st, EnterStance(unit_id="g1", stance="overwatch"))
    assert out.state.units["g1"].stance_weapon == "field gun"


def test_attacks_out_of_range_or_without_line_of_sight_are_rejected_with_the_reason():
    st = make_state([("m1", "militia_band", "blue", (0, 1)), ("r1", "rifle_section", "red", (9, 1))], phase="attack")
    assert "out of range: 9 hexes, extreme is 8" in no(st, Attack(attacker_id="m1", target_id="r1", weapon="bows"))
    board = Board.filled(10, 8, overrides={(3, 1): "woods"})
    st = make_state(PAIR, board=board, phase="attack")
    assert "no line of sight: woods at" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert "melee needs an adjacent target" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bayonets"))
    assert "own side" in no(make_state([*PAIR, ("r2", "rifle_section", "blue", (2, 2))], phase="attack"),
                            Attack(attacker_id="r1", target_id="r2", weapon="bolt rifles"))


def test_indirect_fire_needs_no_line_of_sight_but_takes_five_without_a_spotter():
    board = Board.filled(12, 8, overrides={(r, 1): "woods" for r in (3,)} | {(3, 0): "woods", (3, 2): "woods"})
    units = [("g1", "field_gun", "blue", (1, 1)), ("m1", "militia_band", "red", (6, 1))]
    st = make_state(units, board=board, phase="attack")
    preview = attack_preview(st, "g1", "m1", "field gun")
    assert not isinstance(preview, Rejection)
    assert ("indirect fire, no spotter", 5) in [(p.label, p.value) for p in preview.ac.parts]
    spotted = make_state([*units, ("r1", "rifle_section", "blue", (5, 3))], board=board, phase="attack")
    preview = attack_preview(spotted, "g1", "m1", "field gun")
    assert "indirect fire, no spotter" not in [p.label for p in preview.ac.parts]


def test_command_advantage_is_spent_from_the_side_pool_on_the_hit_roll():
    st = with_pool(make_state(PAIR, phase="attack", forced=[1, 1], rule_changes=NEVER), "blue", "command", 2)
    assert "has 2 Command Advantage" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles",
                                                       advantage=3, advantage_kind="command"))
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles", advantage=2,
                        advantage_kind="command"))
    assert ("Advantage x2", 2) in of(out.events, "roll_made")[0].modifiers
    assert out.state.sides["blue"].advantage["command"] == 0
    assert of(out.events, "advantage_spent")[0].points == 2


def test_deception_and_other_units_personal_advantage_cannot_be_spent_on_a_hit():
    st = with_pool(with_pool(make_state(PAIR, phase="attack"), "blue", "deception", 2), "blue", "personal", 2)
    assert "banked for the next initiative" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles",
                                                             advantage=1, advantage_kind="deception"))
    assert "commander's own unit only" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles",
                                                        advantage=1, advantage_kind="personal"))
    assert "which kind of Advantage" in no(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles",
                                                      advantage=1))


def test_the_defensive_action_is_a_called_interrupt_the_state_waits_for():
    st = make_state(PAIR, phase="attack", forced=[5])
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert kinds(out.events)[-1] == "defensive_action_offered" and "roll_made" not in kinds(out.events)
    s = out.state
    assert (s.pending.kind, s.pending.sides, s.pending.unit_id) == ("defensive_action", ("red",), "m1")
    assert "waiting for Red to answer" in no(s, EndPhase(side="blue"))
    assert "prompt is for" in no(s, DefensiveAction(unit_id="r1", accept=True))
    out = ok(s, DefensiveAction(unit_id="m1", accept=True))
    hit = of(out.events, "roll_made")[0]
    assert hit.target == 15 and not hit.success  # AC 10 + defensive action 5; 3 + 2 + 5 + 2 = 12
    taken = of(out.events, "defensive_action_taken")[0]
    assert taken.accepted and taken.costs == "this_turn"
    s = out.state
    assert s.pending is None and s.units["m1"].forfeit_attack


def test_a_defensive_action_costs_the_units_next_action():
    st = make_state(PAIR, phase="attack", forced=[5])
    s = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).state
    s = ok(s, DefensiveAction(unit_id="m1", accept=True)).state
    s = ok(ok(s, EndPhase(side="blue")).state, EndPhase(side="red")).state  # red: movement -> attack
    assert s.active_side == "red" and s.phase == "attack"
    assert "already used its action" in no(s, Attack(attacker_id="m1", target_id="r1", weapon="bows"))


def test_declining_the_defensive_action_keeps_the_ac_and_the_action():
    st = make_state(PAIR, phase="attack", forced=[5, 1])
    s = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).state
    out = ok(s, DefensiveAction(unit_id="m1", accept=False))
    assert of(out.events, "roll_made")[0].target == 10 and not out.state.units["m1"].forfeit_attack


def test_no_defensive_action_prompt_when_the_target_already_acted_this_round_or_rules_say_never():
    st = edit_unit(make_state(PAIR, phase="attack", forced=[1]), "m1", acted_round=1)
    assert "defensive_action_offered" not in kinds(ok(st, Attack(attacker_id="r1", target_id="m1",
                                                                 weapon="bolt rifles")).events)
    st = make_state(PAIR, phase="attack", forced=[1], rule_changes=NEVER)
    assert ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).state.pending is None


def test_out_of_action_results_drop_the_stance_and_block_attacks():
    # militia at strength 3: casualty 4 - 1 morale + 2 left - 1 = 4: out of action
    st = make_state([*PAIR[:1], ("m1", "militia_band", "red", (4, 1), 3)], phase="attack", forced=[5, 10, 4],
                    rule_changes=NEVER)
    st = edit_unit(st, "m1", stance="defensive", acted_round=1)
    st = st.model_copy(update={"forced_rolls": (10, 10, 4)})  # defensive stance: AC 15, 3+2+10+2 = 17
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert of(out.events, "attack_resolved")[0].result == "out_of_action"
    m1 = out.state.units["m1"]
    assert m1.out_of_action == "next_turn" and m1.stance == "none"
    s = ok(ok(out.state, EndPhase(side="blue")).state, EndPhase(side="red")).state
    assert "out of action" in no(s, EnterStance(unit_id="m1", stance="defensive"))


def test_a_unit_losing_its_last_strength_is_destroyed_and_the_battle_ends():
    st = make_state([*PAIR[:1], ("m1", "militia_band", "red", (4, 1), 1)], phase="attack",
                    forced=[10, 10, 10, 10], rule_changes=NEVER)
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert "unit_destroyed" in kinds(out.events)
    assert out.state.units["m1"].destroyed and out.state.phase == "ended" and out.state.winner == "blue"
    assert "battle is over" in no(out.state, EndPhase(side="blue"))


def test_attack_preview_gives_the_exact_odds_the_attack_is_rolled_with():
    st = make_state(PAIR, phase="attack")
    preview = attack_preview(st, "r1", "m1", "bolt rifles")
    assert not isinstance(preview, Rejection)
    assert preview.odds.joint == outcome_distribution(make_setup(st, "r1", "m1", "bolt rifles")).joint
    assert preview.defensive_action_possible and preview.odds_if_defensive_action is not None
    assert preview.odds_if_defensive_action.hit_chance < preview.odds.hit_chance
    assert isinstance(attack_preview(st, "r1", "m1", "bows"), Rejection)
    assert at(1, 1) == st.units["r1"].hex


def test_an_attack_that_became_impossible_while_the_prompt_waited_is_called_off():
    from game.systems.tactical.rules.gm import MoveUnitGM

    wide = Board.filled(20, 4)
    st = make_state(PAIR, phase="attack", board=wide)
    s = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")).state
    s = ok(s, MoveUnitGM(unit_id="m1", to=at(19, 1, wide))).state  # 18 hexes: out of range now
    out = ok(s, DefensiveAction(unit_id="m1", accept=False))
    assert "attack_resolved" not in kinds(out.events)
    assert "can no longer be made" in of(out.events, "attack_given_up")[0].reason
    assert out.state.pending is None
