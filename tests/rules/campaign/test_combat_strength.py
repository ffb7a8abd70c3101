"""Combat strength: the stat each manoeuvre uses, base dice from the vanguard, reinforcement
dice by the progression (design page §4), and the stratagems that change a pool."""

from __future__ import annotations

import pytest

from game.systems.campaign.rules.combat import build_pool, reinforcement_steps, threshold
from tests.rules.campaign.campfix import facts, plays, rules, types, utype

JAI = types()["jibril_armoured_infantry"]


@pytest.mark.parametrize(("total", "k"), [(9, 0), (10, 1), (29, 1), (30, 2), (69, 2), (70, 3), (149, 3),
                                          (150, 4), (309, 4), (310, 5)])
def test_reinforcement_dice_follow_the_doubling_progression_from_a_base_of_5(total: int, k: int) -> None:
    assert reinforcement_steps(5, total) == k


def test_reinforcement_thresholds_are_base_times_two_to_the_k_plus_one_minus_two() -> None:
    assert [threshold(5, k) for k in range(1, 6)] == [10, 30, 70, 150, 310]
    assert [threshold(3, k) for k in range(1, 4)] == [6, 18, 42]


def test_a_zero_base_gets_no_reinforcement_dice_however_large_the_rest() -> None:
    assert reinforcement_steps(0, 10_000) == 0


def test_the_sources_example_three_armoured_divisions_attack_with_six_dice() -> None:
    a = facts("red", [("j1", JAI), ("j2", JAI), ("j3", JAI)])
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "attack", b, "defend")
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert (pool.stat, pool.reinforcement_total, pool.dice) == ("attack", 10, 6)


def test_the_sources_vanguard_rolls_five_on_attack_six_on_defense_two_on_withdraw() -> None:
    a = facts("red", [("j1", JAI)])
    b = facts("blue", [("x", utype())])
    got = {}
    for m in ("attack", "shock_attack", "defend", "block", "withdraw", "skirmish"):
        pa, pb = plays(a, m, b, "defend")
        got[m] = build_pool(rules(), a, pa, b, pb, True).dice
    assert got == {"attack": 5, "shock_attack": 5, "defend": 6, "block": 6, "withdraw": 2, "skirmish": 2}


def test_a_withdrawal_is_reinforced_only_by_scouts() -> None:
    scout = utype("Scout", mobility=4, line=False, traits=["scout"])
    slow = utype("Slow", mobility=4)
    a = facts("red", [("rear", utype(mobility=2)), ("s1", scout), ("s2", slow)])
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "withdraw", b, "attack")
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert pool.reinforcement_total == 4 and pool.main_line == ("rear", "s1")


def test_covering_fire_adds_long_range_defense_to_a_withdrawals_reinforcement() -> None:
    gun = utype("Gun", defense=5, mobility=1, line=False, traits=["long_range"])
    eye = utype("Eye", defense=1, mobility=1, line=False, traits=["observer"])
    a = facts("red", [("rear", utype(mobility=2)), ("g", gun), ("e", eye)])
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "withdraw", b, "attack", astr=["covering_fire"])
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert pool.reinforcement_total == 5 and pool.dice == 2 + reinforcement_steps(2, 5)


def test_last_stand_makes_the_rearguard_use_its_defense() -> None:
    a = facts("red", [("rear", utype(defense=6, mobility=1))], level=1)
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "withdraw", b, "attack", astr=["last_stand"])
    assert build_pool(rules(), a, pa, b, pb, True).dice == 6


def test_counter_attack_turns_a_defence_into_an_attack_without_reinforcement_dice() -> None:
    a = facts("red", [("v", utype(attack=4, defense=2)), ("r1", utype(attack=4)), ("r2", utype(attack=4))], level=2)
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "defend", b, "attack", astr=["counter_attack"])
    assert pa.plays_as == "attack" and pa.reads_as == "attack"
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert pool.dice == 4 and pool.main_line == ("v",)


def test_counter_attack_does_nothing_when_the_enemy_does_not_attack() -> None:
    a = facts("red", [("v", utype())], level=2)
    b = facts("blue", [("x", utype())])
    pa, _ = plays(a, "defend", b, "skirmish", astr=["counter_attack"])
    assert pa.plays_as == "defend"


