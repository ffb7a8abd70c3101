"""The hint mark's label is placed clear of the unit counters near it and of the map view's edge
(a QA look at 960x600: "Hint: move here" sat on the ring's bottom edge, over the counter of the
hex below)."""

from __future__ import annotations

from typing import Any

import pygame

from game.core.hexgrid import Hex, neighbours
from game.systems.tactical.client.labels import view_rect
from tests.client.clientfix import battle, make_app, make_session, settle


def _counter_rects(scene: Any) -> list[pygame.Rect]:
    """Every counter's square on screen, as the map draws it."""
    cam, mv = scene.camera, scene.map_view
    side = mv._counter_size(cam.zoom)
    out = []
    for u in scene.state.units.values():
        x, y = cam.world_to_screen(*scene.layout.hex_center(u.hex))
        out.append(pygame.Rect(round(x - side / 2), round(y - side / 2), side, side))
    return out


def _hint_box(app: Any, at: Hex, text: str = "Hint: move here") -> pygame.Rect:
    scene = battle(app)
    scene.mode.hinted = (at, text)
    scene.map_view.forget_picture()
    settle(app, 2)
    app.render()
    placed = [box for label, box in scene.map_labels.placed if label.text == text]
    assert len(placed) == 1, scene.map_labels.placed
    return placed[0]


def _session_around(centre: tuple[int, int], below_only: bool) -> Any:
    probe = make_session([], width=14, height=10)
    c = probe.board.hex_at(*centre)
    layout = probe.layout
    cy = layout.hex_center(c)[1]
    units = []
    for n, h in enumerate(neighbours(c)):
        if h not in probe.board.terrain:
            continue
        if below_only and layout.hex_center(h)[1] <= cy:
            continue
        col, row = _offset(probe, h)
        units.append((f"m{n}", "militia_band", "red", (col, row)))
    units.append(("r1", "rifle_section", "blue", (1, 1)))
    return make_session(units, width=14, height=10, phase="movement"), c


def _offset(session: Any, h: Hex) -> tuple[int, int]:
    for col in range(session.board.width):
        for row in range(session.board.height):
            if session.board.hex_at(col, row) == h:
                return col, row
    raise AssertionError(h)


def test_with_counters_on_the_hexes_below_the_mark_its_label_goes_where_it_covers_none() -> None:
    for size in ((960, 600), (1280, 800)):
        session, mark = _session_around((6, 5), below_only=True)
        app = make_app(session, size=size, blackout=False)
        battle(app).camera.ensure_visible(*battle(app).layout.hex_center(mark))
        box = _hint_box(app, mark)
        scene = battle(app)
        hits = [r for r in _counter_rects(scene) if r.colliderect(box)]
        assert not hits, (size, box, hits)
        assert view_rect(scene.camera).contains(box)


def test_a_mark_at_the_views_bottom_edge_has_its_label_whole_above_its_ring_not_pushed_onto_it() -> None:
    session = make_session([("r1", "rifle_section", "blue", (1, 1))], width=14, height=24, phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    scene = battle(app)
    mark = session.board.hex_at(6, 12)
    cam, view = scene.camera, view_rect(scene.camera)
    cam.ensure_visible(*scene.layout.hex_center(mark))
    _, y = cam.world_to_screen(*scene.layout.hex_center(mark))
    cam.pan_screen(0, round(y - (view.bottom - 12)))  # the marked hex at the foot of the view
    box = _hint_box(app, mark)
    mx, my = cam.world_to_screen(*scene.layout.hex_center(mark))
    assert view.collidepoint(mx, my) and my > view.bottom - scene.layout.th * cam.zoom  # (at the edge)
    ring_half = scene.layout.th * cam.zoom * 0.5 * 0.78
    assert view.contains(box) and box.bottom < my - ring_half  # whole, above the ring, not over it


def test_the_mark_alone_on_the_map_keeps_its_label_just_under_its_ring() -> None:
    session = make_session([("r1", "rifle_section", "blue", (1, 1))], width=14, height=10, phase="movement")
    app = make_app(session, size=(960, 600), blackout=False)
    mark = session.board.hex_at(6, 5)
    scene = battle(app)
    scene.camera.ensure_visible(*scene.layout.hex_center(mark))
    box = _hint_box(app, mark)
    mx, my = scene.camera.world_to_screen(*scene.layout.hex_center(mark))
    ring_half = scene.layout.th * scene.camera.zoom * 0.5 * 0.78
    assert abs(box.centerx - mx) <= 1  # centred under it
    assert my + ring_half < box.top <= my + ring_half + 8  # just below the ring, clear of it
