"""Movement rules gaps of issue 12, driven through `apply` and the queries: a charge moves at least
one hex; difficult terrain started in or entered bars the dash (and the charge); being stuck is
tied to difficult terrain; the reach says why a hex cannot be reached; a unit that has done
everything is not offered as ready."""

from __future__ import annotations

import random

from game.core.board import Board
from game.core.hexgrid import distance
from game.systems.tactical.rules import (
    Accepted,
    Charge,
    ChooseInitiative,
    ChooseTurnPlace,
    Dash,
    EndPhase,
    Move,
    Rejection,
    SpecialMove,
    StuckStep,
    apply,
    dash_reach,
    legal_commands,
    move_reach,
    move_reach_keeping_dash,
    state_after_move,
    units_that_can_act,
    unreachable_reason,
    why_unit_cannot_act,
)

from .ailfix import RULES, at, edit_unit, make_state, no, ok

# ----------------------------------------------------------------------------- 1. charge

ADJACENT = [("m1", "militia_band", "red", (3, 1)), ("r1", "rifle_section", "blue", (4, 1))]


def test_a_charge_that_does_not_move_is_refused_because_a_charge_moves_at_least_one_hex():
    st = make_state(ADJACENT, phase="movement", active="red")
    assert distance(st.units["m1"].hex, st.units["r1"].hex) == 1
    for path in ((), (at(3, 1),)):  # nothing, or only the hex it stands on
        reason = no(st, Charge(unit_id="m1", path=path, target_id="r1", weapon="spears"))
        assert "a charge is a dash that ends in close combat, so it moves at least one hex" in reason
        assert "already next to Rifle Section 1" in reason and "Attack phase" in reason
    charges = [c for c in legal_commands(st) if isinstance(c, Charge)]
    assert charges, "charges that move a hex and stay next to the target are still offered"
    assert all(c.path for c in charges)
    out = ok(st, charges[0])
    assert out.state.units["m1"].hex != st.units["m1"].hex and out.state.units["m1"].action_used


def test_legal_commands_never_list_a_charge_with_an_empty_path_in_random_play():
    st = make_state([("m1", "militia_band", "red", (2, 2)), ("m2", "militia_band", "red", (3, 3)),
                     ("r1", "rifle_section", "blue", (3, 2)), ("r2", "rifle_section", "blue", (5, 4))],
                    phase="movement", active="red", rule_changes={"defensive_action_prompt": "never"})
    rng = random.Random(12)
    seen = 0
    for _ in range(120):
        cmds = legal_commands(st)
        if not cmds:
            break
        charges = [c for c in cmds if isinstance(c, Charge)]
        assert all(c.path for c in charges)
        seen += len(charges)
        out = apply(st, rng.choice(charges or cmds))
        assert isinstance(out, Accepted), out
        st = out.state
    assert seen > 0


# ----------------------------------------------------------------------------- 3. dash out of difficult terrain

SWAMP = Board.filled(10, 8, overrides={(3, 3): "swamp", (4, 3): "swamp", (5, 3): "swamp"})


def test_a_unit_that_starts_its_turn_in_difficult_terrain_cannot_dash_or_charge_and_the_reason_names_it():
    st = make_state([("r1", "rifle_section", "blue", (4, 3)), ("m1", "militia_band", "red", (7, 3))],
                    board=SWAMP, phase="movement")
    reason = no(st, Dash(unit_id="r1", path=(at(4, 2),)))
    assert "difficult terrain (swamp" in reason and "cannot dash" in reason
    assert dash_reach(st, "r1").costs == {}
    assert unreachable_reason(st, "r1", at(4, 2), "dash") == reason
    # it wades out with its move; it still cannot dash this turn
    s = ok(st, Move(unit_id="r1", path=(at(4, 2),))).state
    reason = no(s, Dash(unit_id="r1", path=(at(5, 2),)))
    assert "has been in difficult terrain (swamp) this turn" in reason
    assert dash_reach(s, "r1").costs == {}
    assert not [c for c in legal_commands(s) if isinstance(c, Dash | Charge) and c.unit_id == "r1"]
    assert "r1" not in units_that_can_act(s, "blue")
    assert why_unit_cannot_act(s, "r1") == reason
    # a charge is a dash: barred the same way
    near = edit_unit(s, "m1", hex=at(6, 1))
    assert "difficult terrain (swamp)" in no(near, Charge(unit_id="r1", path=(at(5, 1),), target_id="m1",
                                                         weapon="bayonets"))


def test_a_unit_that_enters_difficult_terrain_on_its_move_cannot_dash_after_it():
    st = make_state([("r1", "rifle_section", "blue", (2, 3))], board=SWAMP, phase="movement")
    through = (at(3, 3), at(3, 2))  # swamp (3) then clear (1): the whole move of 4
    s = ok(st, Move(unit_id="r1", path=through)).state
    assert s.units["r1"].difficult_terrain == "swamp"
    assert "has been in difficult terrain (swamp) this turn" in no(s, Dash(unit_id="r1", path=(at(3, 1),)))
    # the what-if state the client asks for before moving agrees with apply
    after = state_after_move(st, "r1", through)
    assert not isinstance(after, Rejection) and dash_reach(after, "r1").costs == {}
    # a move around the swamp keeps the dash
    s2 = ok(st, Move(unit_id="r1", path=(at(2, 2), at(3, 2)))).state
    ok(s2, Dash(unit_id="r1", path=(at(3, 1),)))


