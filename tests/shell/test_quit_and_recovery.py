"""Issue 28 item 3: quitting never discards play. Esc (where the screen leaves it to the shell),
Ctrl+Q and the window's close all ask when there is unsaved play; the game left is kept as a
recovery save of its own (saves/recovery/, never written over another); the next start offers to
resume only a game of the file being opened (any game when no file is named), naming it and when it
was left. For every system and the race."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from game.io import saves
from game.shell import actions, savegame
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from tests.shell.harness import SYSTEMS, ctrl, key, open_game, play_some, step, to_map


def _recoveries() -> list[Path]:
    """Every recovery save written (set aside or not), by name."""
    folder = savegame.recovery_dir()
    return sorted(folder.glob("recovery-*.yaml")) if folder.is_dir() else []


def _quit_dialog(game: object) -> DialogScene:
    top = game.app.scenes.top  # type: ignore[attr-defined]
    assert isinstance(top, DialogScene) and top.name == "quit_dialog", getattr(top, "name", None)
    return top


@pytest.mark.parametrize("system", SYSTEMS)
def test_ctrl_q_with_unsaved_play_asks_and_keep_playing_goes_back_to_the_game(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    ctrl(game, pygame.K_q)
    dialog = _quit_dialog(game)
    assert game.session.system.title in dialog.body_text
    dialog.choose_label("Keep playing")
    assert game.app.running and game.app.scenes.top is game.scene


@pytest.mark.parametrize("system", SYSTEMS)
def test_closing_the_window_with_unsaved_play_asks_and_quit_keeps_the_game_as_a_recovery_save_of_its_own(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    step(game.app, pygame.event.Event(pygame.QUIT))
    _quit_dialog(game).choose_label("Quit")
    assert not game.app.running
    (recovery,) = _recoveries()
    assert recovery.name.startswith(f"recovery-{savegame.slot_name(game.session)}-")
    header = saves.read_header(recovery)
    assert header.system == game.session.system.name and header.commands == played
    assert "left unfinished" in header.title and game.session.system.title in header.title


@pytest.mark.parametrize("system", ["campaign", "mass", "race"])
def test_esc_on_a_screen_that_leaves_it_to_the_shell_asks_before_quitting(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_ESCAPE)
    _quit_dialog(game).choose_label("Keep playing")
    assert game.app.running and game.app.scenes.top is game.scene  # the mass board used to drop the game


@pytest.mark.parametrize("system", SYSTEMS)
def test_quitting_a_game_with_no_unsaved_play_does_not_ask(system: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_F5)  # saved: nothing is lost by quitting
    ctrl(game, pygame.K_q)
    assert not game.app.running
    assert _recoveries() == []  # and nothing to offer next time


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_next_start_offers_to_resume_a_game_of_the_file_opened_naming_it_and_when_it_was_left(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    actions.quit_now(game.app)
    (recovery,) = _recoveries()
    header = saves.read_header(recovery)

    again = open_game(system, tmp_path)
    assert actions.offer_recovery(again.app, again.session.path)
    offer = again.app.scenes.top
    assert isinstance(offer, DialogScene) and offer.title == "Resume your last game?"
    assert header.title in offer.body_text and header.saved_at.replace("T", " ")[:16] in offer.body_text
    offer.choose_label("Resume")
    step(again.app)
    resumed = again.app.scenes
    scene = next(s for s in resumed if getattr(s, "game_scene", False))
    assert len(scene.session.history) == played  # type: ignore[attr-defined]


def test_a_game_left_is_not_offered_when_another_file_is_opened_but_is_when_none_is_named(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    campaign = open_game("campaign", tmp_path)
    play_some(campaign)
    actions.quit_now(campaign.app)
    other = open_game("mass", tmp_path)  # (the campaign's island is not this file)
    assert not actions.offer_recovery(other.app, other.session.path)
    assert other.app.scenes.top is other.scene
    assert actions.offer_recovery(other.app, None)  # no file named: any game left is offered
    top = other.app.scenes.top
    assert isinstance(top, DialogScene) and "campaign" in top.body_text


def test_new_game_sets_the_recovery_save_aside_and_it_is_not_offered_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    actions.quit_now(game.app)
    again = open_game("race", tmp_path)
    assert actions.offer_recovery(again.app, again.session.path)
    top = again.app.scenes.top
    assert isinstance(top, DialogScene)
    (left,) = _recoveries()
    top.choose_label("New game")
    assert savegame.recovery_paths() == []
    assert _recoveries() == [left.with_name(f"{left.stem}-dismissed.yaml")]  # listed in the load menu, not offered
    third = open_game("race", tmp_path)
    assert not actions.offer_recovery(third.app, third.session.path)


def test_each_game_keeps_its_own_recovery_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    for system in SYSTEMS:
        game = open_game(system, tmp_path)
        to_map(game)
        play_some(game)
        actions.quit_now(game.app)
    kept = sorted(p.name.rsplit("-", 3)[0] for p in _recoveries())  # (-<clock>-<date>-<time>)
    assert kept == ["recovery-ail-tactical-demo-movement", "recovery-campaign-teaching",
                    "recovery-mass-battle-borderland-valley", "recovery-race-race"]


def test_esc_in_the_tactical_battle_cancels_a_choice_first_then_asks_before_quitting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("tactical", tmp_path)
    play_some(game)
    scene: Any = game.scene
    unit = next(u for u in scene.state.units.values() if scene.is_mine(u.id) and not u.destroyed)
    scene.selected = unit.id  # a unit chosen: Esc lets go of it, and asks nothing
    key(game, pygame.K_ESCAPE)
    assert game.app.scenes.top is game.scene and scene.selected is None
    key(game, pygame.K_ESCAPE)  # nothing chosen: the shell's quit
    _quit_dialog(game).choose_label("Keep playing")
    assert game.app.running and game.app.scenes.top is game.scene


def test_the_one_recovery_save_of_older_versions_is_still_offered(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    actions.quit_now(game.app)
    (left,) = _recoveries()
    left.rename(savegame.saves_dir() / "recovery.yaml")
    again = open_game("race", tmp_path)
    assert actions.offer_recovery(again.app, again.session.path)
    top = again.app.scenes.top
    assert isinstance(top, DialogScene)
    top.choose_label("New game")
    assert (savegame.saves_dir() / "recovery-dismissed.yaml").is_file()


@pytest.mark.parametrize("system", SYSTEMS)
def test_esc_on_the_hand_off_screen_asks_before_quitting_and_keep_playing_leaves_the_map_hidden(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    game.app.push(HandoffScene(game.app, "The next side", (200, 200, 60)))
    key(game, pygame.K_ESCAPE)
    _quit_dialog(game).choose_label("Keep playing")
    assert game.app.running and game.top() == "handoff"  # back to the blank screen, not to the map


@pytest.mark.parametrize("system", SYSTEMS)
def test_enter_in_the_quit_question_presses_its_highlighted_save_and_quit(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    ctrl(game, pygame.K_q)
    _quit_dialog(game)
    key(game, pygame.K_RETURN)  # the highlighted button: nothing is lost by it
    assert not game.app.running and not _recoveries()
    written = sorted((tmp_path / "saves").glob("*.yaml"))
    assert written and saves.read_header(written[-1]).commands == played
