"""A person watching two computer sides play pauses them with the players dialog (P): while it is
open no computer command is played, and once it closes they play on (QA of a watched game,
docs/ai.md "In the window"). In the tactical window, on the campaign map and on the mass board."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.contracts import live_game  # noqa: E402
from game.shell.launch import open_game, scene_for  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.systems.mass.client import MassBoardScene, open_scene  # noqa: E402
from game.table import TABLE  # noqa: E402

MAPS = Path(__file__).resolve().parents[2] / "maps"
BATTLE = MAPS / "mass" / "borderland-valley.yaml"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _tactical() -> tuple[App, Any]:
    app = App.for_scenario(TABLE, paths.default_scenario(), headless=True, settings=Settings(animation="instant"))
    scene = live_game(app)
    assert scene is not None
    scene.session.seats = Seats({"zone": "easy", "zenith": "easy"})
    scene.thinker.seconds = 0.3  # type: ignore[attr-defined]
    return app, scene


def _mass() -> tuple[App, Any]:
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    session.seats = Seats({"hida": "easy", "akira": "easy"})
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    scene.pace = 0.0
    app.push(scene)
    return app, scene


def _campaign() -> tuple[App, Any]:
    session = open_game(TABLE, MAPS / "campaign" / "teaching.yaml")
    session.seats = Seats({p: "easy" for p in ("zones", "resistance", "zenith", "jibril")})
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    scene = scene_for(app, session)
    scene.pace = 0.0  # type: ignore[attr-defined]
    app.push(scene)
    return app, scene


def _run(app: App, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.step([])
        time.sleep(0.005)


def _until_played(app: App, scene: Any, more_than: int) -> None:
    deadline = time.monotonic() + 60
    while len(scene.session.history) <= more_than:
        assert time.monotonic() < deadline, "the computer sides did not play on"
        if app.scenes.top is not scene:  # (a briefing or an end of battle: not a watcher's question here)
            app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])
        else:
            app.step([])
        time.sleep(0.002)


@pytest.mark.parametrize("window", [_tactical, _campaign, _mass], ids=["tactical", "campaign", "mass"])
def test_the_players_dialog_pauses_two_computer_sides_and_closing_it_lets_them_play_on(window: Any) -> None:
    app, scene = window()
    _until_played(app, scene, 0)  # they play by themselves
    scene.players_dialog()
    dialog = app.scenes.top
    assert dialog is not scene and dialog.name == "seats"
    played = len(scene.session.history)
    _run(app, 1.5)  # long enough for several computer commands (0.3 s a decision at most, no pace)
    assert app.scenes.top is dialog and len(scene.session.history) == played  # paused
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)])  # Done
    assert app.scenes.top is scene
    _until_played(app, scene, played)  # and on again
