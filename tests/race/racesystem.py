"""A second rule system that lives only in the tests: a race along a track, two runners taking
turns. It plugs into the shell through the plugin table alone (tests/race/test_race_plugs_in.py)
to prove that saves, replays, undo/redo, the hand-off and the load menu need no shell change.

Each turn a runner may `stretch` first (no dice, the turn stays: a player may take it back), then
rolls a d6 and runs that far (`run`). The first past the finish wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict

from game.core.record import Step
from game.core.roller import Roller
from game.core.system import Accepted, Outcome, Rejection, StateDataError


class Cmd(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: str  # "run" | "stretch" | "gm_set_next_roll"
    side: str = ""
    values: tuple[int, ...] = ()


class Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: str
    side: str = ""
    die: int = 0
    at: int = 0


@dataclass(frozen=True)
class RaceSetup:
    name: str
    length: int
    sides: tuple[str, ...]


@dataclass(frozen=True)
class RaceState:
    setup: RaceSetup
    at: tuple[int, ...]
    turn: int = 0          # index of the side to move
    lap: int = 1           # the "round": one lap = every side moved once
    rng: int = 0
    forced: tuple[int, ...] = ()
    winner: str | None = None
    stretches: int = 0


class RaceSystem:
    name = "race"
    title = "race (test system)"
    clock = "lap"  # what summary()["round"] counts (game.core.system.clock_of)

    def initial_state(self, setup: RaceSetup, seed: int) -> RaceState:
        return RaceState(setup, tuple(0 for _ in setup.sides), rng=seed)

    def apply(self, state: RaceState, command: Cmd) -> Outcome:
        if command.kind == "gm_set_next_roll":
            return Accepted(replace(state, forced=state.forced + command.values), (Ev(kind="gm_action"),))
        if state.winner is not None:
            return Rejection(f"the race is over: {state.winner} won")
        side = state.setup.sides[state.turn]
        if command.side != side:
            return Rejection(f"it is {side}'s turn, not {command.side}'s")
        roller = Roller(state.rng, state.forced)
        events: list[Ev] = []
        at = list(state.at)
        if command.kind == "run":
            die = roller.roll(6, "run")
            at[state.turn] += die
            events.append(Ev(kind="ran", side=side, die=die, at=at[state.turn]))
        elif command.kind == "stretch":
            return Accepted(replace(state, stretches=state.stretches + 1), (Ev(kind="stretched", side=side),))
        else:
            return Rejection(f"unknown command kind {command.kind!r}")
        winner = side if at[state.turn] >= state.setup.length else None
        nxt = (state.turn + 1) % len(at)
        return Accepted(replace(state, at=tuple(at), turn=nxt, lap=state.lap + (nxt == 0), rng=roller.rng_state,
                                forced=roller.forced_left, winner=winner), tuple(events))

    def legal_commands(self, state: RaceState) -> list[Cmd]:
        if state.winner is not None:
            return []
        side = state.setup.sides[state.turn]
        return [Cmd(kind="run", side=side), Cmd(kind="stretch", side=side)]

    def preview(self, state: RaceState, command: Cmd) -> Any:
        return None

    def view(self, state: RaceState, side: str | None) -> RaceState:
        return state

    def state_to_data(self, state: RaceState) -> dict[str, Any]:
        return {"at": list(state.at), "turn": state.turn, "lap": state.lap, "rng": state.rng,
                "forced": list(state.forced), "winner": state.winner, "stretches": state.stretches}

    def state_from_data(self, data: Mapping[str, Any], setup: RaceSetup) -> RaceState:
        try:
            return RaceState(setup, tuple(int(x) for x in data["at"]), int(data["turn"]), int(data["lap"]),
                             int(data["rng"]), tuple(int(x) for x in data["forced"]), data["winner"],
                             int(data["stretches"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise StateDataError((), f"not a race state ({exc})") from None

    def parse_command(self, data: Mapping[str, Any]) -> Cmd:
        return Cmd.model_validate(dict(data))

    def command_to_data(self, command: Cmd) -> dict[str, Any]:
        return command.model_dump(mode="json")

    def parse_event(self, data: Mapping[str, Any]) -> Ev:
        return Ev.model_validate(dict(data))

    def summary(self, state: RaceState) -> dict[str, Any]:
        to_move = self.to_move(state)
        return {"round": state.lap, "phase": "over" if state.winner else "racing",
                "to_move": to_move[0] if to_move else None, "over": state.winner is not None,
                "winner": state.winner, "title": state.setup.name, "sides": list(state.setup.sides),
                "side_names": [s.title() for s in state.setup.sides]}

    def undoable(self, step: Step) -> bool:
        # no dice, no GM command, and the turn did not pass (the other runner saw nothing new)
        return (not self.rolls(step.events) and not self.is_gm_command(step.command)
                and step.before.turn == step.after.turn)

    def to_move(self, state: RaceState) -> list[str]:
        return [] if state.winner else [state.setup.sides[state.turn]]

    def rolls(self, events: Sequence[Ev]) -> tuple[int, ...]:
        return tuple(e.die for e in events if e.kind == "ran")

    def is_gm_command(self, command: Cmd) -> bool:
        return command.kind.startswith("gm_")

    def describe_event(self, state: RaceState, event: Ev) -> str:
        return f"{event.side} runs {event.die} to {event.at}" if event.kind == "ran" else event.kind

    def describe_command(self, state: RaceState, command: Cmd) -> str:
        return f"{command.side} {command.kind}"


SYSTEM = RaceSystem()


@dataclass(frozen=True)
class LoadedRace:
    setup: RaceSetup
    seed: int
    path: Path
    name: str
    description: str = ""
    system_name: str = "race"


def load_race(path: Path) -> LoadedRace:
    data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    setup = RaceSetup(str(data["name"]), int(data["length"]), tuple(data["sides"]))
    return LoadedRace(setup, int(data.get("seed", 0)), Path(path), setup.name)
