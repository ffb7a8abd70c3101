"""Loading mass-battle files: the rules data, battle files and command scripts (docs/mass-battle.md
"Files"). Every problem is a GameFileError naming the file, the line and the field.

A battle file:

    system: mass-battle
    name: ...           description: ...          seed: 7
    prepared: true      # all four Ways assessed; false: the battle erupts, Strategy only
    terrain: constricted            # or: map: some.tmx  and  hex: [column, row]
    rules: {...}                    # optional overrides of assets/rules/mass-battle.yaml
    forces: [{id, name, commander, individuals: [...], brutes: [...], morale: [...], allies: [...]}, ...]

A command script: `{system: mass-battle, battle: <battle file>, commands: [...]}`.
"""

# No `from __future__ import annotations`: pydantic would evaluate every annotation of these models
# from its string at import, about a quarter of this module's import time (start-up, issue 14).
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from game.core.errors import GameFileError
from game.core.system import Reject
from game.io.datafiles import (
    ROOT,
    YamlDoc,
    deep_merge,
    format_loc,
    read_yaml,
    refuse_control_characters,
    validate_model,
    validation_errors,
)
from game.io.tmx import load_map
from game.systems.mass.rules.commands import parse_command
from game.systems.mass.rules.models import (
    TERRAIN_KINDS,
    ForceSetup,
    MassRules,
    MassSetup,
    alliance_problems,
    combatants,
    qualifies,
)

DEFAULT_MASS_RULES = ROOT / "assets" / "rules" / "mass-battle.yaml"
SYSTEM_NAME = "mass-battle"
EXPANSIVE = ("expansive ground offers nothing to fight for: a field too wide for any force to keep its "
             "momentum, so these rules refuse a battle there; choose another hex or one of "
             + ", ".join(TERRAIN_KINDS))


class _BattleFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str
    name: str = "Battle"
    description: str = ""
    seed: int = 1
    prepared: bool = True
    terrain: str | None = None
    map: str | None = None
    hex: tuple[int, int] | None = None
    rules: dict[str, Any] = Field(default_factory=dict)
    forces: list[ForceSetup] = Field(min_length=2)
    campaign: dict[str, Any] | None = None  # the campaign battle it was generated for (game/bridge; docs/scales.md)


@dataclass(frozen=True)
class LoadedBattle:
    """What the shell needs: `.setup` for initial_state, `.seed`, `.path`, `.name`, `.description`."""

    setup: MassSetup
    seed: int
    path: Path
    name: str
    description: str
    combatants: int
    note: str
    system_name: str = "mass-battle"
    warning: str = ""  # the note when the clash is below the mass rules' threshold (validate and run print it)


def _system_check(doc: YamlDoc, path: Path, what: str) -> dict[str, Any]:
    data = doc.data
    if not isinstance(data, dict):
        raise GameFileError(str(path), "", f"expected a {what} (a YAML mapping)")
    if data.get("system") != SYSTEM_NAME:
        raise GameFileError(str(path), "system", f"expected 'system: {SYSTEM_NAME}', got {data.get('system')!r}")
    return data


def load_mass_rules(path: str | Path = DEFAULT_MASS_RULES, overrides: dict[str, Any] | None = None,
                    where_overrides: str | Path | None = None) -> MassRules:
    p = Path(path)
    doc = read_yaml(p, "mass-battle rules file")
    data = dict(_system_check(doc, p, "mass-battle rules file"))
    data.pop("system", None)
    if overrides:
        merged = deep_merge(data, overrides)
        try:
            return MassRules.model_validate(merged)
        except ValidationError as exc:
            raise validation_errors(exc, None, where_overrides or p, ("rules",)) from None
    return validate_model(MassRules, data, doc, p, what="mass-battle rules file")


def terrain_from_map(rules: MassRules, map_path: Path, hex_cr: tuple[int, int], battle: Path) -> tuple[str, str]:
    """(terrain kind, note) of the hex at Tiled's column,row of a shipped map."""
    md = load_map(map_path)
    col, row = hex_cr
    h = md.board.stagger.to_hex(col, row)
    name = md.board.terrain.get(h)
    if name is None:
        raise GameFileError(str(battle), "hex", f"the map {map_path.name} has no hex at column {col}, row {row}")
    kind = rules.map_terrain.get(name)
    if kind is None:
        raise GameFileError(str(battle), "hex", f"the map terrain {name!r} at {col},{row} has no terrain kind in "
                            f"the rules' map_terrain table (known: {', '.join(sorted(rules.map_terrain))})")
    if kind == "expansive":
        raise GameFileError(str(battle), "hex", f"{name} at {col},{row} is expansive ground: {EXPANSIVE}")
    return kind, f"{name} at column {col}, row {row} of {map_path.name}"