def test_the_next_turn_clears_the_difficult_terrain_a_unit_met():
    st = make_state([("r1", "rifle_section", "blue", (2, 3)), ("m1", "militia_band", "red", (9, 7))],
                    board=SWAMP, phase="movement", forced=[10, 1])
    s = ok(st, Move(unit_id="r1", path=(at(3, 3), at(3, 2)))).state
    for side in ("blue", "blue", "red", "red"):
        s = ok(s, EndPhase(side=side)).state
    s = ok(s, ChooseInitiative(side="blue", option="tactics")).state
    s = ok(s, ChooseInitiative(side="red", option="tactics")).state
    s = ok(s, ChooseTurnPlace(side="blue", position=0)).state
    assert s.phase == "movement" and s.active_side == "blue" and s.units["r1"].difficult_terrain is None
    ok(s, Dash(unit_id="r1", path=(at(3, 1),)))


def test_move_then_dash_queries_agree_with_apply_around_difficult_terrain():
    board = Board.filled(10, 8, overrides={(c, 3): "swamp" for c in range(2, 7)} | {(4, 4): "woods"})
    st = make_state([("r1", "rifle_section", "blue", (4, 5))], board=board, phase="movement")
    keep = move_reach_keeping_dash(st, "r1")
    move = move_reach(st, "r1")
    assert keep.hexes < move.hexes  # some hexes need the swamp
    swampy = [h for h in move.costs if h not in keep.costs]
    assert all(any(board.terrain[p] == "swamp" for p in move.path_to(h)) for h in swampy)
    for m in sorted(keep.costs)[::3]:
        path = tuple(keep.path_to(m))
        assert all(board.terrain[p] != "swamp" for p in path)
        after = state_after_move(st, "r1", path)
        assert not isinstance(after, Rejection)
        moved = ok(st, Move(unit_id="r1", path=path)).state
        dash = dash_reach(after, "r1")
        assert dash.costs == dash_reach(moved, "r1").costs
        for h in sorted(dash.costs)[::4]:
            ok(moved, Dash(unit_id="r1", path=tuple(dash.path_to(h))))
    for h in swampy:
        moved = ok(st, Move(unit_id="r1", path=tuple(move.path_to(h)))).state
        assert dash_reach(moved, "r1").costs == {}
        assert dash_reach(state_after_move(st, "r1", move.path_to(h)), "r1").costs == {}  # type: ignore[arg-type]


def test_a_special_move_from_difficult_terrain_is_still_allowed():
    st = make_state([("k1", "battlemage_knight", "blue", (4, 3))], board=SWAMP, phase="movement")
    assert dash_reach(st, "k1").costs == {}
    ok(st, SpecialMove(unit_id="k1", to=at(4, 1)))


# ----------------------------------------------------------------------------- 4. stuck

WALLED = Board.filled(10, 8, terrain="bunker", overrides={(4, 4): "clear"})
MIRE = Board.filled(10, 8, terrain="swamp", overrides={(4, 4): "clear", (5, 4): "bunker"})


def test_a_unit_walled_in_by_costly_terrain_that_is_not_difficult_is_not_stuck():
    st = make_state([("g1", "field_gun", "blue", (4, 4))], board=WALLED, phase="movement")
    assert move_reach(st, "g1").costs == {}  # bunkers cost 3, the gun moves 2
    reason = no(st, StuckStep(unit_id="g1", to=at(5, 4), pay="attack"))
    assert "not stuck in difficult terrain" in reason
    assert not [c for c in legal_commands(st) if isinstance(c, StuckStep)]


def test_a_stuck_unit_steps_only_into_the_difficult_terrain_that_holds_it():
    st = make_state([("g1", "field_gun", "blue", (4, 4))], board=MIRE, phase="movement")
    reason = no(st, StuckStep(unit_id="g1", to=at(5, 4), pay="attack"))
    assert "only into the difficult terrain" in reason and "bunker" in reason
    steps = [c for c in legal_commands(st) if isinstance(c, StuckStep)]
    assert steps and all(MIRE.terrain[c.to] == "swamp" for c in steps)
    out = ok(st, steps[0])
    assert out.state.units["g1"].hex == steps[0].to and out.state.units["g1"].action_used


# ----------------------------------------------------------------------------- 5. ready units

