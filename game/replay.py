"""The command log as the backbone, for every rule system: a game is its initial state folded
through the system's `apply`.

- `make_save` / `save_game`: a history (game.core.record steps) to a save file; the header names
  the rule system (`game`), and its round / phase / side to move come from the system's summary.
- `load_game`: a save file back to a live game. The header's system is looked up in
  the table of systems the caller passes (game.core.plugin.Table; the program's is
  game.table.TABLE); the log is re-applied from the scenario's initial state to rebuild the history
  (undo, replay view, dice log) and to prove that the log and the saved state agree; the saved
  state is what the game resumes from.
- `verify_save`: `python -m game replay SAVE --verify` — re-apply the log and name the first
  command whose rolls or resulting state differ from what was recorded. The computer's why lines
  are not re-made by replaying: their checksums are checked when the save is read
  (game.io.saves.parse_save), so an edited one is refused by loading and verifying alike.

Knows no rule system: everything system-specific goes through `game.core.system.RuleSystem`.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import os
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from game import paths
from game.core.errors import GameFileError
from game.core.plugin import Plugin, Table
from game.core.record import Record, Step
from game.core.registry import UnknownSystem
from game.core.system import (
    Accepted,
    RuleSystem,
    StateDataError,
    StateVersionError,
    initial_state_for,
    migrate_state,
    state_version_of,
)
from game.io import safe_read, saves
from game.io.saves import LogEntry, SaveData, SaveError, SaveHeader

ROOT = paths.data_root()

# Told of each command as it is replayed: its place in the log, the step, the rules, and the
# computer's why line saved with it (None: none was saved).
OnStep = Callable[[int, Step, RuleSystem, str | None], None]

__all__ = ["LoadedGame", "OnStep", "Record", "ReplayMismatch", "Step", "VerifyReport", "command_label", "find_scenario",
           "initial_state_of", "load_game", "load_scenario_of", "make_save", "replay_log", "save_game",
           "scenario_fingerprint", "scenario_ref", "system_of", "verify_save"]


def system_of(table: Table, loaded: Any) -> RuleSystem:
    """The rule system a loaded set-up (or save header) belongs to."""
    return table.plugin_of_loaded(loaded).system


def command_label(command: Mapping[str, Any]) -> str:
    """A short label of a command as plain data, for messages about a save's log (no state at hand)."""
    kind = str(command.get("kind", "?"))
    who = next((str(command[k]) for k in ("unit_id", "attacker_id", "army_id", "side") if command.get(k)), "")
    return " ".join(x for x in (kind.replace("_", " "), who) if x)


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
    return next((c for c in candidates if paths.is_file(c)), None)


def scenario_fingerprint(path: str | os.PathLike[str]) -> str:
    """A checksum of a scenario file together with the map and unit catalogue it names, so a save
    notices when any of them changed (16 hex digits of SHA-256)."""
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
            if isinstance(ref, str) and paths.is_file(p.parent / ref):
                try:
                    part = safe_read.read_bytes(p.parent / ref, key)
                except GameFileError:
                    continue  # (loading the scenario reports it)
                h.update(b"\0" + key.encode() + b"\0" + part)
    return h.hexdigest()[:16]


def initial_state_of(table: Table, loaded: Any, seed: int | None = None) -> Any:
    """The state a game starts from: the loaded scenario's set-up and seed (or `seed`)."""
    plugin = table.plugin_of_loaded(loaded)
    return plugin.system.initial_state(plugin.setup_of(loaded), loaded.seed if seed is None else seed)


# --------------------------------------------------------------------------- saving


def state_checksummer(system: RuleSystem) -> Callable[[Any], str]:
    """`saves.state_checksum(system.state_to_data(state))` for the states of one game. A system
    whose state is a pydantic model dumped as JSON data may name `checksum_keys` (mappings of id ->
    part); the parts a command leaves unchanged are then encoded once, not per state (same digits)."""
    keys = tuple(getattr(system, "checksum_keys", ()))
    if not keys:
        return lambda state: saves.state_checksum(system.state_to_data(state))
    return saves.StateChecksums(keys).checksum


