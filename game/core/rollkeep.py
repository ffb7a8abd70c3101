"""Roll-and-keep dice (XkY): pools, the Ten Dice Rule, exact distributions, rolling, Raises.

Pure: no I/O, no global random, no clock. Shared by any rule system of the roll-and-keep family
(the mass battles in `game.systems.mass.rules` are the first).

    pool = Pool.of(7, 6, bonus=0)          # 7k6 (Ten Dice Rule applied: Pool.of(12, 4) is 10k5)
    dist = distribution(pool)               # exact: {total: probability}
    roll = roll_pool(roller, pool, "Battle")  # dice from game.core.roller.Roller, chains kept

Exact method (no sampling; see docs/mass-battle.md "The dice maths"):

* A die that explodes is 10*T + R: T tens rolled before a face R in 1..9. Of X dice, j show a 10
  on their first roll (binomial, p = 1/10). Those j dice outrank every other die, so
  - when j >= Y, the kept Y are all among them: 10*Y plus the top Y of j fresh exploding dice
    (the same table one size smaller, or the same table again when j = X: a geometric series);
  - when j < Y, all j are kept (10*j plus the sum of j exploding dice, itself 10*NegBin + the sum
    of j faces 1..9) and the other Y - j kept dice are the top Y - j of X - j faces 1..9.
  Only small non-exploding keep tables and a few convolutions are needed.
* Truncation: totals above a cap are dropped. The cap is 10*m + 9*Y with m the least number of
  tens such that P(X dice roll more than m tens in all) < 1e-13 (a total above the cap needs more
  than m kept tens). The dropped mass is that small tail; `lost_mass` reports it per table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import comb

from game.core.roller import Roller

MAX_DICE = 10
TRUNCATION = 1e-12
_FACE = 0.1


# --------------------------------------------------------------------------- pools and the Ten Dice Rule

@dataclass(frozen=True)
class Pool:
    """A pool after the Ten Dice Rule: roll `rolled`, keep `kept`, add `bonus`."""

    rolled: int
    kept: int
    bonus: int = 0
    explode: bool = True
    asked: tuple[int, int] = (0, 0)   # the pool before the Ten Dice Rule (after bonuses/penalties)
    dropped: int = 0                  # an odd rolled die lost to the Ten Dice Rule

    @staticmethod
    def of(rolled: int, kept: int, bonus: int = 0, *, explode: bool = True) -> Pool:
        r, k = max(0, rolled), max(0, kept)
        b, dropped = bonus, 0
        extra_k = max(0, k - MAX_DICE)
        k = min(k, MAX_DICE)
        extra_r = max(0, r - MAX_DICE)
        r = min(r, MAX_DICE)
        while extra_r >= 2 and k < MAX_DICE:
            extra_r -= 2
            k += 1
        if k < MAX_DICE:
            dropped, extra_r = extra_r, 0
        b += 2 * extra_r + 2 * extra_k
        k = min(k, r)
        return Pool(r, k, b, explode, (max(0, rolled), max(0, kept)), dropped)

    @property
    def converted(self) -> bool:
        return self.asked != (self.rolled, self.kept) or self.dropped > 0

    def _rule_bonus(self) -> int:
        """The +2s the Ten Dice Rule added (recomputed from the pool as asked)."""
        return Pool._rule_only(*self.asked)

    @staticmethod
    def _rule_only(rolled: int, kept: int) -> int:
        extra_k = max(0, kept - MAX_DICE)
        k = min(kept, MAX_DICE)
        extra_r = max(0, rolled - MAX_DICE)
        while extra_r >= 2 and k < MAX_DICE:
            extra_r -= 2
            k += 1
        if k < MAX_DICE:
            extra_r = 0
        return 2 * extra_r + 2 * extra_k

    def text(self) -> str:
        base = f"{self.rolled}k{self.kept}"
        if self.bonus:
            base += f"{self.bonus:+d}"
        return base if self.explode else base + " (no explosions)"

    def conversion(self) -> str:
        """'13k9 -> 10k10+2' when the Ten Dice Rule changed the pool, else ''."""
        if not self.converted:
            return ""
        note = f"{self.asked[0]}k{self.asked[1]} -> {self.rolled}k{self.kept}"
        rb = self._rule_bonus()
        if rb:
            note += f"+{rb}"
        if self.dropped:
            note += " (one rolled die dropped)"
        return note


def skill_pool(skill: int, trait: int, *, add_rolled: int = 0, add_kept: int = 0, bonus: int = 0,
               explode: bool | None = None) -> Pool:
    """Skill/Trait as (skill + trait)k(trait), with bonuses (+) and penalties (-) before rolling.
    A skill of 0 is an unskilled roll: no explosions (unless `explode` says otherwise)."""
    ex = skill > 0 if explode is None else explode
    return Pool.of(skill + trait + add_rolled, trait + add_kept, bonus, explode=ex)


# --------------------------------------------------------------------------- exact distributions

Dist = dict[int, float]


def _tens_cap(dice: int) -> int:
    """Least m with P(`dice` exploding dice roll more than m tens in all) < TRUNCATION."""
    if dice <= 0:
        return 0
    tail, m = 1.0, 0
    while True:
        # P(total tens == m) for a negative binomial: C(m + n - 1, n - 1) 0.9^n 0.1^m
        tail -= comb(m + dice - 1, dice - 1) * (0.9 ** dice) * (0.1 ** m)
        if tail < TRUNCATION / 10:  # a tenth, so float rounding cannot push it over
            return m
        m += 1


def cap_for(rolled: int, kept: int) -> int:
    return 10 * _tens_cap(rolled) + 9 * kept


def _conv(a: Sequence[float], b: Sequence[float], cap: int) -> list[float]:
    """Convolution of two lists indexed by total, cut at `cap` (inclusive)."""
    n = min(cap + 1, len(a) + len(b) - 1)
    out = [0.0] * n
    if len(b) > len(a):
        a, b = b, a
    for j, bj in enumerate(b):
        if bj == 0.0 or j >= n:
            continue
        seg = a[: n - j]
        for i, ai in enumerate(seg, j):
            out[i] += ai * bj
    return out


def _shift_add(out: list[float], src: Sequence[float], shift: int, weight: float) -> None:
    n = len(out)
    for i, v in enumerate(src):
        t = i + shift
        if t >= n:
            break
        out[t] += v * weight


@cache
def _plain_keep(dice: int, keep: int, faces: int) -> tuple[float, ...]:
    """Top `keep` of `dice` uniform faces 1..faces, no explosions: index = total."""
    keep = min(keep, dice)
    if dice == 0 or keep == 0:
        return (1.0,)
    # DP from the highest face down: state (dice placed, kept total) -> probability weight
    p = 1.0 / faces
    states: dict[tuple[int, int], float] = {(0, 0): 1.0}
    remaining_mass = 1.0
    for face in range(faces, 0, -1):
        q = p / remaining_mass  # chance a die below the faces already placed shows this face
        nxt: dict[tuple[int, int], float] = {}
        for (n, s), w in states.items():
            left = dice - n
            if face == 1:
                ks: range = range(left, left + 1)
            else:
                ks = range(0, left + 1)
            for k in ks:
                if face == 1:
                    pk = 1.0
                else:
                    pk = comb(left, k) * q ** k * (1 - q) ** (left - k)
                if pk == 0.0:
                    continue
                take = min(k, max(0, keep - n))
                key = (n + k, s + take * face)
                nxt[key] = nxt.get(key, 0.0) + w * pk
        states = nxt
        remaining_mass -= p
    top = keep * faces
    out = [0.0] * (top + 1)
    for (_n, s), w in states.items():
        out[s] += w
    return tuple(out)


@cache
def _sum_exploding(j: int, cap: int) -> tuple[float, ...]:
    """Sum of j exploding d10s, cut at cap: 10 * (tens) + (sum of j faces 1..9)."""
    if j == 0:
        return (1.0,)
    faces = _plain_sum(j, 9)
    out = [0.0] * (cap + 1)
    base = 0.9 ** j
    m = 0
    while 10 * m + j <= cap:
        w = comb(m + j - 1, j - 1) * base * (0.1 ** m)
        _shift_add(out, faces, 10 * m, w)
        m += 1
    return tuple(out)


@cache
def _plain_sum(dice: int, faces: int) -> tuple[float, ...]:
    out: list[float] = [1.0]
    one = [0.0] + [1.0 / faces] * faces
    for _ in range(dice):
        out = _conv(out, one, dice * faces)
    return tuple(out)


@cache
def _explode_keep(dice: int, keep: int, cap: int) -> tuple[float, ...]:
    keep = min(keep, dice)
    if dice == 0 or keep == 0:
        return (1.0,)
    out = [0.0] * (cap + 1)
    self_weight = 0.0
    for j in range(dice + 1):
        w = comb(dice, j) * (_FACE ** j) * ((1 - _FACE) ** (dice - j))
        if j >= keep:
            if j == dice:
                self_weight = w
                continue
            _shift_add(out, _explode_keep(j, keep, cap), 10 * keep, w)
        else:
            part = _conv(_sum_exploding(j, cap), _plain_keep(dice - j, keep - j, 9), cap)
            _shift_add(out, part, 10 * j, w)
    # K = A + c * shift(K, 10*keep): K = sum over n of c^n shift^n(A)
    if self_weight:
        total = list(out)
        term = list(out)
        while True:
            moved = [0.0] * (cap + 1)
            _shift_add(moved, term, 10 * keep, self_weight)
            if not any(moved):
                break
            term = moved
            total = [a + b for a, b in zip(total, term, strict=True)]
        out = total
    return tuple(out)


@cache
def _table(rolled: int, kept: int, explode: bool) -> tuple[float, ...]:
    if explode:
        return _explode_keep(rolled, kept, cap_for(rolled, kept))
    return _plain_keep(rolled, kept, 10)


def distribution(pool: Pool) -> Dist:
    """Exact distribution of the pool's total: {total: probability} (zero entries left out)."""
    table = _table(pool.rolled, pool.kept, pool.explode)
    return {i + pool.bonus: p for i, p in enumerate(table) if p > 0.0}


