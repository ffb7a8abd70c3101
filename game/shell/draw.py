"""Drawing helpers of the battle view: hex overlays, paths, markers, the odds bar chart.

Everything here paints onto a surface from the values it is given and changes nothing else.
Unit counters come from game.render.counters when present (engineer M's art).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

import pygame

from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout
from game.shell import fonts

Colour = tuple[int, int, int]

MOVE_COLOUR = (80, 170, 255)
DASH_COLOUR = (255, 128, 32)
ROAD_COLOUR = (255, 240, 120)
TARGET_COLOUR = (255, 70, 60)
NO_CHANCE_COLOUR = (120, 120, 128)  # a target that cannot be hit (0%): still selectable
SELECT_COLOUR = (255, 255, 255)
HOVER_COLOUR = (255, 255, 255)
DANGER_COLOUR = (255, 60, 40)


def for_display(surf: pygame.Surface) -> pygame.Surface:
    """`surf` in the window's pixel format (blits fastest): converted only when it is not already
    (a surface made after the window opened has its format: converting it was a copy per chunk)."""
    screen = pygame.display.get_surface()
    if screen is None:
        return surf
    if (surf.get_bitsize() == screen.get_bitsize() and surf.get_masks() == screen.get_masks()
            and not surf.get_flags() & pygame.SRCALPHA):
        return surf
    return surf.convert()


def shade(surface: pygame.Surface, alpha: int) -> None:
    """Darken the whole of `surface` as a black veil of opacity `alpha` would (behind a dialog):
    every colour multiplied by (255 - alpha) / 255, in place (within one level of the veil's
    rounding), with no veil to make: under Xvfb at 1280 x 800 it takes 0.16 ms, against 0.3 ms for
    blending a kept veil over it and 4 ms for making that veil (a 4 MB surface) in the first frame
    with a dialog, which is the game's first frame (the briefing)."""
    keep = max(0, min(255, 255 - int(alpha)))
    surface.fill((keep, keep, keep), special_flags=pygame.BLEND_MULT)


RESULT_LABELS: tuple[tuple[str, str, Colour], ...] = (
    ("no_hit", "No hit", (120, 130, 140)),
    ("no_effect", "No effect", (150, 170, 150)),
    ("steady", "Strength lost", (230, 200, 90)),
    ("pinned", "Pinned", (240, 150, 60)),
    ("out_of_action", "Out of action", (230, 100, 60)),
    ("destroyed", "Destroyed", (210, 50, 50)),
    ("annihilated", "Annihilated", (140, 20, 40)),
)


def scaled_corners(layout: HexLayout, h: Hex, scale: float, ox: float = 0, oy: float = 0,
                   shrink: float = 1.0) -> list[tuple[float, float]]:
    pts = layout.hex_corners(h)
    if shrink != 1.0:
        cx, cy = layout.hex_center(h)
        pts = [(cx + (x - cx) * shrink, cy + (y - cy) * shrink) for x, y in pts]
    return [(ox + x * scale, oy + y * scale) for x, y in pts]