class _StepLog:
    """The log entry (and its line of save text) of each step, made once: a step is never changed,
    so a save of a long game encodes and checksums only the commands played since the last one.
    Keyed by the step's identity (a Step's own hash would hash whole states); an entry goes when its
    step does. One table for every game in the process; safe to read and fill from any thread."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[Step], str, LogEntry, str]] = {}
        self._lock = threading.Lock()
        self.made = 0  # entries encoded so far (tests and the benchmark read it)

    def get(self, system: RuleSystem, step: Step) -> tuple[LogEntry, str] | None:
        hit = self._entries.get(id(step))
        if hit is None or hit[0]() is not step or hit[1] != system.name:
            return None
        return hit[2], hit[3]

    def forget(self, step: Step) -> None:
        """Drop one step's entry (the benchmark times a save with the last round not yet logged)."""
        with self._lock:
            hit = self._entries.get(id(step))
            if hit is not None and hit[0]() is step:
                del self._entries[id(step)]

    def put(self, system: RuleSystem, step: Step, entry: LogEntry, line: str) -> None:
        key = id(step)
        entries, lock = self._entries, self._lock

        def gone(ref: weakref.ref[Step]) -> None:
            with lock:
                hit = entries.get(key)
                if hit is not None and hit[0] is ref:
                    del entries[key]

        with lock:
            entries[key] = (weakref.ref(step, gone), system.name, entry, line)
            self.made += 1


STEP_LOG = _StepLog()


def logged(system: RuleSystem, steps: Sequence[Step],
           round_of: Callable[[Any], int]) -> tuple[list[LogEntry], list[str]]:
    """The log entries of a history and their lines of save text, from STEP_LOG where the steps
    were logged before; the new ones are made (checksums sharing their unchanged parts) and kept."""
    checksum: Callable[[Any], str] | None = None
    entries: list[LogEntry] = []
    lines: list[str] = []
    for step in steps:
        hit = STEP_LOG.get(system, step)
        if hit is None:
            if checksum is None:
                checksum = state_checksummer(system)
            entry = LogEntry(command=system.command_to_data(step.command), rolls=system.rolls(step.events),
                             gm=step.gm, round=round_of(step.before), after=checksum(step.after))
            hit = entry, saves.log_line(entry)
            STEP_LOG.put(system, step, *hit)
        entries.append(hit[0])
        lines.append(hit[1])
    return entries, lines


def log_entries(system: RuleSystem, steps: Sequence[Step], round_of: Callable[[Any], int]) -> list[LogEntry]:
    """Log entries of a history: each command as data, the dice it rolled, the GM mark, the round
    it was played in, and the checksum of the state it left."""
    return logged(system, steps, round_of)[0]


def make_save(system: RuleSystem, state: Any, steps: Sequence[Step], *, scenario_path: str | os.PathLike[str],
              seed: int, title: str = "", gm_mode: bool = False, now: _dt.datetime | None = None,
              scenario_checksum: str | None = None) -> SaveData:
    """A save of `state` reached by `steps` from the scenario's initial state."""
    state_dict = system.state_to_data(state)
    check = saves.state_checksum(state_dict)
    summary = system.summary(state)

    def round_of(st: Any) -> int:
        return int(system.summary(st).get("round", 0))

    entries, lines = logged(system, steps, round_of)
    sides = tuple(str(x) for x in summary.get("sides", ()))
    header = SaveHeader(
        format=saves.FORMAT_VERSION, system=system.name, title=title or str(summary.get("title", "")),
        scenario=scenario_ref(scenario_path),
        scenario_checksum=scenario_checksum or scenario_fingerprint(scenario_path), seed=seed,
        saved_at=saves.now_iso(now), round=int(summary.get("round", 0)), phase=str(summary.get("phase", "")),
        sides=sides, side_names=tuple(str(x) for x in summary.get("side_names", sides)),
        to_move=summary.get("to_move"), commands=len(entries), state_checksum=check, gm_mode=gm_mode,
        state_version=state_version_of(system),
    )
    return SaveData(header, state_dict, tuple(entries), log_lines=tuple(lines), system_title=system.title)


def save_game(path: str | os.PathLike[str], system: RuleSystem, state: Any, steps: Sequence[Step],
              **kwargs: Any) -> Path:
    """Write a save atomically (the previous file is kept as `<name>.bak`)."""
    return saves.write_save(path, make_save(system, state, steps, **kwargs))


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
    plugin: Plugin
    scenario: Any  # what the system's loader returned for the save's scenario
    state: Any
    record: Record
    warnings: list[str] = field(default_factory=list)

    @property
    def header(self) -> SaveHeader:
        return self.save.header

    @property
    def system(self) -> RuleSystem:
        return self.plugin.system


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


