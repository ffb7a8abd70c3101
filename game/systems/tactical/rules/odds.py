"""Exact odds of an AI:L attack, by enumeration over the same helpers `resolve_attack` uses.

How: the hit die is enumerated value by value (grouped by the number of hits it gives). Each
damage is independent of the others up to the target's strength, so its fate (failed or negated /
reduced / full) is one small categorical distribution, computed from the damage die and the
defence rolls. The damages are then folded in order over the states (strength left, worst
casualty result so far), each strength point lost convolving one casualty die.

Everything is counted in integers over a common denominator and turned into `Fraction`s once at
the end, which keeps it exact and fast (well under a millisecond for the starter catalogue).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from game.core.dice import Rng
from game.core.roller import Roller
from game.systems.tactical.rules.attack import (
    DAMAGE_DIE,
    DEFENCE_DIE,
    RESULTS,
    STATES,
    ACBreakdown,
    AttackSetup,
    DefenceRoll,
    Result,
    UnitState,
    casualty_advantage_on,
    casualty_parts,
    casualty_state,
    damage_needs,
    defence_notes,
    defence_rolls,
    final_result,
    fp_excess,
    hit_check,
    hit_die,
    hits_scored,
    require_ac,
    resolve_attack,
    target_defences,
)


@dataclass(frozen=True)
class Odds:
    """The probability of every outcome of one attack.

    joint[(strength_lost, result)] is the probability of losing exactly that much strength and
    ending with that result; only possible cells are present. `hits` gives the number of hits
    (0 = missed). `samples` is None for exact odds, the sample count for a Monte Carlo estimate.
    """

    ac: ACBreakdown
    strength: int
    hits: Mapping[int, Fraction]
    joint: Mapping[tuple[int, Result], Fraction]
    samples: int | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def hit_chance(self) -> Fraction:
        return sum((p for h, p in self.hits.items() if h > 0), Fraction(0))

    @property
    def results(self) -> dict[Result, Fraction]:
        """Probability of each final result (all seven keys, zeros included)."""
        out: dict[Result, Fraction] = {r: Fraction(0) for r in RESULTS}
        for (_, result), p in self.joint.items():
            out[result] += p
        return out

    @property
    def strength_lost(self) -> dict[int, Fraction]:
        """Probability of losing exactly n strength, for n = 0..strength."""
        out = {n: Fraction(0) for n in range(self.strength + 1)}
        for (lost, _), p in self.joint.items():
            out[lost] += p
        return out

    @property
    def expected_strength_lost(self) -> Fraction:
        return sum((lost * p for (lost, _), p in self.joint.items()), Fraction(0))

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready view with floats (and the exact fractions as strings)."""
        return {
            "ac": {"total": self.ac.total, "band": self.ac.band,
                   "parts": [{"label": p.label, "value": p.value} for p in self.ac.parts]},
            "exact": self.samples is None,
            "samples": self.samples,
            "strength": self.strength,
            "hit_chance": float(self.hit_chance),
            "hits": {str(h): float(p) for h, p in sorted(self.hits.items())},
            "results": {r: float(p) for r, p in self.results.items()},
            "results_exact": {r: str(p) for r, p in self.results.items()},
            "strength_lost": {str(n): float(p) for n, p in self.strength_lost.items()},
            "expected_strength_lost": float(self.expected_strength_lost),
            "joint": [{"strength_lost": lost, "result": result, "p": float(p), "exact": str(p)}
                      for (lost, result), p in sorted(self.joint.items(), key=lambda kv: (kv[0][0],
                                                                                       RESULTS.index(kv[0][1])))],
            "notes": list(self.notes),
        }


def _defence_weights(plan: tuple[DefenceRoll, ...]) -> tuple[int, int, int, int]:
    """(negated, reduced, full, denominator) for one damage that got through the damage roll."""
    den = DEFENCE_DIE ** len(plan)
    negated = reduced = 0
    reach = 1  # ways to get to roll i with every earlier roll failed (over DEFENCE_DIE ** i)
    for i, roll in enumerate(plan):
        succeed = max(0, min(DEFENCE_DIE, DEFENCE_DIE - roll.target + 1))
        ways = reach * succeed * DEFENCE_DIE ** (len(plan) - i - 1)
        if roll.effect == "negate":
            negated += ways
        else:
            reduced += ways
        reach *= DEFENCE_DIE - succeed
    return negated, reduced, reach, den


# A fold state: (strength left, index into STATES of the worst casualty result, or -1 for none yet).
_State = tuple[int, int]


