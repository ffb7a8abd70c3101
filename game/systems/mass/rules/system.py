"""The mass-battle rules behind the shared interface (`game.core.system.RuleSystem`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from game.core.record import Step
from game.core.system import Outcome, StateDataError, validation_message
from game.systems.mass.rules import choices, engine, odds, wresting
from game.systems.mass.rules.commands import Rolled, WrestCommand, parse_command, parse_event
from game.systems.mass.rules.models import MassSetup
from game.systems.mass.rules.state import MassState, with_readings

# Sealed answers and plans made in plain sight that roll nothing: taking them back changes no die.
_UNDOABLE = frozenset({"hold"})


class MassSystem:
    name = "mass-battle"
    title = "Mass battle (roll and keep)"
    clock = "wave"  # what summary()["round"] counts (game.core.system.clock_of)

    def initial_state(self, setup: MassSetup, seed: int) -> MassState:
        return engine.initial_state(setup, seed)

    def apply(self, state: MassState, command: Any) -> Outcome:
        return engine.apply(state, command)

    def legal_commands(self, state: MassState) -> list[BaseModel]:
        # found directly from the state (choices.py); odds.legal_commands, which tries every
        # candidate through apply, is the test oracle
        return choices.legal_commands(state)

    def preview(self, state: MassState, command: Any) -> odds.Odds:
        return choices.preview(state, command)

    def view(self, state: MassState, side: str | None) -> MassState:
        """Appointments are sealed until every force has made its own: a side sees only its own
        (and, when the GM views, the forced dice queue stays visible only to the GM); no side sees
        the generator's state (`rng`, set to 0), which would tell the dice to come."""
        if side is None:
            return state
        hidden = {k: v for k, v in state.appointments.items() if k == side or state.stage != "appoint"}
        return state.model_copy(update={"appointments": hidden, "forced": [], "rng": 0})

    def initial_state_for(self, setup: MassSetup, seed: int, saved: MassState) -> MassState:
        """The replay of a save starts under the readings it was played with (game.core.system)."""
        return engine.initial_state(with_readings(setup, saved.readings), seed)

    def state_to_data(self, state: MassState) -> dict[str, Any]:
        data: dict[str, Any] = state.model_dump(mode="json", exclude={"setup"})
        return data

    def state_from_data(self, data: Mapping[str, Any], setup: MassSetup) -> MassState:
        """The state of a save; a field that does not fit raises StateDataError naming it and what
        was expected (a save's reader puts the file in front), as the other systems do. Until
        2026-12-03 a hand-edited save (a person's wounds: 'lots') reached `validate` and `replay`
        as a pydantic traceback."""
        try:
            return MassState.model_validate({**dict(data), "setup": setup})
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = tuple(x for x in first["loc"] if x != "setup")
            raise StateDataError(loc, validation_message(first)) from None

    def parse_command(self, data: Mapping[str, Any]) -> Any:
        return parse_command(dict(data))

    def command_to_data(self, command: Any) -> dict[str, Any]:
        out: dict[str, Any] = command.model_dump(mode="json")
        return out

    def parse_event(self, data: Mapping[str, Any]) -> Any:
        return parse_event(dict(data))

    def summary(self, state: MassState) -> dict[str, Any]:
        moving = self.to_move(state)
        phase = STAGE_WORDS.get(state.stage, state.stage.replace("_", " "))
        if state.stage == "phases":
            phase = f"Phase {state.phase}"
        if state.stage == "ended":
            phase = "ended: " + (state.forces[state.winner].name + " won" if state.winner else "no victor")
        return {"round": state.wave, "phase": phase, "to_move": moving[0] if moving else None,
                "over": state.stage == "ended", "winner": state.winner, "sides": list(state.order),
                "side_names": [state.forces[i].name for i in state.order]}

    def to_move(self, state: MassState) -> list[str]:
        return engine.to_move(state)

    def rolls(self, events: Sequence[Any]) -> tuple[int, ...]:
        return tuple(v for e in events if isinstance(e, Rolled) for v in e.dice)

    def undoable(self, step: Step) -> bool:
        if step.gm or self.rolls(step.events):
            return False
        return str(getattr(step.command, "kind", "")) in _UNDOABLE

    def sealed(self, state: MassState, command: Any) -> bool:
        """Whether what `command` chose must stay hidden from the other forces for now: an
        appointment made while appointments are sealed (`view`), until every force has made its
        own (the rules then announce them all). A client logs such a command without its content."""
        return str(getattr(command, "kind", "")) == "appoint" and state.stage == "appoint"

    def is_gm_command(self, command: Any) -> bool:
        return str(getattr(command, "kind", "")).startswith("gm_")

    def describe_event(self, state: MassState, event: Any) -> str:
        if isinstance(event, Rolled):
            return roll_text(state, event)
        return str(getattr(event, "text", event))

    def describe_command(self, state: MassState, command: Any) -> str:
        return describe(state, command)


