"""One game of each rule system in a headless window, for the shell's tests: the three shipped
systems and the race that lives in the tests (tests/race/), all through the same table and the
same shell code. Messages the shell gives a screen are caught as (text, problem)."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.core.plugin import Table  # noqa: E402
from game.shell import launch  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.contracts import GameScene, live_game  # noqa: E402
from game.shell.scenes.dialog import DialogScene  # noqa: E402
from game.shell.session import Session  # noqa: E402
from game.table import TABLE as SHIPPED  # noqa: E402
from tests.race import plugin as race  # noqa: E402

TABLE: Table = SHIPPED.with_plugin(race.PLUGIN)
ROOT = paths.data_root()
RACE = "system: race\nname: The Long Straight\nlength: 30\nsides: [hare, tortoise]\nseed: 11\n"

# a scenario of each system, and the word its clock uses
SCENARIOS = {"tactical": "maps/demo-movement.yaml", "campaign": "maps/campaign/teaching.yaml",
             "mass": "maps/mass/borderland-valley.yaml", "race": "race.yaml"}
CLOCKS = {"tactical": "round", "campaign": "week", "mass": "wave", "race": "lap"}
SYSTEMS = tuple(SCENARIOS)


def scenario(system: str, tmp_path: Path) -> Path:
    if system == "race":
        path = tmp_path / "race.yaml"
        if not path.exists():
            path.write_text(RACE, encoding="utf-8")
        return path
    return ROOT / SCENARIOS[system]


@dataclass
class Game:
    """A window with one game on it, and what the shell said to the game's screen."""
    app: App
    scene: GameScene
    said: list[tuple[str, bool]] = field(default_factory=list)

    @property
    def session(self) -> Session:
        return self.scene.session

    def last(self) -> tuple[str, bool]:
        assert self.said, "the shell said nothing"
        return self.said[-1]

    def top(self) -> str:
        top = self.app.scenes.top
        return top.name if top is not None else ""


def listen(game: Game, scene: Any) -> None:
    """Catch the shell's messages to a screen (its own toast and notify still run)."""
    toast, notify = scene.toast, scene.notify

    def on_toast(text: str, seconds: float = 3.0) -> None:
        game.said.append((text, True))
        toast(text, seconds)

    def on_notify(text: str, seconds: float, problem: bool) -> bool:
        game.said.append((text, problem))
        if notify(text, seconds, problem):
            return True
        toast(text, seconds)
        return True

    scene.toast = on_toast
    scene.notify = on_notify


def open_game(system: str, tmp_path: Path, path: Path | None = None) -> Game:
    session = launch.open_game(TABLE, path or scenario(system, tmp_path))
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant", blackout=False))
    scene = launch.scene_for(app, session)
    app.push(scene)
    game = Game(app, live_game(app))  # type: ignore[arg-type]
    listen(game, game.scene)
    settle(game)
    return game


def step(app: App, *events: pygame.event.Event) -> None:
    app.step(list(events))
    app.step([])


def key(game: Game, k: int, mod: int = 0) -> None:
    step(game.app, pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
         pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))


def ctrl(game: Game, k: int) -> None:
    key(game, k, pygame.KMOD_LCTRL)


def settle(game: Game) -> None:
    """A few frames; a hand-off screen is passed (Enter) as the players would."""
    for _ in range(8):
        game.app.step([])
        top = game.app.scenes.top
        if game.top() == "handoff":
            key(game, pygame.K_RETURN)
        elif game.top() == "briefing" and isinstance(top, DialogScene):  # a fresh battle's briefing
            top.choose(next(c for c in top.choices if c.primary))


def to_map(game: Game) -> None:
    """Close what the screen asks over the map (a battle's initiative question), as a player
    who looks at the map first would."""
    while game.app.scenes.top is not game.scene:
        game.app.pop()


def play_to_undoable(game: Game, depth: int = 10) -> Any:
    """Play legal commands (the first each time) until one the rules let a player take back has
    just been played; returns it. Commands are applied through the session, as a screen does."""
    session, record = game.session, game.session.record
    for _ in range(depth):
        legal = list(session.system.legal_commands(session.state))
        for command in legal:
            ok, _, _ = session.apply(command)
            if ok and record.can_undo:
                to_map(game)  # questions about the state before it
                game.scene.after_change()
                settle(game)
                return command
            if ok:
                record.undo(gm=True)
                record.redo_stack.clear()
        assert legal, "the game ended before a command a player may take back"
        assert session.apply(legal[0])[0]
    raise AssertionError("no command a player may take back within reach")


def play_some(game: Game) -> None:
    """Some play (unsaved): one command a player may take back."""
    play_to_undoable(game)
