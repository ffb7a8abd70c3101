"""The benchmark battlefield: a 100 x 100 hex Tiled map with 300 units, made in memory.

The map is painted with the same Painter the shipped maps use (game.tools.make_maps), written as
a real .tmx into a directory the caller owns (a temporary one) and loaded back through the real
loader, so the benchmarks measure exactly what a player's big map would cost.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game import paths
from game.core.board import Board
from game.core.hexgrid import DIRECTIONS, Hex, Stagger, neighbours
from game.io import tmx
from game.systems.tactical.io.data import load_catalogue, load_rules
from game.systems.tactical.rules.models import (
    BattleSetup,
    Catalogue,
    Commander,
    RulesData,
    SideSetup,
    Stats,
    UnitSetup,
)
from game.tools.make_maps import Painter, tmx_text

ROOT = paths.data_root()
TILESET = ROOT / "assets" / "tiles" / "hex-pointy.tsx"
PASSABLE_FOR_UNITS = {"clear", "woods", "rough", "hill", "building", "rubble", "road"}


def paint_big_map(width: int = 100, height: int = 100, seed: int = 4242) -> Painter:
    """A large mixed battlefield: woods, hills, swamps, towns, rivers and a road grid."""
    p = Painter(width, height, Stagger("y", "odd"), random.Random(seed))
    rng = p.rng
    area = width * height
    for tile, count, size in (("woods", area // 160, 18), ("rough", area // 300, 10), ("hill", area // 400, 9),
                              ("swamp", area // 600, 8), ("dense_woods", area // 700, 6),
                              ("building", area // 500, 7)):
        for _ in range(count):
            p.blob(p.at(rng.randrange(width), rng.randrange(height)), size, tile, over={"clear"})
    for _ in range(max(1, width // 30)):
        p.river(p.at(rng.randrange(width), 0), (4, 5))
    roads: list[Hex] = []
    for col in range(5, width, 16):
        roads += p.road([p.at(col, 0), p.at(min(width - 1, col + 6), height - 1)])
    for row in range(8, height, 16):
        roads += p.road([p.at(0, row), p.at(width - 1, min(height - 1, row + 4))])
    for h in roads:
        if p.ground[h] == "water":
            p.ground[h] = "bridge"
        elif p.ground[h] not in ("clear",):
            p.ground[h] = "clear"
    return p


def write_big_map(directory: str | os.PathLike[str], width: int = 100, height: int = 100,
                  seed: int = 4242) -> Path:
    """Write the benchmark map as `<directory>/bench-<w>x<h>.tmx` (tileset referenced relatively)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    painter = paint_big_map(width, height, seed)
    tileset = Path(os.path.relpath(TILESET.resolve(), out.resolve())).as_posix()
    path = out / f"bench-{width}x{height}.tmx"
    path.write_text(tmx_text(painter, f"Benchmark {width}x{height}", tileset, []), encoding="utf-8")
    return path


def load_rules_and_catalogue() -> tuple[RulesData, Catalogue]:
    return load_rules(), load_catalogue()


def place_units(board: Board, catalogue: Catalogue, count: int = 300, seed: int = 7,
                sides: tuple[str, str] = ("blue", "red")) -> tuple[UnitSetup, ...]:
    """`count` units, half a side, on distinct passable hexes: blue in the west half, red in the east."""
    rng = random.Random(seed)
    types = sorted(catalogue.units)
    free = [h for h in sorted(board.terrain) if board.terrain[h] in PASSABLE_FOR_UNITS]
    rng.shuffle(free)
    half = board.width // 2
    used: set[Hex] = set()
    units: list[UnitSetup] = []
    for i in range(count):
        side = sides[i % 2]
        want_west = side == sides[0]
        h = next(h for h in free if h not in used and (board.offset_of(h)[0] < half) == want_west)
        used.add(h)
        units.append(UnitSetup(id=f"{side[0]}{i:03d}", type=types[i % len(types)], side=side, at=h))
    return tuple(units)


def big_setup(board: Board, rules: RulesData, catalogue: Catalogue, units: int = 300) -> BattleSetup:
    def commander() -> Commander:
        return Commander(name="Bench Commander", stats=Stats(physique=3, senses=3, intellect=3, aether=2),
                         skills={"tactics": 2, "leadership": 2, "deception": 1})

    sides = (SideSetup(id="blue", name="Blue", colour=(60, 110, 220), commander=commander()),
             SideSetup(id="red", name="Red", colour=(210, 60, 50), commander=commander()))
    return BattleSetup(name=f"benchmark {board.width}x{board.height}", rules=rules, catalogue=catalogue,
                       sides=sides, units=place_units(board, catalogue, units), objectives=(), round_limit=200)


@dataclass(frozen=True)
class BigBattle:
    path: Path
    map_data: Any  # game.io.tmx.MapData
    board: Board
    setup: BattleSetup


def big_battle(directory: str | os.PathLike[str], width: int = 100, height: int = 100,
               units: int = 300) -> BigBattle:
    """Write, load and populate the benchmark battle. The loader takes maps of any picture size
    (tmx.MAX_MAP_PIXELS caps only a whole-map picture drawn at full size), so the 100 x 100 and
    200 x 200 benchmark maps load as a player's would."""
    rules, catalogue = load_rules_and_catalogue()
    path = write_big_map(directory, width, height)
    md = tmx.load_map(path, set(rules.terrain))
    return BigBattle(path, md, md.board, big_setup(md.board, rules, catalogue, units))


def road_hexes_near(board: Board, h: Hex) -> list[Hex]:
    return [n for n in neighbours(h) if board.is_road(n)]


__all__ = ["BigBattle", "DIRECTIONS", "big_battle", "big_setup", "paint_big_map", "place_units",
           "road_hexes_near", "write_big_map"]
