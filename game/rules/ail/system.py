"""The AI:L tactical rules behind the shared interface (`game.core.system.RuleSystem`).

`SYSTEM` is the one object the shell sees; `game.systems` registers it. Everything here is a
thin translation onto the tactical modules: no rule lives in this file except the undo policy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from game.board import Board
from game.core.record import Step
from game.core.system import Outcome
from game.rules.ail import engine, flow, gm, queries
from game.rules.ail.commands import parse_command
from game.rules.ail.describe import describe
from game.rules.ail.events import RollMade, board_where, event_text, parse_event
from game.rules.ail.models import BattleSetup
from game.rules.ail.state import GameState

# Commands that reveal nothing another player has not already seen when they roll no dice:
# a unit's move (alone or with a dash) and entering a stance are plans made in plain sight.
# Initiative choices, turn places and defensive actions answer a sealed or called decision, so
# taking them back would let a player change an answer after seeing the other side's.
_UNDOABLE_KINDS = frozenset({"move", "dash", "move_dash", "special_move", "stuck_step", "enter_stance",
                             "set_casualty_advantage"})


@dataclass(frozen=True)
class TacticalSetup:
    """What a tactical battle starts from: the rules' set-up and the board."""

    battle: BattleSetup
    board: Board


class AILSystem:
    name = "ail-tactical"
    title = "AI:L tactical battle"

    def initial_state(self, setup: TacticalSetup, seed: int) -> GameState:
        return flow.initial_state(setup.battle, setup.board, seed)

    def apply(self, state: GameState, command: Any) -> Outcome:
        return engine.apply(state, command)

    def legal_commands(self, state: GameState) -> list[BaseModel]:
        return queries.legal_commands(state)

    def preview(self, state: GameState, command: Any) -> Any:
        return queries.preview(state, command)

    def view(self, state: GameState, side: str | None) -> GameState:
        # Everything on a tactical map is in plain sight: both sides see the whole state.
        return state

    def state_to_data(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_data(self, data: Mapping[str, Any], setup: TacticalSetup) -> GameState:
        return GameState.from_dict(dict(data), setup.battle, setup.board)

    def parse_command(self, data: Mapping[str, Any]) -> BaseModel:
        return parse_command(dict(data))

    def command_to_data(self, command: Any) -> dict[str, Any]:
        out: dict[str, Any] = command.model_dump(mode="json")
        return out

    def parse_event(self, data: Mapping[str, Any]) -> Any:
        return parse_event(dict(data))

    def summary(self, state: GameState) -> dict[str, Any]:
        phase: str = state.phase
        if state.pending is not None:
            phase = f"{state.phase} (waiting: {state.pending.kind.replace('_', ' ')})"
        to_move = self.to_move(state)
        return {"round": state.round, "phase": phase, "to_move": to_move[0] if to_move else None,
                "over": state.phase == "ended", "sides": [s.id for s in state.setup.sides],
                "side_names": [s.name for s in state.setup.sides]}

    def to_move(self, state: GameState) -> list[str]:
        if state.phase == "ended":
            return []
        if state.pending is not None and state.pending.sides:
            return list(state.pending.sides[:1])
        return [state.active_side] if state.active_side else []

    def rolls(self, events: Sequence[Any]) -> tuple[int, ...]:
        return tuple(e.die for e in events if isinstance(e, RollMade))

    def undoable(self, step: Step) -> bool:
        if step.gm or self.rolls(step.events):
            return False
        kind = str(getattr(step.command, "kind", ""))
        if kind not in _UNDOABLE_KINDS:
            return False
        # A command that passed the turn to another side or opened a decision revealed it.
        before, after = step.before, step.after
        return bool(before.phase == after.phase and before.round == after.round
                    and before.turn_index == after.turn_index and after.pending is None)

    def is_gm_command(self, command: Any) -> bool:
        return gm.is_gm_command(command)

    def describe_event(self, state: GameState, event: Any) -> str:
        return event_text(event, lambda uid: _name(state, uid), board_where(state.board))

    def describe_command(self, state: GameState, command: Any) -> str:
        return describe(state, command)


def _name(state: GameState, unit_id: str) -> str:
    return state.unit_name(unit_id) if unit_id in state.units else unit_id


SYSTEM = AILSystem()
