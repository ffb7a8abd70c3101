"""Waves, Phases, Battle Actions, casualties and the end (docs/mass-battle.md §4–§6)."""

from __future__ import annotations

from game.systems.mass.rules import commands as c
from game.systems.mass.rules.commands import Rolled
from game.systems.mass.rules.engine import dead_at
from game.systems.mass.rules.pools import level_name, wound_rolls
from game.systems.mass.rules.system import SYSTEM
from tests.rules.mass.massfix import force, force_dice, ok, person, refused, setup, start, texts, to_phases

A = c.BattleAction


def _phases(terrain: str = "constricted", red: list[int] | None = None, blue: list[int] | None = None,
            **kw: object) -> object:
    s = start(setup(terrain=terrain))
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # red wins Strategy
    return to_phases(s, {"red": red or [1, 2, 3], "blue": blue or [1, 2, 3]})


def _end_phases(s):  # type: ignore[no-untyped-def]
    while s.stage == "phases":
        s, _ = ok(s, c.Hold(force=SYSTEM.to_move(s)[0]))
    return s


def test_action_dice_are_water_d10s_that_do_not_explode() -> None:
    s = start()
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s, _ = ok(s, c.RollWay(force="red", way="strategy"))
    s = force_dice(s, 10, 4, 2, 7, 7, 1)
    s, ev = ok(s, c.RollActionDice(force="red"))
    assert s.forces["red"].dice == [2, 4, 10] and s.forces["blue"].dice == [1, 7, 7]
    assert all(not r.explode for r in ev if isinstance(r, Rolled))


def test_phases_run_up_and_the_force_with_more_advantage_acts_first() -> None:
    s = _phases(red=[2, 5, 5], blue=[2, 5, 9])
    assert s.phase == 2 and SYSTEM.to_move(s) == ["red"]  # red won Strategy
    s, _ = ok(s, A(force="red", action="light_ground"))
    assert SYSTEM.to_move(s) == ["blue"]
    s, _ = ok(s, A(force="blue", action="light_ground"))
    assert s.phase == 5


def test_a_held_die_is_used_in_a_later_phase() -> None:
    s = _phases(red=[2, 6, 6], blue=[6, 6, 6])
    s, _ = ok(s, c.Hold(force="red"))
    assert s.phase == 3 and SYSTEM.to_move(s) == ["red"] and s.forces["red"].dice == [2, 6, 6]
    s, _ = ok(s, c.Hold(force="red"))
    s, _ = ok(s, c.Hold(force="red"))
    assert s.phase == 5
    s, _ = ok(s, A(force="red", action="light_ground"))
    assert s.forces["red"].dice == [6, 6]


def test_a_hold_counts_its_dice_in_words_one_die_or_several_dice() -> None:
    s = _phases(red=[2, 6, 6], blue=[6, 6, 6])
    s, ev = ok(s, c.Hold(force="red"))  # phase 2: one die (the 2) is waiting
    assert any(t.endswith("holds 1 action die past Phase 2") for t in texts(ev))
    s = _phases(red=[1, 1, 6], blue=[6, 6, 6])
    s, ev = ok(s, c.Hold(force="red"))
    assert any(t.endswith("holds 2 action dice past Phase 1") for t in texts(ev))
    assert not any("die(s)" in t or "die/dice" in t for t in texts(ev))


def test_a_commander_targets_each_individual_or_force_once_per_wave_except_on_accessible_ground() -> None:
    s = _phases(red=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="dispersive_ground", target_force="blue"))
    s, _ = ok(s, c.Hold(force="blue"))
    assert "already targeted" in refused(s, A(force="red", action="focal_ground", target_force="blue"))
    s = _phases("accessible", red=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="dispersive_ground", target_force="blue"))
    s, _ = ok(s, c.Hold(force="blue"))
    s, _ = ok(s, A(force="red", action="dispersive_ground", target_force="blue"))
    assert len(s.forces["blue"].wound_mods) == 2


def test_a_void_point_buys_one_self_targeted_action_per_wave() -> None:
    s = _phases()
    s, _ = ok(s, A(force="blue", action="deadly_ground", actor="blue-mage", void=True))
    p = s.forces["blue"].people["blue-mage"]
    assert p.void_left == 2 and p.deadly and not p.deadly_relieved
    assert "already acted alone" in refused(s, A(force="blue", action="bonus_effects", actor="blue-mage", void=True))
    assert "only target themselves" in refused(s, A(force="red", action="deadly_ground", actor="red-mage",
                                                    target="red-cmd", void=True))
    assert "not an action an individual takes alone" in refused(
        s, A(force="red", action="dispersive_ground", actor="red-mage", target_force="blue", void=True))


def test_targeted_individuals_perform_an_act_of_virtue() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="deadly_ground", target="red-mage"))
    assert [(e.person, e.act) for e in s.ledger] == [("red-mage", "virtue")]


