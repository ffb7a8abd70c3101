"""Computer players for the campaign (issue 32; how they decide: docs/ai.md "The campaign power").

A power played by the computer sees the campaign through `SYSTEM.view(state, power)` only
(game.core.ai.choose) and uses the rules' own queries: `legal_commands`, `reach` (the movement
preview), `side_facts`, and the battle's equilibrium (rules/equilibrium.py), by which it seals
its orders: it draws its manoeuvre (and stratagem) from the equilibrium mix with its own seeded
generator, so no reply can exploit it, and no one can read its orders from its position.

The worth of a fight [decision]: the value of the battle's equilibrium for the forces as they
would meet, a battle not yet begun (`Judge`): their alive units, the Generals with them (a power
names its Generals in its post, so they fight), the terrain of the hex where they would meet. In
casualties: what it expects to inflict less what it expects to take, plus the expected band of
victory (the same payoff its orders are drawn from). The 6x6 manoeuvre game for moving; hard
declares by the game with stratagems. Each new fight weighed spends its cells of the work budget.

Each phase [decision]:
- movement: each army in turn goes where it does most good, the sum of: a strike (moving onto an
  enemy army: the fight's value less EDGE; joining its side's battle: what its forces gain),
  the best target (an enemy army it beats by at least EDGE: that value x DECAY for each week's
  march still to go; half for an army faster than it, half for one fighting another power,
  to be awaited beside the battle), threats (enemy armies that beat it and can reach the hex:
  what that fight would cost), a pull toward its largest other army when it has no target
  (JOIN per movement point), and a General left without an army within the pick-up range
  (ORPHAN). A move is made when it gains at least MOVE_GAIN; the turn ends when none does.
  Easy: distances in hexes, an enemy stack threatens the hexes within its movement points, and
  only armies already in a hex fight together. Hard: distances by the cheapest path, a power's
  stacks threaten together the hexes they can reach next (`reach`), and its own armies that have
  not moved and can reach a hex this week count as joining a strike or an advance there.
- declare: fight where the fight's value is at least 0 (hard: with stratagems).
- pickup: the General's move that adds most value (the battle its new army fights, else the fight
  with the nearest enemy army), less what its old army loses; none when nothing gains.
- narrative: one short line about the battle, with its Generals present named (so they fight),
  and nothing that gives its orders away.
- orders: the equilibrium's mix (easy: the 6x6 manoeuvre game; hard: stratagems included when the
  game's cells fit the work budget left and the 6x6 game took under a tenth of the time budget).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# The equilibrium's solver (scipy, about 0.6 s to import) loads with the computer players (this
# module loads only when a seat is given to the computer), not in a power's first decision.
import scipy.optimize  # noqa: F401

from game.core.ai import Budget, Decision, RandomPlayer
from game.core.system import RuleSystem, counted
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.combat import SideFacts, UnitFacts
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GiveOrders,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.engine import (
    active_player,
    entry_cost,
    held_in_battle,
    movement_points,
    reach,
)
from game.systems.campaign.rules.equilibrium import Strategy, equilibrium, payoff_matrix, solve, strategies
from game.systems.campaign.rules.hexes import adjacent, hex_distance
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, Coord
from game.systems.campaign.rules.queries import legal_commands
from game.systems.campaign.rules.score import pairs
from game.systems.campaign.rules.state import ArmyState, CampaignState, hex_key

LEVELS = ("random", "easy", "hard")
EDGE = 0.25  # the least value (casualties) of a fight it seeks out: a strike, a target
DECAY = 0.8  # a target's worth for each week's march still to go (its movement points; easy: hexes)
JOIN = 0.05  # per movement point (easy: per hex) nearer to its largest other army, with no target alone
ORPHAN = 0.3  # x (level + 1) of a General without an army, ending within the pick-up range of it
FASTER = 0.5  # of a target's value, when its armies have more movement points than the army
BESIDE = 0.5  # of a target's value, when it fights another power (it cannot be joined, only awaited)
MOVE_GAIN = 0.02  # the least gain worth a move
PICKUP_GAIN = 0.01  # the least gain worth a General's pick-up move

# One side of a fight as the judge keys it: owner, alive units, Generals, armies, locked, difficult
SideKey = tuple[str, tuple[str, ...], tuple[str, ...], int, bool, bool]


def side_of_command(state: CampaignState, command: Any) -> str | None:
    player = getattr(command, "player", None)
    if isinstance(player, str):
        return player
    if isinstance(command, MoveArmy):
        a = state.armies.get(command.army)
        return a.owner if a else None
    if isinstance(command, Pickup):
        g = state.generals.get(command.general)
        return g.owner if g else None
    if isinstance(command, EndTurn):
        return active_player(state)
    return None


def commands_of(system: RuleSystem, view: CampaignState, side: str) -> list[Any]:
    return [c for c in legal_commands(view) if side_of_command(view, c) == side]


def army_strength(state: CampaignState, army: ArmyState) -> float:
    """The sum of the army's alive units' Attack and Defence (a rough size, for ties and joining)."""
    total = 0.0
    for uid in state.alive_units(army.id):
        t = state.unit_type(uid)
        total += t.attack + t.defense
    return total


class Judge:
    """The worth of fights not yet begun, for one decision (the module's [decision]).

    `cache` is the player's, kept across decisions (a value is a function of its key alone); each
    key weighed in this decision spends its cells of the budget once, cached or not, so a decision
    is the same whatever was weighed before. Once the work budget is spent a new fight is not
    weighed (None)."""

    def __init__(self, state: CampaignState, cache: dict[Any, tuple[float, int]], budget: Budget, *,
                 stratagems: bool) -> None:
        self.state = state
        self.cache = cache
        self.budget = budget
        self.stratagems = stratagems
        self.seen: set[Any] = set()

    def side(self, owner: str, armies: Iterable[str], at: Coord, generals: Iterable[str] | None = None) -> SideKey:
        """One side of a fight at `at`: those armies, with their Generals (or `generals`)."""
        s = self.state
        ids = tuple(sorted(set(armies)))
        units = tuple(u for a in ids for u in s.alive_units(a))
        if generals is None:
            generals = (g.id for g in s.generals.values() if g.owner == owner and g.army in ids)
        terrain = s.cs.rules.terrain.get(s.cs.map.terrain.get(at, ""))
        locked = any(s.armies[a].locked_week >= s.week for a in ids)
        return owner, units, tuple(sorted(set(generals))), len(ids), locked, bool(terrain and terrain.difficult)

    def facts(self, key: SideKey) -> SideFacts:
        owner, units, gens, armies, locked, difficult = key
        s = self.state
        gs = [s.generals[g] for g in gens]
        return SideFacts(owner, tuple(UnitFacts(u, s.unit_type(u)) for u in units),
                         max((g.level for g in gs), default=0), frozenset(t for g in gs for t in g.traits),
                         armies, 0, locked, difficult)

    def value(self, me: SideKey, foe: SideKey) -> float | None:
        """The fight's value to `me` (casualties); None when it cannot be weighed (a side with no
        unit or no orders it may give, or the work budget spent)."""
        if not me[1] or not foe[1]:
            return None
        key = (me, foe, self.stratagems)
        if key not in self.seen:
            if self.budget.used >= self.budget.work:
                return None
            got = self.cache.get(key)
            if got is None:
                rules = self.state.cs.rules
                a, b = self.facts(me), self.facts(foe)
                rows = strategies(rules, a, with_stratagems=self.stratagems)
                cols = strategies(rules, b, with_stratagems=self.stratagems)
                if not rows or not cols:
                    got = (math.nan, 1)
                else:
                    got = (solve(payoff_matrix(rules, a, b, rows, cols, True))[2], len(rows) * len(cols))
                self.cache[key] = got
            self.seen.add(key)
            self.budget.spend(got[1])
        v = self.cache[key][0]
        return None if math.isnan(v) else v


@dataclass(frozen=True)
class Stack:
    """One power's armies in one hex, outside any battle (or all of one side of a battle)."""

    owner: str
    hex: Coord
    armies: tuple[str, ...]
    battle: str | None = None

    def name(self, state: CampaignState) -> str:
        return " and ".join(state.army_name(a) for a in self.armies)


