"""Unit counters drawn at runtime: side colour, NATO-style class symbol, strength, label, status.

A counter reads at a glance at zoom 1 (about 46 px on the project tilesets); below 36 px (low
zoom) a simpler counter is drawn instead: side colour, a large class symbol, the strength as one
large number, a status as a coloured corner.

    +----------------------+   side colour body, darker rim, light bevel
    | RIF            [OW]  |   short label; status badges down the right edge
    |   +-----------+      |   class symbol in a white frame: infantry cross,
    |   |    X      |      |   cavalry slash, wheels, tracks, walker legs, hover wave
    |   +-----------+      |
    |  o o o o o o         |   strength pips (filled = left, hollow = lost), or "5/8" above 6
    +----------------------+

Out-of-action units are greyed with a red bar; pinned units get a yellow "P" badge; overwatch,
guard and defensive stances have their own badges. Surfaces are cached per look and size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout

Colour = tuple[int, int, int]

INK: Colour = (16, 16, 20)
FRAME_BG: Colour = (244, 240, 228)
MARKERS: dict[str, tuple[str, Colour]] = {
    "pinned": ("P", (250, 204, 60)),
    "out_of_action": ("X", (220, 60, 50)),
    "overwatch": ("OW", (255, 150, 40)),
    "guard": ("G", (90, 170, 255)),
    "defensive": ("D", (120, 220, 140)),
}

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}
_cache: dict[tuple[Any, ...], pygame.Surface] = {}


def _font(size: int, bold: bool = True) -> pygame.font.Font:
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        if not pygame.font.get_init():
            pygame.font.init()
        f = pygame.font.Font(None, size)  # pygame's bundled default font
        f.set_bold(bold)
        _fonts[key] = f
    return f


def _text(text: str, size: int, colour: Colour) -> pygame.Surface:
    """Rendered text; survives pygame.quit()/init() cycles that invalidate cached fonts."""
    try:
        return _font(size).render(text, True, colour)
    except pygame.error:
        _fonts.clear()
        return _font(size).render(text, True, colour)


def _shade(c: Colour, k: float) -> Colour:
    if k >= 1:
        return (min(255, round(c[0] + (255 - c[0]) * (k - 1))), min(255, round(c[1] + (255 - c[1]) * (k - 1))),
                min(255, round(c[2] + (255 - c[2]) * (k - 1))))
    return (round(c[0] * k), round(c[1] * k), round(c[2] * k))


def _ink_for(c: Colour) -> Colour:
    """Dark or light text, whichever reads on colour c."""
    lum = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    return INK if lum > 120 else (250, 248, 240)


@dataclass(frozen=True)
class CounterView:
    """What a counter shows; the client builds these from the game state."""

    hex: Hex
    colour: Colour
    unit_class: str
    label: str
    strength: int
    max_strength: int
    markers: tuple[str, ...] = ()
    selected: bool = False


# --------------------------------------------------------------------------- symbols

def draw_symbol(surf: pygame.Surface, rect: pygame.Rect, unit_class: str, ink: Colour = INK) -> None:
    """The NATO-style unit-class symbol inside `rect` (the white frame)."""
    w = max(1, round(rect.height / 9))
    x0, y0, x1, y1 = rect.left + 1, rect.top + 1, rect.right - 2, rect.bottom - 2
    cx, cy = rect.center
    if unit_class == "infantry":
        pygame.draw.line(surf, ink, (x0, y0), (x1, y1), w)
        pygame.draw.line(surf, ink, (x0, y1), (x1, y0), w)
    elif unit_class == "cavalry":
        pygame.draw.line(surf, ink, (x0, y1), (x1, y0), w + 1)
    elif unit_class == "wheeled":
        r = max(2, rect.height // 6)
        pygame.draw.line(surf, ink, (x0 + 2, cy), (x1 - 2, cy), w)
        for fx in (0.3, 0.7):
            pygame.draw.circle(surf, ink, (rect.left + round(rect.width * fx), cy + r + 1), r, max(1, w))
    elif unit_class == "tracked":
        track = pygame.Rect(0, 0, round(rect.width * 0.7), max(4, round(rect.height * 0.42)))
        track.center = (cx, cy)
        pygame.draw.rect(surf, ink, track, max(1, w), border_radius=track.height // 2)
    elif unit_class == "walker":
        top = (cx, y0 + rect.height // 5)
        hip_l, hip_r = (cx - rect.width // 6, cy), (cx + rect.width // 6, cy)
        foot_l, foot_r = (cx - rect.width // 4, y1 - 1), (cx + rect.width // 4, y1 - 1)
        pygame.draw.line(surf, ink, top, hip_l, w)
        pygame.draw.line(surf, ink, top, hip_r, w)
        pygame.draw.line(surf, ink, hip_l, foot_l, w)
        pygame.draw.line(surf, ink, hip_r, foot_r, w)
        pygame.draw.line(surf, ink, (foot_l[0] - w * 2, foot_l[1]), (foot_l[0] + w, foot_l[1]), w)
        pygame.draw.line(surf, ink, (foot_r[0] - w, foot_r[1]), (foot_r[0] + w * 2, foot_r[1]), w)
        pygame.draw.circle(surf, ink, top, max(2, w + 1))
    elif unit_class == "hover":
        amp = rect.height * 0.16
        pts = [(x0 + 2 + t, cy + amp * math.sin((t / max(1, x1 - x0 - 4)) * math.tau * 1.5))
               for t in range(0, max(2, x1 - x0 - 3))]
        if len(pts) > 1:
            pygame.draw.lines(surf, ink, False, pts, w)
        pygame.draw.line(surf, ink, (x0 + 2, cy - round(amp * 1.9)), (x1 - 2, cy - round(amp * 1.9)), w)
    else:
        q = _text("?", max(8, rect.height), ink)
        surf.blit(q, q.get_rect(center=rect.center))


# --------------------------------------------------------------------------- the counter

def render_counter(view: CounterView, size: int) -> pygame.Surface:
    """A counter `size` px square (cached)."""
    key = (view.colour, view.unit_class, view.label, view.strength, view.max_strength, view.markers,
           view.selected, size)
    surf = _cache.get(key)
    if surf is not None:
        return surf
    final = max(16, int(size))
    # drawn at twice the size and scaled down: smooth edges, crisp small text
    surf = pygame.transform.smoothscale(_draw_counter(view, final * 2), (final, final))
    if len(_cache) > 2000:
        _cache.clear()
    _cache[key] = surf
    return surf


SIMPLE_BELOW = 36  # counters smaller than this (px) are drawn in the simple style


def _draw_simple(view: CounterView, s: int) -> pygame.Surface:
    """The low-zoom counter: side colour, a large class symbol and the strength as one large
    number, a status shown as one coloured corner; nothing too small to read."""
    surf = pygame.Surface((s, s), pygame.SRCALPHA)
    out = "out_of_action" in view.markers
    colour = _shade(view.colour, 0.55) if out else view.colour
    ink = _ink_for(colour)
    radius = max(3, s // 7)
    body = pygame.Rect(0, 0, s, s)
    pygame.draw.rect(surf, _shade(colour, 0.5), body, border_radius=radius)
    inner = body.inflate(-max(2, s // 12) * 2, -max(2, s // 12) * 2)
    pygame.draw.rect(surf, colour, inner, border_radius=max(2, radius - 1))
    frame = pygame.Rect(0, 0, round(inner.width * 0.78), round(inner.height * 0.40))
    frame.midtop = (inner.centerx, inner.top + max(1, s // 16))
    pygame.draw.rect(surf, FRAME_BG, frame)
    draw_symbol(surf, frame, view.unit_class)
    pygame.draw.rect(surf, INK, frame, max(1, s // 20))
    num = _text(str(max(0, view.strength)), max(10, round(s * 0.52)), ink)
    surf.blit(num, num.get_rect(midbottom=(inner.centerx, inner.bottom + max(1, s // 14))))
    if view.markers:
        _, mc = MARKERS.get(view.markers[0], ("", (200, 200, 200)))
        r = max(3, s // 7)
        pygame.draw.circle(surf, INK, (inner.right - r + 1, inner.bottom - r + 1), r + 1)
        pygame.draw.circle(surf, mc, (inner.right - r + 1, inner.bottom - r + 1), r)
    if out:
        pygame.draw.line(surf, (220, 50, 40), (inner.left + 2, inner.bottom - 3), (inner.right - 3, inner.top + 2),
                         max(2, s // 10))
    if view.selected:
        pygame.draw.rect(surf, (255, 255, 255), body, max(2, s // 14), border_radius=radius)
    return surf


def _draw_counter(view: CounterView, s: int) -> pygame.Surface:
    if s < SIMPLE_BELOW * 2:  # (drawn at twice the final size)
        return _draw_simple(view, s)
    surf = pygame.Surface((s, s), pygame.SRCALPHA)
    out = "out_of_action" in view.markers
    colour = _shade(view.colour, 0.55) if out else view.colour
    ink = _ink_for(colour)
    radius = max(3, s // 8)
    sh = max(2, s // 24)
    body = pygame.Rect(0, 0, s - sh, s - sh)
    shadow = body.move(sh, sh)
    pygame.draw.rect(surf, (0, 0, 0, 110), shadow, border_radius=radius)
    pygame.draw.rect(surf, _shade(colour, 0.55), body, border_radius=radius)
    inner = body.inflate(-max(2, s // 16) * 2, -max(2, s // 16) * 2)
    pygame.draw.rect(surf, colour, inner, border_radius=max(2, radius - 1))
    pygame.draw.line(surf, _shade(colour, 1.35), (inner.left + radius, inner.top + 1),
                     (inner.right - radius, inner.top + 1), 1)  # bevel highlight

    # label on top, kept left of the status badges (it shrinks rather than run under them)
    lab_size = max(9, round(s * 0.27))
    bsize = max(9, round(s * 0.26))
    badge_w = max((bsize + (bsize // 2 if len(MARKERS.get(m, (m[:2],))[0]) > 1 else 0)
                   for m in view.markers), default=0)
    room = inner.width - (badge_w + 4 if badge_w else 0) - 4
    label = _text(view.label[:4].upper(), lab_size, ink)
    if label.get_width() > room > 0:
        label = pygame.transform.smoothscale(label, (room, max(1, round(label.get_height() * room / label.get_width()))))
    lx = inner.left + 2 + room // 2 if badge_w else inner.centerx - s // 10
    surf.blit(label, label.get_rect(midtop=(lx, inner.top + max(1, s // 24))))

    # class symbol frame
    fw, fh = round(s * 0.52), round(s * 0.32)
    frame = pygame.Rect(0, 0, fw, fh)
    frame.center = (inner.centerx - s // 10, inner.centery + s // 20)
    pygame.draw.rect(surf, FRAME_BG, frame)
    draw_symbol(surf, frame, view.unit_class)
    pygame.draw.rect(surf, INK, frame, max(1, s // 28))

    # strength
    strength, most = max(0, view.strength), max(1, view.max_strength)
    bottom = inner.bottom - max(2, s // 14)
    gap = min(s * 0.15, inner.width * 0.86 / max(1, most))
    r = max(2, round(gap * 0.36))
    if most <= 6:
        x = inner.centerx - (gap * (most - 1)) / 2
        for i in range(most):
            centre = (round(x + i * gap), bottom - r)
            if i < strength:
                pygame.draw.circle(surf, ink, centre, r)
            else:
                pygame.draw.circle(surf, ink, centre, r, max(1, r // 3))
    else:
        txt = _text(f"{strength}/{most}", max(10, round(s * 0.3)), ink)
        surf.blit(txt, txt.get_rect(midbottom=(inner.centerx, bottom + 2)))

    # status badges down the right edge
    by = inner.top + 1
    for m in view.markers:
        text, mc = MARKERS.get(m, (m[:2].upper(), (200, 200, 200)))
        badge = pygame.Rect(0, 0, bsize + (bsize // 2 if len(text) > 1 else 0), bsize)
        badge.topright = (inner.right - 1, by)
        pygame.draw.rect(surf, INK, badge.inflate(2, 2), border_radius=3)
        pygame.draw.rect(surf, mc, badge, border_radius=3)
        t = _text(text, max(8, round(bsize * 0.95)), INK)
        surf.blit(t, t.get_rect(center=badge.center))
        by += bsize + 2
    if out:
        pygame.draw.line(surf, (220, 50, 40), (inner.left + 2, inner.bottom - 3), (inner.right - 3, inner.top + 2),
                         max(2, s // 12))
    if view.selected:
        pygame.draw.rect(surf, (255, 255, 255), body, max(2, s // 20), border_radius=radius)
    return surf


def counter_surface(unit_type: Any, unit: Any, colour: Colour, size: int,
                    markers: Sequence[str] = ()) -> pygame.Surface:
    """Counter for a catalogue UnitType and a unit of the game state (anything with .strength).

    This is the hook the battle scene calls.
    """
    strength = unit if isinstance(unit, int) else int(getattr(unit, "strength", 0))
    if unit_type is not None:
        label = getattr(unit_type, "label", "") or str(getattr(unit_type, "name", "?"))[:3]
        unit_class = str(getattr(unit_type, "unit_class", ""))
        most = int(getattr(unit_type, "strength", strength))
    else:
        label, unit_class, most = "?", "", strength
    view = CounterView(Hex(0, 0), tuple(colour)[:3], unit_class, label, strength, most,  # type: ignore[arg-type]
                       tuple(markers))
    return render_counter(view, size)


def counter_size(layout: HexLayout, scale: float = 1.0) -> int:
    """The counter size that fits a hex comfortably at a zoom."""
    return max(14, int(min(layout.tw, layout.th) * 0.72 * scale))


def draw_units(surface: pygame.Surface, layout: HexLayout, counters: Iterable[CounterView],
               scale: float = 1.0, origin: tuple[float, float] = (0, 0)) -> None:
    """Blit each counter centred on its hex (map pixels * scale + origin = surface pixels)."""
    size = counter_size(layout, scale)
    for view in counters:
        cx, cy = layout.hex_center(view.hex)
        img = render_counter(view, size)
        surface.blit(img, img.get_rect(center=(round(origin[0] + cx * scale), round(origin[1] + cy * scale))))
