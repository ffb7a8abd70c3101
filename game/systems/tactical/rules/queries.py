"""Queries for the client: pure, and built from the very code `apply` runs, so a preview can
never disagree with the result.

- `move_reach` / `dash_reach`: where one move action can end (cost per hex, path_to, road-only hexes).
- `overwatch_exposure`: for a chosen path, every step where overwatch would fire, by whom, and
  the exact odds of each shot (assuming the earlier shots did not stop the mover).
- `attack_preview`: the AC in parts, the hit modifiers and the exact outcome odds (with and
  without the defender's defensive action when it may take one).
- `legal_commands`: every command `apply` would accept now (moves to every reachable hex, a move
  then a dash to every hex only that reaches).
- `dash_payments`: the ways a unit may pay for a dash, each with the rules' verdict (base_queries.py).
- `units_that_can_act`: the units of a side with something left to do this phase
  (`unit_can_act`: the same asked of one unit).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from game.core.hexgrid import Hex, distance, neighbours
from game.systems.tactical.rules import initiative
from game.systems.tactical.rules.attack import (
    ACBreakdown,
    AttackSetup,
    accuracy_challenge,
    hit_check,
    hit_die,
    hit_modifiers,
    hit_stat_and_skill,
)
from game.systems.tactical.rules.attacks import (
    check_attack,
    defensive_action_available,
    held_advantage,
    make_setup,
    triggered_advantage,
)
from game.systems.tactical.rules.base_queries import (
    DashPayment,
    Exposure,
    dash_payments,
    dash_refusal,
    kept_dash_reach,
    kept_move_reach,
    memo,
    overwatch_exposure,
)
from game.systems.tactical.rules.check import Modifier, die_for, success_chance
from game.systems.tactical.rules.commands import (
    AssignLeadership,
    Attack,
    Charge,
    ChooseInitiative,
    ChooseTurnPlace,
    Dash,
    DefensiveAction,
    EndPhase,
    EnterStance,
    Move,
    SetCasualtyAdvantage,
    SpecialMove,
    StuckStep,
)
from game.systems.tactical.rules.common import active_unit, name
from game.systems.tactical.rules.initiative import PERSONAL_SKILL, commander
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.move_then_dash import move_then_dash_commands
from game.systems.tactical.rules.movement import (
    Reach,
    _holders,
    check_charge,
    dash_payment,
    dash_reach,
    has_a_free_step,
    move_reach,
    special_move_targets,
    stuck_steps,
    terrain_bars_dash,
)
from game.systems.tactical.rules.odds import Odds, outcome_distribution
from game.systems.tactical.rules.overwatch import guard_weapon_of
from game.systems.tactical.rules.state import AdvantageKind, CasualtyAdvantageKind, GameState, UnitState
from game.systems.tactical.rules.txn import Reject, Rejection

OPTIONS: tuple[Literal["tactics", "leadership", "deception"], ...] = ("tactics", "leadership", "deception")

__all__ = [
    "AttackPreview", "ChargePreview", "DashPayment", "Exposure", "Reach", "attack_preview", "charge_preview",
    "dash_payments", "dash_reach", "dash_refusal", "kept_dash_reach", "kept_move_reach", "legal_commands", "memo",
    "move_reach", "move_then_dash_commands", "overwatch_exposure", "preview", "special_move_targets", "unit_can_act",
    "units_that_can_act",
]


@dataclass(frozen=True)
class AttackPreview:
    """The exact odds and the breakdown of an attack, before it is made."""
    attacker_id: str
    target_id: str
    weapon: str
    ac: ACBreakdown
    hit_modifiers: tuple[Modifier, ...]
    odds: Odds
    defensive_action_possible: bool
    odds_if_defensive_action: Odds | None
    # Set when the attack cannot hit at all (0 % to hit): a sentence saying so, with the best hit
    # roll possible against the AC, for the client to show before the attack is made. The attack
    # stays legal (a player may still make it); None when some roll hits.
    no_chance: str | None = None

    @property
    def hopeless(self) -> bool:
        """True when the chance to hit is 0 %."""
        return self.no_chance is not None


def no_chance_sentence(setup: AttackSetup, ac: ACBreakdown) -> str | None:
    """A sentence when even the best hit die misses (0 % to hit), else None."""
    best = hit_check(setup, ac, hit_die(setup))
    if best.success:
        return None
    parts = [f"{best.stat_name} {best.stat}", f"{best.skill_name} {best.skill}", f"d{best.die_sides} at most {best.die}"]
    parts += [f"{m.label} {m.value:+d}" for m in best.modifiers]
    return (f"no chance to hit (0 %): the best possible roll is {best.total} ({', '.join(parts)}) "
            f"against AC {ac.total}")


def attack_preview(state: GameState, attacker_id: str, target_id: str, weapon: str, advantage: int = 0,
                   advantage_kind: AdvantageKind | None = None, *, check_turn: bool = True,
                   casualty_advantage: int | None = None, casualty_kind: CasualtyAdvantageKind | None = None,
                   ) -> AttackPreview | Rejection:
    """The exact odds of an attack (Rejection with the reason when it can't be made now).

    The target's Advantage on its casualty rolls counts: its standing order, or (the defender
    weighing its answer to the defensive-action prompt) `casualty_advantage` points of
    `casualty_kind` on each casualty roll."""
    cmd = Attack(attacker_id=attacker_id, target_id=target_id, weapon=weapon, advantage=advantage,
                 advantage_kind=advantage_kind)
    try:
        setup = check_attack(state, cmd, check_turn=check_turn)
    except Reject as exc:
        return Rejection(exc.reason)
    if casualty_advantage is not None:
        setup = make_setup(state, attacker_id, target_id, weapon, advantage=advantage,
                           casualty_advantage=casualty_advantage, casualty_kind=casualty_kind)
    ac = accuracy_challenge(setup)
    assert not isinstance(ac, str)
    da = (state.setup.rules.defensive_action_prompt == "ask" and defensive_action_available(state, target_id))
    da_odds = None
    if da:
        da_odds = outcome_distribution(make_setup(state, attacker_id, target_id, weapon, advantage=advantage,
                                                  defensive_action=True, casualty_advantage=casualty_advantage,
                                                  casualty_kind=casualty_kind))
    return AttackPreview(attacker_id, target_id, weapon, ac, hit_modifiers(setup), outcome_distribution(setup),
                         da, da_odds, no_chance_sentence(setup, ac))


@dataclass(frozen=True)
class ChargePreview:
    """Before a charge: the overwatch it runs into, the guard's counter-attack (when the target
    is on guard) and the charge's own melee attack from its last hex (assuming it gets there)."""

    exposure: list[Exposure]
    guard_weapon: str | None
    guard_counter: Odds | None
    attack: AttackPreview


