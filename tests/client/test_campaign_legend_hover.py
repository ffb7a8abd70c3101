"""The campaign map's legend and hover panel while the map moves (QA at 960x600).

(a) The legend (L) was a box put in the first corner of the map where it covered no counter or
town name: as the map was panned it jumped from corner to corner, and with every corner taken it
sat over counters and towns. It is now a band at the foot of the map's part of the window, below
the map view: fixed on the screen, never over a hex (the map view ends above it, so the map's foot
can be panned into view above it).
(b) The hover panel kept describing the hex that was under the pointer before the map moved under
it by the keys (arrows, +/-, Home): it now describes the hex under the pointer after the move."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.systems.campaign.client.scene import PANEL_W  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.test_campaign_client import click, key, through_handoff  # noqa: E402

TEACHING = "maps/campaign/teaching.yaml"
SIZES = [(960, 600), (1280, 800)]


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _app(size: tuple[int, int]) -> tuple[App, Any]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, TEACHING))
    app.push(scene)
    through_handoff(app)
    app.render()
    return app, scene


def _motion(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
    app.render()


def _legend_texts(scene: Any) -> list[tuple[str, pygame.Rect]]:
    return [(t, r) for t, r in scene.drawn_rects if t.endswith(("army", "armies", "impassable")) or ": cost " in t]


def _hover_line(scene: Any) -> str:
    """The hover panel's first line ("col,row: terrain (cost)"), as drawn."""
    c = scene.hover
    assert c is not None
    return next(t for t, _ in scene.drawn_rects if t.startswith(f"{c[0]},{c[1]}: "))


@pytest.mark.parametrize("size", SIZES)
def test_the_legend_stays_in_one_place_below_the_map_view_however_the_map_is_panned(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    band = scene.legend_rect()
    view = scene.map_view()
    w, h = size
    assert band == pygame.Rect(0, h - band.h, w - PANEL_W, band.h) and band.h > 0
    assert not band.colliderect(view) and view.bottom == band.top  # the map view ends where the band begins
    texts = _legend_texts(scene)
    assert len(texts) == 4 + len(set(scene.state.cs.map.terrain.values()))  # every power, every terrain
    assert all(band.contains(r) for _, r in texts)
    placed = sorted((t, tuple(r)) for t, r in texts)
    for _ in range(3):
        key(app, pygame.K_PLUS)
    # pan the zoomed map about: the counters and towns come by every corner of the view
    for k, n in ((pygame.K_DOWN, 6), (pygame.K_RIGHT, 6), (pygame.K_UP, 12), (pygame.K_LEFT, 12), (pygame.K_DOWN, 3)):
        for _ in range(n):
            key(app, k)
            assert sorted((t, tuple(r)) for t, r in _legend_texts(scene)) == placed  # never moves
            assert scene.legend_box == band
            assert not any(r.colliderect(view) for _, r in _legend_texts(scene))  # never over the map view


@pytest.mark.parametrize("size", SIZES)
def test_the_maps_foot_can_be_panned_into_view_above_the_legend(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    for _ in range(3):
        key(app, pygame.K_PLUS)
    for _ in range(60):
        key(app, pygame.K_DOWN)  # (the map moves up)
    view = scene.map_view()
    mh = scene.layout.map_pixel_size[1] * scene.scale
    assert scene.origin[1] + mh < view.bottom  # the map's last row is drawn above the band
    # a click in the band is not a click on the hex drawn (and covered) there
    band = scene.legend_rect()
    scene.pan(0, band.bottom - view.bottom + 40)  # some hexes are now under the band
    app.render()
    under = (band.x + band.w // 2, band.y + band.h // 2)
    selected = scene.selected
    click(app, under)
    assert scene.selected == selected


@pytest.mark.parametrize("size", SIZES)
def test_l_hides_the_legend_and_gives_its_room_to_the_map(size: tuple[int, int]) -> None:
    app, scene = _app(size)
    with_legend = scene.map_view()
    key(app, pygame.K_l)
    assert scene.legend_rect().h == 0 and scene.map_view().h == size[1]
    assert not _legend_texts(scene)
    key(app, pygame.K_l)
    assert scene.map_view() == with_legend and _legend_texts(scene)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("k", [pygame.K_RIGHT, pygame.K_LEFT, pygame.K_UP, pygame.K_DOWN, pygame.K_PLUS,
                               pygame.K_MINUS, pygame.K_HOME])
def test_after_a_key_moves_the_map_the_hover_panel_describes_the_hex_now_under_the_pointer(
        size: tuple[int, int], k: int) -> None:
    app, scene = _app(size)
    for _ in range(3):
        key(app, pygame.K_PLUS)
    view = scene.map_view()
    pointer = (view.x + 70, view.y + 90)  # (far from the centre: +/- zoom around the centre)
    _motion(app, pointer)
    before = scene.hover
    assert before == scene.hex_at(pointer)
    key(app, k)
    assert scene.hex_at(pointer) != before  # (the map moved under the pointer)
    assert scene.hover == scene.hex_at(pointer)
    c = scene.hover
    assert _hover_line(scene).startswith(f"{c[0]},{c[1]}: {scene.state.cs.map.terrain[c]} ")
    assert not any(t.startswith(f"{before[0]},{before[1]}: ") for t, _ in scene.drawn_rects)


def test_after_a_hand_off_a_key_pan_shows_no_hover_panel_until_the_pointer_moves() -> None:
    app, scene = _app((960, 600))
    view = scene.map_view()
    pointer = (view.centerx, view.centery)
    _motion(app, pointer)
    assert scene.hover is not None
    scene._push_handoff(scene.viewer)  # noqa: SLF001  (the next player at the screen)
    through_handoff(app)
    key(app, pygame.K_PLUS)
    key(app, pygame.K_RIGHT)
    assert scene.hover is None  # where the last player left the pointer: nothing described
    _motion(app, (pointer[0] + 1, pointer[1]))
    assert scene.hover == scene.hex_at((pointer[0] + 1, pointer[1]))


@pytest.mark.parametrize("k", [pygame.K_PLUS, pygame.K_MINUS])
def test_in_the_replay_view_the_hover_panel_follows_the_hex_under_the_pointer_after_plus_or_minus(k: int) -> None:
    app, scene = _app((960, 600))
    scene.gm_seat.iterations = 1_000
    key(app, pygame.K_F3)
    lock = app.scenes.top
    assert lock is not None and lock.name == "gm_lock"
    assert lock.submit("owl and oak"), lock.message  # type: ignore[attr-defined]
    app.render()
    replay: Any = app.scenes.top
    assert replay.name == "replay"
    view = replay.view
    key(app, pygame.K_PLUS)
    key(app, pygame.K_PLUS)
    pointer = (view.map_view().x + 70, view.map_view().y + 90)
    _motion(app, pointer)
    before = view.hover
    assert before == view.hex_at(pointer)
    key(app, k)
    assert view.hex_at(pointer) != before and view.hover == view.hex_at(pointer)
