"""F1 on a plain dialog names the keys the dialog takes: the number keys that press its buttons,
each button's own key and Esc for its cancel (docs/playing.md, "Controls": "1 ... 9 press the n-th
button of a dialog"). The Options dialog took 1-6 and Esc while its F1 listed only the shell's keys."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import key, open_game, to_map


def test_f1_on_the_options_dialog_names_its_number_keys_and_esc_and_they_work(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    key(game, pygame.K_o)
    options = game.app.scenes.top
    assert isinstance(options, DialogScene) and options.name == "options"
    key(game, pygame.K_F1)
    help_dialog = game.app.scenes.top
    assert isinstance(help_dialog, DialogScene) and help_dialog.name == "help"
    text = help_dialog.body_text
    assert "1-6: press the button in that place, counting from the left" in text
    assert "Esc: Close" in text
    key(game, pygame.K_F1)  # closes the help, back on the options
    assert game.app.scenes.top is options
    speed = options.body_text.splitlines()[0]
    assert speed.startswith("Animation: ")
    key(game, pygame.K_1)  # the first button: the animation speed, which reopens the dialog changed
    again = game.app.scenes.top
    assert isinstance(again, DialogScene) and again.name == "options"
    assert again.body_text.splitlines()[0].startswith("Animation: ") and again.body_text.splitlines()[0] != speed
    key(game, pygame.K_ESCAPE)
    assert game.app.scenes.top is game.scene


def test_a_dialogs_help_names_a_buttons_own_key_once_and_no_number_key_without_buttons(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.shell.scenes.dialog import Choice
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    dialog = DialogScene(game.app, "Quit the game?", "Unsaved moves.",
                         [Choice("Save and quit", None, pygame.K_s), Choice("Keep playing", None, pygame.K_ESCAPE)],
                         cancel=Choice("Keep playing"))
    labels = [(b.label, b.what) for b in dialog.key_map()]
    assert labels == [("S", "Save and quit"), ("Esc", "Keep playing"),
                      ("1-2", "press the button in that place, counting from the left")]
    assert DialogScene(game.app, "Note", "Nothing to choose.", []).key_map() == ()


def test_the_players_dialogs_help_names_its_letter_keys_once_without_repeating_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    key(game, pygame.K_p)
    seats = game.app.scenes.top
    assert isinstance(seats, DialogScene) and seats.name == "seats"
    labels = {b.label: b.what for b in seats.key_map()}
    # the sides' own number keys are the 1-N line's; a label's "(K)" is not said twice
    assert "1" not in labels and "2" not in labels
    assert labels["K"] == "GM passphrase..." and labels["T"].startswith("Think: ")
    assert labels["Enter or Esc"] == "Done" and "Esc" not in labels  # one line for one button's two keys
    key(game, pygame.K_F1)
    text = game.app.scenes.top.body_text
    assert f"1-{len(seats.choices)}: press the button in that place, counting from the left" in text
    assert "K: GM passphrase..." in text
