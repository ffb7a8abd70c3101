"""Hex <-> pixel layout: Tiled's own positions, map sizes, and picking (hypothesis properties)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.core.hexgrid import Hex, Stagger, neighbours
from game.core.hexlayout import HexLayout

ALL_STAGGERS = [Stagger(a, i) for a in ("x", "y") for i in ("odd", "even")]


@st.composite
def layouts(draw):
    """Any Tiled hexagonal geometry: odd and even sizes, non-regular hexes, all four layouts."""
    stagger = draw(st.sampled_from(ALL_STAGGERS))
    tw = draw(st.integers(12, 120))
    th = draw(st.integers(max(12, tw // 2), min(120, tw * 2)))  # non-regular, not needle-thin
    limit = (tw if stagger.axis == "x" else th) & ~1
    side = draw(st.integers(0, limit - 2))
    return HexLayout(tw, th, side, stagger, draw(st.integers(1, 40)), draw(st.integers(1, 40)))


cells = st.tuples(st.integers(-5, 45), st.integers(-5, 45))


# --------------------------------------------------------------------------- known Tiled positions

def test_pointy_odd_rows_shift_right_by_half_a_tile_as_tiled_draws_them():
    lay = HexLayout(64, 74, 36, Stagger("y", "odd"), 10, 8)
    assert lay.tile_origin(0, 0) == (0, 0)
    assert lay.tile_origin(1, 0) == (64, 0)
    assert lay.tile_origin(0, 1) == (32, 55)  # row height = (74-36)//2 + 36
    assert lay.tile_origin(2, 3) == (160, 165)
    assert lay.map_pixel_size == (10 * 64 + 32, 8 * 55 + 19)


def test_pointy_even_index_shifts_even_rows_instead():
    lay = HexLayout(64, 74, 36, Stagger("y", "even"), 10, 8)
    assert lay.tile_origin(0, 0) == (32, 0)
    assert lay.tile_origin(0, 1) == (0, 55)


def test_flat_odd_columns_shift_down_by_half_a_tile_as_tiled_draws_them():
    lay = HexLayout(74, 64, 36, Stagger("x", "odd"), 10, 8)
    assert lay.tile_origin(0, 0) == (0, 0)
    assert lay.tile_origin(1, 0) == (55, 32)
    assert lay.tile_origin(0, 1) == (0, 64)
    assert lay.tile_origin(3, 2) == (165, 160)
    assert lay.map_pixel_size == (10 * 55 + 19, 8 * 64 + 32)


def test_flat_even_index_shifts_even_columns_instead():
    lay = HexLayout(74, 64, 36, Stagger("x", "even"), 10, 8)
    assert lay.tile_origin(0, 0) == (0, 32)
    assert lay.tile_origin(1, 0) == (55, 0)


def test_odd_tile_sizes_are_rounded_down_to_even_like_tiled():
    lay = HexLayout(33, 29, 9, Stagger("y", "odd"), 5, 5)
    # tw=32, th=28, off_y=(28-9)//2=9, row height=18
    assert lay.tile_origin(1, 1) == (48, 18)
    assert lay.map_pixel_size == (5 * 32 + 16, 5 * 18 + 9)


def test_single_row_or_column_maps_have_no_stagger_margin():
    assert HexLayout(64, 74, 36, Stagger("y", "odd"), 4, 1).map_pixel_size == (256, 74)
    assert HexLayout(74, 64, 36, Stagger("x", "odd"), 1, 4).map_pixel_size == (74, 256)


def test_tall_tile_images_are_bottom_aligned_and_tile_offset_applied():
    lay = HexLayout(64, 74, 36, Stagger("y", "odd"), 4, 4)
    assert lay.tile_image_position(0, 0, 74) == (0, 0)
    assert lay.tile_image_position(0, 0, 100) == (0, -26)
    assert lay.tile_image_position(1, 1, 100, (3, -4)) == (64 + 32 + 3, 55 + 74 - 100 - 4)


def test_hexsidelength_longer_than_tile_is_refused():
    with pytest.raises(ValueError, match="hexsidelength"):
        HexLayout(64, 74, 80, Stagger("y", "odd"))


# --------------------------------------------------------------------------- properties

@given(layouts(), cells)
def test_every_tile_lies_inside_the_map_bounds(lay, cell):
    col, row = cell[0] % lay.width, cell[1] % lay.height
    if (lay.width if lay.stagger.axis == "x" else lay.height) == 1:
        return  # Tiled adds no stagger margin then, even if the single line is the shifted one
    w, h = lay.map_pixel_size
    # Tiled's map size can be one pixel short when (tile size - hexsidelength) is odd.
    for x, y in lay.tile_corners(col, row):
        assert 0 <= x <= w + 1 and 0 <= y <= h + 1


@given(layouts(), cells)
def test_centre_of_every_hex_picks_that_hex(lay, cell):
    h = lay.stagger.to_hex(*cell)
    assert lay.pixel_to_hex(*lay.hex_center(h)) == h


@given(layouts(), cells, st.integers(0, 5), st.floats(0.2, 0.8))
def test_points_just_inside_an_edge_pick_the_hex_of_that_edge(lay, cell, edge, t):
    h = lay.stagger.to_hex(*cell)
    corners = lay.hex_corners(h)
    (x1, y1), (x2, y2) = corners[edge], corners[(edge + 1) % 6]
    if (x1, y1) == (x2, y2):
        return  # degenerate edge (hexsidelength 0)
    cx, cy = lay.hex_center(h)
    ex, ey = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
    # Step 1.5 px from the edge along its inward normal (odd sizes overlap by at most 1 px).
    length = ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    if nx * (cx - ex) + ny * (cy - ey) < 0:
        nx, ny = -nx, -ny
    if nx * (cx - ex) + ny * (cy - ey) < 4:
        return  # hex too thin at this edge to step inside
    px, py = ex + nx * 1.5, ey + ny * 1.5
    assert lay.pixel_to_hex(px, py) == h


@given(layouts().filter(lambda lay: lay.hexsidelength >= 2), cells)
def test_adjacent_hexes_share_an_edge_on_screen(lay, cell):
    h = lay.stagger.to_hex(*cell)
    mine = {(round(x), round(y)) for x, y in lay.hex_corners(h)}
    for n in neighbours(h):
        theirs = {(round(x), round(y)) for x, y in lay.hex_corners(n)}
        # Regular geometries share two corners exactly; odd ones may be off by a pixel.
        close = sum(1 for a in mine for b in theirs if abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1)
        assert close >= 2


@pytest.mark.parametrize("stagger", ALL_STAGGERS)
def test_picking_across_a_whole_map_matches_each_hex_centre(stagger):
    tw, th = (74, 64) if stagger.axis == "x" else (64, 74)
    lay = HexLayout(tw, th, 36, stagger, 12, 9)
    for col, row, h in stagger.iter_grid(12, 9):
        assert lay.pixel_to_tile(*lay.tile_center(col, row)) == (col, row)
        assert lay.pixel_to_hex(*lay.hex_center(h)) == h


def test_hex_corners_are_six_distinct_points_around_the_centre():
    lay = HexLayout(64, 74, 36, Stagger("y", "odd"), 3, 3)
    corners = lay.hex_corners(Hex(1, 1))
    assert len(set(corners)) == 6
    cx, cy = lay.hex_center(Hex(1, 1))
    assert sum(x for x, _ in corners) / 6 == pytest.approx(cx)
    assert sum(y for _, y in corners) / 6 == pytest.approx(cy)


def test_hexlayout_is_pure_and_imports_no_pygame():
    import subprocess
    import sys

    code = "import sys, game.core.hexlayout; print('pygame' in sys.modules, 'pytmx' in sys.modules, 'yaml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False", "False"]


def _deepest_by_polygons(lay, x, y):
    """The oracle: each candidate's own corners and centre measured with _depth, as picking did
    before the edges were worked out once per layout. Returns the best tile and the best two depths."""
    from game.core.hexlayout import _depth

    if lay.stagger.axis == "x":
        c0, r0 = int(x // lay.column_width), int(y // (lay.th + lay.side_y))
    else:
        c0, r0 = int(x // (lay.tw + lay.side_x)), int(y // lay.row_height)
    found = []
    for col in range(c0 - 3, c0 + 4):  # every tile a few tiles around the point
        for row in range(r0 - 3, r0 + 4):
            cx, cy = lay.tile_center(col, row)
            found.append((_depth(lay.tile_corners(col, row), (cx, cy), x, y), (col, row)))
    found.sort(key=lambda f: -f[0])
    return found[0][1], found[0][0], found[1][0]


@given(layouts(), st.floats(-40, 1800), st.floats(-40, 1800))
def test_picking_is_the_hexagon_the_point_lies_deepest_in(lay, x, y):
    got = lay.pixel_to_tile(x, y)
    want, best, second = _deepest_by_polygons(lay, x, y)
    assert got == want or best - second < 1e-9  # (a point exactly as deep in two: either)
