"""Computer players for the AI:L tactical battle (issue 32; how they decide: docs/ai.md).

A player sees the battle through `SYSTEM.view(state, side)` only (game.core.ai.choose) and asks
the rules' queries: `legal_commands`, `attack_preview` / `charge_preview` (exact odds from
rules/odds.py), `overwatch_exposure` along each path, the initiative rolls. It never builds an
attack's dice from the generator: every weighing is an expectation over the exact outcome
distribution.

Levels:
- easy: one step, greedy. Every command of its side is scored by the change it makes to an
  evaluation of the battle (strength and markers of every unit, the objectives, each unit's
  prospects from where it stands), attacks by their exact expected value; the best is played, or
  the phase ends when nothing gains.
- hard: the same evaluation, plus looking ahead: the defender's best answer to each attack
  (defensive action or not), the shots the enemy can make at a hex from where it stands and
  where it can move, Advantage spent where it changes the odds most, and, over the exact dice of
  each of its best attacks, the best follow-up attack by its other units (focus of fire),
  within its time and work budget.

The evaluation is this module's [decision]; no rule lives here. Hypothetical positions (a unit
moved to a hex, a target after one outcome of an attack) are built only to be weighed, never
applied.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from game.core.ai import Budget, Decision, RandomPlayer
from game.core.hexgrid import Hex, distance, hex_round, neighbours
from game.core.system import RuleSystem, counted
from game.systems.tactical.rules.attack import AttackImpossible
from game.systems.tactical.rules.attacks import held_advantage, make_setup
from game.systems.tactical.rules.commands import (
    AssignLeadership,
    Attack,
    Charge,
    ChooseInitiative,
    Dash,
    DefensiveAction,
    EndPhase,
    EnterStance,
    Move,
    SpecialMove,
    StuckStep,
)
from game.systems.tactical.rules.common import hex_name
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.odds import Odds, outcome_distribution
from game.systems.tactical.rules.queries import (
    AttackPreview,
    ChargePreview,
    attack_preview,
    charge_preview,
    initiative_roll,
    initiative_win_chances,
    legal_commands,
    overwatch_exposure,
    pilot_check_chance,
)
from game.systems.tactical.rules.state import GameState, UnitState

LEVELS = ("random", "easy", "hard")

# --------------------------------------------------------------------------- weights [decision]
ALIVE = 2.0            # a unit on the map is worth this beyond its strength points
PINNED = 0.7           # a pinned unit cannot move on its side's next turn
OUT_OF_ACTION = 1.2    # an out-of-action unit does nothing on its side's next turn
ON_OBJECTIVE = 3.0     # one of our units on a hex we must hold
BLOCKING = 1.5         # one of our units on a hex the enemy must hold
OBJECTIVE_PULL = 0.35  # per hex of distance to a hex we must hold (grows as its round nears)
ENEMY_PULL = 0.12      # per hex to the nearest enemy, for a side that must destroy or take ground
OPPORTUNITY = 0.8      # the attack a unit can still make this turn from where it stands
DANGER = 0.5           # the shots the enemy can make at it in its turn
ADRENALINE = 0.15      # one point of Adrenaline paid to dash
SPEND = 0.25           # one point of Advantage spent (it could have been used elsewhere)
HELD = 0.1             # one Leadership point a unit holds, spent (it could only save a casualty roll)
WIN = 20.0             # destroying the last unit of a side an enemy must destroy: the battle
KILL = 1.0             # destroying one unit of such a side, beyond its worth (grows to WIN / units
                       # left in the round that side must survive to)
CLOSING = 0.8          # hard: an enemy's shot after it moves toward its target (terrain or fire may stop it)
REPLY = 0.5            # hard: the enemy's reply an attack cuts (as DANGER weighs the shots it takes)
GAIN = 0.02            # the least gain worth a command (below it the phase ends)


def side_of_command(state: GameState, command: Any) -> str | None:
    """The side whose player gives `command` (a unit's commands: the unit's side; an attack:
    its attacker's side)."""
    side = getattr(command, "side", None)
    if isinstance(side, str):
        return side
    uid = getattr(command, "unit_id", None)
    if not isinstance(uid, str):
        uid = getattr(command, "attacker_id", None)
    if isinstance(uid, str) and uid in state.units:
        return state.units[uid].side
    return None


def commands_of(system: RuleSystem, view: GameState, side: str) -> list[BaseModel]:
    """The commands of `side` among the rules' legal commands in the view."""
    return [c for c in legal_commands(view) if side_of_command(view, c) == side]


# --------------------------------------------------------------------------- the evaluation


def unit_worth(u: UnitState) -> float:
    """What a unit is worth to its side: strength, being on the map, free of markers."""
    if not u.alive:
        return 0.0
    worth = u.strength + ALIVE
    if u.pinned:
        worth -= PINNED
    if u.out_of_action:
        worth -= OUT_OF_ACTION
    return worth


def after_outcome(u: UnitState, lost: int, result: str) -> UnitState:
    """The target as it would stand after one outcome of an attack (for weighing only)."""
    left = max(0, u.strength - lost)
    if result in ("destroyed", "annihilated") or left == 0:
        return u.model_copy(update={"strength": 0, "destroyed": True})
    update: dict[str, Any] = {"strength": left}
    if result == "pinned":
        update["pinned"] = "next_turn"
    elif result == "out_of_action":
        update.update(out_of_action="next_turn", stance="none")
    return u.model_copy(update=update)


def worth_after(u: UnitState, lost: int, result: str) -> float:
    """`unit_worth` of the target after one outcome of an attack, without building it."""
    left = u.strength - lost
    if result in ("destroyed", "annihilated") or left <= 0 or not u.alive:
        return 0.0
    worth = left + ALIVE
    if u.pinned or result == "pinned":
        worth -= PINNED
    if u.out_of_action or result == "out_of_action":
        worth -= OUT_OF_ACTION
    return worth


def odds_value(odds: Odds, target: UnitState, bonus: float = 0.0) -> float:
    """The expected worth the target loses to an attack with these exact odds, plus `bonus`
    times the chance that it is destroyed (`kill_bonus`)."""
    now = unit_worth(target)
    value = sum(float(p) * (now - worth_after(target, lost, result)) for (lost, result), p in odds.joint.items())
    return value + bonus * kill_chance(odds, target) if bonus else value


def kill_chance(odds: Odds, target: UnitState) -> float:
    """The chance an attack with these exact odds destroys the target."""
    return sum(float(p) for (lost, result), p in odds.joint.items()
               if result in ("destroyed", "annihilated") or lost >= target.strength)


def kill_bonus(state: GameState, target: UnitState) -> float:
    """What destroying `target` is worth beyond its worth, when an enemy side must destroy every
    unit of its side: the battle when it is the last one; otherwise a little, and in the round
    its side must survive to, a share of the battle (each of them must go that round)."""
    if not any(o.kind == "destroy_all" and o.side != target.side for o in state.setup.objectives):
        return 0.0
    left = sum(1 for u in state.units.values() if u.alive and u.side == target.side)
    if left <= 1:
        return WIN
    due = [o.round if o.round is not None else state.setup.round_limit for o in state.setup.objectives
           if o.kind == "survive" and o.side == target.side]
    if due and state.round >= min(due):
        return WIN / left
    return KILL


class Memo:
    """What a player keeps between its decisions: lines of sight (the board never changes) and
    the expected value of each kind of shot, keyed by everything the rules' accuracy challenge,
    hit roll and outcome distribution read (the units' types, the range band, the cover, the
    stances, the strength, braced, overwatch, the Advantage on the casualty rolls). A key that
    missed an input would only blur a weighing: every command played is still one the rules
    list and accept."""

    def __init__(self) -> None:
        self.sight: dict[tuple[Hex, Hex], bool] = {}
        self.shots: dict[Any, tuple[float, float] | None] = {}
        self.types: dict[int, Any] = {}

    def clear_if_big(self) -> None:
        if len(self.shots) > 200_000:
            self.shots.clear()
        if len(self.sight) > 400_000:
            self.sight.clear()


@dataclass
class Ctx:
    """One decision's memo: the view, the side, and the answers already worked out."""

    view: GameState
    side: str
    hard: bool
    budget: Budget
    memo: Memo
    place_memo: dict[Any, float]
    # odds weighed as the defender taking the defensive action (hard, `_defender_answer`), by id
    # -> (those odds, the odds if it does not): the why line gives both. The odds are kept here, so
    # that no other odds of the decision can take their id
    answered: dict[int, tuple[Odds, Odds]] = field(default_factory=dict)

    def enemies(self) -> list[UnitState]:
        return [u for u in self.view.live_units() if u.side != self.side]


def _moved(state: GameState, uid: str, h: Hex) -> GameState:
    units = dict(state.units)
    units[uid] = units[uid].model_copy(update={"hex": h, "moved": True})
    return state.model_copy(update={"units": units})


def sees(ctx: Ctx, state: GameState, a: Hex, b: Hex) -> bool:
    key = (a, b) if a <= b else (b, a)
    got = ctx.memo.sight.get(key)
    if got is None:
        got = ctx.memo.sight[key] = has_line_of_sight(state.board, state.setup.rules, a, b)
    return got


def shot_value(ctx: Ctx, state: GameState, attacker: str, target: str, weapon: str, *,
               target_at: Hex | None = None, overwatch: bool = False) -> float | None:
    """Expected worth `target` loses to one shot (None: the shot is impossible: range, sight)."""
    a, t = state.units[attacker], state.units[target]
    at = target_at or t.hex
    ut = state.unit_type(attacker)
    w = next((x for x in ut.weapons if x.name == weapon), None)
    if w is None:
        return None
    d = distance(a.hex, at)
    if d == 0 or (w.melee and d != 1) or (w.bands is not None and d > w.bands[3]):
        return None
    indirect = "indirect" in w.traits
    if not w.melee and not indirect and not sees(ctx, state, a.hex, at):
        return None
    band = 0 if w.melee or w.bands is None else next(i for i, limit in enumerate(w.bands) if d <= limit)
    tt = state.unit_type(target)
    ctx.memo.types.setdefault(id(ut), ut)  # kept alive, so that its id is never another type's
    ctx.memo.types.setdefault(id(tt), tt)
    key = (id(ut), weapon, a.strength, a.moved, band, id(tt), t.strength, t.stance,
           state.board.terrain.get(at), overwatch, t.casualty_advantage, t.casualty_advantage_kind,
           t.leadership if t.casualty_advantage else 0, t.pinned, t.out_of_action,
           indirect and not sees(ctx, state, a.hex, at))
    if key in ctx.memo.shots:
        got = ctx.memo.shots[key]
    else:
        ctx.budget.spend()
        try:
            setup = make_setup(state, attacker, target, weapon, target_at=target_at, overwatch_shot=overwatch)
            odds = outcome_distribution(setup)
            got = (odds_value(odds, t), kill_chance(odds, t))
        except AttackImpossible:
            got = None
        ctx.memo.shots[key] = got
    if got is None:
        return None
    return got[0] + got[1] * kill_bonus(state, t)


def best_shot(ctx: Ctx, state: GameState, attacker: str, target: str, *, target_at: Hex | None = None) -> float:
    ut = state.unit_type(attacker)
    a, t = state.units[attacker], state.units[target]
    at = target_at or t.hex
    best = 0.0
    for w in ut.weapons:
        if w.melee:
            if distance(a.hex, at) != 1:
                continue
        elif w.bands is not None and distance(a.hex, at) > w.bands[3]:
            continue
        v = shot_value(ctx, state, attacker, target, w.name, target_at=target_at)
        if v is not None and v > best:
            best = v
    return best


def _reach_of(state: GameState, u: UnitState) -> int:
    """How far an enemy could shoot next turn, roughly: its move plus its longest weapon."""
    ut = state.unit_type(u.id)
    longest = max((w.bands[3] if w.bands else 1 for w in ut.weapons), default=0)
    return ut.move + longest


def danger_at(ctx: Ctx, state: GameState, uid: str, h: Hex) -> float:
    """The shots the enemy can make at unit `uid` standing on `h` in its next turn: from where
    each enemy stands. Hard: each enemy unit shoots once in its reply turn, at the best target
    it has (from where it stands, or, at CLOSING of it, after moving toward it: `_closing_shot`):
    a quarter of its shot at `uid`, plus what `uid` on `h` adds to its best shot at our other
    units (an enemy that has a better target elsewhere shoots there)."""
    key = ("danger", uid, h, state.units[uid].strength)
    if key in ctx.place_memo:
        return ctx.place_memo[key]
    if ctx.hard:
        total = 0.0
        for e in ctx.enemies():
            shot = _enemy_shot(ctx, state, e, uid, h)
            if shot > 0.0:
                total += 0.25 * shot + max(0.0, shot - _busy(ctx, state, e, uid))
        ctx.place_memo[key] = total
        return total
    total = 0.0
    for e in ctx.enemies():
        if e.out_of_action or e.pinned:
            continue
        d = distance(e.hex, h)
        if d > _reach_of(state, e):
            continue
        total += best_shot(ctx, state, e.id, uid, target_at=h)
    ctx.place_memo[key] = total
    return total


def _enemy_shot(ctx: Ctx, state: GameState, e: UnitState, uid: str, h: Hex) -> float:
    """Hard: the best shot enemy unit `e` could make in its reply turn at our unit `uid` on `h`:
    from where it stands, or, when it may move and could come in range, CLOSING of its shot after
    moving toward `h` (exact odds from there)."""
    if not e.alive or e.out_of_action or distance(e.hex, h) > _reach_of(state, e):
        return 0.0
    v = best_shot(ctx, state, e.id, uid, target_at=h)
    if v == 0.0 and not e.pinned:
        v = CLOSING * _closing_shot(ctx, state, e, uid, h)
    return v


def toward(a: Hex, b: Hex, steps: int) -> Hex:
    """The hex `steps` along `hexgrid.line(a, b)` (its nudge included, so the same hex), worked
    out alone: a decision asks it for every enemy and candidate hex."""
    t = steps / distance(a, b)
    return hex_round(a.q + 1e-6 + (b.q - a.q) * t, a.r + 2e-6 + (b.r - a.r) * t)


def _closing_shot(ctx: Ctx, state: GameState, e: UnitState, uid: str, h: Hex) -> float:
    """Hard: the best shot enemy unit `e` could make at our unit `uid` on `h` after moving
    toward it (its move along the line to `h`, stopping beside it): exact odds from there."""
    key = ("closing", e.id, e.hex, e.strength, uid, h, state.units[uid].strength)
    got = ctx.place_memo.get(key)
    if got is not None:
        return got
    d = distance(e.hex, h)
    stop = toward(e.hex, h, min(state.unit_type(e.id).move, d - 1))
    occupied = state.occupied()
    spots = [stop] + [n for n in neighbours(stop) if distance(n, h) == distance(stop, h)]
    spot = next((x for x in spots if x in state.board and (x not in occupied or x == e.hex)), None)
    value = 0.0
    if spot is not None:
        units = dict(state.units)
        units[e.id] = e.model_copy(update={"hex": spot, "moved": True})
        value = best_shot(ctx, state.model_copy(update={"units": units}), e.id, uid, target_at=h)
    ctx.place_memo[key] = value
    return value


def _busy(ctx: Ctx, state: GameState, e: UnitState, uid: str) -> float:
    """Hard: enemy unit `e`'s best shot in its reply turn at our units other than `uid`."""
    key = ("busy", e.id, uid)
    got = ctx.place_memo.get(key)
    if got is None:
        got = ctx.place_memo[key] = max((_enemy_shot(ctx, state, e, u.id, u.hex) for u in state.live_units(ctx.side)
                                         if u.id != uid), default=0.0)
    return got


def threat_of(ctx: Ctx, e: UnitState) -> float:
    """Hard: the best shot enemy unit `e` (as it stands, or after one outcome of our attack)
    could make at one of our units in its reply turn (`_enemy_shot`)."""
    if not e.alive or e.out_of_action:
        return 0.0
    key = ("threat", e.id, e.strength, bool(e.pinned))
    got = ctx.place_memo.get(key)
    if got is None:
        view = ctx.view
        state = view
        if e != view.units[e.id]:
            units = dict(view.units)
            units[e.id] = e
            state = view.model_copy(update={"units": units})
        got = ctx.place_memo[key] = max((_enemy_shot(ctx, state, e, u.id, u.hex) for u in view.live_units(ctx.side)),
                                        default=0.0)
    return got


def opportunity_at(ctx: Ctx, state: GameState, uid: str, h: Hex) -> float:
    """The best attack unit `uid` could make from `h` in this turn's Attack phase."""
    u = state.units[uid]
    if u.action_used or u.out_of_action:
        return 0.0
    key = ("opp", uid, h)
    if key in ctx.place_memo:
        return ctx.place_memo[key]
    there = _moved(state, uid, h) if h != u.hex else state
    best = 0.0
    for e in ctx.enemies():
        best = max(best, best_shot(ctx, there, uid, e.id))
    ctx.place_memo[key] = best
    return best


_ASSIGNED: dict[Any, tuple[GameState, dict[str, Hex]]] = {}


def _assigned(state: GameState, side: str, hexes: tuple[Hex, ...]) -> dict[str, Hex]:
    """Which of our units goes for which hex we must hold and do not yet: the nearest pairs
    first (greedy), one unit a hex, among the units standing on none of them. So that the
    units spread over every hex rather than all making for the nearest one."""
    key = (id(state), side, hexes)
    got = _ASSIGNED.get(key)
    if got is not None and got[0] is state:  # the state itself is kept: its id is never another's
        return got[1]
    held = {u.hex for u in state.live_units(side)}
    units = [u for u in state.live_units(side) if u.hex not in hexes]
    pairs = sorted((distance(u.hex, x), u.id, x) for u in units for x in hexes if x not in held)
    out: dict[str, Hex] = {}
    taken: set[Hex] = set()
    for _, uid, x in pairs:
        if uid not in out and x not in taken:
            out[uid] = x
            taken.add(x)
    if len(_ASSIGNED) > 64:
        _ASSIGNED.clear()
    _ASSIGNED[key] = (state, out)
    return out


def objective_term(state: GameState, side: str, uid: str, h: Hex) -> float:
    """What standing on `h` does for the objectives: our hold hexes pull, the enemy's are
    worth blocking, a side that must destroy or take ground closes on the enemy."""
    value = 0.0
    aggressive = False
    others = {u.hex for u in state.live_units(side) if u.id != uid}
    for obj in state.setup.objectives:
        if obj.kind == "destroy_all" and obj.side == side:
            aggressive = True
        if obj.kind != "hold" or not obj.hexes:
            continue
        due = obj.round if obj.round is not None else state.setup.round_limit
        urgency = 1.0 + max(0.0, 1.0 - (due - state.round) / max(1, due))
        if obj.side == side:
            aggressive = True
            if h in obj.hexes:
                value += ON_OBJECTIVE * urgency
            else:
                mine = _assigned(state, side, obj.hexes).get(uid)
                if mine is not None:  # the hex this unit is the nearest to take
                    value -= OBJECTIVE_PULL * urgency * distance(h, mine)
                else:
                    free = [x for x in obj.hexes if x not in others] or list(obj.hexes)
                    value -= 0.5 * OBJECTIVE_PULL * urgency * min(distance(h, x) for x in free)
        else:
            if h in obj.hexes:
                value += BLOCKING * urgency
            else:
                value -= 0.1 * min(distance(h, x) for x in obj.hexes)
    if aggressive:
        enemies = [e.hex for e in state.live_units() if e.side != side]
        if enemies:
            value -= ENEMY_PULL * min(distance(h, x) for x in enemies)
    return value


def threat_cut(ctx: Ctx, target: UnitState, odds: Odds) -> float:
    """Hard: how much an attack with these exact odds cuts the target's reply (`threat_of`),
    expected over its outcomes: destroyed, out of action, pinned (it cannot move into range),
    weakened."""
    now = threat_of(ctx, target)
    if now <= 0.0:
        return 0.0
    after = sum(float(p) * threat_of(ctx, after_outcome(target, lost, result)) for (lost, result), p in odds.joint.items())
    return now - after


def hold_due_now(state: GameState) -> bool:
    """Whether an objective to hold hexes falls due at the end of this round."""
    return any(o.kind == "hold" and o.hexes and (o.round if o.round is not None else state.setup.round_limit) == state.round
               for o in state.setup.objectives)


def clearing_bonus(state: GameState, side: str, target: UnitState) -> float:
    """Hard: destroying an enemy unit that stands on a hex `side` must hold opens the hex (worth
    what standing there is worth to us, `objective_term`'s ON_OBJECTIVE with its urgency). In
    the Movement phase of the round the hex falls due, a share of the battle (WIN over the hexes
    not yet ours): one of our units may still move in. In that round's Attack phase, nothing can
    move in after: worth nothing."""
    value = 0.0
    for obj in state.setup.objectives:
        if obj.kind != "hold" or obj.side != side or target.hex not in obj.hexes:
            continue
        due = obj.round if obj.round is not None else state.setup.round_limit
        if state.round >= due:
            if state.phase == "movement":
                occupied = state.occupied()
                value += WIN / max(1, sum(1 for h in obj.hexes if h not in occupied or occupied[h].side != side))
            continue
        urgency = 1.0 + max(0.0, 1.0 - (due - state.round) / max(1, due))
        value += ON_OBJECTIVE * urgency
    return value


def place_value(ctx: Ctx, state: GameState, uid: str, h: Hex) -> float:
    """How good it is for unit `uid` to stand on `h` (the movement phase's measure)."""
    return (objective_term(state, ctx.side, uid, h) + OPPORTUNITY * opportunity_at(ctx, state, uid, h)
            - DANGER * danger_at(ctx, state, uid, h))


def exposure_cost(ctx: Ctx, state: GameState, uid: str, path: Sequence[Hex], mode: Any) -> tuple[float, str]:
    """Expected worth lost to overwatch along a path (exact odds of each shot)."""
    shots = overwatch_exposure(state, uid, tuple(path), mode)
    if not shots:
        return 0.0, ""
    u = state.units[uid]
    bonus = kill_bonus(state, u)
    cost = sum(odds_value(s.odds, u, bonus) for s in shots)
    hit = 1.0
    for s in shots:
        hit *= 1.0 - float(s.odds.hit_chance)
    return cost, f"; on the way, {counted(len(shots), 'overwatch shot', 'overwatch shots')}: {1 - hit:.0%} chance of a hit"


# --------------------------------------------------------------------------- the players


def _points(value: float) -> str:
    """A figure of the evaluation in a why line, with its unit: the evaluation counts in strength
    points (a unit is worth its strength + 2 on the map; a pin, being out of action and a kill are
    weighed in the same points: docs/ai.md)."""
    return f"{value:.2f} strength points"


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def _end_of(c: BaseModel) -> Hex | None:
    if isinstance(c, Move | Dash):
        return Hex(*c.path[-1]) if c.path else None
    if isinstance(c, StuckStep | SpecialMove):
        return c.to
    return None


class TacticalPlayer:
    """The easy and hard computer players (docs/ai.md)."""

    def __init__(self, level: str, rng: random.Random) -> None:
        if level not in ("easy", "hard"):
            raise ValueError(f"no tactical computer level {level!r} (easy, hard)")
        self.level = level
        self.rng = rng
        self.memo = Memo()

    def decide(self, system: RuleSystem, view: Any, side: str, budget: Budget) -> Decision:
        state: GameState = view
        cmds = commands_of(system, state, side)
        if not cmds:
            raise ValueError(f"no legal command for side {side!r}")
        self.memo.clear_if_big()
        ctx = Ctx(state, side, self.level == "hard", budget, self.memo, {})
        p = state.pending
        if p is not None and p.kind == "initiative_choice":
            return self._initiative(ctx, cmds)
        if p is not None and p.kind == "turn_place":
            return self._turn_place(ctx, cmds)
        if p is not None and p.kind == "defensive_action":
            return self._defensive(ctx, cmds)
        if state.phase == "movement":
            return self._movement(ctx, cmds)
        return self._attack_phase(ctx, cmds)

    # ---------------------------------------------------------------- prompts
    def _initiative(self, ctx: Ctx, cmds: list[BaseModel]) -> Decision:
        """The option whose roll is best on average; on a tie, the Advantage worth most
        (Command Advantage buys any unit's hit rolls)."""
        prefer = {"tactics": 3, "leadership": 2, "personal": 1, "deception": 0}
        best: tuple[float, int, int] | None = None
        pick = cmds[0]
        for i, c in enumerate(cmds):
            assert isinstance(c, ChooseInitiative)
            roll = initiative_roll(ctx.view, ctx.side, c.option, c.personal_stat)
            mean = roll.stat + roll.skill + (roll.die + 1) / 2
            if c.option == "personal":
                mean -= 1.0  # its troops go last [decision: a small price]
            key = (mean, prefer.get(c.option, 0), -i)
            if best is None or key > best:
                best, pick = key, c
        assert best is not None
        assert isinstance(pick, ChooseInitiative)
        bank = ctx.view.sides[ctx.side].advantage.get("deception", 0)  # (the same on every option)
        chances = initiative_win_chances(ctx.view, ctx.side, pick.option, pick.personal_stat)
        least = (f"; wins the initiative at least {min(chances.values()):.0%} of the time, whatever the enemy picks"
                 if chances else "")
        return Decision(pick, f"rolls {best[0] + bank:.1f} on average"
                              + (f" (with its banked Deception +{bank})" if bank else "") + least)

    def _turn_place(self, ctx: Ctx, cmds: list[BaseModel]) -> Decision:
        """First: moving and shooting before the enemy does is worth more than seeing it move
        (arena, docs/ai.md: a hard player that went last when no attack was ready lost three
        games in four to easy on the movement demo; going first, it won five in eight)."""
        shots = [best_shot(ctx, ctx.view, u.id, e.id) for u in ctx.view.live_units(ctx.side)
                 for e in ctx.enemies() if distance(u.hex, e.hex) <= _reach_of(ctx.view, u)]
        best = max(shots, default=0.0)
        if ctx.hard and hold_due_now(ctx.view):
            last = max(cmds, key=lambda c: c.position)  # type: ignore[attr-defined]
            return Decision(last, "last: hexes are held or lost at the end of this round, so the last move "
                                  "is worth most (the enemy cannot answer it)")
        first = min(cmds, key=lambda c: c.position)  # type: ignore[attr-defined]
        ready = (f"its best attack ready now is worth {_points(best)}" if best >= 0.05 else "no attack is ready yet")
        return Decision(first, f"first: move and shoot before the enemy ({ready})")

    def _defensive(self, ctx: Ctx, cmds: list[BaseModel]) -> Decision:
        """Accept the defensive action when the +AC saves more than the action it costs is
        worth; spend Advantage on casualty rolls when it saves more than it costs."""
        view = ctx.view
        p = view.pending
        assert p is not None and p.attack is not None and p.unit_id is not None
        a = p.attack
        target = view.units[p.unit_id]
        action_worth = self._action_worth(ctx, target)
        best: tuple[float, BaseModel, str] | None = None
        losses: dict[bool, tuple[float, float]] = {}  # accept -> (expected loss, chance to be hit), the least
        for c in cmds:
            assert isinstance(c, DefensiveAction)
            pv = attack_preview(view, a.attacker_id, a.target_id, a.weapon, a.advantage, a.advantage_kind,
                                check_turn=False, casualty_advantage=c.casualty_advantage or None,
                                casualty_kind=c.casualty_advantage_kind)
            if not isinstance(pv, AttackPreview):
                continue
            odds = pv.odds_if_defensive_action if c.accept and pv.odds_if_defensive_action is not None else pv.odds
            loss = odds_value(odds, target, kill_bonus(view, target))
            cost = loss + (action_worth if c.accept else 0.0) + SPEND * (c.casualty_advantage or 0)
            if c.accept not in losses or loss < losses[c.accept][0]:
                losses[c.accept] = (loss, float(odds.hit_chance))
            why = (f"{'take the' if c.accept else 'no'} defensive action: expected loss {_points(loss)}"
                   f" ({float(odds.hit_chance):.0%} chance to be hit)")
            if best is None or cost < best[0] - 1e-9:
                best = (cost, c, why)
        if best is None:
            return Decision(cmds[0], "no answer could be weighed")
        chosen = best[1]
        assert isinstance(chosen, DefensiveAction)
        other = losses.get(not chosen.accept)
        if other is not None:  # the other answer's figures, so that the choice reads as a comparison
            worth = f"{action_worth:.2f}"
            tail = (f"; without it {other[0]:.2f} ({other[1]:.0%}); the attack it costs is worth {worth}"
                    if chosen.accept else
                    f"; with it {other[0]:.2f} ({other[1]:.0%}), not worth the attack it costs ({worth})")
            return Decision(chosen, best[2] + tail)
        return Decision(chosen, best[2])

    # ---------------------------------------------------------------- movement
    def _movement(self, ctx: Ctx, cmds: list[BaseModel]) -> Decision:
        view = ctx.view
        end = next(c for c in cmds if isinstance(c, EndPhase))
        best: tuple[float, BaseModel, str] = (GAIN, end, "nothing left worth moving for")
        moved: tuple[str, Hex] | None = None  # the unit and end hex of the best move so far (for its why)
        by_unit: dict[str, list[BaseModel]] = {}
        for c in cmds:
            if isinstance(c, Move | Dash | Charge | SpecialMove | StuckStep):
                by_unit.setdefault(c.unit_id, []).append(c)
        for uid, options in by_unit.items():
            if ctx.budget.out_of_time() and best[1] is not end:
                break  # the time is up: the best so far (the work limit stops only the weighing of ends)
            u = view.units[uid]
            here = place_value(ctx, view, uid, u.hex)
            # charges first (their own value), then the other moves by where they end
            for c in options:
                if isinstance(c, Charge):
                    scored = self._charge_value(ctx, c)
                    if scored is not None and scored[0] > best[0]:
                        best = (scored[0], c, scored[1])
            for c, _h in self._candidates(ctx, uid, [c for c in options if not isinstance(c, Charge)]):
                if ctx.budget.expired() and best[1] is not end:
                    break
                end_hex, cost, why = self._move_end(ctx, c)
                if end_hex is None:
                    continue
                # a vehicle's dash happens only when its pilot check passes (else it stays: nothing
                # gained, nothing drawn on the way)
                sure, pilot = self._pilot(view, c)
                gain = sure * (place_value(ctx, view, uid, end_hex) - here - cost)
                why += pilot
                if gain > best[0]:
                    best = (gain, c, why)
                    moved = (uid, end_hex)
        if moved is not None and best[1] is not end and not isinstance(best[1], Charge):
            return Decision(best[1], self._move_why(ctx, best[1], *moved, best[0], best[2]))
        return Decision(best[1], best[2])

    def _move_why(self, ctx: Ctx, c: BaseModel, uid: str, to: Hex, gain: float, overwatch: str) -> str:
        """The why of a move, in the terms of the evaluation (`place_value`): the objective it
        nears, the attack it opens from there, the enemy fire there against here."""
        view = ctx.view
        u = view.units[uid]
        parts: list[str] = []
        for obj in view.setup.objectives:
            if obj.kind == "hold" and obj.side == ctx.side and obj.hexes:
                before = min(distance(u.hex, x) for x in obj.hexes)
                after = min(distance(to, x) for x in obj.hexes)
                if after == 0:
                    parts.append("onto a hex it must hold")
                elif after < before:
                    parts.append(f"{_hexes(before - after)} nearer the hexes it must hold")
                break
        for obj in view.setup.objectives:  # the enemy's hexes to hold: standing there blocks them
            if obj.kind == "hold" and obj.side != ctx.side and obj.hexes:
                before = min(distance(u.hex, x) for x in obj.hexes)
                after = min(distance(to, x) for x in obj.hexes)
                if after == 0:
                    parts.append(f"onto a hex {view.side_name(obj.side)} must hold, to block it")
                elif after < before:
                    parts.append(f"{_hexes(before - after)} nearer the hexes {view.side_name(obj.side)} must hold")
                break
        enemies = ctx.enemies()
        if not parts and enemies and any(o.kind == "destroy_all" and o.side == ctx.side for o in view.setup.objectives):
            before = min(distance(u.hex, e.hex) for e in enemies)
            after = min(distance(to, e.hex) for e in enemies)
            if after < before:
                parts.append(f"closing on the enemy ({_hexes(after)} away)")
        if not u.action_used and not u.out_of_action:
            there = _moved(view, uid, to)
            shots = [(best_shot(ctx, there, uid, e.id), e.id) for e in enemies]
            shot, target = max(shots, default=(0.0, ""))
            if shot >= 0.05:
                parts.append(f"from there it can attack {view.unit_name(target)} (worth {shot:.1f})")
        danger, now = danger_at(ctx, view, uid, to), danger_at(ctx, view, uid, u.hex)
        if danger > 0.05 or now > 0.05:
            parts.append(f"enemy fire expected there {danger:.1f}, here {now:.1f}")
        reasons = "; ".join(parts) if parts else f"a better place than {hex_name(view.board, u.hex)}"
        # (the command itself, "move X to 10,10", stands beside the why wherever it is shown)
        return f"{reasons}; gains {gain:.2f} in all (in strength points){overwatch}"

    def _candidates(self, ctx: Ctx, uid: str, options: list[BaseModel]) -> list[tuple[BaseModel, Hex]]:
        """The moves worth weighing in full: per end hex its cheapest way there (a move before a
        dash), then the best few by the objectives alone and the best few from which an enemy
        is in range and in sight (the hard level weighs more of each)."""
        view = ctx.view
        u = view.units[uid]
        first: dict[Hex, BaseModel] = {}
        for c in options:
            h = _end_of(c)
            if h is not None and h != u.hex and h not in first:
                first[h] = c  # legal_commands lists moves before dashes and stuck steps
        if not first:
            return []
        keep = 10 if ctx.hard else 6
        cheap = sorted(first, key=lambda h: (-objective_term(view, ctx.side, uid, h), h))
        weapons = [w for w in view.unit_type(uid).weapons]
        enemies = ctx.enemies()

        def in_range(h: Hex) -> bool:
            for w in weapons:
                for e in enemies:
                    d = distance(h, e.hex)
                    if (d == 1 if w.melee else (w.bands is not None and d <= w.bands[3] and sees(ctx, view, h, e.hex))):
                        return True
            return False

        picked = cheap[:keep]
        if not u.action_used:
            picked += [h for h in cheap[keep:] if in_range(h)][:keep]
        return [(first[h], h) for h in picked]

    def _move_end(self, ctx: Ctx, c: BaseModel) -> tuple[Hex | None, float, str]:
        view = ctx.view
        if isinstance(c, Move | Dash):
            path = tuple(c.path)
            if not path:
                return None, 0.0, ""
            cost, why = exposure_cost(ctx, view, c.unit_id, path, c.kind)
            if isinstance(c, Dash):
                cost += self._dash_cost(view, c.unit_id)
            return path[-1], cost, why
        if isinstance(c, StuckStep):
            cost, why = exposure_cost(ctx, view, c.unit_id, (c.to,), "stuck_step")
            cost += ADRENALINE * 2 if c.pay == "adrenaline" else opportunity_at(ctx, view, c.unit_id, view.units[c.unit_id].hex)
            return c.to, cost, why
        if isinstance(c, SpecialMove):
            return c.to, 0.1, ""
        return None, 0.0, ""

    @staticmethod
    def _pilot(view: GameState, c: BaseModel) -> tuple[float, str]:
        """(the chance a dash or charge goes ahead: its vehicle's pilot check, the rules' exact
        chance; 1 for anything else, and the words for its why)."""
        if not isinstance(c, Dash | Charge):
            return 1.0, ""
        chance = pilot_check_chance(view, c.unit_id)
        if chance is None:
            return 1.0, ""
        return chance, f"; pilot check {chance:.0%}"

    def _dash_cost(self, view: GameState, uid: str) -> float:
        u = view.units[uid]
        if view.unit_type(uid).living and u.leadership < 2:
            return ADRENALINE * view.setup.rules.dash.adrenaline_cost
        return SPEND * 2 if u.leadership >= 2 else 0.0

    def _charge_value(self, ctx: Ctx, c: Charge) -> tuple[float, str] | None:
        pv = charge_preview(ctx.view, c)
        if not isinstance(pv, ChargePreview):
            return None
        view = ctx.view
        u = view.units[c.unit_id]
        target = view.units[c.target_id]
        odds = pv.attack.odds
        # The defender's answer is not weighed here: the moves this charge is compared with are
        # weighed by the attacks they open without it (opportunity_at), and a hard player that
        # weighed it here alone stopped charging (demo-overwatch as the Jibril: 1 win in 30
        # against random, 14 in 30 without it).
        gain = odds_value(odds, target, kill_bonus(view, target) + self._clearing(ctx, target))
        mine = kill_bonus(view, u)
        risk = sum(odds_value(s.odds, u, mine) for s in pv.exposure)
        if pv.guard_counter is not None:
            risk += odds_value(pv.guard_counter, u, mine)
        end = c.path[-1] if c.path else u.hex
        place = place_value(ctx, view, c.unit_id, end) - place_value(ctx, view, c.unit_id, u.hex)
        place -= OPPORTUNITY * opportunity_at(ctx, view, c.unit_id, end)  # the charge is its attack
        sure, pilot = self._pilot(view, c)  # a vehicle charges only when its pilot check passes
        value = sure * (gain - risk + place) - self._dash_cost(view, c.unit_id)
        return value, (f"{float(odds.hit_chance):.0%} to hit, worth {gain:.2f} against a risk of {risk:.2f} "
                       f"(in strength points){pilot}")

    # ---------------------------------------------------------------- attack phase
    def _attack_phase(self, ctx: Ctx, cmds: list[BaseModel]) -> Decision:
        end = next((c for c in cmds if isinstance(c, EndPhase)), None)
        best: tuple[float, BaseModel, str] | None = (GAIN, end, "no attack or stance worth taking") if end else None
        attacks = [c for c in cmds if isinstance(c, Attack)]
        scored: list[tuple[float, Attack, Odds]] = []
        for a in attacks:
            got = self._attack_value(ctx, a)
            if got is not None:
                scored.append((got[0], got[1], got[2]))
        scored.sort(key=lambda s: -s[0])
        if ctx.hard and len(scored) > 1:
            scored = self._lookahead(ctx, scored)
        if ctx.hard and scored and scored[0][0] > GAIN:
            handed = self._hand_leadership(ctx, cmds, scored[0][1], scored[0][2])
            if handed is not None:
                return handed
        for value, att, odds in scored[:1]:
            answered = ctx.answered.get(id(odds))
            plain = answered[1] if answered is not None and answered[0] is odds else None
            hit = (f"{float(plain.hit_chance):.0%} to hit, {float(odds.hit_chance):.0%} if it takes the defensive "
                   "action (weighed as taken)" if plain is not None else f"{float(odds.hit_chance):.0%} to hit")
            why = (f"{hit}, {float(odds.results.get('destroyed', 0) + odds.results.get('annihilated', 0)):.0%} "
                   f"to destroy; worth {_points(value)}")
            if best is None or value > best[0]:
                best = (value, att, why)
        for s in cmds:
            if isinstance(s, EnterStance):
                v, why = self._stance_value(ctx, s, scored)
                if best is None or v > best[0]:
                    best = (v, s, why)
        if best is None or best[1] is None:
            return Decision(cmds[0], "the only command")
        return Decision(best[1], best[2])

    def _attack_value(self, ctx: Ctx, c: Attack) -> tuple[float, Attack, Odds] | None:
        """The attack's expected value by its exact odds (hard: with the defender's best answer,
        and the Command Advantage spent where it adds most)."""
        view = ctx.view
        target = view.units[c.target_id]
        options: list[Attack] = [c]
        if ctx.hard:
            for kind in ("command", "leadership"):
                pool = held_advantage(view, view.units[c.attacker_id], kind)
                options += [c.model_copy(update={"advantage": n, "advantage_kind": kind}) for n in range(1, min(pool, 3) + 1)]
        best: tuple[float, Attack, Odds] | None = None
        for cmd in options:
            pv = attack_preview(view, cmd.attacker_id, cmd.target_id, cmd.weapon, cmd.advantage, cmd.advantage_kind)
            if not isinstance(pv, AttackPreview):
                continue
            ctx.budget.spend()
            odds = pv.odds
            value = odds_value(odds, target, kill_bonus(view, target) + self._clearing(ctx, target))
            if ctx.hard:
                value += REPLY * threat_cut(ctx, target, odds)
            if ctx.hard and pv.odds_if_defensive_action is not None:
                value, odds = self._defender_answer(ctx, target, value, odds, pv.odds_if_defensive_action)
            value -= (HELD if cmd.advantage_kind == "leadership" else SPEND) * cmd.advantage
            if best is None or value > best[0]:
                best = (value, cmd, odds)
        return best

    def _clearing(self, ctx: Ctx, target: UnitState) -> float:
        return clearing_bonus(ctx.view, ctx.side, target) if ctx.hard else 0.0

    def _hand_leadership(self, ctx: Ctx, cmds: list[BaseModel], att: Attack, odds: Odds) -> Decision | None:
        """Hard: before the best attack, the side's Leadership points go to its attacker, which
        spends them on the hit roll (`_attack_value` weighs that), unless it cannot miss."""
        if float(odds.hit_chance) >= 0.999:
            return None
        hand = [c for c in cmds if isinstance(c, AssignLeadership) and c.unit_id == att.attacker_id]
        if not hand:
            return None
        most = max(hand, key=lambda c: c.points)
        # the attack weighed again as if the attacker held the points (a position built only to
        # be weighed): they are handed only if it would spend them
        view = ctx.view
        units = dict(view.units)
        holder = units[att.attacker_id]
        units[att.attacker_id] = holder.model_copy(update={"leadership": holder.leadership + most.points})
        sides = dict(view.sides)
        pool = dict(sides[ctx.side].advantage)
        pool["leadership"] = pool.get("leadership", 0) - most.points
        sides[ctx.side] = sides[ctx.side].model_copy(update={"advantage": pool})
        then = Ctx(view.model_copy(update={"units": units, "sides": sides}), ctx.side, ctx.hard, ctx.budget, ctx.memo, {})
        got = self._attack_value(then, att.model_copy(update={"advantage": 0, "advantage_kind": None}))
        if got is None or got[1].advantage_kind != "leadership":
            return None
        return Decision(most, f"{counted(most.points, 'Leadership point', 'Leadership points')} to {ctx.view.unit_name(att.attacker_id)} "
                              f"for its attack ({float(odds.hit_chance):.0%} to hit without them)")

    def _defender_answer(self, ctx: Ctx, target: UnitState, value: float, odds: Odds, with_da: Odds) -> tuple[float, Odds]:
        """The defender's best answer, as this player answers itself (`_defensive`): it takes the
        defensive action when the AC saves it more than the action it costs is worth; the
        attack's value is then the loss with the defensive action plus that action."""
        action = self._action_worth(ctx, target)
        da_value = (odds_value(with_da, target, kill_bonus(ctx.view, target) + self._clearing(ctx, target))
                    + REPLY * threat_cut(ctx, target, with_da))
        if da_value + action < value:
            ctx.answered[id(with_da)] = (with_da, odds)
            return da_value + action, with_da
        return value, odds

    def _action_worth(self, ctx: Ctx, unit: UnitState) -> float:
        """What a unit's action is worth to its side: part of its best shot at the other side (a
        defensive action costs this turn's action, or the next turn's once this one is used)."""
        other = [u for u in ctx.view.live_units() if u.side != unit.side]
        return max((best_shot(ctx, ctx.view, unit.id, e.id) for e in other), default=0.0) * 0.7 + 0.2

    def _lookahead(self, ctx: Ctx, scored: list[tuple[float, Attack, Odds]]) -> list[tuple[float, Attack, Odds]]:
        """Over the exact dice of each of the best attacks, the best attack another of our units
        could make next: focus fire where a first result opens a kill, spread it where it does not."""
        view = ctx.view
        out: list[tuple[float, Attack, Odds]] = []
        for value, c, odds in scored[:4]:
            if ctx.budget.expired():
                out.append((value, c, odds))
                continue
            target = view.units[c.target_id]
            follow = 0.0
            others = [x for _, x, _ in scored if x.attacker_id != c.attacker_id]
            for (lost, result), p in odds.joint.items():
                after = after_outcome(target, lost, result)
                units = dict(view.units)
                units[target.id] = after
                units[c.attacker_id] = units[c.attacker_id].model_copy(update={"action_used": True})
                then = view.model_copy(update={"units": units})
                nxt = 0.0
                for x in others:
                    if x.target_id == target.id and not after.alive:
                        continue
                    t2 = then.units[x.target_id]
                    v = shot_value(ctx, then, x.attacker_id, x.target_id, x.weapon)
                    if v is not None:
                        nxt = max(nxt, v if t2.alive else 0.0)
                follow += float(p) * nxt
            best_other = max((v for v, x, _ in scored if x.attacker_id != c.attacker_id), default=0.0)
            out.append((value + 0.5 * (follow - best_other), c, odds))
        out.sort(key=lambda s: -s[0])
        return out + scored[4:]

    def _stance_value(self, ctx: Ctx, c: EnterStance, scored: list[tuple[float, Attack, Odds]]) -> tuple[float, str]:
        """Waiting: overwatch is worth part of the shot it could take at an enemy that comes
        on; guard part of a counter; a defensive stance part of the danger it stands in."""
        view = ctx.view
        u = view.units[c.unit_id]
        own_attack = max((v for v, x, _ in scored if x.attacker_id == u.id), default=0.0)
        if c.stance == "overwatch" and c.weapon is not None:
            w = next(w for w in view.unit_type(u.id).weapons if w.name == c.weapon)
            near = [e for e in ctx.enemies() if w.bands is not None and distance(e.hex, u.hex) <= w.bands[3] + view.unit_type(e.id).move]
            if not near:
                return 0.0, "no enemy can come into its field of fire"
            shot = max((shot_value(ctx, view, u.id, e.id, w.name, overwatch=True) or 0.0) for e in near)
            v = 0.45 * max(shot, 0.3) if own_attack < GAIN else 0.3 * shot
            return v, f"{counted(len(near), 'enemy unit', 'enemy units')} may come into its field of fire"
        if c.stance == "guard":
            near = [e for e in ctx.enemies() if distance(e.hex, u.hex) <= view.unit_type(e.id).move + 1]
            v = 0.25 * len(near) if near else 0.0
            return min(v, 0.6), f"{counted(len(near), 'enemy unit', 'enemy units')} may charge it"
        danger = danger_at(ctx, view, u.id, u.hex)
        return 0.25 * danger, f"where it stands, the enemy's fire could cost it {_points(danger)}"


def player(level: str, rng: random.Random) -> Any:
    """A tactical computer player of `level` ("random", "easy", "hard")."""
    if level == "random":
        return RandomPlayer(rng, commands_of)
    return TacticalPlayer(level, rng)