def hex_fill_surface(layout: HexLayout, fills: Iterable[tuple[Hex, Colour, int] | tuple[Hex, Colour, int, int]],
                     scale: float, reuse: pygame.Surface | None = None,
                     within: pygame.Rect | None = None) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """The given hexes tinted (colour, alpha) on a transparent surface just big enough for them,
    and where its top-left goes in zoomed map pixels (None when there is nothing to tint). A
    fourth item draws an inner rim of that width in the same colour (e.g. a danger zone).

    Each hex is stamped from a small kept picture of one tinted hex (made once per colour, zoom
    and fraction of a pixel where the hex falls, so it is the very polygon drawing it in place
    would give) instead of being drawn as a polygon: a click's overlay tints hundreds of hexes.
    `reuse`: a surface the caller is done with (its last overlay): when it is big enough, the new
    one is drawn in it instead of a fresh one (at 100 x 100 a reach overlay is 12 MB). `within`:
    only the hexes whose tint reaches into this rectangle (zoomed map pixels) are drawn."""
    shape, fills, spots = _placed(layout, fills, scale, within)
    if not fills:
        return None
    ox, oy = int(min(s[0] for s in spots) + shape.min_x) - 1, int(min(s[1] for s in spots) + shape.min_y) - 1
    size = (int(max(s[0] for s in spots) + shape.max_x) - ox + 2, int(max(s[1] for s in spots) + shape.max_y) - oy + 2)
    # a new surface gets room to spare: for any overlay of the same rectangle (its hexes reach a
    # stamp beyond it on each side), else a quarter more
    room = (size[0] + size[0] // 4, size[1] + size[1] // 4)
    if within is not None:
        room = (max(size[0], within.w + 2 * int(shape.max_x - shape.min_x) + 8),
                max(size[1], within.h + 2 * int(shape.max_y - shape.min_y) + 8))
    surf = _blank(size, reuse, room)
    blits = []
    stamp = shape.stamp
    for (_, _, fx, fy, px, py), f in zip(spots, fills, strict=True):
        pic, (dx, dy) = stamp(f[1], f[2], f[3] if len(f) > 3 else None, px, py)
        blits.append((pic, (fx + dx - ox, fy + dy - oy)))
    surf.blits(blits, doreturn=False)
    return surf, (ox, oy)


def hex_tint_stamps(layout: HexLayout, fills: Iterable[tuple[Hex, Colour, int] | tuple[Hex, Colour, int, int]],
                    scale: float) -> list[tuple[pygame.Surface, tuple[int, int]]]:
    """The same tints as hex_fill_surface, as (picture, top-left in zoomed map pixels) to blend
    straight onto a picture of the map, one per hex: for a few dozen hexes that change with every
    move of the mouse (the hovered hex's dash), clearing and blending a surface the size of all
    of them cost more than the tints themselves. Each comes out as in hex_fill_surface's picture
    blended there (a stamp's clear corners change nothing)."""
    shape, fills, spots = _placed(layout, fills, scale, None)
    out = []
    stamp = shape.stamp
    for (_, _, fx, fy, px, py), f in zip(spots, fills, strict=True):
        pic, (dx, dy) = stamp(f[1], f[2], f[3] if len(f) > 3 else None, px, py, blend=True)
        out.append((pic, (fx + dx, fy + dy)))
    return out


def _placed(layout: HexLayout, fills: Iterable[tuple[Hex, Colour, int] | tuple[Hex, Colour, int, int]],
            scale: float, within: pygame.Rect | None) -> tuple[_StampShape, list[Any], list[Any]]:
    """The stamp shape at this zoom, the fills and where each hex falls (see _StampShape.spot);
    with `within`, only the hexes whose tint reaches into it (zoomed map pixels)."""
    fills = list(fills)
    shape = _stamp_shape(layout, scale)
    spots = [shape.spot(f[0]) for f in fills]
    if within is not None:
        x0, x1 = within.left - shape.max_x - 2, within.right - shape.min_x + 2
        y0, y1 = within.top - shape.max_y - 2, within.bottom - shape.min_y + 2
        kept = [i for i, sp in enumerate(spots) if x0 <= sp[0] <= x1 and y0 <= sp[1] <= y1]
        fills, spots = [fills[i] for i in kept], [spots[i] for i in kept]
    return shape, fills, spots


def _blank(size: tuple[int, int], reuse: pygame.Surface | None, room: tuple[int, int] | None = None) -> pygame.Surface:
    """A clear surface of `size` in the window's alpha format: part of `reuse` (cleared) when it
    is one and big enough, else part of a new one of `room`, and never smaller than `reuse` (the
    first touch of a fresh 10 MB surface's memory costs the system a few milliseconds: better once
    than on every click)."""
    old = (reuse.get_parent() or reuse) if reuse is not None else None
    w, h = room or size
    if old is not None:
        if old.get_width() >= size[0] and old.get_height() >= size[1] and old.get_flags() & pygame.SRCALPHA:
            part = old.subsurface(pygame.Rect((0, 0), size))
            part.fill((0, 0, 0, 0))
            return part
        w, h = max(w, old.get_width()), max(h, old.get_height())
    base = for_display_alpha(pygame.Surface((max(w, size[0]), max(h, size[1])), pygame.SRCALPHA))
    return base if base.get_size() == size else base.subsurface(pygame.Rect((0, 0), size))


class _StampShape:
    """One hex's tint polygon (and rim) relative to its tile's corner at one zoom, and the kept
    stamps of it: keyed by colour, opacity, rim and the fraction of a pixel the tile's corner falls
    at (zoom levels are simple fractions, so there are few)."""

    def __init__(self, layout: HexLayout, scale: float) -> None:
        x0, y0 = layout.tile_origin(0, 0)
        cx, cy = layout.tile_center(0, 0)
        corners = [(x - x0, y - y0) for x, y in layout.tile_corners(0, 0)]
        ccx, ccy = cx - x0, cy - y0

        def shrunk(k: float) -> list[tuple[float, float]]:
            return [((ccx + (x - ccx) * k) * scale, (ccy + (y - ccy) * k) * scale) for x, y in corners]

        self.fill = shrunk(0.96)
        self.rim = shrunk(0.86)
        self.scale = scale
        self.min_x = min(x for x, _ in self.fill)
        self.min_y = min(y for _, y in self.fill)
        self.max_x = max(x for x, _ in self.fill)
        self.max_y = max(y for _, y in self.fill)
        self.stamps: dict[tuple[Any, ...], tuple[pygame.Surface, tuple[int, int]]] = {}
        self.layout = layout
        self.spots: dict[Hex, tuple[float, float, int, int, float, float]] = {}

    def spot(self, h: Hex) -> tuple[float, float, int, int, float, float]:
        """Where hex `h`'s tile corner falls at this zoom: exactly, as whole pixels, and the
        fraction of a pixel left (rounded, the stamps' key). Kept per hex (the map never moves)."""
        got = self.spots.get(h)
        if got is None:
            layout = self.layout
            tx, ty = layout.tile_origin(*layout.stagger.to_offset(h))
            x, y = tx * self.scale, ty * self.scale
            fx, fy = math.floor(x), math.floor(y)
            if len(self.spots) > 20_000:
                self.spots.clear()
            got = self.spots[h] = (x, y, fx, fy, round(x - fx, 6), round(y - fy, 6))
        return got

    def stamp(self, colour: Colour, alpha: int, rim: int | None, px: float,
              py: float, blend: bool = False) -> tuple[pygame.Surface, tuple[int, int]]:
        """One tinted hex. Copied (the default: into a clear surface, see hex_fill_surface) or,
        with `blend`, blended by its own alpha onto a picture (see hex_tint_stamps)."""
        key = (colour, alpha, rim, px, py, blend)
        got = self.stamps.get(key)
        if got is not None:
            return got
        dx, dy = math.floor(px + self.min_x) - 1, math.floor(py + self.min_y) - 1
        size = (math.floor(px + self.max_x) - dx + 2, math.floor(py + self.max_y) - dy + 2)
        pic = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.polygon(pic, (*colour, alpha), [(px + x - dx, py + y - dy) for x, y in self.fill])
        if rim is not None:
            pygame.draw.polygon(pic, (*colour, 230), [(px + x - dx, py + y - dy) for x, y in self.rim],
                                max(1, round(rim * self.scale)))
        # copied as it is, not blended, and its clear corners left out (they overlap the
        # neighbours' stamps): a hex's pixels come out as drawing its polygon there gives
        if blend:
            pic = for_display_alpha(pic)
        else:
            pic.set_colorkey((0, 0, 0, 0))
            pic.set_alpha(None)
        if len(self.stamps) > 256:
            self.stamps.clear()
        got = self.stamps[key] = (pic, (dx, dy))
        return got


_SHAPES: dict[tuple[int, int, int, str, float], _StampShape] = {}


def _stamp_shape(layout: HexLayout, scale: float) -> _StampShape:
    key = (layout.tw, layout.th, layout.hexsidelength, repr(layout.stagger), scale)
    shape = _SHAPES.get(key)
    if shape is None:
        if len(_SHAPES) > 32:
            _SHAPES.clear()
        shape = _SHAPES[key] = _StampShape(layout, scale)
    return shape


def for_display_alpha(surf: pygame.Surface) -> pygame.Surface:
    """A transparent `surf` in the window's alpha pixel format (blits fastest), converted only when
    it is not already in it (a copy of the whole surface otherwise)."""
    global _alpha_format
    screen = pygame.display.get_surface()
    if screen is None:
        return surf
    if _alpha_format is None or _alpha_format[0] is not screen:
        probe = pygame.Surface((1, 1), pygame.SRCALPHA).convert_alpha()
        _alpha_format = (screen, (probe.get_bitsize(), probe.get_masks()))
    if (surf.get_bitsize(), surf.get_masks()) == _alpha_format[1]:
        return surf
    return surf.convert_alpha()


_alpha_format: tuple[pygame.Surface, tuple[int, tuple[int, int, int, int]]] | None = None


def hex_outline(surface: pygame.Surface, layout: HexLayout, h: Hex, scale: float, origin: tuple[float, float],
                colour: Colour, width: int = 2, shrink: float = 0.92) -> None:
    pygame.draw.polygon(surface, colour, scaled_corners(layout, h, scale, origin[0], origin[1], shrink), width)


def objective_flag(surface: pygame.Surface, at: tuple[float, float], colour: Colour, scale: float = 1.0) -> None:
    """A small pennant marking an objective hex."""
    x, y = at
    h, w = 16 * scale, 11 * scale
    pygame.draw.line(surface, (10, 10, 12), (x - w / 2, y - h / 2), (x - w / 2, y + h / 2), 3)
    pts = [(x - w / 2, y - h / 2), (x + w / 2, y - h / 4), (x - w / 2, y)]
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, (10, 10, 12), pts, 1)


