"""Save files: a versioned, human-readable, multi-document YAML file written atomically.

Layout of a save (format version `FORMAT_VERSION`)::

    # comment lines saying what the file is
    --- # header
    format: 3              <- document 1: small header, read alone by the load menu
    ...
    --- # state
    ...                    <- document 2: the whole game state (random generator included)
    --- # log
    - {"command": {...}, "rolls": [...], "gm": false, "round": 1, "after": "..."}
    - {...}                <- document 3, one line a command: every command applied, the dice it
                              rolled, whether the GM issued it, a checksum of the state after it
    ...                    <- end marker: a file without it was cut short

This module knows the *file*: format, checksums, atomic writing, backups, autosave rotation,
header-only reading, migrations and errors that name the file, the line and the field. It knows
nothing of the rules: the state is a plain mapping and commands are plain mappings. Turning
them into a live game (and back) is `game.replay`'s job.

Only `yaml.safe_load`/`safe_dump` semantics are used (the C loader/dumper when available). The
log's lines are JSON, which is also YAML: the game reads them with `json` (much faster) when the
log is exactly as it writes it, and with YAML otherwise (older layouts, hand edits), getting the
same data either way.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
import datetime as _dt
import functools
import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    field_validator,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from game.core.errors import GameFileError, brief, cut
from game.core.system import counted, validation_message
from game.io import migrations, safe_read
from game.io.leftovers import clean_temp_files as clean_temp_files  # (re-exported: part of the save API)
from game.io.leftovers import unlink_quietly as _unlink_quietly

try:  # the C implementations are much faster; same safe semantics
    _Loader: type[Any] = yaml.CSafeLoader
    _Dumper: type[Any] = yaml.CSafeDumper
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader
    _Dumper = yaml.SafeDumper

FORMAT_VERSION = migrations.CURRENT_VERSION
SYSTEM_OF_OLD_SAVES = "ail-tactical"  # the rule system of saves made before the header named one
END_MARKER = "..."
SAVE_SUFFIX = ".yaml"
BACKUP_SUFFIX = ".bak"
SCENARIOS_DIR = "scenarios"  # sub-folder of the saves folder holding exported scenarios
DELETED_DIR = "deleted"  # where the load menu moves a deleted save (game/shell/savegame.py), never listed

_PREAMBLE = (
    "# Ascension Isle: Legacy - {what}. Plain YAML, safe to read.\n"
    "# Document 1 (header) is what the load menu shows; document 2 is the whole game state;\n"
    "# document 3 is the log of every command with the dice it rolled (gm: true marks GM actions).\n"
    "# Editing by hand breaks the checksums: the game will refuse the file and say where.\n"
)


class SaveError(GameFileError):
    """A save that cannot be read: names the file, the line and the field."""


# --------------------------------------------------------------------------- models


class _Strict(BaseModel):
    # defer_build: validators built when a save is first read or written, not at every start
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class GmLockData(_Strict):
    """The GM passphrase of a tactical or mass battle as its saves keep it (header `gm_lock`): a
    salted, slow digest, never the passphrase (game/shell/gm_seat.py; docs/saves.md)."""

    salt: str = Field(pattern=r"^[0-9a-f]{32}$", description="16 random bytes as hexadecimal digits")
    iterations: int = Field(ge=1_000, le=20_000_000, description="PBKDF2-HMAC-SHA256 rounds")
    digest: str = Field(pattern=r"^[0-9a-f]{64}$", description="the digest as hexadecimal digits")


class SaveHeader(_Strict):
    """Document 1: what the load menu lists without reading the rest of the file."""

    format: int = Field(ge=1)
    system: str = Field(SYSTEM_OF_OLD_SAVES, description="the rule system, as set-up files name it (format 4; "
                        "`game:` before)")
    title: str = Field("", description="free text: the scenario's name, 'quick save', 'autosave'")
    scenario: str = Field(description="path of the scenario file the battle started from")
    scenario_checksum: str
    seed: int
    saved_at: str = Field(description="local date and time, ISO 8601")
    round: int = Field(ge=0)
    phase: str
    sides: tuple[str, ...]
    side_names: tuple[str, ...] = Field((), description="display names of `sides`, same order (format 2)")
    to_move: str | None = Field(description="id of the side to act, or null when the battle is over")
    commands: int = Field(ge=0, description="number of commands in the log")
    state_checksum: str
    gm_mode: bool = False
    state_version: int = Field(1, ge=1, description="the version of the rule system's state data the state "
                                                   "document was written at (format 3)")
    seats: dict[str, str] = Field(default_factory=dict, description="who played each side: 'human' or "
                                  "'ai:LEVEL' (a computer player); older saves and games with no computer "
                                  "seat have none")
    why_checksum: str | None = Field(None, description="a checksum of the log's why lines (`whys_checksum`): "
                                     "written only when an entry has one; saves without why lines, and saves "
                                     "of the versions before it, have none")
    gm_lock: GmLockData | None = Field(None, description="the GM passphrase's digest (the shell's, for a "
                                       "game without a lock of its own): written only when one is set")
    gm_opened: tuple[int, ...] = Field((), description="the clock (round, wave) of every opening of GM mode "
                                       "in the window, oldest first: written only when GM mode was opened")


class LogEntry(_Strict):
    """One applied command, as stored in document 3."""

    command: dict[str, Any]
    rolls: tuple[int, ...] = ()
    gm: bool = False
    round: int = Field(0, ge=0)
    after: str = Field(description="checksum of the state right after this command")
    why: str | None = Field(None, description="a computer seat's command: the why line the window showed for "
                            "it (optional; older saves have none); covered by `why_checksum` and the "
                            "header's `why_checksum`")
    why_checksum: str | None = Field(None, description="with `why`: the checksum of this entry's why line at its "
                                     "place in the log (`why_line_checksum`); older saves have none")

    @field_validator("why", mode="before")
    @classmethod
    def _why_is_a_line(cls, value: Any) -> Any:
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise PydanticCustomError(
                "why_line", "expected the computer's why line as text (a quoted string, not empty), "
                "got {got}; leave the entry out for a command without one", {"got": brief(value)})
        return value

    @model_serializer(mode="wrap")
    def _without_no_why(self, handler: SerializerFunctionWrapHandler) -> Any:
        data = handler(self)
        if isinstance(data, dict):
            for key in ("why", "why_checksum"):  # as the file has it: an entry without a why has neither key
                if data.get(key) is None:
                    data.pop(key, None)
        return data


@dataclass(frozen=True)
class SaveData:
    """A whole save file in memory, rules-agnostic."""

    header: SaveHeader
    state: dict[str, Any]
    log: tuple[LogEntry, ...]
    path: str = field(default="<save>", compare=False)
    source: str | None = field(default=None, compare=False, repr=False)  # the text it was read from
    # the log's lines of save text, one per entry, when the maker kept them (game.replay.logged)
    log_lines: tuple[str, ...] | None = field(default=None, compare=False, repr=False)
    # the rule system's title for people ("AI:L tactical battle"), named in the file's first comment
    # line; when not given (a save read back from a file), the comment names the header's system id
    system_title: str = field(default="", compare=False, repr=False)

    def error(self, document: str, loc: Sequence[str | int], message: str) -> SaveError:
        """A SaveError at `loc` inside "header", "state" or "log", with its line when known."""
        index = _DOC_NAMES.index(document)
        if self.source is None:
            root = _DOC_ROOTS[index]
            return SaveError(self.path, _field_name([root, *loc] if root else loc) or document, message)
        docs = _Docs(self.path, self.source, None, None, None)
        return docs.error(index, loc, message)


def side_name(header: SaveHeader, side: str | None) -> str:
    """The display name of a side in a header (its id when the header has no names)."""
    if side is None:
        return ""
    if side in header.sides and len(header.side_names) == len(header.sides):
        return header.side_names[header.sides.index(side)]
    return side


@dataclass(frozen=True)
class SaveListing:
    """A line of the load menu: the header, or why the file cannot be read."""

    path: Path
    header: SaveHeader | None
    error: str | None
    modified: float

    @property
    def ok(self) -> bool:
        return self.header is not None


# --------------------------------------------------------------------------- checksums


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"cannot put a {type(value).__name__} in a save")


# One encoder for every canonical text (json.dumps with options would build a new one per call).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=_json_default)


def canonical_json(data: Any) -> str:
    """The one text a state's checksum is computed from: key order and tuple/list don't matter."""
    return _CANONICAL.encode(data)


def _checksum_of(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


def state_checksum(state: Mapping[str, Any]) -> str:
    """A short, stable fingerprint of a state dict (16 hex digits of SHA-256)."""
    return _checksum_of(canonical_json(state))


def why_line_checksum(index: int, why: str) -> str:
    """The checksum of one why line at its place in the log (`index`: the entry's, from 0), which
    its entry carries (`why_checksum`): 16 hex digits of SHA-256 over the canonical JSON of
    `[index, why]`."""
    return _checksum_of(canonical_json([index, why]))


def whys_checksum(log: Sequence[LogEntry]) -> str | None:
    """The checksum of all the why lines of a log, which the header carries (`why_checksum`): 16
    hex digits of SHA-256 over the canonical JSON list of `[index, why]` pairs, one for each entry
    with a why, in the log's order; None when no entry has one (nothing is written then)."""
    pairs = [[i, entry.why] for i, entry in enumerate(log) if entry.why is not None]
    return _checksum_of(canonical_json(pairs)) if pairs else None


class StateChecksums:
    """`state_checksum(model.model_dump(mode="json"))` for a run of states, e.g. after every command
    of a log, at a fraction of the cost: successive states share most of their parts (a command
    changes a unit or two; the others are the very same objects), so the canonical text of each
    part of a `keyed` field (a mapping of id -> model, like `units`) is made once per object and
    the state's canonical text is put together from the parts. The result is the same checksum,
    digit for digit, as encoding the whole dump (sorted keys at every level either way).

    Keep one instance for one pass over a game (it holds the parts it has seen) and drop it after.
    """

    def __init__(self, keyed: Iterable[str] = ()) -> None:
        self._keyed = set(keyed)
        self._entries: dict[tuple[str, int], tuple[Any, str]] = {}  # (key, id(part)) -> (part, `"key":{...}`)

    def _entry(self, key: str, item: Any) -> str:
        hit = self._entries.get((key, id(item)))
        if hit is not None and hit[0] is item:  # the part itself is kept, so its id is not reused
            return hit[1]
        value = item.model_dump(mode="json") if isinstance(item, BaseModel) else item
        text = f"{_CANONICAL.encode(key)}:{_CANONICAL.encode(value)}"
        self._entries[(key, id(item))] = (item, text)
        return text

    def canonical_json(self, model: BaseModel) -> str:
        """`canonical_json(model.model_dump(mode="json"))`, from cached parts where it can."""
        rest = model.model_dump(mode="json", exclude=self._keyed)
        keyed: dict[str, Mapping[str, Any]] = {}
        for name in self._keyed:
            mapping = getattr(model, name, None)
            if isinstance(mapping, Mapping) and all(isinstance(k, str) for k in mapping):
                keyed[name] = mapping
            else:  # not a mapping of ids: encoded like any other field
                rest.update(model.model_dump(mode="json", include={name}))
        # The fields in sorted order; each run of plain fields is encoded in one go (braces cut off).
        pieces: list[str] = []
        run: dict[str, Any] = {}
        for key in sorted([*rest, *keyed]):
            if key in keyed:
                if run:
                    pieces.append(_CANONICAL.encode(run)[1:-1])
                    run = {}
                mapping = keyed[key]
                inner = ",".join([self._entry(k, mapping[k]) for k in sorted(mapping)])
                pieces.append(f"{_CANONICAL.encode(key)}:{{{inner}}}")
            else:
                run[key] = rest[key]
        if run:
            pieces.append(_CANONICAL.encode(run)[1:-1])
        return "{" + ",".join(pieces) + "}"

    def checksum(self, model: BaseModel) -> str:
        """`state_checksum(model.model_dump(mode="json"))`."""
        return _checksum_of(self.canonical_json(model))


def file_checksum(path: str | os.PathLike[str]) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()[:16]


# --------------------------------------------------------------------------- writing


class _SaveDumper(_Dumper):  # type: ignore[misc]
    """Block style for structure, flow style for short lists of plain values: `at: [3, 4]`."""


def _represent_list(dumper: Any, data: list[Any]) -> Any:
    flat = all(isinstance(v, (int, float, str, bool)) or v is None for v in data)
    short = flat and len(data) <= 12 and all(len(str(v)) < 24 for v in data)
    nested_pairs = (all(isinstance(v, list) and len(v) <= 3 for v in data) and len(data) <= 12
                    and all(isinstance(x, (int, float)) for v in data for x in v))
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=short or nested_pairs)


