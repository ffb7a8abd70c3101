"""The Initiative phase (design page §3).

Every side's commander picks an option (`ChooseInitiative`); once all have chosen, each rolls:
  tactics     intellect + tactics      → Command Advantage (side pool, any unit's hit rolls)
  leadership  intellect + leadership   → Leadership Advantage (handed to units: their hit and
                                          pilot rolls, or 2 points instead of 1 Adrenaline to dash)
  deception   intellect + deception    → Deception Advantage (banked: added to the side's next
                                          initiative roll, then gone)
  personal    physique + athletics | senses + awareness | aether + aether_channel
              → Personal Advantage (the commander's own unit only); the side's troops go last and
                the commander's unit gets its own slot placed by the roll.
Ties re-roll (only the tied sides, as often as needed). The winner gains Advantage (two sides:
+1, +1 per full 5 points over the runner-up; more sides: winner +2, runner-up +1) and picks its
place in the turn order (`ChooseTurnPlace`); the others follow in roll order.
"""

from __future__ import annotations

from collections.abc import Callable

from game.core.system import counted, possessive
from game.systems.tactical.rules.check import Modifier, roll_check
from game.systems.tactical.rules.commands import AssignLeadership, ChooseInitiative, ChooseTurnPlace
from game.systems.tactical.rules.common import commander_unit, known_side, name, not_ended, not_waiting
from game.systems.tactical.rules.events import (
    AdvantageGained,
    AdvantageSpent,
    InitiativeChosen,
    InitiativeRolled,
    InitiativeWon,
    LeadershipAssigned,
    TurnOrderSet,
)
from game.systems.tactical.rules.flow import begin_turns
from game.systems.tactical.rules.models import Commander
from game.systems.tactical.rules.state import (
    AdvantageKind,
    GameState,
    InitiativeOption,
    Pending,
    PersonalStat,
    TurnSlot,
)
from game.systems.tactical.rules.txn import Reject, Txn

OPTION_ADVANTAGE: dict[InitiativeOption, AdvantageKind] = {
    "tactics": "command", "leadership": "leadership", "deception": "deception", "personal": "personal",
}
PERSONAL_SKILL = {"physique": "athletics", "senses": "awareness", "aether": "aether_channel"}
MAX_REROLLS = 20  # after this many tied re-rolls the scenario's side order decides [decision]


def commander(state: GameState, side: str) -> Commander:
    for s in state.setup.sides:
        if s.id == side:
            return s.commander
    raise Reject(f"there is no side {side!r}")


def initiative_roll_parts(state: GameState, side: str) -> tuple[str, int, str, int]:
    """(stat name, stat, skill name, skill) the side's chosen option rolls."""
    ss = state.sides[side]
    cmd = commander(state, side)
    option = ss.initiative_option
    if option == "personal":
        stat_name: str = ss.personal_stat or "physique"
        skill_name = PERSONAL_SKILL[stat_name]
    else:
        stat_name, skill_name = "intellect", str(option)
    stat = int(getattr(cmd.stats, stat_name))
    skill = cmd.skills.get(skill_name, 0)  # type: ignore[call-overload]
    return stat_name, stat, skill_name, int(skill)


def personal_available(state: GameState, side: str) -> str | None:
    """None when Personal initiative is possible, else why not."""
    unit = commander_unit(state, side)
    if unit is None:
        return "its commander is not attached to a unit on the map"
    if unit not in state.units or not state.units[unit].alive:
        return "its commander's unit is no longer on the map"
    return None


