"""Over a window that still shows the last frame the battle scene keeps its map view's picture and
draws the toolkit's elements whole (game/shell/toolkit/drawing.py; drawing only the elements that
changed was measured at 0.3 ms a hover and removed, docs/performance.md). Whatever changed (a new
hover, a button the pointer comes onto or leaves, another unit selected, the dice log scrolled, an
element over the map), the whole window must come out as the window drawn afresh, pixel for pixel."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pygame_gui
import pytest

from game.shell.toolkit.drawing import draw_toolkit, elements_over
from game.shell.toolkit.richtext import Span
from tests.client.clientfix import battle, click_hex, hex_pos, make_app, make_session, post

UNITS = [("r1", "rifle_section", "blue", (4, 4)), ("r2", "rifle_section", "blue", (3, 6)),
         ("m1", "militia_band", "red", (8, 4)), ("w1", "rifle_section", "red", (11, 7))]


def _window(app: Any) -> bytes:
    return pygame.image.tobytes(app.screen, "RGB")


def _frame(app: Any, *events: pygame.event.Event) -> bytes:
    post(*events)
    app.step()
    app.render()
    return _window(app)


def _afresh(app: Any) -> bytes:
    app.forget_screen()  # as if something else had drawn on the window: everything is drawn
    app.render()
    return _window(app)


def _motion(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0))


@pytest.fixture
def pointer(monkeypatch: Any) -> list[tuple[int, int]]:
    """Where the toolkit sees the pointer (the dummy video driver has none): set [0]."""
    at = [(0, 0)]
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: at[0])
    return at


def _app(phase: str = "movement") -> Any:
    session = make_session(UNITS, width=16, height=11, overrides={(6, 3): "woods"},
                           roads={(4, c) for c in range(11)}, phase=phase)
    app = make_app(session, blackout=False)
    click_hex(app, battle(app).state.units["r1"].hex)
    app.render()
    app.render()
    return app


def _hex_points(app: Any) -> list[tuple[int, int]]:
    scene = battle(app)
    st = scene.state
    view = scene.regions()[2]
    points = []
    for r in range(0, 11, 2):
        for c in range(0, 16, 2):
            x, y = scene.camera.world_to_screen(*scene.layout.hex_center(st.board.hex_at(c, r)))
            if view.collidepoint(x, y):
                points.append((round(x), round(y)))
    return points


def _buttons(app: Any) -> list[pygame_gui.elements.UIButton]:
    return [el for el in battle(app).ui.get_sprite_group().sprites()
            if isinstance(el, pygame_gui.elements.UIButton) and el.visible]


def test_each_new_hover_redraws_the_hex_box_alone_and_matches_the_window_drawn_afresh(
        pointer: list[tuple[int, int]]) -> None:
    app = _app()
    points = _hex_points(app)
    assert len(points) > 15
    for pos in points:
        pointer[0] = pos
        got = _frame(app, _motion(pos))
        assert got == _afresh(app), f"hover at {pos}"


def test_a_button_the_pointer_comes_onto_and_leaves_matches_the_window_drawn_afresh(
        pointer: list[tuple[int, int]]) -> None:
    app = _app()
    buttons = _buttons(app)
    assert len(buttons) >= 3
    away = _hex_points(app)[0]
    changed = 0
    for b in buttons:
        for pos in (b.rect.center, b.rect.center, away, away):
            pointer[0] = pos
            before = b.image
            got = _frame(app, _motion(pos))
            assert got == _afresh(app), f"button {b.text!r}, pointer at {pos}"
            if b.image is not before:  # its look changed (hovered, or left)
                changed += 1
    assert changed >= len(buttons)


def test_another_unit_selected_and_the_dice_log_scrolled_match_the_window_drawn_afresh(
        pointer: list[tuple[int, int]]) -> None:
    app = _app()
    scene = battle(app)
    pos = hex_pos(app, scene.state.units["r2"].hex)
    pointer[0] = pos
    got = _frame(app, _motion(pos), pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
                 pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    assert scene.selected == "r2"
    assert got == _afresh(app)
    for _ in range(3):  # the toolkit's own follow-up frames (new buttons' states)
        got = _frame(app)
        assert got == _afresh(app)
    log = scene.panels.log_box
    scene.panels._set_text("log", log, tuple((Span(f"line {i} of a long dice log"),) for i in range(200)))
    pointer[0] = log.rect.center
    _frame(app, _motion(log.rect.center))
    for dy in (-1, -1, 1):
        got = _frame(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False))
        assert got == _afresh(app)
    assert log.scroll > 0  # it did scroll


def test_a_seeded_walk_of_hovers_buttons_and_quiet_frames_matches_the_window_drawn_afresh(
        pointer: list[tuple[int, int]]) -> None:
    app = _app("attack")
    rng = random.Random(21)
    places = _hex_points(app) + [b.rect.center for b in _buttons(app)]
    for i in range(80):
        if rng.random() < 0.25:
            got = _frame(app)  # a quiet frame
        else:
            pos = rng.choice(places)
            pointer[0] = pos
            got = _frame(app, _motion(pos))
        if i % 4 == 3:  # frames drawn over frames drawn over the last: checked every fourth
            assert got == _afresh(app), f"frame {i}"


def test_a_toolkit_element_over_the_map_and_gone_again_matches_the_window_drawn_afresh(
        pointer: list[tuple[int, int]]) -> None:
    app = _app()
    scene = battle(app)
    points = _hex_points(app)
    for pos in points[:2]:
        pointer[0] = pos
        _frame(app, _motion(pos))
    view = scene.regions()[2]
    over = pygame_gui.elements.UIButton(pygame.Rect(view.x + 30, view.y + 30, 140, 30), "Over the map",
                                        manager=scene.ui)
    for pos in points[2:5]:
        pointer[0] = pos
        got = _frame(app, _motion(pos))
        assert got == _afresh(app)
    over.kill()
    pointer[0] = points[5]
    got = _frame(app, _motion(points[5]))
    assert got == _afresh(app)  # the frame after: the map view drew over where it was
    pointer[0] = points[6]
    got = _frame(app, _motion(points[6]))
    assert got == _afresh(app)


def test_elements_over_tells_whether_a_visible_element_draws_on_an_area() -> None:
    manager = pygame_gui.UIManager((400, 300))
    label = pygame_gui.elements.UILabel(pygame.Rect(10, 10, 120, 24), "first", manager=manager)
    manager.update(0.0)
    assert elements_over(manager, pygame.Rect(0, 0, 50, 50))
    assert not elements_over(manager, pygame.Rect(200, 200, 50, 50))
    label.hide()
    manager.update(0.0)
    assert not elements_over(manager, pygame.Rect(0, 0, 50, 50))


def test_the_toolkit_is_drawn_whole_with_the_extra_pictures_over_it() -> None:
    manager = pygame_gui.UIManager((400, 300))
    pygame_gui.elements.UILabel(pygame.Rect(10, 10, 120, 24), "a label", manager=manager)
    manager.update(0.0)
    chart = pygame.Surface((30, 30))
    chart.fill((200, 10, 10))
    screen = pygame.Surface((400, 300))
    draw_toolkit(screen, manager, [(chart, pygame.Rect(20, 12, 30, 30))])
    fresh = pygame.Surface((400, 300))
    manager.draw_ui(fresh)
    fresh.blit(chart, (20, 12))
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB")
