"""Drawing helpers of the battle view: hex overlays, paths, markers, the odds bar chart.

Everything here paints onto a surface from the values it is given and changes nothing else.
Unit counters come from game.render.counters when present (engineer M's art).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

import pygame

from game.client import fonts
from game.hexgrid import Hex
from game.hexlayout import HexLayout

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


_shade: tuple[tuple[int, int, int], pygame.Surface] | None = None  # (width, height, alpha), its surface


def shade(surface: pygame.Surface, alpha: int) -> None:
    """Darken the whole of `surface` as a black veil of opacity `alpha` would (behind a dialog).
    The veil is made once per window size and kept: a fresh one each frame cost a window-sized
    allocation (4 MB at 1280 x 800) every frame a dialog is open."""
    global _shade
    w, h = surface.get_size()
    key = (w, h, alpha)
    if _shade is None or _shade[0] != key:
        veil = pygame.Surface((w, h), pygame.SRCALPHA)
        veil.fill((0, 0, 0, alpha))
        _shade = (key, veil)
    surface.blit(_shade[1], (0, 0))


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
                     scale: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """The given hexes tinted (colour, alpha) on a transparent surface just big enough for them,
    and where its top-left goes in zoomed map pixels (None when there is nothing to tint). A
    fourth item draws an inner rim of that width in the same colour (e.g. a danger zone)."""
    polys = []
    rims = []
    for f in fills:
        hx, colour, alpha = f[0], f[1], f[2]
        polys.append((colour, alpha, scaled_corners(layout, hx, scale, shrink=0.96)))
        if len(f) > 3:
            rims.append((colour, f[3], scaled_corners(layout, hx, scale, shrink=0.86)))
    if not polys:
        return None
    xs = [x for _, _, pts in polys for x, _ in pts]
    ys = [y for _, _, pts in polys for _, y in pts]
    ox, oy = int(min(xs)) - 1, int(min(ys)) - 1
    surf = pygame.Surface((int(max(xs)) - ox + 2, int(max(ys)) - oy + 2), pygame.SRCALPHA)
    for colour, alpha, pts in polys:
        pygame.draw.polygon(surf, (*colour, alpha), [(x - ox, y - oy) for x, y in pts])
    for colour, width, pts in rims:
        pygame.draw.polygon(surf, (*colour, 230), [(x - ox, y - oy) for x, y in pts], max(1, round(width * scale)))
    if pygame.display.get_surface() is not None:
        surf = surf.convert_alpha()  # the display's pixel format blits faster
    return surf, (ox, oy)


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