def charge_preview(state: GameState, command: Charge) -> ChargePreview | Rejection:
    try:
        plan = check_charge(state, command)
    except Reject as exc:
        return Rejection(exc.reason)
    end = plan.info.path[-1] if plan.info.path else state.units[plan.unit_id].hex
    units = dict(state.units)
    units[plan.unit_id] = units[plan.unit_id].model_copy(
        update={"hex": end, "moved": units[plan.unit_id].moved or bool(plan.info.path)})
    there = state.model_copy(update={"units": units})
    target = state.units[plan.target_id]
    guard_weapon: str | None = None
    guard_odds: Odds | None = None
    if target.stance == "guard" and not target.out_of_action:
        guard_weapon = guard_weapon_of(state, target.id)
        if guard_weapon is not None:
            guard_odds = outcome_distribution(make_setup(there, target.id, plan.unit_id, guard_weapon, counter=True,
                                                         advantage=triggered_advantage(there, target.id)[0]))
    attack = attack_preview(there, plan.unit_id, plan.target_id, plan.weapon, command.advantage,
                            command.advantage_kind, check_turn=False)
    if isinstance(attack, Rejection):
        return attack
    return ChargePreview(overwatch_exposure(state, plan.unit_id, plan.info.path, "charge"), guard_weapon,
                         guard_odds, attack)


