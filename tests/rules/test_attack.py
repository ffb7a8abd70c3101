"""The AI:L attack, rule by rule (design page §5.1-§5.5), with scripted dice."""

from __future__ import annotations

from typing import Any

import pytest

from game.core.board import Board
from game.core.hexgrid import Hex
from game.systems.tactical.rules.attack import (
    AttackImpossible,
    AttackResult,
    AttackSetup,
    Combatant,
    accuracy_challenge,
    damage_needs,
    defence_rolls,
    hit_modifiers,
    resolve_attack,
)
from game.systems.tactical.rules.models import Defence, RulesData, Stats, UnitType, Weapon
from tests.rules.ailfix import open_board as board
from tests.rules.ailfix import unit

RULES = RulesData()
RIFLE = Weapon(name="rifle", fp=3, skill="firearms", bands=(2, 6, 10, 14))
BLADE = Weapon(name="blade", fp=3, melee=True, skill="melee")
MEDIUM = Hex(3, 0)  # 3 hexes from the attacker at (0,0): medium range for RIFLE, AC 10



def setup(attacker: UnitType | None = None, target: UnitType | None = None, weapon: Weapon = RIFLE,
          at: Hex = MEDIUM, bd: Board | None = None, rules: RulesData = RULES,
          target_strength: int | None = None, stance: str = "none", braced: bool = False,
          **kw: Any) -> AttackSetup:
    a = attacker or unit()
    t = target or unit()
    return AttackSetup(
        attacker=Combatant("a", a, Hex(0, 0), a.strength, braced=braced),
        target=Combatant("t", t, at, t.strength if target_strength is None else target_strength,
                         stance=stance),  # type: ignore[arg-type]
        weapon=weapon, board=bd or board(), rules=rules, **kw)


class Script:
    """A Roller that hands out scripted values, checks each die's sides and records each purpose."""

    def __init__(self, *dice: tuple[int, int]) -> None:
        self.dice = list(dice)
        self.calls: list[tuple[int, str]] = []

    def __call__(self, sides: int, purpose: str) -> int:
        assert self.dice, f"an unexpected extra die was rolled: d{sides} for {purpose!r}"
        want_sides, value = self.dice.pop(0)
        assert sides == want_sides, f"{purpose!r} rolled d{sides}, script expected d{want_sides}"
        self.calls.append((sides, purpose))
        return value

    def done(self) -> bool:
        return not self.dice


def d10(*values: int) -> list[tuple[int, int]]:
    return [(10, v) for v in values]


def roll(s: AttackSetup, *dice: tuple[int, int]) -> AttackResult:
    script = Script(*dice)
    result = resolve_attack(s, script)
    assert script.done(), f"dice left unused: {script.dice}"
    return result


def ac_of(s: AttackSetup) -> int:
    ac = accuracy_challenge(s)
    assert not isinstance(ac, str), ac
    return ac.total


# --------------------------------------------------------------------------- accuracy challenge

@pytest.mark.parametrize(("dist", "band", "ac"), [
    (1, "close", 5), (2, "close", 5), (3, "medium", 10), (6, "medium", 10),
    (7, "long", 15), (10, "long", 15), (11, "extreme", 20), (14, "extreme", 20),
])
def test_range_band_sets_the_accuracy_challenge(dist: int, band: str, ac: int) -> None:
    got = accuracy_challenge(setup(at=Hex(dist, 0)))
    assert not isinstance(got, str)
    assert (got.band, got.total) == (band, ac)


def test_beyond_extreme_range_no_attack_is_possible() -> None:
    assert accuracy_challenge(setup(at=Hex(15, 0))) == "out of range: 15 hexes, extreme is 14"
    with pytest.raises(AttackImpossible, match="out of range"):
        resolve_attack(setup(at=Hex(15, 0)), Script())


def test_band_values_come_from_the_rules_data() -> None:
    rules = RULES.model_copy(update={"accuracy": RULES.accuracy.model_copy(update={"band_ac": (4, 8, 12, 16)})})
    assert ac_of(setup(at=Hex(7, 0), rules=rules)) == 12


def test_melee_has_ac_5_against_an_adjacent_target_only() -> None:
    got = accuracy_challenge(setup(weapon=BLADE, at=Hex(1, 0)))
    assert not isinstance(got, str) and (got.band, got.total) == ("melee", 5)
    assert accuracy_challenge(setup(weapon=BLADE, at=Hex(2, 0))) == \
        "melee needs an adjacent target (Test Unit is 2 hexes away)"


