"""The readings settled after the first audit (design page operational-rules.md §7, issue 33):
one test per rule, each through the same `verdict` / `build_pool` / `apply` the game uses."""

from __future__ import annotations

from typing import Any

from game.core.roller import Roller
from game.core.system import initial_state_for
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules import battle as battle_mod
from game.systems.campaign.rules.combat import Play, build_pool, orders_refusal, verdict
from game.systems.campaign.rules.commands import GmBattleDice, GmEditUnit, MoveArmy
from game.systems.campaign.rules.models import CURRENT_READINGS
from game.systems.campaign.rules.planner import cell, plan
from game.systems.campaign.rules.report import week_report
from game.systems.campaign.rules.state import CampaignState, with_readings
from tests.rules.campaign.campfix import facts, fight, kinds, must, plays, refused, rules, to_orders, utype


def two(am: str, bm: str, astr: tuple[str, ...] = (), bstr: tuple[str, ...] = (), alevel: int = 0,
        blevel: int = 0) -> tuple[Play, Play]:
    a = facts("red", [("a1", utype()), ("a2", utype(line=False))], level=alevel)
    b = facts("blue", [("b1", utype()), ("b2", utype(line=False))], level=blevel)
    return plays(a, am, b, bm, astr, bstr)


# §7.1 ------------------------------------------------------------------------------------------

def _one_week(red: dict[str, Any], blue: dict[str, Any]) -> tuple[CampaignState, tuple[Any, ...]]:
    s = to_orders(["zone_rifle_division"] * 3, ["zone_rifle_division"] * 3)
    s, ev = fight(s, red, blue)
    assert s.week == 2 and s.phase == "movement" and not s.battles["B1"].over
    return s, ev


def test_skirmish_does_not_lock_the_armies_may_move_out_next_week_and_the_battle_ends_for_them() -> None:
    s, _ = _one_week({"manoeuvre": "skirmish", "vanguard": "r.1"}, {"manoeuvre": "skirmish", "vanguard": "b.1"})
    assert s.battles["B1"].loose_week == 2
    s, ev = must(s, MoveArmy(army="r", path=((4, 5),)))
    assert kinds(ev, "army_left")[0].army == "r"
    assert s.armies["r"].battle is None and s.armies["b"].battle is None
    assert s.battles["B1"].over and kinds(ev, "battle_ended")