def preview(state: GameState, command: BaseModel) -> object:
    """What the client shows before sending `command` (None when there is nothing to show):
    Attack -> AttackPreview | Rejection; Charge -> ChargePreview | Rejection;
    Move / Dash -> list[Exposure] (overwatch along the path)."""
    if isinstance(command, Attack):
        return attack_preview(state, command.attacker_id, command.target_id, command.weapon,
                              command.advantage, command.advantage_kind)
    if isinstance(command, Charge):
        return charge_preview(state, command)
    if isinstance(command, Move | Dash):
        return overwatch_exposure(state, command.unit_id, command.path, command.kind)
    return None


# --------------------------------------------------------------------------- a memo per state
# --------------------------------------------------------------------------- what can act

def _slot_units(state: GameState, side: str) -> list[UnitState]:
    slot = state.active_slot
    if slot is None or slot.side != side or state.pending is not None:
        return []
    return [u for u in state.units.values() if u.alive and state.acts_in(slot, u)]


def can_still_move(state: GameState, u: UnitState) -> bool:
    """The unit has a movement command `apply` would take now (a move, a stuck step, a dash, a
    charge or a special move): the same generator as `legal_commands`, stopped at the first.
    The usual case is answered without a reach search: a unit that has not moved and has a free
    neighbour it may enter has a move (`has_a_free_step`); every other case asks the generator."""
    if u.pinned or u.out_of_action:
        return False
    if not u.move_done and has_a_free_step(state, u.id, "move"):
        return True  # the generator's first command would be a move to that hex (or a cheaper one)
    return next(_movement_commands(state, u), None) is not None


def can_still_act(state: GameState, u: UnitState) -> bool:
    """The unit still has its one action of this turn: an attack or a stance. (A unit that charged
    has used it: the charge's melee attack was its action.)"""
    return not u.out_of_action and not u.action_used


def units_that_can_act(state: GameState, side: str) -> list[str]:
    """Units of `side` with something left to do in the current phase of its turn: exactly the
    units `legal_commands` has a movement (Movement phase) or attack / stance (Attack phase)
    command for. A unit that has charged, dashed after its move, or been barred from dashing by
    difficult terrain once its move is spent, is not listed in the Movement phase; one that has
    attacked, charged or taken a stance is not listed in the Attack phase."""
    if state.phase == "movement":
        return [u.id for u in _slot_units(state, side) if can_still_move(state, u)]
    if state.phase == "attack":
        return [u.id for u in _slot_units(state, side) if can_still_act(state, u)]
    return []


def unit_can_act(state: GameState, unit_id: str) -> bool:
    """Whether `units_that_can_act(state, side)` lists the unit (for its own side): the same test
    for one unit, without asking it of every unit of the side (the map's rings ask it of the
    counters in view, the battle scene of the unit it keeps selected after each command)."""
    u = state.units.get(unit_id)
    slot = state.active_slot
    if u is None or not u.alive or slot is None or slot.side != u.side or state.pending is not None:
        return False
    if not state.acts_in(slot, u):
        return False
    if state.phase == "movement":
        return can_still_move(state, u)
    if state.phase == "attack":
        return can_still_act(state, u)
    return False


