"""The battle view driven by real pygame events: camera input, the cached map, hover, selection."""

from __future__ import annotations

import warnings

import pygame
import pytest

from game.core.hexgrid import distance
from game.shell.toolkit.richtext import Span, plain
from game.systems.tactical.client import rq
from game.table import TABLE
from tests.client.clientfix import (
    battle,
    click_hex,
    continue_handoff,
    hex_pos,
    hover_hex,
    key,
    make_app,
    make_session,
    move_mouse,
    post,
    press_button,
    settle,
    top_name,
)

UNITS = [("r1", "rifle_section", "blue", (2, 2)), ("m1", "militia_band", "red", (8, 5))]


@pytest.fixture
def app():  # type: ignore[no-untyped-def]
    a = make_app(make_session(UNITS, width=30, height=20, overrides={(3, 3): "woods"}, roads={(4, 4)},
                                phase="movement"))
    continue_handoff(a)
    return a


def test_the_static_map_is_drawn_once_per_zoom_level_not_every_frame(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    app.render()
    first = scene.map_cache.builds
    assert first >= 1
    for _ in range(30):
        app.step()
        app.render()
    assert scene.map_cache.builds == first  # idle frames only blit cached chunks
    move_mouse(app, (400, 400))
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    settle(app)
    zoomed = scene.map_cache.builds
    assert zoomed > first  # a new zoom level draws its chunks once...
    for _ in range(10):
        app.step()
        app.render()
    assert scene.map_cache.builds == zoomed  # ...and then keeps them
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    settle(app)
    app.render()
    assert scene.map_cache.builds == zoomed  # back to a level already drawn: reused


def test_the_chunked_map_shows_the_same_picture_as_one_scaled_image() -> None:
    from game.shell.mapcache import MapCache, board_picture
    from game.systems.tactical.client.text import terrain_colours

    session = make_session(UNITS, width=30, height=20, overrides={(3, 3): "woods", (10, 10): "water"})
    cache = MapCache(board_picture(session.board, session.layout, terrain_colours(session.setup.rules)), session.layout,
                     session.board.terrain)
    whole = pygame.transform.smoothscale(cache.base(), cache.size_at(0.75))
    chunked = cache.get(0.75)
    assert chunked.get_size() == whole.get_size()
    w, h = whole.get_size()
    worst = 0
    for x in range(3, w - 3, 37):
        for y in range(3, h - 3, 41):
            a, b = whole.get_at((x, y)), chunked.get_at((x, y))
            worst = max(worst, max(abs(a[k] - b[k]) for k in range(3)))
    assert worst <= 24  # same picture; only edge pixels of a chunk may blend a little differently


def test_wheel_zoom_keeps_the_point_under_the_cursor(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    pos = (450, 420)
    move_mouse(app, pos)
    before = scene.camera.screen_to_world(*pos)
    zoom = scene.camera.zoom
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=1, flipped=False))
    settle(app)
    assert scene.camera.zoom > zoom
    assert scene.camera.screen_to_world(*pos) == pytest.approx(before, abs=1 / scene.camera.zoom)  # to the pixel


def test_left_drag_on_the_map_pans_and_does_not_click(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    start = (scene.camera.pos_x, scene.camera.pos_y)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(500, 400), button=1))
    for i in range(1, 6):
        post(pygame.event.Event(pygame.MOUSEMOTION, pos=(500 - 20 * i, 400 - 10 * i), rel=(-20, -10),
                                buttons=(1, 0, 0)))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(400, 350), button=1))
    settle(app)
    assert scene.camera.pos_x > start[0] and scene.camera.pos_y > start[1]
    assert scene.selected is None