_SaveDumper.add_representer(list, _represent_list)


def _dump(data: Any) -> str:
    return str(yaml.dump(data, Dumper=_SaveDumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=False, width=100))


def _plain(data: Any) -> Any:
    """Tuples to lists, recursively, so the YAML carries no Python tags."""
    if isinstance(data, Mapping):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_plain(v) for v in data]
    return data


# The log is JSON lines: one entry per line, `- {"command": {...}, "rolls": [...], ...}`. Every
# line is a YAML flow mapping too, so the file stays one valid YAML stream (any YAML reader, and
# any older version of the game, reads the same data), while the game reads the log with `json`,
# tens of times faster than building it through YAML. A line is written by the YAML emitter
# instead when JSON and YAML could read it differently: a float (`1e3` is a number in JSON, a
# string in YAML 1.1) or a character YAML must escape (control characters, line separators).
_LOG_LINE = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), allow_nan=False)


@functools.cache
def _yaml_careful() -> re.Pattern[str]:
    """Characters outside YAML's printable set, YAML's extra line breaks, and the byte-order mark
    (compiled when first needed: its character ranges take ~8 ms to compile, at every start)."""
    return re.compile("[^\x09\x0A\x0D\x20-\x7E\xA0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD"
                      "\U00010000-\U0010FFFF]")


