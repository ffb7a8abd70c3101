"""Hex <-> pixel layout matching Tiled's hexagonal renderer exactly. Pure: no pygame.

Tiled describes a hexagonal map by its tile size (tilewidth x tileheight), the length of the
hex's flat side (hexsidelength) and the stagger (axis x or y, index odd or even). From those,
Tiled derives (all integer arithmetic; tile sizes are first rounded DOWN to an even number):

    staggered axis y (pointy-top)            staggered axis x (flat-top)
    side_x = 0, side_y = hexsidelength       side_x = hexsidelength, side_y = 0
    off_x = (tw - side_x) // 2               (same formulas)
    off_y = (th - side_y) // 2
    column_width = off_x + side_x
    row_height   = off_y + side_y

Tile (col, row) has its bounding box's top-left at

    axis y: x = col * (tw + side_x) + (column_width if row is staggered), y = row * row_height
    axis x: x = col * column_width, y = row * (th + side_y) + (row_height if col is staggered)

where a row/column is staggered when its parity is odd (index "odd") or even (index "even").
The map's pixel size is

    axis y: w = width * (tw + side_x) + (column_width if height > 1), h = height * row_height + off_y
    axis x: w = width * column_width + off_x, h = height * (th + side_y) + (row_height if width > 1)

A tile image is drawn with its bottom-left corner at (x, y + th) plus the tileset's tile
offset, so images taller than the grid stick out upwards (Tiled's default "tile" render size).
The hexagon of a cell is the octagon (0, th-off_y) (0, off_y) (off_x, 0) (tw-off_x, 0)
(tw, off_y) (tw, th-off_y) (tw-off_x, th) (off_x, th) with its repeated points removed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

from game.core.hexgrid import Hex, Stagger

Point = tuple[float, float]


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of one Tiled hexagonal map (at scale 1, map pixel coordinates)."""

    tilewidth: int
    tileheight: int
    hexsidelength: int
    stagger: Stagger = field(default_factory=Stagger)
    width: int = 1
    height: int = 1

    def __post_init__(self) -> None:
        if self.tilewidth < 2 or self.tileheight < 2:
            raise ValueError(f"tile size must be at least 2x2, got {self.tilewidth}x{self.tileheight}")
        if self.hexsidelength < 0:
            raise ValueError(f"hexsidelength must be >= 0, got {self.hexsidelength}")
        limit = self.tilewidth if self.stagger.axis == "x" else self.tileheight
        if self.hexsidelength > limit:
            raise ValueError(f"hexsidelength {self.hexsidelength} is longer than the tile ({limit} px)")

    # ------------------------------------------------------------------ Tiled's derived sizes
    # (worked out once per layout: the map cache and the renderer ask for them per cell)
    @cached_property
    def tw(self) -> int:
        """Tile width as Tiled uses it (rounded down to even)."""
        return self.tilewidth & ~1

    @cached_property
    def th(self) -> int:
        """Tile height as Tiled uses it (rounded down to even)."""
        return self.tileheight & ~1

    @cached_property
    def side_x(self) -> int:
        return self.hexsidelength if self.stagger.axis == "x" else 0

    @cached_property
    def side_y(self) -> int:
        return self.hexsidelength if self.stagger.axis == "y" else 0

    @cached_property
    def off_x(self) -> int:
        return (self.tw - self.side_x) // 2

    @cached_property
    def off_y(self) -> int:
        return (self.th - self.side_y) // 2

    @cached_property
    def column_width(self) -> int:
        return self.off_x + self.side_x

    @cached_property
    def row_height(self) -> int:
        return self.off_y + self.side_y

    def staggered(self, n: int) -> bool:
        """True if row n (axis y) or column n (axis x) is one of the shifted ones."""
        return self._staggered(n)

    def _staggered(self, n: int) -> bool:
        odd = (n & 1) == 1
        return odd if self.stagger.index == "odd" else not odd

    @cached_property
    def map_pixel_size(self) -> tuple[int, int]:
        """(width, height) of the whole map in pixels, as Tiled computes it."""
        if self.stagger.axis == "x":
            w = self.width * self.column_width + self.off_x
            h = self.height * (self.th + self.side_y)
            if self.width > 1:
                h += self.row_height
            return w, h
        w = self.width * (self.tw + self.side_x)
        h = self.height * self.row_height + self.off_y
        if self.height > 1:
            w += self.column_width
        return w, h

    # ------------------------------------------------------------------ tiles
    def tile_origin(self, col: int, row: int) -> tuple[int, int]:
        """Top-left corner of tile (col, row)'s bounding box, exactly as Tiled places it."""
        if self.stagger.axis == "x":
            y = row * (self.th + self.side_y)
            if self._staggered(col):
                y += self.row_height
            return col * self.column_width, y
        x = col * (self.tw + self.side_x)
        if self._staggered(row):
            x += self.column_width
        return x, row * self.row_height

    def tile_image_position(self, col: int, row: int, image_height: int,
                            tile_offset: tuple[int, int] = (0, 0)) -> tuple[int, int]:
        """Where Tiled draws the top-left of a tile image of `image_height` pixels in (col, row).

        Images are bottom-aligned to the cell (taller images extend upwards), then shifted by
        the tileset's tile offset.
        """
        x, y = self.tile_origin(col, row)
        return x + tile_offset[0], y + self.th - image_height + tile_offset[1]

    def tile_center(self, col: int, row: int) -> Point:
        x, y = self.tile_origin(col, row)
        return x + self.tw / 2, y + self.th / 2

    def tile_corners(self, col: int, row: int) -> list[Point]:
        """The six corners of tile (col, row)'s hexagon, clockwise from the left/upper-left."""
        x, y = self.tile_origin(col, row)
        tw, th, ox, oy = self.tw, self.th, self.off_x, self.off_y
        if self.stagger.axis == "y":  # pointy top: ox == tw/2
            pts = [(0, th - oy), (0, oy), (ox, 0), (tw, oy), (tw, th - oy), (ox, th)]
        else:  # flat top: oy == th/2
            pts = [(0, oy), (ox, 0), (tw - ox, 0), (tw, oy), (tw - ox, th), (ox, th)]
        return [(float(x + px), float(y + py)) for px, py in pts]

    # ------------------------------------------------------------------ hexes
    def hex_center(self, h: Hex) -> Point:
        col, row = self.stagger.to_offset(h)
        return self.tile_center(col, row)

    def hex_corners(self, h: Hex) -> list[Point]:
        col, row = self.stagger.to_offset(h)
        return self.tile_corners(col, row)

    def hex_origin(self, h: Hex) -> tuple[int, int]:
        col, row = self.stagger.to_offset(h)
        return self.tile_origin(col, row)

    def pixel_to_tile(self, x: float, y: float) -> tuple[int, int]:
        """The tile (col, row) whose hexagon contains map pixel (x, y) (any point, even off-map)."""
        if self.stagger.axis == "y":
            row0 = math.floor(y / self.row_height)
            cands = []
            for row in (row0 - 1, row0, row0 + 1):
                shift = self.column_width if self._staggered(row) else 0
                col0 = math.floor((x - shift) / (self.tw + self.side_x))
                cands += [(c, row) for c in (col0 - 1, col0, col0 + 1)]
        else:
            col0 = math.floor(x / self.column_width)
            cands = []
            for col in (col0 - 1, col0, col0 + 1):
                shift = self.row_height if self._staggered(col) else 0
                row0 = math.floor((y - shift) / (self.th + self.side_y))
                cands += [(col, r) for r in (row0 - 1, row0, row0 + 1)]
        # The hex in which the point lies deepest (largest distance to the nearest edge):
        # exact inside ordinary hexes, and a fair split of the pixel-wide overlaps that
        # Tiled's integer geometry leaves when sizes are odd.
        # Each edge's inward normal is worked out once per layout (every hexagon is the same
        # shape, placed at whole pixels): the same sums _depth makes, without the square roots.
        edges = self._edges
        best = cands[0]
        best_depth = -math.inf
        origin = self.tile_origin
        for col, row in cands:
            ox, oy = origin(col, row)
            lx, ly = x - ox, y - oy
            depth = min([nx * (lx - x1) + ny * (ly - y1) for nx, ny, x1, y1 in edges] or [math.inf])
            if depth > best_depth:
                best, best_depth = (col, row), depth
        return best

    @cached_property
    def _edges(self) -> tuple[tuple[float, float, float, float], ...]:
        """(inward unit normal, first corner) of each edge of the hexagon of a tile at (0, 0),
        as _depth works them out (edges of no length left out)."""
        poly, (cx, cy) = self.tile_corners(0, 0), self.tile_center(0, 0)
        x0, y0 = self.tile_origin(0, 0)
        out = []
        for i, (x1, y1) in enumerate(poly):
            x2, y2 = poly[(i + 1) % len(poly)]
            ex, ey = x2 - x1, y2 - y1
            length = math.hypot(ex, ey)
            if length == 0:
                continue
            nx, ny = -ey / length, ex / length
            if nx * (cx - x1) + ny * (cy - y1) < 0:
                nx, ny = -nx, -ny
            out.append((nx, ny, x1 - x0, y1 - y0))
        return tuple(out)

    def pixel_to_hex(self, x: float, y: float) -> Hex:
        """The hex under map pixel (x, y)."""
        col, row = self.pixel_to_tile(x, y)
        return self.stagger.to_hex(col, row)


def _depth(poly: list[Point], centre: Point, x: float, y: float) -> float:
    """Signed distance from (x, y) to the nearest edge of convex `poly`: > 0 inside."""
    cx, cy = centre
    depth = math.inf
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        length = math.hypot(ex, ey)
        if length == 0:
            continue
        nx, ny = -ey / length, ex / length
        if nx * (cx - x1) + ny * (cy - y1) < 0:  # make the normal point inwards
            nx, ny = -nx, -ny
        depth = min(depth, nx * (x - x1) + ny * (y - y1))
    return depth