def why_unit_cannot_act(state: GameState, unit_id: str) -> str | None:
    """None when the unit is one `units_that_can_act` lists now, else a sentence saying why not
    (for the client's hint when a player picks a unit that is done)."""
    u = state.units.get(unit_id)
    if u is None or not u.alive:
        return f"{unit_id} is not on the map"
    who = name(state, unit_id)
    if state.phase not in ("movement", "attack"):
        return f"it is the {state.phase.capitalize()} phase: no unit acts now"
    if state.pending is not None:
        return "the game is waiting for a decision first"
    slot = state.active_slot
    if slot is None or not state.acts_in(slot, u):
        return f"{who} does not act in this turn"
    if unit_can_act(state, unit_id):
        return None
    if u.out_of_action:
        return f"{who} is out of action until the end of its side's next turn"
    if state.phase == "movement":
        if u.pinned:
            return f"{who} is pinned: it cannot move this Movement phase"
        if u.dashed:
            return f"{who} has taken its second move (dash, charge or special move) this turn"
        barred = terrain_bars_dash(state, u)
        if u.move_done and barred:
            return barred
        return f"{who} has no move left it can make this turn"
    if u.stance != "none":
        return f"{who} has already used its action this turn (it is in {u.stance})"
    return f"{who} has already used its action this turn"


# --------------------------------------------------------------------------- legal commands

def legal_commands(state: GameState) -> list[BaseModel]:
    """Every command `apply` would accept now (dash, charge and move then dash listed with their
    default payment; a move then a dash once per hex only it reaches, `move_then_dash_commands`)."""
    if state.phase == "ended":
        return []
    p = state.pending
    if p is not None:
        if p.kind == "initiative_choice":
            out: list[BaseModel] = []
            for chooser in p.sides:
                for opt in OPTIONS:
                    out.append(ChooseInitiative(side=chooser, option=opt))
                for stat in initiative.personal_stat_options(state, chooser):
                    out.append(ChooseInitiative(side=chooser, option="personal", personal_stat=stat))
            return out
        if p.kind == "turn_place":
            return [ChooseTurnPlace(side=p.sides[0], position=i) for i in range(len(p.ranking))]
        assert p.unit_id is not None
        answers: list[BaseModel] = []
        for accept in (True, False):
            answers.append(DefensiveAction(unit_id=p.unit_id, accept=accept))
            answers.extend(DefensiveAction(unit_id=p.unit_id, accept=accept, casualty_advantage=1,
                                           casualty_advantage_kind=kind)
                           for kind in _casualty_kinds(state, state.units[p.unit_id]))
        return answers
    active = state.active_side
    assert active is not None
    side: str = active
    out = []
    if state.phase == "movement":
        for u in _slot_units(state, side):
            out.extend(_movement_commands(state, u))
    else:
        for u in _slot_units(state, side):
            out.extend(_attack_commands(state, u))
    pool = state.sides[side].advantage.get("leadership", 0)
    for u in state.live_units(side):
        out.extend(AssignLeadership(side=side, unit_id=u.id, points=n) for n in range(1, pool + 1))
        out.extend(SetCasualtyAdvantage(unit_id=u.id, points=1, advantage_kind=kind)
                   for kind in _casualty_kinds(state, u))
        if u.casualty_advantage:
            out.append(SetCasualtyAdvantage(unit_id=u.id, points=0))
    out.append(EndPhase(side=side))
    return out


def _casualty_kinds(state: GameState, u: UnitState) -> list[CasualtyAdvantageKind]:
    """The kinds of Advantage the unit holds points of, to spend on its casualty rolls."""
    kinds: tuple[CasualtyAdvantageKind, ...] = ("leadership", "personal")
    return [k for k in kinds if held_advantage(state, u, k) > 0]


