"""QA findings on the campaign map: (a) E (the planner of the sealed-orders screen) pressed where
there is no planner said nothing (it turned the planner off unseen for the orders to come); it
now says what it changed and where the planner shows (and that Enter ends the turn); at the orders
screen it says so too, also when the window is too short to show the planner. (b) A town's name by the map's edge ran past it
("Cinder Bay" into the side panel at 960x600): every name is drawn inside the map."""

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
from game.table import TABLE  # noqa: E402
from tests.client.test_campaign_client import key, play_to_orders, through_handoff  # noqa: E402

ISLE = "maps/campaign/ascension-isle.yaml"
TEACHING = "maps/campaign/teaching.yaml"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _app(path: str, size: tuple[int, int]) -> tuple[App, Any]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, path))
    app.push(scene)
    through_handoff(app)
    app.render()
    return app, scene


def _shown(scene: Any) -> str:
    return " ".join(s.strip() for s in scene.drawn_strings)


@pytest.mark.parametrize("size", [(960, 600), (1280, 800)])
def test_e_in_the_islands_movement_phase_says_what_it_changed_and_that_the_planner_is_on_the_orders_screen(
        size: tuple[int, int]) -> None:
    app, scene = _app(ISLE, size)
    assert scene.state.phase == "movement" and scene.my_move()
    key(app, pygame.K_e)
    assert not scene.show_planner
    assert ("Planner off for the sealed-orders screen (step 5 of the week; E turns it on again): there is no "
            "planner in the movement phase. Enter (or the End turn button) ends your turn.") in _shown(scene)
    key(app, pygame.K_e)
    assert scene.show_planner
    assert "Planner on for the sealed-orders screen (step 5 of the week; E turns it off again)" in _shown(scene)
    assert scene.state.phase == "movement"


def test_e_at_the_orders_screen_toggles_the_planner_and_says_so() -> None:
    app, scene = _app(TEACHING, (1280, 800))
    play_to_orders(app, scene)
    through_handoff(app)
    key(app, pygame.K_e)
    assert not scene.show_planner and "Planner hidden (E shows it)." in _shown(scene)
    key(app, pygame.K_e)
    assert scene.show_planner and "Planner shown (E hides it)." in _shown(scene)


def test_e_at_the_orders_screen_says_when_the_planner_has_no_room_to_show() -> None:
    app, scene = _app(TEACHING, (960, 600))
    play_to_orders(app, scene)
    through_handoff(app)
    app.render()
    assert scene.planner_fits  # at the smallest window the teaching orders leave it room...
    scene.orders_panel.notes = [f"note {i}" for i in range(14)]  # ...which the panel's notes can take
    app.render()
    assert scene.planner_fits is False
    key(app, pygame.K_e)
    key(app, pygame.K_e)
    shown = _shown(scene)
    assert "Planner shown over the map: this window is too short for it beside these orders" in shown
    assert "press P" not in shown and "E hides it" in shown  # (P is the players dialog)


@pytest.mark.parametrize("size", [(960, 600), (1280, 800), (1024, 700)])
def test_every_town_name_on_the_island_is_drawn_inside_the_map(size: tuple[int, int]) -> None:
    app, scene = _app(ISLE, size)
    view = scene.map_view()
    names = dict(scene.name_rects)
    assert "Cinder Bay" in names
    for name, rect in names.items():
        assert view.contains(rect.inflate(4, 0)), (name, rect, view)
        assert scene.label_bounds().contains(rect), (name, rect)


def test_a_name_near_the_views_edge_stays_inside_when_the_map_is_zoomed_and_moved() -> None:
    app, scene = _app(ISLE, (960, 600))
    for _ in range(3):
        key(app, pygame.K_PLUS)
    bounds = scene.label_bounds()
    m = scene.state.cs.map
    # bring Cinder Bay to the view's right edge
    c = next(p for p, n in m.names.items() if n == "Cinder Bay")
    x, y = scene.hex_centre(c)
    scene.pan(bounds.right - 12 - x, bounds.centery - y)
    app.render()
    rect = dict(scene.name_rects)["Cinder Bay"]
    assert scene.label_bounds().contains(rect)