def test_arrow_keys_and_wasd_pan_while_held(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    x0 = scene.camera.pos_x
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    for _ in range(10):
        app.step(dt=0.05)
    post(pygame.event.Event(pygame.KEYUP, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    app.step()
    x1 = scene.camera.pos_x
    assert x1 > x0
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode="", scancode=0))
    for _ in range(5):
        app.step(dt=0.05)
    post(pygame.event.Event(pygame.KEYUP, key=pygame.K_LEFT, mod=0, unicode="", scancode=0))
    app.step()
    assert scene.camera.pos_x < x1


def test_the_hover_is_the_hex_under_a_still_pointer_once_keys_have_panned_or_the_wheel_zoomed(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    _, _, view = scene.regions()
    pos = (view.centerx, view.centery)
    move_mouse(app, pos)
    before = scene.hover
    assert before == scene.hex_at(pos)
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    for _ in range(10):
        app.step(dt=0.05)
    post(pygame.event.Event(pygame.KEYUP, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    app.step()
    # once the map stops, the hover is the hex now under the pointer
    assert scene.hover != before and scene.hover == scene.hex_at(pos)
    assert scene.panels.styled("info") == scene.panels.info_text(scene)  # and the hex box names it
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0))
    post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False, precise_x=0.0, precise_y=-1.0))
    app.step()
    assert scene.hover == scene.hex_at(pos)


def test_hovering_a_hex_shows_its_terrain_and_the_unit_on_it(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    st = scene.state
    hover_hex(app, st.board.hex_at(3, 3))
    info = scene.panels.info_text(scene)
    assert info[0][0] == Span("Woods", bold=True)  # the terrain's name, in bold
    words = plain(info)
    assert "move cost 2" in words and "cover 2" in words and "blocks line of sight" in words
    hover_hex(app, st.board.hex_at(4, 4))
    assert "road" in plain(scene.panels.info_text(scene))
    hover_hex(app, st.units["m1"].hex)
    info = scene.panels.info_text(scene)
    assert "Militia Band" in plain(info) and "spears" in plain(info)
    strength = next(ln for ln in info if ln and ln[0].text == "Strength ")
    assert strength[1] == Span("8 of 8", bold=True)  # the unit's strength, in bold


def test_clicking_a_unit_selects_it_and_shows_its_panel(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    click_hex(app, scene.state.units["m1"].hex)
    assert scene.selected == "m1"
    assert "Militia Band" in scene.panels.shown("unit")
    click_hex(app, scene.state.units["m1"].hex, button=3)  # right click cancels
    assert scene.selected is None


def test_g_toggles_the_hex_grid(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    shown = scene.settings.show_grid
    key(app, pygame.K_g)
    assert scene.settings.show_grid is not shown
    key(app, pygame.K_g)
    assert scene.settings.show_grid is shown


def test_f1_opens_the_help_overlay_listing_the_controls(app) -> None:  # type: ignore[no-untyped-def]
    key(app, pygame.K_F1)
    assert top_name(app) == "help"
    html = app.scenes.top.body_text  # type: ignore[union-attr]
    for words in ("Right click", "Wheel", "WASD", "Tab", "Ctrl+Z", "End the phase".lower(), "F11",
                  "Replay view (F3)", "PageDown", "play on from this command", "1-9"):
        assert words.lower() in html.lower()
    assert "jump to round 1" not in html  # nine keys, one line of help
    press_button(app, "Close")
    assert top_name(app) == "battle"


def test_resizing_the_window_relays_out_the_view(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    post(pygame.event.Event(pygame.VIDEORESIZE, w=1600, h=1000, size=(1600, 1000)))
    settle(app)
    app.render()
    assert app.screen.get_size() == (1600, 1000)
    assert scene.camera.view_w == 1600 - 380 and scene.camera.view_h == 1000 - 46
    # clicks still land on the right hex after the resize
    click_hex(app, scene.state.units["r1"].hex)
    assert scene.selected == "r1"


def test_hex_centres_pick_their_own_hex_at_every_zoom(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    h = scene.state.board.hex_at(5, 6)
    for steps in (-2, 1, 1, 1, 1):
        move_mouse(app, hex_pos(app, h))
        post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=steps, flipped=False))
        settle(app)
        assert scene.hex_at(hex_pos(app, h)) == h


def test_f11_toggles_fullscreen_and_back_to_the_window_size(app) -> None:  # type: ignore[no-untyped-def]
    key(app, pygame.K_F11)
    assert app.fullscreen
    app.render()
    key(app, pygame.K_F11)
    assert not app.fullscreen
    assert app.screen.get_size() == app.size
    scene = battle(app)
    assert scene.camera.view_w == app.size[0] - 380


def test_the_map_cache_keeps_a_bounded_number_of_chunks() -> None:
    from game.shell.mapcache import MapCache, board_picture
    from game.systems.tactical.client.text import terrain_colours

    session = make_session(UNITS, width=40, height=30)
    cache = MapCache(board_picture(session.board, session.layout, terrain_colours(session.setup.rules)), session.layout,
                     session.board.terrain, max_chunks=6)
    view = pygame.Rect(0, 0, 900, 700)
    for z in (0.5, 1.0, 2.0):
        for dx in range(0, 3000, 600):
            cache.prepare(z, True, (-dx, 0), view)
    assert len(cache._chunks) <= 6


def test_a_drag_released_over_the_side_panel_stops_panning(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=(500, 400), button=1))
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=(700, 400), rel=(200, 0), buttons=(1, 0, 0)))
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=(1000, 450), rel=(300, 50), buttons=(1, 0, 0)))
    post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(1000, 450), button=1))  # over the hex panel
    settle(app)
    after = (scene.camera.pos_x, scene.camera.pos_y)
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=(600, 500), rel=(-400, 200), buttons=(0, 0, 0)))
    settle(app)
    assert (scene.camera.pos_x, scene.camera.pos_y) == after


