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
spendable_advantage(state, uid); dash_refusal(state, uid, pay); dash_payments(state, uid) -> the ways a
unit may pay for a dash, each with the verdict; move_then_dash_commands(state, uid, pay) (those legal_commands lists).
The system object the shell uses: `SYSTEM` (game.systems.tactical.rules.system), registered in game/table.py.

Pure: no pygame, pytmx or yaml, no files, no global random, no clock.

The names are looked up when first used (PEP 562 `__getattr__`), not imported with the package:
opening a battle needs the set-up, the state and the first state, not the engine, the queries, the
events or the commands (start-up time, issue 14; `system.warm_up` imports those after the first
frame). Submodules (`ail.commands`, `ail.events`...) are found the same way.

One table, `_HOMES` (public name -> the submodule that defines it and its name there), is the list
of public names: `__getattr__`, `__all__` and `__dir__` come from it. The `TYPE_CHECKING` imports
below say the same to type checkers; tests/rules/test_rules_facade.py checks that they name exactly
the table's entries (and prints the block to paste when a name is added to the table).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the table below, for type checkers (kept equal to it by a test)
    from game.systems.tactical.rules import events as events
    from game.systems.tactical.rules.base_queries import DashPayment as DashPayment
    from game.systems.tactical.rules.base_queries import dash_payments as dash_payments
    from game.systems.tactical.rules.commands import AssignLeadership as AssignLeadership
    from game.systems.tactical.rules.commands import Attack as Attack
    from game.systems.tactical.rules.commands import Charge as Charge
    from game.systems.tactical.rules.commands import ChooseInitiative as ChooseInitiative
    from game.systems.tactical.rules.commands import ChooseTurnPlace as ChooseTurnPlace
    from game.systems.tactical.rules.commands import Command as Command
    from game.systems.tactical.rules.commands import Dash as Dash
    from game.systems.tactical.rules.commands import DefensiveAction as DefensiveAction
    from game.systems.tactical.rules.commands import EndPhase as EndPhase
    from game.systems.tactical.rules.commands import EnterStance as EnterStance
    from game.systems.tactical.rules.commands import Move as Move
    from game.systems.tactical.rules.commands import SetCasualtyAdvantage as SetCasualtyAdvantage
    from game.systems.tactical.rules.commands import SpecialMove as SpecialMove
    from game.systems.tactical.rules.commands import StuckStep as StuckStep
    from game.systems.tactical.rules.commands import parse_command as parse_command
    from game.systems.tactical.rules.engine import Accepted as Accepted
    from game.systems.tactical.rules.engine import Outcome as Outcome
    from game.systems.tactical.rules.engine import Rejection as Rejection
    from game.systems.tactical.rules.engine import apply as apply
    from game.systems.tactical.rules.events import EventBase as EventBase
    from game.systems.tactical.rules.events import RollMade as RollMade
    from game.systems.tactical.rules.events import parse_event as parse_event
    from game.systems.tactical.rules.models import BattleSetup as BattleSetup
    from game.systems.tactical.rules.move_then_dash import dash_after_move as dash_after_move
    from game.systems.tactical.rules.move_then_dash import move_then_dash_commands as move_then_dash_commands
    from game.systems.tactical.rules.move_then_dash import move_then_dash_reach as move_then_dash_reach
    from game.systems.tactical.rules.move_then_dash import move_then_dash_sources as move_then_dash_sources
    from game.systems.tactical.rules.movement import move_reach_keeping_dash as move_reach_keeping_dash
    from game.systems.tactical.rules.movement import state_after_move as state_after_move
    from game.systems.tactical.rules.movement import terrain_bars_dash as terrain_bars_dash
    from game.systems.tactical.rules.movement import unreachable_reason as unreachable_reason
    from game.systems.tactical.rules.objectives import describe_objectives as describe_objectives
    from game.systems.tactical.rules.queries import AttackPreview as AttackPreview
    from game.systems.tactical.rules.queries import ChargePreview as ChargePreview
    from game.systems.tactical.rules.queries import Exposure as Exposure
    from game.systems.tactical.rules.queries import Reach as Reach
    from game.systems.tactical.rules.queries import StatLine as StatLine
    from game.systems.tactical.rules.queries import attack_preview as attack_preview
    from game.systems.tactical.rules.queries import charge_preview as charge_preview
    from game.systems.tactical.rules.queries import danger_zone as danger_zone
    from game.systems.tactical.rules.queries import dash_reach as dash_reach
    from game.systems.tactical.rules.queries import dash_refusal as dash_refusal
    from game.systems.tactical.rules.queries import legal_commands as legal_commands
    from game.systems.tactical.rules.queries import move_reach as move_reach
    from game.systems.tactical.rules.queries import overwatch_exposure as overwatch_exposure
    from game.systems.tactical.rules.queries import preview as preview
    from game.systems.tactical.rules.queries import special_move_targets as special_move_targets
    from game.systems.tactical.rules.queries import spendable_advantage as spendable_advantage
    from game.systems.tactical.rules.queries import stat_lines as stat_lines
    from game.systems.tactical.rules.queries import unit_can_act as unit_can_act
    from game.systems.tactical.rules.queries import units_that_can_act as units_that_can_act
    from game.systems.tactical.rules.queries import why_unit_cannot_act as why_unit_cannot_act
    from game.systems.tactical.rules.start import SetupError as SetupError
    from game.systems.tactical.rules.start import initial_state as initial_state
    from game.systems.tactical.rules.state import GameState as GameState
    from game.systems.tactical.rules.state import Pending as Pending
    from game.systems.tactical.rules.state import SideState as SideState
    from game.systems.tactical.rules.state import TurnSlot as TurnSlot
    from game.systems.tactical.rules.state import UnitState as UnitState
    from game.systems.tactical.rules.terrain import can_stand_on as can_stand_on
    from game.systems.tactical.rules.txn import Reject as Reject
    from game.systems.tactical.rules.txn import Txn as Txn

# public name -> (the submodule that defines it, its name there): the one list of public names
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
    "DashPayment": ("base_queries", "DashPayment"),
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
    "dash_payments": ("base_queries", "dash_payments"),
    "dash_reach": ("queries", "dash_reach"),
    "dash_refusal": ("queries", "dash_refusal"),
    "describe_objectives": ("objectives", "describe_objectives"),
    "initial_state": ("start", "initial_state"),
    "legal_commands": ("queries", "legal_commands"),
    "move_reach": ("queries", "move_reach"),
    "move_reach_keeping_dash": ("movement", "move_reach_keeping_dash"),
    "move_then_dash_commands": ("move_then_dash", "move_then_dash_commands"),
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
# submodules that are public names too (found by `__getattr__` like any submodule)
_SUBMODULES: tuple[str, ...] = ("events",)


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


__all__ = sorted([*_HOMES, *_SUBMODULES])
