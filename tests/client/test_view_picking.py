"""Every view that narrows or shifts the map (the GM panel, the replay panel, a small window)
picks exactly the hex drawn under the pointer: the picture at a unit's hex centre on screen is
the same picture as with the plain battle view, and a real pointer there hovers and clicks that
unit's hex (issue 12, item 1)."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.core.hexgrid import Hex, neighbours
from game.shell.app import App
from game.shell.toolkit import richtext
from tests.client.clientfix import battle, click_at, key, move_mouse, press_button, top_name
from tests.client.test_load_menu import open_app, saves_dir  # noqa: F401 - fixture
from tests.client.test_replay_view import played_overwatch

PATCH = 7  # pixels either side of the hex centre compared


def _patch(frame: pygame.Surface, at: tuple[int, int]) -> list[tuple[int, ...]]:
    x0, y0 = at
    return [tuple(frame.get_at((x, y)))[:3] for x in range(x0 - PATCH, x0 + PATCH + 1)
            for y in range(y0 - PATCH, y0 + PATCH + 1)]


def _on_screen(app: App, h: Hex) -> tuple[int, int]:
    b = battle(app) if top_name(app) != "replay" else app.scenes.top.view  # type: ignore[union-attr]
    b.camera.ensure_visible(*b.layout.hex_center(h), margin=120)
    x, y = b.camera.world_to_screen(*b.layout.hex_center(h))
    return round(x), round(y)


def _lancer(app: App) -> tuple[str, Hex]:
    st = battle(app).state
    uid = next(u.id for u in st.units.values() if not u.destroyed and "lancer" in u.id)
    return uid, st.units[uid].hex


def _reference(tmp_path: Path) -> tuple[App, str, Hex, list[tuple[int, ...]]]:
    """The plain battle view's picture of the lancers' counter (same zoom, nothing hovered)."""
    app = open_app(played_overwatch(tmp_path / "s.yaml"))
    uid, h = _lancer(app)
    at = _on_screen(app, h)
    return app, uid, h, _patch(app.render(), at)


def test_gm_panel_view_draws_and_picks_the_hex_under_the_pointer(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app, uid, h, plain = _reference(tmp_path)
    key(app, pygame.K_F2)
    assert top_name(app) == "gm"
    at = _on_screen(app, h)
    assert battle(app).camera.view_x > 0  # the GM panel narrowed the view
    assert _patch(app.render(), at) == plain  # the counter is drawn where the camera says
    move_mouse(app, at)
    assert battle(app).hover == h
    assert battle(app).state.unit_name(uid) in richtext.plain(battle(app).panels.info_box.html_text)  # the hover panel names it
    click_at(app, at)  # Select tool: the unit under the pointer
    assert battle(app).selected == uid
    press_button(app, "Move")
    st = battle(app).state
    target = next(n for n in neighbours(h) if n in st.board.terrain and st.unit_at(n) is None
                  and not st.setup.rules.terrain[st.board.terrain[n]].impassable)
    click_at(app, _on_screen(app, target))
    assert battle(app).state.units[uid].hex == target  # the GM's move lands on the clicked hex


def test_replay_panel_view_draws_and_picks_the_hex_under_the_pointer(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app, uid, h, plain = _reference(tmp_path)
    key(app, pygame.K_F3)
    assert top_name(app) == "replay"
    replay = app.scenes.top
    view = replay.view  # type: ignore[attr-defined]
    bar = replay._bar()  # type: ignore[attr-defined]
    assert view.camera.view_y + view.camera.view_h <= bar.y  # the map ends above the replay panel
    assert bar.right <= view.regions()[1].x  # and the panel stays clear of the side panel
    view.camera.zoom_index = battle(app).camera.zoom_index
    at = _on_screen(app, view.state.units[uid].hex)
    assert view.state.units[uid].hex == h  # the replay opens on the last command
    assert _patch(app.render(), at) == plain
    move_mouse(app, at)
    assert view.hover == view.state.units[uid].hex
    assert view.state.unit_name(uid) in richtext.plain(view.panels.info_box.html_text)


def test_small_window_draws_and_picks_the_hex_under_the_pointer(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app, uid, h, plain = _reference(tmp_path)
    app.resize((960, 600))
    settle_size = battle(app).regions()[2]
    assert settle_size.w == 960 - battle(app).regions()[1].w
    at = _on_screen(app, h)
    assert _patch(app.render(), at) == plain
    move_mouse(app, at)
    assert battle(app).hover == h
    key(app, pygame.K_F2)  # and GM mode in the small window
    at = _on_screen(app, h)
    assert _patch(app.render(), at) == plain
    move_mouse(app, at)
    assert battle(app).hover == h
