"""Counters stay legible at every zoom (issue 12, item 11): below the full counter's size a
simple one is drawn whose side colour, class symbol and strength each still show, and the full
counter keeps its label clear of the status badges."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from game.core.board import Board
from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout
from game.render.counters import SIMPLE_BELOW, CounterView, counter_size, render_counter
from game.shell.camera import ZOOM_LEVELS

LAYOUT = HexLayout(64, 74, 37, Board.filled(12, 9).stagger, 12, 9)
BLUE, RED = (70, 120, 220), (200, 60, 50)


def _view(colour=BLUE, cls="infantry", strength=5, markers=()) -> CounterView:  # type: ignore[no-untyped-def]
    return CounterView(Hex(0, 0), colour, cls, "RIF", strength, 8, tuple(markers))


def _pixels(surf: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surf, "RGBA")


def _differs(a: pygame.Surface, b: pygame.Surface) -> int:
    pa, pb = _pixels(a), _pixels(b)
    return sum(1 for i in range(0, len(pa), 4) if pa[i:i + 3] != pb[i:i + 3])


def test_at_every_zoom_strength_class_and_side_each_change_the_counter() -> None:
    pygame.init()
    for z in ZOOM_LEVELS:
        size = counter_size(LAYOUT, z)
        base = render_counter(_view(), size)
        assert _differs(base, render_counter(_view(strength=4), size)) >= 4, z  # strength shows
        assert _differs(base, render_counter(_view(cls="cavalry"), size)) >= 3, z  # the class symbol shows
        assert _differs(base, render_counter(_view(colour=RED), size)) > size * size // 4, z  # the side colour


def test_low_zoom_draws_the_simple_counter_with_the_strength_as_one_number() -> None:
    pygame.init()
    small = counter_size(LAYOUT, ZOOM_LEVELS[0])
    assert small < SIMPLE_BELOW <= counter_size(LAYOUT, 1.0)
    # 8 of 8 and 5 of 8 differ in the number only: the simple counter has no pips to vanish
    a, b = render_counter(_view(strength=8), small), render_counter(_view(strength=5), small)
    lower = pygame.Rect(0, small // 2, small, small - small // 2)
    diff_low = _differs(a.subsurface(lower), b.subsurface(lower))
    top = pygame.Rect(0, 0, small, small // 3)
    assert diff_low > 0 and _differs(a.subsurface(top), b.subsurface(top)) == 0


def test_full_counter_label_stays_left_of_the_overwatch_badge() -> None:
    pygame.init()
    size = counter_size(LAYOUT, 2.0)
    with_badge = render_counter(_view(markers=("overwatch",)), size)
    plain = render_counter(_view(), size)
    # the badge's column (right quarter, top third) changes; the label's left part is unchanged
    # in shape only where no badge sits: the two counters differ nowhere left of the badge's edge
    right = size * 3 // 4 - 4
    left = pygame.Rect(0, 0, right - size // 3, size // 3)
    assert _differs(with_badge.subsurface(left), plain.subsurface(left)) < left.w * left.h // 2
