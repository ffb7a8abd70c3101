"""The AI:L tactical rules: the public interface every other part of the game uses.

    state = initial_state(setup, board, seed)
    outcome = apply(state, command)          # Accepted(state, events) | Rejection(reason)
    state.to_dict() / GameState.from_dict(d, setup, board); parse_command(d) / command.model_dump()

Queries (the same code `apply` runs): legal_commands(state), units_that_can_act(state, side), unit_can_act(state, uid),
move_reach / dash_reach(state, uid) -> Reach, special_move_targets(state, uid),
overwatch_exposure(state, uid, path, mode), attack_preview(state, a, t, weapon, advantage, kind),
charge_preview(state, Charge(...)), preview(state, command); why_unit_cannot_act(state, uid);
unreachable_reason(state, uid, hex, mode); move_reach_keeping_dash(state, uid) and
state_after_move(state, uid, path) for a move then a dash, and the same asked all at once:
move_then_dash_reach(state, uid), move_then_dash_sources(state, uid, hex), dash_after_move(state, uid, hex); terrain_bars_dash(state, unit);
can_stand_on(rules, unit_type, terrain); stat_lines(state, uid); danger_zone(state, uid);
spendable_advantage(state, uid); dash_refusal(state, uid, pay).
The system object the shell uses: `SYSTEM` (game.systems.tactical.rules.system), registered in game/table.py.

Pure: no pygame, pytmx or yaml, no files, no global random, no clock.

The names are looked up when first used (PEP 562 `__getattr__`), not imported with the package:
opening a battle needs the set-up, the state and the first state, not the engine, the queries, the
events or the commands (start-up time, issue 14; `system.warm_up` imports those after the first
frame). Submodules (`ail.commands`, `ail.events`...) are found the same way.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.systems.tactical.rules import events
    from game.systems.tactical.rules.commands import (
        AssignLeadership,
        Attack,
        Charge,
        ChooseInitiative,
        ChooseTurnPlace,
        Command,
        Dash,
        DefensiveAction,
        EndPhase,
        EnterStance,
        Move,
        SetCasualtyAdvantage,
        SpecialMove,
        StuckStep,
        parse_command,
    )
    from game.systems.tactical.rules.engine import Accepted, Outcome, Rejection, apply
    from game.systems.tactical.rules.events import EventBase, RollMade, parse_event
    from game.systems.tactical.rules.models import BattleSetup
    from game.systems.tactical.rules.move_then_dash import (
        dash_after_move,
        move_then_dash_reach,
        move_then_dash_sources,
    )
    from game.systems.tactical.rules.movement import (
        move_reach_keeping_dash,
        state_after_move,
        terrain_bars_dash,
        unreachable_reason,
    )
    from game.systems.tactical.rules.objectives import describe as describe_objectives
    from game.systems.tactical.rules.queries import (
        AttackPreview,
        ChargePreview,
        Exposure,
        Reach,
        StatLine,
        attack_preview,
        charge_preview,
        danger_zone,
        dash_reach,
        dash_refusal,
        legal_commands,
        move_reach,
        overwatch_exposure,
        preview,
        special_move_targets,
        spendable_advantage,
        stat_lines,
        unit_can_act,
        units_that_can_act,
        why_unit_cannot_act,
    )
    from game.systems.tactical.rules.start import SetupError, initial_state
    from game.systems.tactical.rules.state import GameState, Pending, SideState, TurnSlot, UnitState
    from game.systems.tactical.rules.terrain import can_stand_on
    from game.systems.tactical.rules.txn import Reject, Txn

# public name -> (the submodule that defines it, its name there)
_HOMES: dict[str, tuple[str, str]] = {
    "Accepted": ("engine", "Accepted"),
    "AssignLeadership": ("commands", "AssignLeadership"),
    "Attack": ("commands", "Attack"),
    "AttackPreview": ("queries", "AttackPreview"),
    "BattleSetup": ("models", "BattleSetup"),
    "Charge": ("commands", "Charge"),
    "ChargePreview": ("queries", "ChargePreview"),
    "ChooseInitiative": ("commands", "ChooseInitiative"),
    "ChooseTurnPlace": ("commands", "ChooseTurnPlace"),
    "Command": ("commands", "Command"),
    "Dash": ("commands", "Dash"),
    "DefensiveAction": ("commands", "DefensiveAction"),
    "EndPhase": ("commands", "EndPhase"),
    "EnterStance": ("commands", "EnterStance"),
    "EventBase": ("events", "EventBase"),
    "Exposure": ("queries", "Exposure"),
    "GameState": ("state", "GameState"),
    "Move": ("commands", "Move"),
    "Outcome": ("engine", "Outcome"),
    "Pending": ("state", "Pending"),
    "Reach": ("queries", "Reach"),
    "Reject": ("txn", "Reject"),
    "Rejection": ("engine", "Rejection"),
    "RollMade": ("events", "RollMade"),
    "SetCasualtyAdvantage": ("commands", "SetCasualtyAdvantage"),
    "SetupError": ("start", "SetupError"),
    "SideState": ("state", "SideState"),
    "SpecialMove": ("commands", "SpecialMove"),
    "StatLine": ("queries", "StatLine"),
    "StuckStep": ("commands", "StuckStep"),
    "TurnSlot": ("state", "TurnSlot"),
    "Txn": ("txn", "Txn"),
    "UnitState": ("state", "UnitState"),
    "apply": ("engine", "apply"),
    "attack_preview": ("queries", "attack_preview"),
    "can_stand_on": ("terrain", "can_stand_on"),
    "charge_preview": ("queries", "charge_preview"),
    "danger_zone": ("queries", "danger_zone"),
    "dash_after_move": ("move_then_dash", "dash_after_move"),
    "dash_reach": ("queries", "dash_reach"),
    "dash_refusal": ("queries", "dash_refusal"),
    "describe_objectives": ("objectives", "describe"),
    "initial_state": ("start", "initial_state"),
    "legal_commands": ("queries", "legal_commands"),
    "move_reach": ("queries", "move_reach"),
    "move_reach_keeping_dash": ("movement", "move_reach_keeping_dash"),
    "move_then_dash_reach": ("move_then_dash", "move_then_dash_reach"),
    "move_then_dash_sources": ("move_then_dash", "move_then_dash_sources"),
    "overwatch_exposure": ("queries", "overwatch_exposure"),
    "parse_command": ("commands", "parse_command"),
    "parse_event": ("events", "parse_event"),
    "preview": ("queries", "preview"),
    "special_move_targets": ("queries", "special_move_targets"),
    "spendable_advantage": ("queries", "spendable_advantage"),
    "stat_lines": ("queries", "stat_lines"),
    "state_after_move": ("movement", "state_after_move"),
    "terrain_bars_dash": ("movement", "terrain_bars_dash"),
    "unit_can_act": ("queries", "unit_can_act"),
    "units_that_can_act": ("queries", "units_that_can_act"),
    "unreachable_reason": ("movement", "unreachable_reason"),
    "why_unit_cannot_act": ("queries", "why_unit_cannot_act"),
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is not None:
        value = getattr(importlib.import_module(f"{__name__}.{home[0]}"), home[1])
        globals()[name] = value  # found directly from now on
        return value
    try:
        return importlib.import_module(f"{__name__}.{name}")  # a submodule (importing binds it here)
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "Accepted", "AssignLeadership", "Attack", "AttackPreview", "BattleSetup", "Charge",
    "ChargePreview", "ChooseInitiative", "ChooseTurnPlace", "Command", "Dash", "DefensiveAction", "EndPhase", "EnterStance",
    "EventBase", "Exposure", "GameState", "Move", "Outcome", "Pending", "Reach", "Reject", "Rejection",
    "RollMade", "SetCasualtyAdvantage", "SetupError", "SideState", "SpecialMove", "StuckStep", "TurnSlot", "Txn", "UnitState",
    "apply", "attack_preview", "charge_preview", "dash_reach", "describe_objectives", "events", "initial_state",
    "legal_commands", "move_reach", "overwatch_exposure", "parse_command", "parse_event", "preview",
    "special_move_targets", "unit_can_act", "units_that_can_act",
    "StatLine", "can_stand_on", "danger_zone", "dash_refusal", "spendable_advantage", "stat_lines", "move_reach_keeping_dash", "state_after_move",
    "move_then_dash_reach", "move_then_dash_sources", "dash_after_move", "terrain_bars_dash",
    "unreachable_reason", "why_unit_cannot_act",
]
