"""Computer players for the campaign (issue 32; how they decide: docs/ai.md).

A power played by the computer sees the campaign through `SYSTEM.view(state, power)` only
(game.core.ai.choose) and uses the rules' own queries: `legal_commands`, `reach` (the movement
preview), `side_facts`, and the battle's equilibrium (rules/equilibrium.py), by which it seals
its orders: it draws its manoeuvre (and stratagem) from the equilibrium mix with its own seeded
generator, so no reply can exploit it, and no one can read its orders from its position.

Each phase [decision]:
- movement: each army in turn goes where it does most good: onto a weaker enemy army (to force a
  battle it should win), toward the nearest weaker one, away from stronger ones; the turn ends
  when no move gains.
- declare: fight where its forces are at least as strong as the enemy's (hard: where the
  enemy's are weaker by no more than a fifth; a battle is its strength's best use).
- pickup: every General joins the strongest army in reach (Generals give stratagems).
- narrative: one short line about the battle, with its Generals present named (so they fight),
  and nothing that gives its orders away.
- orders: the equilibrium's mix (easy: the 6x6 manoeuvre game; hard: stratagems included when the
  game's cells fit the work budget left and the 6x6 game took under a tenth of the time budget).

The strength of forces is the sum of their alive units' Attack and Defence [decision]: a
measure for moving and declaring only; battles themselves are weighed by the planner's exact odds.
"""

from __future__ import annotations

import random
from typing import Any

# The equilibrium's solver (scipy, about 0.6 s to import) loads with the computer players (this
# module loads only when a seat is given to the computer), not in a power's first decision.
import scipy.optimize  # noqa: F401

from game.core.ai import Budget, Decision, RandomPlayer
from game.core.system import RuleSystem
from game.systems.campaign.rules.battle import side_facts
from game.systems.campaign.rules.commands import (
    Declare,
    EndTurn,
    GiveOrders,
    MoveArmy,
    NarrativeDone,
    Pickup,
    WritePost,
)
from game.systems.campaign.rules.engine import active_player, reach
from game.systems.campaign.rules.equilibrium import Strategy, equilibrium, strategies
from game.systems.campaign.rules.events import CasualtiesPlaced
from game.systems.campaign.rules.hexes import hex_distance
from game.systems.campaign.rules.models import MANOEUVRE_NAMES
from game.systems.campaign.rules.queries import legal_commands
from game.systems.campaign.rules.state import ArmyState, CampaignState

LEVELS = ("random", "easy", "hard")
CLOSE_IN = 0.3  # per hex nearer to the nearest weaker enemy army
KEEP_AWAY = 0.5  # per hex nearer to a stronger enemy army, within 3 hexes
STRIKE = 4.0  # moving onto a weaker enemy army (a battle it should win)


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
    total = 0.0
    for uid in state.alive_units(army.id):
        t = state.unit_type(uid)
        total += t.attack + t.defense
    return total


def hex_strength(state: CampaignState, hex_: Any, owner: str, *, mine: bool) -> float:
    return sum(army_strength(state, a) for a in state.armies_at(hex_) if (a.owner == owner) == mine)


