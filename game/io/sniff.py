"""What a data file is, without loading it whole: `sniff_kind(path)` for `validate` and `render`,
`peek_system(path)` for the rule system a set-up file names with its top-level `system:` line.

Kept apart from the loaders so that each system's loader (game.io.scenario, game.io.campaign,
game.io.mass) can use game.io.datafiles without a cycle: this module knows them all.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from game.errors import GameFileError
from game.io import safe_read


def sniff_kind(path: str | Path) -> str:
    """Guess what a data file is: 'map', 'tileset', 'scenario', 'catalogue', 'rules', 'save',
    'commands' (a command list for `run`), 'yaml' (unrecognised YAML), 'broken' (YAML that does not
    parse) or '' (not ours)."""
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
    if _may_be_other_system(shape):
        other = _sniff_other_system(p)
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


def _sniff_other_system(p: Path) -> str:
    """The kind of a campaign or mass-battle file (their own sniffers read the parsed data)."""
    from game.io.campaign import sniff_campaign
    from game.io.mass import sniff_mass

    try:
        data = safe_read.load_yaml(safe_read.read_text(p, "YAML file", limit=safe_read.MAX_LARGE_FILE_BYTES))
    except (GameFileError, yaml.YAMLError):
        return "broken"
    if isinstance(data, dict) and data.get("system") == "scales":
        return "scales-rules"  # the translations between the scales (game/io/bridge.py)
    return sniff_mass(data) or sniff_campaign(data)


_SYSTEM_LINE = re.compile(r"^system:\s*['\"]?([A-Za-z0-9_.-]+)['\"]?\s*(?:#.*)?$", re.M)


def peek_system(path: str | Path) -> str:
    """The rule system a set-up file names with a top-level `system:` line, without parsing the
    whole file (the AI:L tactical rules when it names none, as every older scenario does)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            head = fh.read(65536)
    except OSError:
        return "ail-tactical"
    found = _SYSTEM_LINE.search(head)
    return found.group(1) if found else "ail-tactical"
