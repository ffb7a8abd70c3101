"""The static map, drawn once per zoom level and kept: a frame only blits cached pictures.

Every zoom level is cut into square chunks, drawn the first time they are seen and then kept
(least recently used dropped past MAX_CHUNKS), so a frame, a pan or a zoom step on a huge map costs
only the chunks on screen. A Tiled map's chunks are drawn straight from its tiles at the chunk's
scale (TiledPicture.region: the whole map is never drawn); a board built in code (tests, generated
boards) is painted once at zoom 1 as flat hexes in its terrain colours and chunks are scaled from
it. The hex grid is baked into the chunks.

`builds` counts the chunks (and whole layers) actually drawn, so tests can check the cache.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import pygame

from game.core.board import Board
from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout
from game.io.tmx import check_map_pixels
from game.render.tiles import MapRegions, render_map_picture
from game.shell.draw import for_display
from game.shell.toolkit.blits import blit

Builder = Callable[[float], pygame.Surface]
BACKGROUND = (14, 16, 19)
GRID_RGBA = (18, 22, 18, 80)
CHUNK = 512          # chunk side in screen pixels
MAX_CHUNKS = 120     # about 120 MB of cached chunks at most
MARGIN = 2           # source pixels read around a chunk so scaled edges match their neighbours


FULL_INDEX_HEXES = 64 * 64  # maps up to this many hexes index their grid lines at once


class MapCache:
    """Cached map pictures by zoom level, in chunks, with the grid baked in."""

    def __init__(self, base: Callable[[], pygame.Surface], layout: HexLayout, hexes: Iterable[Hex],
                 max_chunks: int = MAX_CHUNKS) -> None:
        self._base_fn = base
        # a picture that can draw parts of itself at any scale: chunks never need the whole map
        self._region: Callable[[float, pygame.Rect], pygame.Surface] | None = getattr(base, "region", None)
        self._base: pygame.Surface | None = None
        self.layout = layout
        self._chunks: OrderedDict[tuple[float, bool, int, int], pygame.Surface] = OrderedDict()
        self._max = max_chunks
        self.builds = 0  # chunks (and whole pictures) made
        self.paints = 0  # views painted straight (paint)
        # a small map's whole index costs less than working its buckets out one by one
        small = layout.width * layout.height <= FULL_INDEX_HEXES
        # each hex's corners on the map, worked out once, when a grid first draws the hex (small
        # maps only: a 200 x 200 map's would take some 30 MB); the index needs only their extent
        self._corners: dict[Hex, list[tuple[float, float]]] | None = {} if small else None
        self._extent = corner_extent(layout)
        self._lines: pygame.Surface | None = None  # the grid's drawing layer (_draw_grid)
        self._buckets: HexBuckets | dict[tuple[int, int], list[Hex]] = (
            _hex_buckets(layout, hexes) if small else HexBuckets(layout, hexes))

    def hex_corners(self, h: Hex) -> list[tuple[float, float]]:
        """`layout.hex_corners(h)`, remembered on a small map."""
        memo = self._corners
        if memo is None:
            return self.layout.hex_corners(h)
        pts = memo.get(h)
        if pts is None:
            pts = memo[h] = self.layout.hex_corners(h)
        return pts

    def hex_box(self, h: Hex) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of a hex's corners on the map (`corner_extent`)."""
        x, y = self.layout.hex_origin(h)
        left, top, right, bottom = self._extent
        return x + left, y + top, x + right, y + bottom

    # ------------------------------------------------------------------ pictures
    def base(self) -> pygame.Surface:
        """The whole map at zoom 1 (drawn once)."""
        if self._base is None:
            self._base = self._base_fn()
            self.builds += 1
        return self._base

    def size_at(self, scale: float) -> tuple[int, int]:
        w, h = self.layout.map_pixel_size
        return max(1, round(w * scale)), max(1, round(h * scale))

    def chunk(self, scale: float, grid: bool, i: int, j: int) -> pygame.Surface:
        key = (scale, grid, i, j)
        surf = self._chunks.get(key)
        if surf is not None:
            self._chunks.move_to_end(key)
            return surf
        surf = self._build_chunk(scale, grid, i, j)
        self.builds += 1
        self._chunks[key] = surf
        while len(self._chunks) > self._max:
            self._chunks.popitem(last=False)
        return surf

    def _build_chunk(self, scale: float, grid: bool, i: int, j: int) -> pygame.Surface:
        zw, zh = self.size_at(scale)
        x0, y0 = i * CHUNK, j * CHUNK
        cw, ch = min(CHUNK, zw - x0), min(CHUNK, zh - y0)
        if self._region is not None:
            out = self._region(scale, pygame.Rect(x0, y0, max(1, cw), max(1, ch)))
            if grid:
                self._draw_grid(out, scale, x0, y0)
            return for_display(out)
        base = self.base()
        bw, bh = base.get_size()
        out = pygame.Surface((max(1, cw), max(1, ch)))
        out.fill(BACKGROUND)
        sx0 = max(0, math.floor(x0 / scale) - MARGIN)
        sy0 = max(0, math.floor(y0 / scale) - MARGIN)
        sx1 = min(bw, math.ceil((x0 + cw) / scale) + MARGIN)
        sy1 = min(bh, math.ceil((y0 + ch) / scale) + MARGIN)
        if sx1 > sx0 and sy1 > sy0:
            src = base.subsurface(pygame.Rect(sx0, sy0, sx1 - sx0, sy1 - sy0))
            if scale == 1:
                piece = src
            else:
                piece = pygame.transform.smoothscale(
                    src, (max(1, round((sx1 - sx0) * scale)), max(1, round((sy1 - sy0) * scale))))
            out.blit(piece, (round(sx0 * scale) - x0, round(sy0 * scale) - y0))
        if grid:
            self._draw_grid(out, scale, x0, y0)
        return for_display(out)

    def _draw_grid(self, out: pygame.Surface, scale: float, x0: int, y0: int) -> None:
        w, h = out.get_size()
        out.blit(self._grid_lines(scale, x0, y0, w, h), (0, 0), pygame.Rect(0, 0, w, h))

    def _grid_lines(self, scale: float, x0: int, y0: int, w: int, h: int,
                    within: pygame.Rect | None = None) -> pygame.Surface:
        """The grid lines of the w x h piece of the zoomed map at (x0, y0), in the top-left w x h of
        a transparent layer (kept between pieces: a new one for each chunk was a fresh megabyte of
        memory every time). A line's pixels depend on where the piece cuts it (pygame clips a line
        to the surface before stepping along it), so a chunk's lines are always drawn on a layer of
        the chunk's; `within` (in the piece's pixels): only the hexes whose outline may reach it, and
        only that part of the layer is cleared (the caller reads no more of it)."""
        lines = self._lines
        if lines is None or lines.get_width() < w or lines.get_height() < h:
            lines = self._lines = pygame.Surface((max(w, CHUNK), max(h, CHUNK)), pygame.SRCALPHA)
        seen: set[Hex] = set()
        part = pygame.Rect(0, 0, w, h) if within is None else within.inflate(4, 4)  # (a line's rounding)
        lines.fill((0, 0, 0, 0), part.clip(pygame.Rect(0, 0, w, h)))  # (what is read of the layer)
        bx0, by0 = int((x0 + part.x) / scale) // BUCKET, int((y0 + part.y) / scale) // BUCKET
        bx1, by1 = int((x0 + part.right) / scale) // BUCKET, int((y0 + part.bottom) / scale) // BUCKET
        for bx in range(bx0, bx1 + 1):
            for by in range(by0, by1 + 1):
                for hx in self._buckets.get((bx, by), ()):
                    if hx in seen:
                        continue
                    seen.add(hx)
                    if within is not None:  # (most hexes of the buckets miss a view's edge piece)
                        left, top, right, bottom = self.hex_box(hx)
                        if (right * scale - x0 < part.x or left * scale - x0 > part.right
                                or bottom * scale - y0 < part.y or top * scale - y0 > part.bottom):
                            continue
                    pts = [(x * scale - x0, y * scale - y0) for x, y in self.hex_corners(hx)]
                    pygame.draw.lines(lines, GRID_RGBA, True, pts, 1)
        return lines

    # ------------------------------------------------------------------ drawing
    def blit(self, surface: pygame.Surface, scale: float, grid: bool, origin: tuple[int, int],
             view: pygame.Rect) -> None:
        """Blit the chunks of the map that show inside `view` (map top-left at `origin`)."""
        i0, j0, i1, j1 = self._span(scale, origin, view)
        only_make = isinstance(surface, _NullSurface)  # (prepare: the chunks made, nothing drawn)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                pic = self.chunk(scale, grid, i, j)
                if not only_make:  # (the view's edges cut the chunks there to any width: see blits.py)
                    blit(surface, pic, (origin[0] + i * CHUNK, origin[1] + j * CHUNK))

    def _span(self, scale: float, origin: tuple[int, int], view: pygame.Rect) -> tuple[int, int, int, int]:
        """The chunks (i0, j0, i1, j1) that show inside `view` (map top-left at `origin`)."""
        zw, zh = self.size_at(scale)
        left, top = view.x - origin[0], view.y - origin[1]
        return (max(0, left // CHUNK), max(0, top // CHUNK), min((zw - 1) // CHUNK, (left + view.w - 1) // CHUNK),
                min((zh - 1) // CHUNK, (top + view.h - 1) // CHUNK))

    def any_made(self, scale: float, grid: bool, origin: tuple[int, int], view: pygame.Rect) -> bool:
        """Whether any chunk that shows inside `view` is made already."""
        i0, j0, i1, j1 = self._span(scale, origin, view)
        return any((scale, grid, i, j) in self._chunks for j in range(j0, j1 + 1) for i in range(i0, i1 + 1))

    def paint(self, surface: pygame.Surface, scale: float, grid: bool, origin: tuple[int, int],
              view: pygame.Rect) -> bool:
        """Draw the map inside `view` straight from the map's region painter, making no chunk: the
        same pixels as `blit` (tested), for a picture of the view alone when no chunk of it is made
        yet (the first frame, the first at a new zoom: the chunks around the view cover up to 3.5
        times its area; they are made when the picture is drawn again with its margin). False,
        drawing nothing, when the map has no region painter."""
        if self._region is None:
            return False
        zw, zh = self.size_at(scale)
        area = view.move(-origin[0], -origin[1]).clip(pygame.Rect(0, 0, zw, zh))  # zoomed map pixels
        if area.w <= 0 or area.h <= 0:
            return True
        out = self._region(scale, area)
        self.paints += 1
        if grid:  # each chunk's lines, as the chunk draws them (see _grid_lines)
            i0, j0, i1, j1 = self._span(scale, (0, 0), area)
            for j in range(j0, j1 + 1):
                for i in range(i0, i1 + 1):
                    x0, y0 = i * CHUNK, j * CHUNK
                    cw, ch = min(CHUNK, zw - x0), min(CHUNK, zh - y0)
                    part = area.clip(pygame.Rect(x0, y0, cw, ch)).move(-x0, -y0)  # the chunk's pixels shown
                    out.blit(self._grid_lines(scale, x0, y0, cw, ch, part),
                             (x0 + part.x - area.x, y0 + part.y - area.y), part)
        surface.blit(out, (origin[0] + area.x, origin[1] + area.y))
        return True

    def prepare(self, scale: float, grid: bool, origin: tuple[int, int], view: pygame.Rect) -> None:
        """Build the chunks `blit` will need (so drawing only reads the cache)."""
        self.blit(_NullSurface(), scale, grid, origin, view)  # type: ignore[arg-type]

    def get(self, scale: float, grid: bool = False) -> pygame.Surface:
        """The whole map at one zoom as one surface (the `render` command, benchmarks)."""
        zw, zh = self.size_at(scale)
        out = pygame.Surface((zw, zh))
        self.blit(out, scale, grid, (0, 0), out.get_rect())
        return out

    def clear(self) -> None:
        """Forget the zoomed chunks (the full-size picture is kept)."""
        self._chunks.clear()


class _NullSurface:
    """Where `prepare` has `blit` draw: nowhere."""


BUCKET = 256  # world pixels per bucket of the hex index used to draw the grid of one chunk


def corner_extent(layout: HexLayout) -> tuple[float, float, float, float]:
    """How far a tile's corners reach from its origin (left, top, right, bottom): the same for
    every tile of a layout, since each tile's corners are its origin plus the same offsets
    (`HexLayout.tile_corners`). For a sane tile that is its box (0, 0, tw, th); for a side longer
    than the tile allows for the stagger, a little more."""
    x, y = layout.tile_origin(0, 0)
    pts = layout.tile_corners(0, 0)
    xs = [p[0] - x for p in pts]
    ys = [p[1] - y for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def _hex_buckets(layout: HexLayout, hexes: Iterable[Hex]) -> dict[tuple[int, int], list[Hex]]:
    """Every bucket at once, from every hex's box (its origin and the layout's `corner_extent`:
    no hex's corners are worked out). The straightforward index: the tests' oracle for
    HexBuckets, which works from each hex's corners."""
    out: dict[tuple[int, int], list[Hex]] = {}
    left, top, right, bottom = corner_extent(layout)
    origin = layout.hex_origin
    for h in hexes:
        x, y = origin(h)
        for bx in range(int(x + left) // BUCKET, int(x + right) // BUCKET + 1):
            for by in range(int(y + top) // BUCKET, int(y + bottom) // BUCKET + 1):
                out.setdefault((bx, by), []).append(h)
    return out


class HexBuckets:
    """The hexes whose corners' box reaches into each BUCKET x BUCKET square of the map, worked out
    for one square when a chunk's grid first asks for it (the same hexes as `_hex_buckets`), so
    opening a battle does not go over every hex of the map: only the rows and columns whose tiles
    can reach the square are looked at, from the layout's arithmetic."""

    def __init__(self, layout: HexLayout, hexes: Iterable[Hex]) -> None:
        self.layout = layout
        self.hexes: Mapping[Hex, Any] | frozenset[Hex] = (
            hexes if isinstance(hexes, Mapping | frozenset) else frozenset(hexes))
        self._done: dict[tuple[int, int], list[Hex]] = {}

    def get(self, key: tuple[int, int], default: Iterable[Hex] = ()) -> Iterable[Hex]:
        found = self._done.get(key)
        if found is None:
            found = self._done[key] = self._bucket(*key)
        return found or default

    def _bucket(self, bx: int, by: int) -> list[Hex]:
        lay = self.layout
        tw, th = lay.tw, lay.th
        x0, x1, y0, y1 = bx * BUCKET, (bx + 1) * BUCKET, by * BUCKET, (by + 1) * BUCKET
        if lay.stagger.axis == "y":
            col_pitch, row_pitch = tw + lay.side_x, lay.row_height
            shift_x, shift_y = lay.column_width, 0
        else:
            col_pitch, row_pitch = lay.column_width, th + lay.side_y
            shift_x, shift_y = 0, lay.row_height
        # a tile's box is [x, x + tw] x [y, y + th]; the one more row / column each way is slack
        cols = range(math.floor((x0 - tw - shift_x) / col_pitch) - 1, math.floor(x1 / col_pitch) + 2)
        rows = range(math.floor((y0 - th - shift_y) / row_pitch) - 1, math.floor(y1 / row_pitch) + 2)
        to_hex, hexes = lay.stagger.to_hex, self.hexes
        out: list[Hex] = []
        for row in rows:
            for col in cols:
                h = to_hex(col, row)
                if h not in hexes:
                    continue
                pts = lay.tile_corners(col, row)
                xs = [p[0] for p in pts]
                ys = [p[1] for p in pts]
                if (int(min(xs)) // BUCKET <= bx <= int(max(xs)) // BUCKET
                        and int(min(ys)) // BUCKET <= by <= int(max(ys)) // BUCKET):
                    out.append(h)
        return out


def board_picture(board: Board, layout: HexLayout,
                  colours: Mapping[str, tuple[int, int, int]]) -> Callable[[], pygame.Surface]:
    """Flat-colour hexes for a board without Tiled art (zoom 1); `colours`: terrain name -> colour
    (the rule system's terrain table says which)."""

    def build() -> pygame.Surface:
        w, h = layout.map_pixel_size
        surf = pygame.Surface((max(1, w), max(1, h)))
        surf.fill(BACKGROUND)
        for hx, name in board.terrain.items():
            colour = colours.get(name, (200, 0, 200))
            pygame.draw.polygon(surf, colour, layout.hex_corners(hx))
            if board.is_road(hx):
                pygame.draw.circle(surf, (196, 176, 128), layout.hex_center(hx), max(2, layout.tw * 0.18))
        return surf

    return build


def tiled_picture(map_data: Any) -> Callable[[], pygame.Surface]:
    """The Tiled tile layers at zoom 1 through game.render (engineer M's renderer)."""

    return TiledPicture(map_data)


class TiledPicture:
    """The map picture of a Tiled map: called, the whole map at zoom 1 (one opaque surface, the
    map's empty corners in the view's colour); `region(scale, area)`, only a part of it, drawn at
    that scale (game.render.tiles.MapRegions), which MapCache uses for its chunks so that the whole
    map is never drawn. `region` is None for maps the region painter cannot draw."""

    def __init__(self, map_data: Any) -> None:
        self.map_data = map_data
        self._regions = MapRegions(map_data) if MapRegions.supported(map_data) else None
        if self._regions is None:  # the whole map will be drawn at zoom 1: refused now if too large
            check_map_pixels(map_data.layout, map_data.path)

    def __call__(self) -> pygame.Surface:
        return render_map_picture(self.map_data, BACKGROUND)

    @property
    def region(self) -> Callable[[float, pygame.Rect], pygame.Surface] | None:
        regions = self._regions
        if regions is None:
            return None
        return lambda scale, area: regions.draw(scale, area, BACKGROUND)
