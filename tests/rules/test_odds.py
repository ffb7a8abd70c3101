"""Exact attack odds (design page §9) checked two ways: against brute-force enumeration of every
die `resolve_attack` can roll, and against seeded Monte Carlo runs of `resolve_attack` for every
weapon/target pair of the starter catalogue."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from game.core.board import Board
from game.core.dice import Rng
from game.core.hexgrid import Hex
from game.systems.tactical.rules.attack import (
    RESULTS,
    AttackImpossible,
    AttackSetup,
    Combatant,
    resolve_attack,
)
from game.systems.tactical.rules.models import Catalogue, Defence, RulesData, Stats, UnitType, Weapon
from game.systems.tactical.rules.odds import Odds, monte_carlo, outcome_distribution
from tests.rules.ailfix import open_board as board
from tests.rules.ailfix import unit

ROOT = Path(__file__).resolve().parents[2]
RULES = RulesData()



def make(attacker: UnitType, target: UnitType, weapon: Weapon, at: Hex, bd: Board | None = None,
         rules: RulesData = RULES, strength: int | None = None, target_stance: Any = "none",
         braced: bool = False, **kw: Any) -> AttackSetup:
    return AttackSetup(Combatant("a", attacker, Hex(0, 0), attacker.strength, braced=braced),
                       Combatant("t", target, at, target.strength if strength is None else strength,
                                 stance=target_stance),
                       weapon, bd or board(), rules, **kw)


# --------------------------------------------------------------------------- brute force

class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


def brute_force(setup: AttackSetup, max_runs: int = 60_000) -> tuple[dict[tuple[int, str], Fraction],
                                                                       dict[int, Fraction]]:
    """Every sequence of die values resolve_attack can consume, each weighted 1/(product of sides)."""
    joint: dict[tuple[int, str], Fraction] = {}
    hits: dict[int, Fraction] = {}
    stack: list[tuple[tuple[int, int], ...]] = [()]
    runs = 0
    while stack:
        prefix = stack.pop()
        runs += 1
        assert runs <= max_runs, "brute-force case too big; shrink it"
        it = iter(prefix)

        def roller(sides: int, purpose: str, it: Any = it) -> int:
            nxt = next(it, None)
            if nxt is None:
                raise _NeedDie(sides)
            assert nxt[0] == sides
            return int(nxt[1])

        try:
            res = resolve_attack(setup, roller)
        except _NeedDie as need:
            stack.extend(prefix + ((need.sides, v),) for v in range(1, need.sides + 1))
            continue
        p = Fraction(1, math.prod(s for s, _ in prefix))
        key = (res.strength_lost, res.result)
        joint[key] = joint.get(key, Fraction(0)) + p
        hits[res.hits] = hits.get(res.hits, Fraction(0)) + p
    return joint, hits


def small_rules(casualty_die: int = 4) -> RulesData:
    return RULES.model_copy(update={"casualty": RULES.casualty.model_copy(update={"die": casualty_die})})


UNSKILLED = unit(skills={}, stats=Stats(physique=3, senses=6, intellect=1, aether=1))  # d6 hit die
RIFLE = Weapon(name="rifle", fp=3, skill="firearms", bands=(2, 6, 10, 14))

BRUTE_CASES = {
    # d6 hit die with up to 2 hits, no defences, strength 2, casualty d4
    "two_hits_no_defences": make(UNSKILLED, unit(strength=2, morale=-2), RIFLE, Hex(2, 0),
                                 rules=small_rules()),
    # one hit at most; cumulative pair merged (5+), then a separate reducing defence; damage 2
    "merged_then_separate_reduce": make(
        UNSKILLED, unit(strength=3, morale=-1, defences=(
            Defence(name="armour", kind="armour", target=6, cumulative=True),
            Defence(name="deflector", kind="other", target=7, effect="reduce"),
            Defence(name="sandbags", kind="cover", target=9, cumulative=True))),
        RIFLE.model_copy(update={"damage": 2, "fp": 5}), Hex(3, 0), rules=small_rules(),
        advantage=1),
    # energy weapon against shield (now reduce) then ward; FP over DUR on the casualty roll
    "energy_vs_shield_and_ward": make(
        UNSKILLED, unit(strength=2, defences=(
            Defence(name="shield", kind="shield", target=7),
            Defence(name="ward", kind="ward", target=8))),
        RIFLE.model_copy(update={"traits": ("energy",), "fp": 7}), Hex(3, 0), rules=small_rules()),
    # armour piercing, braced, target in woods, defensive stance, up to 2 hits, strength 1
    "armour_piercing_braced_in_cover": make(
        unit(skills={}, stats=Stats(physique=3, senses=10, intellect=1, aether=1)),
        unit(strength=1, morale=3, defences=(Defence(name="armour", kind="armour", target=4, cumulative=True),)),
        RIFLE.model_copy(update={"traits": ("armour_piercing",)}), Hex(3, 0), bd=board(x3_0="woods"),
        rules=small_rules(), target_stance="defensive", braced=True),
    # the real casualty d10, one hit, strength 2
    "real_casualty_die": make(UNSKILLED, unit(strength=2, durability=1, morale=2), RIFLE, Hex(6, 0),
                              overwatch_shot=True),
}


@pytest.mark.parametrize("name", sorted(BRUTE_CASES))
def test_exact_odds_equal_brute_force_enumeration_of_every_die(name: str) -> None:
    setup = BRUTE_CASES[name]
    joint, hits = brute_force(setup)
    odds = outcome_distribution(setup)
    assert dict(odds.joint) == joint
    assert dict(odds.hits) == hits
    assert sum(joint.values()) == 1


def test_the_brute_force_cases_reach_every_kind_of_outcome() -> None:
    seen = set()
    for setup in BRUTE_CASES.values():
        seen |= {r for (_, r), p in outcome_distribution(setup).joint.items() if p}
    assert seen == set(RESULTS)


# --------------------------------------------------------------------------- Monte Carlo, starter catalogue

def _load(path: str) -> Any:
    with open(ROOT / path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


CATALOGUE = Catalogue.model_validate(_load("assets/units/starter.yaml"))
FILE_RULES = RulesData.model_validate(_load("assets/rules/ail-tactical.yaml"))
PAIRS = [(a_id, w.name, t_id) for a_id, a in CATALOGUE.units.items() for w in a.weapons
         for t_id in CATALOGUE.units]


def starter_setup(a_id: str, weapon: str, t_id: str) -> AttackSetup:
    a, t = CATALOGUE.units[a_id], CATALOGUE.units[t_id]
    w = next(w for w in a.weapons if w.name == weapon)
    return make(a, t, w, Hex(1, 0) if w.melee else Hex(3, 0), rules=FILE_RULES)


def assert_agrees(exact: Odds, sampled: Odds, sigmas: float = 4.0) -> None:
    n = sampled.samples
    assert n is not None and exact.samples is None
    # Nothing the exact odds call impossible may ever happen.
    assert set(sampled.joint) <= set(exact.joint)
    assert set(sampled.hits) <= set(exact.hits)

    def close(what: str, p: Fraction, q: Fraction) -> None:
        pf, qf = float(p), float(q)
        tol = sigmas * math.sqrt(pf * (1 - pf) / n) + 1 / n
        assert abs(pf - qf) <= tol, f"{what}: exact {pf:.4f}, sampled {qf:.4f} (n={n}, tolerance {tol:.4f})"

    for r, p in exact.results.items():
        close(f"result {r}", p, sampled.results[r])
    for k, p in exact.strength_lost.items():
        close(f"strength lost {k}", p, sampled.strength_lost[k])
    for h, p in exact.hits.items():
        close(f"{h} hits", p, sampled.hits.get(h, Fraction(0)))
    mean = float(exact.expected_strength_lost)
    var = sum(float(p) * (k - mean) ** 2 for k, p in exact.strength_lost.items())
    tol = sigmas * math.sqrt(var / n) + 1 / n
    assert abs(float(sampled.expected_strength_lost) - mean) <= tol


def test_every_starter_pair_is_in_range_and_covered() -> None:
    assert len(PAIRS) == 14 * 9
    for pair in PAIRS:
        outcome_distribution(starter_setup(*pair))  # raises if the attack were impossible


def test_exact_odds_agree_with_monte_carlo_for_every_starter_weapon_and_target() -> None:
    for i, pair in enumerate(PAIRS):
        setup = starter_setup(*pair)
        assert_agrees(outcome_distribution(setup), monte_carlo(setup, 1000, Rng.from_seed(1000 + i)))


@pytest.mark.slow
def test_exact_odds_agree_with_a_large_monte_carlo_run_for_every_starter_pair() -> None:
    for i, pair in enumerate(PAIRS):
        setup = starter_setup(*pair)
        assert_agrees(outcome_distribution(setup), monte_carlo(setup, 20_000, Rng.from_seed(7 + i)))


# --------------------------------------------------------------------------- the Odds object

def test_probabilities_of_every_view_sum_to_one() -> None:
    for pair in PAIRS[::7]:
        odds = outcome_distribution(starter_setup(*pair))
        assert sum(odds.joint.values()) == 1
        assert sum(odds.results.values()) == 1
        assert sum(odds.strength_lost.values()) == 1
        assert sum(odds.hits.values()) == 1
        assert odds.results["no_hit"] == odds.hits.get(0, 0) == 1 - odds.hit_chance


def test_strength_loss_and_results_are_consistent() -> None:
    odds = outcome_distribution(starter_setup("warjack", "light cannon", "militia_band"))
    for (lost, result), p in odds.joint.items():
        assert p > 0
        assert (lost == 0) == (result in ("no_hit", "no_effect"))
        assert lost < 8 or result in ("destroyed", "annihilated")
    assert odds.expected_strength_lost == sum(k * p for k, p in odds.strength_lost.items())


def test_advantage_raises_the_hit_chance_and_defensive_stance_lowers_it() -> None:
    a, t = CATALOGUE.units["rifle_section"], CATALOGUE.units["armoured_infantry"]
    w = a.weapons[0]
    base = outcome_distribution(make(a, t, w, Hex(3, 0))).hit_chance
    assert outcome_distribution(make(a, t, w, Hex(3, 0), advantage=2)).hit_chance == base + Fraction(2, 10)
    assert outcome_distribution(make(a, t, w, Hex(3, 0), target_stance="defensive")).hit_chance == \
        base - Fraction(5, 10)


def test_odds_of_an_impossible_attack_raise_with_the_reason() -> None:
    a = CATALOGUE.units["militia_band"]
    with pytest.raises(AttackImpossible, match="out of range: 9 hexes, extreme is 8"):
        outcome_distribution(make(a, a, a.weapons[1], Hex(9, 0)))


def test_odds_as_dict_is_plain_data_with_floats_and_exact_fractions() -> None:
    import json

    odds = outcome_distribution(starter_setup("field_gun", "field gun", "warjack"))
    data = json.loads(json.dumps(odds.as_dict()))
    assert data["exact"] is True and data["ac"]["total"] == odds.ac.total
    assert Fraction(data["results_exact"]["no_hit"]) == odds.results["no_hit"]
    assert abs(sum(data["results"].values()) - 1) < 1e-9


# --------------------------------------------------------------------------- random small cases

defence_st = st.builds(
    Defence, name=st.sampled_from(["a", "b", "c"]), kind=st.sampled_from(["armour", "cover", "shield", "ward"]),
    target=st.integers(1, 11), effect=st.sampled_from(["negate", "reduce"]), cumulative=st.booleans())


@settings(max_examples=30, deadline=None)
@given(defences=st.lists(defence_st, max_size=3), fp=st.integers(0, 8), dur=st.integers(0, 6),
       dmg=st.integers(1, 2), strength=st.integers(1, 3), morale=st.integers(-4, 4),
       traits=st.sets(st.sampled_from(["armour_piercing", "ignores_cover", "energy"])),
       senses=st.integers(0, 10), dist=st.integers(1, 8), cas_die=st.integers(2, 4))
def test_exact_odds_equal_brute_force_on_random_small_attacks(
        defences: list[Defence], fp: int, dur: int, dmg: int, strength: int, morale: int,
        traits: set[str], senses: int, dist: int, cas_die: int) -> None:
    weapon = Weapon(name="w", fp=fp, damage=dmg, bands=(2, 4, 6, 8), traits=tuple(sorted(traits)))  # type: ignore[arg-type]
    attacker = unit(skills={}, stats=Stats(physique=1, senses=senses, intellect=1, aether=1))  # d6 hit die
    target = unit(strength=strength, durability=dur, morale=morale, defences=tuple(defences))
    setup = make(attacker, target, weapon, Hex(dist, 0), rules=small_rules(cas_die))
    odds = outcome_distribution(setup)
    rolls_per_damage = 1 + len(defences)
    max_hits = max(odds.hits)
    assume(6 * (10 ** rolls_per_damage) ** max_hits * cas_die ** strength <= 20_000)
    joint, hits = brute_force(setup)
    assert dict(odds.joint) == joint
    assert dict(odds.hits) == hits
