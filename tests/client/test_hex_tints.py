"""The reach overlay's hex tints are stamped from kept pictures of one tinted hex (draw.py) and
come out as drawing each hex's polygon in place does, at every zoom, on both kinds of hex map: the
same pixels but for a rounding on a hex's very edge."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout, Stagger
from game.shell import draw


def _drawn_in_place(layout: HexLayout, fills: list[Any], scale: float) -> tuple[pygame.Surface, tuple[int, int]]:
    """Every hex's polygon drawn where it lies (the oracle)."""
    polys = [(f, draw.scaled_corners(layout, f[0], scale, shrink=0.96)) for f in fills]
    xs = [x for _, pts in polys for x, _ in pts]
    ys = [y for _, pts in polys for _, y in pts]
    ox, oy = int(min(xs)) - 1, int(min(ys)) - 1
    surf = pygame.Surface((int(max(xs)) - ox + 2, int(max(ys)) - oy + 2), pygame.SRCALPHA)
    for f, pts in polys:
        pygame.draw.polygon(surf, (*f[1], f[2]), [(x - ox, y - oy) for x, y in pts])
    for f, _ in polys:
        if len(f) > 3:
            pts = draw.scaled_corners(layout, f[0], scale, shrink=0.86)
            pygame.draw.polygon(surf, (*f[1], 230), [(x - ox, y - oy) for x, y in pts], max(1, round(f[3] * scale)))
    return surf, (ox, oy)


LAYOUTS = [HexLayout(64, 56, 0, Stagger("x", "odd"), 20, 20), HexLayout(60, 66, 32, Stagger("y", "odd"), 20, 20),
           HexLayout(37, 42, 19, Stagger("y", "even"), 20, 20)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=["flat", "pointy", "odd-sized"])
