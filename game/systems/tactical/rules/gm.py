"""The game master's tools as ordinary rules commands: pure, deterministic, logged, replayable.

Every GM command has a kind starting with `gm_`, is applied by the same `apply(state, command)`
as the players' commands (the engine's handler table lists this module's handlers, and the command
parser its models, explicitly) and emits a `GmAction` event that says in one sentence what the GM changed. A save
marks these commands `gm: true` in its log, and a replay re-applies them like any other.

GM commands ignore turn order and phase: the GM may act at any moment, even while a defensive
action is awaited. They do respect what keeps the state coherent: one unit per hex, hexes that
exist on the board, known unit types and sides.

- `PlaceUnit`: a new unit of any catalogue type, for any side, on any free hex.
- `MoveUnitGM`: put a unit on any free hex (no movement rules, no overwatch).
- `RemoveUnit`: take a unit off the map entirely.
- `EditUnit`: strength, adrenaline, stance, pinned / out-of-action markers, destroyed, and the
  unit's own stats, skills, move, durability and morale (a per-unit copy of its type).
- `GiveAdvantage`: add or take Advantage points of any kind (Leadership can go to a unit).
- `SetNextRoll`: queue the results of the next die rolls (clamped to each die's sides).
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from typing import Any, Literal

from game.core.hexgrid import Hex
from game.core.system import counted
from game.systems.tactical.rules.commands import (
    GM_COMMANDS,
    GM_PREFIX,
    MAX_GM_ADVANTAGE,
    EditUnit,
    GiveAdvantage,
    MarkerEdit,
    MoveUnitGM,
    PlaceUnit,
    RemoveUnit,
    SetNextRoll,
    is_gm_command,
)
from game.systems.tactical.rules.common import hex_name
from game.systems.tactical.rules.events import EventBase, Namer
from game.systems.tactical.rules.models import UnitType
from game.systems.tactical.rules.state import ADVANTAGE_KINDS, GameState, UnitState
from game.systems.tactical.rules.txn import Reject, Txn


def _same(x: str) -> str:
    return x


# --------------------------------------------------------------------------- commands


# --------------------------------------------------------------------------- event


class GmAction(EventBase):
    """What the GM changed, in one sentence (the dice log shows it marked as a GM action)."""

    kind: Literal["gm_action"] = "gm_action"
    action: str
    unit_id: str | None = None
    side: str | None = None
    detail: str

    def text(self, name: Namer = _same) -> str:
        who = name(self.unit_id) if self.unit_id else (self.side or "")
        return f"GM: {self.detail.replace('{unit}', who)}"


# --------------------------------------------------------------------------- helpers


def _live_unit(txn: Txn, unit_id: str) -> UnitState:
    unit = txn.state.units.get(unit_id)
    if unit is None:
        raise Reject(f"there is no unit {unit_id!r}")
    return unit


def _free_hex(state: GameState, at: Hex, moving: str | None = None) -> None:
    if at not in state.board:
        raise Reject(f"{hex_name(state.board, at)} is not on the map")
    other = state.unit_at(at)
    if other is not None and other.id != moving:
        raise Reject(f"{hex_name(state.board, at)} is taken by {state.unit_name(other.id)}")


def _type_of(state: GameState, type_id: str) -> UnitType | None:
    custom = getattr(state, "custom_types", None) or {}
    return custom.get(type_id) or state.setup.catalogue.units.get(type_id)


def _marker(value: MarkerEdit) -> Literal["next_turn", "this_turn"] | None:
    return None if value == "none" else value


# --------------------------------------------------------------------------- handlers


def _place(txn: Txn, cmd: PlaceUnit) -> None:
    state = txn.state
    if cmd.unit_id in state.units:
        raise Reject(f"a unit with id {cmd.unit_id!r} already exists; pick another id or edit that unit")
    utype = _type_of(state, cmd.type_id)
    if utype is None:
        known = ", ".join(sorted(state.setup.catalogue.units))
        raise Reject(f"unknown unit type {cmd.type_id!r}; the catalogue has: {known}")
    if cmd.side not in state.sides:
        raise Reject(f"unknown side {cmd.side!r}; the sides are: {', '.join(state.sides)}")
    _free_hex(state, cmd.at)
    unit = UnitState(
        id=cmd.unit_id, type_id=cmd.type_id, side=cmd.side, hex=cmd.at,
        strength=cmd.strength if cmd.strength is not None else utype.strength,
        adrenaline=utype.stats.physique if utype.living else 0,
    )
    txn.set_unit(unit)
    txn.emit(GmAction(action="place", unit_id=unit.id, side=unit.side,
                      detail=f"places {{unit}} ({utype.name}, {cmd.side}) on {hex_name(state.board, cmd.at)}"))


def _move(txn: Txn, cmd: MoveUnitGM) -> None:
    unit = _live_unit(txn, cmd.unit_id)
    _free_hex(txn.state, cmd.to, moving=unit.id)
    txn.change_unit(unit.id, hex=cmd.to)
    txn.emit(GmAction(action="move", unit_id=unit.id, side=unit.side,
                      detail=f"moves {{unit}} from {hex_name(txn.state.board, unit.hex)} to "
                             f"{hex_name(txn.state.board, cmd.to)}"))


def _remove(txn: Txn, cmd: RemoveUnit) -> None:
    unit = _live_unit(txn, cmd.unit_id)
    state = txn.state
    pending = state.pending
    if pending is not None and (pending.unit_id == unit.id or (
            pending.attack is not None and unit.id in (pending.attack.attacker_id, pending.attack.target_id))):
        raise Reject(f"{state.unit_name(unit.id)} is part of the decision the game is waiting for; "
                     "answer it first")
    if any(slot.unit_id == unit.id for slot in state.turn_order):
        raise Reject(f"{state.unit_name(unit.id)} has its own place in this round's turn order "
                     "(Personal initiative); mark it destroyed instead")
    units = {k: v for k, v in state.units.items() if k != unit.id}
    txn.update(units=units)
    txn.emit(GmAction(action="remove", unit_id=unit.id, side=unit.side,
                      detail=f"removes {unit.id} from the map"))


def _edit(txn: Txn, cmd: EditUnit) -> None:
    unit = _live_unit(txn, cmd.unit_id)
    state = txn.state
    changes: dict[str, object] = {}
    said: list[str] = []
    if cmd.strength is not None:
        changes["strength"] = cmd.strength
        said.append(f"strength {unit.strength}→{cmd.strength}")
        if cmd.strength == 0 and cmd.destroyed is None:
            changes["destroyed"] = True
            said.append("destroyed")
    if cmd.adrenaline is not None:
        changes["adrenaline"] = cmd.adrenaline
        said.append(f"adrenaline {unit.adrenaline}→{cmd.adrenaline}")
    if cmd.stance is not None:
        weapon = cmd.stance_weapon if cmd.stance == "overwatch" else None
        if cmd.stance == "overwatch":
            ranged = [w.name for w in state.unit_type(unit.id).weapons if not w.melee]
            if not ranged:
                raise Reject(f"{state.unit_name(unit.id)} has no ranged weapon to hold on overwatch")
            weapon = weapon or ranged[0]
            if weapon not in ranged:
                raise Reject(f"{state.unit_name(unit.id)} has no ranged weapon {weapon!r}; it has: "
                             + ", ".join(ranged))
        changes["stance"] = cmd.stance
        changes["stance_weapon"] = weapon
        said.append(f"stance {unit.stance}→{cmd.stance}" + (f" ({weapon})" if weapon else ""))
    if cmd.pinned is not None:
        changes["pinned"] = _marker(cmd.pinned)
        said.append("pinned " + ("cleared" if cmd.pinned == "none" else f"until {cmd.pinned.replace('_', ' ')}"))
    if cmd.out_of_action is not None:
        changes["out_of_action"] = _marker(cmd.out_of_action)
        said.append("out of action " + ("cleared" if cmd.out_of_action == "none"
                                        else f"until {cmd.out_of_action.replace('_', ' ')}"))
    if cmd.destroyed is not None:
        if not cmd.destroyed:
            _free_hex(state, unit.hex, moving=unit.id)
            changes["annihilated"] = False
            if unit.strength == 0 and cmd.strength is None:
                changes["strength"] = 1
        changes["destroyed"] = cmd.destroyed
        said.append("destroyed" if cmd.destroyed else "back in play")
    type_changes = _type_changes(state, unit, cmd)
    if type_changes is not None:
        new_type, type_said = type_changes
        custom = dict(getattr(state, "custom_types", {}))
        custom_id = unit.type_id if unit.type_id in custom else f"{unit.type_id}@{unit.id}"
        custom[custom_id] = new_type
        txn.update(custom_types=custom)
        changes["type_id"] = custom_id
        said += type_said
    if not said:
        raise Reject("nothing to change: give at least one field to edit")
    txn.change_unit(unit.id, **changes)
    txn.emit(GmAction(action="edit", unit_id=unit.id, side=unit.side, detail="edits {unit}: " + ", ".join(said)))


def _type_changes(state: GameState, unit: UnitState, cmd: EditUnit) -> tuple[UnitType, list[str]] | None:
    if cmd.stats is None and cmd.skills is None and cmd.move is None and cmd.durability is None \
            and cmd.morale is None:
        return None
    if "custom_types" not in type(state).model_fields:
        raise Reject("this version of the rules cannot change a single unit's stats")
    old = state.unit_type(unit.id)
    update: dict[str, object] = {}
    said: list[str] = []
    if cmd.stats is not None:
        for stat, value in cmd.stats.items():
            if not 0 <= value <= 10:
                raise Reject(f"{stat} must be between 0 and 10, not {value}")
        update["stats"] = old.stats.model_copy(update={str(k): v for k, v in cmd.stats.items()})
        said += [f"{k} {getattr(old.stats, k)}→{v}" for k, v in cmd.stats.items()]
    if cmd.skills is not None:
        skills = dict(old.skills)
        for skill, level in cmd.skills.items():
            if not 0 <= level <= 10:
                raise Reject(f"skill {skill} must be between 0 and 10, not {level}")
            if level == 0:
                skills.pop(skill, None)
            else:
                skills[skill] = level
        update["skills"] = skills
        said += [f"{k} {old.skills.get(k, 0)}→{v}" for k, v in cmd.skills.items()]
    for field in ("move", "durability", "morale"):
        value = getattr(cmd, field)
        limit = {"move": 50, "durability": 100, "morale": 100}[field]  # the catalogue's own bounds
        if value is not None and abs(value) > limit:
            raise Reject(f"{field} must be at most {limit}, not {value}")
        if value is not None:
            update[field] = value
            said.append(f"{field} {getattr(old, field)}→{value}")
    return old.model_copy(update=update), said


def _advantage(txn: Txn, cmd: GiveAdvantage) -> None:
    state = txn.state
    side = state.sides.get(cmd.side)
    if side is None:
        raise Reject(f"unknown side {cmd.side!r}; the sides are: {', '.join(state.sides)}")
    if cmd.points == 0:
        raise Reject("give a number of points other than 0 (negative takes Advantage away)")
    if abs(cmd.points) > MAX_GM_ADVANTAGE:  # each point is a +1 on a roll: keep margins (and hits) sane
        raise Reject(f"give or take at most {MAX_GM_ADVANTAGE} points at a time, not {cmd.points}")
    if cmd.unit_id is not None:
        if cmd.advantage_kind != "leadership":
            raise Reject("only Leadership Advantage is held by a unit; give other kinds to the side")
        unit = _live_unit(txn, cmd.unit_id)
        if unit.side != cmd.side:
            raise Reject(f"{state.unit_name(unit.id)} is not on side {cmd.side}")
        left = unit.leadership + cmd.points
        if left < 0:
            raise Reject(f"{state.unit_name(unit.id)} holds only {counted(unit.leadership, 'Leadership point', 'Leadership points')}")
        txn.change_unit(unit.id, leadership=left)
        where = f"to {{unit}} (now {left})"
    else:
        pool = dict(side.advantage)
        left = pool.get(cmd.advantage_kind, 0) + cmd.points
        if left < 0:
            raise Reject(f"{cmd.side} holds only {pool.get(cmd.advantage_kind, 0)} {cmd.advantage_kind} Advantage")
        pool[cmd.advantage_kind] = left
        sides = dict(state.sides)
        sides[cmd.side] = side.model_copy(update={"advantage": pool})
        txn.update(sides=sides)
        where = f"to {cmd.side} (now {left})"
    verb = "gives" if cmd.points > 0 else "takes"
    txn.emit(GmAction(action="advantage", unit_id=cmd.unit_id, side=cmd.side,
                      detail=f"{verb} {abs(cmd.points)} {cmd.advantage_kind} Advantage "
                             + (where if cmd.points > 0 else where.replace("to ", "from ", 1))))


def _next_roll(txn: Txn, cmd: SetNextRoll) -> None:
    if not cmd.values and not cmd.replace:
        raise Reject("give at least one die result (or replace: true with none to clear the queue)")
    for v in cmd.values:
        if v < 1:
            raise Reject(f"a die result must be 1 or more, not {v}")
    queue = cmd.values if cmd.replace else (*txn.state.forced_rolls, *cmd.values)
    # The transaction's roller draws forced rolls from its own queue and writes that queue back
    # to the state when it finishes: set both, so this command's result is the new queue.
    txn.roller.set_forced(queue)
    txn.update(forced_rolls=tuple(queue))
    values = ", ".join(str(v) for v in cmd.values)
    if not cmd.values:
        detail = "clears the queued die results"
    else:
        detail = (f"sets the next roll{'s' if len(cmd.values) > 1 else ''} to {values} "
                  f"(queue: {', '.join(str(v) for v in queue)})")
    txn.emit(GmAction(action="next_roll", detail=detail))


HANDLERS: dict[str, Any] = {
    "gm_place_unit": _place,
    "gm_move_unit": _move,
    "gm_remove_unit": _remove,
    "gm_edit_unit": _edit,
    "gm_give_advantage": _advantage,
    "gm_set_next_roll": _next_roll,
}


__all__ = [
    "ADVANTAGE_KINDS", "EditUnit", "GiveAdvantage", "GmAction", "MoveUnitGM", "PlaceUnit", "RemoveUnit",
    "GM_COMMANDS", "GM_PREFIX", "HANDLERS", "MAX_GM_ADVANTAGE", "SetNextRoll", "is_gm_command",
]
