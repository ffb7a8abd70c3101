"""The battle planner: for each of a side's six manoeuvres against each of the enemy's six, the
exact chance of every result band and the expected casualties both ways.

The dice are binomial (each die a success with probability p), so the chance of each pair of
success counts is computed exactly and fed through the very `verdict` resolution uses; a
casualty range is uniform, so its expectation after mitigation is exact too. What the enemy
will pick is unknown: the planner assumes its strongest vanguard for each manoeuvre and no
stratagems, and uses only what `view(state, side)` shows (units, posts, scouting rolls).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb

from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import (
    STAT_OF,
    Play,
    SideFacts,
    build_pool,
    make_plays,
    orders_refusal,
    verdict,
)
from game.systems.campaign.rules.models import MANOEUVRES, Manoeuvre, RulesData
from game.systems.campaign.rules.state import CampaignState

OUTCOMES: tuple[str, ...] = ("win legendary", "win crushing", "win major", "win minor", "draw",
                             "lose minor", "lose major", "lose crushing", "lose legendary")
_BAND_WORD = {1: "minor", 2: "major", 3: "crushing", 4: "legendary"}


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    return tuple(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def expected_taken(lo: int, hi: int, extra: int, mitigation: int) -> float:
    """E[max(0, U{lo..hi} + extra - mitigation)] exactly."""
    n = hi - lo + 1
    return sum(max(0, c + extra - mitigation) for c in range(lo, hi + 1)) / n


@dataclass(frozen=True)
class Cell:
    mine: Manoeuvre
    theirs: Manoeuvre
    my_dice: int
    their_dice: int
    chances: dict[str, float]  # OUTCOMES -> probability (from my point of view)
    casualties_taken: float  # expected casualties on my side (from the tables)
    casualties_inflicted: float  # expected casualties on the enemy

    @property
    def win(self) -> float:
        return sum(v for k, v in self.chances.items() if k.startswith("win"))


def success_chance(rules: RulesData) -> float:
    d = rules.dice
    return (d.sides - d.success_on + 1) / d.sides


def best_vanguard(side: SideFacts, manoeuvre: Manoeuvre, last_stand: bool = False) -> str | None:
    stat = "defense" if (manoeuvre == "withdraw" and last_stand) else STAT_OF[manoeuvre]
    has_line = any(u.type.line for u in side.units)
    cands = [u for u in side.units if manoeuvre == "withdraw" or u.type.line or not has_line]
    if not cands:
        return None
    return max(cands, key=lambda u: (u.type.stat(stat), u.id)).id


def cell(rules: RulesData, me: SideFacts, my_man: Manoeuvre, my_str: tuple[str, ...], my_van: str,
         foe: SideFacts, their_man: Manoeuvre, their_str: tuple[str, ...], their_van: str,
         first_week: bool) -> Cell:
    """One cell of the planner, exact."""
    pm, pf = make_plays(me, my_man, my_str, my_van, foe, their_man, their_str, their_van)
    pool_m = build_pool(rules, me, pm, foe, pf, first_week)
    pool_f = build_pool(rules, foe, pf, me, pm, first_week)
    p = success_chance(rules)
    dm = binomial(pool_m.dice, p) if not pm.fled else (1.0,)
    df = binomial(pool_f.dice, p) if not pf.fled else (1.0,)
    chances = dict.fromkeys(OUTCOMES, 0.0)
    taken = inflicted = 0.0
    for sm, qm in enumerate(dm):
        for sf, qf in enumerate(df):
            q = qm * qf
            if q == 0.0:
                continue
            v = verdict(rules, pm, pf, sm + pool_m.bonus_successes, sf + pool_f.bonus_successes)
            chances[_label(v.band, v.winner, pm)] += q
            t_m, t_f = v.taken[pm.player], v.taken[pf.player]
            taken += q * expected_taken(t_m.lo, t_m.hi, t_m.extra, t_m.mitigation)
            inflicted += q * expected_taken(t_f.lo, t_f.hi, t_f.extra, t_f.mitigation)
    return Cell(my_man, their_man, pool_m.dice, pool_f.dice, chances, taken, inflicted)


def _label(band: int, winner: str | None, me: Play) -> str:
    if band == 0 or winner is None:
        return "draw"
    return ("win " if winner == me.player else "lose ") + _BAND_WORD[band]


@dataclass(frozen=True)
class Plan:
    battle: str
    player: str
    cells: tuple[Cell, ...]  # 36, mine-major order
    notes: tuple[str, ...]

    def at(self, mine: str, theirs: str) -> Cell:
        for c in self.cells:
            if c.mine == mine and c.theirs == theirs:
                return c
        raise KeyError((mine, theirs))


def plan(state: CampaignState, battle_id: str, player: str, stratagems: tuple[str, ...] = (),
         vanguard: str | None = None) -> Plan:
    """The 36-cell planner for `player` in a battle, from the state as that player sees it."""
    b = state.battles[battle_id]
    foe_id = b.sides[1] if b.sides[0] == player else b.sides[0]
    me, foe = side_facts(state, b, player), side_facts(state, b, foe_id)
    rules = state.cs.rules
    first = b.started_week == state.week
    notes: list[str] = ["The enemy is assumed to pick its strongest vanguard and no stratagems."]
    for side in (me, foe):  # characters' powers (operational-rules §7.12), in both pools below
        if side.gm_dice:
            notes.append(f"GM: {side.gm_dice:+d} dice for {state.player_name(side.player)} ({side.gm_dice_why}).")
    cells: list[Cell] = []
    for mine in MANOEUVRES:
        wants_last_stand = "last_stand" in stratagems and mine == "withdraw"
        van = vanguard if (vanguard and orders_refusal(rules, me, mine, (), vanguard) is None) else \
            best_vanguard(me, mine, wants_last_stand)
        if van is None:
            continue
        my_str = tuple(s for s in stratagems if orders_refusal(rules, me, mine, (s,), van) is None)
        for theirs in MANOEUVRES:
            tv = best_vanguard(foe, theirs)
            if tv is None:
                continue
            cells.append(cell(rules, me, mine, my_str, van, foe, theirs, (), tv, first))
    return Plan(battle_id, player, tuple(cells), tuple(notes))

