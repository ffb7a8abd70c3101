"""The battle planner: its exact figures against brute-force enumeration of every die and a
seeded Monte Carlo through `apply`; it works from the side's view only."""

from __future__ import annotations

import itertools

from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.combat import build_pool, verdict
from game.systems.campaign.rules.planner import OUTCOMES, _label, cell, expected_taken, plan
from tests.rules.campaign.campfix import facts, fight, kinds, plays, rules, to_orders, utype


def brute(am: str, bm: str, a, b) -> tuple[dict[str, float], float, float]:  # type: ignore[no-untyped-def]
    pa, pb = plays(a, am, b, bm)
    na = build_pool(rules(), a, pa, b, pb, True).dice
    nb = build_pool(rules(), b, pb, a, pa, True).dice
    chances = dict.fromkeys(OUTCOMES, 0.0)
    taken = inflicted = 0.0
    total = 10 ** (na + nb)
    for dice in itertools.product(range(1, 11), repeat=na + nb):
        sa = sum(1 for d in dice[:na] if d >= 6)
        sb = sum(1 for d in dice[na:] if d >= 6)
        v = verdict(rules(), pa, pb, sa, sb)
        chances[_label(v.band, v.winner, pa)] += 1 / total
        for side, acc in (("red", "t"), ("blue", "i")):
            t = v.taken[side]
            # every casualty value of the range, equally likely
            e = sum(max(0, c + t.extra - t.mitigation) for c in range(t.lo, t.hi + 1)) / (t.hi - t.lo + 1)
            if acc == "t":
                taken += e / total
            else:
                inflicted += e / total
    return chances, taken, inflicted


def test_planner_cells_match_brute_force_enumeration_of_every_die() -> None:
    a = facts("red", [("a1", utype(attack=2, defense=2, mobility=2)), ("a2", utype(attack=1, defense=1, mobility=1))])
    b = facts("blue", [("b1", utype(attack=2, defense=1, mobility=2))])
    for am, bm in [("attack", "defend"), ("shock_attack", "block"), ("withdraw", "skirmish"), ("defend", "attack")]:
        c = cell(rules(), a, am, (), "a1", b, bm, (), "b1", True)  # type: ignore[arg-type]
        chances, taken, inflicted = brute(am, bm, a, b)
        for k in OUTCOMES:
            assert abs(c.chances[k] - chances[k]) < 1e-12, (am, bm, k)
        assert abs(c.casualties_taken - taken) < 1e-12 and abs(c.casualties_inflicted - inflicted) < 1e-12
        assert abs(sum(c.chances.values()) - 1) < 1e-12


def test_expected_casualties_of_a_uniform_range_after_mitigation_are_exact() -> None:
    assert expected_taken(0, 1, 0, 0) == 0.5
    assert expected_taken(1, 5, 0, 2) == (0 + 0 + 1 + 2 + 3) / 5
    assert expected_taken(2, 2, 1, 0) == 3


def test_the_plan_has_thirty_six_cells_and_reads_only_the_sides_view() -> None:
    s = to_orders(["zone_rifle_division"] * 3, ["jibril_armoured_infantry"])
    s, _ = SYSTEM.apply(s, SYSTEM.parse_command({"kind": "orders", "player": "blue", "battle": "B1",
                                                  "manoeuvre": "block", "vanguard": "b.1"})).state, ()
    p_view = plan(SYSTEM.view(s, "red"), "B1", "red")
    p_full = plan(s, "B1", "red")
    assert len(p_view.cells) == 36
    assert p_view.cells == p_full.cells  # the enemy's sealed Block changes nothing


def test_planner_agrees_with_a_seeded_monte_carlo_through_apply() -> None:
    runs = 300
    want = plan(to_orders(["zone_rifle_division"] * 2, ["zone_rifle_division"]), "B1", "red").at("attack", "defend")
    counts = dict.fromkeys(OUTCOMES, 0)
    taken = 0
    for seed in range(runs):
        s = to_orders(["zone_rifle_division"] * 2, ["zone_rifle_division"], seed=seed)
        s, ev = fight(s, {"manoeuvre": "attack", "vanguard": "r.1"}, {"manoeuvre": "defend", "vanguard": "b.1"})
        r = kinds(ev, "result_read")[0]
        label = "draw" if r.winner is None else ("win " if r.winner == "red" else "lose ") + \
            {1: "minor", 2: "major", 3: "crushing", 4: "legendary"}[r.band]
        counts[label] += 1
        taken += next(c.count for c in kinds(ev, "casualties_placed") if c.player == "red")
    for k in OUTCOMES:
        p = want.chances[k]
        sd = (p * (1 - p) / runs) ** 0.5
        assert abs(counts[k] / runs - p) <= 4 * sd + 1e-9, (k, counts[k] / runs, p)
    assert abs(taken / runs - want.casualties_taken) < 0.25
