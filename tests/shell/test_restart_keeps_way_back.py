"""A battle opened from another game (a campaign battle fought out: `session.return_to`) keeps the
way back when it is begun again: the tactical Restart and the mass New battle, asked through the
shell's one question (actions.ask_restart), which says so. The players and the GM's passphrase go
on too (actions.restarted)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.core import gm_lock
from game.shell.contracts import live_game
from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import Game, open_game, play_some, to_map


def _linked(game: Game) -> list[Any]:
    went: list[Any] = []
    game.session.return_to = went.append
    game.session.return_label = "Campaign map"
    return went


def _begin_again(game: Game) -> None:
    to_map(game)
    scene: Any = game.scene
    if hasattr(scene, "dialogs"):  # the tactical battle's end-summary Restart
        scene.dialogs.ask_restart(scene)
    else:  # the mass board's New battle
        scene.new_battle()


@pytest.mark.parametrize("system", ("tactical", "mass"))
def test_restarting_a_battle_that_has_a_way_back_keeps_it(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    went = _linked(game)
    lock = gm_lock.Lock("00" * 16, 1_000, "11" * 32)
    gm_lock.keeping(game.session).lock = lock
    play_some(game)
    _begin_again(game)
    ask = game.app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "restart_question"  # unsaved play: asked first
    assert "goes back to the Campaign map" in ask.body_text
    ask.choose_label("Restart")
    fresh = live_game(game.app)
    assert fresh is not None and fresh is not game.scene and not fresh.session.history
    assert fresh.session.return_to is not None and fresh.session.return_label == "Campaign map"
    assert gm_lock.keeping(fresh.session).lock == lock
    fresh.session.return_to(fresh)
    assert went == [fresh]  # the way back carries the battle begun again


@pytest.mark.parametrize("system", ("tactical", "mass"))
def test_restart_back_returns_to_the_summary_and_keeps_the_battle(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    _begin_again(game)
    ask = game.app.scenes.top
    assert isinstance(ask, DialogScene) and "goes back to" not in ask.body_text  # no way back to speak of
    ask.choose_label("Back")
    assert live_game(game.app) is game.scene and len(game.session.history) == played


@pytest.mark.parametrize("system", ("tactical", "mass"))
def test_enter_in_the_restart_question_saves_the_battle_before_beginning_it_again(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pygame

    from game.io import saves
    from tests.shell.harness import key

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    _begin_again(game)
    assert game.app.scenes.top is not None and game.app.scenes.top.name == "restart_question"
    key(game, pygame.K_RETURN)  # the highlighted Save and restart: nothing is lost by it
    fresh = live_game(game.app)
    assert fresh is not None and fresh is not game.scene and not fresh.session.history
    written = sorted((tmp_path / "saves").glob("*.yaml"))
    assert written and saves.read_header(written[-1]).commands == played


@pytest.mark.parametrize("system", ("tactical", "mass"))
def test_a_campaign_battle_under_a_gm_passphrase_is_begun_again_only_by_the_gm(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    from game.shell.gm_seat import PassphraseScene

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    _linked(game)
    # the campaign's GM seat under the battle (found by what it offers, as gm_seat.outer_seat does)
    game.scene.gm_seat = SimpleNamespace(is_set=True, opens=lambda p: p == "the GM's")  # type: ignore[attr-defined]
    play_some(game)
    _begin_again(game)
    gate = game.app.scenes.top
    assert isinstance(gate, PassphraseScene) and "only the GM" in " ".join(gate.lines)
    assert gate.ok.text == "Begin it again (Enter)"
    assert not gate.submit("a player's guess") and game.app.scenes.top is gate  # nothing begun
    assert live_game(game.app) is game.scene and game.session.history
    gate.go_back()  # Esc: the battle as it was
    assert live_game(game.app) is game.scene and game.session.history
    _begin_again(game)
    gate = game.app.scenes.top
    assert isinstance(gate, PassphraseScene) and gate.submit("the GM's")
    ask = game.app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "restart_question"  # then the usual question
    ask.choose_label("Restart")
    fresh = live_game(game.app)
    assert fresh is not None and fresh is not game.scene and not fresh.session.history


@pytest.mark.parametrize("system", ("tactical", "mass"))
def test_a_battle_with_no_way_back_is_begun_again_without_the_gm(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from types import SimpleNamespace

    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    game.scene.gm_seat = SimpleNamespace(is_set=True, opens=lambda p: False)  # type: ignore[attr-defined]
    play_some(game)
    _begin_again(game)
    ask = game.app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "restart_question"  # no passphrase asked
