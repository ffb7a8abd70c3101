"""The campaign layer behind the shared interface (`game.core.system.RuleSystem`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from game.core.record import Step
from game.core.system import Outcome, StateDataError, validation_message
from game.systems.campaign.rules import engine, gm_lock, queries
from game.systems.campaign.rules.commands import Cmd, is_gm, parse_command
from game.systems.campaign.rules.describe import event_text
from game.systems.campaign.rules.events import DiceRolled, parse_event
from game.systems.campaign.rules.models import CampaignSetup
from game.systems.campaign.rules.score import tally
from game.systems.campaign.rules.state import PHASE_NAMES, CampaignState, with_readings

# Plans made in plain sight that rolled nothing: a move and a General's pick-up move.
_UNDOABLE = frozenset({"move_army", "pickup"})


class CampaignSystem:
    name = "campaign"
    title = "Ascension Isle campaign"
    clock = "week"  # what summary()["round"] counts (game.core.system.clock_of)

    def initial_state(self, setup: CampaignSetup, seed: int) -> CampaignState:
        return engine.initial_state(setup, seed)

    def initial_state_for(self, setup: CampaignSetup, seed: int, saved: CampaignState) -> CampaignState:
        """The replay of a save starts under the readings it was played with (game.core.system)."""
        return engine.initial_state(with_readings(setup, saved.readings), seed)

    def apply(self, state: CampaignState, command: Any) -> Outcome:
        return engine.apply(state, command)

    def legal_commands(self, state: CampaignState) -> list[Cmd]:
        return queries.legal_commands(state)

    def preview(self, state: CampaignState, command: Any) -> Any:
        if getattr(command, "kind", "") == "move_army":
            return engine.reach(state, command.army)
        return None

    def view(self, state: CampaignState, side: str | None) -> CampaignState:
        return queries.view(state, side)

    def state_to_data(self, state: CampaignState) -> dict[str, Any]:
        return state.to_dict()

    def state_from_data(self, data: Mapping[str, Any], setup: CampaignSetup) -> CampaignState:
        """The state of a save; a field that does not fit raises StateDataError naming it and what
        was expected (a save's reader puts the file and line in front)."""
        try:
            return CampaignState.from_dict(dict(data), setup)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = tuple(x for x in first["loc"] if x != "setup")
            message = validation_message(first)
            if loc[:1] == ("gm_lock",):  # (the GM's passphrase: what the whole entry holds)
                message += f"; the GM's passphrase entry holds {gm_lock.EXPECTED}"
            raise StateDataError(loc, message) from None

    def parse_command(self, data: Mapping[str, Any]) -> Cmd:
        return parse_command(dict(data))

    def command_to_data(self, command: Any) -> dict[str, Any]:
        out: dict[str, Any] = command.model_dump(mode="json")
        return out

    def parse_event(self, data: Mapping[str, Any]) -> Any:
        return parse_event(dict(data))

    def summary(self, state: CampaignState) -> dict[str, Any]:
        waiting = engine.waiting_for(state)
        phase = PHASE_NAMES.get(state.phase, state.phase)
        if waiting:
            phase += " (waiting: " + ", ".join(state.player_name(p) for p in waiting) + ")"
        return {"round": state.week, "phase": phase, "to_move": waiting[0] if waiting else None,
                "over": state.phase == "ended", "sides": state.players,
                "side_names": [state.player_name(p) for p in state.players],
                "battles": len(state.open_games()), "battles_fought": len(state.battles)}

    def history_summary(self, state: CampaignState, steps: Sequence[Step]) -> dict[str, Any]:
        """What the state alone does not keep, read from the history from the campaign's start
        to `state` (game.core.ai.game_summary): `score` (power -> enemy units destroyed - own
        units lost, rules/score.py) and its two parts, `units_destroyed` and `units_lost`."""
        t = tally(state, (e for step in steps for e in step.events))
        return {"score": t.score, "units_destroyed": t.destroyed, "units_lost": t.lost}

    def undoable(self, step: Step) -> bool:
        if step.gm or self.rolls(step.events):
            return False
        if str(getattr(step.command, "kind", "")) not in _UNDOABLE:
            return False
        return bool(step.before.phase == step.after.phase and step.before.week == step.after.week)

    def to_move(self, state: CampaignState) -> list[str]:
        return engine.waiting_for(state)

    def rolls(self, events: Sequence[Any]) -> tuple[int, ...]:
        return tuple(d for e in events if isinstance(e, DiceRolled) for d in e.dice)

    def is_gm_command(self, command: Any) -> bool:
        return is_gm(command)

    def describe_event(self, state: CampaignState, event: Any) -> str:
        return event_text(state, event)

    def describe_command(self, state: CampaignState, command: Any) -> str:
        return queries.describe_command(state, command)


SYSTEM = CampaignSystem()