def lost_mass(pool: Pool) -> float:
    """The probability the truncation left out (0 for pools that do not explode)."""
    return max(0.0, 1.0 - sum(_table(pool.rolled, pool.kept, pool.explode)))


def table(rolled: int, kept: int, *, explode: bool = True) -> Dist:
    """The exact XkY table for X, Y <= 10 (no Ten Dice Rule, no bonus)."""
    return distribution(Pool(rolled, min(kept, rolled), 0, explode, (rolled, kept)))


def mean(dist: Mapping[int, float]) -> float:
    return sum(v * p for v, p in dist.items())


def at_least(dist: Mapping[int, float], target: int) -> float:
    return sum(p for v, p in dist.items() if v >= target)


def percentile(dist: Mapping[int, float], value: int) -> float:
    """Where `value` falls in `dist`, 0..1: P(below) + half of P(equal) (the luck figure)."""
    below = sum(p for v, p in dist.items() if v < value)
    return below + 0.5 * dist.get(value, 0.0)


def margin(a: Mapping[int, float], b: Mapping[int, float]) -> Dist:
    """Distribution of (a's total - b's total)."""
    out: Dist = {}
    for x, px in a.items():
        for y, py in b.items():
            out[x - y] = out.get(x - y, 0.0) + px * py
    return out


