"""QA (recovery saves): no play is lost by the recovery save. Each is a new file in
saves/recovery/, named after its game (system, scenario) and clock, never written over another:
a load over unsaved play (F9, the load menu) and a quit after it keep both games; games of two
scenarios of one system keep both; "New game" sets aside without replacing an earlier set-aside
one; the next start names every game of the scenario left unfinished. The newest few of a game
are kept in recovery/, older ones move to deleted/ (never erased). A terminate signal (SIGTERM,
SIGHUP) keeps the unsaved play first, then asks (and quits at a second one)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pygame
import pytest

from game.io import saves
from game.shell import actions, savegame
from game.shell.app import App
from game.shell.scenes.dialog import DialogScene
from tests.shell.harness import RACE, SYSTEMS, ctrl, key, open_game, play_some, step


def _recoveries() -> list[Path]:
    folder = savegame.recovery_dir()
    return sorted(folder.glob("recovery-*.yaml")) if folder.is_dir() else []


def _commands(path: Path) -> int:
    return saves.read_header(path).commands


def _top(game: object) -> DialogScene:
    top = game.app.scenes.top  # type: ignore[attr-defined]
    assert isinstance(top, DialogScene), getattr(top, "name", None)
    return top


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_quick_load_over_unsaved_play_then_quitting_keeps_both_games_and_the_next_start_names_both(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    key(game, pygame.K_F5)  # the quick save
    play_some(game)
    ahead = len(game.session.history)
    key(game, pygame.K_F9)
    _top(game).choose_label("Load")  # the moves since F5 go to a recovery save
    step(game.app)
    loaded = next(s for s in game.app.scenes if getattr(s, "game_scene", False))
    (first,) = _recoveries()
    assert _commands(first) == ahead
    session = loaded.session  # type: ignore[attr-defined]
    legal = list(session.system.legal_commands(session.state))
    assert session.apply(legal[0])[0]  # another move on the quick save's game
    actions.quit_now(game.app)
    kept = _recoveries()
    assert len(kept) == 2 and first in kept  # the first is not written over
    second = next(p for p in kept if p != first)
    assert _commands(second) == len(session.history)

    again = open_game(system, tmp_path)
    assert actions.offer_recovery(again.app, again.session.path)
    offer = _top(again)
    assert "Also left unfinished (1" in offer.body_text and "Load menu" in [c.label for c in offer.choices]
    offer.choose_label("Resume")
    step(again.app)
    resumed = next(s for s in again.app.scenes if getattr(s, "game_scene", False))
    assert len(resumed.session.history) == len(session.history)  # type: ignore[attr-defined]  # the newest


def test_the_message_after_a_quick_load_over_unsaved_play_names_the_recovery_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    key(game, pygame.K_F5)
    play_some(game)
    told: list[str] = []
    tell = actions.tell
    monkeypatch.setattr(actions, "tell", lambda scene, text, *a, **k: (told.append(text), tell(scene, text, *a, **k)))
    key(game, pygame.K_F9)
    dialog = _top(game)
    assert "recovery save of its own keeps them" in dialog.body_text
    dialog.choose_label("Load")
    step(game.app)
    (kept,) = _recoveries()
    assert any(text.startswith("Loaded") and kept.name in text for text in told), told


def test_games_of_two_scenarios_of_one_system_each_keep_their_recovery_save(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    other = tmp_path / "other-race.yaml"
    other.write_text(RACE.replace("The Long Straight", "The Other Straight"), encoding="utf-8")
    a = open_game("race", tmp_path)
    play_some(a)
    actions.quit_now(a.app)
    b = open_game("race", tmp_path, other)
    assert not actions.offer_recovery(b.app, b.session.path)  # A's game is not of this file
    play_some(b)
    actions.quit_now(b.app)
    assert len(_recoveries()) == 2  # B's did not replace A's
    again = open_game("race", tmp_path)
    assert actions.offer_recovery(again.app, again.session.path)
    assert "The Long Straight" in _top(again).body_text and "Other" not in _top(again).body_text


def test_new_game_twice_sets_both_games_aside_without_replacing_the_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    for _ in range(2):
        game = open_game("race", tmp_path)
        actions.offer_recovery(game.app, game.session.path)
        if isinstance(game.app.scenes.top, DialogScene):
            _top(game).choose_label("New game")
        play_some(game)
        actions.quit_now(game.app)
    last = open_game("race", tmp_path)
    assert actions.offer_recovery(last.app, last.session.path)
    _top(last).choose_label("New game")
    kept = _recoveries()
    assert len(kept) == 2 and all("-dismissed" in p.stem for p in kept)  # (-dismissed-2: a name taken)
    assert savegame.recovery_paths() == []


def test_the_same_play_left_twice_is_kept_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    first = savegame.keep_recovery(game.session)
    assert savegame.keep_recovery(game.session) == first and len(_recoveries()) == 1
    play_some(game)  # more play: a new file, the first kept
    second = savegame.keep_recovery(game.session)
    assert second != first and _recoveries() == sorted([first, second])  # type: ignore[type-var]


def test_the_recovery_saves_of_one_game_beyond_the_few_kept_move_to_deleted_not_erased(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    written = []
    for n in range(savegame.RECOVERY_KEEP + 1):
        play_some(game)
        path = savegame.keep_recovery(game.session)
        assert path is not None
        os.utime(path, (1_000_000 + n, 1_000_000 + n))  # (distinct ages, oldest first)
        written.append(path)
    play_some(game)
    newest = savegame.keep_recovery(game.session)
    assert newest is not None
    kept = _recoveries()
    assert len(kept) == savegame.RECOVERY_KEEP and newest in kept
    gone = sorted(savegame.deleted_dir().glob("recovery-*.yaml"))
    assert {p.name for p in gone} == {p.name for p in written[:2]}  # the two oldest, in deleted/


def test_recovery_saves_of_another_scenario_whose_name_begins_alike_are_not_rotated_with_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    folder = savegame.recovery_dir()
    folder.mkdir(parents=True)
    theirs = folder / "recovery-race-race-long-lap01-20260101-120000.yaml"
    theirs.write_text("x", encoding="utf-8")
    game = open_game("race", tmp_path)
    for _ in range(savegame.RECOVERY_KEEP + 1):
        play_some(game)
        savegame.keep_recovery(game.session)
    assert theirs.is_file()


def test_a_quick_load_is_refused_when_the_moves_on_screen_cannot_be_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    key(game, pygame.K_F5)
    play_some(game)
    played = len(game.session.history)

    def full(session: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savegame, "keep_recovery", full)
    key(game, pygame.K_F9)
    _top(game).choose_label("Load")
    step(game.app)
    assert game.app.scenes.top is game.scene and len(game.session.history) == played  # nothing taken off
    text, problem = game.last()
    assert problem and text.startswith("Not loaded") and "No space left" in text


def test_quitting_asks_again_when_the_recovery_save_cannot_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)

    def full(session: object) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savegame, "keep_recovery", full)
    ctrl(game, pygame.K_q)
    _top(game).choose_label("Quit")
    assert game.app.running  # the moves would be lost: asked first
    unkept = _top(game)
    assert unkept.name == "quit_unkept" and "No space left" in unkept.body_text
    unkept.choose_label("Keep playing")
    assert game.app.running and game.app.scenes.top is game.scene
    ctrl(game, pygame.K_q)
    _top(game).choose_label("Quit")
    _top(game).choose_label("Quit anyway")
    assert not game.app.running


# --------------------------------------------------------------------------- terminate signals


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_terminate_signal_keeps_the_unsaved_play_as_a_recovery_save_before_asking(
        system: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game(system, tmp_path)
    play_some(game)
    played = len(game.session.history)
    game.app.terminate(signal.SIGTERM)  # what the handler does (the test process is not signalled)
    step(game.app)
    (kept,) = _recoveries()  # written before anything is asked: a SIGKILL may follow
    assert _commands(kept) == played
    assert _top(game).name == "quit_dialog" and game.app.running
    _top(game).choose_label("Quit")
    assert not game.app.running and _recoveries() == [kept]  # the same play: not written twice


def test_a_second_terminate_signal_quits_without_asking_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    game.app.terminate(signal.SIGTERM)
    step(game.app)
    assert _top(game).name == "quit_dialog"
    game.app.terminate(signal.SIGTERM)
    step(game.app)
    assert not game.app.running and len(_recoveries()) == 1


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_hang_up_signal_keeps_the_play_too_and_with_nothing_unsaved_quits_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    play_some(game)
    game.app.terminate(signal.SIGHUP)
    step(game.app)
    assert len(_recoveries()) == 1
    saved = open_game("race", tmp_path)
    saved.app.terminate(signal.SIGTERM)  # nothing played: nothing to keep, nothing to ask
    step(saved.app)
    assert not saved.app.running and len(_recoveries()) == 1


def test_the_window_loop_takes_the_terminate_signals_while_it_runs_and_gives_them_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    game = open_game("race", tmp_path)
    before = {sig: signal.getsignal(sig) for sig in App.TERMINATE_SIGNALS}
    during: dict[int, object] = {}

    def loop(self: App, *args: object) -> None:
        during.update({sig: signal.getsignal(sig) for sig in App.TERMINATE_SIGNALS})

    monkeypatch.setattr(App, "_loop", loop)
    assert game.app.run() == 0
    assert signal.SIGTERM in App.TERMINATE_SIGNALS
    assert all(handler == game.app.terminate for handler in during.values()) and during
    assert {sig: signal.getsignal(sig) for sig in App.TERMINATE_SIGNALS} == before
