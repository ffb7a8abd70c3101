"""The AI:L tactical rules behind the shared interface (`game.core.system.RuleSystem`).

`SYSTEM` is the one object the shell sees; `game.table` registers it. Everything here is a
thin translation onto the tactical modules: no rule lives in this file except the undo policy.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from game.core.board import Board
from game.core.record import Step
from game.core.system import Outcome, StateDataError, StateStep, validation_message
from game.systems.tactical.rules import start
from game.systems.tactical.rules.migrations import STATE_STEPS, STATE_VERSION
from game.systems.tactical.rules.models import BattleSetup
from game.systems.tactical.rules.state import GameState, UnitState

# Opening a battle needs the set-up, the state and the first state (start.py); the engine, the
# queries, the events and the commands are imported where they are first used, normally right after
# the first frame (the client warms them up: `warm_up`), not before it (start-up time, issue 14).
ACTING_MODULES = ("game.systems.tactical.rules.engine", "game.systems.tactical.rules.queries", "game.systems.tactical.rules.describe",
                  "game.systems.tactical.rules.gm")


def warm_up() -> None:
    """Import what playing needs and opening a battle did not (ACTING_MODULES)."""
    for name in ACTING_MODULES:
        importlib.import_module(name)

# Commands that reveal nothing another player has not already seen when they roll no dice:
# a unit's move (alone or with a dash) and entering a stance are plans made in plain sight.
# Initiative choices, turn places and defensive actions answer a sealed or called decision, so
# taking them back would let a player change an answer after seeing the other side's.
_UNDOABLE_KINDS = frozenset({"move", "dash", "move_then_dash", "special_move", "stuck_step", "enter_stance",
                             "set_casualty_advantage"})


@dataclass(frozen=True)
class TacticalSetup:
    """What a tactical battle starts from: the rules' set-up and the board."""

    battle: BattleSetup
    board: Board


