"""The teaching campaign in a headless window, for the tests of its GM view's tools and its
replay view: saves kept in the test's own folder, a quick passphrase digest."""

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
from tests.client.test_campaign_client import through_handoff  # noqa: E402

TEACHING = "maps/campaign/teaching.yaml"
PASSPHRASE = "owl and oak"


@pytest.fixture(autouse=True)
def saves_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """(autouse where imported) the saves go to the test's own folder."""
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def top(app: App) -> Any:
    return app.scenes.top


def teaching_app(size: tuple[int, int] = (1280, 800)) -> tuple[App, Any]:
    """The teaching campaign past its first hand-off, its GM seat hashing quickly."""
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    scene: Any = scene_for(app, open_game(TABLE, TEACHING))
    scene.gm_seat.iterations = 1_000
    app.push(scene)
    through_handoff(app)
    return app, scene