def handle_choose_initiative(txn: Txn, cmd: ChooseInitiative) -> None:
    st = txn.state
    not_ended(st)
    known_side(st, cmd.side)
    p = st.pending
    if st.phase != "initiative" or p is None or p.kind != "initiative_choice":
        raise Reject("initiative options are chosen at the start of a round, in the Initiative phase")
    if cmd.side not in p.sides:
        raise Reject(f"{st.side_name(cmd.side)} has already chosen its initiative option this round")
    if cmd.option == "personal":
        why = personal_available(st, cmd.side)
        if why:
            raise Reject(f"{st.side_name(cmd.side)} cannot roll Personal initiative: {why}")
        if cmd.personal_stat is None:
            raise Reject("Personal initiative needs a stat: physique, senses or aether")
    elif cmd.personal_stat is not None:
        raise Reject("personal_stat is only for the Personal option")
    sides = dict(st.sides)
    sides[cmd.side] = st.sides[cmd.side].model_copy(
        update={"initiative_option": cmd.option, "personal_stat": cmd.personal_stat})
    rest = tuple(s for s in p.sides if s != cmd.side)
    txn.update(sides=sides, pending=Pending(kind="initiative_choice", sides=rest) if rest else None)
    txn.emit(InitiativeChosen(side=cmd.side))
    if not rest:
        _roll_all(txn)


def _roll_all(txn: Txn) -> None:
    st = txn.state
    order = [s for s in st.sides if st.sides[s].initiative_option is not None]  # the sides that chose
    rules = st.setup.rules
    # Deception banked from earlier rounds is added to this round's roll(s), then spent.
    bank = {s: st.sides[s].advantage.get("deception", 0) for s in order}
    for s, pts in bank.items():
        if pts:
            txn.emit(AdvantageSpent(side=s, advantage_kind="deception", points=pts, on="the initiative roll"))
            adv = dict(txn.state.sides[s].advantage)
            adv["deception"] = 0
            sides = dict(txn.state.sides)
            sides[s] = sides[s].model_copy(update={"advantage": adv})
            txn.update(sides=sides)

    def roll(side: str, level: int) -> int:
        stat_name, stat, skill_name, skill = initiative_roll_parts(st, side)
        mods = (Modifier("Deception Advantage", bank[side]),) if bank[side] else ()
        option = str(st.sides[side].initiative_option)
        label = (f"{st.side_name(side)} initiative ({option}, {commander(st, side).name})"
                 + (f", tie re-roll {level}" if level else ""))
        result = roll_check(label, stat_name, stat, skill_name, skill, 0, txn.roll, rules.check, mods)
        txn.report_check(result, None, opposed=True)
        txn.emit(InitiativeRolled(side=side, option=option, total=result.total, reroll=level))
        return result.total

    ranking, margin = _rank(order, roll, 0)
    winner = ranking[0]
    txn.emit(InitiativeWon(side=winner, margin=margin, ranking=ranking))
    _award(txn, ranking, margin)

    slots: list[TurnSlot] = []
    trailing: list[TurnSlot] = []
    for s in ranking:
        if st.sides[s].initiative_option == "personal":
            slots.append(TurnSlot(side=s, unit_id=commander_unit(st, s)))
            trailing.append(TurnSlot(side=s))
        else:
            slots.append(TurnSlot(side=s))
    if len(slots) == 1:
        _set_order(txn, slots + trailing)
        return
    txn.update(pending=Pending(kind="turn_place", sides=(winner,), ranking=tuple(slots),
                               trailing=tuple(trailing)))


def _rank(group: list[str], roll: Callable[[str, int], int], level: int) -> tuple[list[str], int]:
    """Order `group` by their rolls, re-rolling ties among the tied; also the winner's margin."""
    if len(group) == 1:
        return group, 0
    if level > MAX_REROLLS:
        return group, 0
    totals = {s: roll(s, level) for s in group}
    values = sorted(set(totals.values()), reverse=True)
    ranking: list[str] = []
    margin = 0
    for i, v in enumerate(values):
        tied = [s for s in group if totals[s] == v]
        sub, sub_margin = _rank(tied, roll, level + 1) if len(tied) > 1 else (tied, 0)
        if i == 0:
            margin = sub_margin if len(tied) > 1 else (v - values[1] if len(values) > 1 else 0)
        ranking.extend(sub)
    return ranking, margin