def test_bonus_effects_write_up_to_void_facts() -> None:
    s = _phases()
    s2, _ = ok(s, A(force="red", action="bonus_effects", facts=("the bridge burns", "fog")))
    assert len(s2.facts) == 2
    assert "at most 3" in refused(s, A(force="red", action="bonus_effects", facts=("a", "b", "c", "d")))


def test_duel_waits_for_the_answer_and_the_loser_takes_two_k_two_plus_one_k_one_per_raise() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="duel", target="red-cmd", enemy="blue-mage", option="iaijutsu"))
    assert s.stage == "duel_answer" and SYSTEM.to_move(s) == ["blue"]
    # red Iaijutsu 2 / Reflexes 3: 5k3 -> 9,9,9,1,1 = 27; blue 5k3 -> 1s = 3: margin 24, 3 Raises (Void 3)
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2)
    s, ev = ok(s, c.AnswerDuel(force="blue", choice="accept"))
    wound_roll = [e for e in ev if isinstance(e, Rolled)][-1]
    assert wound_roll.pool == "5k5" and s.forces["blue"].people["blue-mage"].wounds == 10
    assert s.stage == "phases"


def test_refusing_a_duel_is_fleeing() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="duel", target="red-cmd", enemy="blue-mage"))
    s, _ = ok(s, c.AnswerDuel(force="blue", choice="refuse"))
    assert s.forces["blue"].people["blue-mage"].fled
    assert ("blue-mage", "vice") in [(e.person, e.act) for e in s.ledger]


def test_taryu_jiai_needs_two_shugenja() -> None:
    s = _phases()
    assert "two shugenja" in refused(s, A(force="red", action="duel", target="red-cmd", enemy="blue-mage",
                                          option="taryu"))
    ok(s, A(force="red", action="duel", target="red-mage", enemy="blue-mage", option="taryu"))


def test_a_commander_who_flees_takes_the_forces_advantage_and_a_new_one_is_named() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="flee", target="red-cmd"))
    red = s.forces["red"]
    assert red.commander is None and red.total() == 0 and red.needs_commander
    s = _end_phases(s)
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.stage == "commander" and SYSTEM.to_move(s) == ["red"]
    s, _ = ok(s, c.NameCommander(force="red", person="red-mage"))
    assert s.forces["red"].commander == "red-mage" and s.stage == "strategy"


def test_nobody_taking_command_defeats_the_force() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="flee", target="red-cmd"))
    s = _end_phases(s)
    s, _ = ok(s, c.ResolveWave(force="red"))
    s, _ = ok(s, c.NameCommander(force="red", person=None))
    assert s.forces["red"].status == "defeated" and s.stage == "ended" and s.winner == "blue"


def test_a_fleeing_force_leaves_but_still_counts_its_casualties() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="flee"))
    assert s.forces["red"].status == "fled" and s.stage == "casualties"
    s, ev = ok(s, c.ResolveWave(force="blue"))
    assert any("Red: 100 Brutes" in t for t in texts(ev))
    assert s.stage == "ended" and s.winner == "blue"


def test_rallying_cry_against_five_times_the_best_other_advantage_takes_glory_next_wave() -> None:
    s = _phases(red=[1, 9, 9], blue=[2, 9, 9])
    s.forces["red"].advantage["glory"] = 0
    s, _ = ok(s, c.Hold(force="red"))        # phase 1
    s, _ = ok(s, c.Hold(force="red"))        # phase 2: red (more Advantage) first, then blue
    tn = 5 * s.forces["red"].total()          # red: Strategy 1 + 3 Raises, terrain Water 3 = 7
    assert tn == 35
    s = force_dice(s, 10, 10, 5, 9, 9, 1, 1)  # blue 5k3: 10+10+5, 9, 9 = 43: 1 Raise
    s, ev = ok(s, A(force="blue", action="rallying_cry"))
    roll = [e for e in ev if isinstance(e, Rolled)][0]
    assert roll.tn == tn and roll.total == 43 and s.forces["blue"].rally_next == 2
    s.forces["red"].advantage["glory"] = 1
    s = _end_phases(s)
    s = force_dice(s, *([1] * 40))
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.stage == "strategy"
    assert s.forces["blue"].advantage["glory"] == 2 and s.forces["red"].advantage["glory"] == 0


def test_spell_needs_a_magic_user_and_has_three_effects() -> None:
    s = _phases()
    assert "cannot work magic" in refused(s, A(force="red", action="spell", target="red-cmd", option="shield"))
    s2, _ = ok(s, A(force="red", action="spell", target="red-mage", option="strategy"))
    assert s2.forces["red"].strategy_bonus == [1, 1]
    s2, _ = ok(s, A(force="red", action="spell", target="red-mage", option="wounds", target_force="blue"))
    assert [(m.rolled, m.kept) for m in s2.forces["blue"].wound_mods] == [(1, 1)]
    s2, _ = ok(s, A(force="red", action="spell", target="red-mage", option="shield"))
    assert [(m.rolled, m.kept) for m in s2.forces["red"].wound_mods] == [(-1, -1)]


