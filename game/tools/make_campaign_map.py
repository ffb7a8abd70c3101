"""Generate the campaign island map, maps/campaign/ascension-isle.tmx, reproducibly.

    python -m game.tools.make_campaign_map [--out PATH] [--seed N]

A flat-top hex map (the project's hex-flat tileset) of an original island: a mountain spine
with hills on its flanks, forests, coastal marsh, a river from the mountains to the sea, towns
joined by roads, and fortresses at the passes. The same seed always writes the same file.
"""

from __future__ import annotations

import argparse
import math
import random
from pathlib import Path

from game.core.hexgrid import Stagger, line
from game.core.hexlayout import HexLayout

WIDTH, HEIGHT = 48, 34
STAGGER = Stagger("x", "odd")
LAYOUT = HexLayout(74, 64, 36, STAGGER, WIDTH, HEIGHT)
# local tile ids of assets/tiles/hex-flat.tsx (game/tools/make_tiles.py TERRAIN_TILES order)
CLEAR, WOODS, DENSE, ROUGH, SWAMP, WATER, BUILDING, RUBBLE, HILL, FORT, BUNKER, CLIFF, ROAD, BRIDGE, FORD, SQUARE = range(16)

TOWNS: dict[str, tuple[int, int]] = {
    "Port Halcyon": (9, 24), "Greywater": (16, 9), "Saltmere": (38, 25), "Highcairn": (25, 14),
    "Emberfield": (31, 6), "Lowmarch": (21, 27), "Cinder Bay": (41, 12),
}
FORTS: dict[str, tuple[int, int]] = {"Fort Warden": (23, 18), "Stonegate": (28, 11), "Westwatch": (12, 16)}
ROADS = [("Port Halcyon", "Westwatch"), ("Westwatch", "Greywater"), ("Greywater", "Highcairn"),
         ("Highcairn", "Stonegate"), ("Stonegate", "Emberfield"), ("Emberfield", "Cinder Bay"),
         ("Cinder Bay", "Saltmere"), ("Saltmere", "Lowmarch"), ("Lowmarch", "Port Halcyon"),
         ("Highcairn", "Fort Warden"), ("Fort Warden", "Lowmarch")]


def _noise(rng: random.Random, n: int) -> list[tuple[float, float, float, float]]:
    return [(rng.uniform(0, 2 * math.pi), rng.uniform(0.15, 0.5), rng.uniform(0.2, 0.7), rng.uniform(0, 2 * math.pi))
            for _ in range(n)]


def _field(waves: list[tuple[float, float, float, float]], x: float, y: float) -> float:
    return 2.5 * sum(a * math.sin(f * (x * math.cos(d) + y * math.sin(d)) * 6 + ph) for d, a, f, ph in waves) / len(waves)


def generate(seed: int = 11) -> list[list[int]]:
    rng = random.Random(seed)
    coast, wood, wet = _noise(rng, 6), _noise(rng, 5), _noise(rng, 4)
    grid = [[WATER] * WIDTH for _ in range(HEIGHT)]
    for row in range(HEIGHT):
        for col in range(WIDTH):
            x = (col - WIDTH / 2) / (WIDTH / 2)
            y = (row - HEIGHT / 2) / (HEIGHT / 2)
            d = math.hypot(x * 1.02, y * 1.1)
            if d + 0.12 * _field(coast, x, y) > 0.97:
                continue
            spine = abs(y + 0.55 * x - 0.15 * math.sin(3 * x))
            t = CLEAR
            if spine < 0.07 and -0.55 < x < 0.65:
                t = CLIFF
            elif spine < 0.17 and -0.7 < x < 0.75:
                t = HILL
            elif _field(wood, x, y) > 0.25:
                t = DENSE if _field(wood, x * 1.7, y * 1.7) > 0.45 else WOODS
            elif d > 0.72 and _field(wet, x, y) > 0.2:
                t = SWAMP
            elif _field(wet, x * 2, y * 2) > 0.6:
                t = ROUGH
            grid[row][col] = t
    # the river: from the mountains near Highcairn down to the south coast
    c, r = 27, 15
    while 0 <= r < HEIGHT and grid[r][c] != WATER:
        if grid[r][c] != CLIFF:
            grid[r][c] = FORD
        r += 1
        if r % 3 == 0:
            c += 1 if (r // 3) % 2 else -1
    for a, b in ROADS:
        pa, pb = {**TOWNS, **FORTS}[a], {**TOWNS, **FORTS}[b]
        for h in line(STAGGER.to_hex(*pa), STAGGER.to_hex(*pb)):
            cc, rr = STAGGER.to_offset(h)
            if grid[rr][cc] == FORD:
                grid[rr][cc] = BRIDGE
            elif grid[rr][cc] not in (WATER,):
                grid[rr][cc] = ROAD
    for name, (cc, rr) in TOWNS.items():
        grid[rr][cc] = SQUARE if name in ("Port Halcyon", "Saltmere", "Highcairn") else BUILDING
    for cc, rr in FORTS.values():
        grid[rr][cc] = FORT
    return grid


def to_tmx(grid: list[list[int]]) -> str:
    csv = ",\n".join(",".join(str(t + 1) for t in row) for row in grid)
    objects = []
    oid = 1
    for kind, places in (("town", TOWNS), ("fortress", FORTS)):
        for name, (c, r) in places.items():
            x, y = LAYOUT.tile_center(c, r)
            objects.append(f'  <object id="{oid}" name="{name}" type="{kind}" x="{x:.1f}" y="{y:.1f}">\n'
                           f'   <point/>\n  </object>')
            oid += 1
    objs = "\n".join(objects)
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<map version="1.10" tiledversion="1.10.2" orientation="hexagonal" renderorder="right-down" '
            f'width="{WIDTH}" height="{HEIGHT}" tilewidth="74" tileheight="64" infinite="0" hexsidelength="36" '
            f'staggeraxis="x" staggerindex="odd" nextlayerid="3" nextobjectid="{oid}">\n'
            f' <properties>\n  <property name="title" value="Ascension Isle"/>\n </properties>\n'
            f' <tileset firstgid="1" source="../../assets/tiles/hex-flat.tsx"/>\n'
            f' <layer id="1" name="ground" width="{WIDTH}" height="{HEIGHT}">\n  <data encoding="csv">\n'
            f'{csv}\n</data>\n </layer>\n'
            f' <objectgroup id="2" name="places">\n{objs}\n </objectgroup>\n</map>\n')


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "maps" / "campaign" / "ascension-isle.tmx"))
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    Path(args.out).write_text(to_tmx(generate(args.seed)), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
