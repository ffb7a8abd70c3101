"""The static map, drawn once per zoom level and kept: panning only blits the cached surface.

The picture comes from game.render (the Tiled tile layers) when the battle has a Tiled map; a
board built in code (tests, generated boards) is painted as flat hexes in its terrain colours.
`builds` counts how many times a surface was actually drawn, so tests can check the cache.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from game.board import Board
from game.hexlayout import HexLayout
from game.rules.ail.models import RulesData

Builder = Callable[[float], pygame.Surface]
BACKGROUND = (14, 16, 19)


class MapCache:
    def __init__(self, builder: Builder, max_levels: int = 4) -> None:
        self._builder = builder
        self._surfaces: dict[float, pygame.Surface] = {}
        self._order: list[float] = []
        self._max = max_levels
        self.builds = 0

    def get(self, scale: float) -> pygame.Surface:
        surf = self._surfaces.get(scale)
        if surf is None:
            surf = self._builder(scale)
            self.builds += 1
            self._surfaces[scale] = surf
            self._order.append(scale)
            while len(self._order) > self._max:  # keep memory bounded on huge maps
                self._surfaces.pop(self._order.pop(0), None)
        else:
            self._order.remove(scale)
            self._order.append(scale)
        return surf

    def clear(self) -> None:
        self._surfaces.clear()
        self._order.clear()


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
