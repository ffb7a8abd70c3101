"""Issue 28 item 2: F1 shows a help generated from the screen's own key map, on every screen: each
system's game screen (the three shipped ones and the race), the tactical replay view, the load
menu and a dialog."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.shell.keymap import Binding
from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import SYSTEMS, ctrl, key, open_game, to_map


def _help_text(game_top: object) -> str:
    assert isinstance(game_top, DialogScene) and game_top.name == "help"
    return game_top.body_text


@pytest.mark.parametrize("system", SYSTEMS)
def test_f1_on_a_game_screen_lists_its_own_keys_and_the_shells_and_f1_closes_it(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    own: list[Binding] = [b for b in game.scene.key_map() if b.in_help]
    assert own, "every shipped screen and the race name their own keys"
    key(game, pygame.K_F1)
    text = _help_text(game.app.scenes.top)
    for b in own:
        assert f"{b.label}: {b.what}" in text
    for shell_key in ("F5", "Ctrl+S", "Ctrl+O", "Ctrl+Q", "Ctrl+Z", "Ctrl+Y"):
        assert f"{shell_key}:" in text
    key(game, pygame.K_F1)
    assert game.app.scenes.top is game.scene


@pytest.mark.parametrize("system", ["campaign", "mass", "race"])
def test_the_help_of_a_screen_that_leaves_esc_to_the_shell_says_esc_quits(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    key(game, pygame.K_F1)
    assert "Esc: quit (asks first when there is unsaved play or something typed and not sent)" in _help_text(game.app.scenes.top)


def test_the_help_never_names_a_key_for_the_shell_that_the_screen_uses_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)  # Esc there cancels the current choice
    to_map(game)
    key(game, pygame.K_F1)
    text = _help_text(game.app.scenes.top)
    assert "Esc: cancel the current choice" in text and "Esc: quit" not in text


def test_f1_on_the_tactical_replay_view_lists_the_replays_keys(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    key(game, pygame.K_F3)
    assert game.top() == "replay"
    key(game, pygame.K_F1)
    text = _help_text(game.app.scenes.top)
    assert "replay: one command forward" in text and "F5:" in text
    key(game, pygame.K_F1)
    assert game.top() == "replay"


@pytest.mark.parametrize("system", SYSTEMS)
def test_f1_on_the_load_menu_shows_the_shells_keys(system: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    ctrl(game, pygame.K_o)
    assert game.top() == "load_menu"
    key(game, pygame.K_F1)
    text = _help_text(game.app.scenes.top)
    assert "Ctrl+O:" in text and "Ctrl+Z" not in text  # no undo from a menu


def test_f1_in_gm_mode_lists_the_gm_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    to_map(game)
    key(game, pygame.K_F2)
    assert game.top() == "gm"
    key(game, pygame.K_F1)
    text = _help_text(game.app.scenes.top)
    assert "Ctrl+Z: GM undo" in text and "F5:" in text
    key(game, pygame.K_F1)
    assert game.top() == "gm"


def test_f1_on_the_hand_off_screen_names_its_continue_keys(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from game.shell.scenes.handoff import HandoffScene

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    game.app.push(HandoffScene(game.app, "Hare", (200, 200, 60)))
    key(game, pygame.K_F1)
    assert "Enter or Space: show the map" in _help_text(game.app.scenes.top)
    key(game, pygame.K_F1)
    assert game.top() == "handoff"  # the help closed; the map is still hidden


@pytest.mark.parametrize("system", SYSTEMS)
def test_f1_names_ctrl_b_only_in_a_game_opened_from_another(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    to_map(game)
    key(game, pygame.K_F1)
    assert "Ctrl+B:" not in _help_text(game.app.scenes.top)  # nothing to go back to
    key(game, pygame.K_F1)
    game.session.return_to = lambda _scene: None  # (a campaign battle fought out)
    game.session.return_label = "Campaign map"
    key(game, pygame.K_F1)
    assert "Ctrl+B: back to the game this battle was opened from" in _help_text(game.app.scenes.top)