def test_a_battle_not_read_as_skirmish_still_holds_its_armies() -> None:
    s, _ = _one_week({"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "attack", "vanguard": "b.1"})
    assert s.battles["B1"].loose_week == 0
    assert "held in a battle" in refused(s, MoveArmy(army="r", path=((4, 5),)))


# §7.2 ------------------------------------------------------------------------------------------

def test_a_withdraw_always_gets_away_against_defend_whatever_the_band() -> None:
    pa, pb = two("withdraw", "defend")
    for blue_successes in (3, 6, 12):  # shifted down by the matchup: minor, major, crushing
        v = verdict(rules(), pa, pb, 0, blue_successes)
        assert v.winner == "blue" and v.taken["red"].move == "arc", blue_successes
    assert verdict(rules(), pa, pb, 0, 1).taken["red"].move == "route"  # a draw: the draw table's cell
    v = verdict(rules(), pa, pb, 0, 9)
    assert v.taken["red"].hi > 0  # the Defend side still inflicts its casualties
    pa, pb = two("withdraw", "attack")
    assert verdict(rules(), pa, pb, 0, 4).taken["red"].move == "fail"  # Attack at major+: still fails


# §7.3 ------------------------------------------------------------------------------------------

def test_large_damage_is_cleared_when_the_battle_ends_for_an_army_that_withdrew() -> None:
    big = utype("Big", mobility=9, large=5)
    s = to_orders(["big", "zone_rifle_division"], ["zone_rifle_division"], extra_types={"big": big},
                  forced=[10] * 9 + [1] * 40)
    s, _ = must(s, GmEditUnit(unit="r.1", large_damage=2))
    s, ev = fight(s, {"manoeuvre": "withdraw", "vanguard": "r.1"}, {"manoeuvre": "defend", "vanguard": "b.1"})
    assert kinds(ev, "result_read")[0].winner == "red"
    assert s.armies["r"].battle is None and s.armies["r"].hex != (5, 5)  # it got away
    assert s.units["r.1"].large_damage == 0


# §7.4 ------------------------------------------------------------------------------------------

def test_harassing_fire_lets_a_long_range_unit_be_the_line() -> None:
    gun = utype("Gun", defense=3, line=False, traits=["long_range", "observer"])
    side = facts("red", [("f", utype("Foot")), ("g", gun)])
    assert orders_refusal(rules(), side, "defend", ("harassing_fire",), "g") is None
    assert "line unit" in (orders_refusal(rules(), side, "defend", (), "g") or "")


# §7.5 ------------------------------------------------------------------------------------------

def test_legendary_is_capped_before_the_matchup_shift() -> None:
    pa, pb = two("attack", "defend", alevel=2)  # Defend beats Attack: the winner shifts down
    v = verdict(rules(), pa, pb, 10, 0)
    assert v.band == 2  # 10+ -> crushing (no level-3 General) -> major
    pa, pb = two("attack", "defend", alevel=3)
    assert verdict(rules(), pa, pb, 10, 0).band == 3  # legendary -> crushing
    pa, pb = two("shock_attack", "block", alevel=2)  # Shock beats Block: up, but not to legendary
    assert verdict(rules(), pa, pb, 6, 0).band == 3


def test_the_planner_follows_legendary_capped_before_the_shift() -> None:
    strong = facts("red", [("v", utype(attack=10))] + [(f"r{i}", utype(attack=10)) for i in range(20)], level=2)
    weak = facts("blue", [("x", utype(defense=1))])
    c = cell(rules(), strong, "attack", (), "v", weak, "defend", (), "x", True)
    assert c.chances["win legendary"] == 0.0 and c.chances["win crushing"] == 0.0
    assert c.chances["win major"] > 0.5


# §7.6 ------------------------------------------------------------------------------------------

def test_a_rout_against_hold_the_line_takes_no_casualty_and_stays() -> None:
    pa, pb = two("shock_attack", "defend", bstr=("hold_the_line",), blevel=1)
    t = verdict(rules(), pa, pb, 6, 0).taken["blue"]
    assert t.move == "hold" and not t.rout


# §7.8 ------------------------------------------------------------------------------------------

def test_last_stand_scouts_add_their_mobility_to_the_rearguard() -> None:
    scout = utype("Scout", defense=1, mobility=6, line=False, traits=["scout"])
    a = facts("red", [("rear", utype(defense=5, mobility=1)), ("s", scout)], level=1)
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "withdraw", b, "attack", astr=["last_stand"])
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert pool.stat == "defense" and pool.reinforcement_total == 6 and "s" in pool.main_line


# §7.9 ------------------------------------------------------------------------------------------

def test_a_winning_withdraw_inflicts_nothing_except_against_shock_attack() -> None:
    for other in ("withdraw", "defend", "block", "skirmish", "attack"):
        pa, pb = two("withdraw", other)
        t = verdict(rules(), pa, pb, 9, 0).taken["blue"]
        assert (t.lo, t.hi) == (0, 0), other
    pa, pb = two("withdraw", "shock_attack")
    t = verdict(rules(), pa, pb, 1, 0).taken["blue"]
    assert (t.lo, t.hi) == (1, 3)  # its draw-table cell 0-1 scaled at minor


# §7.10 -----------------------------------------------------------------------------------------

def test_a_winning_defends_mitigation_acts_at_any_band() -> None:
    for margin in (1, 3, 6):
        for other in ("attack", "skirmish"):
            pa, pb = two(other, "defend")
            t = verdict(rules(), pa, pb, 0, margin).taken["blue"]
            lo, hi = rules().draw_table[other]["defend"].casualties or (0, 0)
            assert (t.lo, t.hi, t.mitigation) == (lo, hi, margin), (other, margin)
    pa, pb = two("attack", "defend")
    v = verdict(rules(), pa, pb, 0, 1)
    assert v.taken["blue"].hi == 1 and v.taken["blue"].mitigation == 1  # 0-1 less 1: nothing taken


# §7.12 -----------------------------------------------------------------------------------------

def test_a_gm_command_adds_or_removes_a_battles_dice_with_a_reason_shown_in_pool_and_planner() -> None:
    s = to_orders(["zone_rifle_division"] * 2, ["zone_rifle_division"])
    before = plan(s, "B1", "red").at("attack", "attack").my_dice
    assert "Say why" in refused(s, GmBattleDice(battle="B1", player="red", dice=2, reason=" "))
    assert "not a side" in refused(s, GmBattleDice(battle="B1", player="green", dice=2, reason="x"))
    s, ev = must(s, GmBattleDice(battle="B1", player="red", dice=2, reason="the Saint's blessing"))
    assert "the Saint's blessing" in kinds(ev, "gm_did")[0].what
    p = plan(s, "B1", "red")
    assert p.at("attack", "attack").my_dice == before + 2 and any("the Saint's blessing" in n for n in p.notes)
    s2, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "attack", "vanguard": "b.1"})
    pool = next(p for p in kinds(ev, "pool_built") if p.player == "red")
    assert ("GM: the Saint's blessing", 2) in [tuple(x) for x in pool.parts] and pool.dice == before + 2
    assert "GM: the Saint's blessing" in week_report(s, ev, s.week, after=s2)  # and in the week's report
    s3, _ = must(s, GmBattleDice(battle="B1", player="red", dice=-1, reason="cursed"))
    assert plan(s3, "B1", "red").at("attack", "attack").my_dice == before - 1
    s4, _ = must(s3, GmBattleDice(battle="B1", player="red", dice=0, reason=""))
    assert s4.battles["B1"].gm_dice == {} and "gm_dice" not in SYSTEM.state_to_data(s4)["battles"]["B1"]