class AILSystem:
    name = "ail-tactical"
    title = "AI:L tactical battle"
    # state keys whose parts a save's per-command checksums encode once and reuse (speed only)
    checksum_keys = ("units", "sides", "custom_types")
    # the state data version written today, and the steps from older ones (rules/ail/migrations.py)
    state_version = STATE_VERSION
    state_migrations: Mapping[int, StateStep] = STATE_STEPS

    def initial_state(self, setup: TacticalSetup, seed: int) -> GameState:
        return start.initial_state(setup.battle, setup.board, seed)

    def apply(self, state: GameState, command: Any) -> Outcome:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules import engine

        return engine.apply(state, command)

    def legal_commands(self, state: GameState) -> list[BaseModel]:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules import queries

        return queries.legal_commands(state)

    def preview(self, state: GameState, command: Any) -> Any:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules import queries

        return queries.preview(state, command)

    def view(self, state: GameState, side: str | None) -> GameState:
        """The battle as `side` may see it (None: the GM, everything).

        The map, the units, their markers, the Advantage pools and the dice already rolled are in
        plain sight. Hidden from a side [our decision, docs/rules.md "What a side sees"]:
        - the generator's state (`rng`, set to 0) and the GM's forced rolls waiting in the queue
          (`forced_rolls`, emptied): either would let a player predict the next dice;
        - while the initiative choice is open, the options the other sides have already chosen
          (sealed until every side has chosen and the rolls reveal them).
        The view is for showing only: commands are still applied to the real state."""
        if side is None:
            return state
        update: dict[str, Any] = {"rng": 0, "forced_rolls": ()}
        p = state.pending
        if p is not None and p.kind == "initiative_choice":
            sealed = {sid: s.model_copy(update={"initiative_option": None, "personal_stat": None})
                      for sid, s in state.sides.items() if sid != side and s.initiative_option is not None}
            if sealed:
                update["sides"] = {**state.sides, **sealed}
        return state.model_copy(update=update)

    def sealed(self, state: GameState, command: Any) -> bool:
        """Whether what `command` chose stays hidden from the other sides for now (`view`): an
        initiative option chosen while another side has still to choose (the rolls reveal them
        all; the last side's choice is rolled at once). A replay words such a step without it."""
        p = state.pending
        side = getattr(command, "side", None)
        return (str(getattr(command, "kind", "")) == "choose_initiative" and p is not None
                and p.kind == "initiative_choice" and any(s != side for s in p.sides))

    def state_to_data(self, state: GameState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_data(self, data: Mapping[str, Any], setup: TacticalSetup) -> GameState:
        """Data of the current state version (older data goes through migrations.py first)."""
        _check_unit_fields(data)
        try:
            state = GameState.from_dict(dict(data), setup.battle, setup.board)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = tuple(x for x in first["loc"] if x not in ("setup", "board"))
            raise StateDataError(loc, validation_message(first)) from None
        _check_references(state, setup)
        return state

    def parse_command(self, data: Mapping[str, Any]) -> BaseModel:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules.commands import parse_command

        return parse_command(dict(data))

    def command_to_data(self, command: Any) -> dict[str, Any]:
        out: dict[str, Any] = command.model_dump(mode="json")
        return out

    def parse_event(self, data: Mapping[str, Any]) -> Any:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules.events import parse_event

        return parse_event(dict(data))

    def summary(self, state: GameState) -> dict[str, Any]:
        phase: str = state.phase
        if state.pending is not None:
            phase = f"{state.phase} (waiting: {state.pending.kind.replace('_', ' ')})"
        to_move = self.to_move(state)
        return {"round": state.round, "phase": phase, "to_move": to_move[0] if to_move else None,
                "over": state.phase == "ended", "winner": state.winner, "title": state.setup.name, "sides": [s.id for s in state.setup.sides],
                "side_names": [s.name for s in state.setup.sides]}

    def to_move(self, state: GameState) -> list[str]:
        if state.phase == "ended":
            return []
        if state.pending is not None and state.pending.sides:
            return list(state.pending.sides[:1])
        return [state.active_side] if state.active_side else []

    def rolls(self, events: Sequence[Any]) -> tuple[int, ...]:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules.events import RollMade

        return tuple(e.die for e in events if isinstance(e, RollMade))

    def undoable(self, step: Step) -> bool:
        if self.is_gm_command(step.command) or self.rolls(step.events):
            return False
        kind = str(getattr(step.command, "kind", ""))
        if kind not in _UNDOABLE_KINDS:
            return False
        # A command that passed the turn to another side or opened a decision revealed it.
        before, after = step.before, step.after
        return bool(before.phase == after.phase and before.round == after.round
                    and before.turn_index == after.turn_index and after.pending is None)

    def is_gm_command(self, command: Any) -> bool:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules import gm

        return gm.is_gm_command(command)

    def describe_event(self, state: GameState, event: Any) -> str:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules.describe import describe_event

        return describe_event(state, event)  # units and sides by name (describe.py)

    def describe_command(self, state: GameState, command: Any) -> str:
        # import seam: opening a battle needs the set-up and the state, not this (start-up, issue 14)
        from game.systems.tactical.rules.describe import describe

        return describe(state, command)


_UNIT_FIELDS = tuple(name for name, f in UnitState.model_fields.items())


def _check_unit_fields(data: Mapping[str, Any]) -> None:
    """State version 2: every unit record names every field (a missing one is damage, not a default)."""
    units = data.get("units")
    if not isinstance(units, Mapping):
        return  # the model's validation says what is wrong
    for uid, unit in units.items():
        if isinstance(unit, Mapping):
            for name in _UNIT_FIELDS:
                if name not in unit:
                    raise StateDataError(("units", uid, name), "missing (this field is required)")


def _check_references(state: GameState, setup: TacticalSetup) -> None:
    """Every id and hex a saved state names exists in this battle."""
    catalogue = setup.battle.catalogue.units
    for uid, unit in state.units.items():
        if unit.type_id not in catalogue and unit.type_id not in state.custom_types:
            raise StateDataError(("units", uid, "type_id"), f"unit type {unit.type_id!r} is not in the scenario's catalogue")
        if unit.side not in state.sides:
            raise StateDataError(("units", uid, "side"), f"no side {unit.side!r} in this battle")
        if unit.hex not in setup.board:
            raise StateDataError(("units", uid, "hex"), f"hex {unit.hex} is not on the map")
    pending = state.pending
    if pending is not None:
        for ref in (pending.unit_id, *(s.unit_id for s in (*pending.ranking, *pending.trailing))):
            if ref is not None and ref not in state.units:
                raise StateDataError(("pending",), f"refers to unit {ref!r}, which is missing from state.units")
        if pending.attack is not None:
            for ref in (pending.attack.attacker_id, pending.attack.target_id):
                if ref not in state.units:
                    raise StateDataError(("pending", "attack"),
                                         f"refers to unit {ref!r}, which is missing from state.units")
    for i, slot in enumerate(state.turn_order):
        if slot.unit_id is not None and slot.unit_id not in state.units:
            raise StateDataError(("turn_order", i, "unit_id"),
                                 f"refers to unit {slot.unit_id!r}, which is missing from state.units")


SYSTEM = AILSystem()