def _json_exact(data: Any) -> bool:
    """Whether JSON writes `data` so that YAML reads back the very same: no floats, no keys other
    than strings (JSON would turn them into strings), nothing JSON cannot write."""
    if data is None or isinstance(data, (str, int)):
        return True
    if isinstance(data, Mapping):
        return all(isinstance(k, str) and _json_exact(v) for k, v in data.items())
    if isinstance(data, (list, tuple)):
        return all(_json_exact(v) for v in data)
    return False


def log_line(entry: LogEntry) -> str:
    """The line of save text of one log entry (`- {...}` and a newline)."""
    return _log_line(entry)


def _log_line(entry: LogEntry) -> str:
    data = {"command": entry.command, "rolls": entry.rolls, "gm": entry.gm, "round": entry.round,
            "after": entry.after}
    if entry.why is not None:  # written only for a computer's command: other lines as before
        data["why"] = entry.why
    if entry.why_checksum is not None:
        data["why_checksum"] = entry.why_checksum
    if _json_exact(entry.command):
        text = _LOG_LINE.encode(data)
        if not _yaml_careful().search(text):
            return f"- {text}\n"
    text = yaml.dump(_plain(data), Dumper=_Dumper, default_flow_style=True, sort_keys=False,
                     width=1 << 30, allow_unicode=True)
    # (a long or multi-line scalar may still break the line: continuation lines are indented)
    return "- " + text.strip().removesuffix("...").strip().replace("\n", "\n  ") + "\n"