@dataclass(frozen=True)
class Score:
    """What ending a move in a hex is worth, term by term (the module's movement [decision])."""

    strike: float = 0.0
    target: float = 0.0
    threat: float = 0.0
    join: float = 0.0
    orphan: float = 0.0
    strike_why: str = ""
    target_why: str = ""
    threat_why: str = ""

    @property
    def total(self) -> float:
        return self.strike + self.target - self.threat + self.join + self.orphan


def _alive_armies(state: CampaignState) -> list[ArmyState]:
    return [a for a in state.armies.values() if state.alive_units(a.id)]


def enemy_stacks(state: CampaignState, side: str) -> list[Stack]:
    """The other powers' armies, by owner and hex (an army in a battle with its battle's side)."""
    groups: dict[tuple[str, Coord, str | None], list[str]] = {}
    for a in _alive_armies(state):
        if a.owner != side:
            groups.setdefault((a.owner, a.hex, a.battle), []).append(a.id)
    order = sorted(groups, key=lambda k: (k[0], k[1], k[2] or ""))
    return [Stack(k[0], k[1], tuple(sorted(groups[k])), k[2]) for k in order]


class Plan:
    """One movement decision's view of the island: the enemy stacks, the distances, who can reach
    where (hard), and each hex's worth for each army (`score`)."""

    def __init__(self, player: CampaignPlayer, state: CampaignState, side: str, judge: Judge,
                 movable: list[str]) -> None:
        self.p = player
        self.s = state
        self.side = side
        self.j = judge
        self.hard = player.level == "hard"
        self.stacks = enemy_stacks(state, side)
        self.reach = {aid: reach(state, aid) for aid in movable}
        self.movable = movable
        self.mine = [a for a in _alive_armies(state) if a.owner == side]
        # hard: the hexes each enemy stack can reach next (its armies free to move)
        self.enemy_reach: dict[Stack, set[Coord]] = {}
        self.enemy_mp: dict[Stack, int] = {}
        for st in self.stacks:
            free = [state.armies[a] for a in st.armies if not held_in_battle(state, state.armies[a])]
            self.enemy_mp[st] = max((movement_points(state, a) for a in free), default=0)
            if self.hard:
                self.enemy_reach[st] = {h for a in free for h in reach(state, a.id)}
        self.orphans = [g for g in state.generals.values() if g.owner == side and g.army is None]
        self.battles = {b.id: b for b in state.open_games() if side in b.sides}

    # ------------------------------------------------------------ distances
    def distance(self, a: Coord, b: Coord) -> float:
        """Movement points from a to b by the cheapest path (easy: hexes); inf when no path."""
        if not self.hard:
            return float(hex_distance(self.s.cs.map, a, b))
        return self.p.cost_to(self.s, b).get(a, math.inf)

    # ------------------------------------------------------------ who fights where
    def friends_at(self, h: Coord, aid: str) -> list[str]:
        """The side's other armies in hex h outside any battle."""
        return [a.id for a in self.mine if a.hex == h and a.id != aid and a.battle is None]

    def followers(self, h: Coord, aid: str) -> list[str]:
        """Hard: the side's other armies that have not moved and can reach h this week."""
        if not self.hard:
            return []
        return [f for f in self.movable if f != aid and h in self.reach[f]]

    def fight(self, mine: Iterable[str], foe: Stack, at: Coord) -> float | None:
        return self.j.value(self.j.side(self.side, mine, at), self.j.side(foe.owner, foe.armies, at))

    def battle_gain(self, b_id: str, extra: Iterable[str]) -> float | None:
        """What the side's forces in its battle gain from `extra` armies joining them."""
        b = self.battles[b_id]
        foe = b.sides[1] if b.sides[0] == self.side else b.sides[0]
        forces = [a.id for a in self.s.forces(b, self.side)]
        theirs = Stack(foe, b.hex, tuple(a.id for a in self.s.forces(b, foe)), b.id)
        with_ = self.fight([*forces, *extra], theirs, b.hex)
        without = self.fight(forces, theirs, b.hex)
        if with_ is None or without is None:
            return None
        return with_ - without

    # ------------------------------------------------------------ a hex's worth
    def score(self, aid: str, h: Coord) -> Score | None:
        """What army `aid` ending its move in h is worth; None where it may not go to good purpose
        (held back by another powers' battle or caught between two other powers)."""
        s = self.s
        army = s.armies[aid]
        here = [aid, *self.friends_at(h, aid)]
        lead = here + [f for f in self.followers(h, aid) if f not in here]
        strike, strike_why = 0.0, ""
        b = s.battle_at(h)
        if b is not None:
            if b.id not in self.battles:
                return None
            if army.battle == b.id:  # a battle that does not hold it this week: staying fights on
                strike, strike_why = self._battle_value(b.id) or 0.0, f"stays in its battle at {h[0]},{h[1]}"
            else:
                g = self.battle_gain(b.id, lead)
                if g is None:
                    return None
                strike, strike_why = g, f"joins its battle at {h[0]},{h[1]} (worth {_balance(g)})"
        else:
            owners = {a.owner for a in s.armies_at(h) if a.owner != self.side and s.alive_units(a.id)}
            if len(owners) > 1:
                return None
            if owners:
                foe = next(st for st in self.stacks if st.hex == h and st.battle is None)
                v = self.fight(lead, foe, h)
                if v is None:
                    return None
                strike, strike_why = v - EDGE, f"onto {foe.name(s)} (the fight: {_balance(v)})"
        # the best target still to reach
        target, target_why = 0.0, ""
        speed = max(1, movement_points(s, army))
        for st in self.stacks:  # (one in h counts too, nothing left to go: striking it is worth it twice)
            weight = 1.0
            if st.battle in self.battles:
                v = self.battle_gain(st.battle, lead)
            else:
                v = self.fight(lead, st, st.hex)
                if st.battle is not None:  # another powers' battle: to wait beside it for its end
                    weight = BESIDE
                elif self.enemy_mp[st] > speed:  # an army faster than this one may get away
                    weight = FASTER
            if v is None or v < EDGE:
                continue
            t = v * weight * DECAY ** (self.distance(h, st.hex) / speed)
            if t > target:
                target, target_why = t, f"toward {st.name(s)} (the fight: {_balance(v)})"
        # threats: enemy stacks that beat what stands in h and can reach it (hard: a power's
        # stacks that can all reach it, together)
        coming: dict[str, list[Stack]] = {}
        for st in self.stacks:
            if st.hex == h or self.enemy_mp[st] == 0:
                continue
            if self.hard:
                if h not in self.enemy_reach[st]:
                    continue
            elif hex_distance(s.cs.map, st.hex, h) > self.enemy_mp[st]:
                continue
            coming.setdefault(st.owner if self.hard else f"{st.owner} {st.hex}", []).append(st)
        threat, worst, threat_why = 0.0, 0.0, ""
        for sts in coming.values():
            foe = Stack(sts[0].owner, h, tuple(a for st in sts for a in st.armies))
            v = self.fight(here, foe, h)
            if v is not None and v < 0:
                threat -= v
                if -v > worst:
                    worst, threat_why = -v, f"{foe.name(s)} (the fight: {_balance(v)})"
        join = 0.0
        if not self.p.has_target(self, aid):
            others = [a for a in self.mine if a.id != aid]
            if others:
                big = max(others, key=lambda a: (len(s.alive_units(a.id)), army_strength(s, a), a.id))
                d = self.distance(h, big.hex)
                if math.isfinite(d):
                    join = -JOIN * d
        rng = s.cs.rules.movement.pickup_range
        orphan = sum(ORPHAN * (g.level + 1) for g in self.orphans if hex_distance(s.cs.map, h, g.hex) <= rng)
        return Score(strike, target, threat, join, orphan, strike_why, target_why, threat_why)

    def _battle_value(self, b_id: str) -> float | None:
        b = self.battles[b_id]
        foe = b.sides[1] if b.sides[0] == self.side else b.sides[0]
        theirs = Stack(foe, b.hex, tuple(a.id for a in self.s.forces(b, foe)), b.id)
        return self.fight([a.id for a in self.s.forces(b, self.side)], theirs, b.hex)


