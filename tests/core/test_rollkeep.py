"""Roll-and-keep dice: the Ten Dice Rule, exact tables against published figures and against
icepool (an independent exact library, a test dependency), rolling with chains, and exact odds
against seeded Monte Carlo."""

from __future__ import annotations

import icepool
import pytest

from game.core import rollkeep as rk
from game.core.dice import Rng
from game.core.roller import Roller


def test_one_exploding_d10_averages_55_over_9() -> None:
    assert rk.mean(rk.table(1, 1)) == pytest.approx(55 / 9, abs=1e-9)


@pytest.mark.parametrize(("x", "y", "target", "published"), [
    (6, 3, 25, 0.5158), (5, 2, 20, 0.3657), (10, 5, 40, 0.6528), (10, 10, 60, 0.5090)])
def test_published_chances_to_four_decimals(x: int, y: int, target: int, published: float) -> None:
    # 5k2 >= 20 is exactly 0.36565 (icepool agrees), published rounded half up as 0.3657
    assert abs(rk.at_least(rk.table(x, y), target) - published) <= 0.00005 + 1e-9


@pytest.mark.parametrize(("asked", "expected"), [
    ((12, 4, 0), (10, 5, 0)), ((13, 9, 0), (10, 10, 2)), ((10, 12, 0), (10, 10, 4)), ((14, 12, 0), (10, 10, 12))])
def test_ten_dice_rule_conversions(asked: tuple[int, int, int], expected: tuple[int, int, int]) -> None:
    p = rk.Pool.of(*asked)
    assert (p.rolled, p.kept, p.bonus) == expected
    assert p.conversion() == f"{asked[0]}k{asked[1]} -> {expected[0]}k{expected[1]}" + (
        f"+{expected[2]}" if expected[2] else "")


def test_odd_rolled_die_over_ten_is_dropped_while_fewer_than_ten_are_kept() -> None:
    p = rk.Pool.of(11, 4)
    assert (p.rolled, p.kept, p.bonus, p.dropped) == (10, 4, 0, 1)
    assert "dropped" in p.conversion()


def test_kept_never_exceeds_rolled_and_an_empty_pool_rolls_zero() -> None:
    assert (rk.Pool.of(4, 6).rolled, rk.Pool.of(4, 6).kept) == (4, 4)
    assert rk.distribution(rk.Pool.of(0, 0)) == {0: 1.0}
    assert rk.distribution(rk.Pool.of(-2, -1)) == {0: 1.0}


def test_skill_pool_adds_bonuses_and_penalties_before_rolling_and_unskilled_does_not_explode() -> None:
    p = rk.skill_pool(4, 4, add_rolled=2 - 1, add_kept=2)
    assert (p.rolled, p.kept, p.explode) == (9, 6, True)
    u = rk.skill_pool(0, 3)
    assert (u.rolled, u.kept, u.explode) == (3, 3, False)
    assert max(rk.distribution(u)) == 30


def _icepool_table(x: int, y: int, explode: bool) -> dict[int, float]:
    die = icepool.d10.explode(depth=14) if explode else icepool.d10
    d = die.pool(x).highest(y).sum()
    return {int(o): float(p) for o, p in zip(d.outcomes(), d.probabilities(), strict=True)}


@pytest.mark.parametrize(("x", "y"), [(1, 1), (3, 2), (5, 2), (6, 3), (7, 7), (8, 1), (10, 4)])
@pytest.mark.parametrize("explode", [True, False])
def test_exact_tables_match_icepool(x: int, y: int, explode: bool) -> None:
    mine = rk.table(x, y, explode=explode)
    theirs = _icepool_table(x, y, explode)
    for total in set(mine) | set(theirs):
        assert mine.get(total, 0.0) == pytest.approx(theirs.get(total, 0.0), abs=1e-11), total


def test_truncation_leaves_out_less_than_one_in_a_trillion_for_every_table() -> None:
    for x in range(1, 11):
        for y in range(1, x + 1):
            assert rk.lost_mass(rk.Pool.of(x, y)) < 1e-12, (x, y)


def test_rolling_keeps_every_chain_and_the_highest_chains() -> None:
    roller = Roller(Rng.from_seed(1).state, [10, 10, 3, 4, 9, 2])
    r = rk.roll_pool(roller, rk.Pool.of(4, 2), "test")
    assert r.chains == ((10, 10, 3), (4,), (9,), (2,))
    assert r.kept_index == (0, 2)
    assert r.total == 23 + 9
    assert r.chain_text(0) == "10+10+3"
    assert r.forced


def test_unskilled_rolls_do_not_explode_when_rolled() -> None:
    roller = Roller(Rng.from_seed(1).state, [10, 10])
    r = rk.roll_pool(roller, rk.Pool.of(2, 1, explode=False), "test")
    assert r.chains == ((10,), (10,)) and r.total == 10


def test_bonus_is_added_to_the_kept_dice() -> None:
    roller = Roller(Rng.from_seed(1).state, [5, 5, 5, 5, 5, 5, 5, 5, 5, 5])
    r = rk.roll_pool(roller, rk.Pool.of(13, 9), "test")
    assert r.total == 50 + 2


def test_seeded_rolls_follow_the_exact_distribution() -> None:
    pool = rk.Pool.of(6, 3)
    exact = rk.at_least(rk.distribution(pool), 25)
    roller = Roller(Rng.from_seed(99).state)
    n = 20000
    hits = sum(rk.roll_pool(roller, pool, "mc").total >= 25 for _ in range(n))
    sigma = (exact * (1 - exact) / n) ** 0.5
    assert abs(hits / n - exact) < 4 * sigma


def test_opposed_odds_condition_on_no_tie_and_cap_raises() -> None:
    a, b = rk.table(3, 2), rk.table(3, 2)
    co = rk.contest_odds([a, b], [2, 2])
    assert co.win[0] == pytest.approx(0.5, abs=1e-12)
    assert max(co.raises[0]) == 2
    assert sum(co.raises[0].values()) == pytest.approx(co.win[0])
    m = rk.margin(a, b)
    assert sum(m.values()) == pytest.approx(1.0)
    tie = m[0]
    assert co.win[0] == pytest.approx(sum(p for v, p in m.items() if v > 0) / (1 - tie))


def test_three_way_contest_chances_sum_to_one() -> None:
    co = rk.contest_odds([rk.table(5, 3), rk.table(4, 2), rk.table(6, 2)], [3, 3, 3])
    assert sum(co.win) == pytest.approx(1.0)
    assert co.win[0] > co.win[1]


def test_percentile_is_the_luck_of_a_total() -> None:
    d = rk.table(1, 1, explode=False)
    assert rk.percentile(d, 1) == pytest.approx(0.05)
    assert rk.percentile(d, 10) == pytest.approx(0.95)


def test_success_odds_against_a_target_number() -> None:
    d = rk.table(1, 1, explode=False)
    so = rk.success_odds(d, 5, 1)
    assert sum(so.values()) == pytest.approx(0.6)
    assert so[1] == pytest.approx(0.1)  # only a 10 beats 5 by a full 5