def with_whys(save: SaveData, whys: Mapping[int, str]) -> SaveData:
    """The save with the why lines of its computer commands (`whys`: index in the log -> line),
    each in its own log entry (`why`) with its checksum (`why_checksum`), and the header's
    checksum of them all (`why_checksum`); the other entries and their lines are kept as they are.
    A line that is not text with something in it (empty, blanks only) is left out: a save holds no
    empty why line. With no line to write, the save is returned as it is."""
    put = {i: line for i, line in whys.items()
           if 0 <= i < len(save.log) and isinstance(line, str) and line.strip()}
    if not put:
        return save
    log = list(save.log)
    lines = list(save.log_lines) if save.log_lines is not None and len(save.log_lines) == len(log) else None
    for i, entry in enumerate(log):
        why = put.get(i, entry.why)
        if why is None:
            continue
        check = why_line_checksum(i, why)
        if why != entry.why or check != entry.why_checksum:  # (a why it had already: checked too)
            log[i] = entry.model_copy(update={"why": why, "why_checksum": check})
            if lines is not None:
                lines[i] = _log_line(log[i])
    header = save.header.model_copy(update={"why_checksum": whys_checksum(log)})
    return replace(save, header=header, log=tuple(log), log_lines=None if lines is None else tuple(lines))


def _dump_log(log: Sequence[LogEntry]) -> str:
    """One entry per line, so a reader scans the log like a script."""
    if not log:
        return "[]\n"
    return "".join(_log_line(entry) for entry in log)


def _reject_number(text: str) -> Any:
    raise ValueError(f"{text} is read differently by YAML")


def _short_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # YAML forgets a key more than 1024 characters from its colon (JSON does not): field names
    # are short, anything else goes the YAML way (an escape is at most 6 characters for 1)
    if any(len(key) > 150 for key, _ in pairs):
        raise ValueError("a long key is read differently by YAML")
    out = dict(pairs)
    if len(out) != len(pairs):  # a key twice: YAML refuses it and names the line
        raise ValueError("a duplicate key")
    return out


_LOG_READER = json.JSONDecoder(parse_float=_reject_number, parse_constant=_reject_number,
                               object_pairs_hook=_short_keys)
_SURROGATE_ESCAPE = re.compile(r"\\[uU][dD][89abAB]")  # JSON reads a pair of them, YAML refuses them
_LOG_MARK = "\n--- # log\n"


def _read_log_fast(path: str, text: str) -> "_Docs | None":
    """The three documents of a save whose log is JSON lines as the game writes it, reading only
    the header and state with YAML; None when the file is anything else (hand-edited, damaged,
    another layout): then the whole file is read with YAML, which also names any problem."""
    at = text.rfind(_LOG_MARK)
    if at < 0:
        return None
    tail = text[at + len(_LOG_MARK):].rstrip()
    if not (tail == END_MARKER or tail.endswith("\n" + END_MARKER)):
        return None
    body = tail[: -len(END_MARKER)]
    if _yaml_careful().search(body) or _SURROGATE_ESCAPE.search(body):
        return None
    lines = body.split("\n")[:-1]
    log: list[Any] = []
    if lines != ["[]"]:
        if not lines:
            return None
        for line in lines:
            if not line.startswith("- {"):
                return None
            if line.count("[") + line.count("{") > safe_read.MAX_DEPTH:  # maybe too deep: YAML checks
                return None
            try:
                log.append(_LOG_READER.decode(line[2:]))
            except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
                return None
    try:
        head = safe_read.load_yaml_all(text[: at + 1])
    except yaml.YAMLError:
        return None
    if len(head) != 2:
        return None
    return _Docs(path, text, head[0], head[1], log)


def preamble(save: SaveData) -> str:
    """The comment lines a save file starts with, naming its rule system (a comment: the format is
    the same whatever they say; the header's `system` is what picks the rules)."""
    what = f"a saved game: {save.system_title or 'rule system ' + save.header.system}"
    return _PREAMBLE.format(what=_one_line(what, 120))


def _one_line(text: str, limit: int) -> str:
    """`text` fit for one comment line: control characters (a line break would end the comment)
    as spaces, at most `limit` characters."""
    flat = "".join(" " if ord(ch) < 32 or 127 <= ord(ch) < 160 or ch in "\u2028\u2029\ufeff" else ch
                   for ch in text)
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def dump_save(save: SaveData) -> str:
    """The text of a save file."""
    header = save.header.model_dump(mode="json")
    if not header.get("seats"):
        header.pop("seats", None)  # written only when a computer played: older readers' format unchanged
    if header.get("why_checksum") is None:
        header.pop("why_checksum", None)  # written only with why lines: a save without them as before
    if header.get("gm_lock") is None:
        header.pop("gm_lock", None)  # written only when a GM passphrase is set: other saves as before
    if not header.get("gm_opened"):
        header.pop("gm_opened", None)  # written only when GM mode was opened in the window
    return (
        preamble(save)
        + "--- # header\n" + _dump(header)
        + "--- # state\n" + _dump(_plain(save.state))
        + "--- # log\n" + (("".join(save.log_lines) or "[]\n")
                            if save.log_lines is not None and len(save.log_lines) == len(save.log)
                            else _dump_log(save.log))
        + END_MARKER + "\n"
    )


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def backup_path(path: str | os.PathLike[str]) -> Path:
    p = Path(path)
    return p.with_name(p.name + BACKUP_SUFFIX)


