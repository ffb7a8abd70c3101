"""Loading the YAML data files (rules, unit catalogue) and turning mistakes into clear errors.

Every loader reads YAML with `yaml.safe_load` semantics, validates it with the pydantic models
of game.systems.tactical.rules.models and reports problems as GameFileError naming the file, the field path
(e.g. ``units.warjack.weapons[0].bands``), the line and what was expected.

Scenario rule overrides are deep-merged onto the rules file (mappings merge key by key; lists and
scalars replace), so a scenario can change one number without repeating the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from game import paths
from game.core.errors import GameFileError, brief
from game.io import safe_read

ROOT = paths.data_root()

M = TypeVar("M", bound=BaseModel)
Loc = tuple[int | str, ...]


class GameFileErrors(GameFileError):
    """Several problems found in one go; str() is the first, `problems` holds them all."""

    def __init__(self, problems: Sequence[GameFileError]) -> None:
        self.problems = list(problems)
        first = self.problems[0]
        super().__init__(first.path, first.where, first.message)


def problems_of(exc: GameFileError) -> list[GameFileError]:
    """Every single problem an error stands for (one line each)."""
    return list(exc.problems) if isinstance(exc, GameFileErrors) else [exc]


# --------------------------------------------------------------------------- YAML with positions

@dataclass(frozen=True)
class YamlDoc:
    """A parsed YAML document and its node tree (to find the line of any field)."""

    path: Path
    data: Any
    root: yaml.Node | None

    def line_of(self, loc: Loc) -> int | None:
        """1-based line of the node at `loc` (or of its deepest existing parent)."""
        return line_of(self.root, loc)


def line_of(node: yaml.Node | None, loc: Loc) -> int | None:
    best = node.start_mark.line + 1 if node is not None else None
    for key in loc:
        if node is None:
            break
        nxt: yaml.Node | None = None
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(key):
                    nxt = v
                    best = k.start_mark.line + 1
                    break
        elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and 0 <= key < len(node.value):
            nxt = node.value[key]
            best = nxt.start_mark.line + 1
        if nxt is None:
            break
        node = nxt
    return best


def read_yaml(path: str | Path, what: str = "file", limit: int = safe_read.MAX_FILE_BYTES) -> YamlDoc:
    """Read a YAML file safely and within bounds (game.io.safe_read); problems become a
    GameFileError with the line."""
    p = Path(path)
    text = safe_read.read_text(p, what, limit=limit)
    try:
        data, root = safe_read.compose_and_load(text)
    except yaml.YAMLError as exc:
        where, problem = safe_read.yaml_problem(exc)
        raise GameFileError(str(p), where, f"not valid YAML: {problem}") from None
    return YamlDoc(p, data, root)


def format_loc(loc: Iterable[int | str]) -> str:
    """('units', 3, 'at') -> 'units[3].at'."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def clean_loc(loc: Loc) -> Loc:
    # pydantic adds pseudo-steps for unions/validators ("function-after[...]", "tagged-union[...]")
    return tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or p.startswith("function-"))))


def describe_error(err: Mapping[str, Any]) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", "invalid value"))
    value = err.get("input")
    if kind == "extra_forbidden":
        return "unknown key (not part of this file format; see docs/formats.md)"
    if kind == "missing":
        return "required field is missing"
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    shown = brief(value)
    if isinstance(value, dict | list):
        return f"{msg[0].lower()}{msg[1:]}"
    return f"{msg[0].lower()}{msg[1:]} (got {shown})"


def validation_errors(exc: ValidationError, doc: YamlDoc | None, path: str | Path,
                      prefix: Loc = ()) -> GameFileErrors:
    """Turn a pydantic ValidationError into one GameFileError per problem."""
    problems: list[GameFileError] = []
    for err in exc.errors():
        loc = prefix + clean_loc(tuple(err.get("loc", ())))
        where = format_loc(loc) or "top level"
        line = doc.line_of(loc) if doc is not None else None
        if line is not None:
            where = f"line {line}: {where}"
        problems.append(GameFileError(str(path), where, describe_error(err)))
    return GameFileErrors(problems)


def validate_model(model: type[M], data: Any, doc: YamlDoc | None, path: str | Path,
                   prefix: Loc = (), what: str = "file") -> M:
    if not isinstance(data, dict):
        got = "an empty file" if data is None else f"a {type(data).__name__}"
        raise GameFileError(str(path), format_loc(prefix), f"expected a {what} (a YAML mapping), got {got}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_errors(exc, doc, path, prefix) from None


# --------------------------------------------------------------------------- deep merge

def deep_merge(base: Any, override: Any) -> Any:
    """Mappings merge key by key (recursively); anything else in `override` replaces `base`."""
    if isinstance(base, dict) and isinstance(override, dict):
        out = dict(base)
        for k, v in override.items():
            out[k] = deep_merge(base[k], v) if k in base else v
        return out
    return override


def override_owns(override: Any, loc: Loc) -> bool:
    """Whether the merged value at `loc` comes from `override`: it holds the whole path, or on the
    way there it put a list or a single value where the base had its own (`deep_merge` replaces
    those whole, so whatever lies under them is the override's: `colour: []` owns colour[0])."""
    data = override
    for key in loc:
        if not isinstance(data, dict):
            return True
        if key not in data:
            return False
        data = data[key]
    return True


def has_path(data: Any, loc: Loc) -> bool:
    for key in loc:
        if isinstance(data, dict) and key in data:
            data = data[key]
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return False
    return True


def control_character(text: str, allowed: str = "") -> str | None:
    """The first control character of `text` (C0, DEL, C1; but those in `allowed`), or None."""
    return next((c for c in text if (ord(c) < 32 or 127 <= ord(c) < 160) and c not in allowed), None)


def refuse_control_characters(doc: YamlDoc, name_keys: Sequence[str], path: str | Path | None = None) -> None:
    """Refuse, at its line, a string of the file holding a control character: in a name or an id
    (a value under one of `name_keys`: what the window, `render` and `run` show, where a NUL cannot
    be drawn and an escape sequence would reach the terminal), or anywhere else but the tabs and
    line breaks of a text. `path`: the file to name (default: the document's own)."""

    def walk(node: Any, loc: tuple[int | str, ...]) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, (*loc, str(key)))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, (*loc, i))
        elif isinstance(node, str):
            named = bool(loc) and loc[-1] in name_keys
            bad = control_character(node, "" if named else "\t\n")
            if bad is not None:
                line = doc.line_of(loc)
                where = format_loc(loc) if line is None else f"line {line}: {format_loc(loc)}"
                raise GameFileError(str(doc.path if path is None else path), where,
                                    f"a control character (U+{ord(bad):04X}) in "
                                    f"{'a name' if named else 'the text'}; expected printable text")

    walk(doc.data, ())