def _movement_commands(state: GameState, u: UnitState) -> Iterator[BaseModel]:
    """Every movement command of `u` that `apply` would accept now, lazily (so `can_still_move`
    stops at the first)."""
    if u.pinned or u.out_of_action:
        return
    if not u.move_done:
        reach = move_reach(state, u.id)
        for h in sorted(reach.costs):
            yield Move(unit_id=u.id, path=tuple(reach.path_to(h)))
        yield from _stuck_commands(state, u)
    if u.dashed:
        return
    try:
        dash_payment(state, u, None)
        can_dash = True
    except Reject:
        can_dash = False
    if can_dash:
        reach = dash_reach(state, u.id)  # empty when difficult terrain bars the dash
        for h in sorted(reach.costs):
            yield Dash(unit_id=u.id, path=tuple(reach.path_to(h)))
        melee = [w.name for w in state.unit_type(u.id).weapons if w.melee]
        if melee and not u.action_used:
            enemies = [e for e in state.live_units() if e.side != u.side]
            # A charge moves at least one hex (it is a dash): never from where the unit stands.
            ends = [(h, reach.path_to(h)) for h in sorted(reach.costs)]
            for e in enemies:
                for end, path in ends:
                    if distance(end, e.hex) == 1:
                        for w in melee:
                            yield Charge(unit_id=u.id, path=tuple(path), target_id=e.id, weapon=w)
        yield from move_then_dash_commands(state, u.id)  # (none once the unit has moved)
    yield from _special_moves(state, u)


def _special_moves(state: GameState, u: UnitState) -> list[SpecialMove]:
    return [SpecialMove(unit_id=u.id, to=h) for h in special_move_targets(state, u.id)]


def special_move_commands(state: GameState, unit_id: str) -> list[SpecialMove]:
    """The special moves the unit may make now (one per hex it may land on): those `legal_commands`
    lists for it (none once it has dashed, charged or moved specially, or while pinned or out of
    action), asked of that unit alone."""
    u = state.units[unit_id]
    if u.pinned or u.out_of_action or u.dashed or not _moves_now(state, unit_id):
        return []
    return _special_moves(state, u)


def _moves_now(state: GameState, unit_id: str) -> bool:
    """The unit acts in the Movement phase of the slot playing now (`active_unit`'s test)."""
    try:
        active_unit(state, unit_id, "movement")
    except Reject:
        return False
    return True


def _stuck_commands(state: GameState, u: UnitState) -> Iterator[StuckStep]:
    for n in stuck_steps(state, u):
        if state.unit_at(n) is None:
            if state.unit_type(u.id).living and u.adrenaline >= state.setup.rules.dash.adrenaline_cost:
                yield StuckStep(unit_id=u.id, to=n, pay="adrenaline")
            if not u.action_used:
                yield StuckStep(unit_id=u.id, to=n, pay="attack")


def _attack_commands(state: GameState, u: UnitState) -> list[BaseModel]:
    out: list[BaseModel] = []
    if not can_still_act(state, u):
        return out
    ut = state.unit_type(u.id)
    for e in state.live_units():
        if e.side == u.side:
            continue
        for w in ut.weapons:
            cmd = Attack(attacker_id=u.id, target_id=e.id, weapon=w.name)
            try:
                check_attack(state, cmd)
            except Reject:
                continue
            out.append(cmd)
    out.extend(_stances(state, u))
    return out


def _stances(state: GameState, u: UnitState) -> list[EnterStance]:
    ut = state.unit_type(u.id)
    out = [EnterStance(unit_id=u.id, stance="overwatch", weapon=w.name) for w in ut.weapons if not w.melee]
    if any(w.melee for w in ut.weapons):
        out.append(EnterStance(unit_id=u.id, stance="guard"))
    out.append(EnterStance(unit_id=u.id, stance="defensive"))
    return out


def stance_commands(state: GameState, unit_id: str) -> list[EnterStance]:
    """The stances the unit may take now (overwatch with each ranged weapon, guard with a melee
    weapon, defensive): those `legal_commands` lists for it, asked of that unit alone."""
    u = state.units.get(unit_id)
    if u is None or not unit_can_act(state, unit_id) or state.phase != "attack":
        return []
    return _stances(state, u)


# --------------------------------------------------------------------------- a unit's numbers

@dataclass(frozen=True)
class StatLine:
    """One line of a unit's card: a label ("stats", "skills", "strength", ..., or a weapon's or
    defence's name) and its text in plain words."""

    label: str
    text: str