@pytest.mark.parametrize(("size", "mod"), [("small", 2), ("normal", 0), ("large", -2), ("huge", -5)])
def test_target_size_modifies_the_ac(size: str, mod: int) -> None:
    assert ac_of(setup(target=unit(size=size), at=Hex(3, 0))) == 10 + mod
    assert ac_of(setup(target=unit(size=size), weapon=BLADE, at=Hex(1, 0))) == 5 + mod


@pytest.mark.parametrize(("terrain", "cover"), [("woods", 2), ("building", 4), ("rubble", 3),
                                                ("fortification", 6), ("bunker", 10), ("clear", 0)])
def test_cover_of_the_target_hex_adds_to_the_ac(terrain: str, cover: int) -> None:
    assert ac_of(setup(at=Hex(3, 0), bd=board(x3_0=terrain))) == 10 + cover


def test_cover_does_not_count_against_melee() -> None:
    assert ac_of(setup(weapon=BLADE, at=Hex(1, 0), bd=board(x1_0="bunker"))) == 5


def test_cover_does_not_count_against_ignores_cover_weapons() -> None:
    spell = Weapon(name="bolt", fp=6, skill="aether_channel", bands=(2, 4, 8, 12), traits=("ignores_cover",))
    assert ac_of(setup(weapon=spell, at=Hex(3, 0), bd=board(x3_0="building"))) == 10


def test_defensive_stance_adds_5_and_other_stances_nothing() -> None:
    assert ac_of(setup(stance="defensive")) == 15
    assert ac_of(setup(stance="guard")) == 10
    assert ac_of(setup(stance="overwatch")) == 10


def test_defensive_action_adds_5_on_top_of_the_stance() -> None:
    assert ac_of(setup(defensive_action=True)) == 15
    assert ac_of(setup(defensive_action=True, stance="defensive")) == 20


def test_cover_and_defensive_stance_also_count_against_an_overwatch_shot() -> None:
    assert ac_of(setup(overwatch_shot=True, stance="defensive", bd=board(x3_0="woods"))) == 17


def test_ac_parts_name_every_component() -> None:
    got = accuracy_challenge(setup(target=unit(size="small"), stance="defensive", defensive_action=True,
                                   bd=board(x3_0="woods")))
    assert not isinstance(got, str)
    assert [(p.label, p.value) for p in got.parts] == [
        ("medium range (3 hexes)", 10), ("small target", 2), ("cover: woods", 2),
        ("defensive stance", 5), ("defensive action", 5)]
    assert got.total == 24


def test_blocked_line_of_sight_prevents_a_direct_attack_and_names_the_blocker() -> None:
    assert accuracy_challenge(setup(bd=board(x1_0="woods"))) == "no line of sight: woods at hex 1,0"


GUN = Weapon(name="gun", fp=6, skill="gunnery", bands=(3, 10, 20, 30), traits=("indirect",))


def test_indirect_fire_needs_no_line_of_sight_when_a_friend_spots() -> None:
    assert ac_of(setup(weapon=GUN, at=Hex(5, 0), bd=board(x2_0="hill"), spotted=True)) == 10


def test_indirect_fire_without_a_spotter_takes_5_more_ac() -> None:
    assert ac_of(setup(weapon=GUN, at=Hex(5, 0), bd=board(x2_0="hill"), spotted=False)) == 15


def test_indirect_fire_with_its_own_line_of_sight_needs_no_spotter() -> None:
    assert ac_of(setup(weapon=GUN, at=Hex(5, 0), spotted=False)) == 10


# --------------------------------------------------------------------------- hit roll

def test_ranged_hit_roll_is_senses_plus_weapon_skill_plus_d10() -> None:
    r = roll(setup(), *d10(5, 1))  # 3 + 2 + 5 = 10 vs AC 10: one hit; the damage die misses
    assert (r.hit.stat_name, r.hit.stat, r.hit.skill_name, r.hit.skill, r.hit.total) == \
        ("senses", 3, "firearms", 2, 10)
    assert r.hits == 1


def test_melee_hit_roll_is_physique_plus_melee() -> None:
    r = roll(setup(weapon=BLADE, at=Hex(1, 0)), *d10(1, 1))  # 3 + 1 + 1 = 5 vs AC 5
    assert (r.hit.stat_name, r.hit.skill_name, r.hit.total, r.hits) == ("physique", "melee", 5, 1)