class CampaignPlayer:
    """The easy and hard campaign powers (docs/ai.md)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in ("easy", "hard"):
            raise ValueError(f"no campaign computer level {level!r} (easy, hard)")
        self.level = level
        self.rng = rng

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        state: CampaignState = view
        cmds = commands_of(system, state, side)
        if not cmds:
            raise ValueError(f"no legal command for {side!r}")
        if state.phase == "movement":
            return self._movement(state, side, cmds)
        if state.phase == "declare":
            return self._declare(state, side, cmds)
        if state.phase == "pickup":
            return self._pickup(state, side, cmds)
        if state.phase == "narrative":
            return self._narrative(state, side, cmds)
        if state.phase == "orders":
            return self._orders(system, state, side, cmds, budget)
        return Decision(cmds[0], "the only command")

    # ---------------------------------------------------------------- movement
    def _movement(self, state: CampaignState, side: str, cmds: list[Any]) -> Decision:
        end = next(c for c in cmds if isinstance(c, EndTurn))
        best: tuple[float, Any, str] = (0.05, end, "no army has a move worth making")
        armies = sorted({c.army for c in cmds if isinstance(c, MoveArmy)})
        enemies = [a for a in state.armies.values() if a.owner != side and state.alive_units(a.id)]
        m = state.cs.map
        for aid in armies:
            army = state.armies[aid]
            mine = army_strength(state, army)
            if mine <= 0:
                continue

            def place(h: Any, mine: float = mine) -> tuple[float, str]:
                score, why = 0.0, ""
                weaker = [e for e in enemies if army_strength(state, e) * (1.0 if self.level == "easy" else 1.2) <= mine]
                stronger = [e for e in enemies if e not in weaker]
                if weaker:
                    d = min(hex_distance(m, h, e.hex) for e in weaker)
                    score -= CLOSE_IN * d
                    if d == 0:
                        score += STRIKE
                        why = "onto a weaker enemy army"
                for e in stronger:
                    d = hex_distance(m, h, e.hex)
                    if d <= 3:
                        score -= KEEP_AWAY * (4 - d) * (army_strength(state, e) / mine)
                return score, why

            here, _ = place(army.hex)
            for h, entry in reach(state, aid).items():
                if h == army.hex or not entry.path:
                    continue
                score, why = place(h)
                gain = score - here
                if gain > best[0]:
                    text = why or ("toward a weaker enemy army" if score > here else "away from a stronger one")
                    best = (gain, MoveArmy(army=aid, path=entry.path), f"{state.army_name(aid)} moves {text}")
        return Decision(best[1], best[2])

    # ---------------------------------------------------------------- declare, pickup, narrative
    def _declare(self, state: CampaignState, side: str, cmds: list[Any]) -> Decision:
        c = next(c for c in cmds if isinstance(c, Declare))
        mine = hex_strength(state, c.hex, side, mine=True)
        theirs = hex_strength(state, c.hex, side, mine=False)
        need = 1.0 if self.level == "easy" else 0.8
        fight = mine >= need * theirs
        pick = next(x for x in cmds if isinstance(x, Declare) and x.hex == c.hex and x.fight == fight)
        return Decision(pick, f"{'fight' if fight else 'decline'} at {c.hex[0]},{c.hex[1]}: "
                              f"strength {mine:.0f} against {theirs:.0f}")

    def _pickup(self, state: CampaignState, side: str, cmds: list[Any]) -> Decision:
        picks = [c for c in cmds if isinstance(c, Pickup)]
        if not picks:
            return Decision(next(c for c in cmds if isinstance(c, EndTurn)), "no General to pick up")
        best = max(picks, key=lambda c: (army_strength(state, state.armies[c.army]), c.army, c.general))
        return Decision(best, f"{state.generals[best.general].name} joins the strongest army in reach, "
                              f"{state.army_name(best.army)}")

    def _narrative(self, state: CampaignState, side: str, cmds: list[Any]) -> Decision:
        posted = {(p.player, p.battle) for p in state.posts if p.week == state.week}
        for c in cmds:
            if isinstance(c, WritePost) and (side, c.battle) not in posted:
                b = state.battles[c.battle]
                mine = sum(army_strength(state, a) for a in state.forces(b, side))
                foe = b.sides[1] if b.sides[0] == side else b.sides[0]
                theirs = sum(army_strength(state, a) for a in state.forces(b, foe))
                mood = ("confident" if mine > 1.2 * theirs else "wary" if mine < 0.8 * theirs else "steady")
                text = (f"{state.player_name(side)} stands {mood} at {b.hex[0]},{b.hex[1]} against "
                        f"{state.player_name(foe)}, week {state.week}.")
                post = c.model_copy(update={"text": text})
                return Decision(post, f"posts about {c.battle}, with {len(c.generals)} General(s) named")
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
                return Decision(order, f"{battle}: drawn from the equilibrium ({mix}; value {eq.value:+.2f})")
        fallback = next(c for c in cmds if isinstance(c, GiveOrders) and c.battle == battle)
        return Decision(fallback, f"{battle}: {MANOEUVRE_NAMES[fallback.manoeuvre]} (no equilibrium order was accepted)")


def player(level: str, rng: random.Random) -> Any:
    """A campaign computer power of `level` ("random", "easy", "hard")."""
    if level == "random":
        return RandomPlayer(rng, commands_of)
    return CampaignPlayer(level, rng)


def exchange(steps: Any) -> dict[tuple[str, str], int]:
    """(destroyer, victim) -> units destroyed, over a campaign's steps: a unit destroyed in a step
    that placed casualties in a battle was destroyed by the other side of that battle. For the
    arena's figure "units destroyed for each unit lost" (docs/ai.md)."""
    out: dict[tuple[str, str], int] = {}
    for step in steps:
        before, after = step.before, step.after
        owner = {uid: a.owner for a in after.armies.values() for uid in a.units}
        for ev in step.events:
            if not isinstance(ev, CasualtiesPlaced):
                continue
            b = after.battles.get(ev.battle)
            if b is None:
                continue
            foe = b.sides[1] if b.sides[0] == ev.player else b.sides[0]
            for uid, _ in ev.placed:
                if uid in after.units and after.units[uid].destroyed and not before.units[uid].destroyed \
                        and owner.get(uid, ev.player) == ev.player:
                    out[(foe, ev.player)] = out.get((foe, ev.player), 0) + 1
    return out
