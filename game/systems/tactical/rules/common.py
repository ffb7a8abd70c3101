"""Small shared checks used by the command handlers and the queries (same code, same answers)."""

from __future__ import annotations

from game.core.board import Board
from game.core.hexgrid import Hex
from game.core.system import (
    Reject,  # (txn.py re-exports it; this keeps common.py light to import)
    possessive,
)
from game.systems.tactical.rules.models import UnitType, Weapon
from game.systems.tactical.rules.state import GameState, UnitState


def hex_label(board: Board, h: Hex) -> str:
    """A hex as the player sees it: the map's column,row (Tiled's tile coordinates), e.g. '19,11'."""
    col, row = board.offset_of(Hex(*h))
    return f"{col},{row}"


def hex_name(board: Board, h: Hex) -> str:
    """'hex 19,11': how every player-facing sentence of the rules names a hex."""
    return f"hex {hex_label(board, h)}"


def name(state: GameState, unit_id: str) -> str:
    return state.unit_name(unit_id)


def not_ended(state: GameState) -> None:
    if state.phase == "ended":
        who = f"{state.side_name(state.winner)} won" if state.winner else "it was a draw"
        raise Reject(f"the battle is over ({who}: {state.end_reason})")


def not_waiting(state: GameState) -> None:
    """Reject while the game waits for a decision or is over."""
    not_ended(state)
    p = state.pending
    if p is None:
        return
    if p.kind == "defensive_action" and p.unit_id is not None:
        raise Reject(f"waiting for {state.side_name(p.sides[0])} to answer the defensive-action prompt "
                     f"for {name(state, p.unit_id)}")
    if p.kind == "initiative_choice":
        raise Reject(f"waiting for initiative choices from: {', '.join(state.side_name(s) for s in p.sides)}")
    raise Reject(f"waiting for {state.side_name(p.sides[0])} to choose its place in the turn order")


def known_unit(state: GameState, unit_id: str) -> UnitState:
    if unit_id not in state.units:
        raise Reject(f"there is no unit {unit_id!r}")
    u = state.units[unit_id]
    if not u.alive:
        raise Reject(f"{name(state, unit_id)} has been destroyed")
    return u


def known_side(state: GameState, side: str) -> None:
    if side not in state.sides:
        raise Reject(f"there is no side {side!r}")


def active_unit(state: GameState, unit_id: str, phase: str) -> UnitState:
    """The unit exists, is alive, and acts in the current slot's `phase`."""
    not_waiting(state)
    u = known_unit(state, unit_id)
    if state.phase == "initiative":
        raise Reject("it is the Initiative phase: choose initiative options first")
    slot = state.active_slot
    assert slot is not None
    if state.phase != phase:
        raise Reject(f"it is the {state.phase.capitalize()} phase, not the {phase.capitalize()} phase")
    if u.side != slot.side:
        raise Reject(f"{name(state, unit_id)} belongs to {state.side_name(u.side)}; "
                     f"it is {possessive(state.side_name(slot.side))} turn")
    if not state.acts_in(slot, u):
        if slot.unit_id is not None:
            raise Reject(f"only {name(state, slot.unit_id)} acts in this Personal initiative slot")
        raise Reject(f"{name(state, unit_id)} acts in its commander's own initiative slot, not with the troops")
    return u


def unit_type(state: GameState, unit_id: str) -> UnitType:
    return state.unit_type(unit_id)


def find_weapon(state: GameState, unit_id: str, weapon: str | None, *, melee: bool | None = None) -> Weapon:
    ut = state.unit_type(unit_id)
    if weapon is None:
        for w in ut.weapons:
            if melee is None or w.melee == melee:
                return w
        kind = "melee" if melee else "ranged" if melee is False else ""
        raise Reject(f"{name(state, unit_id)} has no {kind} weapon".replace("  ", " "))
    for w in ut.weapons:
        if w.name == weapon:
            if melee is True and not w.melee:
                raise Reject(f"{weapon} is not a melee weapon")
            if melee is False and w.melee:
                raise Reject(f"{weapon} is a melee weapon")
            return w
    names = ", ".join(w.name for w in ut.weapons) or "none"
    raise Reject(f"{name(state, unit_id)} has no weapon {weapon!r} (it has: {names})")


def commander_unit(state: GameState, side: str) -> str | None:
    for s in state.setup.sides:
        if s.id == side:
            return s.commander.unit
    return None
