"""Copying opaque pictures onto the screen without SDL's slow case.

SDL copies an opaque picture onto one of the same pixel format a row at a time. When both rows
start on 16-byte boundaries it uses streaming (non-temporal) stores 64 bytes at a time and an
ordinary copy for the rest of the row; when a row's length is not a multiple of 64 bytes (at 4
bytes a pixel: a width that is a multiple of 4 pixels but not of 16) the two kinds of store on
the same cache lines stall, and the copy is several times slower. Measured here (pygame-ce 2.5.8,
SDL 2.32.10): the battle's map view, 908 x 760 pixels, 640 us in one blit, 213 us as a part 896
pixels wide and one 12 wide; a 364-pixel-wide panel 8 times slower than one 368 wide.

`blit` splits such a copy in two, at the last multiple of 16 pixels; the pixels come out the same.
"""

from __future__ import annotations

import pygame

_SPLIT_MIN = 32  # narrower copies are cheap whatever their width


def blit(dst: pygame.Surface, src: pygame.Surface, dest: tuple[int, int],
         area: pygame.Rect | None = None) -> pygame.Rect:
    """`dst.blit(src, dest, area)` (an opaque `src`: no per-pixel alpha, colour key or surface
    alpha), the width actually copied (after `dst`'s clip) split where SDL's row copy would be
    slow. Returns the rectangle of `dst` that was drawn, as `Surface.blit` does."""
    size = area.size if area is not None else src.get_size()
    clip = dst.get_clip()
    drawn = pygame.Rect(dest, size).clip(clip)
    if area is not None:  # a source area reaching past the source copies only what is there
        inside = area.clip(src.get_rect())
        drawn = drawn.clip(pygame.Rect(dest[0] + inside.x - area.x, dest[1] + inside.y - area.y,
                                       inside.w, inside.h))
    w = drawn.w
    if (w < _SPLIT_MIN or w % 16 == 0 or src.get_flags() & pygame.SRCALPHA
            or src.get_colorkey() is not None or src.get_alpha() is not None):
        return dst.blit(src, dest, area)
    cut = drawn.x + w - w % 16
    try:
        dst.set_clip(pygame.Rect(drawn.x, drawn.y, cut - drawn.x, drawn.h))
        dst.blit(src, dest, area)
        dst.set_clip(pygame.Rect(cut, drawn.y, drawn.right - cut, drawn.h))
        dst.blit(src, dest, area)
    finally:
        dst.set_clip(clip)
    return drawn
