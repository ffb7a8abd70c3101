"""`validate` for the tactical game's own files: Tiled maps and tilesets, scenarios, unit
catalogues and rules files (game.io.sniff tells them by their suffix and keys)."""

from __future__ import annotations

from pathlib import Path

from game.core.errors import GameFileError
from game.core.system import counted
from game.io.tmx import load_map, load_tileset
from game.systems.tactical.io.data import load_catalogue, load_rules
from game.systems.tactical.io.scenario import load_scenario

TACTICAL_KINDS = ("map", "tileset", "scenario", "catalogue", "rules")


def check_tactical_file(path: Path, kind: str) -> str:
    """`validate` for the tactical game's files (kinds told by game.io.sniff, which knows them by
    their suffix and keys): one line saying what the file holds; a located error when wrong."""
    if kind == "map":
        md = load_map(path)
        if md.units:
            cat = load_catalogue()
            for u in md.units:
                if u.unit_type not in cat.units:
                    raise GameFileError(str(path), u.describe(), f"unknown unit_type '{u.unit_type}'; the "
                                        f"starter catalogue has: {', '.join(sorted(cat.units))}")
        if not md.has_terrain:
            return (f"map {md.width} x {md.height}, {len(md.painted)} painted cells, {len(md.units)} units; no tile "
                    "has a 'terrain' property: it draws, and a scenario's terrain_map makes it playable")
        return f"map {md.width} x {md.height}, {len(md.board.terrain)} hexes, {len(md.units)} units"
    if kind == "tileset":
        ts = load_tileset(path)
        return f"tileset '{ts.name}', {ts.tilecount} tiles"
    if kind == "scenario":
        sc = load_scenario(path)
        return f"scenario '{sc.name}', {len(sc.setup.sides)} sides, {len(sc.setup.units)} units"
    if kind == "catalogue":
        cat = load_catalogue(path)
        return f"unit catalogue, {counted(len(cat.units), 'unit type', 'unit types')}"
    rules = load_rules(path)
    return f"rules file, {len(rules.terrain)} terrain types"
