"""The shell's hook for what is typed or chosen and not sent (contracts.HoldsUnsent): any scene on
the stack may answer `unsent() -> list[str]`, and every way to quit asks first while one holds
something (the window's close button, Ctrl+Q, Esc on the game and on the hand-off), naming it;
"Back to the game" keeps it, "Quit anyway" goes on to the usual quit (asking about unsaved play,
naming it again there). A terminate signal does not wait on it: it quits after its recovery
save and names on stderr what was lost. The hook is the shell's own: no rule system's code."""

from __future__ import annotations

import signal
from pathlib import Path

import pygame
import pytest

from game.shell import actions
from game.shell.contracts import HoldsUnsent, unsent_lines
from game.shell.scene import Scene
from game.shell.scenes.dialog import DialogScene
from game.shell.scenes.handoff import HandoffScene
from tests.shell.harness import Game, ctrl, key, open_game, play_some, step

LINE = "Hare: a note typed, not sent"


class Notepad(Scene):
    """A screen over the game holding typed text (any scene may: it is no game scene)."""

    overlay = True
    name = "notepad"

    def __init__(self, app: object, lines: list[str]) -> None:
        super().__init__(app)  # type: ignore[arg-type]
        self.lines = lines

    def unsent(self) -> list[str]:
        return list(self.lines)


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Game:
    monkeypatch.setenv("AIL_SAVES_DIR", str(tmp_path / "saves"))
    return open_game("race", tmp_path)


def _question(game: Game) -> DialogScene:
    top = game.app.scenes.top
    assert isinstance(top, DialogScene) and top.name == "unsent_question", getattr(top, "name", None)
    return top


def test_every_scene_on_the_stack_is_asked_and_one_without_the_hook_adds_nothing(game: Game) -> None:
    pad = Notepad(game.app, [LINE])
    game.app.push(pad)
    game.app.push(HandoffScene(game.app, "Hare", (200, 60, 60)))
    assert isinstance(pad, HoldsUnsent) and not isinstance(game.app.scenes.top, HoldsUnsent)
    assert unsent_lines(game.app) == [LINE]


def test_the_window_close_button_asks_first_naming_what_is_lost_and_back_to_the_game_keeps_it(game: Game) -> None:
    pad = Notepad(game.app, [LINE])
    game.app.push(pad)
    step(game.app, pygame.event.Event(pygame.QUIT))  # no unsaved play: it used to quit at once
    question = _question(game)
    assert LINE in question.body_text and "Back to the game keeps it" in question.body_text
    question.choose_label("Back to the game")
    assert game.app.running and game.app.scenes.top is pad and pad.lines == [LINE]


def test_a_second_close_while_the_question_is_up_asks_nothing_more(game: Game) -> None:
    game.app.push(Notepad(game.app, [LINE]))
    step(game.app, pygame.event.Event(pygame.QUIT))
    step(game.app, pygame.event.Event(pygame.QUIT))
    assert [s.name for s in game.app.scenes].count("unsent_question") == 1


def test_quit_anyway_with_no_unsaved_play_quits(game: Game) -> None:
    game.app.push(Notepad(game.app, [LINE]))
    ctrl(game, pygame.K_q)
    _question(game).choose_label("Quit anyway")
    assert not game.app.running


def test_quit_anyway_with_unsaved_play_goes_on_to_the_quit_question_which_names_it_again(game: Game) -> None:
    play_some(game)
    game.app.push(Notepad(game.app, [LINE, "Tortoise: a plan chosen in part"]))
    step(game.app, pygame.event.Event(pygame.QUIT))
    question = _question(game)
    assert "Back to the game keeps them" in question.body_text
    question.choose_label("Quit anyway")
    top = game.app.scenes.top
    assert isinstance(top, DialogScene) and top.name == "quit_dialog" and game.app.running
    assert LINE in top.body_text and "Keep playing keeps them" in top.body_text
    assert "unsent_question" not in [s.name for s in game.app.scenes]  # asked once, not stacked


def test_esc_and_ctrl_q_on_the_hand_off_ask_about_what_the_scene_under_it_holds(game: Game) -> None:
    game.app.push(Notepad(game.app, [LINE]))
    handoff = HandoffScene(game.app, "Hare", (200, 60, 60))
    game.app.push(handoff)
    for press in (lambda: key(game, pygame.K_ESCAPE), lambda: ctrl(game, pygame.K_q)):
        press()
        question = _question(game)
        assert LINE in question.body_text
        key(game, pygame.K_RETURN)  # Back to the game: the hand-off again, the map still hidden
        assert game.app.running and game.app.scenes.top is handoff


def test_nothing_unsent_quits_at_once_as_before(game: Game) -> None:
    game.app.push(Notepad(game.app, []))
    step(game.app, pygame.event.Event(pygame.QUIT))
    assert not game.app.running


def test_a_terminate_signal_does_not_wait_on_the_question_and_names_what_was_lost(
        game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    game.app.push(Notepad(game.app, [LINE]))
    game.app.terminate(signal.SIGTERM)
    step(game.app)
    assert not game.app.running
    assert f"SIGTERM: not sent, and not kept: {LINE}" in capsys.readouterr().err


def test_a_terminate_signal_with_unsaved_play_keeps_it_asks_the_quit_question_and_a_second_quits(
        game: Game) -> None:
    play_some(game)
    game.app.push(Notepad(game.app, [LINE]))
    game.app.terminate(signal.SIGTERM)
    step(game.app)
    top = game.app.scenes.top
    assert isinstance(top, DialogScene) and top.name == "quit_dialog"  # the usual question, not the draft's
    assert LINE in top.body_text
    game.app.terminate(signal.SIGTERM)
    step(game.app)
    assert not game.app.running


def test_the_question_over_another_verb_names_it(game: Game) -> None:
    done: list[bool] = []
    actions.ask_unsent(game.app, [LINE], lambda: done.append(True), "Load")
    question = _question(game)
    assert question.title == "Load without sending it?" and "lost if you load" in question.body_text
    question.choose_label("Load anyway")
    assert done == [True]
