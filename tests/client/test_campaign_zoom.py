"""The campaign map zooms and moves: the wheel zooms around the pointer (the hex under it stays
under it), a right or middle drag and the arrow keys move the map, Home shows the whole map
again, and clicks keep landing on the hex drawn under them at any zoom."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.systems.campaign.client.scene import MAX_ZOOM, PAN_STEP, PANEL_W, ZOOM_STEP  # noqa: E402
from tests.client.test_campaign_client import _app, click, key, through_handoff  # noqa: E402


def _motion(app, pos: tuple[int, int], buttons: tuple[int, int, int] = (0, 0, 0)) -> None:  # type: ignore[no-untyped-def]
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=buttons)])


def _zoomed_in(k: int):  # type: ignore[no-untyped-def]
    """A campaign app and scene past the hand-off, zoomed in twice with key `k`, and the map view
    as it was before."""
    app, scene = _app()
    through_handoff(app)
    view = scene.map_view()
    key(app, k)
    key(app, k)
    return app, scene, view


def _wheel(app, y: int) -> None:  # type: ignore[no-untyped-def]
    app.step([pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=y, flipped=False, precise_x=0.0, precise_y=float(y))])


def test_the_wheel_zooms_around_the_pointer_and_home_shows_the_whole_map_again() -> None:
    app, scene = _app()
    through_handoff(app)
    whole = (scene.scale, scene.origin)
    target = (29, 9)  # the Zones' host
    at = tuple(int(v) for v in scene.hex_centre(target))

    def under_pointer() -> tuple[float, float]:  # the map point (map pixels) under `at`
        return ((at[0] - scene.origin[0]) / scene.scale, (at[1] - scene.origin[1]) / scene.scale)

    before = under_pointer()
    _motion(app, at)
    _wheel(app, 2)
    assert abs(scene.scale - whole[0] * ZOOM_STEP ** 2) < 1e-9
    after = under_pointer()
    assert abs(after[0] - before[0]) < 1e-6 and abs(after[1] - before[1]) < 1e-6
    assert scene.hex_at(at) == target  # still under the pointer
    for _ in range(20):
        _wheel(app, 3)
    assert abs(scene.zoom - MAX_ZOOM) < 1e-9  # no closer than that
    for _ in range(20):
        _wheel(app, -3)
    assert scene.zoom == 1.0 and abs(scene.scale - whole[0]) < 1e-9  # no further out than the whole map
    _wheel(app, 1)
    key(app, pygame.K_HOME)
    assert (scene.scale, scene.origin) == whole


def test_a_right_drag_and_the_arrow_keys_move_the_map_and_it_never_leaves_the_view() -> None:
    app, scene, view = _zoomed_in(pygame.K_PLUS)
    o = scene.origin
    start = (view.centerx, view.centery)
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=3)])
    assert scene.wants_frames()  # a drag is drawn at the full rate
    _motion(app, (start[0] + 40, start[1] - 25), (0, 0, 1))
    app.step([pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(start[0] + 40, start[1] - 25), button=3)])
    assert scene.origin == (o[0] + 40, o[1] - 25)
    assert not scene._dragging  # noqa: SLF001
    key(app, pygame.K_LEFT)
    assert scene.origin == (o[0] + 40 + PAN_STEP, o[1] - 25)
    for _ in range(200):  # far past the edge: some of the map stays in view
        key(app, pygame.K_LEFT)
        key(app, pygame.K_UP)
    mw, mh = scene.layout.map_pixel_size
    left, top = scene.origin
    assert left < view.right and top < view.bottom
    assert pygame.Rect(int(left), int(top), int(mw * scene.scale), int(mh * scene.scale)).colliderect(view)


def test_after_zooming_in_a_click_selects_the_army_drawn_under_it() -> None:
    app, scene = _app()
    through_handoff(app)
    target = (29, 9)
    at = tuple(int(v) for v in scene.hex_centre(target))
    _motion(app, at)
    _wheel(app, 3)
    _wheel(app, 2)
    key(app, pygame.K_RIGHT)  # and moved a little
    click(app, scene.hex_centre(target))
    assert scene.selected is not None and scene.state.armies[scene.selected].hex == target
    pygame.quit()


def test_a_resized_window_keeps_the_zoom_and_what_was_in_the_middle_of_the_map_view() -> None:
    app, scene, view = _zoomed_in(pygame.K_EQUALS)
    zoom = scene.zoom
    middle = ((view.centerx - scene.origin[0]) / scene.scale, (view.centery - scene.origin[1]) / scene.scale)
    app.screen = pygame.display.set_mode((960, 600))
    scene.on_resize((960, 600))
    new = scene.map_view()
    assert new.size == (960 - PANEL_W, 600 - scene.legend_rect().h)  # (above the legend band)
    assert scene.zoom == zoom
    now = ((new.centerx - scene.origin[0]) / scene.scale, (new.centery - scene.origin[1]) / scene.scale)
    assert abs(now[0] - middle[0]) < 1e-6 and abs(now[1] - middle[1]) < 1e-6
    key(app, pygame.K_HOME)
    assert scene.zoom == 1.0
    pygame.quit()