def _award(txn: Txn, ranking: list[str], margin: int) -> None:
    st = txn.state
    rules = st.setup.rules.initiative
    gains: list[tuple[str, int]] = []
    if len(ranking) == 2 or len(ranking) == 1:
        gains.append((ranking[0], rules.two_sides_winner + margin // rules.per_full_margin))
    else:
        gains.append((ranking[0], rules.multi_winner))
        gains.append((ranking[1], rules.multi_runner_up))
    for side, pts in gains:
        if pts <= 0:
            continue
        option = st.sides[side].initiative_option
        assert option is not None
        kind = OPTION_ADVANTAGE[option]
        sides = dict(txn.state.sides)
        adv = dict(sides[side].advantage)
        adv[kind] = adv.get(kind, 0) + pts
        sides[side] = sides[side].model_copy(update={"advantage": adv})
        txn.update(sides=sides)
        txn.emit(AdvantageGained(side=side, advantage_kind=kind, points=pts))


def _slot_label(slot: TurnSlot) -> str:
    return f"{slot.side}:{slot.unit_id}" if slot.unit_id else slot.side


def _set_order(txn: Txn, order: list[TurnSlot]) -> None:
    txn.update(turn_order=tuple(order), pending=None)
    txn.emit(TurnOrderSet(order=[_slot_label(s) for s in order]))
    begin_turns(txn)


def handle_choose_turn_place(txn: Txn, cmd: ChooseTurnPlace) -> None:
    st = txn.state
    not_ended(st)
    known_side(st, cmd.side)
    p = st.pending
    if p is None or p.kind != "turn_place":
        raise Reject("there is no turn-order place to choose now")
    if cmd.side != p.sides[0]:
        raise Reject(f"{st.side_name(p.sides[0])} won the initiative: it chooses the turn order place, "
                     f"not {st.side_name(cmd.side)}")
    n = len(p.ranking)
    if not 0 <= cmd.position < n:
        raise Reject(f"place {cmd.position} does not exist: choose 0 (first) to {n - 1} (last)")
    rest = list(p.ranking[1:])
    rest.insert(cmd.position, p.ranking[0])
    _set_order(txn, rest + list(p.trailing))


def handle_assign_leadership(txn: Txn, cmd: AssignLeadership) -> None:
    st = txn.state
    not_ended(st)
    if st.pending is not None and st.pending.kind == "defensive_action":
        not_waiting(st)
    known_side(st, cmd.side)
    if cmd.unit_id not in st.units or not st.units[cmd.unit_id].alive:
        raise Reject(f"there is no unit {cmd.unit_id!r} on the map")
    u = st.units[cmd.unit_id]
    if u.side != cmd.side:
        raise Reject(f"{name(st, cmd.unit_id)} is not one of {possessive(st.side_name(cmd.side))} units")
    if st.phase != "initiative" and st.active_side != cmd.side:
        raise Reject(f"Leadership points are handed out in the Initiative phase or during "
                     f"{possessive(st.side_name(cmd.side))} own turn")
    pool = st.sides[cmd.side].advantage.get("leadership", 0)
    if pool < cmd.points:
        raise Reject(f"{st.side_name(cmd.side)} has {counted(pool, 'Leadership Advantage point', 'Leadership Advantage points')}, not {cmd.points}")
    sides = dict(st.sides)
    adv = dict(sides[cmd.side].advantage)
    adv["leadership"] = pool - cmd.points
    sides[cmd.side] = sides[cmd.side].model_copy(update={"advantage": adv})
    txn.update(sides=sides)
    txn.change_unit(cmd.unit_id, leadership=u.leadership + cmd.points)
    txn.emit(LeadershipAssigned(side=cmd.side, unit_id=cmd.unit_id, points=cmd.points))


def personal_stat_options(state: GameState, side: str) -> list[PersonalStat]:
    return [] if personal_available(state, side) else ["physique", "senses", "aether"]