# §7.11 -----------------------------------------------------------------------------------------

def _breakthrough(extra: list[tuple[str, str, tuple[int, int], list[str], tuple[int, int] | None]]
                  ) -> tuple[CampaignState, tuple[Any, ...]]:
    fast = utype("Fast", attack=2, mobility=3)
    s = to_orders(["fast"], ["zone_rifle_division"], red_general=1, extra_types={"fast": fast},
                  extra_armies=extra, forced=[10, 10] + [1] * 40)
    return fight(s, {"manoeuvre": "attack", "vanguard": "r.1", "stratagems": ("breakthrough",),
                     "breakthrough_to": (4, 5)},
                 {"manoeuvre": "shock_attack", "vanguard": "b.1"})


def test_breakthrough_moves_on_with_the_remaining_movement_points() -> None:
    s, ev = _breakthrough([])
    r = kinds(ev, "result_read")[0]
    assert r.winner == "red" and r.band >= 2
    moved = [e for e in kinds(ev, "army_moved") if e.army == "r"]
    # Mobility 3 + 1 = 4 points, none spent this week: four plains hexes in a straight hex line
    assert moved and moved[0].reason == "breakthrough" and moved[0].path == ((4, 5), (3, 4), (2, 4), (1, 3))
    assert s.armies["r"].hex == (1, 3) and s.armies["r"].battle is None


def test_breakthrough_stops_at_the_next_enemy() -> None:
    s, ev = _breakthrough([("g", "blue", (2, 4), ["zone_rifle_division"], None)])
    moved = [e for e in kinds(ev, "army_moved") if e.army == "r"]
    assert moved[0].path == ((4, 5), (3, 4), (2, 4))


def test_breakthrough_counts_the_points_already_spent_this_week() -> None:
    fast = utype("Fast", attack=2, mobility=3)
    s = to_orders(["fast"], ["zone_rifle_division"], extra_types={"fast": fast})
    w = battle_mod.Work(s, Roller(s.rng))
    army = s.armies["r"]
    assert len(battle_mod.breakthrough_path(s, w, army, (4, 5))) == 4
    assert battle_mod.breakthrough_path(s, w, army.model_copy(update={"spent": 2}), (4, 5)) == [(4, 5), (3, 4)]
    assert battle_mod.breakthrough_path(s, w, army.model_copy(update={"spent": 4}), (4, 5)) == [(4, 5)]


# a game keeps the readings it began with ---------------------------------------------------------

def test_a_game_saved_before_these_readings_replays_under_the_first_ones() -> None:
    s = to_orders(["zone_rifle_division"] * 3, ["zone_rifle_division"] * 3)
    assert s.readings == CURRENT_READINGS and s.cs.rules.readings == CURRENT_READINGS
    old_data = SYSTEM.state_to_data(s)
    del old_data["readings"]  # what a save made before the field existed holds
    old = SYSTEM.state_from_data(old_data, s.cs)
    assert old.readings == 1 and old.cs.rules.readings == 1
    start = initial_state_for(SYSTEM, s.cs, 1, old)
    assert start.readings == 1 and start.cs.rules.readings == 1
    assert initial_state_for(SYSTEM, s.cs, 1, s).readings == CURRENT_READINGS
    # and the round trip of a current game keeps the current readings
    assert SYSTEM.state_from_data(SYSTEM.state_to_data(s), s.cs).readings == CURRENT_READINGS


def test_the_first_readings_still_decide_a_game_that_began_under_them() -> None:
    first = rules().model_copy(update={"readings": 1})
    a = facts("red", [("a1", utype()), ("a2", utype(line=False))])
    b = facts("blue", [("b1", utype()), ("b2", utype(line=False))], level=1)
    pa, pb = plays(a, "withdraw", b, "defend")
    assert verdict(first, pa, pb, 0, 6).taken["red"].move == "fail"  # §7.2 not yet
    pa, pb = plays(a, "shock_attack", b, "defend", bstr=("hold_the_line",))
    assert verdict(first, pa, pb, 6, 0).taken["blue"].rout  # §7.6 not yet
    pa, pb = plays(a, "withdraw", b, "attack")
    t = verdict(first, pa, pb, 9, 0).taken["blue"]
    assert (t.lo, t.hi) != (0, 0)  # §7.9 not yet: the first tables' Withdraw row
    s = to_orders(["zone_rifle_division"] * 3, ["zone_rifle_division"] * 3)
    s1 = SYSTEM.initial_state(with_readings(s.cs, 1), 1)
    assert s1.readings == 1
