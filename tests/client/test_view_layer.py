"""The kept picture of the map view: drawn once with a margin around the view, then panning
frames show another part of it; past the margin it is drawn again around the new position.
Whatever the zoom and however far the view pans, the screen must match a fresh drawing pixel
for pixel."""

from __future__ import annotations

import pygame

from game.systems.tactical.client import battle_draw, rq
from tests.client.clientfix import battle, click_hex, hover_hex, make_app, make_session, post

UNITS = [("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (8, 5)),
         ("r2", "rifle_section", "blue", (6, 6)), ("m2", "militia_band", "red", (12, 9))]


def view_pixels(surface: pygame.Surface, view: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(view), "RGB")


def pan(app, k: int, frames: int) -> None:  # type: ignore[no-untyped-def]
    post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    for _ in range(frames):
        app.step(dt=0.03)
        app.render()
    post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.step()
    app.render()


def _count_builds(monkeypatch) -> list[int]:  # type: ignore[no-untyped-def]
    """A list that gets an item each time a kept picture of the map view is drawn."""
    builds: list[int] = []
    real = battle_draw.MapView._build_view_layer

    def counting(self, *args):  # type: ignore[no-untyped-def]
        builds.append(1)
        return real(self, *args)

    monkeypatch.setattr(battle_draw.MapView, "_build_view_layer", counting)
    return builds


def test_panning_within_and_past_the_margin_at_every_zoom_matches_a_fresh_drawing(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    builds = _count_builds(monkeypatch)
    units = UNITS + [(f"x{i}", "rifle_section", ("blue", "red")[i % 2], (5 + 3 * (i % 9), 4 + 2 * (i // 9)))
                     for i in range(40)]
    session = make_session(units, width=60, height=40, overrides={(3, 3): "woods", (5, 5): "swamp"},
                           roads={(4, c) for c in range(40)}, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r2"].hex)
    hover_hex(app, session.board.hex_at(8, 7))
    _, _, view = scene.regions()
    seen = set()
    for steps in (0, 1, 1, 1, -4, -1, -1, 4):  # zoom 1, 1.25, 1.5, 1.75, 0.875, 0.75, 0.625, 1
        for _ in range(abs(steps)):
            post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1 if steps > 0 else -1, flipped=False,
                                    precise_x=0.0, precise_y=1.0 if steps > 0 else -1.0))
            app.step()
        for _ in range(3):
            app.step()
            app.render()
        for k, frames in ((pygame.K_RIGHT, 3), (pygame.K_DOWN, 14), (pygame.K_RIGHT, 17), (pygame.K_w, 2)):
            builds.clear()
            scrolls = scene.view_scrolls
            pan(app, k, frames)
            moved = scene.view_scrolls - scrolls
            assert scene.map_view.kept_picture_current()
            kept = view_pixels(app.render(), view)
            if frames <= 3:  # 21 px a frame: still inside the margin, nothing was drawn again
                assert moved >= 1 and not builds, (scene.camera.zoom, k)
            else:
                assert builds, (scene.camera.zoom, k)  # past the margin: drawn again further on
            scene.map_view.forget_picture()  # forget it: the next picture is drawn from scratch
            fresh = view_pixels(app.render(), view)
            assert kept == fresh, f"zoom {scene.camera.zoom}, key {pygame.key.name(k)} x{frames}"
            seen.add(scene.camera.zoom)
            app.step()
            app.render()
        for k in (pygame.K_LEFT, pygame.K_UP):  # back near the start for the next zoom
            pan(app, k, 20)
    assert seen == {0.625, 0.75, 0.875, 1.0, 1.25, 1.5, 1.75}


def test_the_side_panel_and_top_bar_look_the_same_whether_the_view_is_kept_or_drawn() -> None:
    session = make_session(UNITS, width=30, height=20, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    for _ in range(3):
        app.step()
        app.render()
    assert scene.map_view.kept_picture_current()
    kept = pygame.image.tobytes(app.render(), "RGB")
    scene.map_view.forget_picture()
    fresh = pygame.image.tobytes(app.render(), "RGB")
    assert kept == fresh


def test_hovering_hex_after_hex_draws_no_new_kept_picture_and_matches_drawing_it_all(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """What follows the mouse (the hovered hex's outline and tints, the path and its labels) is
    drawn over the kept picture, so moving the mouse redraws none of the map; from the next frame
    on the two are kept as one picture. Either way the screen is the very one drawing everything
    afresh gives."""
    from game.systems.tactical.client.rq import reach_cost

    builds = _count_builds(monkeypatch)
    session = make_session(UNITS, width=30, height=20, overrides={(4, 4): "woods"},
                           roads={(5, c) for c in range(20)}, phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r2"].hex)
    app.render()
    _, _, view = scene.regions()
    def seen(h):  # type: ignore[no-untyped-def]  # on screen now (hovering it pans nothing)
        return view.inflate(-80, -80).collidepoint(scene.camera.world_to_screen(*scene.layout.hex_center(h)))

    move = sorted(h for h in reach_cost(rq.move_reach(session.state, "r2")) if seen(h))
    beyond = [h for h in sorted(session.board.terrain) if seen(h) and h not in move][::40]
    tinted = 0
    for h in [*move[::3], session.state.units["m1"].hex, *beyond]:
        builds.clear()
        hover_hex(app, h)
        kept = view_pixels(app.render(), view)  # the hover drawn over the kept picture
        again = view_pixels(app.render(), view)  # the next frame (the window shows it already)
        assert again == kept, h
        app.forget_screen()  # a frame on a window that lost its picture: the two kept as one
        whole = view_pixels(app.render(), view)
        assert scene.map_view._composed is not None and whole == kept, h
        assert not builds, h  # the map was not drawn again for a hover
        tinted += scene.map_view._hover_overlay is not None
        with monkeypatch.context() as m:  # everything drawn straight onto the screen instead
            m.setattr(battle_draw.MapView, "_kept_view_area", lambda self, view: None)
            fresh = view_pixels(app.render(), view)
        assert kept == fresh, h
    assert tinted > 0  # some hovers showed where a dash could go after moving there
