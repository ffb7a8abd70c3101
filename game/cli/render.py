"""`python -m game render PATH --out FILE.png`: draw a map, a scenario or a save headless.

A bare .tmx at scale 1 gives an image of the map's full pixel size with every tile where Tiled
draws it. A scenario adds its units; a save shows the units as they stand in the saved game.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from game import paths
from game.core.errors import UserError


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "render", help="render a map, scenario or save to a PNG image (no window needed)",
        description="Render PATH (a Tiled .tmx map, a scenario .yaml or a save .yaml) to a PNG. "
        "At scale 1 a map's image has the map's full pixel size, tiles exactly where Tiled draws them.",
    )
    p.add_argument("path", metavar="PATH", help="map (.tmx), scenario (.yaml) or save (.yaml)")
    p.add_argument("--out", required=True, metavar="FILE.png", help="image file to write")
    p.add_argument("--scale", type=float, default=1.0, metavar="S", help="zoom factor (default 1)")
    p.add_argument("--grid", action="store_true", help="draw the hex grid")
    p.add_argument("--no-units", action="store_true", help="leave the unit counters out")
    p.set_defaults(func=run)


def _save_picture(table: Any, path: Path) -> tuple[Any, list[Any], list[Any]]:
    """(map, counters, objective hexes) of a saved game, units as they stand in it."""
    from game.render import objective_hexes, state_counters
    from game.replay import load_game

    game = load_game(table, path, verify=False)
    scenario = game.scenario
    return scenario.map, state_counters(scenario.setup, game.state), objective_hexes(scenario.setup)


def picture_inputs(table: Any, path: Path) -> tuple[Any, list[Any], list[Any]]:
    """(MapData, counters, objective hexes) for any renderable file."""
    from game.io.sniff import sniff_kind

    kind = sniff_kind(path, table.sniff)
    if kind == "map" or path.suffix.lower() in (".tmj", ".tsj", ".tj"):  # JSON: refused saying how to re-save
        from game.io.tmx import load_map

        md = load_map(path)
        from game.render import CounterView

        counters: list[Any] = []
        for u in md.units:  # units on the map's object layer, in neutral colours by side
            shade = 90 + (sum(map(ord, u.side)) * 37) % 140
            counters.append(CounterView(u.hex, (shade, 120, 255 - shade), "", u.unit_type[:3].upper(), 1, 1))
        return md, counters, []
    if kind == "scenario":
        from game.render import objective_hexes, setup_counters

        sc = table.plugin_named(table.default).load(path)
        return sc.map, setup_counters(sc.setup), objective_hexes(sc.setup)
    if kind == "save":
        return _save_picture(table, path)
    if kind == "broken":
        from game.io.datafiles import read_yaml

        read_yaml(path)  # raises the located syntax error
    raise UserError(f"{path}: not a map (.tmx), scenario or save (.yaml)")


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    path = Path(args.path)
    if not paths.exists(path):
        raise UserError(f"{path}: no such file")
    if not (args.scale > 0) or args.scale > 16:
        raise UserError(f"--scale must be between 0 and 16, got {args.scale}")
    out = Path(args.out)
    if out.suffix.lower() not in (".png", ".bmp", ".tga", ".jpg", ".jpeg"):
        raise UserError(f"--out {out}: use a .png file name")
    md, counters, objectives = picture_inputs(args.table, path)
    mw, mh = md.layout.map_pixel_size
    if mw * mh * args.scale * args.scale > 80_000_000:
        raise UserError(f"--scale {args.scale:g} would make a {round(mw * args.scale)} x {round(mh * args.scale)} px "
                        "image; use a smaller scale")
    import pygame

    from game.render import render_picture

    surf = render_picture(md, [] if args.no_units else counters, args.scale, args.grid, objectives)
    if out.parent and not paths.exists(out.parent):
        raise UserError(f"--out {out}: folder {out.parent} does not exist")
    try:
        pygame.image.save(surf, str(out))
    except (pygame.error, OSError) as exc:
        raise UserError(f"--out {out}: cannot write the image: {exc}") from None
    w, h = surf.get_size()
    print(f"wrote {out} ({w} x {h} px)")
    return 0