def draw_path(surface: pygame.Surface, points: Sequence[tuple[float, float]], colour: Colour, width: int) -> None:
    if len(points) >= 2:
        pygame.draw.lines(surface, (10, 10, 12), False, points, width + 4)
        pygame.draw.lines(surface, colour, False, points, width)
    for p in points[1:]:
        pygame.draw.circle(surface, (10, 10, 12), p, width + 2)
        pygame.draw.circle(surface, colour, p, width)


def draw_label(surface: pygame.Surface, text: str, centre: tuple[float, float], colour: Colour = (255, 255, 255),
               size: int = 14, bg: tuple[int, int, int, int] | None = (12, 14, 18, 210)) -> pygame.Rect:
    img = fonts.text(text, size, colour, True)
    rect = img.get_rect(center=(round(centre[0]), round(centre[1])))
    if bg is not None:
        box = rect.inflate(10, 4)
        panel = pygame.Surface(box.size, pygame.SRCALPHA)
        panel.fill(bg)
        surface.blit(panel, box)
    surface.blit(img, rect)
    return rect


def danger_marker(surface: pygame.Surface, centre: tuple[float, float], r: float) -> None:
    """The 'overwatch fires here' marker: a red crosshair."""
    x, y = centre
    r = max(6.0, r)
    pygame.draw.circle(surface, (10, 10, 12), (x, y), r + 2, 4)
    pygame.draw.circle(surface, DANGER_COLOUR, (x, y), r, 2)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        pygame.draw.line(surface, DANGER_COLOUR, (x + dx * r * 0.45, y + dy * r * 0.45),
                         (x + dx * r * 1.35, y + dy * r * 1.35), 2)


