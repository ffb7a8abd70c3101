"""The equilibrium of a campaign battle's manoeuvre game (issue 32; docs/ai.md).

Both sides seal their orders at once, so a battle fought by the tables is a two-player game: each
side picks a manoeuvre (with its strongest vanguard for it, and, where it is eligible, one
stratagem), and the planner (planner.cell) gives the exact chance of every result band and the
expected casualties both ways for every pair. With a payoff that is one side's gain and the
other's loss, the game has a value and optimal mixed strategies (von Neumann), found here as a
linear program (scipy.optimize.linprog, the HiGHS solver; scipy is imported only when an
equilibrium is asked for).

Payoff to the side whose view it is [decision, docs/ai.md "The campaign's payoff"]:

    expected casualties inflicted - expected casualties taken
    + BAND_WORTH x (the expected band of victory: +1..+4 for a minor..legendary win, -1..-4 for a
      loss, 0 for a draw): the worth of pushing the enemy back, or of getting away.

It is antisymmetric (what one side gains the other loses), so the battle is zero-sum.

The answer is checked without the solver: `exploitability` is what the best pure reply gains
against the equilibrium, each side's in turn (max over rows of A.y minus min over columns of x.A,
summed in plain Python); it is at most `TOLERANCE` for an equilibrium. When the solver's answer
falls short, the mixes are polished on their support by an exact rational solve (fractions) and
checked again.

Everything is from the state the caller passes: `equilibrium(view, battle, player)` with the
player's view (game.core.ai) is what that player may know.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import (
    Play,
    SideFacts,
    build_pool,
    make_plays,
    orders_refusal,
    verdict,
)
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, MANOEUVRES, Manoeuvre, RulesData, display_name
from game.systems.campaign.rules.planner import Cell, best_vanguard, binomial, success_chance
from game.systems.campaign.rules.state import CampaignState

BAND_WORTH = 1.0  # one band of victory is worth one casualty [decision]
TOLERANCE = 1e-9  # the most the best pure reply may gain against an equilibrium
_BANDS = {"minor": 1, "major": 2, "crushing": 3, "legendary": 4}


@dataclass(frozen=True)
class Strategy:
    """One way to seal orders: a manoeuvre, its vanguard and the stratagems declared with it."""

    manoeuvre: Manoeuvre
    vanguard: str
    stratagems: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        name = MANOEUVRE_NAMES[self.manoeuvre]
        if self.stratagems:
            name += " + " + ", ".join(display_name(s) for s in self.stratagems)
        return name


@dataclass(frozen=True)
class Equilibrium:
    """A battle's manoeuvre game solved for `player` against `foe`.

    rows / cols: the two sides' strategies; payoff[i][j] the payoff to `player` (see the module);
    mix / foe_mix: the equilibrium's chances of each strategy; value: the battle's value to
    `player` (what it can guarantee on average); gives_up[i]: how much strategy i gives up
    against the foe's equilibrium mix (value - its payoff there; 0 for a strategy in the mix);
    exploitability: the best pure reply's gain against the pair (checked without the solver)."""

    battle: str
    player: str
    foe: str
    rows: tuple[Strategy, ...]
    cols: tuple[Strategy, ...]
    payoff: tuple[tuple[float, ...], ...]
    mix: tuple[float, ...]
    foe_mix: tuple[float, ...]
    value: float
    gives_up: tuple[float, ...]
    exploitability: float
    polished: bool  # the exact rational polish was needed

    def best_rows(self, least: float = 1e-6) -> list[tuple[Strategy, float]]:
        """The strategies the equilibrium plays, most likely first."""
        return sorted(((s, p) for s, p in zip(self.rows, self.mix, strict=True) if p > least), key=lambda sp: -sp[1])

    def manoeuvre_summary(self) -> dict[str, tuple[float, float]]:
        """Per manoeuvre: (its total chance in the mix, the least it gives up with any of its
        stratagem choices), for the planner screen."""
        out: dict[str, tuple[float, float]] = {}
        for s, p, g in zip(self.rows, self.mix, self.gives_up, strict=True):
            chance, gives = out.get(s.manoeuvre, (0.0, math.inf))
            out[s.manoeuvre] = (chance + p, min(gives, g))
        return out


def payoff_of(c: Cell) -> float:
    """The payoff of one planner cell to its own side (the module's [decision])."""
    band = 0.0
    for k, v in c.chances.items():
        if k == "draw":
            continue
        word, size = k.split(" ", 1)
        band += v * _BANDS[size] * (1 if word == "win" else -1)
    return c.casualties_inflicted - c.casualties_taken + BAND_WORTH * band


