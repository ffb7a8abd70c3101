"""The first state of a battle: the set-up checked and the units placed, every side to choose
its initiative (design page §2). The phase machine that takes it from there is flow.py.

Apart from flow.py so that opening a battle imports only this: the rules' events, commands and
transactions are imported after the first frame is on screen (start-up time, issue 14).
"""

from __future__ import annotations

from game.core.board import Board
from game.core.dice import Rng
from game.core.hexgrid import Hex
from game.systems.tactical.rules.common import hex_name
from game.systems.tactical.rules.models import BattleSetup
from game.systems.tactical.rules.state import GameState, Pending, SideState, UnitState


def initiative_pending(state: GameState) -> Pending:
    """Every side with a unit on the map chooses (a side wiped out, or not yet fielded, sits out)."""
    sides = tuple(s for s in state.sides if state.live_units(s)) or tuple(state.sides)
    return Pending(kind="initiative_choice", sides=sides)


class SetupError(ValueError):
    """A battle set-up the rules cannot start from (unknown unit type, two units on one hex...)."""


def initial_state(setup: BattleSetup, board: Board, seed: int) -> GameState:
    """Round 1, Initiative phase, every side to choose; units at full strength and Adrenaline."""
    side_ids = [s.id for s in setup.sides]
    if len(set(side_ids)) != len(side_ids):
        raise SetupError("two sides have the same id")
    if not side_ids:
        raise SetupError("a battle needs at least one side")
    units: dict[str, UnitState] = {}
    where: dict[Hex, str] = {}
    for us in setup.units:
        if us.id in units:
            raise SetupError(f"unit id {us.id!r} is used twice")
        if us.type not in setup.catalogue.units:
            raise SetupError(f"unit {us.id!r}: unknown unit type {us.type!r} (the catalogue has: "
                             f"{', '.join(sorted(setup.catalogue.units))})")
        if us.side not in side_ids:
            raise SetupError(f"unit {us.id!r}: unknown side {us.side!r} (sides: {', '.join(side_ids)})")
        at = Hex(*us.at)
        if at not in board:
            raise SetupError(f"unit {us.id!r}: {hex_name(board, at)} is not on the map")
        if at in where:
            raise SetupError(f"units {where[at]!r} and {us.id!r} are both placed on {hex_name(board, at)}")
        where[at] = us.id
        ut = setup.catalogue.units[us.type]
        strength = ut.strength if us.strength is None else us.strength
        if not 1 <= strength <= ut.strength:
            raise SetupError(f"unit {us.id!r}: strength {strength} must be 1..{ut.strength}")
        units[us.id] = UnitState(id=us.id, type_id=us.type, side=us.side, hex=at, strength=strength,
                                 adrenaline=ut.stats.physique if ut.living else 0)
    for s in setup.sides:
        if s.commander.unit is not None and s.commander.unit not in units:
            raise SetupError(f"side {s.id!r}: commander's unit {s.commander.unit!r} is not placed")
        if s.commander.unit is not None and units[s.commander.unit].side != s.id:
            raise SetupError(f"side {s.id!r}: commander's unit {s.commander.unit!r} belongs to another side")
    state = GameState(units=units, sides={sid: SideState(id=sid) for sid in side_ids},
                      rng=Rng.from_seed(seed).state, setup=setup, board=board)
    return state.model_copy(update={"pending": initiative_pending(state)})
