"""Helpers for headless client tests: a small battle in a headless App, and real pygame events
posted at hex centres (computed through the HexLayout and the camera)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game.core.board import Board  # noqa: E402
from game.core.hexgrid import Hex  # noqa: E402
from game.core.hexlayout import HexLayout  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.session import Session  # noqa: E402
from game.systems.tactical.client.battle import BattleScene  # noqa: E402
from game.systems.tactical.client.plugin import tactical_session  # noqa: E402
from game.systems.tactical.rules.models import (  # noqa: E402
    BattleSetup,
    Catalogue,
    Commander,
    Objective,
    SideSetup,
    Stats,
    UnitSetup,
)
from game.systems.tactical.rules.state import TurnSlot  # noqa: E402
from game.table import TABLE  # noqa: E402
from tests.rules.ailfix import CATALOGUE, RULES  # noqa: E402  (one copy of the shipped data)

BLUE = (70, 120, 220)
RED = (200, 60, 50)


def commander(unit: str | None = None) -> Commander:
    return Commander(name="Cmdr", stats=Stats(physique=3, senses=3, intellect=3, aether=2),
                     skills={"tactics": 2, "leadership": 2, "deception": 2, "athletics": 1}, unit=unit)


def make_session(units: Iterable[tuple[str, str, str, tuple[int, int]]], *, width: int = 12, height: int = 9,
                 overrides: dict[tuple[int, int], str] | None = None, roads: set[tuple[int, int]] | None = None,
                 objectives: Iterable[Objective] = (), seed: int = 7, round_limit: int = 8,
                 rule_changes: dict[str, Any] | None = None, phase: str = "initiative",
                 forced: Iterable[int] = (), extra_types: dict[str, Any] | None = None) -> Session:
    """A small battle. phase "movement"/"attack" jumps straight into Blue's turn (Blue first)."""
    board = Board.filled(width, height, overrides=overrides, roads=roads)
    rules = RULES.model_copy(update=rule_changes or {})
    ups = tuple(UnitSetup(id=uid, type=t, side=side, at=board.hex_at(c, r)) for uid, t, side, (c, r) in units)
    catalogue = CATALOGUE
    if extra_types:
        catalogue = Catalogue(units={**CATALOGUE.units, **extra_types})
    setup = BattleSetup(
        name="test", rules=rules, catalogue=catalogue,
        sides=(SideSetup(id="blue", name="Blue", colour=BLUE, commander=commander()),
               SideSetup(id="red", name="Red", colour=RED, commander=commander())),
        units=ups, objectives=tuple(objectives), round_limit=round_limit)
    layout = HexLayout(64, 74, 37, board.stagger, width, height)
    session = tactical_session(setup, board, layout, seed)
    if phase != "initiative":
        order = (TurnSlot(side="blue"), TurnSlot(side="red"))
        session.state = session.state.model_copy(
            update={"phase": phase, "turn_order": order, "turn_index": 0, "pending": None})
    if forced:
        session.state = session.state.model_copy(update={"forced_rolls": tuple(forced)})
    return session


def make_app(session: Session, size: tuple[int, int] = (1280, 800), **settings: Any) -> App:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant", **settings))
    app.scenes.push(BattleScene(app, session))
    pygame.event.clear()
    app.step()
    return app


def battle(app: App) -> BattleScene:
    for scene in app.scenes:
        if isinstance(scene, BattleScene):
            return scene
    raise AssertionError("no battle scene")


def hex_pos(app: App, h: Hex) -> tuple[int, int]:
    scene = battle(app)
    scene.camera.ensure_visible(*scene.layout.hex_center(h))
    x, y = scene.camera.world_to_screen(*scene.layout.hex_center(h))
    return round(x), round(y)


def post(*events: pygame.event.Event) -> None:
    for e in events:
        pygame.event.post(e)


def settle(app: App, frames: int = 3) -> None:
    """Run a few frames so the UI toolkit's own events (button presses) are handled."""
    for _ in range(frames):
        app.step()


def move_mouse(app: App, pos: tuple[int, int]) -> None:
    post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    settle(app, 1)


def click_at(app: App, pos: tuple[int, int], button: int = 1) -> None:
    move_mouse(app, pos)
    post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
         pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    settle(app)


def click_hex(app: App, h: Hex, button: int = 1) -> None:
    click_at(app, hex_pos(app, h), button)


def hover_hex(app: App, h: Hex) -> None:
    move_mouse(app, hex_pos(app, h))


def key(app: App, k: int, mod: int = 0) -> None:
    post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
         pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0))
    settle(app)


def top_name(app: App) -> str:
    top = app.scenes.top
    return getattr(top, "name", "") if top is not None else ""


def press_button(app: App, label: str) -> None:
    """Click the on-screen button with this text in the top scene (a real mouse click)."""
    import pygame_gui

    top = app.scenes.top
    ui = getattr(top, "ui", None)
    assert ui is not None, "top scene has no UI"
    found = [el for el in ui.get_sprite_group().sprites() if isinstance(el, pygame_gui.elements.UIButton)
             and el.text == label and el.visible]
    assert found, f"no button {label!r}; have {[el.text for el in ui.get_sprite_group().sprites() if isinstance(el, pygame_gui.elements.UIButton)]}"
    click_at(app, found[0].rect.center)


def continue_handoff(app: App) -> None:
    assert top_name(app) == "handoff", f"expected the hand-off screen, top is {top_name(app)!r}"
    key(app, pygame.K_SPACE)


def themed_manager(size: tuple[int, int] = (800, 300)) -> Any:
    """A display of `size` and a toolkit manager with the game's theme (tests of single widgets)."""
    import pygame_gui

    from game import paths

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(size)
    return pygame_gui.UIManager(size, str(paths.theme_file()))