def stat_lines(state: GameState, unit_id: str) -> list[StatLine]:
    """A unit's numbers as the rules use them, for its card: stats, skills, strength, durability,
    morale, move, Adrenaline (living units), size, then each weapon with the hit roll it makes
    (stat + skill + die, the d6 when the skill is 0, aether for spells), each defence, the
    special move. From the unit's own type (a GM-edited type included), so the card cannot show
    other numbers than the attack and the odds use."""
    u = state.units[unit_id]
    t = state.unit_type(unit_id)
    rules = state.setup.rules
    stats = t.stats
    lines = [StatLine("stats", f"physique {stats.physique}, senses {stats.senses}, intellect {stats.intellect}, "
                               f"aether {stats.aether}")]
    if t.skills:
        lines.append(StatLine("skills", ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in t.skills.items())))
    lines.append(StatLine("strength", f"{u.strength} of {t.strength}"))
    lines.append(StatLine("durability", str(t.durability)))
    lines.append(StatLine("morale", f"{t.morale:+d}"))
    lines.append(StatLine("move", str(t.move)))
    if t.living:
        lines.append(StatLine("adrenaline", f"{u.adrenaline} of {t.stats.physique}"))
    lines.append(StatLine("size", t.size))
    for w in t.weapons:
        stat_name, stat, skill_name, skill = hit_stat_and_skill(t, w)
        reach = "melee" if w.melee else "range " + "/".join(str(b) for b in w.bands or ())
        traits = f", {', '.join(x.replace('_', ' ') for x in w.traits)}" if w.traits else ""
        dmg = f", damage {w.damage}" if w.damage != 1 else ""
        hit = f"{stat_name} {stat} + {skill_name.replace('_', ' ')} {skill} + d{die_for(skill, rules.check)}"
        lines.append(StatLine(w.name, f"FP {w.fp}, {reach}{traits}{dmg}; hits with {hit}"))
    for d in t.defences:
        lines.append(StatLine(d.name, f"{d.target}+ on a d10, {d.effect}{', cumulative' if d.cumulative else ''}"))
    if t.special_move is not None:
        sm = t.special_move
        lines.append(StatLine("special move", f"{sm.name}, {sm.range} hexes"
                                              f"{', needs line of sight' if sm.needs_los else ''}"))
    return lines


# --------------------------------------------------------------------------- for the client's modes

HIT_ROLL_KINDS: tuple[AdvantageKind, ...] = ("command", "leadership", "personal")


def spendable_advantage(state: GameState, unit_id: str) -> list[tuple[AdvantageKind, int]]:
    """The Advantage the unit could spend on a hit roll now: (kind, points held), in the order
    command, leadership, personal, kinds it holds no points of left out (Personal: only the
    commander's own unit). The same `held_advantage` the attack's own check counts."""
    u = state.units[unit_id]
    out: list[tuple[AdvantageKind, int]] = []
    for kind in HIT_ROLL_KINDS:
        n = held_advantage(state, u, kind)
        if n > 0:
            out.append((kind, n))
    return out


def is_stuck(state: GameState, unit_id: str) -> bool:
    """The unit has not taken its move action and difficult terrain has cut its move to nothing:
    the one-hex stuck step is the move it may make (`stuck_steps`)."""
    u = state.units[unit_id]
    return not u.move_done and bool(stuck_steps(state, u))


def stuck_step_commands(state: GameState, unit_id: str) -> list[StuckStep]:
    """The stuck steps the unit may take now (each free neighbour it may step into, each way it may
    pay): those `legal_commands` lists for it, asked of that unit alone."""
    u = state.units[unit_id]
    if u.pinned or u.out_of_action or u.move_done or not _moves_now(state, unit_id):
        return []
    return list(_stuck_commands(state, u))