def test_spells_use_aether_with_aether_channel() -> None:
    spell = Weapon(name="bolt", fp=6, skill="aether_channel", bands=(2, 4, 8, 12))
    mage = unit(stats=Stats(physique=1, senses=1, intellect=1, aether=5), skills={"aether_channel": 4})
    r = roll(setup(attacker=mage, weapon=spell, at=Hex(3, 0)), *d10(1, 1))  # 10 vs AC 10
    assert (r.hit.stat_name, r.hit.stat, r.hit.skill, r.hit.total) == ("aether", 5, 4, 10)


def test_a_skill_of_zero_rolls_a_d6() -> None:
    r = roll(setup(attacker=unit(skills={}), at=Hex(1, 0)), (6, 6), (10, 1))  # 3 + 0 + 6 = 9 vs 5
    assert r.hit.die_sides == 6 and r.hits == 1


def test_braced_attacker_gets_plus_2_and_overwatch_shot_minus_2() -> None:
    assert [(m.label, m.value) for m in hit_modifiers(setup(braced=True, overwatch_shot=True))] == \
        [("braced", 2), ("overwatch snap shot", -2)]
    assert roll(setup(braced=True), *d10(3, 1)).hit.total == 10
    assert roll(setup(overwatch_shot=True), *d10(7, 1)).hit.total == 10


def test_each_advantage_point_adds_1_to_the_hit_roll() -> None:
    r = roll(setup(advantage=3), *d10(2, 1))
    assert r.hit.total == 10 and r.hits == 1
    assert [(m.label, m.value) for m in r.hit.modifiers] == [("Advantage x3", 3)]


def test_a_miss_ends_the_attack_with_no_other_dice() -> None:
    r = roll(setup(), *d10(4))  # 9 vs 10
    assert (r.hits, r.result, r.strength_lost, len(r.dice)) == (0, "no_hit", 0, 1)


@pytest.mark.parametrize(("die", "hits"), [(5, 1), (9, 1), (10, 2)])
def test_every_full_5_over_the_ac_is_one_more_hit(die: int, hits: int) -> None:
    r = roll(setup(at=Hex(3, 0)), *d10(die, *([1] * hits)))  # AC 10; total 5 + die
    assert r.hits == hits and len(r.damage_rolls) == hits


def test_hits_are_one_plus_margin_over_5() -> None:
    # 3 + 2 + d10 + Advantage 5 vs AC 5: margin = die + 5
    for die, hits in [(1, 2), (4, 2), (5, 3), (10, 4)]:
        r = roll(setup(at=Hex(1, 0), advantage=5), *d10(die, *([1] * hits)))
        assert r.hits == hits == 1 + (r.hit.total - 5) // 5


# --------------------------------------------------------------------------- damage rolls

@pytest.mark.parametrize(("fp", "dur", "needs"), [
    (8, 4, 2), (6, 3, 2), (5, 4, 4), (7, 6, 4), (4, 4, 6), (3, 4, 8), (5, 6, 8), (2, 4, 10), (1, 4, 10),
    (3, 0, 2),
])
def test_damage_roll_target_comes_from_firepower_against_durability(fp: int, dur: int, needs: int) -> None:
    assert damage_needs(fp, dur, RULES) == needs


def test_a_scenario_damage_table_override_is_used() -> None:
    rows = tuple(r.model_copy(update={"needs": 5}) if r.when == "fp_equal" else r for r in RULES.damage_table)
    assert damage_needs(4, 4, RULES.model_copy(update={"damage_table": rows})) == 5


def test_one_damage_die_per_hit_and_a_failed_one_does_nothing() -> None:
    r = roll(setup(), *d10(10, 5, 6), (10, 3))  # 2 hits; FP 3 = DUR 3 needs 6: 5 fails, 6 succeeds
    assert r.damages == ("failed", "full")
    assert [d.success for d in r.damage_rolls] == [False, True]
    assert r.strength_lost == 1


def test_hit_whose_every_damage_fails_has_no_effect() -> None:
    r = roll(setup(), *d10(10, 5, 1))
    assert (r.result, r.strength_lost) == ("no_effect", 0)


# --------------------------------------------------------------------------- defence rolls

ARMOUR = Defence(name="armour", kind="armour", target=6, effect="negate", cumulative=True)
SANDBAGS = Defence(name="sandbags", kind="cover", target=8, effect="negate", cumulative=True)
PLATES = Defence(name="plates", kind="armour", target=7, effect="reduce", cumulative=True)
SHIELD = Defence(name="shield", kind="shield", target=7, effect="negate")
WARD = Defence(name="ward", kind="ward", target=6, effect="negate")
DEFLECTOR = Defence(name="deflector", kind="other", target=5, effect="reduce")