def _keep_backup(path: Path) -> None:
    """Make `<name>.bak` a copy of `path` without ever leaving `path` missing.

    The temporary name is this process's and thread's own (and random besides), and it never
    outlives the call: when `<name>.bak` is already another name of the very same file (two
    processes backing up the same save, or the same file backed up twice), the rename that puts
    the temporary name in place does nothing at all (POSIX), so the temporary name is removed."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}-{threading.get_ident()}.", suffix=".baktmp",
                               dir=path.parent)
    os.close(fd)
    os.unlink(tmp)
    try:
        try:
            os.link(path, tmp)  # a second name for the old file: instant, no copy
        except OSError:
            shutil.copy2(path, tmp)
        os.replace(tmp, backup_path(path))
    finally:
        _unlink_quietly(Path(tmp))  # (gone after a rename that moved it; still there after one that did not)


def atomic_write_text(path: str | os.PathLike[str], text: str, *, backup: bool = True) -> Path:
    """Write `text` to `path` so that `path` is always either the old or the new complete file.

    The text goes to a temporary file in the same directory, is flushed and fsynced, the old
    file (if any) is kept as `<name>.bak`, then the temporary file replaces `path` in one
    rename and the directory entry is synced.
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    directory.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        if backup and target.exists():
            _keep_backup(target)
        os.replace(tmp, target)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(directory)
    return target


def write_save(path: str | os.PathLike[str], save: SaveData, *, backup: bool = True) -> Path:
    return atomic_write_text(path, dump_save(save), backup=backup)


# --------------------------------------------------------------------------- reading


def _line_of(node: yaml.Node | None, loc: Sequence[str | int]) -> int | None:
    """1-based line of the YAML node at `loc` (keys / indices), or of the nearest parent found."""
    if node is None:
        return None
    best = node.start_mark.line + 1
    current: yaml.Node = node
    for key in loc:
        nxt: yaml.Node | None = None
        if isinstance(current, yaml.MappingNode):
            for k_node, v_node in current.value:
                if str(k_node.value) == str(key):
                    nxt = v_node
                    best = k_node.start_mark.line + 1
                    break
        elif isinstance(current, yaml.SequenceNode) and isinstance(key, int):
            if 0 <= key < len(current.value):
                nxt = current.value[key]
                best = nxt.start_mark.line + 1
        if nxt is None:
            break
        current = nxt
    return best


def _field_name(loc: Sequence[str | int]) -> str:
    parts: list[str] = []
    for key in loc:
        if isinstance(key, int):
            parts.append(f"[{key}]")
        else:
            parts.append(("." if parts else "") + str(key))
    return "".join(parts)


def _friendly(err: Mapping[str, Any]) -> str:
    return validation_message(err)


@dataclass
class _Docs:
    """The three documents of a save with the line where each starts, for error messages."""

    path: str
    text: str
    header: Any
    state: Any
    log: Any
    nodes: tuple[yaml.Node | None, ...] | None = None

    def node(self, index: int) -> yaml.Node | None:
        if self.nodes is None:
            try:
                self.nodes = tuple(safe_read.compose_all(self.text))
            except yaml.YAMLError:
                self.nodes = ()
        return self.nodes[index] if index < len(self.nodes) else None

    def error(self, doc_index: int, loc: Sequence[str | int], message: str) -> SaveError:
        """An error at `loc` inside document `doc_index`, named like `log[3].rolls[0]`."""
        line = _line_of(self.node(doc_index), loc)
        root = _DOC_ROOTS[doc_index]
        name = _field_name([root, *loc]) if root else _field_name(loc)
        where = (f"line {line}: " if line else "") + (name or _DOC_NAMES[doc_index])
        return SaveError(self.path, where, message)


_DOC_NAMES = ("header", "state", "log")
_DOC_ROOTS = ("", "state", "log")  # header fields are named bare: `round`, `format`