def _plugin_of(table: Table, save: SaveData) -> Plugin:
    try:
        return table.plugin_named(save.header.system)
    except UnknownSystem as exc:
        raise save.error("header", ("system",), str(exc)) from None


def _state_from(save: SaveData, plugin: Plugin, scenario: Any) -> Any:
    """The saved state as a live state, with located errors for wrong or missing fields. A state
    saved at an older version of the system's state data is first brought up to date by the
    system's own migrations; one from a newer version is refused."""
    try:
        data = migrate_state(plugin.system, save.state, save.header.state_version)
    except StateVersionError as exc:
        raise save.error("header", ("state_version",), str(exc)) from None
    try:
        return plugin.system.state_from_data(data, plugin.setup_of(scenario))
    except StateDataError as exc:
        raise save.error("state", exc.loc, exc.message) from None


def _label(save: SaveData, i: int) -> str:
    """How messages name command i of a log (made only when something is wrong)."""
    entry = save.log[i]
    return f"command {i + 1} of {len(save.log)} ({command_label(entry.command)}, round {entry.round})"


def replay_log(save: SaveData, system: RuleSystem, initial: Any, saved: Any, *,
               on_step: OnStep | None = None) -> Record:
    """Re-apply the log of `save` from `initial`, checking every recorded roll and checksum.

    `saved` is the save's own state, read back (`_state_from`). Raises ReplayMismatch naming the
    first command that is refused, rolls other dice, or leaves another state than recorded, and if
    the final state differs from the saved one.
    """
    record = Record(system, initial)
    path = save.path
    saved_plain = system.state_to_data(saved)
    # Saved with the game's state layout of today? If the rules have since added a field (with a
    # default), old saves still load: the per-command checksums then cannot match and are skipped,
    # the dice are still checked one by one and the final state is compared field by field.
    same_layout = save.header.state_version == state_version_of(system) and saved_plain == dict(save.state)
    checksum = state_checksummer(system)
    for i, entry in enumerate(save.log):
        try:
            command = system.parse_command(dict(entry.command))
        except ValueError as exc:
            err = save.error("log", (i, "command"), str(exc))
            raise ReplayMismatch(path, err.where, f"{_label(save, i)}: {exc}", i) from None
        outcome = record.apply(command, gm=entry.gm)
        if not isinstance(outcome, Accepted):
            err = save.error("log", (i, "command"), "")
            raise ReplayMismatch(path, err.where, f"{_label(save, i)} is refused when replayed: {outcome.reason}",
                                 i)
        step = record.steps[-1]
        rolls = system.rolls(step.events)
        if rolls != entry.rolls:
            k = next((j for j, (x, y) in enumerate(zip(rolls, entry.rolls, strict=False)) if x != y),
                     min(len(rolls), len(entry.rolls)))
            err = save.error("log", (i, "rolls"), "")
            raise ReplayMismatch(
                path, err.where,
                f"{_label(save, i)}: recorded rolls {list(entry.rolls)} but the replay rolls {list(rolls)} "
                f"(first difference at die {k + 1}): the dice in the save were changed", i)
        last_and_final = i == len(save.log) - 1 and entry.after == save.header.state_checksum
        if same_layout and entry.after and not last_and_final:  # last: below
            check = checksum(step.after)
            if check != entry.after:
                err = save.error("log", (i, "after"), "")
                raise ReplayMismatch(path, err.where,
                                     f"{_label(save, i)} leaves state {check}, the save recorded {entry.after}", i)
        if on_step is not None:
            on_step(i, step, system, entry.why)
    final = system.state_to_data(record.state)
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


