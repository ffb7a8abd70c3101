"""Attack rules gaps of issue 12, driven through `apply` and the queries: what "braced" means for an
overwatch shot in the enemy's turn; casualty lines that say the casualty roll did it; a 0 % attack
flagged before it is made."""

from __future__ import annotations

from game.core.board import Board
from game.systems.tactical.rules import (
    Attack,
    ChooseInitiative,
    ChooseTurnPlace,
    Dash,
    EndPhase,
    EnterStance,
    GameState,
    Move,
    Rejection,
    attack_preview,
    overwatch_exposure,
)
from game.systems.tactical.rules.events import event_text

from .ailfix import at, make_state, of, ok

WIDE = Board.filled(20, 6)


def _watchers_set_up(forced: list[int]) -> GameState:
    """Round 1, Blue first: w1 moves one hex then goes on overwatch; w2 holds its ground and goes
    on overwatch; now Red's Movement phase. Red's r1 stands 10 hexes from both."""
    st = make_state([("w1", "rifle_section", "blue", (12, 1)), ("w2", "rifle_section", "blue", (12, 3)),
                     ("r1", "rifle_section", "red", (2, 2))], board=WIDE, phase="movement", forced=forced)
    st = ok(st, Move(unit_id="w1", path=(at(13, 1, WIDE),))).state
    st = ok(st, EndPhase(side="blue")).state
    st = ok(st, EnterStance(unit_id="w1", stance="overwatch", weapon="bolt rifles")).state
    st = ok(st, EnterStance(unit_id="w2", stance="overwatch", weapon="bolt rifles")).state
    st = ok(st, EndPhase(side="blue")).state
    assert st.phase == "movement" and st.active_side == "red"
    return st


def _shots(events: tuple) -> dict[str, list[tuple[str, int]]]:
    return {e.unit_id: e.modifiers for e in of(events, "roll_made") if e.label.startswith("overwatch")}


def test_an_overwatch_shot_in_the_enemys_turn_is_braced_only_if_the_watcher_did_not_move_in_its_own_turn():
    st = _watchers_set_up(forced=[1, 1])  # both shots miss (long range): no other die
    path = (at(3, 2, WIDE), at(4, 2, WIDE))
    exposure = overwatch_exposure(st, "r1", path, "dash")
    assert {e.watcher_id for e in exposure} == {"w1", "w2"}
    out = ok(st, Dash(unit_id="r1", path=path))
    shots = _shots(out.events)
    assert ("braced", 2) in shots["w2"], "w2 held its ground in its own turn"
    assert ("braced", 2) not in shots["w1"], "w1 moved in its own turn before taking overwatch"
    assert ("overwatch snap shot", -2) in shots["w1"] and ("overwatch snap shot", -2) in shots["w2"]
    # the preview's exact odds count the same edge: the braced watcher is the likelier to hit
    by = {e.watcher_id: e.odds.hit_chance for e in exposure}
    assert by["w2"] > by["w1"]


def test_a_watchers_movement_still_counts_when_its_shot_falls_in_the_next_round_before_its_own_turn():
    st = _watchers_set_up(forced=[1, 10, 1, 1])  # round 2 initiative: Blue 1, Red 10; then two misses
    st = ok(st, EndPhase(side="red")).state
    st = ok(st, EndPhase(side="red")).state
    st = ok(st, ChooseInitiative(side="blue", option="tactics")).state
    st = ok(st, ChooseInitiative(side="red", option="tactics")).state
    st = ok(st, ChooseTurnPlace(side="red", position=0)).state
    assert st.round == 2 and st.active_side == "red" and st.units["w1"].stance == "overwatch"
    out = ok(st, Dash(unit_id="r1", path=(at(3, 2, WIDE), at(4, 2, WIDE))))
    shots = _shots(out.events)
    assert ("braced", 2) not in shots["w1"] and ("braced", 2) in shots["w2"]


# ----------------------------------------------------------------------------- casualty lines

def _fight(strength: int, forced: list[int]):
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (2, 1), strength),
                     ("m2", "militia_band", "red", (8, 6))],
                    phase="attack", forced=forced, rule_changes={"defensive_action_prompt": "never"})
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    return [event_text(e) for e in out.events], out


def test_a_unit_annihilated_with_strength_left_is_said_to_be_annihilated_by_its_casualty_roll():
    # hit 10 (3 hits), damage 10 / 1 / 1, casualty 1: 1 - 1 morale + 1 left - 1 (FP 3 over DUR 2) = 0
    lines, out = _fight(2, [10, 10, 1, 1, 1])
    assert "m1 loses 1 strength (1 left)" in lines
    assert "m1 is annihilated by its casualty roll (total 0), though 1 strength was left" in lines
    gone = of(out.events, "unit_destroyed")[0]
    assert (gone.cause, gone.casualty_total, gone.strength_left) == ("casualty_roll", 0, 1)


def test_a_unit_losing_its_last_strength_is_said_to_have_none_left():
    lines, out = _fight(1, [10, 10, 1, 1, 10])  # casualty 10 - 1 + 0 - 1 = 8: steady, but 0 strength
    assert "m1 is destroyed: no strength left" in lines
    assert of(out.events, "unit_destroyed")[0].cause == "no_strength"


def test_a_pinned_or_out_of_action_marker_says_the_casualty_roll_put_it_there():
    lines, _ = _fight(8, [10, 10, 1, 1, 1])  # 1 - 1 + 7 - 1 = 6: pinned
    assert "m1 is pinned by its casualty roll (total 6)" in lines


# ----------------------------------------------------------------------------- 0 % to hit

def test_an_attack_with_no_chance_to_hit_is_flagged_by_the_preview_and_still_allowed():
    board = Board.filled(20, 6, overrides={(14, 1): "bunker"})
    st = make_state([("r1", "rifle_section", "blue", (1, 1)), ("m1", "militia_band", "red", (14, 1)),
                     ("m2", "militia_band", "red", (3, 1))], board=board, phase="attack",
                    rule_changes={"defensive_action_prompt": "never"})
    p = attack_preview(st, "r1", "m1", "bolt rifles")
    assert not isinstance(p, Rejection)
    assert p.odds.hit_chance == 0 and p.hopeless
    assert p.no_chance == ("no chance to hit (0 %): the best possible roll is 17 (senses 3, firearms 2, "
                           f"d10 at most 10, braced +2) against AC {p.ac.total}")
    near = attack_preview(st, "r1", "m2", "bolt rifles")
    assert not isinstance(near, Rejection) and near.no_chance is None and not near.hopeless
    out = ok(st, Attack(attacker_id="r1", target_id="m1", weapon="bolt rifles"))
    assert of(out.events, "attack_resolved")[0].result == "no_hit"
