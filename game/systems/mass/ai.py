"""Computer commanders for the mass battle (issue 32; how they decide: docs/ai.md).

A force played by the computer sees the battle through `SYSTEM.view(state, force)` only (the
other forces' sealed appointments and the GM's forced dice removed; game.core.ai.choose) and
weighs every choice by the rules' own odds pane (`choices.preview`): the exact chance of winning
a contest (duels, Contentious Ground, the Ways), the exact distribution of the Wave's Wounds if an
action is taken.

How a choice is weighed [decision]:
- harm: the expected share of each force's Brutes lost this Wave (percent) plus, for each
  individual, 5 points per expected Wound (an individual's Wounds are few and each one counts);
  a Battle Action is worth the harm it does to the other forces minus the harm to its own,
  measured against not acting (the Wave's Wounds as they stand: `Hold`).
- a contest (a duel, Contentious Ground) is worth its stake times (2 x P(win) - 1);
- Rallying Cry is worth its chance of success times a Wave of Glory's Advantage;
- the Ways' appointments: the individual whose pool has the best average for each Way;
- a challenge is accepted when the duel is won more often than lost, else fought as a
  skirmish (refusing is an Act of Vice);
- it never flees, surrenders, cedes or wrests command (Acts of Vice or giving the battle away),
  and names the fittest individual when its commander falls;
- an ally's losses count as its own, and it never challenges an ally's individual nor contests
  an ally's ground (the battle file's `allies`; the rules themselves allow both).
easy weighs the Battle Actions of its commander; hard also weighs the Void actions of its
individuals (duels and the rest, by the same odds), and the order of its actions by what is
left: it keeps its dice (holds) when no action gains.
"""

from __future__ import annotations

import random
from typing import Any

from game.core.ai import Budget, Decision, RandomPlayer
from game.core.rollkeep import distribution, mean
from game.core.system import RuleSystem
from game.systems.mass.rules import choices
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.odds import Odds
from game.systems.mass.rules.state import MassState

LEVELS = ("random", "easy", "hard")
WOUND = 5.0           # one expected Wound of an individual, in percent of Brutes lost
DUEL_STAKE = 12.0     # a duel's loser takes 2k2 Wounds and more per Raise
GROUND_STAKE = 6.0    # the terrain bonus for a Wave
RALLY_STAKE = 4.0     # Glory's Advantage next Wave
_NEVER = frozenset({"surrender", "cede", "wrest_command"})
_AGAINST_ALLY = -50.0  # a duel or Contentious Ground against an ally: never
_BAD_ACTIONS = {"flee": -50.0, "entrapping_ground": -8.0, "focal_ground": -3.0, "encircled_ground": -0.5,
                "bonus_effects": 0.0}


def side_of_command(state: MassState, command: Any) -> str | None:
    force = getattr(command, "force", None)
    return force if isinstance(force, str) else None


def commands_of(system: RuleSystem, view: MassState, side: str) -> list[Any]:
    return [x for x in choices.legal_commands(view) if side_of_command(view, x) == side]


def harm(state: MassState, odds: Odds, me: str) -> float:
    """The expected harm in the odds to the other forces minus the harm to `me` (see the module)."""
    def ours(fid: str) -> bool:  # our force or an ally's: its losses are ours
        return fid == me or state.setup.allied(me, fid)

    total = 0.0
    for key, dist in odds.percents.items():
        pct = sum(v * p for v, p in dist.items())
        total += -pct if ours(key.split(":", 1)[0]) else pct
    for who, dist in odds.wounds.items():
        if ":" in who:  # Brutes are counted by percents
            continue
        f = state.force_of(who)
        if f is None:
            continue
        w = WOUND * sum(v * p for v, p in dist.items())
        total += -w if ours(f.id) else w
    return total


