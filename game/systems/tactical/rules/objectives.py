"""Objectives and the end of the battle (design page §7). Pure evaluation, no state changes.

- destroy_all: the side wins as soon as no enemy unit is left on the map.
- hold: at the end of round `round` (the round limit when unset) the side wins if it has a unit
  on every listed hex. [decision]
- survive: at the end of round `round` (the round limit when unset) the side wins if it still has
  a unit on the map. [decision]
- A side with no units left cannot win; when only one side that started with units still has
  some, it wins. [decision]
- After the round limit with no objective met the battle is a draw. [decision]
Objectives are tried in the scenario's order; the first one met decides. [decision]
"""

from __future__ import annotations

from game.systems.tactical.rules.common import hex_label
from game.systems.tactical.rules.models import Objective
from game.systems.tactical.rules.state import GameState


def _enemies_left(state: GameState, side: str) -> bool:
    return any(u.alive and u.side != side for u in state.units.values())


def _objective_round(state: GameState, obj: Objective) -> int:
    return obj.round if obj.round is not None else state.setup.round_limit


def holds(state: GameState, obj: Objective) -> bool:
    occupied = state.occupied()
    return bool(obj.hexes) and all(h in occupied and occupied[h].side == obj.side for h in obj.hexes)


def immediate_winner(state: GameState) -> tuple[str | None, str] | None:
    """(winner, reason) if the battle ends right now (destroy_all met, or one side left)."""
    for obj in state.setup.objectives:
        if obj.kind == "destroy_all" and obj.side in state.sides and not _enemies_left(state, obj.side) \
                and state.live_units(obj.side):
            return obj.side, obj.description or f"{state.side_name(obj.side)} destroyed every enemy unit"
    # Only sides that started with units count (a side a GM fills later is not "beaten").
    fielded = [s for s in state.sides if any(u.side == s for u in state.setup.units)]
    standing = [s for s in fielded if state.live_units(s)]
    if len(fielded) > 1 and len(standing) <= 1:
        if standing:
            return standing[0], f"{state.side_name(standing[0])} is the last side with units on the map"
        return None, "no units are left on the map"
    return None


def end_of_round_winner(state: GameState) -> tuple[str | None, str] | None:
    """(winner, reason) if the battle ends at the end of the current round."""
    for obj in state.setup.objectives:
        if obj.kind not in ("hold", "survive") or _objective_round(state, obj) != state.round:
            continue
        if obj.kind == "hold" and holds(state, obj):
            hexes = _hexes(state, obj)
            return obj.side, obj.description or f"{state.side_name(obj.side)} holds {hexes} at the end of round {state.round}"
        if obj.kind == "survive" and state.live_units(obj.side):
            return obj.side, obj.description or f"{state.side_name(obj.side)} survived {state.round} rounds"
    if state.round >= state.setup.round_limit:
        return None, f"round limit ({state.setup.round_limit}) reached with no objective met"
    return None


def _hexes(state: GameState, obj: Objective) -> str:
    """'hex 3,4' / 'hexes 3,4 and 4,4' in the map's column,row."""
    labels = [hex_label(state.board, h) for h in obj.hexes]
    if len(labels) == 1:
        return f"hex {labels[0]}"
    return "hexes " + ", ".join(labels[:-1]) + f" and {labels[-1]}"


def describe(state: GameState) -> list[str]:
    """Each objective as one line for the client."""
    out = []
    for obj in state.setup.objectives:
        who = state.side_name(obj.side)
        if obj.description:
            out.append(f"{who}: {obj.description}")
        elif obj.kind == "destroy_all":
            out.append(f"{who}: destroy every enemy unit")
        elif obj.kind == "hold":
            out.append(f"{who}: hold {_hexes(state, obj)} at the end of round "
                       f"{_objective_round(state, obj)}")
        else:
            out.append(f"{who}: keep a unit on the map through round {_objective_round(state, obj)}")
    return out


describe_objectives = describe  # its public name in the rules package (game.systems.tactical.rules)