def charge_path(state: GameState, unit_id: str, target_id: str,
                pay: Literal["adrenaline", "leadership", "pilot"] | None = None) -> tuple[Hex, ...] | None:
    """The charge a click on an enemy makes: the cheapest dash path (ties by hex) ending on a free
    hex next to the target (a charge is a dash: it moves at least one hex, so a unit already
    adjacent charges from another hex next to it). None when the unit has dashed, has no melee
    weapon or no action left, cannot pay for the dash the way `pay` says, or no such hex is in
    its dash reach."""
    if not _may_charge(state, unit_id, pay):
        return None
    there = state.units[target_id].hex
    reach = kept_dash_reach(state, unit_id)
    held = _holders(state)
    ends = [(c, h) for h, c in reach.costs.items() if h != reach.start and distance(h, there) == 1 and h not in held]
    if not ends:
        return None
    _, end = min(ends)
    path = list(reach.path_to(end))
    return tuple(path[1:] if path and path[0] == reach.start else path)


def charge_targets(state: GameState, unit_id: str,
                   pay: Literal["adrenaline", "leadership", "pilot"] | None = None) -> frozenset[str]:
    """The enemy units `charge_path` finds a charge to, all at once: those next to a free hex the
    dash reaches (its very test, with one pass over the dash reach instead of one per enemy: at
    1,000 units that pass per enemy was a quarter of a click)."""
    if not _may_charge(state, unit_id, pay):
        return frozenset()
    reach = kept_dash_reach(state, unit_id)
    held = _holders(state)
    near: set[Hex] = set()
    for h in reach.costs:
        if h != reach.start and h not in held:
            near.update(neighbours(h))
    side = state.units[unit_id].side
    found = (held.get(h) for h in near)
    return frozenset(u.id for u in found if u is not None and u.side != side)


def _may_charge(state: GameState, unit_id: str, pay: Literal["adrenaline", "leadership", "pilot"] | None) -> bool:
    u = state.units[unit_id]
    if u.dashed or u.action_used or u.pinned or u.out_of_action:
        return False
    if not any(w.melee for w in state.unit_type(unit_id).weapons) or not _moves_now(state, unit_id):
        return False
    return dash_refusal(state, unit_id, pay) is None


def leadership_to_give(state: GameState, unit_id: str) -> int:
    """How many Leadership points the unit's side may hand it now (`AssignLeadership`, 1 to this
    many): its pool, or 0 when it may hand none (the battle is over, a defensive action is
    awaited, or it is neither the Initiative phase nor the side's own turn)."""
    u = state.units.get(unit_id)
    if u is None or not u.alive or state.phase == "ended":
        return 0
    if state.pending is not None and state.pending.kind == "defensive_action":
        return 0
    if state.phase != "initiative" and state.active_side != u.side:
        return 0
    return int(state.sides[u.side].advantage.get("leadership", 0))


def casualty_options(state: GameState, unit_id: str) -> list[tuple[int, CasualtyAdvantageKind | None]]:
    """What the unit may order spent on each of its casualty rolls (`SetCasualtyAdvantage`): none,
    or 1 to 3 points of each kind of Advantage it holds (Leadership; Personal for the commander's
    own unit), as `held_advantage` counts them. [decision: the client offers at most 3 a roll]"""
    u = state.units[unit_id]
    out: list[tuple[int, CasualtyAdvantageKind | None]] = [(0, None)]
    for kind in _casualty_kinds(state, u):
        out += [(n, kind) for n in range(1, min(held_advantage(state, u, kind), 3) + 1)]
    return out


def danger_zone(state: GameState, unit_id: str) -> frozenset[Hex]:
    """Where a unit in overwatch would fire at an enemy entering a hex: every hex (its own
    excluded) it sees and its held weapon reaches, the two conditions `qualifying_watchers`
    asks of each step of a move. Empty when the unit is not holding an overwatch shot."""
    u = state.units.get(unit_id)
    if u is None or not u.alive or u.out_of_action or u.stance != "overwatch" or u.stance_weapon is None:
        return frozenset()
    weapon = next((w for w in state.unit_type(unit_id).weapons if w.name == u.stance_weapon), None)
    if weapon is None or weapon.melee or weapon.bands is None:
        return frozenset()
    reach = weapon.bands[3]
    rules = state.setup.rules
    return frozenset(h for h in state.board.terrain
                     if 0 < distance(u.hex, h) <= reach and has_line_of_sight(state.board, rules, u.hex, h))