class MassPlayer:
    """The easy and hard computer commanders (docs/ai.md)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in ("easy", "hard"):
            raise ValueError(f"no mass-battle computer level {level!r} (easy, hard)")
        self.level = level
        self.rng = rng

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        state: MassState = view
        cmds = [x for x in commands_of(system, state, side) if x.kind not in _NEVER]
        if not cmds:  # only Acts of Vice left: the rules leave nothing else
            cmds = commands_of(system, state, side)
        if not cmds:
            raise ValueError(f"no legal command for {side!r}")
        appoints = [x for x in cmds if isinstance(x, c.Appoint)]
        if appoints:
            return self._appoint(state, side, appoints)
        answers = [x for x in cmds if isinstance(x, c.AnswerDuel)]
        if answers:
            return self._answer(state, side, answers)
        names = [x for x in cmds if isinstance(x, c.NameCommander)]
        if names:
            return self._name(state, names)
        actions = [x for x in cmds if isinstance(x, c.BattleAction)]
        hold = next((x for x in cmds if isinstance(x, c.Hold)), None)
        if actions or hold is not None:
            return self._act(state, side, actions, hold, budget)
        pick = cmds[0]  # a roll or the Wave's end: the one step the rules wait for
        return Decision(pick, told(state, pick))

    def _appoint(self, state: MassState, side: str, appoints: list[c.Appoint]) -> Decision:
        """The individual with the best average pool for each Way (the preview's own entries)."""
        f = state.forces[side]

        def pool_mean(pid: str, way: str) -> float:
            entry = next((e for e in choices._entries(state, {side: pid}, way) if e.force == side), None)
            return mean(distribution(entry.pool)) if entry is not None else -1.0

        people = {x.heaven for x in appoints} | {x.honor for x in appoints}
        heaven = max(sorted(people), key=lambda p: pool_mean(p, "heaven"))
        honor = max(sorted(people), key=lambda p: pool_mean(p, "honor"))
        pick = next((x for x in appoints if x.heaven == heaven and x.honor == honor), appoints[0])
        return Decision(pick, f"{f.people[pick.heaven].name} for Heaven (rolls {pool_mean(pick.heaven, 'heaven'):.1f} on average), "
                              f"{f.people[pick.honor].name} for Honor (rolls {pool_mean(pick.honor, 'honor'):.1f} on average)")

    def _answer(self, state: MassState, side: str, answers: list[c.AnswerDuel]) -> Decision:
        best: tuple[float, c.AnswerDuel] | None = None
        odds: dict[str, float] = {}
        for a in answers:
            if a.choice == "refuse":
                continue
            p = odds[a.choice] = choices.preview(state, a).win.get(side, 0.0)
            if best is None or p > best[0] + 1e-12:
                best = (p, a)
        if best is None:
            return Decision(answers[0], "the only answer")
        # the other ways, so that a low chance reads as the best there is (QA: "accept the duel: 9% to win")
        words = {"accept": "accepted", "skirmish": "as a skirmish"}
        others = [f"{words.get(k, k)} {p:.0%}" for k, p in odds.items() if k != best[1].choice]
        refuse = any(a.choice == "refuse" for a in answers)
        why = (f"{best[1].choice} the duel: {best[0]:.0%} to win" + (f" ({', '.join(others)})" if others else "")
               + ("; refusing is an Act of Vice" if refuse else ""))
        return Decision(best[1], why)

    def _name(self, state: MassState, names: list[c.NameCommander]) -> Decision:
        real = [x for x in names if x.person is not None]
        if not real:
            return Decision(names[0], "nobody can take command")
        f = state.forces[real[0].force]
        pick = max(real, key=lambda x: (f.people[str(x.person)].stats.rings.water - f.people[str(x.person)].wounds / 10,
                                        str(x.person)))
        return Decision(pick, f"{f.people[str(pick.person)].name} takes command")

    def _act(self, state: MassState, side: str, actions: list[c.BattleAction], hold: Any, budget: Budget) -> Decision:
        base = harm(state, choices.wave_wounds(state), side)
        best: tuple[float, Any, str] = (0.0, hold, "holds: no action would gain anything") if hold is not None else \
            (-1e9, actions[0], "the only kind of choice")
        for a in actions:
            if a.void and self.level == "easy":
                continue
            if budget.expired() and best[1] is not hold:
                break
            budget.spend()
            value, why = self._action_value(state, side, a, base)
            if value > best[0]:
                best = (value, a, why)
        return Decision(best[1], best[2])

    def _action_value(self, state: MassState, side: str, a: c.BattleAction, base: float) -> tuple[float, str]:
        if a.action in _BAD_ACTIONS:
            return _BAD_ACTIONS[a.action], a.action.replace("_", " ")
        foe = state.force_of(a.enemy) if a.action == "duel" and a.enemy else None
        other = foe.id if foe is not None else (a.target_force if a.action == "contentious_ground" else None)
        if other is not None and state.setup.allied(side, other):
            return _AGAINST_ALLY, f"{told(state, a)}: against an ally"
        odds = choices.preview(state, a)
        title = told(state, a)
        if a.action == "duel":
            p = odds.win.get(side, 0.0)
            return DUEL_STAKE * (2 * p - 1) - (1.0 if a.void else 0.0), f"{title}: {p:.0%} to win"
        if a.action == "contentious_ground":
            p = odds.win.get(side, 0.0)
            return GROUND_STAKE * (2 * p - 1), f"{title}: {p:.0%} to win"
        if a.action == "rallying_cry":
            p = odds.success if odds.success is not None else 0.0
            return RALLY_STAKE * p, f"{title}: {p:.0%} to succeed"
        if odds.percents or odds.wounds:
            gain = harm(state, odds, side) - base
            return gain - (0.5 if a.void else 0.0), f"{title}: {shift(gain)}"
        return 0.0, title


def shift(gain: float) -> str:
    """How a Battle Action moves the Wave's expected losses, with its unit (`harm`: a percent of a
    force's Brutes is a point, an individual's Wound counts WOUND points)."""
    way = "our way" if gain >= 0 else "against us"
    return f"the Wave's expected losses shift {abs(gain):.1f} points {way} (1% of Brutes lost: 1 point; a Wound: {WOUND:g})"


def told(state: MassState, cmd: Any) -> str:
    """A choice's label for a why line, without its force's name in front: the line and the board
    name the force already ("Why (Akira's army, computer easy): Heavy Ground: ...")."""
    text = choices.label(state, cmd)
    f = state.forces.get(str(getattr(cmd, "force", "")))
    return text[len(f.name) + 2:] if f is not None and text.startswith(f.name + ": ") else text


def player(level: str, rng: random.Random) -> Any:
    """A mass-battle computer commander of `level` ("random", "easy", "hard")."""
    if level == "random":
        return RandomPlayer(rng, commands_of)
    return MassPlayer(level, rng)
