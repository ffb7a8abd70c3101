"""A new hover on a screen that still shows the last frame draws again only the last and the new
hover's rectangles (battle_draw.MapView.draw). Whatever the hover shows (a move or dash path,
the dash tints after a move, a charge, overwatch shots and their labels, an attack's line), the
view must come out as the whole view drawn afresh, pixel for pixel; and when anything else drew
on the screen or over the view (another scene, a toast, a toolkit element over the map), the view
is drawn whole."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
import pytest

from game.systems.tactical.client import battle_draw
from tests.client.clientfix import battle, click_hex, hex_pos, make_app, make_session, post

UNITS = [("r1", "rifle_section", "blue", (4, 4)), ("r2", "rifle_section", "blue", (3, 6)),
         ("m1", "militia_band", "red", (8, 4)), ("w1", "rifle_section", "red", (11, 7)),
         ("m2", "militia_band", "red", (6, 8))]


def _session(phase: str, width: int = 16, height: int = 11) -> Any:
    session = make_session(UNITS, width=width, height=height, overrides={(6, 3): "woods", (7, 6): "swamp"},
                           roads={(4, c) for c in range(11)}, phase=phase)
    units = dict(session.state.units)  # a watcher: paths near it draw overwatch shots and labels
    units["w1"] = units["w1"].model_copy(update={"stance": "overwatch", "stance_weapon": "bolt rifles"})
    session.state = session.state.model_copy(update={"units": units})
    return session


def _view(app: Any) -> bytes:
    _, _, view = battle(app).regions()
    return pygame.image.tobytes(app.screen.subsurface(view), "RGB")


def _hover(app: Any, pos: tuple[int, int]) -> bytes:
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(1, 0), buttons=(0, 0, 0)))
    app.step()
    app.render()
    return _view(app)


def _afresh(app: Any) -> bytes:
    app.forget_screen()  # as if something else had drawn on the window: the view is drawn whole
    app.render()
    return _view(app)


def _count_partial(monkeypatch: Any) -> list[pygame.Rect]:
    """The areas drawn for new hovers that were not the whole view."""
    parts: list[pygame.Rect] = []
    real = battle_draw.MapView._changed_area

    def spy(self: Any, screen: Any, where: Any, extent: Any, view: pygame.Rect) -> pygame.Rect:
        out = real(self, screen, where, extent, view)
        if out != view:
            parts.append(out)
        return out

    monkeypatch.setattr(battle_draw.MapView, "_changed_area", spy)
    return parts


def _selected(monkeypatch: Any, phase: str) -> tuple[list[pygame.Rect], Any, list[tuple[int, int]]]:
    """A battle in `phase` with r1 selected and drawn; the partial draws counted; the walk's points."""
    parts = _count_partial(monkeypatch)
    app = make_app(_session(phase), blackout=False)
    click_hex(app, battle(app).state.units["r1"].hex)
    app.render()
    return parts, app, _walk(app)


def _walk(app: Any) -> list[tuple[int, int]]:
    """Screen points of hexes all over the battle (the camera is placed first; the walk keeps it)."""
    scene = battle(app)
    st = scene.state
    hexes = [st.board.hex_at(c, r) for r in range(0, 11, 2) for c in range(0, 16, 3)]
    hexes += [st.units[u].hex for u in ("m1", "w1", "m2", "r2", "r1")]
    hexes += [st.board.hex_at(c, 4) for c in range(2, 12)]  # along the row: paths growing hex by hex
    hex_pos(app, st.units["r1"].hex)
    points = []
    for h in hexes:
        x, y = scene.camera.world_to_screen(*scene.layout.hex_center(h))
        if scene.regions()[2].collidepoint(x, y):
            points.append((round(x), round(y)))
    return points


@pytest.mark.parametrize("phase", ["movement", "attack"])
def test_each_new_hover_drawn_over_the_last_matches_the_view_drawn_afresh(phase: str, monkeypatch: Any) -> None:
    parts, app, points = _selected(monkeypatch, phase)
    assert len(points) > 20
    for pos in points + points[::-3]:
        got = _hover(app, pos)
        assert got == _afresh(app), f"{phase}: hover at {pos}"
    assert len(parts) >= len(points) // 2  # most hovers drew only their part of the view
    assert all(p.w * p.h < battle(app).regions()[2].w * battle(app).regions()[2].h for p in parts)


