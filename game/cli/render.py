"""`python -m game render PATH --out FILE.png`: draw a map, a scenario or a save headless.

A bare .tmx at scale 1 gives an image of the map's full pixel size with every tile where Tiled
draws it. A set-up file or a save of any system is drawn by that system's picture (Plugin.picture,
found through the table: this module imports no system): a tactical scenario or save its map and
units, a campaign its island with armies, routes and battles, a mass battle its board.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pygame

from game import paths
from game.core.errors import UserError
from game.core.plugin import PictureOptions, Plugin, Table
from game.io.datafiles import read_yaml
from game.io.sniff import sniff_kind
from game.io.tmx import load_map
from game.render import CounterView, render_picture
from game.render.picture import check_size
from game.replay import load_game

KINDS = ("a map (.tmx), a scenario of any system (tactical, campaign, mass battle) or a save (.yaml)")


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "render", help="render a map, scenario or save to a PNG image (no window needed)",
        description="Render PATH (a Tiled .tmx map, a scenario .yaml of any system or a save .yaml) to a "
        "PNG: a tactical map with its units, a campaign's island with its armies, routes and battles, a "
        "mass battle's board. At scale 1 a map's image has the map's full pixel size, tiles exactly where "
        "Tiled draws them.",
    )
    p.add_argument("path", metavar="PATH", help="map (.tmx), scenario (.yaml) or save (.yaml) of any system")
    p.add_argument("--out", required=True, metavar="FILE.png", help="image file to write")
    p.add_argument("--scale", type=float, default=1.0, metavar="S", help="zoom factor (default 1)")
    p.add_argument("--grid", action="store_true", help="draw the hex grid")
    p.add_argument("--no-units", action="store_true", help="leave the unit (and army) counters out")
    p.set_defaults(func=run)


def _plain_map(path: Path) -> tuple[Any, list[Any]]:
    """A bare Tiled map (no system's): its tiles, and the units on its object layer in neutral
    colours by side."""
    md = load_map(path)
    counters: list[Any] = []
    for u in md.units:
        shade = 90 + (sum(map(ord, u.side)) * 37) % 140
        counters.append(CounterView(u.hex, (shade, 120, 255 - shade), "", u.unit_type[:3].upper(), 1, 1))
    return md, counters


def what_to_draw(table: Table, path: Path) -> tuple[Plugin | None, Any, Any]:
    """(the system, its loaded set-up, the game's state or None) for a set-up file or a save;
    (None, None, None) for a bare map. UserError naming the file for anything else."""
    kind = sniff_kind(path, table.sniff)
    if kind == "map" or path.suffix.lower() in (".tmj", ".tsj", ".tj"):  # JSON: refused saying how to re-save
        return None, None, None
    if kind == "save":
        game = load_game(table, path, verify=False)
        return game.plugin, game.scenario, game.state
    plugin = table.plugin_of_setup(kind)
    if plugin is not None:
        return plugin, plugin.load(path), None
    if kind == "broken":
        read_yaml(path)  # raises the located syntax error
    what = f"a {kind.replace('-', ' ')} file" if kind and kind not in ("yaml", "commands") else "not a set-up"
    raise UserError(f"{path}: {what}; render draws {KINDS}")


def picture(table: Table, path: Path, options: PictureOptions) -> Any:
    """The image of any file `render` draws (a pygame Surface), through its system's picture."""
    plugin, loaded, state = what_to_draw(table, path)
    if plugin is None:
        md, counters = _plain_map(path)
        width, height = md.layout.map_pixel_size
        check_size(width, height, options)
        return render_picture(md, counters if options.units else [], options.scale, options.grid)
    if plugin.picture is None:
        raise UserError(f"{path}: the {plugin.system.title} has no picture to render")
    return plugin.picture(loaded, state, options)


def run(args: argparse.Namespace) -> int:
    path = Path(args.path)
    if not paths.exists(path):
        raise UserError(f"{path}: no such file")
    if not (args.scale > 0) or args.scale > 16:
        raise UserError(f"--scale must be between 0 and 16, got {args.scale}")
    out = Path(args.out)
    if out.suffix.lower() not in (".png", ".bmp", ".tga", ".jpg", ".jpeg"):
        raise UserError(f"--out {out}: use a .png file name")
    if out.parent and not paths.exists(out.parent):
        raise UserError(f"--out {out}: folder {out.parent} does not exist")

    surf = picture(args.table, path, PictureOptions(args.scale, args.grid, not args.no_units))
    try:
        pygame.image.save(surf, str(out))
    except (pygame.error, OSError) as exc:
        raise UserError(f"--out {out}: cannot write the image: {exc}") from None
    w, h = surf.get_size()
    print(f"wrote {out} ({w} x {h} px)")
    return 0
