"""The computer's thinking time a decision, which a player sets (issue 32, "a time budget a player
can set"): `play --think SECONDS`, or T in the players dialog; every window's computer seats and
its hint are asked with it (Settings.think_seconds)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import paths
from game.__main__ import main
from game.cli import play
from game.core.ai import Budget, Decision
from game.shell.app import App, Settings
from game.shell.contracts import live_game
from game.shell.scenes.seats import next_think
from game.shell.seats import THINK_CHOICES, Thinker
from game.table import TABLE


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


class _Recorder:
    """A player that answers at once and keeps the time budget it was given."""

    level = "easy"

    def __init__(self, rng: random.Random) -> None:
        self.budgets: list[float] = []

    def decide(self, system: Any, view: Any, side: str, budget: Budget) -> Decision:
        self.budgets.append(budget.seconds)
        return Decision("nothing", "for the test")


class _System:
    def view(self, state: Any, side: str) -> Any:
        return state


def _answer(thinker: Thinker, state: object) -> None:
    for _ in range(500):
        if thinker.poll(_System(), state, "red", "easy") is not None:
            return
        time.sleep(0.01)
    raise AssertionError("the computer never answered")


def test_each_question_is_asked_with_the_thinking_time_set_when_it_is_asked() -> None:
    made: list[_Recorder] = []

    def factory(rng: random.Random) -> _Recorder:
        made.append(_Recorder(rng))
        return made[-1]

    settings = Settings()
    thinker = Thinker({"easy": factory}, 1, seconds=lambda: settings.think_seconds)
    _answer(thinker, object())
    settings.think_seconds = 5.0
    _answer(thinker, object())
    assert made[0].budgets == [1.0, 5.0]


def test_the_dialogs_round_of_thinking_times_goes_up_then_back_to_the_shortest() -> None:
    seen = [THINK_CHOICES[0]]
    for _ in THINK_CHOICES:
        seen.append(next_think(seen[-1]))
    assert seen == [*THINK_CHOICES, THINK_CHOICES[0]]
    assert next_think(0.7) == 1.0 and next_think(60.0) == THINK_CHOICES[0]


def test_t_in_the_players_dialog_changes_the_thinking_time_the_windows_computer_is_asked_with() -> None:
    app = App.for_scenario(TABLE, paths.default_scenario(), headless=True, settings=Settings(animation="instant"))
    scene = live_game(app)
    assert scene is not None
    scene.players_dialog()
    dialog = app.scenes.top
    assert "thinks up to 1 s a decision" in dialog.body_text  # type: ignore[attr-defined]
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t", scancode=0)])
    assert app.settings.think_seconds == 2.0
    assert "thinks up to 2 s a decision" in app.scenes.top.body_text  # type: ignore[attr-defined]
    assert scene.thinker.seconds() == 2.0  # type: ignore[operator]
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]
    # once play has begun, only the GM changes it, as it does the seats
    cmds = list(scene.session.system.legal_commands(scene.session.view(scene.session.system.to_move(scene.session.state)[0])))
    assert scene.submit(cmds[0])
    scene.players_dialog()
    app.scenes.top.choose_label("Think: 2 s")  # type: ignore[attr-defined]
    assert "Refused." in app.scenes.top.body_text and app.settings.think_seconds == 2.0  # type: ignore[attr-defined]
    app.scenes.top.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    app.scenes.top.choose_label("Think: 2 s")  # type: ignore[attr-defined]
    assert app.settings.think_seconds == 5.0


@pytest.mark.parametrize("value", ["0", "0.05", "61", "-1"])
def test_play_refuses_a_thinking_time_out_of_its_range_saying_the_range(value: str,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--think", value, "--frames", "1"]) != 0
    err = capsys.readouterr().err
    assert "--think" in err and "0.1 to 60 seconds" in err


def test_play_think_sets_the_windows_thinking_time(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[Any] = []
    monkeypatch.setattr(play, "open_window", lambda table, path, size, settings, **kw: opened.append(settings))
    monkeypatch.setattr(play, "run_guarded", lambda app, max_frames=0: 0)
    assert main(["play", "--think", "2.5"]) == 0
    assert opened[0].think_seconds == 2.5


def test_a_side_button_in_the_players_dialog_drops_a_leading_the_so_it_fits_a_small_window() -> None:
    from game.shell.scenes.seats import button_label

    assert button_label("The Zones", None) == "Zones: Human"  # 16 characters overflowed at 960x600
    assert button_label("Resistance Fronts", "easy") == "Resistance: easy"
    assert button_label("Theodric's Host", "hard").startswith("Theodric")  # only the word "The"
