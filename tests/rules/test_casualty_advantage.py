"""Advantage on casualty rolls and on a charge's pilot check (design page §3: Leadership points a
unit holds, and the commander's Personal Advantage, buy any of its rolls: hit, casualty, pilot)."""

from __future__ import annotations

from game.core.hexgrid import Hex
from game.systems.tactical.rules import (
    Attack,
    Charge,
    DefensiveAction,
    SetCasualtyAdvantage,
    attack_preview,
    legal_commands,
)
from game.systems.tactical.rules.attack import Modifier, resolve_attack
from game.systems.tactical.rules.attacks import make_setup
from game.systems.tactical.rules.odds import outcome_distribution

from .ailfix import at, commander, edit_unit, make_state, no, of, ok
from .test_attack import Script, d10, setup
from .test_odds import RIFLE, UNSKILLED, brute_force, make, small_rules, unit

NEVER = {"defensive_action_prompt": "never"}
PAIR = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))]
SHOT = Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles")
# r1: senses 3 + firearms 2 + 10 + braced 2 = 17 vs medium AC 10: 2 hits; FP 3 > DUR 2 needs 4+:
# 6, 6 both damage; militia (morale -1, strength 8, FP over DUR -1) casualty dice 1, 1.
TWO_DAMAGES = [10, 6, 6, 1, 1]


def _casualty_rolls(events: object) -> list[object]:
    return [e for e in of(events, "roll_made") if e.label.startswith("casualty")]  # type: ignore[arg-type]


def test_advantage_on_casualty_rolls_adds_one_per_point_to_each_roll_in_the_order_rolled():
    # 15 vs AC 10: 2 hits; FP 3 = DUR 3 needs 6+; casualty dice 1, 1 with +2 then +1.
    script = Script(*d10(10, 6, 6, 1, 1))
    res = resolve_attack(setup(casualty_advantage=(2, 1)), script)
    first, second = res.casualty_rolls
    assert Modifier("Advantage x2", 2) in first.parts and first.total == 1 + 5 + 2
    assert Modifier("Advantage x1", 1) in second.parts and second.total == 1 + 4 + 1
    assert (first.outcome, second.outcome) == ("steady", "pinned")
    assert res.casualty_advantage_spent == 3 and script.done()


def test_only_the_casualty_rolls_made_spend_their_advantage():
    res = resolve_attack(setup(casualty_advantage=(1, 1, 1)), Script(*d10(5, 6, 1)))  # 1 hit, 1 roll
    assert len(res.casualty_rolls) == 1 and res.casualty_advantage_spent == 1


def test_exact_odds_with_casualty_advantage_equal_brute_force_enumeration_of_every_die():
    case = make(UNSKILLED, unit(strength=3, morale=-2), RIFLE, Hex(2, 0), rules=small_rules(),
                casualty_advantage=(1, 2))
    joint, hits = brute_force(case)
    odds = outcome_distribution(case)
    assert dict(odds.joint) == joint and dict(odds.hits) == hits
    plain = outcome_distribution(make(UNSKILLED, unit(strength=3, morale=-2), RIFLE, Hex(2, 0), rules=small_rules()))
    def broken(o: object) -> object:
        return o.results["destroyed"] + o.results["annihilated"]  # type: ignore[attr-defined]
    assert broken(odds) < broken(plain)  # type: ignore[operator]
    assert any("casualty rolls" in n for n in odds.notes)


def test_a_unit_holding_leadership_spends_it_on_its_casualty_rolls_by_standing_order():
    st = make_state(PAIR, phase="attack", forced=TWO_DAMAGES, rule_changes=NEVER)
    st = edit_unit(st, "m1", leadership=3, casualty_advantage=1, casualty_advantage_kind="leadership")
    out = ok(st, SHOT)
    first, second = _casualty_rolls(out.events)
    assert ("Advantage x1", 1) in first.modifiers and first.total == 1 - 1 + 7 - 1 + 1  # type: ignore[attr-defined]
    assert ("Advantage x1", 1) in second.modifiers and second.total == 1 - 1 + 6 - 1 + 1  # type: ignore[attr-defined]
    spent = [e for e in of(out.events, "advantage_spent") if e.unit_id == "m1"]
    assert [(e.advantage_kind, e.points) for e in spent] == [("leadership", 2)]
    assert out.state.units["m1"].leadership == 1
    assert of(out.events, "attack_resolved")[0].result == "pinned"  # 7 and 6: pinned (out of action without)


def test_the_defensive_action_answer_may_spend_leadership_on_that_attacks_casualty_rolls():
    st = edit_unit(make_state(PAIR, phase="attack", forced=TWO_DAMAGES), "m1", leadership=3)
    asked = ok(st, SHOT).state
    assert asked.pending is not None and asked.pending.kind == "defensive_action"
    out = ok(asked, DefensiveAction(unit_id="m1", accept=False, casualty_advantage=2,
                                    casualty_advantage_kind="leadership"))
    first, second = _casualty_rolls(out.events)
    assert ("Advantage x2", 2) in first.modifiers and ("Advantage x1", 1) in second.modifiers  # type: ignore[attr-defined]
    m1 = out.state.units["m1"]
    assert m1.leadership == 0 and m1.casualty_advantage == 0  # this attack only: no standing order
    reason = no(asked, DefensiveAction(unit_id="m1", accept=False, casualty_advantage=1,
                                       casualty_advantage_kind="personal"))
    assert "commander's own unit" in reason


