"""The Attack phase (design page §5) on the engine side: declaring attacks, the defensive-action
prompt, stances, and applying what an attack did to the target. The attack maths itself (AC,
hit, damage, defences, casualties) is `game.systems.tactical.rules.attack` / `odds`; this module only builds
their `AttackSetup` from the game state and records every die they roll.

- One action per unit per turn: attack, enter overwatch / guard / defensive stance, or nothing.
  A charge's melee attack is the unit's action. [source]
- Advantage spent on a hit roll (+1 per point, declared before rolling): Command (side pool, any
  unit), Leadership (points the unit holds), Personal (the commander's unit only). Deception
  cannot be spent on rolls (it is banked for initiative). [source / decision]
- Advantage spent by the TARGET on its casualty rolls: Leadership points it holds, or Personal
  Advantage for the commander's unit. Its side gives a standing order (SetCasualtyAdvantage: n
  points on each casualty roll, while it has them); a defensive-action answer may choose
  otherwise for that one attack. Only the points of the rolls actually made are spent.
- Defensive action (called interrupt): when an attack is declared against a unit that still has
  its action this round, its owner is asked (unless the rules say `defensive_action_prompt:
  never`); accepting gives +5 AC against that attack and costs the unit its action (this turn's
  if its side has not played yet this round, otherwise its next one). Not offered against
  overwatch shots or guard counters (triggered interrupts). [decision]
- Results: strength lost; pinned / out of action markers last until the end of the unit's side's
  next turn; out of action also drops the unit's stance; destroyed units leave the map.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from game.core.hexgrid import Hex
from game.core.system import counted, possessive
from game.systems.tactical.rules.attack import (
    AttackImpossible,
    AttackResult,
    AttackSetup,
    Combatant,
    accuracy_challenge,
    require_ac,
    resolve_attack,
)
from game.systems.tactical.rules.commands import Attack, DefensiveAction, EnterStance, SetCasualtyAdvantage
from game.systems.tactical.rules.common import (
    active_unit,
    commander_unit,
    find_weapon,
    known_unit,
    name,
    not_ended,
    not_waiting,
)
from game.systems.tactical.rules.events import (
    AdvantageSpent,
    AttackDeclared,
    AttackGivenUp,
    AttackResolved,
    CasualtyAdvantageSet,
    DefensiveActionOffered,
    DefensiveActionTaken,
    MarkerAdded,
    RollMade,
    StanceChanged,
    StrengthLost,
    UnitDestroyed,
)
from game.systems.tactical.rules.los import has_line_of_sight
from game.systems.tactical.rules.state import (
    AdvantageKind,
    CasualtyAdvantageKind,
    DeclaredAttack,
    GameState,
    Pending,
    UnitState,
)
from game.systems.tactical.rules.txn import Reject, Txn

AttackMode = Literal["attack", "overwatch", "guard_counter", "charge"]


# --------------------------------------------------------------------------- building setups

def is_braced(state: GameState, unit_id: str) -> bool:
    """Braced (+2 to hit): the attacker did not move "this turn". [decision] For every attack that
    means the unit's own side's most recent turn: the turn being played when it attacks in its own
    Attack phase (or charges), and, for a shot taken in the enemy's turn (an overwatch shot, a guard
    counter), the turn in which it took that stance, which is always its side's latest turn, since
    a stance ends when its side's next turn begins. So a unit that moved, then went on overwatch,
    fires unbraced, and one that held its ground fires braced, whichever round the shot falls in
    (an Initiative phase in between changes nothing). `moved` holds exactly that: set when the unit
    leaves its hex, cleared only when its side's next turn begins."""
    return not state.units[unit_id].moved


def combatant(state: GameState, unit_id: str, at: Hex | None = None) -> Combatant:
    u = state.units[unit_id]
    return Combatant(unit_id=u.id, unit_type=state.unit_type(unit_id), hex=at or u.hex,
                     strength=u.strength, stance=u.stance, braced=is_braced(state, unit_id))


def spotted(state: GameState, attacker_id: str, target_hex: Hex) -> bool:
    """Some other living unit of the attacker's side sees the target (for indirect fire)."""
    side = state.units[attacker_id].side
    return any(u.alive and u.side == side and u.id != attacker_id
               and has_line_of_sight(state.board, state.setup.rules, u.hex, target_hex)
               for u in state.units.values())


def held_advantage(state: GameState, unit: UnitState, kind: AdvantageKind) -> int:
    """Points of `kind` the unit could spend now (Personal: only the commander's unit)."""
    if kind == "leadership":
        return unit.leadership
    if kind == "personal" and commander_unit(state, unit.side) != unit.id:
        return 0
    if kind == "deception":
        return 0
    return state.sides[unit.side].advantage.get(kind, 0)