# What each stage of a Wave is called for a person (the summary's `phase`: save headers, the load
# menu, `run`), never the stage's id ("appoint").
STAGE_WORDS: dict[str, str] = {
    "appoint": "sealed appointments",
    "heaven": "assessing Heaven",
    "honor": "assessing Honor",
    "glory": "assessing Glory",
    "strategy": "rolling Strategy",
    "initiative": "rolling the action dice",
    "duel_answer": "a duel awaits its answer",
    "casualties": "counting casualties",
    "commander": "naming a new commander",
}


def roll_text(state: MassState, e: Rolled) -> str:
    if state.force_of(e.who):
        who = engine._name(state, e.who)
    else:
        who = state.forces[e.force].name if e.force in state.forces else e.who
    dice = " ".join(("[" + "+".join(map(str, ch)) + "]") if i in e.kept else "+".join(map(str, ch))
                    for i, ch in enumerate(e.chains))
    conv = f" ({e.conversion})" if e.conversion else ""
    tn = f" vs TN {e.tn}" if e.tn is not None else ""
    forced = " (GM-forced)" if e.forced else ""
    if e.purpose == "action dice":
        return f"{who}: action dice {dice}{forced}"
    return f"{who}: {e.purpose} {e.pool}{conv}{tn}: {dice} = {e.total}{forced}; luck: {ordinal(round(100 * e.luck))} percentile"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def describe(state: MassState, cmd: Any) -> str:
    k = str(getattr(cmd, "kind", ""))
    fname = state.forces[cmd.force].name if getattr(cmd, "force", None) in state.forces else ""
    if k == "action":
        bits = [engine.ACTION_TITLE[cmd.action]]
        for pid in (cmd.target, cmd.enemy):
            if pid and state.force_of(pid):
                bits.append(engine._name(state, pid))
        if cmd.target_force in state.forces:
            bits.append(state.forces[cmd.target_force].name)
        if cmd.option:
            bits.append(cmd.option)
        who = engine._name(state, cmd.actor) + " (Void point)" if cmd.void and cmd.actor else fname
        return f"{who}: " + " / ".join(bits)
    if k == "roll_way":
        return f"{fname}: roll {engine.WAY_TITLE[cmd.way]}"
    if k == "appoint":
        return (f"{fname}: {engine._name(state, cmd.heaven)} reads Heaven, "
                f"{engine._name(state, cmd.honor)} argues Honor")
    if k in ("surrender", "cede"):
        return f"{fname}: {k} to {state.forces[cmd.to].name if cmd.to in state.forces else cmd.to}"
    if k == "wrest_command" and isinstance(cmd, WrestCommand):
        return wresting.wrest_label(state, cmd)
    if k == "name_commander":
        return f"{fname}: " + (f"{engine._name(state, cmd.person)} takes command" if cmd.person else "no commander")
    if k.startswith("gm_"):
        return "GM: " + _gm_words(state, cmd, k, fname)
    return f"{fname}: {k.replace('_', ' ')}" if fname else k.replace("_", " ")


def _gm_words(state: MassState, cmd: Any, k: str, fname: str) -> str:
    """A GM command in words. The faces of forced dice are not said: the log is every player's
    (the GM's panel shows them)."""
    if k == "gm_force_rolls":
        n = len(cmd.values)
        return f"sets the next {n} {'die' if n == 1 else 'dice'}"
    who = engine._name(state, cmd.person) if getattr(cmd, "person", None) and state.force_of(cmd.person) else ""
    if k == "gm_set_person":
        parts = [f"{label} {v:g}" for label, v in (("Wounds", cmd.wounds), ("Void", cmd.void_left),
                                                   ("status", cmd.status)) if v is not None]
        return f"{who}: " + (", ".join(parts) or "unchanged")
    if k == "gm_set_brutes":
        return f"{fname}: {cmd.count} Brutes in {cmd.armour} armour"
    if k == "gm_set_advantage":
        return f"{fname}: Advantage of {engine.WAY_TITLE.get(cmd.way, cmd.way.capitalize())} {cmd.value}"
    if k == "gm_honor":
        return f"{who}: Honor {cmd.points:+d} ({cmd.reason})"
    return k.removeprefix("gm_").replace("_", " ")


SYSTEM = MassSystem()