def test_attack_preview_odds_include_the_targets_casualty_advantage():
    st = make_state(PAIR, phase="attack", rule_changes=NEVER)
    st = edit_unit(st, "m1", leadership=3, casualty_advantage=1, casualty_advantage_kind="leadership")
    preview = attack_preview(st, "r1", "m1", "bolt rifles")
    assert not hasattr(preview, "reason")
    with_it = make_setup(st, "r1", "m1", "bolt rifles")
    assert with_it.casualty_advantage == (1, 1, 1)
    assert preview.odds.joint == outcome_distribution(with_it).joint  # type: ignore[union-attr]
    without = outcome_distribution(make_setup(st, "r1", "m1", "bolt rifles", casualty_advantage=0))
    assert preview.odds.joint != without.joint  # type: ignore[union-attr]
    # the defender weighing its answer: 2 a roll from the same 3 points
    asked = attack_preview(st, "r1", "m1", "bolt rifles", casualty_advantage=2, casualty_kind="leadership")
    assert asked.odds.joint == outcome_distribution(  # type: ignore[union-attr]
        make_setup(st, "r1", "m1", "bolt rifles", casualty_advantage=2, casualty_kind="leadership")).joint


def test_personal_advantage_on_casualty_rolls_is_for_the_commanders_unit_only():
    st = make_state(PAIR, phase="movement", active="red", commanders={"red": commander(unit="m1")})
    sides = dict(st.sides)
    sides["red"] = sides["red"].model_copy(update={"advantage": {**sides["red"].advantage, "personal": 2}})
    st = st.model_copy(update={"sides": sides})
    out = ok(st, SetCasualtyAdvantage(unit_id="m1", points=1, advantage_kind="personal"))
    assert out.state.units["m1"].casualty_advantage == 1
    assert "casualty_advantage_set" in [e.kind for e in out.events]
    st2 = make_state(PAIR + [("m2", "militia_band", "red", (6, 1))], phase="movement", active="red",
                     commanders={"red": commander(unit="m1")})
    st2 = st2.model_copy(update={"sides": sides})
    assert "commander's own unit" in no(st2, SetCasualtyAdvantage(unit_id="m2", points=1, advantage_kind="personal"))


def test_casualty_advantage_orders_are_given_in_the_sides_own_turn_with_points_held():
    st = edit_unit(make_state(PAIR, phase="movement", active="blue"), "m1", leadership=2)
    order = SetCasualtyAdvantage(unit_id="m1", points=1, advantage_kind="leadership")
    assert "own turn" in no(st, order)
    red = edit_unit(make_state(PAIR, phase="movement", active="red"), "m1", leadership=2)
    assert order in legal_commands(red)
    assert ok(red, order).state.units["m1"].casualty_advantage_kind == "leadership"
    assert "holds no Leadership" in no(edit_unit(red, "m1", leadership=0), order)


def test_leadership_may_be_spent_on_a_charging_vehicles_pilot_check():
    st = make_state([("w1", "warjack", "blue", (1, 1)), ("m1", "militia_band", "red", (4, 1))], phase="movement",
                    forced=[2], rule_changes=NEVER)  # intellect 3 + pilot 3 + 2 = 8, +2 Advantage = 10
    st = edit_unit(st, "w1", leadership=2)
    out = ok(st, Charge(unit_id="w1", path=(at(2, 1), at(3, 1)), target_id="m1", weapon="shock blade",
                        pilot_advantage=2, pilot_advantage_kind="leadership"))
    pilot = of(out.events, "roll_made")[0]
    assert ("Advantage x2", 2) in pilot.modifiers and pilot.success
    assert "dash_failed" not in [e.kind for e in out.events] and "attack_declared" in [e.kind for e in out.events]
    assert out.state.units["w1"].leadership == 0
    living = make_state(PAIR, phase="movement", rule_changes=NEVER)
    living = edit_unit(living, "r1", leadership=2)
    reason = no(living, Charge(unit_id="r1", path=(at(2, 1), at(3, 1)), target_id="m1", weapon="bayonets",
                               pilot_advantage=1, pilot_advantage_kind="leadership"))
    assert "pilot check" in reason


def test_a_charger_whose_casualty_rolls_used_its_points_against_the_guard_hits_with_what_is_left():
    st = make_state([("m1", "militia_band", "red", (1, 1)), ("r1", "rifle_section", "blue", (5, 1))],
                    phase="movement", active="red", rule_changes=NEVER,
                    forced=[2, 4, 10, 1])  # guard: 3+1+2+braced 2 = 8 vs 5, 1 hit; damage 4 on 4+; casualty 10
    st = edit_unit(st, "r1", stance="guard", stance_weapon="bayonets", acted_round=1)
    st = edit_unit(st, "m1", leadership=2, casualty_advantage=1, casualty_advantage_kind="leadership")
    out = ok(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears",
                        advantage=2, advantage_kind="leadership"))
    rolls = of(out.events, "roll_made")
    assert ("Advantage x1", 1) in rolls[2].modifiers  # m1's casualty roll against the counter
    charge_hit = next(r for r in rolls if r.unit_id == "m1" and r.label.startswith("hit"))
    assert ("Advantage x1", 1) in charge_hit.modifiers  # 2 named, 1 left
    assert out.state.units["m1"].leadership == 0