def test_a_panned_view_kept_by_scrolling_matches_a_fresh_drawing() -> None:
    session = make_session(UNITS + [("r2", "rifle_section", "blue", (6, 6)), ("m2", "militia_band", "red", (12, 9))],
                           width=30, height=20, overrides={(3, 3): "woods", (5, 5): "swamp"}, roads={(4, c) for c in range(20)},
                           phase="movement")
    app = make_app(session, blackout=False)
    scene = battle(app)
    click_hex(app, session.state.units["r2"].hex)
    hover_hex(app, session.board.hex_at(8, 7))
    for _ in range(3):
        app.step()
    app.render()
    for k, frames in ((pygame.K_RIGHT, 6), (pygame.K_DOWN, 5), (pygame.K_a, 3)):
        post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        for _ in range(frames):
            app.step(dt=0.013)
            app.render()
        post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
        app.step()
    assert scene.view_scrolls >= 10  # the panning frames scrolled the kept picture
    assert scene.map_view.kept_picture_current()
    kept = app.render().copy()
    scene.map_view.forget_picture()  # forget it: the next picture is drawn from scratch
    fresh = app.render().copy()
    _, _, view = scene.regions()
    diff = [(x, y) for x in range(view.x, view.right, 3) for y in range(view.y, view.bottom, 3)
            if kept.get_at((x, y)) != fresh.get_at((x, y))]
    assert not diff, f"{len(diff)} pixels differ, e.g. {diff[:5]}"


def test_at_the_smallest_window_every_panel_fits_on_screen(app) -> None:  # type: ignore[no-untyped-def]
    import pygame_gui

    scene = battle(app)
    post(pygame.event.Event(pygame.VIDEORESIZE, w=800, h=500, size=(800, 500)))  # below the minimum
    settle(app)
    w, h = app.screen.get_size()
    assert (w, h) == (960, 600)
    for el in scene.ui.get_sprite_group().sprites():
        if isinstance(el, pygame_gui.elements.UITextBox | pygame_gui.elements.UIButton):
            assert el.rect.bottom <= h and el.rect.right <= w, el
    assert scene.panels.chart_rect.bottom <= h