def triggered_advantage(state: GameState, unit_id: str) -> tuple[int, AdvantageKind | None]:
    """The Advantage a unit's overwatch shot or guard counter spends on its hit roll: what it named
    with the stance, as far as it still has those points."""
    u = state.units[unit_id]
    kind = u.stance_advantage_kind
    if not u.stance_advantage or kind is None:
        return 0, None
    points = min(u.stance_advantage, held_advantage(state, u, kind))
    return (points, kind) if points else (0, None)


def casualty_plan(state: GameState, target_id: str, points: int | None = None,
                  kind: CasualtyAdvantageKind | None = None) -> tuple[int, ...]:
    """The Advantage the target adds to its 1st, 2nd, ... casualty roll of an attack: `points` on
    each (None: its standing order) while the points of `kind` it holds last."""
    u = state.units[target_id]
    if points is None:
        points, kind = u.casualty_advantage, u.casualty_advantage_kind
    if not points or kind is None:
        return ()
    held = held_advantage(state, u, kind)
    plan: list[int] = []
    while held > 0 and len(plan) < u.strength:
        plan.append(min(points, held))
        held -= plan[-1]
    return tuple(plan)


def check_casualty_order(state: GameState, unit: UnitState, points: int,
                         kind: CasualtyAdvantageKind | None) -> None:
    """Reject unless the unit can spend `kind` Advantage on its casualty rolls."""
    if points == 0:
        return
    who = name(state, unit.id)
    if kind is None:
        raise Reject("say which kind of Advantage to spend on casualty rolls: leadership or personal")
    if kind == "personal" and commander_unit(state, unit.side) != unit.id:
        raise Reject(f"Personal Advantage is for the commander's own unit only, not {who}")
    if held_advantage(state, unit, kind) == 0:
        whose = who if kind == "leadership" else state.side_name(unit.side)
        raise Reject(f"{whose} holds no {kind.capitalize()} Advantage points to spend on casualty rolls")


def make_setup(state: GameState, attacker_id: str, target_id: str, weapon: str, *,
               advantage: int = 0, overwatch_shot: bool = False, defensive_action: bool = False,
               counter: bool = False, target_at: Hex | None = None, casualty_advantage: int | None = None,
               casualty_kind: CasualtyAdvantageKind | None = None) -> AttackSetup:
    """The AttackSetup of an attack in `state`. casualty_advantage / casualty_kind: the Advantage the
    target spends on each casualty roll (None: the target's standing order)."""
    w = find_weapon(state, attacker_id, weapon)
    tgt = combatant(state, target_id, target_at)
    att = combatant(state, attacker_id)
    # A spotter only matters for an indirect weapon whose firer cannot see the target itself.
    seen = True
    if "indirect" in w.traits and not has_line_of_sight(state.board, state.setup.rules, att.hex, tgt.hex):
        seen = spotted(state, attacker_id, tgt.hex)
    return AttackSetup(
        attacker=att, target=tgt, weapon=w, board=state.board,
        rules=state.setup.rules, overwatch_shot=overwatch_shot, defensive_action=defensive_action,
        advantage=advantage, spotted=seen, counter=counter,
        casualty_advantage=casualty_plan(state, target_id, casualty_advantage, casualty_kind),
    )


def check_advantage(state: GameState, unit: UnitState, points: int, kind: AdvantageKind | None,
                    roll: str = "hit") -> None:
    """Reject unless the unit can spend `points` of `kind` Advantage on its `roll` ("hit" or "pilot").

    Command Advantage buys hit rolls only; Leadership points a unit holds and the commander's
    Personal Advantage buy any of its rolls (here: hit and pilot)."""
    if points == 0:
        return
    who = name(state, unit.id)
    side = state.side_name(unit.side)
    if kind is None:
        raise Reject("say which kind of Advantage to spend: command, leadership or personal")
    if kind == "deception":
        raise Reject(f"Deception Advantage is banked for the next initiative roll; it cannot be spent on a {roll} roll")
    if kind == "command" and roll != "hit":
        raise Reject(f"Command Advantage is spent on hit rolls only, not on a {roll} check")
    if kind == "command":
        have = state.sides[unit.side].advantage.get("command", 0)
        if have < points:
            raise Reject(f"{side} has {counted(have, 'Command Advantage point', 'Command Advantage points')}, not {points}")
    elif kind == "leadership":
        if unit.leadership < points:
            raise Reject(f"{who} holds {counted(unit.leadership, 'Leadership point', 'Leadership points')}, not {points} "
                         "(the commander hands them out first)")
    else:
        if commander_unit(state, unit.side) != unit.id:
            raise Reject(f"Personal Advantage is for the commander's own unit only, not {who}")
        have = state.sides[unit.side].advantage.get("personal", 0)
        if have < points:
            raise Reject(f"{side} has {counted(have, 'Personal Advantage point', 'Personal Advantage points')}, not {points}")


