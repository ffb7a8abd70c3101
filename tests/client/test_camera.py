"""The battle camera: zoom towards the cursor, clamping, panning."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.shell.camera import EDGE_MARGIN, ZOOM_LEVELS, Camera


def cam(map_w: float = 3000, map_h: float = 2000) -> Camera:
    c = Camera(map_w, map_h)
    c.set_viewport(0, 46, 900, 754)
    c.centre_on(map_w / 2, map_h / 2)
    return c


@given(sx=st.integers(0, 899), sy=st.integers(46, 799), steps=st.sampled_from([1, -1, 2, -2]))
def test_zoom_keeps_the_world_point_under_the_cursor(sx: int, sy: int, steps: int) -> None:
    c = cam()
    before = c.screen_to_world(sx, sy)
    c.zoom_at(steps, sx, sy)
    after = c.screen_to_world(sx, sy)
    # unless clamping had to move the view, the point under the cursor does not move
    lo_x, hi_x = c._axis_limits(c.map_w, c.view_w)
    lo_y, hi_y = c._axis_limits(c.map_h, c.view_h)
    if lo_x < c.pos_x < hi_x and lo_y < c.pos_y < hi_y:
        # to the pixel: the view snaps to whole screen pixels
        assert after == pytest.approx(before, abs=1 / c.zoom + 1e-6)


def test_zoom_in_then_out_returns_to_the_same_level_and_stops_at_the_ends() -> None:
    c = cam()
    start = c.zoom
    assert c.zoom_at(1, 400, 300)
    assert c.zoom > start
    assert c.zoom_at(-1, 400, 300)
    assert c.zoom == start
    for _ in range(20):
        c.zoom_at(1, 400, 300)
    assert c.zoom == ZOOM_LEVELS[-1]
    assert not c.zoom_at(1, 400, 300)


@given(dx=st.floats(-1e5, 1e5), dy=st.floats(-1e5, 1e5), zoom_steps=st.integers(-4, 4))
def test_panning_never_loses_the_map(dx: float, dy: float, zoom_steps: int) -> None:
    c = cam()
    c.zoom_at(zoom_steps, 450, 400)
    c.pan_screen(dx, dy)
    # the map rectangle on screen still overlaps the viewport by most of the view
    left, top = c.world_to_screen(0, 0)
    right, bottom = c.world_to_screen(c.map_w, c.map_h)
    assert left <= c.view_x + EDGE_MARGIN + 1e-6
    assert right >= c.view_x + c.view_w - EDGE_MARGIN - 1e-6
    assert top <= c.view_y + EDGE_MARGIN + 1e-6
    assert bottom >= c.view_y + c.view_h - EDGE_MARGIN - 1e-6


def test_a_map_smaller_than_the_view_stays_centred() -> None:
    c = cam(400, 300)
    c.pan_screen(5000, -5000)
    left, top = c.world_to_screen(0, 0)
    right, bottom = c.world_to_screen(400, 300)
    assert (left + right) / 2 == pytest.approx(c.view_x + c.view_w / 2, abs=1)
    assert (top + bottom) / 2 == pytest.approx(c.view_y + c.view_h / 2, abs=1)


def test_screen_and_world_conversions_are_inverse() -> None:
    c = cam()
    c.zoom_at(2, 100, 200)
    for p in ((0, 0), (1234.5, 876.25), (3000, 2000)):
        assert c.screen_to_world(*c.world_to_screen(*p)) == pytest.approx(p)


@given(dx=st.floats(-500, 500), dy=st.floats(-500, 500), steps=st.integers(-4, 4))
def test_the_map_corner_always_lands_on_a_whole_screen_pixel(dx: float, dy: float, steps: int) -> None:
    c = cam()
    c.zoom_at(steps, 333, 444)
    c.pan_screen(dx, dy)
    x, y = c.world_to_screen(0, 0)
    assert x == pytest.approx(round(x), abs=1e-6) and y == pytest.approx(round(y), abs=1e-6)
