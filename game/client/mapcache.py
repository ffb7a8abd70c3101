"""The static map, drawn once per zoom level and kept: panning only blits the cached surface.

The picture comes from game.render (the Tiled tile layers) when the battle has a Tiled map; a
board built in code (tests, generated boards) is painted as flat hexes in its terrain colours.
`builds` counts how many times a surface was actually drawn, so tests can check the cache.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pygame

from game.board import Board
from game.hexgrid import Hex
from game.hexlayout import HexLayout
from game.rules.ail.models import RulesData

Builder = Callable[[float], pygame.Surface]
GridDrawer = Callable[[pygame.Surface, float], None]
BACKGROUND = (14, 16, 19)


class MapCache:
    """Surfaces by (zoom, grid shown): the grid is baked in, so a frame blits one opaque image."""

    def __init__(self, builder: Builder, grid: GridDrawer | None = None, max_levels: int = 4) -> None:
        self._builder = builder
        self._grid = grid
        self._surfaces: dict[tuple[float, bool], pygame.Surface] = {}
        self._order: list[tuple[float, bool]] = []
        self._max = max_levels
        self.builds = 0

    def get(self, scale: float, grid: bool = False) -> pygame.Surface:
        key = (scale, grid and self._grid is not None)
        surf = self._surfaces.get(key)
        if surf is None:
            surf = self._builder(scale)
            if key[1] and self._grid is not None:
                surf = surf.copy()
                self._grid(surf, scale)
            self.builds += 1
            self._surfaces[key] = surf
            self._order.append(key)
            while len(self._order) > self._max:  # keep memory bounded on huge maps
                self._surfaces.pop(self._order.pop(0), None)
        elif self._order[-1] != key:
            self._order.remove(key)
            self._order.append(key)
        return surf

    def clear(self) -> None:
        self._surfaces.clear()
        self._order.clear()


def grid_drawer(layout: HexLayout, hexes: Iterable[Hex]) -> GridDrawer:
    """Thin dark hex outlines drawn into the cached map surface (game.render draws them)."""
    from game.render import draw_grid

    cells = list(hexes)

    def run(surface: pygame.Surface, scale: float) -> None:
        draw_grid(surface, layout, scale, hexes=cells, colour=(20, 24, 20, 80))

    return run


def board_builder(board: Board, layout: HexLayout, rules: RulesData) -> Builder:
    """Flat-colour hexes for a board without Tiled art."""

    def build(scale: float) -> pygame.Surface:
        w, h = layout.map_pixel_size
        surf = pygame.Surface((max(1, round(w * scale)), max(1, round(h * scale))))
        surf.fill(BACKGROUND)
        for hx, name in board.terrain.items():
            terrain = rules.terrain.get(name)
            colour = terrain.colour if terrain is not None else (200, 0, 200)
            pts = [(x * scale, y * scale) for x, y in layout.hex_corners(hx)]
            pygame.draw.polygon(surf, colour, pts)
            if board.is_road(hx):
                cx, cy = layout.hex_center(hx)
                pygame.draw.circle(surf, (196, 176, 128), (cx * scale, cy * scale),
                                   max(2, layout.tw * scale * 0.18))
        return surf.convert() if pygame.display.get_surface() is not None else surf

    return build


def tiled_builder(map_data: Any) -> Builder:
    """The Tiled tile layers through game.render (engineer M's renderer)."""
    from game.render import render_map_layer

    def build(scale: float) -> pygame.Surface:
        layer = render_map_layer(map_data, scale)
        surf = pygame.Surface(layer.get_size())
        surf.fill(BACKGROUND)  # the map's empty corners take the view's colour
        surf.blit(layer, (0, 0))
        return surf.convert() if pygame.display.get_surface() is not None else surf

    return build
