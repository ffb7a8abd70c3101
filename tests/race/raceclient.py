"""The race's client: a scene that draws the track as text and plays on the space bar (run) or R
(stretch), handing the screen over whenever the runner to move changes. Only shell parts are used:
undo and redo (Ctrl+Z / Ctrl+Y), the F1 help, Esc / Ctrl+Q / the window's close (asking first),
saves, the load menu and the window title all come from the shell, with nothing written here."""

from __future__ import annotations

from typing import Any

import pygame

from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.handoff import HandoffScene


class RaceScene(Scene):
    name = "race"
    game_scene = True
    KEYS = (Binding((pygame.K_SPACE,), "Space", "run: roll a die and run that far"),
            Binding((pygame.K_r,), "R", "stretch first (no dice: a player may take it back)"))

    def __init__(self, app: Any, session: Any) -> None:
        super().__init__(app)
        self.session = session
        self.viewer: str | None = None
        self.messages: list[str] = []

    def toast(self, text: str, seconds: float = 3.0) -> None:
        self.messages.append(text)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type != pygame.KEYDOWN:
            return
        to_move = self.session.system.to_move(self.session.state)
        if not to_move:
            return
        if event.key == pygame.K_SPACE:
            self.session.apply(self.session.system.parse_command({"kind": "run", "side": to_move[0]}))
        elif event.key == pygame.K_r:
            self.session.apply(self.session.system.parse_command({"kind": "stretch", "side": to_move[0]}))

    def update(self, dt: float) -> None:
        to_move = self.session.system.to_move(self.session.state)
        side = to_move[0] if to_move else None
        if side is not None and side != self.viewer and self.app.scenes.top is self:
            self.viewer = side
            self.app.push(HandoffScene(self.app, side.title(), (200, 200, 60)))

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((20, 20, 20))


def open_scene(app: Any, session: Any) -> RaceScene:
    return RaceScene(app, session)