def test_feint_switches_to_shock_attack_against_a_defence() -> None:
    a = facts("red", [("v", utype())], level=2)
    b = facts("blue", [("x", utype())])
    pa, _ = plays(a, "attack", b, "defend", astr=["feint"])
    assert pa.plays_as == "shock_attack"
    pa, _ = plays(a, "attack", b, "block", astr=["feint"])
    assert pa.plays_as == "attack"


def test_feint_and_counter_attack_cancel_each_other() -> None:
    a = facts("red", [("v", utype())], level=2)
    b = facts("blue", [("x", utype())], level=2)
    pa, pb = plays(a, "attack", b, "defend", astr=["feint"], bstr=["counter_attack"])
    assert (pa.plays_as, pb.plays_as) == ("attack", "defend")
    assert pa.dropped and pb.dropped


def test_harassing_fire_reads_as_skirmish_against_withdraw_defend_block_and_counts_only_long_range() -> None:
    gun = utype("Gun", defense=3, line=True, traits=["long_range", "observer"])
    foot = utype("Foot", defense=9)
    a = facts("red", [("g", gun), ("g2", gun), ("f", foot)])
    b = facts("blue", [("x", utype())])
    for other in ("withdraw", "defend", "block"):
        pa, pb = plays(a, "defend", b, other, astr=["harassing_fire"])
        assert pa.reads_as == "skirmish"
    pa, pb = plays(a, "defend", b, "attack", astr=["harassing_fire"])
    assert pa.reads_as == "defend"
    pool = build_pool(rules(), a, pa, b, pb, True)
    assert pool.reinforcement_total == 3 and "f" not in pool.main_line


def test_ambush_gives_two_dice_in_the_first_week_only_when_its_scouting_beats_the_enemys() -> None:
    a = facts("red", [("v", utype(defense=3))], level=2, scouting=3)
    b = facts("blue", [("x", utype())], scouting=1)
    pa, pb = plays(a, "block", b, "attack", astr=["ambush"])
    assert build_pool(rules(), a, pa, b, pb, True).dice == 5
    assert build_pool(rules(), a, pa, b, pb, False).dice == 3
    b2 = facts("blue", [("x", utype())], scouting=3)
    assert build_pool(rules(), a, pa, b2, pb, True).dice == 3


def test_flanking_gives_two_dice_against_defend_or_block_only() -> None:
    a = facts("red", [("v", utype(attack=3)), ("s", utype(attack=0, line=False, traits=["scout"]))], level=2)
    b = facts("blue", [("x", utype())])
    for other, dice in (("defend", 5), ("block", 5), ("skirmish", 3), ("attack", 3)):
        pa, pb = plays(a, "attack", b, other, astr=["flanking"])
        assert build_pool(rules(), a, pa, b, pb, True).dice == dice


def test_surprise_denies_the_enemy_reinforcement_when_its_scouting_is_higher() -> None:
    a = facts("red", [("v", utype())], level=2, scouting=2)
    b = facts("blue", [("x", utype(defense=2)), ("y", utype(defense=4)), ("z", utype(defense=4))], scouting=1)
    pa, pb = plays(a, "shock_attack", b, "defend", astr=["surprise"])
    assert build_pool(rules(), b, pb, a, pa, True).dice == 2
    pa2, pb2 = plays(a, "shock_attack", b, "defend")
    assert build_pool(rules(), b, pb2, a, pa2, True).dice == 2 + reinforcement_steps(2, 8)


def test_speed_adds_half_the_vanguards_mobility_to_a_shock_attack() -> None:
    a = facts("red", [("v", utype(attack=4, mobility=5))])
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "shock_attack", b, "defend", astr=["speed"])
    assert build_pool(rules(), a, pa, b, pb, True).dice == 4 + 2


def test_deception_adds_the_scouting_successes_to_the_withdraw_roll() -> None:
    a = facts("red", [("v", utype(mobility=2))], level=2, scouting=3)
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "withdraw", b, "block", astr=["deception"])
    assert build_pool(rules(), a, pa, b, pb, True).bonus_successes == 3


def test_flee_rolls_no_dice() -> None:
    a = facts("red", [("v", utype())])
    b = facts("blue", [("x", utype())])
    pa, pb = plays(a, "attack", b, "defend", astr=["flee"])
    assert pa.fled and pa.plays_as == "withdraw"
    assert build_pool(rules(), a, pa, b, pb, True).dice == 0