@pytest.mark.parametrize("scale", [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0])
def test_stamped_tints_are_the_polygons_drawn_in_place(layout: HexLayout, scale: float) -> None:
    hexes = [layout.stagger.to_hex(c, r) for c in range(2, 12) for r in range(1, 9) if (c * 7 + r * 3) % 4]
    colours = [draw.MOVE_COLOUR, draw.DASH_COLOUR, draw.ROAD_COLOUR, draw.TARGET_COLOUR]
    fills: list[Any] = []
    for i, h in enumerate(hexes):
        f: tuple[Any, ...] = (Hex(*h), colours[i % 4], (45, 90, 105)[i % 3])
        fills.append((*f, 3) if i % 5 == 0 else f)
    got = draw.hex_fill_surface(layout, fills, scale)
    want, at = _drawn_in_place(layout, fills, scale)
    assert got is not None and got[1] == at
    a, b = got[0], want
    assert a.get_size() == b.get_size()
    w, h = a.get_size()

    def edge(x: int, y: int) -> bool:  # a pixel of the oracle next to one of another colour
        here = b.get_at((x, y))
        return any(0 <= x + dx < w and 0 <= y + dy < h and b.get_at((x + dx, y + dy)) != here
                   for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    painted = differ = 0
    for x in range(w):
        for y in range(h):
            painted += b.get_at((x, y)).a > 0
            if a.get_at((x, y)) != b.get_at((x, y)):
                differ += 1
                # only where a polygon's edge falls on a pixel's rounding (the same corner worked
                # out from the tile's corner instead of the map's) or two hexes' edges share one
                assert edge(x, y), (x, y, a.get_at((x, y)), b.get_at((x, y)))
    assert differ <= painted // 100, f"{differ} of {painted} painted pixels differ"


def test_no_tints_is_no_surface() -> None:
    assert draw.hex_fill_surface(LAYOUTS[0], [], 1.0) is None


def test_an_overlay_drawn_in_the_last_ones_surface_is_the_same_and_clear_around_it() -> None:
    layout = LAYOUTS[1]
    big = [(Hex(*layout.stagger.to_hex(c, r)), draw.DASH_COLOUR, 105) for c in range(1, 12) for r in range(1, 10)]
    small = [(Hex(*layout.stagger.to_hex(c, r)), draw.MOVE_COLOUR, 90) for c in range(4, 7) for r in range(3, 6)]
    first = draw.hex_fill_surface(layout, big, 1.0)
    assert first is not None
    again = draw.hex_fill_surface(layout, small, 1.0, reuse=first[0])
    fresh = draw.hex_fill_surface(layout, small, 1.0)
    assert again is not None and fresh is not None
    assert again[0].get_parent() is (first[0].get_parent() or first[0])  # no new surface
    assert again[1] == fresh[1] and again[0].get_size() == fresh[0].get_size()
    w, h = fresh[0].get_size()
    assert all(again[0].get_at((x, y)) == fresh[0].get_at((x, y)) for x in range(w) for y in range(h))
    bigger = big + [(Hex(*layout.stagger.to_hex(18, 15)), draw.MOVE_COLOUR, 90)]
    grown = draw.hex_fill_surface(layout, bigger, 1.0, reuse=again[0])  # too big for it: a new one
    assert grown is not None and (grown[0].get_parent() or grown[0]) is not (first[0].get_parent() or first[0])
    w, h = grown[0].get_size()
    assert all(grown[0].get_at((x, 0)).a == 0 for x in range(w))  # a fresh one, clear where no hex is


def test_tints_drawn_only_within_a_rectangle_are_those_of_all_the_hexes_there() -> None:
    layout = LAYOUTS[2]
    fills = [(Hex(*layout.stagger.to_hex(c, r)), draw.DASH_COLOUR, 70, 2) for c in range(0, 19) for r in range(0, 17)]
    whole = draw.hex_fill_surface(layout, fills, 1.25)
    area = pygame.Rect(233, 171, 301, 207)  # zoomed map pixels
    part = draw.hex_fill_surface(layout, fills, 1.25, within=area)
    assert whole is not None and part is not None
    assert part[0].get_width() * part[0].get_height() < whole[0].get_width() * whole[0].get_height() / 3
    for x in range(area.left, area.right):
        for y in range(area.top, area.bottom):
            want = whole[0].get_at((x - whole[1][0], y - whole[1][1]))
            assert part[0].get_at((x - part[1][0], y - part[1][1])) == want, (x, y)
    assert draw.hex_fill_surface(layout, fills, 1.25, within=pygame.Rect(-900, -900, 10, 10)) is None


@pytest.mark.parametrize("layout", LAYOUTS, ids=["flat", "pointy", "odd-sized"])
@pytest.mark.parametrize("scale", [0.5, 1.0, 1.25])
def test_tint_stamps_blended_onto_a_picture_give_the_tint_surface_blended_there_but_where_hexes_share_a_pixel(layout: HexLayout,
                                                                                scale: float) -> None:
    fills: list[Any] = [(Hex(*layout.stagger.to_hex(c, r)), draw.DASH_COLOUR, 70) for c in range(1, 9)
                        for r in range(1, 7) if (c + 2 * r) % 3]
    fills.append((Hex(*layout.stagger.to_hex(10, 8)), draw.TARGET_COLOUR, 105, 2))
    size = (int(14 * layout.tw * scale), int(12 * layout.th * scale))
    ground = pygame.Surface(size)
    for x in range(0, size[0], 7):  # a striped picture: a blend shows on every colour
        ground.fill(((x * 5) % 256, (x * 3) % 200 + 40, 90), pygame.Rect(x, 0, 7, size[1]))
    origin = (13, 9)
    want = ground.copy()
    whole = draw.hex_fill_surface(layout, fills, scale)
    assert whole is not None
    want.blit(whole[0], (origin[0] + whole[1][0], origin[1] + whole[1][1]))
    got = ground.copy()
    stamps = draw.hex_tint_stamps(layout, fills, scale)
    assert len(stamps) == len(fills)
    got.blits([(pic, (origin[0] + x, origin[1] + y)) for pic, (x, y) in stamps])
    # where two hexes' polygons share a pixel (their edges, at small zooms) it is tinted twice
    # instead of once: those pixels only
    union, twice = pygame.mask.Mask(size), pygame.mask.Mask(size)
    for pic, (x, y) in stamps:
        m = pygame.mask.from_surface(pic, 0)
        twice.draw(union.overlap_mask(m, (origin[0] + x, origin[1] + y)), (0, 0))
        union.draw(m, (origin[0] + x, origin[1] + y))
    differ = [(x, y) for x in range(size[0]) for y in range(size[1]) if got.get_at((x, y)) != want.get_at((x, y))]
    assert all(twice.get_at(p) for p in differ), [p for p in differ if not twice.get_at(p)][:5]
    assert len(differ) <= union.count() // 25, f"{len(differ)} of {union.count()} tinted pixels differ"
    assert pygame.image.tobytes(got, "RGB") != pygame.image.tobytes(ground, "RGB")
