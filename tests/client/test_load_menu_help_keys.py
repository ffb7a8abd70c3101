"""The load menu's F1 names both keys that delete a save, Delete and Backspace (docs/saves.md,
"Deleting a save"); it named only Delete while Backspace asked too."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.load_menu import LoadMenuScene
from tests.client.clientfix import key
from tests.client.test_load_menu import ctrl, demo_save, open_app, saves_dir  # noqa: F401 - fixture


def test_f1_in_the_load_menu_names_backspace_and_backspace_asks_to_delete(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    saves_dir.mkdir(parents=True, exist_ok=True)
    demo_save(saves_dir / "a.yaml")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    assert isinstance(app.scenes.top, LoadMenuScene)
    key(app, pygame.K_F1)
    help_dialog = app.scenes.top
    assert isinstance(help_dialog, DialogScene) and help_dialog.name == "help"
    assert "Delete or Backspace: delete the selected save" in help_dialog.body_text
    key(app, pygame.K_F1)
    assert isinstance(app.scenes.top, LoadMenuScene)
    key(app, pygame.K_BACKSPACE)
    question = app.scenes.top
    assert isinstance(question, DialogScene) and question.name == "delete_question"