def _split_documents(path: str, text: str) -> _Docs:
    if not text.strip():
        raise SaveError(path, "", "the file is empty; expected a saved game (three YAML documents)")
    fast = _read_log_fast(path, text)
    if fast is not None:
        return fast
    try:
        docs = safe_read.load_yaml_all(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or str(exc).splitlines()[0]).split())
        if isinstance(exc, safe_read.YamlLimitError):
            raise SaveError(path, where, f"{problem}; this is not a save the game wrote") from None
        if not _has_end_marker(text):
            raise SaveError(path, where, f"the file ends early (not valid YAML: {problem}); it was cut "
                            "short while being written or copied") from None
        raise SaveError(path, where, f"not valid YAML ({problem}); the file is damaged or was "
                        "edited by hand") from None
    if len(docs) < 3:
        found = len(docs)
        raise SaveError(path, f"line {text.count(chr(10)) + 1}",
                        f"the file ends early: expected 3 documents (header, state, log), found {found}; "
                        "it was cut short while being written or copied")
    if len(docs) > 3:
        raise SaveError(path, "", f"expected 3 documents (header, state, log), found {len(docs)}")
    if not _has_end_marker(text):
        raise SaveError(path, f"line {text.rstrip().count(chr(10)) + 1}",
                        f"the file ends early: the end marker '{END_MARKER}' after the log is missing; "
                        "it was cut short while being written or copied")
    return _Docs(path, text, docs[0], docs[1], docs[2])


def _has_end_marker(text: str) -> bool:
    lines = text.rstrip().splitlines()
    return bool(lines) and lines[-1].strip() == END_MARKER


def _check_version(docs: _Docs) -> int:
    head = docs.header
    if not isinstance(head, Mapping):
        raise docs.error(0, (), "expected the header to be a mapping of keys to values")
    version = head.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise docs.error(0, ("format",), f"expected the format version as a whole number, got {brief(version)}")
    if version > FORMAT_VERSION:
        raise docs.error(0, ("format",),
                         f"saved by a newer version of the game (format {version}); this version reads "
                         f"formats 1 to {FORMAT_VERSION}: update the game to open it")
    if version < 1:
        raise docs.error(0, ("format",), f"format version {version} does not exist")
    return version


