"""Files for game/bridge/ (docs/scales.md): the translation rules (assets/rules/scales.yaml), a
tactical map's standable cells, a campaign or battle save brought back, and the generated
scenario / battle files written next to each other."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from game import paths
from game.bridge.models import ScalesRules
from game.bridge.tactical import Cells
from game.errors import GameFileError
from game.io.datafiles import read_yaml, validate_model

DEFAULT_SCALES = paths.asset("rules", "scales.yaml")


def load_scales_rules(path: str | Path = DEFAULT_SCALES) -> ScalesRules:
    p = Path(path)
    doc = read_yaml(p, "scales rules file")
    return validate_model(ScalesRules, doc.data, doc, p, what="scales rules file")


def tactical_map_path(map_name: str) -> Path:
    p = paths.maps_dir() / map_name
    if not p.is_file():
        raise GameFileError(str(DEFAULT_SCALES), "tactical.maps", f"the tactical map {map_name!r} is not in {paths.maps_dir()}")
    return p


def cells_of(map_name: str) -> Cells:
    """The map's size and every cell a unit of any kind may stand on (on the board, passable)."""
    from game.io.datafiles import load_rules
    from game.io.tmx import load_map

    rules = load_rules()
    md = load_map(tactical_map_path(map_name), set(rules.terrain))
    board = md.board
    ok: set[tuple[int, int]] = set()
    for col in range(md.width):
        for row in range(md.height):
            h = board.stagger.to_hex(col, row)
            if h not in board:
                continue
            t = rules.terrain.get(board.terrain_at(h))
            if t is not None and not t.impassable:
                ok.add((col, row))
    return Cells(md.width, md.height, frozenset(ok))


def mass_map_terrain() -> dict[str, str]:
    from game.io.mass import load_mass_rules

    return dict(load_mass_rules().map_terrain)


def load_state(path: str | Path, system: str) -> Any:
    """(record, loaded game) of a save of the given system, verified by replaying its log."""
    from game.replay import load_game

    game = load_game(path)
    if game.header.game != system:
        raise GameFileError(str(path), "system", f"expected a {system} save, got a {game.header.game} save")
    return game


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110)


def write_tactical(scenario: dict[str, Any], map_name: str, out_dir: str | Path, stem: str) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    rel = os.path.relpath(tactical_map_path(map_name).resolve(), out.resolve())
    path = out / f"{stem}.yaml"
    header = "# A campaign battle as a tactical scenario (python -m game scales tactical); docs/scales.md\n"
    path.write_text(header + _dump({**scenario, "map": Path(rel).as_posix()}), encoding="utf-8")
    return path


def write_mass(battle: dict[str, Any], out_dir: str | Path, stem: str) -> Path:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{stem}.yaml"
    header = "# A campaign battle as a mass battle (python -m game scales mass); docs/scales.md\n"
    path.write_text(header + _dump(battle), encoding="utf-8")
    return path