def plan(weapon: Weapon, *defences: Defence) -> list[tuple[str, int, str]]:
    return [(p.label, p.target, p.effect) for p in defence_rolls(weapon, defences)]


def test_cumulative_defences_merge_into_one_roll_best_target_minus_1_per_other() -> None:
    assert plan(RIFLE, ARMOUR, SANDBAGS) == [("armour + sandbags", 5, "negate")]
    assert plan(RIFLE, SANDBAGS, PLATES, ARMOUR) == [("sandbags + plates + armour", 4, "negate")]


def test_merged_cumulative_roll_negates_if_any_of_them_negates_else_reduces() -> None:
    assert plan(RIFLE, PLATES)[0][2] == "reduce"
    assert plan(RIFLE, PLATES, SANDBAGS)[0][2] == "negate"


def test_separate_defences_follow_the_cumulative_roll_in_list_order() -> None:
    assert plan(RIFLE, SHIELD, ARMOUR, WARD) == [("armour", 6, "negate"), ("shield", 7, "negate"),
                                                 ("ward", 6, "negate")]


def test_separate_defences_are_rolled_until_one_succeeds() -> None:
    s = setup(target=unit(defences=(SHIELD, WARD, DEFLECTOR)))
    r = roll(s, *d10(5, 6), *d10(6, 6))  # shield 6 < 7 fails, ward 6 succeeds: deflector not rolled
    assert [d.label.split(": ")[1] for d in r.defence_rolls] == ["shield", "ward"]
    assert r.damages == ("negated",)
    assert r.result == "no_effect"


def test_a_damage_no_defence_stops_is_full() -> None:
    s = setup(target=unit(defences=(SHIELD, WARD)))
    r = roll(s, *d10(5, 6, 1, 1, 9))
    assert r.damages == ("full",) and r.strength_lost == 1


def test_defences_are_rolled_for_each_damage() -> None:
    s = setup(target=unit(defences=(ARMOUR,)))
    r = roll(s, *d10(10, 6, 6), *d10(6, 5), *d10(9))  # 2 damages: first negated, second not
    assert r.damages == ("negated", "full")
    assert [d.kind for d in r.dice] == ["hit", "damage", "damage", "defence", "defence", "casualty"]


def test_armour_piercing_ignores_armour_but_not_other_defences() -> None:
    ap = RIFLE.model_copy(update={"traits": ("armour_piercing",)})
    assert plan(ap, ARMOUR, PLATES, SANDBAGS, WARD) == [("sandbags", 8, "negate"), ("ward", 6, "negate")]


def test_ignores_cover_ignores_cover_defences() -> None:
    ic = RIFLE.model_copy(update={"traits": ("ignores_cover",)})
    assert plan(ic, ARMOUR, SANDBAGS) == [("armour", 6, "negate")]


def test_energy_weapons_turn_a_shield_negate_into_reduce_only_for_shields() -> None:
    en = RIFLE.model_copy(update={"traits": ("energy",)})
    assert plan(en, SHIELD, WARD) == [("shield", 7, "reduce"), ("ward", 6, "negate")]


def test_reduced_damage_still_costs_strength_and_gives_plus_3_on_its_casualty_roll() -> None:
    s = setup(target=unit(defences=(DEFLECTOR,)))
    r = roll(s, *d10(5, 6, 5, 1))  # deflector 5 succeeds: reduce; casualty 1 + 0 + 5 + 3 = 9
    assert r.damages == ("reduced",) and r.strength_lost == 1
    cas = r.casualty_rolls[0]
    assert [(p.label, p.value) for p in cas.parts] == [("morale", 0), ("strength left", 5), ("damage reduced", 3)]
    assert (cas.total, r.result) == (9, "steady")
    plain = roll(setup(), *d10(5, 6, 1))
    assert (plain.casualty_rolls[0].total, plain.result) == (6, "pinned")


# --------------------------------------------------------------------------- casualties