def test_contentious_ground_moves_the_terrain_bonus_to_the_winner_next_wave() -> None:
    s = _phases(red=[9, 9, 9], blue=[1, 9, 9])
    assert "another force" in refused(s, A(force="blue", action="contentious_ground", target_force="blue"))
    s = force_dice(s, 9, 9, 9, 9, 9, 9, 1, 1, 1, 1, 1, 1)  # blue (the actor) rolls first
    s, _ = ok(s, A(force="blue", action="contentious_ground", target_force="red"))
    assert s.terrain_next == "blue"
    s = _end_phases(s)
    s, _ = ok(s, c.ResolveWave(force="red"))
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # red wins Strategy again...
    s, _ = ok(s, c.RollWay(force=SYSTEM.to_move(s)[0], way="strategy"))
    assert s.forces["blue"].advantage["terrain"] == 3 and s.forces["red"].advantage["terrain"] == 0


def test_contentious_ground_is_refused_on_accessible_ground() -> None:
    s = _phases("accessible", blue=[1, 2, 3])
    s, _ = ok(s, c.Hold(force="red"))
    assert "no terrain bonus" in refused(s, A(force="blue", action="contentious_ground", target_force="red"))


def test_wound_modifying_grounds() -> None:
    s = _phases("accessible", red=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="heavy_ground", target_force="blue"))
    s, _ = ok(s, c.Hold(force="blue"))
    s, _ = ok(s, A(force="red", action="light_ground"))
    s, _ = ok(s, A(force="red", action="dispersive_ground", target_force="blue"))
    red = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["red"])}
    blue = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["blue"])}
    assert red["brutes:none"] is not None and (red["brutes:none"].rolled, red["brutes:none"].kept) == (2, 2)
    assert blue["brutes:none"] is not None and (blue["brutes:none"].rolled, blue["brutes:none"].kept) == (5, 5)


def test_encircled_ground_costs_both_forces_their_action_dice() -> None:
    s = _phases(red=[1, 5, 6], blue=[3, 5, 6])
    s, _ = ok(s, A(force="red", action="encircled_ground", target_force="blue"))
    assert s.forces["red"].dice == [] and s.forces["blue"].dice == [] and s.stage == "casualties"


def test_focal_ground_gives_the_other_force_an_extra_action_this_phase() -> None:
    s = _phases(red=[1, 5, 6], blue=[3, 5, 6])
    s, _ = ok(s, A(force="red", action="focal_ground", target_force="blue"))
    assert SYSTEM.to_move(s) == ["blue"] and s.phase == 1
    s, _ = ok(s, A(force="blue", action="light_ground"))
    assert s.forces["blue"].dice == [3, 5, 6]


def test_entrapping_ground_withdraws_the_force_at_wave_end_undecided() -> None:
    s = _phases()
    s, _ = ok(s, A(force="red", action="entrapping_ground"))
    s = _end_phases(s)
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.forces["red"].status == "withdrawn" and s.winner == "blue"


def test_traversable_ground_takes_only_one_k_one_and_cannot_be_targeted() -> None:
    s = _phases("accessible", red=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="traversable_ground", target="red-mage"))
    assert not s.ledger  # gains no Honor or Glory
    pools = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["red"])}
    assert pools["red-mage"] is not None and pools["red-mage"].text() == "1k1"
    s, _ = ok(s, c.Hold(force="blue"))
    assert "cannot be targeted" in refused(s, A(force="red", action="deadly_ground", target="red-mage"))


def test_deadly_ground_adds_two_k_two_wounds_unless_targeted_again() -> None:
    s = _phases("accessible", red=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="deadly_ground", target="red-mage"))
    pools = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["red"])}
    assert pools["red-mage"] is not None and pools["red-mage"].text() == "4k4"
    s, _ = ok(s, c.Hold(force="blue"))
    s, _ = ok(s, A(force="red", action="spell", target="red-mage", option="shield"))
    pools = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["red"])}
    assert pools["red-mage"] is not None and pools["red-mage"].text() == "1k1"  # 2k2 -1k1 spell


def test_armour_reduces_wounds_and_a_pool_at_zero_deals_none() -> None:
    red = force("red", people=[person("red-cmd", armour="heavy"), person("red-2")],
                brutes=[{"armour": "light", "count": 100}, {"armour": "heavy", "count": 100}])
    s = start(setup(red, force("blue")))
    pools = {wr.who: wr.pool for wr in wound_rolls(s, s.forces["red"])}
    assert pools["red-cmd"] is None and pools["brutes:heavy"] is None
    assert pools["brutes:light"] is not None and pools["brutes:light"].text() == "1k1"