def spend_advantage(txn: Txn, unit_id: str, points: int, kind: AdvantageKind | None, on: str) -> None:
    if points == 0 or kind is None:
        return
    u = txn.unit(unit_id)
    if kind == "leadership":
        txn.change_unit(unit_id, leadership=u.leadership - points)
    else:
        sides = dict(txn.state.sides)
        adv = dict(sides[u.side].advantage)
        adv[kind] = adv.get(kind, 0) - points
        sides[u.side] = sides[u.side].model_copy(update={"advantage": adv})
        txn.update(sides=sides)
    txn.emit(AdvantageSpent(side=u.side, advantage_kind=kind, points=points, unit_id=unit_id, on=on))


def attack_reason(state: GameState, setup: AttackSetup) -> str | None:
    """None when the attack can be made, else a sentence saying why not."""
    ac = accuracy_challenge(setup)
    if isinstance(ac, str):
        return (f"{name(state, setup.attacker.unit_id)} cannot attack {name(state, setup.target.unit_id)} "
                f"with {setup.weapon.name}: {ac}")
    return None


# --------------------------------------------------------------------------- resolving

def _report(txn: Txn, result: AttackResult, attacker_id: str, target_id: str) -> None:
    """One RollMade per die of the attack, in the order they were rolled."""
    for rec in result.dice:
        who = attacker_id if rec.kind in ("hit", "damage") else target_id
        if rec.kind == "hit":
            txn.report_check(result.hit, attacker_id)
            continue
        die = next(d for d in txn.dice if not d.reported)
        die.reported = True
        total = rec.total
        txn.emit(RollMade(
            label=rec.label, unit_id=who, die_sides=rec.sides, die=rec.value, forced=die.forced,
            modifiers=[(p.label, p.value) for p in rec.parts], target=rec.target, total=total,
            margin=total - rec.target, success=rec.success,
        ))


def resolve(txn: Txn, setup: AttackSetup, mode: AttackMode,
            casualty_kind: CasualtyAdvantageKind | None = None) -> AttackResult:
    """Roll the attack through the game's dice and apply its result to the target.

    casualty_kind: the kind of the Advantage in `setup.casualty_advantage` (None: the target's
    standing order's kind); the points of the casualty rolls made are spent."""
    attacker_id, target_id = setup.attacker.unit_id, setup.target.unit_id
    # the dice labels name the units as players read them ("hit: Hill Battery field gun vs Mill
    # Band"), not their types: four Rifle Sections on a map are four different units
    state = txn.state
    setup = replace(setup, attacker=replace(setup.attacker, called=state.unit_name(attacker_id)),
                    target=replace(setup.target, called=state.unit_name(target_id)))
    try:
        result = resolve_attack(setup, txn.roll)
    except AttackImpossible as exc:  # checked before; kept so a rules bug can't crash a game
        raise Reject(exc.reason) from None
    _report(txn, result, attacker_id, target_id)
    if result.casualty_advantage_spent:
        kind = casualty_kind or txn.unit(target_id).casualty_advantage_kind
        spend_advantage(txn, target_id, result.casualty_advantage_spent, kind, "its casualty rolls")
    txn.emit(AttackResolved(attacker_id=attacker_id, target_id=target_id, weapon=setup.weapon.name,
                            hits=result.hits, damages=list(result.damages),
                            strength_lost=result.strength_lost, result=result.result, mode=mode))
    apply_result(txn, target_id, result)
    return result


