"""What a data file is, without loading it whole: `sniff_kind(path)` for `validate` and `render`,
`peek_system(path)` for the rule system a set-up file names with its top-level `system:` line.

It knows no rule system: the kinds of the campaign's and the mass battles' own files (and the
bridge's) are told by their sniffers, which the caller passes from the table
(game.core.plugin.Table.sniff).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from game.core.errors import GameFileError
from game.io import safe_read


def sniff_kind(path: str | Path, others: Callable[[Any], str] | None = None) -> str:
    """Guess what a data file is: 'map', 'tileset', 'scenario', 'catalogue', 'rules', 'save',
    'commands' (a command list for `run`), 'yaml' (unrecognised YAML), 'broken' (YAML that does not
    parse) or '' (not ours); `others(parsed data)`: the kind of another system's file, or ''."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".tmx":
        return "map"
    if suffix == ".tsx":
        return "tileset"
    if suffix not in (".yaml", ".yml"):
        return ""
    try:
        shape = safe_read.scan(safe_read.read_text(p, "YAML file", limit=safe_read.MAX_LARGE_FILE_BYTES),
                               stop_after_first=True)
    except (GameFileError, yaml.YAMLError):
        return "broken"  # unreadable, over a limit or not YAML: read_yaml() reports where and why
    if shape.documents > 1:
        return "save"  # saves are multi-document YAML (game.io.saves)
    if others is not None and _may_be_other_system(shape):
        other = _sniff_other_system(p, others)
        if other:
            return other
    if shape.top == "seq" and shape.items and shape.items_with_kind == shape.items:
        return "commands"  # a command list for `python -m game run`
    if shape.top != "map":
        return "yaml"
    data = dict.fromkeys(shape.top_keys)
    if set(data) == {"commands"} or ("commands" in data and "map" not in data and "sides" not in data):
        return "commands"
    keys = set(data)
    if "map" in keys and "sides" in keys:
        return "scenario"
    if keys == {"units"} or ("units" in keys and "map" not in keys and "sides" not in keys):
        return "catalogue"
    if keys & {"terrain", "check", "damage_table", "casualty", "accuracy", "initiative"}:
        return "rules"
    if "map" in keys or "sides" in keys:
        return "scenario"
    return "yaml"


def _may_be_other_system(shape: Any) -> bool:
    """Files of the campaign and mass-battle systems: a `system:` or `kind:` key at the top, or a
    list of commands (a campaign script)."""
    return shape.top == "seq" or (shape.top == "map" and bool({"system", "kind"} & set(shape.top_keys)))


def _sniff_other_system(p: Path, others: Callable[[Any], str]) -> str:
    """The kind of another system's file (its own sniffer reads the parsed data)."""
    try:
        data = safe_read.load_yaml(safe_read.read_text(p, "YAML file", limit=safe_read.MAX_LARGE_FILE_BYTES))
    except (GameFileError, yaml.YAMLError):
        return "broken"
    return others(data)


_SYSTEM_LINE = re.compile(r"^system:\s*['\"]?([A-Za-z0-9_.-]+)['\"]?\s*(?:#.*)?$", re.M)


def peek_system(path: str | Path, default: str) -> str:
    """The rule system a set-up file names with a top-level `system:` line, without parsing the
    whole file (`default` when it names none: the AI:L tactical rules, as every older scenario)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(65536)
    except OSError:
        return default
    found = _SYSTEM_LINE.search(head)
    if found is None and len(head) == 65536:  # a long file: its `system:` line may come later
        try:
            head = safe_read.read_text(path, "set-up file")
        except GameFileError:
            return default  # (the system's loader reports what is wrong with it)
        found = _SYSTEM_LINE.search(head)
    return found.group(1) if found else default
