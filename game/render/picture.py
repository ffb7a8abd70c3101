"""What every system's picture for `render` shares (Plugin.picture, game.core.plugin): the size
check made before drawing, text without a window, and an arrow.

    check_size(width, height, options)     raises UserError if the image would be too large
    text(s, size, colour, bold=False)      -> Surface (pygame's own font: no window, no toolkit)
    outlined_text(surface, s, pos, size, colour)   text with a dark rim, readable on any ground
    arrow(surface, start, end, colour, width)      a line with a head at `end`, edged dark
"""

from __future__ import annotations

import math
from typing import Any

import pygame

from game.core.errors import UserError

Colour = tuple[int, int, int]
INK: Colour = (16, 16, 20)

_fonts: dict[tuple[int, bool], pygame.font.Font] = {}


def check_size(width: float, height: float, options: Any) -> None:
    """Refuse, before anything is drawn, an image over `options.max_pixels` at `options.scale`."""
    w, h = width * options.scale, height * options.scale
    if w * h > options.max_pixels:
        raise UserError(f"--scale {options.scale:g} would make a {round(w)} x {round(h)} px image; "
                        "use a smaller scale")


def _font(size: int, bold: bool) -> pygame.font.Font:
    if not pygame.font.get_init():
        pygame.font.init()
        _fonts.clear()
    key = (max(6, size), bold)
    f = _fonts.get(key)
    if f is None:
        f = pygame.font.Font(None, key[0])
        f.set_bold(bold)
        _fonts[key] = f
    return f


def text(s: str, size: int, colour: Colour, bold: bool = False) -> pygame.Surface:
    try:
        return _font(size, bold).render(s, True, colour)
    except pygame.error:  # a pygame.quit()/init() cycle invalidated the cached fonts
        _fonts.clear()
        return _font(size, bold).render(s, True, colour)


def outlined_text(surface: pygame.Surface, s: str, pos: tuple[float, float], size: int,
                  colour: Colour, bold: bool = True) -> pygame.Rect:
    """Text at `pos` (top left) with a one-pixel dark rim; returns where it landed."""
    rim = text(s, size, INK, bold)
    x, y = round(pos[0]), round(pos[1])
    for dx, dy in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        surface.blit(rim, (x + dx, y + dy))
    return surface.blit(text(s, size, colour, bold), (x, y))


def arrow(surface: pygame.Surface, start: tuple[float, float], end: tuple[float, float],
          colour: Colour, width: int = 3) -> None:
    """A line from `start` to `end` with a head at `end`, drawn over a dark edge."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    head = max(6.0, width * 3.0)
    base = (end[0] - ux * head, end[1] - uy * head)
    tip = [end, (base[0] - uy * head * 0.6, base[1] + ux * head * 0.6),
           (base[0] + uy * head * 0.6, base[1] - ux * head * 0.6)]
    pygame.draw.line(surface, INK, start, base, width + 2)
    pygame.draw.polygon(surface, INK, tip, 0)
    pygame.draw.line(surface, colour, start, base, width)
    inner = [(end[0] - ux * 2, end[1] - uy * 2), tip[1], tip[2]]
    pygame.draw.polygon(surface, colour, inner, 0)
