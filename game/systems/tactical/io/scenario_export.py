"""Save the current set-up of a battle as a new scenario file (GM mode: "Save as scenario").

The file is an ordinary scenario (docs/formats.md#scenarios) that loads like any shipped one:
the same map (referred to by a path relative to the new file), sides, commanders, rules
overrides, objectives, round limit, seed and options as the scenario the battle came from, and
every unit still on the map where it stands now, at its current strength. Units whose stats the
GM edited get their own entries in a unit catalogue written next to the scenario.

What a scenario cannot hold is left out and said in its description: adrenaline spent, stances,
markers and Advantage start fresh, as in any new battle.
"""

from __future__ import annotations

import datetime as _dt
import os
import re
from pathlib import Path
from typing import Any

from game.io.saves import _dump as saves_dump
from game.io.saves import atomic_write_text
from game.systems.tactical.io.scenario import load_scenario


def _rel(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()


def _colour(c: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*c)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "scenario"


def scenario_dict(state: Any, original: Any, out_dir: Path, *, name: str,
                  catalogue_file: str | None) -> dict[str, Any]:
    """The scenario mapping of `state` (a GameState) started from `original` (a LoadedScenario)."""
    setup = state.setup
    board = state.board
    sf = original.file
    units = []
    for u in state.units.values():
        if u.destroyed:
            continue
        col, row = board.offset_of(u.hex)
        entry: dict[str, Any] = {"id": u.id, "type": _type_key(u.type_id), "side": u.side, "at": [col, row]}
        full = state.unit_type(u.id).strength
        if u.strength != full:
            entry["strength"] = min(u.strength, full)
        setup_name = next((us.name for us in setup.units if us.id == u.id and us.name), None)
        if setup_name:
            entry["name"] = setup_name
        units.append(entry)
    sides = []
    live = {u.id for u in state.units.values() if not u.destroyed}
    for s in setup.sides:
        commander = s.commander.model_dump(mode="json", exclude_defaults=True)
        if commander.get("unit") not in live:
            commander.pop("unit", None)
        sides.append({"id": s.id, "name": s.name, "colour": _colour(s.colour), "commander": commander})
    objectives = []
    for o in setup.objectives:
        entry = {"kind": o.kind, "side": o.side}
        if o.hexes:
            entry["hexes"] = [list(board.offset_of(h)) for h in o.hexes]
        if o.round is not None:
            entry["round"] = o.round
        if o.description:
            entry["description"] = o.description
        objectives.append(entry)
    note = (f"Set up by the GM from {Path(original.path).name} (round {state.round}); adrenaline, "
            "stances, markers and Advantage start fresh.")
    data: dict[str, Any] = {
        "name": name,
        "description": (sf.description.strip() + "\n\n" + note) if sf.description else note,
        "map": _rel(Path(original.map.path), out_dir),
    }
    if catalogue_file is not None:
        data["catalogue"] = catalogue_file
    elif sf.catalogue:
        data["catalogue"] = _rel(Path(original.catalogue_path), out_dir)
    if sf.rules:
        data["rules"] = sf.rules
    data.update({
        "seed": original.seed,
        "round_limit": setup.round_limit,
        "map_units": False,  # every unit is listed below, where it stands now
        "options": sf.options.model_dump(mode="json"),
        "sides": sides,
        "units": units,
        "objectives": objectives,
    })
    return data


def _type_key(type_id: str) -> str:
    """Catalogue key of a unit type; GM-edited types ('rifle_section@r1') get a plain key."""
    return type_id.replace("@", "_gm_")


def catalogue_dict(state: Any) -> dict[str, Any]:
    units = {k: v.model_dump(mode="json") for k, v in state.setup.catalogue.units.items()}
    for k, v in state.custom_types.items():
        units[_type_key(k)] = v.model_dump(mode="json")
    return {"units": units}


def _dump(data: Any) -> str:
    return saves_dump(data)  # block style, short lists inline: `at: [3, 9]`


def export_scenario(state: Any, original: Any, out_path: str | os.PathLike[str], *, name: str | None = None) -> Path:
    """Write `state` as a scenario at `out_path` (and `<stem>-units.yaml` if the GM edited stats)."""
    out = Path(out_path)
    out_dir = out.parent
    out_dir.mkdir(parents=True, exist_ok=True)
    title = name or f"{state.setup.name} (GM set-up, round {state.round})"
    catalogue_file = None
    if getattr(state, "custom_types", None):
        cat_path = out.with_name(out.stem + "-units.yaml")
        atomic_write_text(cat_path, "# Unit catalogue for " + out.name + ": the starter types plus the\n"
                          "# units whose stats the GM edited.\n" + _dump(catalogue_dict(state)), backup=True)
        catalogue_file = cat_path.name
    data = scenario_dict(state, original, out_dir, name=title, catalogue_file=catalogue_file)
    header = ("# A scenario saved from GM mode (format: docs/formats.md#scenarios).\n"
              f"# Play it with: python -m game play {out.as_posix()}\n")
    atomic_write_text(out, header + _dump(data), backup=True)
    return out


def export_session(session: Any, directory: str | os.PathLike[str], *, now: _dt.datetime | None = None) -> Path:
    """Export a client session's current set-up into `directory` under a fresh name."""
    if session.path is None:
        raise ValueError("this battle did not come from a scenario file")
    original = load_scenario(session.path)
    when = (now or _dt.datetime.now()).strftime("%Y%m%d-%H%M%S")
    out = Path(directory) / f"{_slug(session.setup.name)}-gm-{when}.yaml"
    return export_scenario(session.state, original, out)
