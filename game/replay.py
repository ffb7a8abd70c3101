"""The command log as the backbone: a battle is its initial state folded through `apply`.

- `Record`: the initial state, every applied `Step` (state before, command, events, state after)
  and a redo stack. Undo pops a step (dice included: the state before it holds the generator as
  it was), redo re-applies the command, which rolls the very same dice.
- `make_save` / `save_game`: a Record (or a client session's history) to a save file.
- `load_game`: a save file back to a live game. The log is re-applied from the scenario's initial
  state to rebuild the history (undo, replay view, dice log) and to prove that the log and the
  saved state agree; the saved state is what the game resumes from.
- `verify_save`: `python -m game replay SAVE --verify` — re-apply the log and name the first
  command whose rolls or resulting state differ from what was recorded.

Rules-agnostic where it can be; AI:L specifics (initial state, command parsing) are imported here
and nowhere else in the save code.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

import game.rules.ail.gm as gm  # registers the GM commands with the engine and the command parser
from game.errors import GameFileError
from game.io import saves
from game.io.saves import LogEntry, SaveData, SaveError, SaveHeader
from game.rules.ail import engine
from game.rules.ail.commands import parse_command
from game.rules.ail.events import RollMade
from game.rules.ail.state import GameState

ROOT = Path(__file__).resolve().parents[1]


# --------------------------------------------------------------------------- steps and records


@dataclass(frozen=True)
class Step:
    """One accepted command with the states around it."""

    before: GameState
    command: BaseModel
    events: tuple[Any, ...]
    after: GameState

    @property
    def rolls(self) -> tuple[int, ...]:
        return rolls_of(self.events)

    @property
    def gm(self) -> bool:
        return gm.is_gm_command(self.command)

    @property
    def round(self) -> int:
        return self.before.round


def rolls_of(events: Iterable[Any]) -> tuple[int, ...]:
    """The die values of every RollMade event, in the order they were rolled."""
    return tuple(e.die for e in events if isinstance(e, RollMade))


def command_dict(command: BaseModel) -> dict[str, Any]:
    return command.model_dump(mode="json")


def describe_command(command: BaseModel | Mapping[str, Any]) -> str:
    """A short label for messages: `move u1 to (3,2)`, `attack u1 at u4 (bolt rifles)`."""
    d = dict(command) if isinstance(command, Mapping) else command_dict(command)
    kind = str(d.get("kind", "?"))
    who = d.get("unit_id") or d.get("attacker_id") or d.get("side") or ""
    extra = ""
    if d.get("target_id"):
        extra = f" at {d['target_id']}"
    elif d.get("path"):
        path = d["path"]
        extra = f" to {_hex_text(path[-1] if isinstance(path, (list, tuple)) else path)}"
    elif d.get("to") is not None:
        extra = f" to {_hex_text(d['to'])}"
    elif d.get("at") is not None:
        extra = f" at {_hex_text(d['at'])}"
    if d.get("weapon"):
        extra += f" ({d['weapon']})"
    if d.get("option"):
        extra += f" {d['option']}"
    if d.get("stance"):
        extra += f" {d['stance']}"
    if kind == "gm_set_next_roll":
        extra += " " + ",".join(str(v) for v in d.get("values", ()))
    return " ".join(x for x in (kind.replace("_", " "), str(who)) if x) + extra


def _hex_text(value: Any) -> str:
    """`(q,r)` for a hex; anything else (a hand-edited save's mistake) shown as it is."""
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return f"({value[0]},{value[1]})"
    return _short(value)


@dataclass
class Record:
    """A battle as a chain of states, with undo and redo of anything (dice included)."""

    initial: GameState
    steps: list[Step] = field(default_factory=list)
    redo_stack: list[BaseModel] = field(default_factory=list)

    @property
    def state(self) -> GameState:
        return self.steps[-1].after if self.steps else self.initial

    def state_at(self, index: int) -> GameState:
        """The state after the first `index` commands (0 = the initial state)."""
        if index <= 0:
            return self.initial
        return self.steps[min(index, len(self.steps)) - 1].after

    def apply(self, command: BaseModel) -> engine.Outcome:
        outcome = engine.apply(self.state, command)
        if isinstance(outcome, engine.Accepted):
            self.steps.append(Step(self.state, command, tuple(outcome.events), outcome.state))
            self.redo_stack.clear()
        return outcome

    @property
    def can_undo(self) -> bool:
        return bool(self.steps)

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo(self) -> Step | None:
        if not self.steps:
            return None
        step = self.steps.pop()
        self.redo_stack.append(step.command)
        return step

    def redo(self) -> engine.Outcome | None:
        if not self.redo_stack:
            return None
        command = self.redo_stack.pop()
        outcome = engine.apply(self.state, command)
        if isinstance(outcome, engine.Accepted):
            self.steps.append(Step(self.state, command, tuple(outcome.events), outcome.state))
        return outcome

    def round_starts(self) -> dict[int, int]:
        """Round number -> index of the first command played in it (for 'jump to round')."""
        starts: dict[int, int] = {self.initial.round: 0}
        for i, step in enumerate(self.steps):
            starts.setdefault(step.before.round, i)
            starts.setdefault(step.after.round, i + 1)
        return starts


# --------------------------------------------------------------------------- scenario files


def scenario_ref(path: str | os.PathLike[str]) -> str:
    """How a save names its scenario: relative to the project when inside it, else absolute."""
    p = Path(path).resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        return str(p)


def find_scenario(ref: str, save_path: str | os.PathLike[str] | None = None) -> Path | None:
    p = Path(ref)
    candidates = [p] if p.is_absolute() else [ROOT / p, Path.cwd() / p]
    if save_path is not None and not p.is_absolute():
        candidates.append(Path(save_path).resolve().parent / p)
    return next((c for c in candidates if c.is_file()), None)


def scenario_fingerprint(path: str | os.PathLike[str]) -> str:
    """A checksum of a scenario file together with the map and unit catalogue it names, so a save
    notices when any of them changed (16 hex digits of SHA-256)."""
    import hashlib

    import yaml

    from game.io import safe_read

    p = Path(path)
    raw = safe_read.read_bytes(p, "scenario file")
    h = hashlib.sha256(raw)
    try:
        data = safe_read.load_yaml(safe_read.decode_text(raw, str(p), "scenario file"))
    except (GameFileError, yaml.YAMLError):
        data = None
    if isinstance(data, Mapping):
        for key in ("map", "catalogue"):
            ref = data.get(key)
            if isinstance(ref, str) and (p.parent / ref).is_file():
                try:
                    part = safe_read.read_bytes(p.parent / ref, key)
                except GameFileError:
                    continue  # (loading the scenario reports it)
                h.update(b"\0" + key.encode() + b"\0" + part)
    return h.hexdigest()[:16]


def _load_scenario(path: Path) -> Any:
    from game.io.scenario import load_scenario  # the maps helper's loader: TMX/YAML at the edge

    return load_scenario(path)


def initial_state_of(scenario: Any, seed: int | None = None) -> GameState:
    """The state a battle starts from: the scenario's set-up, board and seed (or `seed`)."""
    from game.rules.ail import flow

    use_seed = scenario.seed if seed is None else seed
    make = getattr(engine, "initial_state", None) or flow.initial_state
    state: GameState = make(scenario.setup, scenario.board, use_seed)
    return state


# --------------------------------------------------------------------------- saving


def _phase_name(state: GameState) -> str:
    pending = state.pending
    if pending is not None:
        return f"{state.phase} (waiting: {pending.kind.replace('_', ' ')})"
    return state.phase


def to_move(state: GameState) -> str | None:
    """The side whose decision the game waits for."""
    if state.phase == "ended":
        return None
    if state.pending is not None and state.pending.sides:
        return state.pending.sides[0]
    return state.active_side


def log_entries(steps: Sequence[Any]) -> tuple[LogEntry, ...]:
    """Log entries from Steps (ours or a client session's: anything with before/command/events,
    and `after` when known; the state after a step is the next step's `before`)."""
    out: list[LogEntry] = []
    checksums = state_checksums()
    for i, step in enumerate(steps):
        after = getattr(step, "after", None)
        if after is None:
            after = steps[i + 1].before if i + 1 < len(steps) else None
        out.append(LogEntry(
            command=command_dict(step.command), rolls=rolls_of(step.events),
            gm=gm.is_gm_command(step.command), round=step.before.round,
            after=checksums.checksum(after) if after is not None else "",
        ))
    return tuple(out)


def state_checksums() -> saves.StateChecksums:
    """`saves.state_checksum(state.to_dict())` for the states of one game, quickly: the units,
    sides and GM-made unit types a command leaves unchanged are encoded once, not per state."""
    return saves.StateChecksums(("units", "sides", "custom_types"))


def make_save(state: GameState, steps: Sequence[Any], *, scenario_path: str | os.PathLike[str],
              seed: int, title: str = "", gm_mode: bool = False, now: _dt.datetime | None = None,
              scenario_checksum: str | None = None) -> SaveData:
    """A save of `state` reached by `steps` from the scenario's initial state."""
    state_dict = state.to_dict()
    check = saves.state_checksum(state_dict)
    entries = list(log_entries(steps))
    if entries and not entries[-1].after:
        entries[-1] = entries[-1].model_copy(update={"after": check})
    sides = tuple(s.id for s in state.setup.sides)
    side_names = tuple(s.name for s in state.setup.sides)
    header = SaveHeader(
        format=saves.FORMAT_VERSION, title=title or state.setup.name, scenario=scenario_ref(scenario_path),
        scenario_checksum=scenario_checksum or scenario_fingerprint(scenario_path), seed=seed,
        saved_at=saves.now_iso(now), round=state.round, phase=_phase_name(state), sides=sides,
        side_names=side_names,
        to_move=to_move(state), commands=len(entries), state_checksum=check, gm_mode=gm_mode,
    )
    return SaveData(header, state_dict, tuple(entries))


def save_game(path: str | os.PathLike[str], state: GameState, steps: Sequence[Any], **kwargs: Any) -> Path:
    """Write a save atomically (the previous file is kept as `<name>.bak`)."""
    return saves.write_save(path, make_save(state, steps, **kwargs))


# --------------------------------------------------------------------------- loading and verifying


class ReplayMismatch(GameFileError):
    """Re-applying the log does not give what the save recorded; names the first bad command."""

    def __init__(self, path: str, where: str, message: str, index: int | None) -> None:
        super().__init__(path, where, message)
        self.index = index


@dataclass
class LoadedGame:
    """A save brought back to life."""

    path: Path
    save: SaveData
    scenario: Any  # game.io.scenario.LoadedScenario
    state: GameState
    record: Record
    warnings: list[str] = field(default_factory=list)

    @property
    def header(self) -> SaveHeader:
        return self.save.header


def first_difference(a: Any, b: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place where two plain-data trees differ: (dotted path, value in a, value in b)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for key in list(a) + [k for k in b if k not in a]:
            sub = f"{path}.{key}" if path else str(key)
            if key not in b:
                return sub, a[key], "<missing>"
            if key not in a:
                return sub, "<missing>", b[key]
            found = first_difference(a[key], b[key], sub)
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b else (path, a, b)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _state_from(save: SaveData, scenario: Any) -> GameState:
    """The saved state as a live GameState, with located errors for wrong or missing fields."""
    try:
        state = GameState.from_dict(dict(save.state), scenario.setup, scenario.board)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(x for x in first["loc"] if x not in ("setup", "board"))
        raise save.error("state", loc, saves._friendly(first)) from None
    catalogue = scenario.setup.catalogue.units
    custom = getattr(state, "custom_types", {}) or {}
    for uid, unit in state.units.items():
        if unit.type_id not in catalogue and unit.type_id not in custom:
            raise save.error("state", ("units", uid, "type_id"),
                             f"unit type {unit.type_id!r} is not in the scenario's catalogue")
        if unit.side not in state.sides:
            raise save.error("state", ("units", uid, "side"), f"no side {unit.side!r} in this battle")
        if unit.hex not in scenario.board:
            raise save.error("state", ("units", uid, "hex"), f"hex {unit.hex} is not on the map")
    pending = state.pending
    if pending is not None:
        for ref in (pending.unit_id, *(s.unit_id for s in (*pending.ranking, *pending.trailing))):
            if ref is not None and ref not in state.units:
                raise save.error("state", ("pending",), f"refers to unit {ref!r}, which is missing from state.units")
        if pending.attack is not None:
            for ref in (pending.attack.attacker_id, pending.attack.target_id):
                if ref not in state.units:
                    raise save.error("state", ("pending", "attack"),
                                     f"refers to unit {ref!r}, which is missing from state.units")
    for i, slot in enumerate(state.turn_order):
        if slot.unit_id is not None and slot.unit_id not in state.units:
            raise save.error("state", ("turn_order", i, "unit_id"),
                             f"refers to unit {slot.unit_id!r}, which is missing from state.units")
    return state


def _label(save: SaveData, i: int) -> str:
    """How messages name command i of a log (made only when something is wrong)."""
    entry = save.log[i]
    return f"command {i + 1} of {len(save.log)} ({describe_command(entry.command)}, round {entry.round})"


def replay_log(save: SaveData, initial: GameState, *,
               on_step: Callable[[int, Step], None] | None = None) -> Record:
    """Re-apply the log of `save` from `initial`, checking every recorded roll and checksum.

    Raises ReplayMismatch naming the first command that is refused, rolls other dice, or leaves
    another state than recorded, and if the final state differs from the saved one.
    """
    record = Record(initial)
    path = save.path
    try:
        saved = GameState.from_dict(dict(save.state), initial.setup, initial.board)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(x for x in first["loc"] if x not in ("setup", "board"))
        raise save.error("state", loc, saves._friendly(first)) from None
    saved_plain = saved.to_dict()
    # Saved with the game's state layout of today? If the rules have since added a field (with a
    # default), old saves still load: the per-command checksums then cannot match and are skipped,
    # the dice are still checked one by one and the final state is compared field by field.
    same_layout = saved_plain == dict(save.state)
    checksums = state_checksums()
    for i, entry in enumerate(save.log):
        try:
            command = parse_command(dict(entry.command))
        except ValueError as exc:
            err = save.error("log", (i, "command"), str(exc))
            raise ReplayMismatch(path, err.where, f"{_label(save, i)}: {exc}", i) from None
        outcome = record.apply(command)
        if not isinstance(outcome, engine.Accepted):
            err = save.error("log", (i, "command"), "")
            raise ReplayMismatch(path, err.where, f"{_label(save, i)} is refused when replayed: {outcome.reason}",
                                 i)
        step = record.steps[-1]
        if step.rolls != entry.rolls:
            k = next((j for j, (x, y) in enumerate(zip(step.rolls, entry.rolls, strict=False)) if x != y),
                     min(len(step.rolls), len(entry.rolls)))
            err = save.error("log", (i, "rolls"), "")
            raise ReplayMismatch(
                path, err.where,
                f"{_label(save, i)}: recorded rolls {list(entry.rolls)} but the replay rolls {list(step.rolls)} "
                f"(first difference at die {k + 1}): the dice in the save were changed", i)
        last_and_final = i == len(save.log) - 1 and entry.after == save.header.state_checksum
        if same_layout and entry.after and not last_and_final:  # last: below
            check = checksums.checksum(step.after)
            if check != entry.after:
                err = save.error("log", (i, "after"), "")
                raise ReplayMismatch(path, err.where,
                                     f"{_label(save, i)} leaves state {check}, the save recorded {entry.after}", i)
        if on_step is not None:
            on_step(i, step)
    final = record.state.to_dict()
    if final != saved_plain:
        diff = first_difference(saved_plain, final)
        where_loc: tuple[str | int, ...] = ()
        what = ""
        if diff is not None:
            if diff[1] == "<missing>":
                what = f": {diff[0]} is missing from the saved state, the replayed game has it"
            elif diff[2] == "<missing>":
                what = f": the saved state has {diff[0]}, which the replayed game does not"
            else:
                what = f": at {diff[0]} the save has {_short(diff[1])}, the replay gives {_short(diff[2])}"
            where_loc = tuple(int(x) if x.isdigit() else x
                              for x in diff[0].replace("[", ".").replace("]", "").split(" ")[0].split("."))
        err = save.error("state", where_loc, "")
        raise ReplayMismatch(path, err.where, "the log does not lead to the saved state" + what, None)
    return record


def load_scenario_of(save: SaveData, save_path: str | os.PathLike[str]) -> tuple[Any, list[str]]:
    ref = save.header.scenario
    found = find_scenario(ref, save_path)
    if found is None:
        raise save.error("header", ("scenario",), f"the scenario file {ref!r} of this save was not found")
    try:
        scenario = _load_scenario(found)
    except GameFileError as exc:
        raise save.error("header", ("scenario",), f"its scenario cannot be loaded: {exc}") from None
    warnings: list[str] = []
    # (saves made before the fingerprint covered the map and catalogue hold the file's checksum)
    if save.header.scenario_checksum not in (scenario_fingerprint(found), saves.file_checksum(found)):
        warnings.append(f"the scenario {ref} (or its map or unit catalogue) has changed since this game was saved")
    return scenario, warnings


def _locate_hand_edit(path: str | os.PathLike[str]) -> SaveError | None:
    """A state that fails its checksum was edited: replay the log to name the field that differs."""
    try:
        save = saves.load_save(path, verify_checksums=False)
        scenario, _ = load_scenario_of(save, path)
        _state_from(save, scenario)
        replay_log(save, initial_state_of(scenario, save.header.seed))
    except ReplayMismatch as exc:
        if exc.index is None:  # the final state differs: `where` names the edited field
            return SaveError(exc.path, exc.where, "the state was edited by hand (it no longer matches its "
                             "checksum)" + exc.message.removeprefix("the log does not lead to the saved state"))
        return None
    except SaveError as exc:
        return exc  # e.g. the edit put a wrong type in a field: that message is the precise one
    return None


def _load_checked(path: str | os.PathLike[str]) -> SaveData:
    """load_save, with a checksum failure traced to the edited field when the log allows it."""
    try:
        return saves.load_save(path)
    except SaveError as exc:
        if "does not match its checksum" not in exc.message:
            raise
        raise (_locate_hand_edit(path) or exc) from None


def load_game(path: str | os.PathLike[str], *, verify: bool = True) -> LoadedGame:
    """Read a save and rebuild the game. Raises SaveError (one clear line) if anything is wrong;
    never writes a file."""
    save = _load_checked(path)
    scenario, warnings = load_scenario_of(save, path)
    state = _state_from(save, scenario)
    if verify:
        try:
            initial = initial_state_of(scenario, save.header.seed)
            record = replay_log(save, initial)
        except ReplayMismatch as exc:
            hint = " (the scenario file has changed since the save)" if warnings else ""
            raise SaveError(exc.path, exc.where, exc.message + hint) from None
    else:
        record = Record(state)
    return LoadedGame(Path(path), save, scenario, state, record, warnings)


@dataclass(frozen=True)
class VerifyReport:
    commands: int
    rolls: int
    gm_actions: int
    final_checksum: str
    warnings: tuple[str, ...]


def verify_save(path: str | os.PathLike[str],
                on_step: Callable[[int, Step], None] | None = None) -> VerifyReport:
    """Re-apply the whole log from the scenario's initial state; raise ReplayMismatch (naming the
    first bad command) or SaveError; return counts when everything matches bit for bit."""
    save = _load_checked(path)
    scenario, warnings = load_scenario_of(save, path)
    _state_from(save, scenario)
    initial = initial_state_of(scenario, save.header.seed)
    record = replay_log(save, initial, on_step=on_step)
    return VerifyReport(
        commands=len(record.steps), rolls=sum(len(s.rolls) for s in record.steps),
        gm_actions=sum(1 for s in record.steps if s.gm), final_checksum=save.header.state_checksum,
        warnings=tuple(warnings),
    )
