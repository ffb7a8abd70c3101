"""Generate the two small teaching maps used by the demonstration scenarios (deterministic).

    python -m game.tools.make_demo_maps [--out maps]

- demo-movement.tmx (16 x 10, pointy-top): an east-west road, a mire of swamp with two
  hexes where a unit is boxed in, woods, rubble and a stream with a ford. Used by
  maps/demo-movement.yaml to show roads and their per-action bonus, terrain costs, the dash
  and its ban on difficult terrain, and being stuck.
- demo-overwatch.tmx (14 x 11, pointy-top): a town street running north-south between
  buildings, crossed by an alley. Used by maps/demo-overwatch.yaml to show a dash across a
  watched street and a charge into a guarding unit.

Built with the shared map painter of game.tools.make_maps (same tilesets, same TMX writer).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from game.core.hexgrid import Stagger, neighbours
from game.tools.make_maps import Painter, tmx_text

ROOT = Path(__file__).resolve().parents[2]


def demo_movement() -> Painter:
    p = Painter(16, 10, Stagger("y", "odd"), random.Random(5))
    # a mire of swamp in the south-middle; the two boxed-in hexes get swamp all around
    for col, row in ((5, 6), (9, 7)):
        centre = p.at(col, row)
        p.paint([centre, *neighbours(centre)], "swamp")
    p.paint([p.at(7, 6), p.at(7, 7), p.at(8, 8), p.at(6, 8)], "swamp")
    # woods north of the road, dense in the middle; rubble of a farm by the road
    p.paint([p.at(c, r) for c, r in ((3, 0), (4, 0), (3, 1), (4, 1), (5, 1), (10, 0), (11, 0), (11, 1))], "woods")
    p.paint([p.at(4, 0), p.at(11, 0)], "dense_woods")
    p.paint([p.at(13, 4), p.at(14, 4), p.at(13, 5)], "rubble")
    p.paint([p.at(12, 7), p.at(13, 7), p.at(12, 8), p.at(13, 8), p.at(14, 8)], "woods")
    p.paint([p.at(2, 6), p.at(2, 7), p.at(1, 8)], "rough")
    # a stream from north to south at column 15, crossed by the road at a ford
    for row in range(10):
        p.paint([p.at(15, row)], "water")
    road = [p.at(col, 2) for col in range(16)]
    p.road(road, exit_first=p.at(0, 2) + (p.at(0, 2) - p.at(1, 2)), exit_last=None)
    for h in road:
        if p.ground[h] == "water":
            p.ground[h] = "ford"
        elif p.ground[h] != "clear":
            p.ground[h] = "clear"
    return p


def demo_overwatch() -> Painter:
    p = Painter(14, 11, Stagger("y", "odd"), random.Random(6))
    # the street: column 7 from north to south; buildings either side, gaps for the alley at row 5
    street = [p.at(7, row) for row in range(11)]
    for row in range(11):
        if row in (4, 5, 6):
            continue
        for col in (5, 6, 8, 9):
            if (col, row) not in ((5, 0), (9, 10), (6, 9), (8, 1)):
                p.paint([p.at(col, row)], "building")
    p.paint([p.at(6, 2), p.at(8, 8)], "rubble")
    # open ground west (the attackers' side) with some woods; a walled garden east
    p.paint([p.at(c, r) for c, r in ((1, 1), (2, 1), (1, 2), (2, 8), (1, 9), (2, 9))], "woods")
    p.paint([p.at(11, 3), p.at(12, 3), p.at(11, 7)], "fortification")
    p.road(street, exit_first=street[0] + (street[0] - street[1]), exit_last=street[-1] + (street[-1] - street[-2]))
    alley = [p.at(col, 5) for col in range(2, 13)]
    p.road(alley)
    for h in street + alley:
        p.ground[h] = "clear"
    return p


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.make_demo_maps", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "maps"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    tileset = Path(os.path.relpath((ROOT / "assets" / "tiles" / "hex-pointy.tsx").resolve(), out.resolve())).as_posix()
    (out / "demo-movement.tmx").write_text(tmx_text(demo_movement(), "Demonstration: movement", tileset, []),
                                           encoding="utf-8")
    (out / "demo-overwatch.tmx").write_text(tmx_text(demo_overwatch(), "Demonstration: overwatch and guard",
                                                     tileset, []), encoding="utf-8")
    print(f"wrote {out / 'demo-movement.tmx'} and {out / 'demo-overwatch.tmx'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
