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
The system object the shell uses: `SYSTEM` (game.rules.ail.system), registered in game/systems.py.

Pure: no pygame, pytmx or yaml, no files, no global random, no clock.
"""

from __future__ import annotations

from game.rules.ail import events
from game.rules.ail.commands import (
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
from game.rules.ail.engine import Accepted, Outcome, Rejection, apply
from game.rules.ail.events import EventBase, RollMade, parse_event
from game.rules.ail.flow import SetupError, initial_state
from game.rules.ail.models import BattleSetup
from game.rules.ail.move_then_dash import dash_after_move, move_then_dash_reach, move_then_dash_sources
from game.rules.ail.movement import (
    can_stand_on,
    move_reach_keeping_dash,
    state_after_move,
    terrain_bars_dash,
    unreachable_reason,
)
from game.rules.ail.objectives import describe as describe_objectives
from game.rules.ail.queries import (
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
from game.rules.ail.state import GameState, Pending, SideState, TurnSlot, UnitState
from game.rules.ail.txn import Reject, Txn

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
