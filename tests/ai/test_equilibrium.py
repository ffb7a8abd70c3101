"""The equilibrium of a campaign battle's manoeuvre game (game/systems/campaign/rules/equilibrium.py):
the payoff is the planner's, the solution cannot be exploited (checked without the solver), it is
the same game for both sides, and it reads only the player's view."""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path
from typing import Any

import pytest

from game.systems.campaign.rules import SYSTEM, combat
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.equilibrium import (
    JUDGED_STRATAGEMS,
    TOLERANCE,
    cell_payoff,
    difference,
    equilibrium,
    expected_loss,
    exploitability,
    payoff_matrix,
    payoff_of,
    solve,
    strategies,
)
from game.systems.campaign.rules.planner import binomial, cell, expected_taken
from game.table import TABLE
from tests.rules.campaign.campfix import to_orders

MAPS = Path(__file__).resolve().parents[2] / "maps"


def _battle(**kw: Any) -> Any:
    return to_orders(["zone_rifle_division"] * 3, ["jibril_armoured_infantry"], **kw)


def test_closed_form_expected_loss_equals_the_planners_sum() -> None:
    for lo in range(0, 4):
        for hi in range(lo, lo + 5):
            for extra in range(0, 3):
                for mit in range(0, 5):
                    assert expected_loss(lo, hi, extra, mit) == pytest.approx(expected_taken(lo, hi, extra, mit), abs=1e-12)


def test_payoff_of_every_cell_is_the_planners_cell_payoff() -> None:
    s = _battle(red_general=3, blue_general=2)
    view = SYSTEM.view(s, "red")
    b = view.battles["B1"]
    me, foe = side_facts(view, b, "red"), side_facts(view, b, "blue")
    rules = view.cs.rules
    for r in strategies(rules, me):
        for c in strategies(rules, foe):
            planned = cell(rules, me, r.manoeuvre, r.stratagems, r.vanguard, foe, c.manoeuvre, c.stratagems,
                           c.vanguard, True)
            assert cell_payoff(rules, me, r, foe, c, True) == pytest.approx(payoff_of(planned), abs=1e-12)


