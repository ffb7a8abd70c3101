"""Over a window that still shows the last frame, the battle scene draws again only the toolkit
elements that changed (game/shell/toolkit/drawing.py): the hex box on a new hover, a button as the
pointer comes onto it or leaves it, the panels when another unit is selected, the dice log as it
scrolls. Whatever changed, the whole window must come out as the window drawn afresh, pixel for
pixel; with a toolkit element over the map the toolkit is drawn whole."""

from __future__ import annotations

import random
from typing import Any

import pygame
import pygame_gui
import pytest

from game.shell.toolkit import drawing as toolkit_draw
from game.shell.toolkit.drawing import ToolkitLayer
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
def drawn(monkeypatch: Any) -> list[list[pygame.Rect] | None]:
    """What each toolkit draw drew again (None: everything)."""
    out: list[list[pygame.Rect] | None] = []
    real = ToolkitLayer.draw

    def spy(self: ToolkitLayer, *a: Any, **k: Any) -> None:
        real(self, *a, **k)
        out.append(None if self.drawn is None else list(self.drawn))

    monkeypatch.setattr(ToolkitLayer, "draw", spy)
    return out


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


def _outside_view(app: Any, rects: list[pygame.Rect]) -> bool:
    view = battle(app).regions()[2]
    return not any(r.colliderect(view) for r in rects)


def test_each_new_hover_redraws_the_hex_box_alone_and_matches_the_window_drawn_afresh(
        drawn: list[Any], pointer: list[tuple[int, int]]) -> None:
    app = _app()
    points = _hex_points(app)
    assert len(points) > 15
    side = battle(app).regions()[1]
    for pos in points:
        pointer[0] = pos
        got = _frame(app, _motion(pos))
        assert got == _afresh(app), f"hover at {pos}"
    partial = [d for d in drawn if d is not None]
    assert len(partial) >= len(points) // 2  # most hovers drew only what changed of the toolkit
    assert all(_outside_view(app, d) for d in partial)
    assert all(sum(r.w * r.h for r in d) < side.w * side.h // 2 for d in partial)
    assert any(d for d in partial)  # and something was drawn again: the hex box changed


def test_a_button_the_pointer_comes_onto_and_leaves_matches_the_window_drawn_afresh(
        drawn: list[Any], pointer: list[tuple[int, int]]) -> None:
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
            if b.image is not before:  # its look changed (hovered, or left): drawn again
                changed += 1
                assert drawn[-2] is not None and any(r.colliderect(b.rect) for r in drawn[-2])
    assert changed >= len(buttons)


def test_another_unit_selected_and_the_dice_log_scrolled_match_the_window_drawn_afresh(
        drawn: list[Any], pointer: list[tuple[int, int]]) -> None:
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
    scene.panels._set_html("log", log, "<br>".join(f"line {i} of a long dice log" for i in range(200)))
    pointer[0] = log.rect.center
    _frame(app, _motion(log.rect.center))
    for dy in (-1, -1, 1):
        got = _frame(app, pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=dy, flipped=False))
        assert got == _afresh(app)
    assert log.scroll > 0  # it did scroll
    assert any(d for d in drawn if d is not None)


def test_a_seeded_walk_of_hovers_buttons_and_quiet_frames_matches_the_window_drawn_afresh(
        drawn: list[Any], pointer: list[tuple[int, int]]) -> None:
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
    assert sum(d is not None for d in drawn) > 40