def raises_of(margin_points: int, cap: int, step: int = 5) -> int:
    return max(0, min(cap, margin_points // step))


@dataclass(frozen=True)
class ContestOdds:
    """Chance of each roller winning (ties re-rolled) and of each number of Raises when it does."""

    win: tuple[float, ...]
    raises: tuple[dict[int, float], ...]   # per roller: {raises: P(win with that many)}

    @staticmethod
    def of_unique_wins(wins: Sequence[float], raises: Sequence[Mapping[int, float]]) -> ContestOdds:
        """The odds given each roller's chance of a unique win (and by how many Raises): ties are
        re-rolled, so each is divided by their sum (all even when nobody can win outright)."""
        n = len(wins)
        unique = sum(wins)
        if unique <= 0.0:
            return ContestOdds(tuple(1.0 / n for _ in range(n)), tuple({0: 1.0 / n} for _ in range(n)))
        return ContestOdds(tuple(w / unique for w in wins),
                           tuple({r: p / unique for r, p in sorted(d.items())} for d in raises))


def contest_odds(dists: Sequence[Mapping[int, float]], raise_caps: Sequence[int], step: int = 5) -> ContestOdds:
    """Several rollers, highest total wins, Raises by the margin over the runner-up, a tie for the
    top re-rolled (so the chances are conditioned on a single top total)."""
    n = len(dists)
    if n == 1:
        return ContestOdds((1.0,), ({0: 1.0},))
    wins: list[float] = []
    raises: list[dict[int, float]] = []
    for i in range(n):
        others = [d for j, d in enumerate(dists) if j != i]
        best = _max_of(others)
        by_raise: dict[int, float] = {}
        total = 0.0
        for x, px in dists[i].items():
            for y, py in best.items():
                if x > y:
                    r = raises_of(x - y, raise_caps[i], step)
                    by_raise[r] = by_raise.get(r, 0.0) + px * py
                    total += px * py
        wins.append(total)
        raises.append(by_raise)
    return ContestOdds.of_unique_wins(wins, raises)


def _max_of(dists: Sequence[Mapping[int, float]]) -> Dist:
    values = sorted({v for d in dists for v in d})
    cdfs = []
    for d in dists:
        acc, c = 0.0, {}
        for v in values:
            acc += d.get(v, 0.0)
            c[v] = acc
        cdfs.append(c)
    out: Dist = {}
    prev = 0.0
    for v in values:
        prod = 1.0
        for c in cdfs:
            prod *= c[v]
        out[v] = prod - prev
        prev = prod
    return out


def success_odds(dist: Mapping[int, float], tn: int, raise_cap: int, step: int = 5) -> dict[int, float]:
    """Against a target number: {raises: P} for successes (failure is 1 - the sum)."""
    out: dict[int, float] = {}
    for v, p in dist.items():
        if v >= tn:
            r = raises_of(v - tn, raise_cap, step)
            out[r] = out.get(r, 0.0) + p
    return dict(sorted(out.items()))


# --------------------------------------------------------------------------- rolling

@dataclass(frozen=True)
class RolledPool:
    """One roll as it happened: every die's chain (10+10+3 is [10, 10, 3]), which were kept."""

    pool: Pool
    chains: tuple[tuple[int, ...], ...]
    kept_index: tuple[int, ...]
    total: int
    forced: bool = False
    faces: tuple[int, ...] = field(default=())

    def chain_text(self, i: int) -> str:
        return "+".join(str(v) for v in self.chains[i])


def roll_pool(roller: Roller, pool: Pool, purpose: str) -> RolledPool:
    """Roll the pool with the game's roller (GM-forced values first): each 10 explodes into
    another die added to the same chain unless the pool does not explode."""
    chains: list[tuple[int, ...]] = []
    start = len(roller.dice)
    for _ in range(pool.rolled):
        chain = [roller.roll(10, purpose)]
        while pool.explode and chain[-1] == 10:
            chain.append(roller.roll(10, purpose))
        chains.append(tuple(chain))
    order = sorted(range(len(chains)), key=lambda i: (-sum(chains[i]), i))
    kept = tuple(sorted(order[: pool.kept]))
    total = sum(sum(chains[i]) for i in kept) + pool.bonus
    drawn = roller.dice[start:]
    return RolledPool(pool, tuple(chains), kept, total, any(d.forced for d in drawn),
                      tuple(d.value for d in drawn))
