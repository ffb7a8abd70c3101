"""The one entry point: `apply(state, command) -> Accepted | Rejection`.

A command is dispatched to the handler registered for its `kind` (see `game.rules.ail.txn` for
how handlers work). Other modules may register handlers for their own command kinds
(`register_handler`, e.g. GM commands) without touching this file. After every accepted
command the battle-end conditions are checked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from game.rules.ail import attacks, flow, initiative, movement
from game.rules.ail.state import GameState
from game.rules.ail.txn import Accepted, Outcome, Reject, Rejection, Txn

Handler = Callable[[Txn, Any], None]
_HANDLERS: dict[str, Handler] = {}


def register_handler(kind: str, handler: Handler) -> None:
    """Register the handler of a command kind. A handler works on a Txn and raises Reject."""
    _HANDLERS[kind] = handler


def registered_kinds() -> list[str]:
    return sorted(_HANDLERS)


def apply(state: GameState, command: BaseModel) -> Outcome:
    """Apply one command. Never raises for an illegal command: returns a Rejection instead."""
    kind = getattr(command, "kind", None)
    handler = _HANDLERS.get(str(kind))
    if handler is None:
        return Rejection(f"unknown command kind {kind!r}")
    txn = Txn(state)
    try:
        handler(txn, command)
    except Reject as exc:
        return Rejection(exc.reason)
    flow.check_battle_end(txn)
    return txn.finish()


_CORE: dict[str, Handler] = {
    "choose_initiative": initiative.handle_choose_initiative,
    "choose_turn_place": initiative.handle_choose_turn_place,
    "assign_leadership": initiative.handle_assign_leadership,
    "move": movement.handle_move,
    "dash": movement.handle_dash,
    "charge": movement.handle_charge,
    "special_move": movement.handle_special_move,
    "stuck_step": movement.handle_stuck_step,
    "attack": attacks.handle_attack,
    "enter_stance": attacks.handle_enter_stance,
    "defensive_action": attacks.handle_defensive_action,
    "set_casualty_advantage": attacks.handle_set_casualty_advantage,
    "end_phase": flow.handle_end_phase,
}
for _kind, _handler in _CORE.items():
    register_handler(_kind, _handler)

__all__ = ["Accepted", "Outcome", "Reject", "Rejection", "apply", "register_handler", "registered_kinds"]
