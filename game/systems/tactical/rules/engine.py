"""The one entry point: `apply(state, command) -> Accepted | Rejection`.

A command is dispatched by the core kernel (`game.core.kernel.dispatch`) to the handler listed
for its `kind` in `_HANDLERS` (see `game.systems.tactical.rules.txn` for how handlers work); the
GM commands' handlers come from `game.systems.tactical.rules.gm`, listed here explicitly, so
nothing depends on what was imported first.
After every accepted command the battle-end conditions are checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from game.core.kernel import dispatch
from game.systems.tactical.rules import attacks, flow, gm, initiative, move_then_dash, movement
from game.systems.tactical.rules.events import EventBase
from game.systems.tactical.rules.state import GameState
from game.systems.tactical.rules.txn import Accepted, Outcome, Reject, Rejection, Txn

Handler = Callable[[Txn, Any], None]


def registered_kinds() -> list[str]:
    return sorted(_HANDLERS)


def apply(state: GameState, command: BaseModel) -> Outcome:
    """Apply one command through the core kernel. Never raises for an illegal command: returns a
    Rejection instead."""
    return dispatch(_HANDLERS, command, begin=lambda: Txn.begin(state), finish=_finish)


def _finish(txn: Txn) -> Accepted[GameState, EventBase]:
    flow.check_battle_end(txn)
    return txn.finish()


_HANDLERS: dict[str, Handler] = {
    "choose_initiative": initiative.handle_choose_initiative,
    "choose_turn_place": initiative.handle_choose_turn_place,
    "assign_leadership": initiative.handle_assign_leadership,
    "move": movement.handle_move,
    "dash": movement.handle_dash,
    "move_then_dash": move_then_dash.handle_move_then_dash,
    "charge": movement.handle_charge,
    "special_move": movement.handle_special_move,
    "stuck_step": movement.handle_stuck_step,
    "attack": attacks.handle_attack,
    "enter_stance": attacks.handle_enter_stance,
    "defensive_action": attacks.handle_defensive_action,
    "set_casualty_advantage": attacks.handle_set_casualty_advantage,
    "end_phase": flow.handle_end_phase,
    **gm.HANDLERS,
}

__all__ = ["Accepted", "Outcome", "Reject", "Rejection", "apply", "registered_kinds"]