def strategies(rules: RulesData, side: SideFacts, *, with_stratagems: bool = True) -> list[Strategy]:
    """A side's strategies: each manoeuvre with its strongest vanguard, alone and with each
    single stratagem it may declare with it (as far as the orders do not need a hex chosen)."""
    out: list[Strategy] = []
    for m in MANOEUVRES:
        van = best_vanguard(side, m)
        if van is None or orders_refusal(rules, side, m, (), van) is not None:
            continue
        out.append(Strategy(m, van))
        if not with_stratagems:
            continue
        for name in sorted(rules.stratagems):
            if name in _NEEDS_A_HEX:
                continue
            if orders_refusal(rules, side, m, (name,), van) is None:
                out.append(Strategy(m, van, (name,)))
    return out


# Stratagems whose orders name a hex (where to flee or break through): their worth depends on the
# map, not on the battle's tables; the equilibrium leaves them to the player. [decision]
_NEEDS_A_HEX = frozenset({"flee", "breakthrough"})


def payoff_matrix(rules: RulesData, me: SideFacts, foe: SideFacts, rows: list[Strategy], cols: list[Strategy],
                  first_week: bool) -> list[list[float]]:
    """Every cell's `cell_payoff`, sharing the work the cells have in common (see `Payoffs`)."""
    payoffs = Payoffs(rules, me, foe, first_week)
    return [[payoffs.cell(r, c) for c in cols] for r in rows]


def expected_loss(lo: int, hi: int, extra: int, mitigation: int) -> float:
    """E[max(0, U{lo..hi} + extra - mitigation)] in closed form (planner.expected_taken sums it)."""
    k = extra - mitigation
    start = max(lo, 1 - k)  # the first casualty value that leaves something after mitigation
    if start > hi:
        return 0.0
    count = hi - start + 1
    return ((start + hi) * count / 2 + k * count) / (hi - lo + 1)


# The stratagems `verdict` reads (combat.judge, _draw, _cf and with_delay ask `Play.has` for these
# and no other; tests/ai/test_equilibrium.py holds this set to that source). The others act on the
# dice pools or on how a play reads (make_plays), which the plays and pools already carry.
JUDGED_STRATAGEMS = frozenset({"breakthrough", "continuous_front", "delay", "encirclement", "guerrilla",
                               "hammer_and_anvil", "hold_the_line", "last_stand", "raid"})


@lru_cache(maxsize=4096)
def difference(n_mine: int, n_theirs: int, p: float) -> tuple[tuple[int, float], ...]:
    """The exact chance of each difference of successes (mine - theirs) of two binomial pools,
    the differences with a chance of 0 left out."""
    out: dict[int, float] = {}
    for sm, qm in enumerate(binomial(n_mine, p)):
        for sf, qf in enumerate(binomial(n_theirs, p)):
            q = qm * qf
            if q != 0.0:
                out[sm - sf] = out.get(sm - sf, 0.0) + q
    return tuple(sorted(out.items()))


def _delays(play: Play) -> bool:
    """Whether `verdict` reads this play's successes themselves (a Delay halves them), not only
    the difference of the two sides' successes."""
    return play.plays_as == "block" and play.has("delay")


