"""The interface every rule system offers, and the outcome of applying a command.

A rule system is one object (for example `game.systems.tactical.rules.SYSTEM`) registered explicitly in
`game.table`. The shell (client, saves, replays, GM tools, command line) talks to a system only
through these methods, so a new system plugs in without touching shell code:

    state = system.initial_state(setup, seed)
    outcome = system.apply(state, command)   # Accepted(state, events) | Rejection(reason)
    system.legal_commands(state); system.preview(state, command)
    system.view(state, side)                  # what one side may see (None: the GM, everything)
    system.state_to_data(state) / system.state_from_data(data, setup)
    system.parse_command(data) / system.command_to_data(command); system.parse_event(data)
    system.summary(state)                     # the save header's line: round, who is to move
    system.undoable(step)                     # rolled no dice and revealed nothing
    system.to_move(state)                     # the sides whose decision the game waits for
    system.describe_event(state, event); system.describe_command(state, command)  # for people
    system.state_version; system.state_migrations  # optional (VersionedState): the state data's
                                              # version and the steps that bring old data up to it

Commands and events are pydantic models (or anything with the same `model_dump`) carrying a
`kind` string; states are immutable values. Setups are whatever the system's loader builds
(files are read at the edge, in `game.io`, never here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

S = TypeVar("S")
E = TypeVar("E")


@dataclass(frozen=True)
class Step:
    """One accepted command: the state before, the command, its events, the state after."""

    before: Any
    command: Any
    events: tuple[Any, ...]
    after: Any
    gm: bool = False



class Reject(Exception):
    """Raised inside a handler: the command is illegal; `reason` is a sentence for a player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class StateDataError(ValueError):
    """Saved state data that does not fit the rules: `loc` is the path of the bad field inside
    the state document (e.g. ("units", "u3", "hex")), `message` says what was expected."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc
        self.message = message


def validation_message(err: Mapping[str, Any]) -> str:
    """One pydantic error as a short phrase for a person (shared by saves and rule systems)."""
    kind = str(err.get("type", ""))
    if kind == "extra_forbidden":
        return "unknown key (not part of the save format)"
    if kind == "missing":
        return "missing (this field is required)"
    msg = str(err.get("msg", "invalid value"))
    got = err.get("input")
    if kind.endswith("_type") or kind.endswith("_parsing"):
        if isinstance(got, int) and got.bit_length() > 200:
            shown = f"a whole number of about {int(got.bit_length() * 0.30103) + 1} digits"
        else:
            shown = repr(got) if not isinstance(got, (str, bytes)) or len(got) <= 200 else repr(got[:60])
            if len(shown) > 60:
                shown = shown[:57] + "..."
        return f"{msg[0].lower()}{msg[1:]}, got {shown}"
    return msg


@dataclass(frozen=True)
class Accepted(Generic[S, E]):
    """A command the rules took: the new state and the facts it produced, in order."""

    state: S
    events: tuple[E, ...]
    accepted: bool = True


@dataclass(frozen=True)
class Rejection:
    """A command the rules refused, with the reason as a sentence a player understands."""

    reason: str
    accepted: bool = False


Outcome = Accepted[Any, Any] | Rejection


@runtime_checkable
class RuleSystem(Protocol):
    """One rule system. `name` is written into every save and picks the system on load."""

    name: str        # stable id, e.g. "ail-tactical"
    title: str       # for people, e.g. "AI:L tactical battle"

    def initial_state(self, setup: Any, seed: int) -> Any: ...

    def apply(self, state: Any, command: Any) -> Outcome: ...

    def legal_commands(self, state: Any) -> Sequence[Any]: ...

    def preview(self, state: Any, command: Any) -> Any: ...

    def view(self, state: Any, side: str | None) -> Any:
        """The state as `side` may see it (hidden orders and the like removed); None = all."""
        ...

    def state_to_data(self, state: Any) -> dict[str, Any]: ...

    def state_from_data(self, data: Mapping[str, Any], setup: Any) -> Any:
        """The state back from `state_to_data`; raises StateDataError for data that does not fit."""
        ...

    def parse_command(self, data: Mapping[str, Any]) -> Any: ...

    def command_to_data(self, command: Any) -> dict[str, Any]: ...

    def parse_event(self, data: Mapping[str, Any]) -> Any: ...

    def summary(self, state: Any) -> dict[str, Any]:
        """Plain facts for a save header and the load menu: `round` (int: the system's own clock,
        see `clock_of`), `to_move` (side id or None), `phase` (text), `over` (bool), and anything
        else the system wants shown.

        Optional, outside this protocol: a system whose facts need the game's history and not only
        its state may also offer `history_summary(state, steps) -> dict` (the campaign's `score`
        per side, units destroyed and lost); `game.core.ai.game_summary` merges it for the arena."""
        ...

    def undoable(self, step: Step) -> bool:
        """May this step be taken back by a player? (It rolled no dice and revealed nothing.)"""
        ...

    def to_move(self, state: Any) -> list[str]:
        """The sides the game now waits for (several for a sealed simultaneous decision)."""
        ...

    def rolls(self, events: Sequence[Any]) -> tuple[int, ...]:
        """Every die value the events record, in the order rolled (replay --verify compares)."""
        ...

    def is_gm_command(self, command: Any) -> bool: ...

    def describe_event(self, state: Any, event: Any) -> str:
        """The event as one line for a person (names, not ids; hexes as the map's column,row).
        `state` is the state the event happened in (for names)."""
        ...

    def describe_command(self, state: Any, command: Any) -> str:
        """A short label for a command (logs, undo buttons, replay), names not ids."""
        ...


# --------------------------------------------------------------------------- the clock


def clock_of(system: object) -> str:
    """The word for what the summary's `round` counts, for people ("round", "week", "wave"): a
    system says it with a `clock` attribute (optional; "round" without one)."""
    word = getattr(system, "clock", "round")
    return word if isinstance(word, str) and word else "round"


def possessive(name: str) -> str:
    """A name's possessive for the lines `describe_event` and refusals write: "Akira's", "The
    Zones'" (a name ending in s takes the apostrophe alone)."""
    return f"{name}'" if name.endswith(("s", "S")) else f"{name}'s"


# a singular subject's word -> the plural subject's, where dropping the -s/-es would be wrong
_MANY_OF = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go", "it": "they",
            "its": "their", "itself": "themselves", "it's": "they're", "isn't": "aren't",
            "wasn't": "weren't", "hasn't": "haven't", "doesn't": "don't"}


