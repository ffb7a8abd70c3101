"""The cover save of fortified terrain (design page §5.4: cumulative defences such as armour and a
"cover save from fortifications" combine into one roll)."""

from __future__ import annotations

from game.core.hexgrid import Hex
from game.systems.tactical.rules.attack import defence_rolls, resolve_attack, target_defences
from game.systems.tactical.rules.models import Defence
from game.systems.tactical.rules.odds import outcome_distribution

from .test_attack import BLADE, RIFLE, Script, board, d10, setup, unit
from .test_odds import UNSKILLED, brute_force, make, small_rules

ARMOUR = Defence(name="armour", kind="armour", target=6, cumulative=True)
FORT = board(x3_0="fortification")


def test_a_fortification_gives_a_cover_save_that_merges_with_armour_into_one_roll():
    alone = defence_rolls(RIFLE, target_defences(setup(bd=FORT)))
    assert [(r.label, r.target, r.effect) for r in alone] == [("cover save (fortification)", 9, "negate")]
    armoured = setup(bd=FORT, target=unit(defences=(ARMOUR,)))
    merged = defence_rolls(RIFLE, target_defences(armoured))
    assert [(r.label, r.target) for r in merged] == [("armour + cover save (fortification)", 5)]


def test_the_cover_save_does_not_count_against_melee_ignores_cover_weapons_or_in_the_open():
    assert target_defences(setup(bd=board(x1_0="fortification"), weapon=BLADE, at=Hex(1, 0))) == ()
    sniper = RIFLE.model_copy(update={"traits": ("ignores_cover",)})
    assert defence_rolls(sniper, target_defences(setup(bd=FORT, weapon=sniper))) == ()
    assert target_defences(setup()) == ()


def test_a_successful_cover_save_negates_the_damage():
    # braced 3 + 2 + 10 + 2 = 17 vs medium 10 + cover 6 = 16: 1 hit; FP 3 = DUR 3: 6 damages; save 9 on 9+
    res = resolve_attack(setup(bd=FORT, braced=True), Script(*d10(10, 6, 9)))
    assert res.hits == 1 and res.damages == ("negated",) and res.result == "no_effect"
    assert res.defence_rolls[0].label == "defence vs damage 1: cover save (fortification)"


def test_exact_odds_with_a_cover_save_equal_brute_force_enumeration_of_every_die():
    case = make(UNSKILLED, unit(strength=2, morale=-1, defences=(ARMOUR,)), RIFLE, Hex(2, 0),
                bd=board(x2_0="fortification"), rules=small_rules())
    joint, hits = brute_force(case)
    odds = outcome_distribution(case)
    assert dict(odds.joint) == joint and dict(odds.hits) == hits
