"""The tactical end summary's buttons show their labels whole at the smallest window (960x600),
also with the way back of a campaign battle fought out ('Campaign map', a fifth button: it was cut
to 'Campaign m' in a 560-pixel box)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game.shell import launch  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.shell.harness import scenario  # noqa: E402


@pytest.mark.parametrize("way_back", [False, True])
@pytest.mark.parametrize("size", [(960, 600), (1280, 800)])
def test_every_end_summary_button_label_fits_its_button(way_back: bool, size: tuple[int, int], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    session = launch.open_game(TABLE, scenario("tactical", tmp_path))
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant", blackout=False))
    scene: Any = launch.scene_for(app, session)
    app.push(scene)
    if way_back:
        session.return_to = lambda _scene: None
        session.return_label = "Campaign map"
    dialog = scene.dialogs.end(session.state, scene)
    labels = [b.text for b in dialog.buttons]
    assert ("Campaign map" in labels) == way_back and len(labels) == (5 if way_back else 4), labels
    cut = [b.text for b in dialog.buttons if b.font.size(b.text)[0] > b.rect.width - 8]
    assert cut == []
    assert dialog.rect.right <= size[0] and dialog.rect.x >= 0