def apply_result(txn: Txn, unit_id: str, result: AttackResult) -> None:
    u = txn.unit(unit_id)
    if result.strength_lost:
        left = max(0, u.strength - result.strength_lost)
        u = txn.change_unit(unit_id, strength=left)
        txn.emit(StrengthLost(unit_id=unit_id, points=result.strength_lost, left=left))
    r = result.result
    # The casualty roll that set the result (the first roll of the worst state), to say why.
    deciding = next((d for d in result.casualty_rolls if d.outcome == result.worst), None)
    total = deciding.total if deciding is not None else None
    if r in ("destroyed", "annihilated") or u.strength <= 0:
        txn.change_unit(unit_id, destroyed=True, annihilated=r == "annihilated", stance="none",
                        stance_weapon=None, pinned=None, out_of_action=None)
        if u.strength <= 0:
            txn.emit(UnitDestroyed(unit_id=unit_id, annihilated=r == "annihilated", cause="no_strength",
                                   casualty_total=total if r == "annihilated" else None, strength_left=0))
        else:
            txn.emit(UnitDestroyed(unit_id=unit_id, annihilated=r == "annihilated", cause="casualty_roll",
                                   casualty_total=total, strength_left=u.strength))
        if txn.state.pending and txn.state.pending.unit_id == unit_id:
            txn.update(pending=None)
        return
    if r == "out_of_action":
        if u.stance != "none":
            txn.emit(StanceChanged(unit_id=unit_id, stance="none", reason="out of action"))
        txn.change_unit(unit_id, out_of_action="next_turn", stance="none", stance_weapon=None)
        txn.emit(MarkerAdded(unit_id=unit_id, marker="out_of_action", casualty_total=total))
    elif r == "pinned":
        txn.change_unit(unit_id, pinned="next_turn")
        txn.emit(MarkerAdded(unit_id=unit_id, marker="pinned", casualty_total=total))


# --------------------------------------------------------------------------- defensive action

def defensive_action_available(state: GameState, unit_id: str) -> bool:
    """The unit still has its action this round and may give it up for +5 AC."""
    u = state.units[unit_id]
    return (u.alive and not u.out_of_action and not u.forfeit_attack and u.acted_round != state.round
            and not (state.active_slot is not None and state.acts_in(state.active_slot, u)))


def declare_or_offer(txn: Txn, attacker_id: str, target_id: str, weapon: str, advantage: int,
                     kind: AdvantageKind | None, *, charge: bool = False) -> None:
    """The attack is legal and declared: spend Advantage, then ask the defender or resolve."""
    st = txn.state
    if advantage and kind is not None:
        # Overwatch or a guard counter met on the way (a charge) may have cost the unit some of
        # the points it meant to spend (on its own casualty rolls): it spends what it has left.
        advantage = min(advantage, held_advantage(st, st.units[attacker_id], kind))
    setup = make_setup(st, attacker_id, target_id, weapon, advantage=advantage)
    reason = attack_reason(st, setup)
    if reason:
        raise Reject(reason)
    spend_advantage(txn, attacker_id, advantage, kind, f"{weapon} hit roll")
    ac = require_ac(setup)
    txn.emit(AttackDeclared(attacker_id=attacker_id, target_id=target_id, weapon=weapon, ac=ac.total,
                            ac_parts=[(p.label, p.value) for p in ac.parts]))
    if st.setup.rules.defensive_action_prompt == "ask" and defensive_action_available(st, target_id):
        defender = st.units[target_id].side
        txn.update(pending=Pending(kind="defensive_action", sides=(defender,), unit_id=target_id,
                                   attack=DeclaredAttack(attacker_id=attacker_id, target_id=target_id,
                                                         weapon=weapon, advantage=advantage,
                                                         advantage_kind=kind, charge=charge)))
        txn.emit(DefensiveActionOffered(side=defender, unit_id=target_id, attacker_id=attacker_id))
        return
    resolve(txn, setup, "charge" if charge else "attack")


def handle_defensive_action(txn: Txn, cmd: DefensiveAction) -> None:
    st = txn.state
    p = st.pending
    not_ended(st)
    if p is None or p.kind != "defensive_action" or p.attack is None:
        raise Reject("no unit is being asked about a defensive action now")
    if cmd.unit_id != p.unit_id:
        raise Reject(f"the prompt is for {name(st, p.unit_id or '')}, not {name(st, cmd.unit_id)}")
    a = p.attack
    if cmd.casualty_advantage is not None and cmd.unit_id in st.units:
        check_casualty_order(st, st.units[cmd.unit_id], cmd.casualty_advantage, cmd.casualty_advantage_kind)
    costs: Literal["this_turn", "next_turn", "none"] = "none"
    txn.update(pending=None)
    if cmd.accept and cmd.unit_id in st.units and st.units[cmd.unit_id].alive:
        slot_index = next((i for i, s in enumerate(st.turn_order) if st.acts_in(s, st.units[cmd.unit_id])), -1)
        costs = "this_turn" if slot_index > st.turn_index else "next_turn"
        txn.change_unit(cmd.unit_id, forfeit_attack=True, acted_round=st.round)
    txn.emit(DefensiveActionTaken(unit_id=cmd.unit_id, accepted=cmd.accept, costs=costs))
    # A GM may have changed the table while the prompt waited: an attack that can no longer be
    # made is called off instead of leaving the game stuck on the prompt.
    units = txn.state.units
    reason = ""
    if not (a.attacker_id in units and units[a.attacker_id].alive):
        reason = "the attacker is gone"
    elif not (a.target_id in units and units[a.target_id].alive):
        reason = "the target is gone"
    else:
        try:
            setup = make_setup(txn.state, a.attacker_id, a.target_id, a.weapon, advantage=a.advantage,
                               defensive_action=cmd.accept, casualty_advantage=cmd.casualty_advantage,
                               casualty_kind=cmd.casualty_advantage_kind)
            reason = attack_reason(txn.state, setup) or ""
        except Reject as exc:
            reason = exc.reason
    if reason:
        if a.attacker_id in units:
            txn.emit(AttackGivenUp(unit_id=a.attacker_id, reason=f"the attack can no longer be made ({reason})"))
        return
    resolve(txn, setup, "charge" if a.charge else "attack",
            cmd.casualty_advantage_kind if cmd.casualty_advantage is not None else None)