def test_a_toolkit_element_over_the_map_has_the_toolkit_drawn_whole_then_and_the_frame_after(
        drawn: list[Any], pointer: list[tuple[int, int]]) -> None:
    app = _app()
    scene = battle(app)
    points = _hex_points(app)
    for pos in points[:2]:
        pointer[0] = pos
        _frame(app, _motion(pos))
    assert drawn[-1] is not None
    view = scene.regions()[2]
    over = pygame_gui.elements.UIButton(pygame.Rect(view.x + 30, view.y + 30, 140, 30), "Over the map",
                                        manager=scene.ui)
    for pos in points[2:5]:
        pointer[0] = pos
        got = _frame(app, _motion(pos))
        assert drawn[-1] is None
        assert got == _afresh(app)
    over.kill()
    pointer[0] = points[5]
    got = _frame(app, _motion(points[5]))
    assert drawn[-1] is None  # the frame after: the map view drew over where it was
    assert got == _afresh(app)
    pointer[0] = points[6]
    got = _frame(app, _motion(points[6]))
    assert drawn[-1] is not None
    assert got == _afresh(app)


def test_the_layer_draws_again_what_changed_and_puts_the_backdrop_under_it() -> None:
    manager = pygame_gui.UIManager((400, 300))
    a = pygame_gui.elements.UILabel(pygame.Rect(10, 10, 120, 24), "first", manager=manager)
    b = pygame_gui.elements.UILabel(pygame.Rect(10, 60, 120, 24), "second", manager=manager)
    manager.update(0.0)
    screen = pygame.Surface((400, 300))
    backdrops: list[pygame.Rect] = []

    def backdrop(s: pygame.Surface) -> None:
        backdrops.append(s.get_clip())
        s.fill((20, 30, 40))

    layer = ToolkitLayer()
    assert not layer.plan(True, True)  # nothing drawn yet: all
    screen.fill((20, 30, 40))
    layer.draw(screen, manager, [], backdrop, False)
    assert layer.drawn is None
    assert layer.plan(True, True)
    layer.draw(screen, manager, [], backdrop, True)
    assert layer.drawn == [] and not backdrops  # nothing changed: nothing drawn
    b.set_text("changed")
    manager.update(0.0)
    layer.draw(screen, manager, [], backdrop, True)
    assert layer.drawn is not None and all(r.colliderect(b.rect) and not r.colliderect(a.rect) for r in layer.drawn)
    assert backdrops and all(r.colliderect(b.rect) for r in backdrops)
    fresh = pygame.Surface((400, 300))
    fresh.fill((20, 30, 40))
    manager.draw_ui(fresh)
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB")
    b.kill()  # gone: its place is the backdrop again
    manager.update(0.0)
    layer.draw(screen, manager, [], backdrop, True)
    fresh.fill((20, 30, 40))
    manager.draw_ui(fresh)
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB")
    assert not layer.plan(True, False) and not layer.plan(True, True)  # an element over the scene: twice whole
    assert layer.plan(True, True)
    assert toolkit_draw.ToolkitLayer.over(manager, pygame.Rect(0, 0, 50, 50))
    assert not toolkit_draw.ToolkitLayer.over(manager, pygame.Rect(200, 200, 50, 50))


def test_an_element_clipped_otherwise_in_place_is_drawn_again() -> None:
    manager = pygame_gui.UIManager((400, 300))
    label = pygame_gui.elements.UILabel(pygame.Rect(10, 10, 160, 30), "cut label",
                                        manager=manager)
    manager.update(0.0)
    screen = pygame.Surface((400, 300))
    screen.fill((20, 30, 40))
    layer = ToolkitLayer()
    layer.draw(screen, manager, [], lambda s: s.fill((20, 30, 40)), False)
    picture = label.image
    label._set_image_clip(pygame.Rect(0, 0, 60, 30))  # what a scrolling container does: in place
    assert label.image is picture
    manager.update(0.0)
    layer.draw(screen, manager, [], lambda s: s.fill((20, 30, 40)), True)
    assert layer.drawn and any(r.colliderect(label.rect) for r in layer.drawn)
    fresh = pygame.Surface((400, 300))
    fresh.fill((20, 30, 40))
    manager.draw_ui(fresh)
    assert pygame.image.tobytes(screen, "RGB") == pygame.image.tobytes(fresh, "RGB")