def test_a_pan_key_released_while_a_dialog_is_up_does_not_keep_panning(app) -> None:  # type: ignore[no-untyped-def]
    scene = battle(app)
    post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    app.step(dt=0.05)
    key(app, pygame.K_F1)  # help opens while D is held
    post(pygame.event.Event(pygame.KEYUP, key=pygame.K_d, mod=0, unicode="d", scancode=0))
    settle(app)
    press_button(app, "Close")
    x = scene.camera.pos_x
    for _ in range(5):
        app.step(dt=0.05)
    assert scene.camera.pos_x == x


def test_a_fresh_scenario_opens_on_its_briefing_then_the_first_hand_off() -> None:
    from game.shell.app import App, Settings

    app = App.for_scenario(TABLE, None, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    app.step()
    assert top_name(app) == "briefing"
    body = app.scenes.top.body_text  # type: ignore[union-attr]
    scene = battle(app)
    assert scene.session.description.split()[0] in body
    for side in scene.state.setup.sides:
        assert side.name in body
    assert "round" in body.lower()
    key(app, pygame.K_RETURN)
    assert top_name(app) == "handoff"


def test_hovering_a_unit_on_overwatch_tints_its_danger_zone_by_range_and_line_of_sight() -> None:
    from game.systems.tactical.rules.los import has_line_of_sight

    # a red rifle (bolt rifles: longest band 14) on overwatch; a woods hex hides what lies behind it
    session = make_session([("r1", "rifle_section", "blue", (1, 1)), ("w1", "rifle_section", "red", (10, 4))],
                           width=20, height=9, overrides={(8, 4): "woods"}, phase="movement")
    st = session.state
    units = dict(st.units)
    units["w1"] = units["w1"].model_copy(update={"stance": "overwatch", "stance_weapon": "bolt rifles"})
    session.state = st.model_copy(update={"units": units})
    app = make_app(session, blackout=False)
    scene = battle(app)
    st = session.state
    w = st.units["w1"].hex
    zone = rq.danger_zone(st, "w1")
    behind = st.board.hex_at(6, 4)
    assert behind not in zone and not has_line_of_sight(st.board, st.setup.rules, w, behind)
    seen = st.board.hex_at(12, 4)
    assert seen in zone and w not in zone
    assert all(h in zone for h in st.board.terrain
               if 0 < distance(w, h) <= 14 and has_line_of_sight(st.board, st.setup.rules, w, h))

    def colour_at(h):  # type: ignore[no-untyped-def]
        app.render()
        return app.screen.get_at(hex_pos(app, h))[:3]

    move_mouse(app, hex_pos(app, st.board.hex_at(1, 8)))
    before_seen, before_behind = colour_at(seen), colour_at(behind)
    hover_hex(app, w)
    assert "on overwatch" in scene.panels.shown("info")
    after_seen, after_behind = colour_at(seen), colour_at(behind)
    assert after_seen != before_seen and after_seen[0] > after_seen[1]  # tinted red
    assert after_behind == before_behind  # out of its sight: untouched


def test_leaving_fullscreen_asks_again_when_sdl_keeps_the_desktop_size(app, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """SDL's software framebuffer (the app sets SDL_FRAMEBUFFER_ACCELERATION=0) leaves the first
    windowed set_mode after fullscreen at the desktop's size, with a RuntimeWarning: under Xvfb and
    a window manager the 960x600 window came back 1280x800, partly off the screen. The app asks
    again, and the window gets its own size back without the warning reaching the player."""
    key(app, pygame.K_F11)
    assert app.fullscreen
    real = pygame.display.set_mode
    asked: list[tuple[int, int]] = []

    def stubborn(size, flags=0):  # type: ignore[no-untyped-def]
        asked.append(tuple(size))
        if len(asked) == 1:  # the desktop's size, as SDL answers the first time
            warnings.warn("Requested window was forcibly resized by the OS.", RuntimeWarning, stacklevel=2)
            return real((app.size[0] + 320, app.size[1] + 200), flags)
        return real(size, flags)

    monkeypatch.setattr(pygame.display, "set_mode", stubborn)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the player's terminal shows no warning
        key(app, pygame.K_F11)
    assert not app.fullscreen
    assert asked == [app.size, app.size]
    assert app.screen.get_size() == app.size
