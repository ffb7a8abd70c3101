"""Headless drawing with pygame (no window needed): the map layer, unit counters, the hex grid.

Public API (the client and the `render` command use it):

    render_map_layer(map_data, scale=1.0) -> Surface      all visible layers, file order
    draw_grid(surface, layout, scale=1.0, origin=(0, 0), hexes=None, colour=..., width=1)
    draw_units(surface, layout, counters, scale=1.0, origin=(0, 0))
    CounterView(hex, colour, unit_class, label, strength, max_strength, markers, selected)
    counter_surface(unit_type, unit, colour, size, markers) -> Surface   (battle scene hook)
    draw_objectives(surface, layout, hexes, scale=1.0, origin=(0, 0))   gold outline + pennant
    render_picture(map_data, counters=(), scale=1.0, grid=False, objectives=()) -> Surface
        (grown by layer_margins(map_data) where layers are offset past the map's edge, as Tiled does)
    setup_counters(setup) / state_counters(setup, state) -> list[CounterView]

Surface pixel = origin + map pixel * scale everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pygame

from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout
from game.io.tmx import MapData
from game.render.counters import CounterView, counter_size, counter_surface, draw_units, render_counter
from game.render.tiles import clear_caches, layer_margins, render_map_layer

__all__ = [
    "CounterView", "clear_caches", "counter_size", "layer_margins", "counter_surface", "draw_grid", "draw_objectives", "draw_units",
    "objective_hexes", "render_counter", "render_map_layer", "render_picture", "setup_counters",
    "state_counters",
]


def draw_grid(surface: pygame.Surface, layout: HexLayout, scale: float = 1.0,
              origin: tuple[float, float] = (0, 0), hexes: Iterable[Hex] | None = None,
              colour: tuple[int, int, int, int] | tuple[int, int, int] = (20, 20, 20, 90), width: int = 1) -> None:
    """Outline every hex of the map (or just `hexes`)."""
    if hexes is None:
        hexes = (h for _, _, h in layout.stagger.iter_grid(layout.width, layout.height))
    ox, oy = origin
    layer = surface
    alpha = len(colour) == 4 and colour[3] < 255
    if alpha:
        layer = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    rgb = tuple(colour[:3])
    for h in hexes:
        pts = [(ox + x * scale, oy + y * scale) for x, y in layout.hex_corners(h)]
        pygame.draw.lines(layer, rgb, True, pts, width)
    if alpha:
        layer.set_alpha(colour[3] if len(colour) == 4 else 255)
        surface.blit(layer, (0, 0))


def draw_objectives(surface: pygame.Surface, layout: HexLayout, hexes: Iterable[Hex], scale: float = 1.0,
                    origin: tuple[float, float] = (0, 0)) -> None:
    """Mark objective hexes: a gold hex outline and a small pennant at the top of the hex."""
    ox, oy = origin
    width = max(2, round(3 * scale))
    for h in hexes:
        pts = [(ox + (x + (layout.hex_center(h)[0] - x) * 0.08) * scale,
                oy + (y + (layout.hex_center(h)[1] - y) * 0.08) * scale) for x, y in layout.hex_corners(h)]
        pygame.draw.lines(surface, (20, 16, 8), True, pts, width + 2)
        pygame.draw.lines(surface, (240, 196, 60), True, pts, width)
        cx, cy = layout.hex_center(h)
        top = oy + (cy - layout.th * 0.42) * scale
        px = ox + (cx + layout.tw * 0.22) * scale
        pole = max(8.0, layout.th * 0.3 * scale)
        pygame.draw.line(surface, (30, 24, 16), (px, top), (px, top + pole), max(1, round(2 * scale)))
        flag = [(px, top), (px + pole * 0.7, top + pole * 0.22), (px, top + pole * 0.44)]
        pygame.draw.polygon(surface, (240, 196, 60), flag)
        pygame.draw.polygon(surface, (20, 16, 8), flag, 1)


def render_picture(map_data: MapData, counters: Iterable[CounterView] = (), scale: float = 1.0,
                   grid: bool = False, objectives: Iterable[Hex] = ()) -> pygame.Surface:
    """The map with optional grid, objective marks and unit counters on top (what `render` saves)."""
    surf = render_map_layer(map_data, scale, grow=True)  # layers offset past the map's edge kept, as in Tiled
    left, top, _, _ = layer_margins(map_data)
    origin = (left * scale, top * scale)
    if grid:
        hexes = map_data.board.terrain.keys() if map_data.has_terrain else map_data.painted_hexes()
        draw_grid(surf, map_data.layout, scale, origin, hexes=hexes)
    draw_objectives(surf, map_data.layout, objectives, scale, origin)
    draw_units(surf, map_data.layout, counters, scale, origin)
    return surf


def objective_hexes(setup: Any) -> list[Hex]:
    """The hexes named by a BattleSetup's objectives (hold objectives)."""
    seen: list[Hex] = []
    for o in setup.objectives:
        for h in o.hexes:
            if h not in seen:
                seen.append(h)
    return seen


def _side_colours(setup: Any) -> dict[str, tuple[int, int, int]]:
    return {s.id: tuple(s.colour) for s in setup.sides}


def setup_counters(setup: Any) -> list[CounterView]:
    """Counters for the units of a BattleSetup as a scenario places them."""
    colours = _side_colours(setup)
    out: list[CounterView] = []
    for u in setup.units:
        t = setup.catalogue.units.get(u.type)
        most = t.strength if t is not None else (u.strength or 1)
        out.append(CounterView(u.at, colours.get(u.side, (160, 160, 160)), t.unit_class if t else "",
                               (t.label or t.name[:3]) if t else "?", u.strength or most, most))
    return out


def state_counters(setup: Any, state: Any) -> list[CounterView]:
    """Counters for the live units of a game state (anything with .units of unit states)."""
    colours = _side_colours(setup)
    out: list[CounterView] = []
    for u in state.units.values():
        if getattr(u, "destroyed", False):
            continue
        t = setup.catalogue.units.get(u.type_id)
        markers = [m for m in ("pinned", "out_of_action") if getattr(u, m, None)]
        stance = getattr(u, "stance", "none")
        if stance and stance != "none":
            markers.append(str(stance))
        most = t.strength if t is not None else u.strength
        out.append(CounterView(u.hex, colours.get(u.side, (160, 160, 160)), t.unit_class if t else "",
                               (t.label or t.name[:3]) if t else "?", u.strength, most, tuple(markers)))
    return out