def outcome_distribution(setup: AttackSetup) -> Odds:
    """The exact distribution of outcomes of `setup`. Raises AttackImpossible like resolve_attack."""
    rules, weapon, tgt = setup.rules, setup.weapon, setup.target
    ac = require_ac(setup)
    sides = hit_die(setup)

    hits_count: dict[int, int] = {}
    for die in range(1, sides + 1):
        h = hits_scored(hit_check(setup, ac, die), rules)
        hits_count[h] = hits_count.get(h, 0) + 1
    max_hits = max(hits_count)

    # One damage: numerators of (no strength lost, reduced, full) over `per_damage_den`.
    needs = damage_needs(weapon.fp, tgt.unit_type.durability, rules)
    dmg_ok = max(0, min(DAMAGE_DIE, DAMAGE_DIE - needs + 1))
    defences = target_defences(setup)
    neg, red, full, def_den = _defence_weights(defence_rolls(weapon, defences))
    c_none = (DAMAGE_DIE - dmg_ok) * def_den + dmg_ok * neg
    c_red = dmg_ok * red
    c_full = dmg_ok * full

    cas_die = rules.casualty.die
    excess = fp_excess(weapon, tgt.unit_type)
    dmg = weapon.damage
    start = tgt.strength
    # casualty die counts per resulting state index, for (strength left after the point, reduced).
    # The point lost leaving `left` is the (start - left)-th casualty roll of the attack, which
    # fixes the Advantage the target spends on it.
    cas_cache: dict[tuple[int, bool], list[int]] = {}

    def cas_counts(left: int, reduced: bool) -> list[int]:
        key = (left, reduced)
        counts = cas_cache.get(key)
        if counts is None:
            adv = casualty_advantage_on(setup, start - left - 1)
            bonus = sum(p.value for p in casualty_parts(tgt.unit_type, left, excess, reduced, rules, adv))
            counts = [0] * len(STATES)
            for v in range(1, cas_die + 1):
                counts[STATES.index(casualty_state(v + bonus, rules))] += 1
            cas_cache[key] = counts
        return counts

    def losses(left: int, reduced: bool) -> dict[_State, int]:
        """From strength `left`, one damage that is not negated: {(left', worst'): ways} over cas_die**dmg,
        where worst' is relative to no earlier result (combined with the real worst by max)."""
        dist: dict[_State, int] = {(left, -1): 1}
        k = min(dmg, left)
        for j in range(1, k + 1):
            counts = cas_counts(left - j, reduced)
            nxt: dict[_State, int] = {}
            for (s, w), ways in dist.items():
                for idx, c in enumerate(counts):
                    if c:
                        key = (s - 1, max(w, idx))
                        nxt[key] = nxt.get(key, 0) + ways * c
            dist = nxt
        pad = cas_die ** (dmg - k)
        return {key: ways * pad for key, ways in dist.items()} if pad != 1 else dist

    step_den = DAMAGE_DIE * def_den * cas_die ** dmg
    none_factor = c_none * cas_die ** dmg
    loss_cache: dict[tuple[int, bool], dict[_State, int]] = {}

    def fold(states: dict[_State, int]) -> dict[_State, int]:
        out: dict[_State, int] = {}
        for (left, worst), ways in states.items():
            if none_factor:
                out[(left, worst)] = out.get((left, worst), 0) + ways * none_factor
            for reduced, c in ((True, c_red), (False, c_full)):
                if not c:
                    continue
                lk = (left, reduced)
                sub = loss_cache.get(lk)
                if sub is None:
                    sub = loss_cache[lk] = losses(left, reduced)
                for (nl, nw), sw in sub.items():
                    key = (nl, max(worst, nw))
                    out[key] = out.get(key, 0) + ways * c * sw
        return out

    # Fold damages one at a time; the states after h damages serve every hit count h.
    joint_num: dict[tuple[int, Result], int] = {}
    states: dict[_State, int] = {(start, -1): 1}
    for h in range(max_hits + 1):
        if h:
            states = fold(states)
        n = hits_count.get(h, 0)
        if not n:
            continue
        pad = step_den ** (max_hits - h) * n
        for (left, worst), ways in states.items():
            ws: UnitState | None = STATES[worst] if worst >= 0 else None
            result = final_result(h > 0, start - left, left, ws)
            key = (start - left, result)
            joint_num[key] = joint_num.get(key, 0) + ways * pad
    den = sides * step_den ** max_hits
    joint = {key: Fraction(num, den) for key, num in joint_num.items() if num}
    hits = {h: Fraction(n, sides) for h, n in sorted(hits_count.items())}
    notes = defence_notes(weapon, defences)
    if any(setup.casualty_advantage):
        each = ", ".join(f"+{a}" for a in setup.casualty_advantage)
        notes = (*notes, f"{tgt.name} spends Advantage on its casualty rolls ({each}, in the order rolled)")
    return Odds(ac, start, hits, joint, None, notes)


def monte_carlo(setup: AttackSetup, samples: int, rng: Rng) -> Odds:
    """An estimate of the same distribution by rolling `resolve_attack` `samples` times."""
    if samples < 1:
        raise ValueError("monte_carlo needs at least one sample")
    state = rng.state
    hits: dict[int, int] = {}
    joint: dict[tuple[int, Result], int] = {}
    ac = require_ac(setup)
    for _ in range(samples):
        roller = Roller(state)  # the core roller, one per sample (it keeps the dice it draws)
        res = resolve_attack(setup, roller.roll, ac)
        state = roller.rng_state
        hits[res.hits] = hits.get(res.hits, 0) + 1
        key = (res.strength_lost, res.result)
        joint[key] = joint.get(key, 0) + 1
    return Odds(
        ac, setup.target.strength,
        {h: Fraction(n, samples) for h, n in sorted(hits.items())},
        {k: Fraction(n, samples) for k, n in joint.items()},
        samples,
    )