@pytest.mark.parametrize(("total", "state"), [
    (12, "steady"), (8, "steady"), (7, "pinned"), (6, "pinned"), (5, "out_of_action"), (4, "out_of_action"),
    (3, "destroyed"), (2, "destroyed"), (1, "annihilated"), (-3, "annihilated"),
])
def test_casualty_table_gives_the_state(total: int, state: str) -> None:
    # die 1 + morale + strength left 5: morale chosen to make the total
    r = roll(setup(target=unit(morale=total - 6)), *d10(5, 6, 1))
    assert r.casualty_rolls[0].total == total
    assert r.result == state


def test_casualty_roll_is_die_plus_morale_plus_strength_left_minus_firepower_over_durability() -> None:
    gun = RIFLE.model_copy(update={"fp": 5})  # FP 5 vs DUR 3: needs 4, 2 over
    r = roll(setup(target=unit(morale=2), weapon=gun, target_strength=4), *d10(5, 4, 4))
    cas = r.casualty_rolls[0]
    assert [(p.label, p.value) for p in cas.parts] == [
        ("morale", 2), ("strength left", 3), ("firepower over durability", -2)]
    assert cas.total == 4 + 2 + 3 - 2


def test_a_depleted_unit_breaks_more_easily_strength_left_counts_after_the_point() -> None:
    full = roll(setup(target_strength=6), *d10(5, 6, 2))   # 2 + 5 = 7 pinned
    weak = roll(setup(target_strength=2), *d10(5, 6, 2))   # 2 + 1 = 3 destroyed
    assert (full.result, weak.result) == ("pinned", "destroyed")


def test_the_worst_casualty_result_counts() -> None:
    r = roll(setup(), *d10(10, 6, 6), *d10(1, 9))  # left 5: 6 pinned; left 4: 13 steady
    assert [c.outcome for c in r.casualty_rolls] == ["pinned", "steady"]
    assert r.result == "pinned"
    r = roll(setup(), *d10(10, 6, 6), *d10(9, 1))  # 14 steady then 5 out of action
    assert r.result == "out_of_action"


def test_a_unit_at_zero_strength_is_destroyed_whatever_it_rolled() -> None:
    r = roll(setup(target=unit(morale=20), target_strength=1), *d10(5, 6, 5))
    assert r.casualty_rolls[0].outcome == "steady"
    assert (r.strength_after, r.result) == (0, "destroyed")


def test_a_unit_at_zero_strength_is_annihilated_if_a_roll_said_so() -> None:
    r = roll(setup(target=unit(morale=-20), target_strength=1), *d10(5, 6, 5))
    assert r.result == "annihilated"


def test_weapon_damage_value_removes_that_much_strength_per_damage() -> None:
    heavy = RIFLE.model_copy(update={"damage": 2})
    r = roll(setup(weapon=heavy), *d10(5, 6, 9, 9))
    assert r.strength_lost == 2
    assert [p.value for c in r.casualty_rolls for p in c.parts if p.label == "strength left"] == [5, 4]


def test_strength_lost_never_exceeds_what_the_unit_has() -> None:
    heavy = RIFLE.model_copy(update={"damage": 3})
    r = roll(setup(weapon=heavy, target_strength=2), *d10(10, 6, 6), *d10(9, 9))
    assert (r.strength_lost, len(r.casualty_rolls), r.result) == (2, 2, "destroyed")


def test_dice_are_rolled_in_the_documented_order_with_their_purposes() -> None:
    s = setup(target=unit(defences=(ARMOUR, WARD)))
    script = Script(*d10(10, 7, 7), *d10(1, 1, 1, 1), *d10(8, 8))
    r = resolve_attack(s, script)
    assert script.done()
    assert [p for _, p in script.calls] == [
        "hit: Test Unit rifle vs Test Unit",
        "damage 1/2: FP 3 vs DUR 3", "damage 2/2: FP 3 vs DUR 3",
        "defence vs damage 1: armour", "defence vs damage 1: ward",
        "defence vs damage 2: armour", "defence vs damage 2: ward",
        "casualty: Test Unit down to strength 5 (damage 1)",
        "casualty: Test Unit down to strength 4 (damage 2)",
    ]
    assert [d.label for d in r.dice] == [p for _, p in script.calls]


def test_guard_counter_and_overwatch_shots_are_labelled() -> None:
    s = Script(*d10(1))
    resolve_attack(setup(weapon=BLADE, at=Hex(1, 0), counter=True, stance="defensive"), s)  # 5 vs 10: miss
    assert s.calls[0][1].startswith("guard counter: ")
    s = Script(*d10(1))
    resolve_attack(setup(overwatch_shot=True), s)
    assert s.calls[0][1].startswith("overwatch: ")
