"""The mass battle's board in a headless window, driven by real key events: shared by the tests
of the board's replay view and GM mode."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.shell.app import App, Settings
from game.shell.launch import open_game
from game.shell.scenes.handoff import HandoffScene
from game.shell.session import Session
from game.systems.mass.client import MassBoardScene, open_scene
from game.table import TABLE

ROOT = Path(__file__).resolve().parents[2]
BATTLE = ROOT / "maps" / "mass" / "borderland-valley.yaml"


def key_events(k: int, mod: int = 0) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
            pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)]


def board_app(size: tuple[int, int] = (1280, 800)) -> tuple[App, MassBoardScene, Session]:
    """The example battle on its board, in a window of `size`."""
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    # events an earlier test's window left in pygame's queue (a resize rebuilds the board, and a
    # click on the button it replaced then did nothing: a failure that came and went by test order)
    pygame.event.clear()
    session = open_game(TABLE, BATTLE)
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    app.push(scene)
    app.step([])
    return app, scene, session


def play_first_choices(app: App, session: Session, commands: int) -> None:
    """Play the first choice listed (a hand-off: passed on) until `commands` were played."""
    for _ in range(10 * commands):
        if len(session.history) >= commands:
            return
        if isinstance(app.scenes.top, HandoffScene):
            app.step(key_events(pygame.K_SPACE))
        else:
            app.step(key_events(pygame.K_RETURN))