def bar_chart(surface: pygame.Surface, rect: pygame.Rect, results: dict[str, Fraction | float],
              compare: dict[str, Fraction | float] | None = None) -> None:
    """The outcome distribution of an attack: one bar per result, with its percentage.

    `compare` (the odds without the Advantage now being spent) is drawn as a thin tick so the
    player sees what spending Advantage changes."""
    pygame.draw.rect(surface, (16, 19, 23), rect)
    pygame.draw.rect(surface, (59, 67, 76), rect, 1)
    n = len(RESULT_LABELS)
    row_h = (rect.height - 8) / n
    label_w = 96
    bar_x = rect.x + label_w + 8
    bar_w = rect.width - label_w - 62
    for i, (key, label, colour) in enumerate(RESULT_LABELS):
        y = rect.y + 4 + i * row_h
        p = float(results.get(key, 0))
        img = fonts.text(label, 12, (210, 204, 190))
        surface.blit(img, (rect.x + 6, y + (row_h - img.get_height()) / 2))
        pygame.draw.rect(surface, (36, 40, 46), pygame.Rect(bar_x, y + 2, bar_w, row_h - 4))
        if p > 0:
            pygame.draw.rect(surface, colour, pygame.Rect(bar_x, y + 2, max(2, round(bar_w * p)), row_h - 4))
        if compare is not None:
            q = float(compare.get(key, 0))
            tx = bar_x + round(bar_w * q)
            pygame.draw.line(surface, (255, 255, 255), (tx, y + 1), (tx, y + row_h - 2), 1)
        pct = fonts.text(percent(p), 12, (235, 230, 220), True)
        surface.blit(pct, (rect.right - 6 - pct.get_width(), y + (row_h - pct.get_height()) / 2))


def percent(p: float | Fraction) -> str:
    v = float(p) * 100
    if v == 0:
        return "0%"
    if v < 0.1:
        return "<0.1%"
    if v > 99.9 and v < 100:
        return ">99.9%"
    return f"{v:.1f}%" if v < 10 else f"{v:.0f}%"