@dataclass(frozen=True)
class InitiativeRoll:
    """What one initiative option rolls for a side's commander: stat + skill + the die."""

    stat_name: str
    stat: int
    skill_name: str
    skill: int
    die: int

    @property
    def text(self) -> str:
        return f"{self.stat_name} {self.stat} + {self.skill_name.replace('_', ' ')} {self.skill} + d{self.die}"


def initiative_roll(state: GameState, side: str, option: str, personal_stat: str | None = None) -> InitiativeRoll:
    """The roll the commander of `side` makes with an initiative option ("tactics",
    "leadership", "deception", or "personal" with its stat), as the rules roll it."""
    cdr = commander(state, side)
    if option == "personal":
        stat_name = personal_stat or "physique"
        skill_name = PERSONAL_SKILL[stat_name]
    else:
        stat_name, skill_name = "intellect", option
    skill = int(cdr.skills.get(skill_name, 0))  # type: ignore[call-overload]
    return InitiativeRoll(stat_name, int(getattr(cdr.stats, stat_name)), skill_name, skill,
                          die_for(skill, state.setup.rules.check))


def _initiative_totals(state: GameState, side: str, option: str, personal_stat: str | None) -> dict[int, float]:
    """The initiative total of `side` with an option -> its chance: stat + skill + the side's
    banked Deception Advantage (added to the roll, as `initiative._roll_all` adds it) + the die."""
    r = initiative_roll(state, side, option, personal_stat)
    base = r.stat + r.skill + state.sides[side].advantage.get("deception", 0)
    return {base + face: 1.0 / r.die for face in range(1, r.die + 1)}


def initiative_choices(state: GameState, side: str) -> list[tuple[str, str | None]]:
    """(option, Personal stat or None) for every initiative roll `side` may choose now."""
    out: list[tuple[str, str | None]] = [("tactics", None), ("leadership", None), ("deception", None)]
    return out + [("personal", s) for s in initiative.personal_stat_options(state, side)]


def initiative_win_chances(state: GameState, side: str, option: str,
                           personal_stat: str | None = None) -> dict[tuple[str, str | None], float] | None:
    """The exact chance that `side` wins the initiative with this option, against each roll the
    other side may choose ((option, Personal stat or None) -> chance: its choice is sealed). Ties
    are rolled again with the same rolls, so a win is P(higher) / P(not tied) (after 20 ties
    running, which never matters at these odds, the side order decides). None unless exactly
    two sides choose."""
    others = [s for s in state.sides if s != side]
    if len(others) != 1 or side not in state.sides:
        return None
    mine = _initiative_totals(state, side, option, personal_stat)
    out: dict[tuple[str, str | None], float] = {}
    for opt, stat in initiative_choices(state, others[0]):
        theirs = _initiative_totals(state, others[0], opt, stat)
        win = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a > b)
        lose = sum(p * q for a, p in mine.items() for b, q in theirs.items() if a < b)
        out[(opt, stat)] = win / (win + lose) if win + lose > 0 else 0.5
    return out


def pilot_check_chance(state: GameState, unit_id: str, advantage: int = 0) -> float | None:
    """The exact chance that a vehicle's pilot check to dash (or to charge) succeeds, with
    `advantage` points spent on it, as `movement.pay_for_dash` rolls it: intellect + pilot +
    Advantage + the die against the rules' pilot challenge; a failure spends the dash. None for a
    unit that dashes without one (a living unit pays with Adrenaline or Leadership)."""
    ut = state.unit_type(unit_id)
    if ut.living:
        return None
    rules = state.setup.rules
    skill = int(ut.skills.get("pilot", 0))
    return success_chance(ut.stats.intellect + skill + advantage, rules.dash.pilot_ct, die_for(skill, rules.check))