def test_a_toast_or_a_toolkit_element_over_the_view_has_the_view_drawn_whole(monkeypatch: Any) -> None:
    parts, app, points = _selected(monkeypatch, "movement")
    scene = battle(app)
    for pos in points[:3]:
        _hover(app, pos)
    parts.clear()
    scene.toast("A word to the player over the map.")
    for pos in points[3:6]:  # while the toast shows, and the frame after it went
        got = _hover(app, pos)
        assert got == _afresh(app)
    assert not parts
    scene._toast = None  # gone: the next frame draws whole, the ones after it only what changed
    _hover(app, points[6])
    _hover(app, points[7])
    assert parts
    parts.clear()
    _, _, view = scene.regions()
    button = pygame_gui.elements.UIButton(pygame.Rect(view.x + 40, view.y + 40, 120, 30), "Over the map",
                                          manager=scene.ui)
    for pos in points[8:12]:
        got = _hover(app, pos)
        assert got == _afresh(app)
    assert not parts
    button.kill()
    for pos in points[12:15]:
        got = _hover(app, pos)
        assert got == _afresh(app)


def test_back_on_the_hex_whose_picture_is_kept_then_on_another_the_view_still_matches(monkeypatch: Any) -> None:
    parts, app, points = _selected(monkeypatch, "movement")
    for a, b, c in zip(points, points[5:], points[9:], strict=False):
        _hover(app, a)
        app.step()  # a quiet frame: the hover's picture is kept (composed)
        app.render()
        _hover(app, b)
        _hover(app, a)  # back: the kept picture of a is shown
        got = _hover(app, c)
        assert got == _afresh(app), f"{a} {b} {c}"
    assert parts


def test_hovers_after_the_map_was_panned_still_match_the_view_drawn_afresh(monkeypatch: Any) -> None:
    parts = _count_partial(monkeypatch)
    app = make_app(_session("movement", 30, 26), blackout=False)
    click_hex(app, battle(app).state.units["r1"].hex)
    app.render()
    camera = battle(app).camera
    for k in (pygame.K_RIGHT, pygame.K_DOWN, pygame.K_LEFT):
        points = _walk(app)
        at = camera.map_origin_on_screen()
        for pos in points[:4]:
            _hover(app, pos)
        app.step()  # a quiet frame: the hover's picture is kept (composed), and panned with
        app.render()
        post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
        for _ in range(3):  # the map moves under a still pointer
            app.step(dt=0.03)
            app.render()
        post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
        app.step()
        app.render()
        assert camera.map_origin_on_screen() != at  # it did move
        for pos in points[4:9]:
            got = _hover(app, pos)
            assert got == _afresh(app), f"after a pan ({pygame.key.name(k)}): hover at {pos}"
    assert parts


def test_a_hover_does_not_ask_the_mode_for_its_buttons_again_but_a_new_mode_or_state_does(monkeypatch: Any) -> None:
    from game.systems.tactical.client import modes

    asked: list[str] = []
    real = modes.MoveMode.buttons

    def counting(self: Any, scene: Any) -> Any:
        asked.append(self.unit_id)
        return real(self, scene)

    monkeypatch.setattr(modes.MoveMode, "buttons", counting)
    app = make_app(_session("movement"), blackout=False)
    scene = battle(app)
    click_hex(app, scene.state.units["r1"].hex)
    assert asked and asked[-1] == "r1"
    asked.clear()
    for pos in _walk(app)[:8]:
        _hover(app, pos)
    assert not asked  # the same state, mode and selection: the buttons stand
    labels = [b.text for b in scene.actions._ids]  # type: ignore[attr-defined]
    click_hex(app, scene.state.units["r2"].hex)  # another unit: its own mode, asked again
    assert asked and asked[-1] == "r2"
    assert labels


def test_a_random_walk_of_hovers_and_quiet_frames_matches_the_view_drawn_afresh(monkeypatch: Any) -> None:
    import random

    parts, app, points = _selected(monkeypatch, "attack")
    rng = random.Random(14)
    seen: list[tuple[int, int]] = [points[0]]
    for step in range(160):
        roll = rng.random()
        if roll < 0.25:  # a quiet frame: nothing changed
            app.step()
            app.render()
            got = _view(app)
        else:  # a new hex, or back on one of the last few
            pos = rng.choice(points) if roll < 0.65 else rng.choice(seen[-3:])
            seen.append(pos)
            got = _hover(app, pos)
        if step % 5 == 4:  # four frames drawn in parts, then the check (which draws all)
            assert got == _afresh(app), f"step {step}: {seen[-4:]}"
    assert len(parts) > 40


def test_back_and_forth_between_two_hexes_after_a_quiet_frame_then_a_third_matches(monkeypatch: Any) -> None:
    # a, a quiet frame (a's picture kept), b, a (the kept picture shown), b, c: the window must
    # know it shows b before c is drawn over it (a stale record left b's path on the map)
    parts, app, points = _selected(monkeypatch, "movement")
    for a, b, c in zip(points[:12], points[6:18], points[11:23], strict=False):
        _hover(app, a)
        app.step()
        app.render()
        _hover(app, b)
        _hover(app, a)
        _hover(app, b)
        got = _hover(app, c)
        assert got == _afresh(app), f"{a} {b} {c}"
    assert parts
