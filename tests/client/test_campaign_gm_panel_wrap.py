"""The campaign GM panel's long lines stay inside the panel at 960x600: a battle fought out names
its save ("save battles/<campaign save>-B1-tactical-save.yaml"), and a battle that cannot be
opened names the file it looked for ("Cannot open the battle: /.../battles/...yaml: no such
file ..."). A file's path is one word wider than the panel: it is cut between letters
(fonts.wrap_px), all of it shown, none of it past the panel's edge. A battle whose save and file
are both gone says so instead of closing the window."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import paths
from game.systems.campaign.client.scene import INDENT, PANEL_W
from tests.bridge.test_fight_client import _back_later, _fight
from tests.client.clientfix import press_button
from tests.client.test_campaign_client import _app, open_gm, play_to_orders, through_handoff

LONG_NAME = "teaching-campaign-of-the-long-winter-week01-20261204-153012"


@pytest.fixture()
def saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "a-saves-folder-with-a-long-name-as-a-home-folder-has" / "saves"
    monkeypatch.setenv(paths.SAVES_ENV, str(folder))
    return folder


def _panel(app: Any, scene: Any) -> list[tuple[str, pygame.Rect]]:
    app.render()
    width = app.screen.get_width()
    return [(t, r) for t, r in scene.drawn_rects if r.x >= width - PANEL_W]


def _joined(panel: list[tuple[str, pygame.Rect]]) -> str:
    """The panel's text with each wrapped line's indent taken off and the pieces run together."""
    return "".join(t.removeprefix(INDENT) for t, _r in panel)


def _fought_out_at_960(saves: Path) -> tuple[Any, Any]:
    """B1 fought out as a tactical battle from a campaign save with a long name, left for later;
    the GM view open, at 960x600."""
    app, scene = _app()
    play_to_orders(app, scene)
    through_handoff(app)
    scene.session.save_path = saves / f"{LONG_NAME}.yaml"
    open_gm(app)
    _fight(app, scene)
    _back_later(app)
    open_gm(app)
    app.resize((960, 600))
    assert scene.gm and scene.fight_battle() is not None
    return app, scene


def test_the_battle_save_line_is_wrapped_inside_the_panel_and_shown_whole(saves: Path) -> None:
    app, scene = _fought_out_at_960(saves)
    panel = _panel(app, scene)
    width = app.screen.get_width()
    for text, rect in panel:
        assert rect.right <= width - 4, text
    joined = _joined(panel)  # (a break at a space drops the space)
    assert f"Being fought out as a tactical battle; savebattles/{LONG_NAME}-B1-tactical-save.yaml" in joined


def test_cannot_open_the_battle_names_the_whole_path_inside_the_panel(saves: Path) -> None:
    app, scene = _fought_out_at_960(saves)
    shutil.rmtree(saves / "battles")  # its save and its battle file gone
    press_button(app, "Resume tactical battle")
    assert app.running and app.scenes.top is scene  # said on the panel (it used to close the window)
    assert scene.message.startswith("Cannot open the battle: ") and "no such file" in scene.message
    panel = _panel(app, scene)
    width = app.screen.get_width()
    for text, rect in panel:
        assert rect.right <= width - 4, text
    missing = saves / "battles" / f"{LONG_NAME}-B1-tactical.yaml"
    assert str(missing) in _joined(panel)