def handle_set_casualty_advantage(txn: Txn, cmd: SetCasualtyAdvantage) -> None:
    st = txn.state
    not_waiting(st)
    u = known_unit(st, cmd.unit_id)
    if st.phase != "initiative" and st.active_side != u.side:
        raise Reject(f"{st.side_name(u.side)} gives its units' orders in the Initiative phase or during "
                     "its own turn")
    check_casualty_order(st, u, cmd.points, cmd.advantage_kind)
    kind = cmd.advantage_kind if cmd.points else None
    txn.change_unit(u.id, casualty_advantage=cmd.points, casualty_advantage_kind=kind)
    txn.emit(CasualtyAdvantageSet(unit_id=u.id, points=cmd.points, advantage_kind=kind))


# --------------------------------------------------------------------------- handlers

def _has_action(state: GameState, u: UnitState) -> None:
    who = name(state, u.id)
    if u.out_of_action:
        raise Reject(f"{who} is out of action: it can neither attack nor hold a stance until the end "
                     "of its side's next turn")
    if u.action_used:
        if u.stance != "none":
            raise Reject(f"{who} has already used its action this turn (it is in {u.stance})")
        raise Reject(f"{who} has already used its action this turn")


def check_attack(state: GameState, cmd: Attack, *, check_turn: bool = True) -> AttackSetup:
    """Every legality check of an Attack command; the setup it would roll. Raises Reject.

    check_turn=False skips the phase/turn/action checks (a "what if" preview)."""
    if check_turn:
        u = active_unit(state, cmd.attacker_id, "attack")
        _has_action(state, u)
    else:
        u = known_unit(state, cmd.attacker_id)
    target = known_unit(state, cmd.target_id)
    if target.side == u.side:
        raise Reject(f"{name(state, target.id)} is on {possessive(name(state, u.id))} own side")
    find_weapon(state, u.id, cmd.weapon)
    if check_turn:
        check_advantage(state, u, cmd.advantage, cmd.advantage_kind)
    setup = make_setup(state, u.id, target.id, cmd.weapon, advantage=cmd.advantage)
    reason = attack_reason(state, setup)
    if reason:
        raise Reject(reason)
    return setup


def handle_attack(txn: Txn, cmd: Attack) -> None:
    st = txn.state
    check_attack(st, cmd)
    txn.change_unit(cmd.attacker_id, action_used=True, acted_round=st.round)
    declare_or_offer(txn, cmd.attacker_id, cmd.target_id, cmd.weapon, cmd.advantage, cmd.advantage_kind)


def handle_enter_stance(txn: Txn, cmd: EnterStance) -> None:
    st = txn.state
    u = active_unit(st, cmd.unit_id, "attack")
    _has_action(st, u)
    weapon: str | None = None
    if cmd.stance == "overwatch":
        weapon = find_weapon(st, u.id, cmd.weapon, melee=False).name
    elif cmd.stance == "guard":
        weapon = find_weapon(st, u.id, cmd.weapon, melee=True).name
    elif cmd.weapon is not None:
        raise Reject("the defensive stance holds no weapon")
    if cmd.advantage:
        if cmd.stance == "defensive":
            raise Reject("the defensive stance makes no roll to spend Advantage on")
        check_advantage(st, u, cmd.advantage, cmd.advantage_kind)
    kind = cmd.advantage_kind if cmd.advantage else None
    txn.change_unit(u.id, stance=cmd.stance, stance_weapon=weapon, action_used=True, acted_round=st.round,
                    stance_advantage=cmd.advantage, stance_advantage_kind=kind)
    txn.emit(StanceChanged(unit_id=u.id, stance=cmd.stance, weapon=weapon))
