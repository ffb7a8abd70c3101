"""H on the campaign map marks where the hint acts (as the tactical hint marks its move): an
army's move from its hex along its path, a declaration's hex, the army a General joins. The mark
goes with the next command."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.systems.campaign.client.scene import HINT_GOLD  # noqa: E402
from game.systems.campaign.rules.commands import Declare, EndTurn, MoveArmy, WritePost  # noqa: E402
from tests.client.test_campaign_client import _app, key, through_handoff  # noqa: E402


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def test_a_hint_to_move_an_army_is_marked_on_the_map_until_the_next_command() -> None:
    app, scene = _app()
    through_handoff(app)
    scene: Any = scene
    assert scene.state.phase == "movement" and scene.my_move()
    key(app, pygame.K_h)
    deadline = time.monotonic() + 30
    while not scene.message.startswith("Hint (") and time.monotonic() < deadline:
        app.step([])
        time.sleep(0.005)
    assert scene.message.startswith("Hint ("), scene.message
    assert "move Lowmarch Rifle Corps" in scene.message and scene.hint_mark is not None  # (the Zones' first move)
    assert scene.hint_mark[0] == scene.state.armies["rifles"].hex
    surface = app.render()
    x, y = scene.hex_centre(scene.hint_mark[-1])
    r = max(2, int(36 * scene.scale))
    ring = [surface.get_at((int(x) + dx, int(y) + dy))[:3] for dx, dy in ((r + 7, 0), (-(r + 7), 0), (0, r + 7))]
    assert HINT_GOLD in ring or any(sum(abs(a - b) for a, b in zip(c, HINT_GOLD, strict=True)) < 40 for c in ring)
    key(app, pygame.K_RETURN)  # the turn ends: the hint was for the move just passed
    assert scene.hint_mark is None


def test_the_hint_marks_the_place_of_a_move_a_declaration_and_nothing_for_a_turn_or_a_post() -> None:
    app, scene = _app()
    through_handoff(app)
    scene: Any = scene
    army = next(a for a in scene.state.armies.values() if a.owner == scene.viewer)
    to = army.route
    assert scene._hint_hexes(MoveArmy(army=army.id, path=(to,))) == (army.hex, to)
    assert scene._hint_hexes(Declare(player=scene.viewer, hex=(5, 6), fight=True)) == ((5, 6),)
    assert scene._hint_hexes(EndTurn()) is None
    assert scene._hint_hexes(WritePost(player=scene.viewer, battle="B1", text="x")) is None


def test_a_hint_mark_is_never_left_on_the_next_powers_map() -> None:
    app, scene = _app()
    through_handoff(app)
    scene: Any = scene
    army = next(a for a in scene.state.armies.values() if a.owner == scene.viewer)
    scene.hint_mark = scene._hint_hexes(MoveArmy(army=army.id, path=(army.route,)))
    assert scene.hint_mark is not None
    was = scene.viewer
    scene.viewer = "someone else"  # (the screen passes on without a command: the players dialog)
    scene._sync_viewer(handoff=False)
    assert scene.viewer == was and scene.hint_mark is None
