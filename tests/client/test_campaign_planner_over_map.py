"""The planner (the equilibrium's advice on the sealed orders) is shown at every window size: when
the side panel has no room for it under the orders (a short window, many stratagems or notes), it
is drawn in a box over the map, clear of the battle's hex, instead of a line saying it has no room."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.client.test_campaign_client import play_to_orders, through_handoff  # noqa: E402

TEACHING = "maps/campaign/teaching.yaml"
HEADER = "Planner: win% / lose%, mine (rows) vs theirs (columns)"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _orders(size: tuple[int, int]) -> tuple[App, Any]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, TEACHING))
    app.push(scene)
    through_handoff(app)
    play_to_orders(app, scene)
    through_handoff(app)
    app.render()
    return app, scene


def _rects(scene: Any, text: str) -> list[Any]:
    return [r for t, r in scene.drawn_rects if t.strip() == text]


def test_a_planner_with_no_room_in_the_panel_is_drawn_over_the_map_clear_of_the_battle() -> None:
    app, scene = _orders((960, 600))
    panel = scene.orders_panel
    assert scene.planner_fits and _rects(scene, HEADER)[0].x >= scene.map_view().right  # room: in the panel
    panel.notes = [f"note {i}" for i in range(14)]  # the panel's notes take its room
    app.render()
    assert scene.planner_fits is False
    header = _rects(scene, HEADER)
    view = scene.map_view()
    assert len(header) == 1 and view.contains(header[0]), header  # over the map, not beside it
    box = panel.planner_box()
    assert view.contains(box)
    assert not box.collidepoint(scene.hex_centre(scene.seen.battles[panel.battle_id].hex))
    first = next(i for i, (t, _r) in enumerate(scene.drawn_rects) if t.strip() == HEADER)
    drawn = scene.drawn_rects[first:]  # (the map's town names are drawn before, under the box)
    for text, r in drawn:  # every row of the table and the equilibrium's value inside the box
        if r.colliderect(box):
            assert box.contains(r), text
    assert sum(1 for t, r in drawn if box.contains(r) and "/" in t) >= 36  # the 6x6 table's cells
    assert any(t.startswith("Value ") or t.startswith("Equilibrium value") for t, r in drawn if box.contains(r))
    assert "Planner: over the map" in " ".join(scene.drawn_strings)
    assert "no room at this window size" not in " ".join(scene.drawn_strings)


def test_the_planner_box_moves_to_the_top_of_the_map_when_the_battle_is_at_its_foot() -> None:
    app, scene = _orders((960, 600))
    panel = scene.orders_panel
    bx, by = scene.hex_centre(scene.seen.battles[panel.battle_id].hex)
    view = scene.map_view()
    scene.origin = (scene.origin[0], scene.origin[1] + (view.bottom - 60 - by))  # the battle near the map's foot
    box = panel.planner_box()
    assert box.y < view.centery and not box.collidepoint(scene.hex_centre(scene.seen.battles[panel.battle_id].hex))


def test_with_the_planner_hidden_nothing_is_drawn_over_the_map() -> None:
    app, scene = _orders((960, 600))
    scene.orders_panel.notes = [f"note {i}" for i in range(14)]
    scene.show_planner = False
    app.render()
    assert not _rects(scene, HEADER) and "Planner hidden (E shows it)." in scene.drawn_strings