def _balance(value: float) -> str:
    """A fight's worth in a why line, with its unit: the battle's payoff (docs/ai.md), in casualties
    a week, those inflicted less those taken (a band of victory counts one)."""
    return f"{value:+.2f} casualties on balance"


def why_move(s: CampaignState, aid: str, to: Score, here: Score, at: Coord) -> str:
    """The term that gained most, as one line (without the army and the hex: the move itself,
    "move Lowmarch Rifle Corps to 15,26", stands beside its why wherever it is shown)."""
    terms = [
        (to.strike - here.strike, to.strike_why),
        (here.threat - to.threat, f"away from {here.threat_why or 'a stronger army'}"),
        (to.target - here.target, to.target_why),
        (to.join - here.join, "toward its largest other army (no fight it can win alone)"),
        (to.orphan - here.orphan, "within reach of a General without an army"),
    ]
    gain, text = max(((g, t) for g, t in terms if t), key=lambda t: t[0], default=(0.0, "a better place"))
    return f"{text}; gains {to.total - here.total:+.2f} in all"


class CampaignPlayer:
    """The easy and hard campaign powers (docs/ai.md)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in ("easy", "hard"):
            raise ValueError(f"no campaign computer level {level!r} (easy, hard)")
        self.level = level
        self.rng = rng
        self._setup: Any = None
        self._values: dict[Any, tuple[float, int]] = {}  # Judge's, per set-up
        self._costs: dict[Coord, dict[Coord, float]] = {}  # movement points to a hex, per set-up
        self._targets: dict[str, bool] = {}  # per movement decision: army -> has a target alone

    def _fresh(self, state: CampaignState) -> None:
        if self._setup is not state.setup:
            self._setup = state.setup
            self._values = {}
            self._costs = {}

    def judge(self, state: CampaignState, budget: Budget, *, stratagems: bool = False) -> Judge:
        self._fresh(state)
        return Judge(state, self._values, budget, stratagems=stratagems)

    def cost_to(self, state: CampaignState, target: Coord) -> dict[Coord, float]:
        """Movement points from each hex to `target` by the cheapest path (terrain only; a
        function of the map, kept for the game)."""
        self._fresh(state)
        got = self._costs.get(target)
        if got is not None:
            return got
        m = state.cs.map
        dist: dict[Coord, float] = {target: 0.0}
        heap: list[tuple[float, Coord]] = [(0.0, target)]
        while heap:
            d, at = heapq.heappop(heap)
            if d > dist.get(at, math.inf):
                continue
            step = entry_cost(state, at)
            if step is None:
                continue
            for nb in adjacent(m, at):
                if entry_cost(state, nb) is None:
                    continue
                nd = d + step  # moving from nb into `at` costs `at`'s terrain
                if nd < dist.get(nb, math.inf):
                    dist[nb] = nd
                    heapq.heappush(heap, (nd, nb))
        self._costs[target] = dist
        return dist

    def has_target(self, plan: Plan, aid: str) -> bool:
        """Whether army `aid`, with the armies that stand (hard: or can come) with it, beats some
        enemy stack by EDGE (kept for the decision)."""
        got = self._targets.get(aid)
        if got is None:
            h = plan.s.armies[aid].hex
            lead = [aid, *plan.friends_at(h, aid), *plan.followers(h, aid)]
            got = False
            for st in plan.stacks:
                v = plan.battle_gain(st.battle, lead) if st.battle in plan.battles else (
                    None if st.battle else plan.fight(lead, st, st.hex))
                if v is not None and v >= EDGE:
                    got = True
                    break
            self._targets[aid] = got
        return got

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        state: CampaignState = view
        cmds = commands_of(system, state, side)
        if not cmds:
            raise ValueError(f"no legal command for {side!r}")
        if state.phase == "movement":
            return self._movement(state, side, cmds, budget)
        if state.phase == "declare":
            return self._declare(state, side, cmds, budget)
        if state.phase == "pickup":
            return self._pickup(state, side, cmds, budget)
        if state.phase == "narrative":
            return self._narrative(state, side, cmds, budget)
        if state.phase == "orders":
            return self._orders(system, state, side, cmds, budget)
        return Decision(cmds[0], "the only command")

    # ---------------------------------------------------------------- movement
    def _movement(self, state: CampaignState, side: str, cmds: list[Any], budget: Budget) -> Decision:
        end = next(c for c in cmds if isinstance(c, EndTurn))
        movable = sorted({c.army for c in cmds if isinstance(c, MoveArmy)})
        best: tuple[float, Any, str] = (MOVE_GAIN, end, "no army has a move worth making")
        if not movable:
            return Decision(end, "no army left that may move")
        self._targets = {}
        plan = Plan(self, state, side, self.judge(state, budget), movable)
        for aid in movable:
            army = state.armies[aid]
            if not state.alive_units(aid):
                continue
            here = plan.score(aid, army.hex)
            if here is None:
                continue
            for h, entry in sorted(plan.reach[aid].items()):
                if h == army.hex or not entry.path:
                    continue
                to = plan.score(aid, h)
                if to is None:
                    continue
                gain = to.total - here.total
                if gain > best[0]:
                    best = (gain, MoveArmy(army=aid, path=entry.path), why_move(state, aid, to, here, h))
        return Decision(best[1], best[2])

    # ---------------------------------------------------------------- declare, pickup, narrative
    def _declare(self, state: CampaignState, side: str, cmds: list[Any], budget: Budget) -> Decision:
        c = next(c for c in cmds if isinstance(c, Declare))
        at = c.hex
        others = [p for p in state.declarations.get(hex_key(at), {}) if p != side]
        foe = others[0] if others else next(a.owner for a in state.armies_at(at) if a.owner != side)
        j = self.judge(state, budget, stratagems=self.level == "hard")
        mine = [a.id for a in state.armies_at(at) if a.owner == side and state.alive_units(a.id)]
        theirs = [a.id for a in state.armies_at(at) if a.owner == foe and state.alive_units(a.id)]
        v = j.value(j.side(side, mine, at), j.side(foe, theirs, at))
        fight = v is not None and v >= 0.0
        pick = next(x for x in cmds if isinstance(x, Declare) and x.hex == at and x.fight == fight)
        worth = "cannot be weighed" if v is None else f"worth {_balance(v)}"
        return Decision(pick, f"{'fight' if fight else 'decline'} at {at[0]},{at[1]} against "
                              f"{state.player_name(foe)}: the fight is {worth}")

    def _army_worth(self, state: CampaignState, j: Judge, aid: str, generals: list[str]) -> float:
        """What army `aid` with `generals` is worth in its battle, else against the nearest enemy
        stack (0 when it cannot be weighed)."""
        army = state.armies[aid]
        side = army.owner
        if army.battle and army.battle in state.battles and not state.battles[army.battle].over:
            b = state.battles[army.battle]
            foe = b.sides[1] if b.sides[0] == side else b.sides[0]
            forces = [a.id for a in state.forces(b, side)]
            others = [g.id for g in state.generals.values()
                      if g.owner == side and g.army in forces and g.army != aid]
            v = j.value(j.side(side, forces, b.hex, [*others, *generals]),
                        j.side(foe, [a.id for a in state.forces(b, foe)], b.hex))
            return v or 0.0
        stacks = [st for st in enemy_stacks(state, side) if st.battle is None]
        if not stacks or not state.alive_units(aid):
            return 0.0
        m = state.cs.map
        near = min(stacks, key=lambda st: (hex_distance(m, army.hex, st.hex), st.owner, st.hex))
        v = j.value(j.side(side, [aid], near.hex, generals), j.side(near.owner, near.armies, near.hex))
        return v or 0.0

    def _pickup(self, state: CampaignState, side: str, cmds: list[Any], budget: Budget) -> Decision:
        end = next(c for c in cmds if isinstance(c, EndTurn))
        picks = [c for c in cmds if isinstance(c, Pickup)]
        if not picks:
            return Decision(end, "no General to pick up")
        j = self.judge(state, budget)

        def with_(aid: str) -> list[str]:
            return [g.id for g in state.generals.values() if g.army == aid]

        best: tuple[float, Any, str] = (PICKUP_GAIN, end, "no General's move adds to a fight")
        for c in sorted(picks, key=lambda c: (c.general, c.army)):
            g = state.generals[c.general]
            gain = self._army_worth(state, j, c.army, [*with_(c.army), g.id]) \
                - self._army_worth(state, j, c.army, with_(c.army))
            if g.army is not None and g.army in state.armies:
                old = with_(g.army)
                gain += self._army_worth(state, j, g.army, [x for x in old if x != g.id]) \
                    - self._army_worth(state, j, g.army, old)
            if gain > best[0]:
                best = (gain, c, f"{g.name} joins {state.army_name(c.army)}: its fight gains {_balance(gain)}")
        return Decision(best[1], best[2])

    def _narrative(self, state: CampaignState, side: str, cmds: list[Any], budget: Budget) -> Decision:
        posted = {(p.player, p.battle) for p in state.posts if p.week == state.week}
        j = self.judge(state, budget)
        for c in cmds:
            if isinstance(c, WritePost) and (side, c.battle) not in posted:
                b = state.battles[c.battle]
                foe = b.sides[1] if b.sides[0] == side else b.sides[0]
                v = j.value(j.side(side, [a.id for a in state.forces(b, side)], b.hex),
                            j.side(foe, [a.id for a in state.forces(b, foe)], b.hex))
                mood = ("steady" if v is None or abs(v) < EDGE else "confident" if v > 0 else "wary")
                text = (f"{state.player_says(side, 'stands')} {mood} at {b.hex[0]},{b.hex[1]} against "
                        f"{state.player_name(foe)}, week {state.week}.")
                post = c.model_copy(update={"text": text})
                return Decision(post, f"posts about battle {c.battle}, naming {counted(len(c.generals), 'General', 'Generals')}")
        done = next(c for c in cmds if isinstance(c, NarrativeDone))
        return Decision(done, "every battle has its post")

    # ---------------------------------------------------------------- orders
    def _orders(self, system: RuleSystem, state: CampaignState, side: str, cmds: list[Any], budget: Budget) -> Decision:
        battle = next(c.battle for c in cmds if isinstance(c, GiveOrders))
        eq = equilibrium(state, battle, side, with_stratagems=False)
        budget.spend(len(eq.rows) * len(eq.cols))
        if self.level == "hard":
            # stratagems too, when the game's cells fit the work left and the 6x6 game took less
            # than a tenth of the time budget (a big game is a few hundred cells: a few tenths of a second)
            b = state.battles[battle]
            rules = state.cs.rules
            rows = strategies(rules, side_facts(state, b, side))
            cols = strategies(rules, side_facts(state, b, eq.foe))
            if len(rows) * len(cols) <= budget.work - budget.used and budget.elapsed() < budget.seconds / 10:
                eq = equilibrium(state, battle, side, with_stratagems=True)
                budget.spend(len(rows) * len(cols))
        ranked = eq.best_rows(least=0.0)
        r = self.rng.random()
        pick: Strategy | None = None
        acc = 0.0
        for s, p in ranked:
            acc += p
            if r < acc:
                pick = s
                break
        if pick is None:
            pick = ranked[0][0]
        tries = [pick] + [s for s, _ in ranked if s != pick]
        mix = ", ".join(f"{s.label} {p:.0%}" for s, p in ranked[:3] if p > 0.005)
        for s in tries:
            order = GiveOrders(player=side, battle=battle, manoeuvre=s.manoeuvre, vanguard=s.vanguard,
                               stratagems=s.stratagems)
            if system.apply(state, order).accepted:  # the rules' own check of the orders (no dice)
                return Decision(order, f"battle {battle}: drawn from the equilibrium mix ({mix}); the battle is worth {_balance(eq.value)}")
        fallback = next(c for c in cmds if isinstance(c, GiveOrders) and c.battle == battle)
        return Decision(fallback, f"battle {battle}: {MANOEUVRE_NAMES[fallback.manoeuvre]} (no equilibrium order was accepted)")


def player(level: str, rng: random.Random) -> Any:
    """A campaign computer power of `level` ("random", "easy", "hard")."""
    if level == "random":
        return RandomPlayer(rng, commands_of)
    return CampaignPlayer(level, rng)


def exchange(steps: Any) -> dict[tuple[str, str], int]:
    """(destroyer, victim) -> units destroyed in battle over a campaign's steps (rules/score.py
    says what counts: the tables' casualties, a last stand's, a rout's extra casualty), for the
    figure "units destroyed for each unit lost" (docs/ai.md)."""
    steps = list(steps)
    if not steps:
        return {}
    return pairs(steps[-1].after, (ev for step in steps for ev in step.events))
