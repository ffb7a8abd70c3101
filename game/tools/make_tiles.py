"""Draw the project's hex tilesets (PNG + Tiled .tsx), pointy-top and flat-top.

    python -m game.tools.make_tiles [--out assets/tiles]

Everything is painted programmatically with pygame (no external art): each tile is drawn at
4x size, clipped to its hexagon and scaled down smoothly. Output is deterministic (seeded), so
re-running the generator reproduces the committed files byte for byte.

Tileset layout (both orientations, 8 columns):
  ids 0..TERRAIN_COUNT-1   full terrain tiles, property `terrain` (and `road` for road/bridge)
  ids ROAD_BASE + mask     transparent road overlays, property `road: true`; bit i of `mask` set
                           means the road leaves the hex towards axial direction i of
                           game.core.hexgrid.DIRECTIONS (mask 0: a lone road patch)
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import quoteattr

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from game.core.hexgrid import DIRECTIONS, Stagger  # noqa: E402
from game.core.hexlayout import HexLayout  # noqa: E402

SS = 4  # supersampling factor
COLUMNS = 8

Colour = tuple[int, int, int]
Pt = tuple[float, float]

# A consistent, slightly muted palette.
GRASS: Colour = (128, 164, 88)
GRASS_DARK: Colour = (104, 140, 70)
GRASS_LIGHT: Colour = (156, 188, 110)
FOREST: Colour = (52, 104, 56)
FOREST_DARK: Colour = (30, 72, 40)
FOREST_LIGHT: Colour = (84, 138, 74)
EARTH: Colour = (150, 128, 92)
EARTH_DARK: Colour = (112, 92, 64)
STONE: Colour = (156, 150, 140)
STONE_DARK: Colour = (104, 98, 92)
WATER: Colour = (58, 108, 176)
WATER_LIGHT: Colour = (120, 168, 220)
WATER_DARK: Colour = (40, 80, 140)
MUD: Colour = (96, 112, 84)
ROAD: Colour = (196, 172, 124)
ROAD_EDGE: Colour = (140, 118, 80)
ROOF_RED: Colour = (168, 70, 52)
ROOF_SLATE: Colour = (92, 98, 118)
WALL: Colour = (222, 206, 176)
SAND: Colour = (196, 178, 126)
CONCRETE: Colour = (150, 150, 144)
OUTLINE: Colour = (40, 36, 30)

# (name, terrain property, road property)
TERRAIN_TILES: list[tuple[str, str, bool]] = [
    ("clear", "clear", False),
    ("woods", "woods", False),
    ("dense_woods", "dense_woods", False),
    ("rough", "rough", False),
    ("swamp", "swamp", False),
    ("water", "water", False),
    ("building", "building", False),
    ("rubble", "rubble", False),
    ("hill", "hill", False),
    ("fortification", "fortification", False),
    ("bunker", "bunker", False),
    ("cliff", "cliff", False),
    ("road", "road", True),
    ("bridge", "road", True),
    ("ford", "swamp", False),
    ("town_square", "road", True),
]
TERRAIN_COUNT = 16
ROAD_BASE = 16  # tile id of road overlay mask 0
TILE_COUNT = ROAD_BASE + 64

TILE_IDS = {name: i for i, (name, _, _) in enumerate(TERRAIN_TILES)}


def geometry(pointy: bool) -> tuple[int, int, int]:
    """(tilewidth, tileheight, hexsidelength) of our tilesets: regular-looking hexes."""
    return (64, 74, 36) if pointy else (74, 64, 36)


# --------------------------------------------------------------------------- drawing helpers

class Canvas:
    """A tile being painted at SS x scale; coordinates given in tile pixels (1x)."""

    def __init__(self, w: int, h: int, corners: Sequence[Pt], rng: random.Random) -> None:
        self.w, self.h = w, h
        self.surf = pygame.Surface((w * SS, h * SS), pygame.SRCALPHA)
        self.corners = list(corners)
        self.rng = rng
        self.cx = sum(x for x, _ in corners) / 6
        self.cy = sum(y for _, y in corners) / 6

    def p(self, x: float, y: float) -> tuple[int, int]:
        return round(x * SS), round(y * SS)

    def fill(self, colour: Colour) -> None:
        self.surf.fill((*colour, 255))

    def noise(self, colours: Sequence[Colour], count: int, size: tuple[float, float] = (1.0, 2.5),
              alpha: int = 90) -> None:
        """Soft speckles for texture."""
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        for _ in range(count):
            x, y = self.rng.uniform(0, self.w), self.rng.uniform(0, self.h)
            r = self.rng.uniform(*size) * SS
            c = self.rng.choice(colours)
            pygame.draw.circle(layer, (*c, alpha), self.p(x, y), max(1, round(r)))
        self.surf.blit(layer, (0, 0))

    def circle(self, colour: Colour, x: float, y: float, r: float, alpha: int = 255, width: float = 0) -> None:
        if alpha >= 255:
            pygame.draw.circle(self.surf, colour, self.p(x, y), max(1, round(r * SS)), round(width * SS))
            return
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        pygame.draw.circle(layer, (*colour, alpha), self.p(x, y), max(1, round(r * SS)), round(width * SS))
        self.surf.blit(layer, (0, 0))

    def ellipse(self, colour: Colour, x: float, y: float, rx: float, ry: float, alpha: int = 255,
                width: float = 0) -> None:
        rect = pygame.Rect(0, 0, max(1, round(2 * rx * SS)), max(1, round(2 * ry * SS)))
        rect.center = self.p(x, y)
        if alpha >= 255:
            pygame.draw.ellipse(self.surf, colour, rect, round(width * SS))
            return
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        pygame.draw.ellipse(layer, (*colour, alpha), rect, round(width * SS))
        self.surf.blit(layer, (0, 0))

    def poly(self, colour: Colour, pts: Sequence[Pt], width: float = 0, alpha: int = 255) -> None:
        scaled = [self.p(x, y) for x, y in pts]
        if alpha >= 255:
            pygame.draw.polygon(self.surf, colour, scaled, round(width * SS))
            return
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        pygame.draw.polygon(layer, (*colour, alpha), scaled, round(width * SS))
        self.surf.blit(layer, (0, 0))

    def line(self, colour: Colour, a: Pt, b: Pt, width: float = 1.0, alpha: int = 255) -> None:
        if alpha >= 255:
            pygame.draw.line(self.surf, colour, self.p(*a), self.p(*b), max(1, round(width * SS)))
            return
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        pygame.draw.line(layer, (*colour, alpha), self.p(*a), self.p(*b), max(1, round(width * SS)))
        self.surf.blit(layer, (0, 0))

    def arc(self, colour: Colour, x: float, y: float, rx: float, ry: float, start: float, stop: float,
            width: float = 1.0, alpha: int = 255) -> None:
        rect = pygame.Rect(0, 0, max(2, round(2 * rx * SS)), max(2, round(2 * ry * SS)))
        rect.center = self.p(x, y)
        layer = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
        pygame.draw.arc(layer, (*colour, alpha), rect, start, stop, max(1, round(width * SS)))
        self.surf.blit(layer, (0, 0))

    def inside(self, x: float, y: float, margin: float = 4.0) -> bool:
        """True if (x, y) is inside the hexagon, at least `margin` px from every edge."""
        n = len(self.corners)
        for i in range(n):
            x1, y1 = self.corners[i]
            x2, y2 = self.corners[(i + 1) % n]
            ex, ey = x2 - x1, y2 - y1
            length = math.hypot(ex, ey) or 1.0
            nx, ny = -ey / length, ex / length
            if nx * (self.cx - x1) + ny * (self.cy - y1) < 0:
                nx, ny = -nx, -ny
            if nx * (x - x1) + ny * (y - y1) < margin:
                return False
        return True

    def scatter(self, count: int, margin: float, min_gap: float) -> list[Pt]:
        """Up to `count` random points inside the hex, `min_gap` apart, sorted top to bottom."""
        pts: list[Pt] = []
        for _ in range(count * 40):
            if len(pts) >= count:
                break
            x, y = self.rng.uniform(0, self.w), self.rng.uniform(0, self.h)
            if self.inside(x, y, margin) and all(math.hypot(x - a, y - b) >= min_gap for a, b in pts):
                pts.append((x, y))
        return sorted(pts, key=lambda p: p[1])

    def finish(self, clip: bool = True, rim: bool = True) -> pygame.Surface:
        """Clip to the hexagon (grown by half a pixel so neighbours meet without seams) and scale."""
        if rim:
            self.poly(OUTLINE, self.corners, width=1.2, alpha=38)
        if clip:
            mask = pygame.Surface(self.surf.get_size(), pygame.SRCALPHA)
            mask.fill((255, 255, 255, 0))
            grown = [(x + (x - self.cx) * 0.02, y + (y - self.cy) * 0.02) for x, y in self.corners]
            pygame.draw.polygon(mask, (255, 255, 255, 255), [self.p(x, y) for x, y in grown])
            self.surf.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        return pygame.transform.smoothscale(self.surf, (self.w, self.h))


# --------------------------------------------------------------------------- terrain painters

def darker(colour: Colour, by: int) -> Colour:
    return (max(0, colour[0] - by), max(0, colour[1] - by), max(0, colour[2] - by))


def grass(c: Canvas, base: Colour = GRASS) -> None:
    c.fill(base)
    c.noise([GRASS_DARK, GRASS_LIGHT, (140, 170, 90)], 140, (0.8, 2.2), 70)
    for _ in range(22):
        x, y = c.rng.uniform(0, c.w), c.rng.uniform(0, c.h)
        col = c.rng.choice([GRASS_DARK, GRASS_LIGHT])
        c.line(col, (x, y), (x + c.rng.uniform(-1.2, 1.2), y - c.rng.uniform(2, 3.5)), 0.7, 160)


def tree(c: Canvas, x: float, y: float, r: float, dark: Colour = FOREST_DARK, mid: Colour = FOREST,
         light: Colour = FOREST_LIGHT) -> None:
    c.ellipse((20, 30, 20), x + r * 0.35, y + r * 0.45, r * 1.05, r * 0.7, alpha=90)  # shadow
    c.line((88, 62, 40), (x, y + r * 0.2), (x, y + r * 0.9), max(1.0, r * 0.28))
    c.circle(dark, x, y, r)
    c.circle(mid, x - r * 0.15, y - r * 0.15, r * 0.78)
    c.circle(light, x - r * 0.35, y - r * 0.4, r * 0.35, alpha=200)


def paint_clear(c: Canvas) -> None:
    grass(c)
    for x, y in c.scatter(3, 8, 10):
        c.circle((220, 210, 120), x, y, 0.8, alpha=200)  # a few wild flowers


def paint_woods(c: Canvas) -> None:
    grass(c, (112, 150, 80))
    c.noise([FOREST, GRASS_DARK], 50, (1.5, 3.0), 60)
    for x, y in c.scatter(6, 9, 13):
        tree(c, x, y, c.rng.uniform(6.0, 7.5))


def paint_dense_woods(c: Canvas) -> None:
    c.fill((56, 92, 52))
    c.noise([FOREST_DARK, FOREST], 120, (1.5, 3.5), 90)
    for x, y in c.scatter(13, 5, 9):
        tree(c, x, y, c.rng.uniform(5.5, 7.0), (22, 58, 32), (40, 88, 48), (70, 120, 64))


def paint_rough(c: Canvas) -> None:
    c.fill((146, 136, 98))
    c.noise([EARTH, EARTH_DARK, (170, 156, 116), GRASS_DARK], 170, (0.8, 2.6), 80)
    for _ in range(5):  # cracks
        x, y = c.rng.uniform(10, c.w - 10), c.rng.uniform(10, c.h - 10)
        pts = [(x, y)]
        for _ in range(3):
            x, y = x + c.rng.uniform(-5, 5), y + c.rng.uniform(-4, 4)
            pts.append((x, y))
        for a, b in zip(pts, pts[1:], strict=False):
            c.line(EARTH_DARK, a, b, 0.7, 150)
    for x, y in c.scatter(9, 6, 7):
        r = c.rng.uniform(2.0, 4.0)
        c.ellipse((60, 50, 40), x + 1, y + 1.2, r, r * 0.7, alpha=90)
        c.ellipse(STONE_DARK, x, y, r, r * 0.72)
        c.ellipse(STONE, x - r * 0.2, y - r * 0.2, r * 0.72, r * 0.5)


def paint_swamp(c: Canvas) -> None:
    c.fill(MUD)
    c.noise([(80, 100, 70), (110, 128, 90), (70, 92, 80)], 140, (1.0, 3.0), 80)
    for x, y in c.scatter(6, 8, 12):
        rx = c.rng.uniform(5, 8)
        c.ellipse((52, 92, 100), x, y, rx, rx * 0.5)
        c.arc(WATER_LIGHT, x, y, rx * 0.7, rx * 0.3, 0.3, 2.6, 0.6, 150)
    for x, y in c.scatter(10, 5, 5):  # reed clumps
        for k in range(3):
            dx = (k - 1) * 1.3
            c.line((60, 84, 44), (x + dx, y), (x + dx * 1.8, y - c.rng.uniform(3.5, 5.5)), 0.8)
        c.circle((110, 80, 50), x + 0.5, y - 5, 0.8)


def water_base(c: Canvas, base: Colour = WATER) -> None:
    c.fill(base)
    c.noise([WATER_DARK, (70, 122, 190)], 90, (1.5, 4.0), 70)
    for _ in range(9):
        x, y = c.rng.uniform(6, c.w - 6), c.rng.uniform(6, c.h - 6)
        rx = c.rng.uniform(3.0, 6.0)
        c.arc(WATER_LIGHT, x, y, rx, rx * 0.45, 0.4, 2.7, 0.8, 190)


def paint_water(c: Canvas) -> None:
    water_base(c)


def house(c: Canvas, x: float, y: float, w: float, h: float, roof: Colour) -> None:
    """A little house seen from above at an angle: walls, a two-tone ridged roof, a chimney."""
    c.poly((30, 30, 30), [(x + 2, y + 2), (x + w + 2, y + 2), (x + w + 2, y + h + 3), (x + 2, y + h + 3)],
           alpha=90)
    wall_h = h * 0.3
    c.poly(WALL, [(x, y + h - wall_h), (x + w, y + h - wall_h), (x + w, y + h), (x, y + h)])
    c.line(OUTLINE, (x, y + h), (x + w, y + h), 0.6)
    for k in range(1, 3):  # windows
        wx = x + w * k / 3
        c.poly((70, 80, 100), [(wx - 1.2, y + h - wall_h * 0.7), (wx + 1.2, y + h - wall_h * 0.7),
                               (wx + 1.2, y + h - wall_h * 0.25), (wx - 1.2, y + h - wall_h * 0.25)])
    top, ridge = y, y + (h - wall_h) / 2
    dark = darker(roof, 40)
    c.poly(roof, [(x - 1, ridge), (x + w + 1, ridge), (x + w + 1, y + h - wall_h), (x - 1, y + h - wall_h)])
    c.poly(dark, [(x - 1, top), (x + w + 1, top), (x + w + 1, ridge), (x - 1, ridge)])
    c.line(OUTLINE, (x - 1, ridge), (x + w + 1, ridge), 0.7)
    c.poly(OUTLINE, [(x - 1, top), (x + w + 1, top), (x + w + 1, y + h - wall_h), (x - 1, y + h - wall_h)],
           width=0.6)
    for k in range(1, 4):  # roof tiles
        ty = top + (y + h - wall_h - top) * k / 4
        c.line(dark, (x, ty), (x + w, ty), 0.4, 140)
    c.poly((90, 70, 60), [(x + w * 0.7, top + 1), (x + w * 0.7 + 2.5, top + 1), (x + w * 0.7 + 2.5, top + 4),
                          (x + w * 0.7, top + 4)])


def paint_building(c: Canvas) -> None:
    grass(c, (132, 150, 100))
    c.noise([(168, 156, 124), (120, 132, 92)], 70, (1.0, 2.8), 80)
    cx, cy = c.cx, c.cy
    # garden walls / lanes between the houses
    c.line((176, 162, 126), (cx - 26, cy + 1), (cx + 26, cy + 1), 3.0, 200)
    c.line((176, 162, 126), (cx + 1, cy - 26), (cx + 1, cy + 26), 2.4, 170)
    house(c, cx - 23, cy - 21, 21, 19, ROOF_RED)
    house(c, cx + 4, cy - 18, 18, 16, ROOF_SLATE)
    house(c, cx - 20, cy + 5, 18, 15, (150, 96, 60))
    house(c, cx + 5, cy + 6, 17, 14, ROOF_RED)
    for x, y in ((cx + 21, cy - 1), (cx - 2, cy + 21)):
        tree(c, x, y, 3.2)


def paint_town_square(c: Canvas) -> None:
    c.fill((186, 170, 136))
    c.noise([(160, 146, 116), (206, 192, 160)], 120, (0.8, 2.0), 90)
    for k in range(-4, 5):  # cobbles
        c.line((150, 136, 108), (c.cx - 30, c.cy + k * 6), (c.cx + 30, c.cy + k * 6), 0.5, 120)
    c.circle((120, 130, 150), c.cx, c.cy, 5.5)  # fountain
    c.circle(WATER_LIGHT, c.cx, c.cy, 3.8)
    c.circle(OUTLINE, c.cx, c.cy, 5.5, width=0.6)


def paint_rubble(c: Canvas) -> None:
    c.fill((128, 118, 108))
    c.noise([STONE_DARK, STONE, (150, 120, 100)], 160, (0.8, 2.4), 90)
    for x, y in c.scatter(11, 5, 6):
        r = c.rng.uniform(2.5, 5.0)
        ang = c.rng.uniform(0, math.tau)
        pts = [(x + math.cos(ang + k * 2.1 + c.rng.uniform(-0.3, 0.3)) * r,
                y + math.sin(ang + k * 2.1 + c.rng.uniform(-0.3, 0.3)) * r * 0.8) for k in range(3)]
        col = c.rng.choice([(176, 96, 72), STONE, (200, 190, 170)])
        c.poly(col, pts)
        c.poly(OUTLINE, pts, width=0.5, alpha=180)
    for _ in range(3):  # charred beams
        x, y = c.rng.uniform(16, c.w - 16), c.rng.uniform(16, c.h - 16)
        a = c.rng.uniform(0, math.pi)
        c.line((60, 46, 36), (x, y), (x + math.cos(a) * 9, y + math.sin(a) * 9), 1.4)


def paint_hill(c: Canvas) -> None:
    c.fill((160, 150, 96))
    c.noise([(140, 130, 84), (182, 170, 116), GRASS_DARK], 150, (1.0, 2.8), 80)
    c.ellipse((110, 96, 58), c.cx + 4, c.cy + 5, 26, 20, alpha=90)  # shaded slope
    c.ellipse((196, 184, 126), c.cx - 3, c.cy - 2, 20, 15, alpha=110)  # lit slope
    # contours with downhill hatching (cartographic style)
    for k, (rx, ry) in enumerate([(24, 18), (16, 12), (8, 6)]):
        col = (118, 100, 62)
        c.ellipse(col, c.cx, c.cy + 2 - k, rx, ry, width=0.8, alpha=220)
        steps = int(rx * 1.4)
        for s in range(steps):
            a = math.tau * s / steps
            x1, y1 = c.cx + math.cos(a) * rx, c.cy + 2 - k + math.sin(a) * ry
            x2, y2 = c.cx + math.cos(a) * (rx + 3), c.cy + 2 - k + math.sin(a) * (ry + 3)
            c.line(col, (x1, y1), (x2, y2), 0.55, 170)
    c.ellipse((230, 220, 170), c.cx - 3, c.cy - 3, 5, 3, alpha=110)  # sunlit top


def paint_fortification(c: Canvas) -> None:
    c.fill((136, 124, 92))
    c.noise([EARTH_DARK, EARTH, (120, 130, 80)], 140, (0.8, 2.5), 80)
    # a ring of zig-zag trench with sandbags on the parapet
    n = 12
    pts = []
    for k in range(n + 1):
        a = math.tau * k / n
        rr = 20 if k % 2 == 0 else 15
        pts.append((c.cx + math.cos(a) * rr, c.cy + math.sin(a) * rr * 0.9))
    for p1, p2 in zip(pts, pts[1:], strict=False):
        c.line((70, 56, 40), p1, p2, 3.2)
        c.line((100, 84, 60), p1, p2, 1.6)
    for k in range(n * 2):
        a = math.tau * (k + 0.5) / (n * 2)
        x, y = c.cx + math.cos(a) * 23, c.cy + math.sin(a) * 21
        c.ellipse(SAND, x, y, 2.6, 1.7)
        c.ellipse(OUTLINE, x, y, 2.6, 1.7, width=0.4, alpha=160)


def paint_bunker(c: Canvas) -> None:
    grass(c, (120, 140, 90))
    pts = [(c.cx + math.cos(math.tau * k / 8 + 0.39) * 19, c.cy + math.sin(math.tau * k / 8 + 0.39) * 16)
           for k in range(8)]
    c.poly((40, 40, 40), [(x + 2, y + 3) for x, y in pts], alpha=100)
    c.poly(CONCRETE, pts)
    c.noise([(130, 130, 124), (170, 170, 164)], 40, (0.8, 1.6), 80)
    inner = [(c.cx + (x - c.cx) * 0.6, c.cy + (y - c.cy) * 0.6) for x, y in pts]
    c.poly((176, 176, 170), inner)
    c.poly(OUTLINE, pts, width=0.8)
    c.poly((20, 20, 20), [(c.cx - 9, c.cy + 8), (c.cx + 9, c.cy + 8), (c.cx + 8, c.cy + 11), (c.cx - 8, c.cy + 11)])


def paint_cliff(c: Canvas) -> None:
    c.fill((112, 100, 88))
    c.noise([(90, 80, 70), (140, 128, 112), (70, 62, 56)], 180, (1.0, 3.0), 90)
    for k in range(5):
        y0 = c.cy - 16 + k * 8
        x = c.cx - 26
        pts = [(x, y0)]
        while x < c.cx + 26:
            x += c.rng.uniform(3, 6)
            pts.append((x, y0 + c.rng.uniform(-3, 3)))
        for a, b in zip(pts, pts[1:], strict=False):
            c.line((50, 44, 40), a, b, 1.0)
            c.line((170, 160, 146), (a[0], a[1] - 1.2), (b[0], b[1] - 1.2), 0.5, 150)


def paint_road_tile(c: Canvas) -> None:
    c.fill((176, 156, 112))
    c.noise([ROAD_EDGE, ROAD, (160, 140, 100)], 160, (0.8, 2.2), 90)


def paint_bridge(c: Canvas) -> None:
    water_base(c)
    deck_h = 16
    top, bot = c.cy - deck_h / 2, c.cy + deck_h / 2
    c.poly((20, 30, 50), [(0, top + 3), (c.w, top + 3), (c.w, bot + 4), (0, bot + 4)], alpha=110)
    c.poly((150, 110, 70), [(0, top), (c.w, top), (c.w, bot), (0, bot)])
    x = 0.0
    while x < c.w:  # planks
        c.line((110, 78, 48), (x, top), (x, bot), 0.6)
        x += 3.2
    for yy in (top, bot):
        c.line((80, 56, 34), (0, yy), (c.w, yy), 1.6)
    for px in range(6, c.w, 14):
        c.circle((70, 50, 30), px, top, 1.4)
        c.circle((70, 50, 30), px, bot, 1.4)


def paint_ford(c: Canvas) -> None:
    water_base(c, (92, 140, 176))
    c.noise([(150, 170, 160), (120, 150, 150)], 90, (1.5, 3.5), 90)
    for x, y in c.scatter(10, 6, 7):
        r = c.rng.uniform(2.0, 3.2)
        c.ellipse(STONE_DARK, x, y, r, r * 0.75)
        c.ellipse((190, 186, 176), x - 0.5, y - 0.6, r * 0.6, r * 0.42)


PAINTERS: dict[str, Callable[[Canvas], None]] = {
    "clear": paint_clear, "woods": paint_woods, "dense_woods": paint_dense_woods, "rough": paint_rough,
    "swamp": paint_swamp, "water": paint_water, "building": paint_building, "rubble": paint_rubble,
    "hill": paint_hill, "fortification": paint_fortification, "bunker": paint_bunker,
    "cliff": paint_cliff, "road": paint_road_tile, "bridge": paint_bridge, "ford": paint_ford,
    "town_square": paint_town_square,
}


def paint_road_overlay(c: Canvas, mask: int, spokes: Sequence[Pt]) -> None:
    """Dirt road from the centre out through the edges in `mask` (transparent elsewhere)."""
    c.surf.fill((0, 0, 0, 0))
    ends = [spokes[i] for i in range(6) if mask & (1 << i)]
    width = 9.0
    for ex, ey in ends:
        c.line(ROAD_EDGE, (c.cx, c.cy), (ex, ey), width + 2.4)
    c.circle(ROAD_EDGE, c.cx, c.cy, (width + 2.4) / 2 if ends else 7.5)
    for ex, ey in ends:
        c.line(ROAD, (c.cx, c.cy), (ex, ey), width)
    c.circle(ROAD, c.cx, c.cy, width / 2 if ends else 6.3)
    for ex, ey in ends:  # wheel ruts
        dx, dy = ex - c.cx, ey - c.cy
        n = math.hypot(dx, dy) or 1.0
        ox, oy = -dy / n * 2.0, dx / n * 2.0
        for s in (-1, 1):
            c.line((170, 146, 102), (c.cx + ox * s, c.cy + oy * s), (ex + ox * s, ey + oy * s), 0.6, 200)


# --------------------------------------------------------------------------- tileset assembly

def draw_tileset(pointy: bool, seed: int = 7) -> tuple[pygame.Surface, list[tuple[int, dict[str, object]]]]:
    """The tileset image and each tile's custom properties."""
    tw, th, side = geometry(pointy)
    lay = HexLayout(tw, th, side, Stagger("y" if pointy else "x", "odd"), 3, 3)
    corners_at_origin = [(x - lay.tile_origin(1, 1)[0], y - lay.tile_origin(1, 1)[1])
                         for x, y in lay.tile_corners(1, 1)]
    centre = lay.hex_center(lay.stagger.to_hex(1, 1))
    origin = lay.tile_origin(1, 1)
    spokes: list[Pt] = []
    for d in DIRECTIONS:
        nx, ny = lay.hex_center(lay.stagger.to_hex(1, 1) + d)
        # the midpoint between the two centres lies on the shared edge (a bit beyond, to overlap)
        mx, my = (centre[0] + nx) / 2, (centre[1] + ny) / 2
        spokes.append((mx - origin[0] + (mx - centre[0]) * 0.06, my - origin[1] + (my - centre[1]) * 0.06))
    rows = math.ceil(TILE_COUNT / COLUMNS)
    sheet = pygame.Surface((COLUMNS * tw, rows * th), pygame.SRCALPHA)
    props: list[tuple[int, dict[str, object]]] = []
    for tid in range(TILE_COUNT):
        rng = random.Random(seed * 1000 + tid * 7 + (0 if pointy else 500))
        c = Canvas(tw, th, corners_at_origin, rng)
        if tid < len(TERRAIN_TILES):
            name, terrain, road = TERRAIN_TILES[tid]
            PAINTERS[name](c)
            img = c.finish()
            p: dict[str, object] = {"terrain": terrain}
            if road:
                p["road"] = True
            props.append((tid, p))
        elif tid >= ROAD_BASE:
            mask = tid - ROAD_BASE
            paint_road_overlay(c, mask, spokes)
            img = c.finish(rim=False)
            props.append((tid, {"road": True}))
        else:
            continue
        sheet.blit(img, ((tid % COLUMNS) * tw, (tid // COLUMNS) * th))
    return sheet, props


def tsx_text(name: str, image_file: str, pointy: bool, image_size: tuple[int, int],
             props: list[tuple[int, dict[str, object]]]) -> str:
    tw, th, _ = geometry(pointy)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<tileset version="1.10" tiledversion="1.10.2" name={quoteattr(name)} tilewidth="{tw}" '
        f'tileheight="{th}" tilecount="{TILE_COUNT}" columns="{COLUMNS}">',
        f' <image source={quoteattr(image_file)} width="{image_size[0]}" height="{image_size[1]}"/>',
    ]
    for tid, p in props:
        lines.append(f' <tile id="{tid}">')
        lines.append("  <properties>")
        for key, value in p.items():
            if isinstance(value, bool):
                lines.append(f'   <property name="{key}" type="bool" value="{"true" if value else "false"}"/>')
            else:
                lines.append(f"   <property name={quoteattr(key)} value={quoteattr(str(value))}/>")
        lines.append("  </properties>")
        lines.append(" </tile>")
    lines.append("</tileset>")
    return "\n".join(line for line in lines if line) + "\n"


LICENSE_TEXT = """Hex tilesets in this folder (hex-pointy.png, hex-pointy.tsx, hex-flat.png, hex-flat.tsx)

Made by the Ascension Isle tactics project itself: every pixel is drawn by the project's own
program game/tools/make_tiles.py (pygame drawing calls, no outside images). Re-run it with
`python -m game.tools.make_tiles` to reproduce them.

Dedicated to the public domain under CC0 1.0 Universal
(https://creativecommons.org/publicdomain/zero/1.0/): copy, change and use them for anything,
no permission or credit needed.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.tools.make_tiles", description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[2] / "assets" / "tiles"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for pointy, stem in ((True, "hex-pointy"), (False, "hex-flat")):
        sheet, props = draw_tileset(pointy)
        pygame.image.save(sheet, str(out / f"{stem}.png"))
        (out / f"{stem}.tsx").write_text(tsx_text(stem, f"{stem}.png", pointy, sheet.get_size(), props),
                                         encoding="utf-8")
        print(f"wrote {out / stem}.png and .tsx ({TILE_COUNT} tiles)")
    (out / "LICENSE").write_text(LICENSE_TEXT, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
