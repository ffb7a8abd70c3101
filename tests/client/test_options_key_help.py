"""The battle's F1 line for O names every setting the Options dialog changes (it said "animation
speed, blackout, quit" while the dialog also sets the defensive-action question and the question
before ending a phase; docs/playing.md, "Controls")."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.shell.scenes.dialog import DialogScene
from game.systems.tactical.client.battle_keys import BATTLE_KEYS
from tests.shell.harness import key, open_game, to_map


def test_the_o_keys_help_names_each_setting_of_the_options_dialog(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    what = next(b.what for b in BATTLE_KEYS if b.label == "O")
    key(game, pygame.K_o)
    options = game.app.scenes.top
    assert isinstance(options, DialogScene) and options.name == "options"
    # each setting the dialog shows (its line) and what the help calls it
    for shown, named in (("Animation:", "animation speed"), ("Blackout between sides:", "blackout"),
                         ("Ask the defender about defensive actions:", "defensive-action question"),
                         ("Ask before ending a phase", "before ending a phase")):
        assert shown in options.body_text
        assert named in what
    assert "Quit" in [c.label for c in options.choices] and what.endswith("quit")