_NAME_KEYS = ("name", "id", "commander", "leader")  # (a battle's, a force's, an individual's)


def load_battle(path: str | Path) -> LoadedBattle:
    p = Path(path)
    doc = read_yaml(p, "battle file")
    _system_check(doc, p, "battle file")
    refuse_control_characters(doc, _NAME_KEYS, p)
    bf = validate_model(_BattleFile, doc.data, doc, p, what="battle file")
    rules = load_mass_rules(overrides=bf.rules, where_overrides=p) if bf.rules else load_mass_rules()
    if bf.terrain is not None and bf.map is not None:
        raise GameFileError(str(p), "terrain", "give either terrain or map + hex, not both")
    if bf.terrain is not None:
        if bf.terrain == "expansive":
            raise GameFileError(str(p), f"line {doc.line_of(('terrain',))}: terrain", EXPANSIVE)
        if bf.terrain not in TERRAIN_KINDS:
            raise GameFileError(str(p), f"line {doc.line_of(('terrain',))}: terrain",
                                f"expected one of {', '.join(TERRAIN_KINDS)}, got {bf.terrain!r}")
        kind, note = bf.terrain, ""
    elif bf.map is not None:
        if bf.hex is None:
            raise GameFileError(str(p), "hex", "a battle on a map names its hex: hex: [column, row]")
        kind, note = terrain_from_map(rules, (p.parent / bf.map).resolve(), bf.hex, p)
    else:
        raise GameFileError(str(p), "terrain", f"expected terrain: (one of {', '.join(TERRAIN_KINDS)}) or map + hex")
    for i, j, problem in alliance_problems(bf.forces)[:1]:
        loc = ("forces", i, "allies", j)
        line = doc.line_of(loc)
        raise GameFileError(str(p), format_loc(loc) if line is None else f"line {line}: {format_loc(loc)}", problem)
    try:
        setup = MassSetup(name=bf.name, description=bf.description, terrain=kind,
                          terrain_note=note, prepared=bf.prepared, forces=bf.forces, rules=rules)
    except ValidationError as exc:
        raise validation_errors(exc, doc, p) from None
    ok, text = qualifies(setup)
    return LoadedBattle(setup, bf.seed, p, bf.name, bf.description, combatants(setup), text,
                        warning="" if ok else text)


class _Script(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str
    battle: str
    commands: list[dict[str, Any]]


def load_mass_commands(path: str | Path) -> tuple[Path, list[Any]]:
    """(battle file, parsed commands) of a command script; a bad command names its index."""
    p = Path(path)
    doc = read_yaml(p, "command script")
    _system_check(doc, p, "command script")
    sc = validate_model(_Script, doc.data, doc, p, what="command script")
    out = []
    for i, raw in enumerate(sc.commands):
        try:
            out.append(parse_command(raw))
        except Reject as exc:
            raise GameFileError(str(p), f"line {doc.line_of(('commands', i))}: commands[{i}]", exc.reason) from None
    return (p.parent / sc.battle).resolve(), out


def sniff_mass(data: Any) -> str:
    """'mass-battle', 'mass-rules', 'mass-commands' for this system's files, else ''."""
    if not isinstance(data, dict) or data.get("system") != SYSTEM_NAME:
        return ""
    if "commands" in data:
        return "mass-commands"
    if "forces" in data:
        return "mass-battle"
    return "mass-rules"


def check_mass_file(path: Path, kind: str) -> str:
    """`validate` for this system's files (kinds from sniff_mass): one line saying what it holds."""
    if kind == "mass-battle":
        lb = load_battle(path)
        return (f"mass battle '{lb.name}', {len(lb.setup.forces)} forces, {lb.combatants} combatants, "
                f"{lb.setup.terrain} ground" + (f"; note: {lb.warning}" if lb.warning else ""))
    if kind == "mass-rules":
        load_mass_rules(path)
        return "mass-battle rules file"
    battle, cmds = load_mass_commands(path)
    load_battle(battle)
    return f"mass-battle command script, {len(cmds)} commands for {battle.name}"