def agree(word: str, plural: bool) -> str:
    """`word` as it follows a subject that is one (`plural` False: returned as written) or many:
    a verb written for one ("has", "proposes", "marches", "carries") or the pronoun standing for
    the subject ("it", "its", "itself"). For many: has -> have, is -> are, was -> were,
    it -> they, its -> their; -ies -> -y; -sses/-ches/-shes/-xes/-zes/-oes drop the -es;
    any other -s is dropped ("proposes" -> "propose"); a word without an -s ("can", "must")
    is the same for both. Only a phrase's first word changes ("has finished" -> "have finished").
    A word the rule cannot know is written as both forms, "one/many": "it/them" (an object)."""
    if "/" in word:
        one, _, many = word.partition("/")
        return many if plural else one
    if not plural or not word:
        return word
    head, sep, rest = word.partition(" ")
    low = head.lower()
    if low in _MANY_OF:
        many = _MANY_OF[low]
        many = many.capitalize() if head[:1].isupper() else many
    elif low.endswith("ies") and len(low) > 4:
        many = head[:-3] + "y"
    elif low.endswith(("sses", "ches", "shes", "xes", "zes", "oes")):
        many = head[:-2]
    elif low.endswith("s") and not low.endswith("ss"):
        many = head[:-1]
    else:
        many = head
    return many + sep + rest


def says(name: str, plural: bool, verb: str) -> str:
    """A name and the verb it is the subject of, agreeing: "Jibril has", "The Zones have". Every
    line a player reads with a power's, a force's or an army's name as its subject uses it (the
    name's number comes from its set-up: a scenario's `plural:`, docs/formats.md)."""
    return f"{name} {agree(verb, plural)}"


def counted(n: int, one: str, many: str) -> str:
    """A count with its noun in the right number for a line a player reads: "1 die", "4 dice"."""
    return f"{n} {one if n == 1 else many}"


# --------------------------------------------------------------------------- replaying under older readings


def initial_state_for(system: object, setup: Any, seed: int, saved: Any) -> Any:
    """The initial state to replay a save whose (loaded, migrated) state is `saved`. A system whose
    rules changed a reading since the save was played (e.g. after an audit) defines
    `initial_state_for(setup, seed, saved)` to start the replay under the readings the save was
    played with, so the save still verifies; any other system starts from `initial_state`."""
    make = getattr(system, "initial_state_for", None)
    if callable(make):
        return make(setup, seed, saved)
    return system.initial_state(setup, seed)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- state versions


@dataclass(frozen=True)
class StateStep:
    """One migration of a system's saved state data, version `from_version` -> `from_version + 1`.
    `run` takes and returns plain data (the state document of a save), never live objects, so it
    keeps working when the system's classes change."""

    from_version: int
    summary: str
    run: Callable[[dict[str, Any]], dict[str, Any]]


@runtime_checkable
class VersionedState(Protocol):
    """A rule system whose state data has changed since its first saves. `state_version` is the
    version `state_to_data` writes (saves record it in their header); `state_migrations` maps each
    older version N to the step N -> N+1. A system without these writes version 1, needs nothing."""

    state_version: int
    state_migrations: Mapping[int, StateStep]


class StateVersionError(ValueError):
    """Saved state data this version of a system cannot read (newer, or no way to migrate it)."""


def state_version_of(system: object) -> int:
    """The state data version `system` writes (1 for a system that never changed its data)."""
    return int(system.state_version) if isinstance(system, VersionedState) else 1


def migrate_state(system: object, data: Mapping[str, Any], from_version: int) -> dict[str, Any]:
    """State data saved at `from_version` of `system`, brought up to its current version step by
    step. Raises StateVersionError for data from a newer version of the system, or when a step is
    missing or fails (naming the versions and what the step does)."""
    current = state_version_of(system)
    title = str(getattr(system, "title", getattr(system, "name", "this rule system")))
    if from_version > current:
        raise StateVersionError(
            f"the state was saved by a newer version of the {title} rules (state version {from_version}); "
            f"this version reads state versions 1 to {current}: update the game to open it")
    if from_version < 1:
        raise StateVersionError(f"state version {from_version} does not exist")
    steps: Mapping[int, StateStep] = system.state_migrations if isinstance(system, VersionedState) else {}
    out = dict(data)
    for v in range(from_version, current):
        step = steps.get(v)
        if step is None:
            raise StateVersionError(f"no migration of the {title} state from version {v} to {v + 1}")
        try:
            out = step.run(out)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise StateVersionError(
                f"cannot update the {title} state from version {v} to {v + 1} ({step.summary}): "
                f"{type(exc).__name__}: {exc}") from None
    return out
