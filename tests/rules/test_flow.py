"""Round structure and the Initiative phase (design page §2, §3, §7)."""

from __future__ import annotations

from game.systems.tactical.rules import ChooseInitiative, ChooseTurnPlace, EndPhase, Move
from game.systems.tactical.rules.commands import AssignLeadership, Dash
from game.systems.tactical.rules.state import TurnSlot

from .ailfix import at, commander, edit_unit, kinds, make_state, no, of, ok

TWO = [("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (8, 1))]


def choose(state, blue="tactics", red="tactics", **kw):
    s = ok(state, ChooseInitiative(side="blue", option=blue, **kw.get("blue_kw", {}))).state
    return ok(s, ChooseInitiative(side="red", option=red, **kw.get("red_kw", {})))


def test_initiative_waits_for_every_side_before_rolling():
    st = make_state(TWO)
    out = ok(st, ChooseInitiative(side="blue", option="tactics"))
    assert "roll_made" not in kinds(out.events)
    assert out.state.pending.kind == "initiative_choice" and out.state.pending.sides == ("red",)
    assert "already chosen" in no(out.state, ChooseInitiative(side="blue", option="leadership"))
    out = ok(out.state, ChooseInitiative(side="red", option="deception"))
    assert len(of(out.events, "initiative_rolled")) == 2


def test_initiative_rolls_intellect_plus_option_skill():
    st = make_state(TWO, forced=[4, 9], commanders={"blue": commander(intellect=3, tactics=2),
                                                   "red": commander(intellect=1, deception=4)})
    out = choose(st, "tactics", "deception")
    rolls = of(out.events, "roll_made")
    assert (rolls[0].stat_name, rolls[0].stat, rolls[0].skill_name, rolls[0].skill, rolls[0].total) == \
        ("intellect", 3, "tactics", 2, 9)
    assert (rolls[1].skill_name, rolls[1].total) == ("deception", 14)


def test_initiative_winner_gains_one_advantage_plus_one_per_full_five_points():
    st = make_state(TWO, forced=[10, 1])  # blue 3+2+10 = 15, red 3+2+1 = 6: margin 9
    out = choose(st)
    won = of(out.events, "initiative_won")[0]
    assert (won.side, won.margin) == ("blue", 9)
    assert out.state.sides["blue"].advantage["command"] == 2
    assert out.state.sides["red"].advantage["command"] == 0


def test_initiative_advantage_kind_follows_the_option_rolled():
    st = make_state(TWO, forced=[10, 1])
    out = choose(st, blue="leadership")
    assert out.state.sides["blue"].advantage["leadership"] == 2


def test_initiative_ties_reroll():
    st = make_state(TWO, forced=[5, 5, 7, 2])
    out = choose(st)
    rolled = of(out.events, "initiative_rolled")
    assert [r.reroll for r in rolled] == [0, 0, 1, 1]
    won = of(out.events, "initiative_won")[0]
    assert (won.side, won.margin) == ("blue", 5)
    assert out.state.sides["blue"].advantage["command"] == 2


def test_initiative_three_sides_winner_two_runner_up_one():
    units = [*TWO, ("k1", "battlemage_knight", "green", (5, 6))]
    st = make_state(units, sides=("blue", "red", "green"), forced=[2, 9, 5])
    s = ok(st, ChooseInitiative(side="blue", option="tactics")).state
    s = ok(s, ChooseInitiative(side="red", option="tactics")).state
    out = ok(s, ChooseInitiative(side="green", option="leadership"))
    assert of(out.events, "initiative_won")[0].ranking == ["red", "green", "blue"]
    assert out.state.sides["red"].advantage["command"] == 2
    assert out.state.sides["green"].advantage["leadership"] == 1
    assert out.state.sides["blue"].advantage == {"command": 0, "leadership": 0, "deception": 0, "personal": 0}


def test_initiative_winner_chooses_its_place_in_the_turn_order():
    st = make_state(TWO, forced=[10, 1])
    s = choose(st).state
    assert s.pending.kind == "turn_place" and s.pending.sides == ("blue",)
    assert "won the initiative" in no(s, ChooseTurnPlace(side="red", position=0))
    assert "does not exist" in no(s, ChooseTurnPlace(side="blue", position=2))
    out = ok(s, ChooseTurnPlace(side="blue", position=1))
    assert [t.side for t in out.state.turn_order] == ["red", "blue"]
    assert out.state.phase == "movement" and out.state.active_side == "red"


def test_deception_is_banked_for_the_next_initiative_roll_while_other_advantage_expires():
    st = make_state(TWO, forced=[10, 1])
    s = choose(st, blue="deception", red="tactics").state
    assert s.sides["blue"].advantage["deception"] == 2
    s = ok(s, ChooseTurnPlace(side="blue", position=0)).state
    # give red some command advantage that must expire at the next initiative phase
    sides = dict(s.sides)
    sides["red"] = sides["red"].model_copy(update={"advantage": {**sides["red"].advantage, "command": 3}})
    s = s.model_copy(update={"sides": sides})
    for side in ("blue", "blue", "red", "red"):
        s = ok(s, EndPhase(side=side)).state
    assert s.phase == "initiative" and s.round == 2
    assert s.sides["red"].advantage["command"] == 0
    assert s.sides["blue"].advantage["deception"] == 2
    s = s.model_copy(update={"forced_rolls": (1, 1)})
    out = choose(s)
    blue_roll = of(out.events, "roll_made")[0]
    assert ("Deception Advantage", 2) in blue_roll.modifiers and blue_roll.total == 3 + 2 + 1 + 2
    assert out.state.sides["blue"].advantage == {"command": 1, "leadership": 0, "deception": 0, "personal": 0}


def test_personal_initiative_gives_the_commanders_unit_its_own_slot_and_troops_go_last():
    units = [*TWO, ("r2", "rifle_section", "blue", (1, 3))]
    st = make_state(units, forced=[10, 1], commanders={"blue": commander(unit="r2")})
    out = choose(st, blue="personal", blue_kw={"personal_stat": "senses"})
    roll = of(out.events, "roll_made")[0]
    assert (roll.stat_name, roll.skill_name) == ("senses", "awareness")
    s = out.state
    assert s.sides["blue"].advantage["personal"] == 2
    s = ok(s, ChooseTurnPlace(side="blue", position=0)).state
    assert s.turn_order == (TurnSlot(side="blue", unit_id="r2"), TurnSlot(side="red"), TurnSlot(side="blue"))
    assert "Personal initiative slot" in no(s, Move(unit_id="r1", path=(at(2, 1),)))
    ok(s, Move(unit_id="r2", path=(at(2, 3),)))


def test_personal_initiative_needs_the_commander_on_the_map():
    st = make_state(TWO)
    reason = no(st, ChooseInitiative(side="blue", option="personal", personal_stat="physique"))
    assert "commander is not attached" in reason


def test_turns_run_movement_then_attack_then_the_next_side_then_a_new_round():
    st = make_state(TWO, phase="movement", active="blue")
    out = ok(st, EndPhase(side="blue"))
    assert (out.state.phase, out.state.active_side) == ("attack", "blue")
    out = ok(out.state, EndPhase(side="blue"))
    assert (out.state.phase, out.state.active_side) == ("movement", "red")
    out = ok(out.state, EndPhase(side="red"))
    out = ok(out.state, EndPhase(side="red"))
    assert "round_ended" in kinds(out.events)
    assert (out.state.round, out.state.phase, out.state.pending.kind) == (2, "initiative", "initiative_choice")


def test_end_phase_by_the_side_not_playing_is_rejected():
    st = make_state(TWO, phase="movement", active="blue")
    assert "blue's turn" in no(st, EndPhase(side="red")).lower()


def test_commands_in_the_wrong_phase_are_rejected():
    st = make_state(TWO, phase="attack", active="blue")
    assert "Attack phase, not the Movement phase" in no(st, Move(unit_id="r1", path=(at(2, 1),)))
    st = make_state(TWO)
    assert "waiting for initiative" in no(st, Move(unit_id="r1", path=(at(2, 1),)))
    st = make_state(TWO, phase="movement", active="red")
    assert "it is Red's turn" in no(st, Move(unit_id="r1", path=(at(2, 1),)))


def test_leadership_points_are_handed_to_a_unit_and_two_pay_for_a_dash():
    st = make_state(TWO, phase="movement", active="blue")
    sides = dict(st.sides)
    sides["blue"] = sides["blue"].model_copy(update={"advantage": {**sides["blue"].advantage, "leadership": 2}})
    st = edit_unit(st.model_copy(update={"sides": sides}), "r1", adrenaline=0)
    assert "has 2 Leadership" in no(st, AssignLeadership(side="blue", unit_id="r1", points=3))
    s = ok(st, AssignLeadership(side="blue", unit_id="r1", points=2)).state
    assert s.units["r1"].leadership == 2 and s.sides["blue"].advantage["leadership"] == 0
    out = ok(s, Dash(unit_id="r1", path=(at(2, 1),)))
    assert out.state.units["r1"].leadership == 0
    assert of(out.events, "advantage_spent")[0].on == "a dash"


def test_pinned_and_out_of_action_markers_clear_at_the_end_of_the_units_next_turn():
    st = make_state(TWO, phase="movement", active="red")
    st = edit_unit(st, "r1", pinned="next_turn", out_of_action="next_turn")
    s = ok(st, EndPhase(side="red")).state
    s = ok(s, EndPhase(side="red")).state  # blue's turn starts: the markers now cost this turn
    assert s.units["r1"].pinned == "this_turn" and s.units["r1"].out_of_action == "this_turn"
    assert "out of action" in no(s, Move(unit_id="r1", path=(at(2, 1),)))
    s = ok(s, EndPhase(side="blue")).state
    out = ok(s, EndPhase(side="blue"))
    assert {e.marker for e in of(out.events, "marker_removed")} == {"pinned", "out_of_action"}
    assert out.state.units["r1"].pinned is None and out.state.units["r1"].out_of_action is None


def test_stances_last_until_the_start_of_the_sides_next_turn():
    st = make_state(TWO, phase="movement", active="red")
    st = edit_unit(st, "r1", stance="overwatch", stance_weapon="bolt rifles")
    s = ok(st, EndPhase(side="red")).state
    assert s.units["r1"].stance == "overwatch"
    out = ok(s, EndPhase(side="red"))
    assert out.state.units["r1"].stance == "none"
    assert of(out.events, "stance_changed")[0].reason == "its side's turn begins"


def test_a_side_with_no_units_left_sits_out_the_initiative_phase():
    units = [*TWO, ("k1", "battlemage_knight", "green", (5, 6))]
    st = make_state(units, sides=("blue", "red", "green"), phase="movement")
    st = edit_unit(st, "k1", destroyed=True)
    order = (TurnSlot(side="blue"), TurnSlot(side="red"), TurnSlot(side="green"))
    st = st.model_copy(update={"turn_order": order, "forced_rolls": (9, 2)})
    for side in ("blue", "blue", "red", "red"):
        st = ok(st, EndPhase(side=side)).state
    assert st.phase == "initiative" and st.pending.sides == ("blue", "red")
    out = choose(st)
    assert [e.side for e in of(out.events, "initiative_rolled")] == ["blue", "red"]
    assert out.state.sides["blue"].advantage["command"] == 2  # two sides rolled: 1 + 1 per full 5