def parse_save(text: str, path: str | os.PathLike[str] = "<save>", *, verify_checksums: bool = True) -> SaveData:
    """Read a whole save from its text: migrate old formats, validate, check the checksums.

    Raises SaveError naming the file, the line and the field. Never writes anything.
    """
    p = str(path)
    docs = _split_documents(p, text)
    version = _check_version(docs)
    if version < FORMAT_VERSION:
        try:
            head, state, log = migrations.migrate(version, docs.header, docs.state, docs.log)
        except migrations.MigrationError as exc:
            raise SaveError(p, f"format {version}", str(exc)) from None
        # Line numbers refer to the file as written (old format): keep them, they stay useful.
        docs = _Docs(p, text, head, state, log, docs.nodes)
    try:
        header = SaveHeader.model_validate(docs.header)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise docs.error(0, tuple(first["loc"]), _friendly(first)) from None
    # header.system names the rule system; game.replay looks it up in game/table.py and says
    # which systems this version knows when it is none of them.
    if not isinstance(docs.state, Mapping):
        raise docs.error(1, (), "expected the state to be a mapping of keys to values")
    if not isinstance(docs.log, list):
        raise docs.error(2, (), "expected the log to be a list of commands")
    entries: list[LogEntry] = []
    for i, raw in enumerate(docs.log):
        try:
            entries.append(LogEntry.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise docs.error(2, (i, *first["loc"]), _friendly(first)) from None
    state = dict(docs.state)
    if verify_checksums:
        actual = state_checksum(state)
        if actual != header.state_checksum:
            raise docs.error(0, ("state_checksum",),
                             f"the state does not match its checksum ({header.state_checksum} in the header, "
                             f"{actual} computed): the state was edited by hand or the file is damaged")
        if header.commands != len(entries):
            raise docs.error(0, ("commands",),
                             f"the header counts {header.commands} commands but the log holds "
                             f"{len(entries)}: the log does not match the state")
        if entries and entries[-1].after != header.state_checksum:
            raise docs.error(2, (len(entries) - 1, "after"),
                             "the log does not match the state: the last command leaves state "
                             f"{entries[-1].after}, the saved state is {header.state_checksum}")
        _check_whys(docs, header, entries)
    return SaveData(header, state, tuple(entries), p, text)


def _check_whys(docs: _Docs, header: SaveHeader, entries: Sequence[LogEntry]) -> None:
    """The why lines against their checksums: each entry's, then the header's over them all.

    [decision] A save whose header has no `why_checksum` and no entry one either was written
    before the why lines had checksums (or has no why line): its why lines, if any, are taken as
    they are. The messages never say "does not match its checksum": game.replay reads that phrase
    as an edited state and replays the log to find the field."""
    if header.why_checksum is None:
        stray = next((i for i, e in enumerate(entries) if e.why_checksum is not None), None)
        if stray is not None:
            raise docs.error(2, (stray, "why_checksum"),
                             "a why line's checksum, but the header has no why_checksum: one of them was "
                             "edited by hand (the game writes both or neither)")
        return
    for i, entry in enumerate(entries):
        if entry.why is None:
            if entry.why_checksum is not None:
                raise docs.error(2, (i, "why_checksum"),
                                 "a why line's checksum without its why line: the entry's why was removed "
                                 "by hand (the game writes both or neither)")
            continue
        expected = why_line_checksum(i, entry.why)
        if entry.why_checksum is None:
            raise docs.error(2, (i, "why"),
                             "a why line without its why_checksum: it was added by hand (the game writes "
                             "every why line with one)")
        if entry.why_checksum != expected:
            raise docs.error(2, (i, "why"),
                             f"the why line was changed: the entry's why_checksum is {entry.why_checksum}, "
                             f"the line as it stands gives {expected}; the why line of command {i + 1} was "
                             "edited by hand or the file is damaged")
    actual = whys_checksum(entries)
    if actual != header.why_checksum:
        held = sum(1 for e in entries if e.why is not None)
        raise docs.error(0, ("why_checksum",),
                         f"the log's why lines are not the ones saved: the header's why_checksum is "
                         f"{header.why_checksum}, the {counted(held, 'why line', 'why lines')} of the log give {actual or 'none'}; "
                         "a why line was removed or added by hand, or the file is damaged")


def read_text(path: str | os.PathLike[str]) -> str:
    """The text of a save file, read within bounds (game.io.safe_read: a regular file of at most
    MAX_LARGE_FILE_BYTES, UTF-8 without NUL bytes)."""
    return safe_read.read_text(path, "save file", limit=safe_read.MAX_LARGE_FILE_BYTES, error=SaveError)


def load_save(path: str | os.PathLike[str], *, verify_checksums: bool = True) -> SaveData:
    return parse_save(read_text(path), path, verify_checksums=verify_checksums)


_DOC_START = re.compile(r"^---(\s|$)")
_HEADER_LIMIT = 256 * 1024  # characters of a save's header (the game writes well under 1 KiB)


def read_header(path: str | os.PathLike[str]) -> SaveHeader:
    """Read only document 1 of a save: lines up to the second document marker."""
    p = Path(path)
    lines: list[str] = []
    started = False
    first_line = 0
    read = 0
    safe_read.check_regular(p, "save file", error=SaveError)
    try:
        with open(p, encoding="utf-8") as fh:
            for number, line in enumerate(iter(lambda: fh.readline(_HEADER_LIMIT), ""), start=1):
                read += len(line)
                if read >= _HEADER_LIMIT:
                    raise SaveError(str(p), f"line {number}", "no end to the header within its first "
                                    f"{_HEADER_LIMIT // 1024} KiB: this is not a save file")
                if "\0" in line:
                    raise SaveError(str(p), f"line {number}", "contains a NUL byte: this is not a save file")
                if _DOC_START.match(line) or line.rstrip() == END_MARKER:
                    if started:
                        break
                    started = True
                    first_line = number
                    continue
                if started:
                    lines.append(line)
                elif line.strip() and not line.lstrip().startswith("#"):
                    started = True  # a header without the opening marker
                    first_line = number - 1
                    lines.append(line)
    except FileNotFoundError:
        raise SaveError(str(p), "", "no such file") from None
    except UnicodeDecodeError:
        raise SaveError(str(p), "", "not UTF-8 text: this is not a save file or it is damaged") from None
    except OSError as exc:
        raise SaveError(str(p), "", f"cannot be read ({exc.strerror})") from None
    text = "".join(lines)
    if not text.strip():
        raise SaveError(str(p), "", "no header: the file is empty or not a save")
    try:
        raw = safe_read.load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {first_line + mark.line + 1}" if mark is not None else "header"
        why = f" ({exc.problem})" if isinstance(exc, safe_read.YamlLimitError) else ""
        raise SaveError(str(p), where, f"the header is not valid YAML{why}") from None
    if not isinstance(raw, Mapping):
        raise SaveError(str(p), f"line {first_line + 1}", "expected the header to be a mapping of keys to values")
    version = raw.get("format")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(str(p), "header.format", f"expected the format version as a whole number, got {brief(version)}")
    if version > FORMAT_VERSION:
        raise SaveError(str(p), "header.format", f"saved by a newer version of the game (format {version})")
    if version < FORMAT_VERSION:
        try:
            raw = migrations.migrate_header(version, raw)
        except migrations.MigrationError as exc:
            raise SaveError(str(p), f"format {version}", str(exc)) from None
    try:
        return SaveHeader.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        node_line = None
        try:
            node_line = _line_of(safe_read.compose_and_load(text)[1], tuple(first["loc"]))
        except yaml.YAMLError:
            pass
        where = (f"line {first_line + node_line}: " if node_line else "") + "header." + _field_name(first["loc"])
        raise SaveError(str(p), where, _friendly(first)) from None


def list_saves(directory: str | os.PathLike[str], *, recursive: bool = True) -> list[SaveListing]:
    """Every save in `directory` (and its sub-folders: autosaves), newest first, headers only."""
    d = Path(directory)
    if not d.is_dir():
        return []
    found: list[SaveListing] = []
    candidates: Iterable[Path] = d.rglob("*" + SAVE_SUFFIX) if recursive else d.glob("*" + SAVE_SUFFIX)
    for p in candidates:
        if p.name.startswith(".") or not p.is_file():
            continue
        folders = p.relative_to(d).parts[:-1]
        if SCENARIOS_DIR in folders:
            continue  # set-ups exported from GM mode are scenarios, not saves
        if DELETED_DIR in folders:
            continue  # saves deleted from the load menu wait there, never offered
        try:
            modified = p.stat().st_mtime
        except OSError:
            continue
        try:
            header = read_header(p)
            if not _ends_with_marker(p):  # a good header, the rest cut short: not offered as a save
                raise SaveError(str(p), "", f"the file ends early: the end marker '{END_MARKER}' after the log is "
                                "missing; it was cut short while being written or copied")
            found.append(SaveListing(p, header, None, modified))
        except SaveError as exc:
            found.append(SaveListing(p, None, exc.line(), modified))
    found.sort(key=lambda s: (-s.modified, str(s.path)))
    return found


def _ends_with_marker(path: Path, tail: int = 512) -> bool:
    """Whether the file's last line is the end marker, reading only its last `tail` bytes (the
    load menu lists every save without reading them whole)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - tail))
            text = fh.read().decode("utf-8", errors="replace")
    except OSError:
        return False
    return _has_end_marker(text)


# --------------------------------------------------------------------------- autosave, crash report


def _stamp(now: _dt.datetime) -> str:
    return now.strftime("%Y%m%d-%H%M%S")


def autosave(directory: str | os.PathLike[str], save: SaveData, *, keep: int = 5,
             now: _dt.datetime | None = None, stem: str = "autosave") -> Path:
    """Write an autosave `<stem>-r<round>-<date>.yaml` in `directory`, keeping the newest `keep`."""
    d = Path(directory)
    when = now or _dt.datetime.now()
    name = f"{stem}-r{save.header.round:02d}-{_stamp(when)}{SAVE_SUFFIX}"
    path = d / name
    n = 1
    while path.exists():  # two autosaves in the same second: never overwrite one
        n += 1
        path = d / f"{stem}-r{save.header.round:02d}-{_stamp(when)}-{n}{SAVE_SUFFIX}"
    write_save(path, save, backup=False)
    rotate_autosaves(d, keep=keep, stem=stem)
    return path


def rotate_autosaves(directory: str | os.PathLike[str], *, keep: int = 5, stem: str = "autosave") -> list[Path]:
    d = Path(directory)
    autos = sorted((p for p in d.glob(f"{stem}-r*{SAVE_SUFFIX}") if p.is_file()),
                   key=lambda p: (p.stat().st_mtime, p.name), reverse=True)
    removed = autos[max(keep, 0):]
    for p in removed:
        _unlink_quietly(p)
    return removed


def write_crash_report(directory: str | os.PathLike[str], exc: BaseException, *,
                       emergency_save: Path | None = None, emergency_error: str | None = None,
                       context: Mapping[str, Any] | None = None, now: _dt.datetime | None = None) -> Path | None:
    """A plain-text report a player can read and send: what happened, where the game was saved.

    Never raises: when `directory` cannot be written (missing and not creatable, read-only, a
    file) the report goes to the system's temporary folder; None when even that fails."""
    when = now or _dt.datetime.now()
    try:
        text = _crash_text(exc, when, emergency_save, emergency_error, context)
    except Exception:  # noqa: BLE001 - a report that cannot be put together still says what failed
        text = f"Ascension Isle: Legacy - crash report\nwhat went wrong: {type(exc).__name__}\n"
    for d in (Path(directory), Path(tempfile.gettempdir())):
        try:
            path = d / f"crash-{_stamp(when)}.txt"
            n = 1
            while path.exists():
                n += 1
                path = d / f"crash-{_stamp(when)}-{n}.txt"
            return atomic_write_text(path, text, backup=False)
        except Exception:  # noqa: BLE001, S112 - try the next folder
            continue
    return None


def _crash_text(exc: BaseException, when: _dt.datetime, emergency_save: Path | None,
                emergency_error: str | None, context: Mapping[str, Any] | None) -> str:
    try:
        what = cut(str(exc), 2000)
    except Exception:  # noqa: BLE001 - an exception whose str() fails
        what = "(no description)"
    lines = [
        "Ascension Isle: Legacy - crash report",
        f"when: {when.isoformat(timespec='seconds')}",
        f"what went wrong: {type(exc).__name__}: {what}",
        "",
    ]
    if emergency_save is not None:
        lines += ["Your game was saved just before the client closed:",
                  f"    {emergency_save}",
                  f"Resume it with:  python -m game play {emergency_save}", ""]
    elif emergency_error:
        lines += [f"The emergency save could not be written: {cut(emergency_error, 2000)}",
                  "Your latest autosave is in the saves folder.", ""]
    if context:
        lines.append("Where the game was:")
        for key, value in context.items():
            shown = value if isinstance(value, str | int | float | Path) or value is None else brief(value, 2000)
            lines.append(f"    {key}: {cut(str(shown), 2000)}")
        lines.append("")
    lines.append("Technical details (for a bug report):")
    try:
        details = "".join(traceback.format_exception(exc)).rstrip().splitlines()
    except Exception:  # noqa: BLE001
        details = ["(the traceback could not be formatted)"]
    lines += ["    " + cut(ln, 2000) for ln in details[-400:]]
    return "\n".join(lines) + "\n"


def now_iso(now: _dt.datetime | None = None) -> str:
    return (now or _dt.datetime.now()).isoformat(timespec="seconds")
