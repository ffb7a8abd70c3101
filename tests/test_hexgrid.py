"""Hex maths properties (hypothesis) and Tiled offset conversion for all four layouts."""

from hypothesis import given
from hypothesis import strategies as st

from game.core.hexgrid import DIRECTIONS, Hex, Stagger, distance, hex_range, line, neighbours, ring

coords = st.integers(-60, 60)
hexes = st.builds(Hex, coords, coords)
layouts = st.sampled_from([Stagger(a, i) for a in ("x", "y") for i in ("odd", "even")])


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a, b):
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_triangle_inequality(a, b, c):
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_neighbours_are_six_distinct_hexes_at_distance_one(h):
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 for n in ns)


@given(hexes, st.integers(0, 8))
def test_ring_has_six_r_hexes_all_at_radius(h, r):
    hs = ring(h, r)
    assert len(set(hs)) == (1 if r == 0 else 6 * r)
    assert all(distance(h, x) == r for x in hs)


@given(hexes, st.integers(0, 8))
def test_range_is_union_of_rings(h, r):
    got = set(hex_range(h, r))
    expected = {x for k in range(r + 1) for x in ring(h, k)}
    assert got == expected
    assert len(got) == 3 * r * (r + 1) + 1


@given(hexes, hexes)
def test_line_is_contiguous_and_has_distance_plus_one_hexes(a, b):
    ln = line(a, b)
    assert ln[0] == a and ln[-1] == b
    assert len(ln) == distance(a, b) + 1
    assert all(distance(p, q) == 1 for p, q in zip(ln, ln[1:], strict=False))


def test_line_along_hex_edges_resolves_the_same_way_every_time():
    a, b = Hex(0, 0), Hex(2, -1)  # this line runs exactly along an edge between two hexes
    first = line(a, b)
    assert all(line(a, b) == first for _ in range(5))
    assert first[1] in (Hex(1, 0), Hex(1, -1))


@given(layouts, st.integers(-50, 50), st.integers(-50, 50))
def test_offset_axial_round_trip_for_all_four_tiled_layouts(layout, col, row):
    h = layout.to_hex(col, row)
    assert layout.to_offset(h) == (col, row)


@given(layouts, st.integers(0, 40), st.integers(0, 40))
def test_offset_neighbours_are_axial_neighbours(layout, col, row):
    """Tiled's staggered neighbours (by its own layout rule) are exactly the axial neighbours."""
    h = layout.to_hex(col, row)
    shifted = lambda n: (n & 1) == (1 if layout.index == "odd" else 0)  # noqa: E731
    if layout.axis == "y":
        dx = 0 if shifted(row) else -1
        cand = [(col - 1, row), (col + 1, row), (col + dx, row - 1), (col + dx + 1, row - 1),
                (col + dx, row + 1), (col + dx + 1, row + 1)]
    else:
        dy = 0 if shifted(col) else -1
        cand = [(col, row - 1), (col, row + 1), (col - 1, row + dy), (col - 1, row + dy + 1),
                (col + 1, row + dy), (col + 1, row + dy + 1)]
    assert {layout.to_hex(c, r) for c, r in cand} == set(neighbours(h))


def test_directions_are_the_six_unit_hexes():
    assert len(set(DIRECTIONS)) == 6
    assert all(distance(Hex(0, 0), d) == 1 for d in DIRECTIONS)