def test_a_unit_that_charged_is_not_offered_as_ready_in_the_movement_or_attack_phase():
    st = make_state([("m1", "militia_band", "red", (1, 1)), ("m2", "militia_band", "red", (1, 5)),
                     ("r1", "rifle_section", "blue", (5, 1))], phase="movement", active="red", forced=[1, 1],
                    rule_changes={"defensive_action_prompt": "never"})
    s = ok(st, Charge(unit_id="m1", path=(at(2, 1), at(3, 1), at(4, 1)), target_id="r1", weapon="spears")).state
    assert units_that_can_act(s, "red") == ["m2"]
    assert "has taken its second move" in (why_unit_cannot_act(s, "m1") or "")
    assert not [c for c in legal_commands(s) if getattr(c, "unit_id", None) == "m1"
                and c.kind not in ("assign_leadership", "set_casualty_advantage")]
    s = ok(s, EndPhase(side="red")).state
    assert s.phase == "attack" and units_that_can_act(s, "red") == ["m2"]
    assert why_unit_cannot_act(s, "m1") == "Militia Band 1 has already used its action this turn"
    assert not [c for c in legal_commands(s) if getattr(c, "unit_id", getattr(c, "attacker_id", None)) == "m1"
                and c.kind in ("attack", "enter_stance")]
    assert why_unit_cannot_act(s, "m2") is None


def test_a_unit_that_moved_and_cannot_pay_for_a_dash_is_not_offered_as_ready():
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (1, 4))],
                    phase="movement")
    st = edit_unit(st, "r1", adrenaline=0)
    s = ok(st, Move(unit_id="r1", path=(at(2, 1),))).state
    s = ok(s, Move(unit_id="r2", path=(at(2, 4),))).state
    assert units_that_can_act(s, "blue") == ["r2"]  # r2 may still dash


def test_units_that_can_act_are_exactly_the_units_with_a_legal_command_in_random_play():
    st = make_state([("m1", "militia_band", "red", (2, 2)), ("k1", "battlemage_knight", "red", (1, 5)),
                     ("r1", "rifle_section", "blue", (4, 2)), ("g1", "field_gun", "blue", (6, 5))],
                    board=SWAMP, phase="movement", active="red")
    rng = random.Random(3)
    for _ in range(150):
        if st.phase == "ended":
            break
        cmds = legal_commands(st)
        if st.pending is None and st.phase in ("movement", "attack"):
            side = st.active_side
            assert side is not None
            acting = {getattr(c, "unit_id", None) or getattr(c, "attacker_id", None) for c in cmds
                      if c.kind not in ("assign_leadership", "set_casualty_advantage", "end_phase")}
            assert set(units_that_can_act(st, side)) == acting - {None}
        out = apply(st, rng.choice(cmds))
        assert isinstance(out, Accepted), out
        st = out.state


# ----------------------------------------------------------------------------- 7. why a hex is out of reach

def test_a_move_into_water_is_refused_as_impassable_and_the_reach_says_why_each_hex_is_out():
    board = Board.filled(12, 8, overrides={(2, 1): "water", (6, 3): "swamp"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("r2", "rifle_section", "blue", (1, 2)),
                     ("m1", "militia_band", "red", (1, 4)), ("h1", "hover_skiff", "blue", (0, 6))],
                    board=board, phase="movement")
    reason = no(st, Move(unit_id="r1", path=(at(2, 1),)))
    assert "water is impassable" in reason
    assert unreachable_reason(st, "r1", at(2, 1)) == ("impassable: water at hex 2,1 (only hover units cross it); "
                                                      "Rifle Section 1 cannot enter it")
    assert unreachable_reason(st, "h1", at(2, 1)) is None  # the hover skiff crosses water
    assert unreachable_reason(st, "r1", at(1, 2)) == "occupied: Rifle Section 2 is on hex 1,2"
    assert unreachable_reason(st, "r1", at(1, 4)) == "occupied: enemy Militia Band 1 is on hex 1,4"
    assert unreachable_reason(st, "r1", at(1, 1)) == "Rifle Section 1 is already on hex 1,1"
    far = unreachable_reason(st, "r1", at(9, 1))
    assert far is not None and far.startswith("too far: hex 9,1 costs 9 movement points")  # round the water and "gives Rifle Section 1 4" in far
    assert unreachable_reason(st, "r1", at(6, 3), "dash") == "a dash may not enter difficult terrain: hex 6,3 is swamp"
    assert unreachable_reason(st, "r1", at(99, 99)) == "hex 99,99 is off the map"
    # every hex of the board: None exactly for the reach, a sentence for every other
    for mode, fn in (("move", move_reach), ("dash", dash_reach)):
        reach = fn(st, "r1")
        for h in board.terrain:
            why = unreachable_reason(st, "r1", h, mode)  # type: ignore[arg-type]
            assert (why is None) == (h in reach.costs), (h, why)


def test_a_hex_closed_off_by_enemies_is_reported_as_no_way_through():
    board = Board.filled(10, 8, overrides={h: "cliff" for h in [(3, 0), (3, 1), (3, 2), (3, 4), (3, 5), (3, 6), (3, 7)]})
    st = make_state([("r1", "rifle_section", "blue", (1, 3)), ("m1", "militia_band", "red", (3, 3))],
                    board=board, phase="movement")
    why = unreachable_reason(st, "r1", at(5, 3))
    assert why is not None and why.startswith("no way through to hex 5,3")
    assert "impassable" in no(st, Move(unit_id="r1", path=(at(2, 3), at(3, 2))))
    assert RULES.terrain["cliff"].impassable