def load_scenario_of(table: Table, save: SaveData,
                     save_path: str | os.PathLike[str]) -> tuple[Any, list[str]]:
    plugin = _plugin_of(table, save)
    ref = save.header.scenario
    found = find_scenario(ref, save_path)
    if found is None:
        raise save.error("header", ("scenario",), f"the scenario file {ref!r} of this save was not found")
    try:
        scenario = plugin.load(found)
    except GameFileError as exc:
        raise save.error("header", ("scenario",), f"its scenario cannot be loaded: {exc}") from None
    warnings: list[str] = []
    # (saves made before the fingerprint covered the map and catalogue hold the file's checksum)
    if save.header.scenario_checksum not in (scenario_fingerprint(found), saves.file_checksum(found)):
        warnings.append(f"the scenario {ref} (or its map or unit catalogue) has changed since this game was saved")
    return scenario, warnings


def _replay(table: Table, save: SaveData, path: str | os.PathLike[str], *,
            on_step: OnStep | None = None) -> tuple[Plugin, Any, Any, Record, list[str]]:
    plugin = _plugin_of(table, save)
    scenario, warnings = load_scenario_of(table, save, path)
    state = _state_from(save, plugin, scenario)
    initial = initial_state_for(plugin.system, plugin.setup_of(scenario), save.header.seed, state)
    record = replay_log(save, plugin.system, initial, state, on_step=on_step)
    return plugin, scenario, state, record, warnings


def _locate_hand_edit(table: Table, path: str | os.PathLike[str]) -> SaveError | None:
    """A state that fails its checksum was edited: replay the log to name the field that differs."""
    try:
        save = saves.load_save(path, verify_checksums=False)
        _replay(table, save, path)
    except ReplayMismatch as exc:
        if exc.index is None:  # the final state differs: `where` names the edited field
            return SaveError(exc.path, exc.where, "the state was edited by hand (it no longer matches its "
                             "checksum)" + exc.message.removeprefix("the log does not lead to the saved state"))
        return None
    except SaveError as exc:
        return exc  # e.g. the edit put a wrong type in a field: that message is the precise one
    return None


def _load_checked(table: Table, path: str | os.PathLike[str]) -> SaveData:
    """load_save, with a checksum failure traced to the edited field when the log allows it."""
    try:
        return saves.load_save(path)
    except SaveError as exc:
        if "does not match its checksum" not in exc.message:
            raise
        raise (_locate_hand_edit(table, path) or exc) from None


def load_game(table: Table, path: str | os.PathLike[str], *, verify: bool = True) -> LoadedGame:
    """Read a save and rebuild the game (its system found in `table`). Raises SaveError (one
    clear line) if anything is wrong; never writes a file."""
    save = _load_checked(table, path)
    plugin = _plugin_of(table, save)
    scenario, warnings = load_scenario_of(table, save, path)
    state = _state_from(save, plugin, scenario)
    if verify:
        try:
            initial = initial_state_for(plugin.system, plugin.setup_of(scenario), save.header.seed, state)
            record = replay_log(save, plugin.system, initial, state)
        except ReplayMismatch as exc:
            hint = " (the scenario file has changed since the save)" if warnings else ""
            raise SaveError(exc.path, exc.where, exc.message + hint) from None
    else:
        record = Record(plugin.system, state)
    return LoadedGame(Path(path), save, plugin, scenario, state, record, warnings)


@dataclass(frozen=True)
class VerifyReport:
    commands: int
    rolls: int
    gm_actions: int
    final_checksum: str
    warnings: tuple[str, ...]
    links: tuple[tuple[bool, str], ...] = ()  # the saves this one refers to (Plugin.verify_links)


def verify_save(table: Table, path: str | os.PathLike[str],
                on_step: OnStep | None = None, *,
                follow_links: bool = False) -> VerifyReport:
    """Re-apply the whole log from the scenario's initial state; raise ReplayMismatch (naming the
    first bad command) or SaveError; return counts when everything matches bit for bit.
    `follow_links`: also check the saves this one refers to, by its system's hook
    (Plugin.verify_links; a campaign's battles fought out)."""
    save = _load_checked(table, path)
    plugin, _scenario, _state, record, warnings = _replay(table, save, path, on_step=on_step)
    system = plugin.system
    check = plugin.verify_links if follow_links else None
    links = tuple(check(table, Path(path), record)) if check is not None else ()
    return VerifyReport(
        commands=len(record.steps), rolls=sum(len(system.rolls(s.events)) for s in record.steps),
        gm_actions=sum(1 for s in record.steps if s.gm), final_checksum=save.header.state_checksum,
        warnings=tuple(warnings), links=links,
    )
