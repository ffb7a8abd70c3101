"""Generate the shipped battle maps as real Tiled .tmx files (deterministic).

    python -m game.tools.make_maps [--out maps]

Each map is painted from a seed: a river with a bridge and a ford, a road network through a
town of buildings, woods with dense cores, hills with rough slopes and a dug-in position,
swamp along the river. Two tile layers ("ground" with the terrain tiles, "roads" with road
overlays that carry `road: true`) and, on the flat-top map, an object layer of units.
No pygame needed: the maps reference the tilesets made by game.tools.make_tiles.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import quoteattr

from game.core.hexgrid import DIRECTIONS, Hex, Stagger, distance, hex_range, line, neighbours
from game.core.hexlayout import HexLayout
from game.tools.make_tiles import ROAD_BASE, TILE_IDS, geometry

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Painter:
    width: int
    height: int
    stagger: Stagger
    rng: random.Random
    ground: dict[Hex, str] = field(default_factory=dict)
    road_links: dict[Hex, set[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for _, _, h in self.stagger.iter_grid(self.width, self.height):
            self.ground[h] = "clear"

    def on_map(self, h: Hex) -> bool:
        return h in self.ground

    def at(self, col: int, row: int) -> Hex:
        return self.stagger.to_hex(col, row)

    def paint(self, hexes: Iterable[Hex], tile: str, over: set[str] | None = None) -> None:
        for h in hexes:
            if self.on_map(h) and (over is None or self.ground[h] in over):
                self.ground[h] = tile

    def blob(self, centre: Hex, size: int, tile: str, over: set[str] | None = None) -> set[Hex]:
        """A random-walk cluster of about `size` hexes."""
        cells = {centre}
        frontier = [centre]
        while len(cells) < size and frontier:
            h = self.rng.choice(frontier)
            n = h + self.rng.choice(DIRECTIONS)
            if self.on_map(n) and n not in cells and distance(n, centre) <= max(2, size // 3):
                cells.add(n)
                frontier.append(n)
        self.paint(cells, tile, over)
        return cells

    def river(self, start: Hex, steps: tuple[int, ...], rows: tuple[int, int] | None = None) -> list[Hex]:
        """A meandering one-hex river following the allowed direction indices until it leaves the map.

        With `rows`, the river is steered back whenever it strays outside that band of rows
        (the allowed step that moves towards the band is taken)."""
        path = [start]
        h = start
        last = self.rng.choice(steps)
        while True:
            d = last if self.rng.random() < 0.55 else self.rng.choice(steps)
            if rows is not None:
                row = self.stagger.to_offset(h)[1]
                if row < rows[0] or row > rows[1]:
                    want_down = row < rows[0]
                    d = max(steps, key=lambda k: (self.stagger.to_offset(h + DIRECTIONS[k])[1] - row)
                            * (1 if want_down else -1))
            last = d
            h = h + DIRECTIONS[d]
            if not self.on_map(h):
                break
            path.append(h)
        self.paint(path, "water")
        return path

    def road(self, waypoints: list[Hex], exit_first: Hex | None = None, exit_last: Hex | None = None) -> list[Hex]:
        """A road through the waypoints (hex lines); optional off-map neighbours for edge exits."""
        path: list[Hex] = []
        for a, b in zip(waypoints, waypoints[1:], strict=False):
            seg = line(a, b)
            if path and path[-1] == seg[0]:
                seg = seg[1:]
            path.extend(seg)
        full = ([exit_first] if exit_first else []) + path + ([exit_last] if exit_last else [])
        for a, b in zip(full, full[1:], strict=False):
            d = DIRECTIONS.index(b - a)
            if self.on_map(a):
                self.road_links.setdefault(a, set()).add(d)
            if self.on_map(b):
                self.road_links.setdefault(b, set()).add((d + 3) % 6)
        return path

    # ------------------------------------------------------------------ output
    def ground_gids(self) -> list[list[int]]:
        out = []
        for row in range(self.height):
            out.append([TILE_IDS[self.ground[self.at(col, row)]] + 1 for col in range(self.width)])
        return out

    def road_gids(self) -> list[list[int]]:
        out = []
        for row in range(self.height):
            line_: list[int] = []
            for col in range(self.width):
                h = self.at(col, row)
                links = self.road_links.get(h)
                if links is None:
                    line_.append(0)
                    continue
                mask = sum(1 << d for d in links)
                line_.append(ROAD_BASE + mask + 1)
            out.append(line_)
        return out


@dataclass(frozen=True)
class UnitMark:
    unit_type: str
    side: str
    col: int
    row: int
    id: str


def _csv(rows: list[list[int]]) -> str:
    return "\n" + ",\n".join(",".join(str(g) for g in r) for r in rows) + "\n"


def tmx_text(p: Painter, title: str, tileset: str, units: list[UnitMark]) -> str:
    pointy = p.stagger.axis == "y"
    tw, th, side = geometry(pointy)
    lay = HexLayout(tw, th, side, p.stagger, p.width, p.height)
    next_layer = 3 + (1 if units else 0)
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" renderorder="right-down" '
        f'width="{p.width}" height="{p.height}" tilewidth="{tw}" tileheight="{th}" infinite="0" '
        f'hexsidelength="{side}" staggeraxis="{p.stagger.axis}" staggerindex="{p.stagger.index}" '
        f'nextlayerid="{next_layer}" nextobjectid="{len(units) + 1}">',
        " <properties>",
        f"  <property name=\"title\" value={quoteattr(title)}/>",
        " </properties>",
        f' <tileset firstgid="1" source={quoteattr(tileset)}/>',
        f' <layer id="1" name="ground" width="{p.width}" height="{p.height}">',
        f'  <data encoding="csv">{_csv(p.ground_gids())}</data>',
        " </layer>",
        f' <layer id="2" name="roads" width="{p.width}" height="{p.height}">',
        f'  <data encoding="csv">{_csv(p.road_gids())}</data>',
        " </layer>",
    ]
    if units:
        out.append(' <objectgroup id="3" name="units">')
        for i, u in enumerate(units, start=1):
            x, y = lay.tile_center(u.col, u.row)
            out += [
                f'  <object id="{i}" name={quoteattr(u.id)} x="{x:g}" y="{y:g}">',
                "   <properties>",
                f"    <property name=\"id\" value={quoteattr(u.id)}/>",
                f"    <property name=\"side\" value={quoteattr(u.side)}/>",
                f"    <property name=\"unit_type\" value={quoteattr(u.unit_type)}/>",
                "   </properties>",
                "   <point/>",
                "  </object>",
            ]
        out.append(" </objectgroup>")
    out.append("</map>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the two maps

def scatter(p: Painter, chance: float, tile: str) -> None:
    """Single hexes of `tile` sprinkled over open ground."""
    for _, _, h in p.stagger.iter_grid(p.width, p.height):
        if p.ground[h] == "clear" and p.rng.random() < chance:
            p.ground[h] = tile


def riverford(seed: int = 1864) -> Painter:
    """Pointy-top 34 x 24: a river runs north-south; the east-west road crosses it at a bridge."""
    st = Stagger("y", "odd")
    p = Painter(34, 24, st, random.Random(seed))
    # woods and hills first; river, town and roads paint over them
    for col, row, size in ((5, 4, 14), (8, 17, 16), (25, 5, 12), (29, 18, 14), (14, 2, 8), (20, 20, 9),
                           (10, 7, 6), (22, 14, 7), (2, 20, 8), (31, 2, 6)):
        cells = p.blob(p.at(col, row), size, "woods")
        p.paint([c for c in cells if p.rng.random() < 0.35], "dense_woods")
    scatter(p, 0.05, "rough")
    scatter(p, 0.04, "woods")
    p.paint([p.at(6, 8), p.at(7, 8)], "building")  # a farm west of the river
    p.paint([p.at(30, 14)], "rubble")
    for col, row, size in ((27, 11, 9), (4, 11, 7)):
        hill = p.blob(p.at(col, row), size, "hill")
        for h in hill:
            p.paint([n for n in neighbours(h) if p.rng.random() < 0.3], "rough", over={"clear", "woods"})
    p.paint([p.at(27, 11)], "fortification")
    p.paint([p.at(28, 12)], "bunker")
    p.paint([p.at(4, 11)], "fortification")
    p.blob(p.at(20, 15), 6, "rough", over={"clear"})
    p.blob(p.at(11, 9), 5, "rough", over={"clear"})
    river = p.river(p.at(17, 0), (4, 5))
    # swamp along the river's lower bend
    for h in river:
        _, row = st.to_offset(h)
        if 14 <= row <= 18:
            p.paint([n for n in neighbours(h) if p.rng.random() < 0.6], "swamp", over={"clear", "woods", "rough"})
    # town east of the river around the junction
    bridge_row = 10
    bridge = next(h for h in river if st.to_offset(h)[1] == bridge_row)
    ford = next(h for h in river if st.to_offset(h)[1] == 19)
    town_centre = bridge + DIRECTIONS[0].scale(4)
    for h in hex_range(town_centre, 2):
        if p.on_map(h) and p.ground[h] != "water" and p.rng.random() < 0.7:
            p.ground[h] = "building"
    p.paint([h for h in hex_range(town_centre, 2) if p.rng.random() < 0.15], "rubble", over={"building"})
    p.ground[town_centre] = "town_square"
    # roads: west edge -> bridge -> town -> east edge; town -> south edge via the ford
    west = p.at(0, bridge_row)
    east = p.at(p.width - 1, 8)
    south = p.at(12, p.height - 1)
    main = p.road([west, bridge, town_centre, east], exit_first=west + DIRECTIONS[3],
                  exit_last=east + DIRECTIONS[0])
    side = p.road([town_centre, town_centre + DIRECTIONS[5].scale(3), ford, south],
                  exit_last=south + DIRECTIONS[5])
    north = p.road([town_centre, p.at(24, 0)], exit_last=p.at(24, 0) + DIRECTIONS[2])
    for h in main + side + north:
        if p.ground[h] == "water":
            p.ground[h] = "bridge" if h == bridge else "ford"
        elif p.ground[h] in ("woods", "dense_woods", "rough", "swamp", "hill"):
            p.ground[h] = "clear"
        elif p.ground[h] in ("building", "rubble"):
            p.ground[h] = "road"
    return p


def hollow_ridge(seed: int = 2203) -> tuple[Painter, list[UnitMark]]:
    """Flat-top 32 x 22: a ridge with a dug-in line in the north, a village and a stream."""
    st = Stagger("x", "odd")
    p = Painter(32, 22, st, random.Random(seed))
    for col, row, size in ((3, 3, 12), (10, 15, 18), (26, 16, 12), (20, 2, 10), (29, 6, 9), (5, 19, 8),
                           (21, 10, 6)):
        cells = p.blob(p.at(col, row), size, "woods")
        p.paint([c for c in cells if p.rng.random() < 0.4], "dense_woods")
    scatter(p, 0.05, "rough")
    scatter(p, 0.03, "woods")
    ridge: list[Hex] = []
    for col in range(6, 26):
        row = 6 + (1 if col % 5 == 0 else 0)
        ridge.append(p.at(col, row))
    p.paint(ridge, "hill")
    p.paint([n for h in ridge for n in neighbours(h) if p.rng.random() < 0.35], "rough",
            over={"clear", "woods"})
    for col in (9, 14, 19, 23):
        p.paint([p.at(col, 5)], "fortification")
    p.paint([p.at(16, 5)], "bunker")
    p.paint([p.at(12, 7), p.at(21, 7)], "cliff")
    stream = p.river(p.at(0, 13), (0, 1), rows=(11, 16))  # flat-top: south-east / north-east
    for h in stream:
        col, row = st.to_offset(h)
        if 18 <= col <= 24:
            p.paint([n for n in neighbours(h) if p.rng.random() < 0.5], "swamp", over={"clear", "woods", "rough"})
    village = p.at(14, 11)
    for h in hex_range(village, 2):
        if p.on_map(h) and p.ground[h] not in ("water",) and p.rng.random() < 0.65:
            p.ground[h] = "building"
    p.paint([h for h in hex_range(village, 2) if p.rng.random() < 0.2], "rubble", over={"building"})
    p.ground[village] = "town_square"
    north = p.at(16, 0)
    south = p.at(15, p.height - 1)
    west = p.at(0, 9)
    east = p.at(p.width - 1, 12)
    crossing_n = next((h for h in stream if 10 <= st.to_offset(h)[0] <= 17), stream[len(stream) // 2])
    crossing_w = next((h for h in stream if st.to_offset(h)[0] >= 24), stream[-1])
    road_a = p.road([north, village, crossing_n, south], exit_first=north + DIRECTIONS[2],
                    exit_last=south + DIRECTIONS[5])
    road_b = p.road([west, village, crossing_w, east], exit_first=west + DIRECTIONS[3],
                    exit_last=east + DIRECTIONS[0])
    for h in road_a + road_b:
        if p.ground[h] == "water":
            p.ground[h] = "bridge" if h == crossing_n else "ford"
        elif p.ground[h] in ("woods", "dense_woods", "rough", "swamp"):
            p.ground[h] = "clear"
        elif p.ground[h] in ("building", "rubble"):
            p.ground[h] = "road"
    units = [
        UnitMark("armoured_infantry", "jibril", 9, 4, "jibril-1"),
        UnitMark("armoured_infantry", "jibril", 19, 4, "jibril-2"),
        UnitMark("warjack", "jibril", 15, 3, "jibril-3"),
        UnitMark("shield_lancers", "jibril", 24, 3, "jibril-4"),
        UnitMark("shield_lancers", "jibril", 5, 5, "jibril-5"),
        UnitMark("armoured_car", "resistance", 15, 20, "res-1"),
        UnitMark("hover_skiff", "resistance", 3, 14, "res-2"),
        UnitMark("militia_band", "resistance", 12, 17, "res-3"),
        UnitMark("militia_band", "resistance", 18, 18, "res-4"),
        UnitMark("rifle_section", "resistance", 22, 19, "res-5"),
        UnitMark("field_gun", "resistance", 8, 20, "res-6"),
    ]
    for u in units:  # make sure every unit stands on passable ground
        h = p.at(u.col, u.row)
        if p.ground[h] in ("water", "cliff", "bridge"):
            p.ground[h] = "clear"
    return p, units


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.make_maps", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "maps"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tiles = ROOT / "assets" / "tiles"

    def rel(name: str) -> str:
        return Path(_relpath(tiles / name, out)).as_posix()

    a = riverford()
    (out / "riverford.tmx").write_text(tmx_text(a, "Riverford Crossing", rel("hex-pointy.tsx"), []), encoding="utf-8")
    b, units = hollow_ridge()
    (out / "hollow-ridge.tmx").write_text(tmx_text(b, "Hollow Ridge", rel("hex-flat.tsx"), units), encoding="utf-8")
    print(f"wrote {out / 'riverford.tmx'} and {out / 'hollow-ridge.tmx'}")
    return 0


def _relpath(target: Path, start: Path) -> str:
    return os.path.relpath(target.resolve(), start.resolve())


if __name__ == "__main__":
    sys.exit(main())