def test_brutes_two_rolls_percent_wounded_then_percent_of_them_killed() -> None:
    s = _end_phases(_phases(red=[1, 1, 1]))
    s = force_dice(s, 10, 10, 10, 5, 1, 6, 1)  # 2k2: 35 + 1 = 36% wounded; 6 + 1 = 7% of them killed
    s, ev = ok(s, c.ResolveWave(force="red"))
    red = s.forces["red"]
    assert red.brutes_wounded == 36 and red.brutes[0].count == 64 and red.brutes_killed == 36 * 7 // 100


def test_brute_percentages_are_capped_at_100() -> None:
    s = _end_phases(_phases(red=[1, 1, 1]))
    s = force_dice(s, *([10] * 10), 1, 1, 5, 5)  # 10x10+1 and 1: 102 -> 100% wounded; 10% killed
    s, _ = ok(s, c.ResolveWave(force="red"))
    red = s.forces["red"]
    assert red.brutes_wounded == 100 and red.brutes[0].count == 0 and red.brutes_killed == 10


def test_three_waves_in_a_row_with_the_most_advantage_win_and_double_the_commanders_glory() -> None:
    s = start()
    s.forces["red"].advantage["heaven"] = 5
    for _ in range(3):
        s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1)
        s = to_phases(s)
        s = _end_phases(s)
        s = force_dice(s, *([1] * 40))
        s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.stage == "ended" and s.winner == "red" and "3 Waves in a row" in s.end_reason
    glory = {(e.person, e.why): e.glory for e in s.ledger}
    assert glory[("red-cmd", "in the victorious army")] == 2
    assert glory[("red-mage", "in the victorious army")] == 1


def test_surrender_ends_the_battle_and_costs_the_commander_double() -> None:
    s = _phases()
    s, _ = ok(s, c.Surrender(force="blue", to="red"))
    assert s.stage == "casualties"
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.winner == "red"
    vice = {e.person: e.glory for e in s.ledger if e.act == "vice"}
    assert vice["blue-cmd"] == -2 and vice["blue-mage"] == -1


def test_a_force_that_cedes_to_the_victor_shares_the_victory() -> None:
    s = start(setup(force("red", allies=["green"]), force("blue"), force("green", allies=["red"])))
    s = force_dice(s, 9, 9, 9, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)
    s, _ = ok(s, c.RollWay(force="red", way="strategy"))
    s, _ = ok(s, c.Cede(force="green", to="red"))
    s, _ = ok(s, c.Surrender(force="blue", to="red"))
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.winner == "red"
    assert ("green-cmd", "virtue") in [(e.person, e.act) for e in s.ledger]


def test_a_force_with_nobody_left_is_obliterated() -> None:
    s = _phases()
    s, _ = ok(s, c.GmSetBrutes(force="blue", armour="none", count=0))
    s, _ = ok(s, c.GmSetPerson(person="blue-mage", wounds=dead_at(s.rules, s.person("blue-mage"))))
    s = _end_phases(s)
    s, _ = ok(s, c.GmSetPerson(person="blue-cmd", wounds=dead_at(s.rules, s.person("blue-cmd"))))
    s = force_dice(s, *([1] * 40))
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.forces["blue"].status == "obliterated" and s.winner == "red"
    assert {e.person: e.glory for e in s.ledger if e.act == "vice"}["blue-cmd"] == -2


def test_no_force_left_ends_without_a_victor() -> None:
    s = _phases(red=[1, 1, 1], blue=[1, 1, 1])
    s, _ = ok(s, A(force="red", action="entrapping_ground"))
    s, _ = ok(s, A(force="blue", action="entrapping_ground"))
    s = _end_phases(s)
    s = force_dice(s, *([1] * 40))
    s, _ = ok(s, c.ResolveWave(force="red"))
    assert s.stage == "ended" and s.winner is None and "no force" in s.end_reason


def test_gm_commands_edit_and_force() -> None:
    s = start()
    s, _ = ok(s, c.GmSetPerson(person="red-cmd", wounds=20, void_left=0, status=7))
    p = s.forces["red"].people["red-cmd"]
    assert (level_name(s.rules, p), p.void_left, p.stats.status) == ("Nicked", 0, 7)
    s, _ = ok(s, c.GmSetAdvantage(force="blue", way="heaven", value=4))
    assert s.forces["blue"].advantage["heaven"] == 4
    assert "1 to 10" in refused(s, c.GmForceRolls(values=(11,)))
    assert SYSTEM.is_gm_command(c.GmForceRolls(values=(1,)))