def test_solve_finds_the_textbook_equilibria() -> None:
    # matching pennies: value 0, half and half
    x, y, v, gap, _ = solve([[1.0, -1.0], [-1.0, 1.0]])
    assert x == pytest.approx((0.5, 0.5)) and y == pytest.approx((0.5, 0.5)) and v == pytest.approx(0.0)
    assert gap <= TOLERANCE
    # rock, paper, scissors with a doubled win for rock: x = (1/4, 5/12, 1/3)
    x, y, v, gap, _ = solve([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    assert gap <= TOLERANCE and v == pytest.approx(1 / 12)
    # a saddle point: the pure strategies
    x, y, v, gap, _ = solve([[3.0, 5.0], [1.0, 2.0]])
    assert x == pytest.approx((1.0, 0.0)) and y == pytest.approx((1.0, 0.0)) and v == pytest.approx(3.0)


def test_exploitability_is_the_best_pure_replys_gain() -> None:
    a = [[1.0, -1.0], [-1.0, 1.0]]
    assert exploitability(a, (1.0, 0.0), (0.5, 0.5)) == pytest.approx(1.0)  # column 2 beats row 1 by 1
    assert exploitability(a, (0.5, 0.5), (0.5, 0.5)) == pytest.approx(0.0)


def test_random_games_are_solved_to_within_the_tolerance() -> None:
    rng = random.Random(32)
    for _ in range(30):
        m, n = rng.randint(1, 8), rng.randint(1, 8)
        a = [[rng.uniform(-5, 5) for _ in range(n)] for _ in range(m)]
        x, y, v, gap, _ = solve(a)
        assert gap <= TOLERANCE
        assert sum(x) == pytest.approx(1.0) and sum(y) == pytest.approx(1.0) and min(x) >= 0 and min(y) >= 0


def test_the_battle_is_one_zero_sum_game_seen_from_either_side() -> None:
    s = _battle(red_general=1, blue_general=1)
    red = equilibrium(SYSTEM.view(s, "red"), "B1", "red")
    blue = equilibrium(SYSTEM.view(s, "blue"), "B1", "blue")
    assert red.value == pytest.approx(-blue.value, abs=1e-9)
    assert red.exploitability <= TOLERANCE and blue.exploitability <= TOLERANCE
    assert red.mix == pytest.approx(blue.foe_mix, abs=1e-6)
    assert all(g >= 0 for g in red.gives_up)
    assert min(g for g, p in zip(red.gives_up, red.mix, strict=True) if p > 1e-6) == pytest.approx(0.0, abs=1e-9)
    summary = red.manoeuvre_summary()
    assert sum(p for p, _ in summary.values()) == pytest.approx(1.0)


def test_the_equilibrium_reads_only_the_players_view_not_the_enemys_sealed_orders() -> None:
    s = _battle()
    sealed = SYSTEM.apply(s, SYSTEM.parse_command({"kind": "orders", "player": "blue", "battle": "B1",
                                                   "manoeuvre": "block", "vanguard": "b.1"})).state
    before = equilibrium(SYSTEM.view(s, "red"), "B1", "red")
    after = equilibrium(SYSTEM.view(sealed, "red"), "B1", "red")
    assert before.mix == after.mix and before.value == after.value


def test_every_battle_of_the_teaching_campaign_script_has_an_unexploitable_equilibrium() -> None:
    plugin = TABLE.plugin_named("campaign")
    loaded = plugin.load(MAPS / "campaign" / "teaching.yaml")
    commands = plugin.read_script(MAPS / "campaign" / "teaching-commands.yaml", loaded)
    system = plugin.system
    state = system.initial_state(plugin.setup_of(loaded), loaded.seed)
    solved = 0
    for command in commands:
        if state.phase == "orders":
            for b in state.open_games():
                for player in b.sides:
                    e = equilibrium(system.view(state, player), b.id, player)
                    assert e.exploitability <= TOLERANCE, (state.week, b.id, player)
                    solved += 1
        state = system.apply(state, command).state
    assert solved >= 4


def test_the_stratagems_the_payoffs_group_by_are_exactly_those_the_judge_reads() -> None:
    # Payoffs keys a pair of plays by what `verdict` reads of them: a stratagem the judge asks
    # about and JUDGED_STRATAGEMS leaves out would merge plays with different verdicts.
    read: set[str] = set()
    for fn in (combat.judge, combat._draw, combat._cf, combat.with_delay):
        read |= set(re.findall(r'\.has\("(\w+)"\)', inspect.getsource(fn)))
    assert read == set(JUDGED_STRATAGEMS)


def test_the_difference_of_two_pools_is_the_sum_over_every_pair_of_success_counts() -> None:
    for nm in range(0, 7):
        for nf in range(0, 7):
            got = dict(difference(nm, nf, 0.5))
            want: dict[int, float] = {}
            for sm, qm in enumerate(binomial(nm, 0.5)):
                for sf, qf in enumerate(binomial(nf, 0.5)):
                    want[sm - sf] = want.get(sm - sf, 0.0) + qm * qf
            assert got.keys() == want.keys() and sum(got.values()) == pytest.approx(1.0, abs=1e-12)
            assert all(got[d] == pytest.approx(want[d], abs=1e-15) for d in want)


def test_every_payoff_and_value_of_every_teaching_battle_is_the_planners_with_stratagems_for_both_sides() -> None:
    plugin = TABLE.plugin_named("campaign")
    loaded = plugin.load(MAPS / "campaign" / "teaching.yaml")
    commands = plugin.read_script(MAPS / "campaign" / "teaching-commands.yaml", loaded)
    system = plugin.system
    state = system.initial_state(plugin.setup_of(loaded), loaded.seed)
    seen: set[tuple[int, str, str]] = set()
    cells = 0
    for command in commands:
        if state.phase == "orders":
            for b in state.open_games():
                for player in b.sides:
                    if (state.week, b.id, player) in seen:
                        continue
                    seen.add((state.week, b.id, player))
                    view = system.view(state, player)
                    vb = view.battles[b.id]
                    foe_id = vb.sides[1] if vb.sides[0] == player else vb.sides[0]
                    me, foe = side_facts(view, vb, player), side_facts(view, vb, foe_id)
                    rules, first = view.cs.rules, vb.started_week == view.week
                    rows, cols = strategies(rules, me), strategies(rules, foe)
                    a = payoff_matrix(rules, me, foe, rows, cols, first)
                    planned = [[payoff_of(cell(rules, me, r.manoeuvre, r.stratagems, r.vanguard, foe, c.manoeuvre,
                                               c.stratagems, c.vanguard, first)) for c in cols] for r in rows]
                    for i, r in enumerate(rows):
                        for j, c in enumerate(cols):
                            assert a[i][j] == pytest.approx(planned[i][j], abs=1e-12), (b.id, r, c)
                            cells += 1
                    value = equilibrium(view, b.id, player).value
                    assert value == pytest.approx(solve(planned)[2], abs=1e-9)
        state = system.apply(state, command).state
    assert len(seen) >= 4 and cells >= 400