class Payoffs:
    """`cell_payoff` for the cells of one battle, with what the cells share computed once.

    `verdict` depends on the two plays only through what the judge reads of them (who, how they
    play and read, the general's level, whether they fled, and the JUDGED_STRATAGEMS among
    theirs), and on the successes only through their difference, plus each side's own
    successes when it blocks with a Delay. So the payoff of a pair of successes is kept by that
    key, and a cell is the sum over its differences of successes (exact binomial chances) of
    those payoffs: the same sum `planner.cell` makes pair by pair, grouped."""

    def __init__(self, rules: RulesData, me: SideFacts, foe: SideFacts, first_week: bool) -> None:
        self.rules, self.me, self.foe, self.first_week = rules, me, foe, first_week
        self.p = success_chance(rules)
        self._gains: dict[tuple[int, ...], float] = {}
        self._judged: dict[tuple[Any, ...], tuple[int, Play]] = {}

    def cell(self, mine: Strategy, theirs: Strategy) -> float:
        rules, me, foe = self.rules, self.me, self.foe
        pm, pf = make_plays(me, mine.manoeuvre, mine.stratagems, mine.vanguard,
                            foe, theirs.manoeuvre, theirs.stratagems, theirs.vanguard)
        pool_m = build_pool(rules, me, pm, foe, pf, self.first_week)
        pool_f = build_pool(rules, foe, pf, me, pm, self.first_week)
        (im, jm), (jf_i, jf) = self._as_judged(pm), self._as_judged(pf)
        nm = 0 if pm.fled else pool_m.dice
        nf = 0 if pf.fled else pool_f.dice
        bm, bf = pool_m.bonus_successes, pool_f.bonus_successes
        gains = self._gains
        total = 0.0
        if not (_delays(pm) or _delays(pf)):
            for d, q in difference(nm, nf, self.p):
                diff = d + bm - bf
                key: tuple[int, ...] = (im, jf_i, diff)
                gain = gains.get(key)
                if gain is None:
                    gain = gains[key] = self._gain(jm, jf, diff if diff > 0 else 0, -diff if diff < 0 else 0)
                total += q * gain
            return total
        half_m, half_f = _delays(pm), _delays(pf)
        for sm, qm in enumerate(binomial(nm, self.p)):
            for sf, qf in enumerate(binomial(nf, self.p)):
                q = qm * qf
                if q == 0.0:
                    continue
                sa, sb = sm + bm, sf + bf
                key = (im, jf_i, sa - sb, sa // 2 if half_m else -1, sb // 2 if half_f else -1)
                gain = gains.get(key)
                if gain is None:
                    gain = gains[key] = self._gain(jm, jf, sa, sb)
                total += q * gain
        return total

    def _as_judged(self, play: Play) -> tuple[int, Play]:
        """The play with only what `verdict` reads of it, and its number: one per distinct reading."""
        key = (play.player, play.plays_as, play.reads_as, play.stratagems & JUDGED_STRATAGEMS, play.general_level,
               play.fled)
        judged = self._judged.get(key)
        if judged is None:
            judged = self._judged[key] = (len(self._judged), Play(play.player, play.plays_as, play.plays_as,
                                                                  play.reads_as, key[3], play.general_level, "",
                                                                  play.fled))
        return judged

    def _gain(self, pm: Play, pf: Play, sa: int, sb: int) -> float:
        v = verdict(self.rules, pm, pf, sa, sb)
        t_m, t_f = v.taken[pm.player], v.taken[pf.player]
        gain = (expected_loss(t_f.lo, t_f.hi, t_f.extra, t_f.mitigation)
                - expected_loss(t_m.lo, t_m.hi, t_m.extra, t_m.mitigation))
        if v.band and v.winner is not None:
            gain += BAND_WORTH * v.band * (1 if v.winner == pm.player else -1)
        return gain


def cell_payoff(rules: RulesData, me: SideFacts, mine: Strategy, foe: SideFacts, theirs: Strategy,
                first_week: bool) -> float:
    """`payoff_of(planner.cell(...))` computed the same way (the same plays, pools and `verdict`),
    with the expected casualties in closed form and the pairs of success counts grouped by what
    `verdict` reads of them (`Payoffs`). Tests hold it equal to the planner."""
    return Payoffs(rules, me, foe, first_week).cell(mine, theirs)


def exploitability(a: list[list[float]] | tuple[tuple[float, ...], ...], x: tuple[float, ...],
                   y: tuple[float, ...]) -> float:
    """The best pure reply's gain against the pair (x, y), in plain arithmetic: the row player's
    best row against y minus the column player's best column against x. 0 at an equilibrium."""
    rows = [math.fsum(a[i][j] * y[j] for j in range(len(y))) for i in range(len(x))]
    cols = [math.fsum(a[i][j] * x[i] for i in range(len(x))) for j in range(len(y))]
    return max(rows) - min(cols)


def _solve_lp(a: list[list[float]]) -> tuple[tuple[float, ...], float]:
    """The row player's optimal mix and the value: max v s.t. x.A >= v for every column.

    (The program's dual would give the column player's mix too, but where the game has more than
    one optimal mix it is not always the one the column player's own program finds, and the
    planner shows that one; the second program costs about 3 ms.)"""
    # import seam: scipy takes about 0.6 s to import; only a process that asks for an equilibrium pays it
    from scipy.optimize import linprog

    m, n = len(a), len(a[0])
    c = [0.0] * m + [-1.0]
    a_ub = [[-a[i][j] for i in range(m)] + [1.0] for j in range(n)]
    res = linprog(c, A_ub=a_ub, b_ub=[0.0] * n, A_eq=[[1.0] * m + [0.0]], b_eq=[1.0],
                  bounds=[(0.0, None)] * m + [(None, None)], method="highs")
    if res.status != 0:
        raise ArithmeticError(f"the linear program of the manoeuvre game failed: {res.message}")
    x = [max(0.0, float(v)) for v in res.x[:m]]
    total = math.fsum(x)
    return tuple(v / total for v in x), float(res.x[m])


def _polish(a: list[list[float]], x: tuple[float, ...], y: tuple[float, ...]) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """The equilibrium made exact on the supports the solver found: solve, in fractions, for the
    mixes that make every strategy in the other side's support equally good. None when the
    supports do not give a square, regular system."""
    rs = [i for i, p in enumerate(x) if p > 1e-9]
    cs = [j for j, q in enumerate(y) if q > 1e-9]
    if len(rs) != len(cs):
        return None
    fa = [[Fraction(a[i][j]) for j in cs] for i in rs]
    k = len(rs)
    # unknowns y_cs and v: sum_j A[i][j] y_j - v = 0 (i in rs), sum y = 1
    ys = _exact_solve([row + [Fraction(-1)] for row in fa] + [[Fraction(1)] * k + [Fraction(0)]],
                      [Fraction(0)] * k + [Fraction(1)])
    xs = _exact_solve([[fa[i][j] for i in range(k)] + [Fraction(-1)] for j in range(k)] + [[Fraction(1)] * k + [Fraction(0)]],
                      [Fraction(0)] * k + [Fraction(1)])
    if ys is None or xs is None or min(ys[:k]) < 0 or min(xs[:k]) < 0:
        return None
    nx, ny = [0.0] * len(x), [0.0] * len(y)
    for i, v in zip(rs, xs[:k], strict=True):
        nx[i] = float(v)
    for j, v in zip(cs, ys[:k], strict=True):
        ny[j] = float(v)
    return tuple(nx), tuple(ny)


def _exact_solve(m: list[list[Fraction]], b: list[Fraction]) -> list[Fraction] | None:
    n = len(m)
    rows = [r[:] + [v] for r, v in zip(m, b, strict=True)]
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        p = rows[col][col]
        rows[col] = [v / p for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [rows[r][n] for r in range(n)]


def solve(a: list[list[float]]) -> tuple[tuple[float, ...], tuple[float, ...], float, float, bool]:
    """(row mix, column mix, value, exploitability, polished) of the zero-sum game A (payoffs to
    the row player)."""
    x, _ = _solve_lp(a)
    y, _ = _solve_lp([[-a[i][j] for i in range(len(a))] for j in range(len(a[0]))])
    gap = exploitability(a, x, y)
    polished = False
    if gap > TOLERANCE:
        better = _polish(a, x, y)
        if better is not None and exploitability(a, *better) < gap:
            x, y = better
            gap = exploitability(a, x, y)
            polished = True
    value = math.fsum(a[i][j] * x[i] * y[j] for i in range(len(x)) for j in range(len(y)))
    return x, y, value, gap, polished


def equilibrium(state: CampaignState, battle_id: str, player: str, *, with_stratagems: bool = True) -> Equilibrium:
    """The equilibrium of an open battle for `player` (pass the player's view: what it may know)."""
    b = state.battles.get(battle_id)
    if b is None or b.over:
        raise KeyError(f"there is no open battle {battle_id}")
    if player not in b.sides:
        raise KeyError(f"{player} does not fight in battle {battle_id}")
    foe_id = b.sides[1] if b.sides[0] == player else b.sides[0]
    rules = state.cs.rules
    me, foe = side_facts(state, b, player), side_facts(state, b, foe_id)
    rows = strategies(rules, me, with_stratagems=with_stratagems)
    cols = strategies(rules, foe, with_stratagems=with_stratagems)
    if not rows or not cols:
        raise ValueError(f"battle {battle_id}: a side has no orders it may give")
    a = payoff_matrix(rules, me, foe, rows, cols, b.started_week == state.week)
    x, y, value, gap, polished = solve(a)
    against = [math.fsum(a[i][j] * y[j] for j in range(len(cols))) for i in range(len(rows))]
    best = max(against)
    gives = tuple(max(0.0, best - g) for g in against)
    return Equilibrium(battle_id, player, foe_id, tuple(rows), tuple(cols), tuple(tuple(r) for r in a), x, y, value,
                       gives, gap, polished)
