"""The mass-battle board, headless (SDL dummy drivers), driven by real pygame events: a whole
prepared battle (the teaching battle) played to its end through the board."""

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


def _key(k: int) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0),
            pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0)]


def _app() -> tuple[App, MassBoardScene, Session]:
    app = App(TABLE, size=(1280, 800), headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    app.push(scene)
    app.step([])
    return app, scene, session


def test_a_whole_prepared_battle_is_played_to_its_end_on_the_board() -> None:
    app, scene, session = _app()
    handoffs = 0
    for _ in range(3000):
        if session.state.stage == "ended":
            break
        if isinstance(app.scenes.top, HandoffScene):
            handoffs += 1
            app.step(_key(pygame.K_SPACE))
            continue
        app.step(_key(pygame.K_RETURN))
        app.render()
    assert session.state.stage == "ended"
    assert handoffs > 0  # the two commanders passed the screen
    assert session.state.ledger
    log = "\n".join(line for line, _ in scene.log)
    assert "luck:" in log and "Heaven" in log and "[" in log  # rolls with kept dice and luck
    assert scene.casualties  # the casualty table of the last Wave


def test_the_odds_of_the_chosen_command_are_shown_before_it_is_applied() -> None:
    app, scene, session = _app()
    for _force in ("hida", "akira"):
        while isinstance(app.scenes.top, HandoffScene):
            app.step(_key(pygame.K_SPACE))
        app.step(_key(pygame.K_RETURN))
    while isinstance(app.scenes.top, HandoffScene):
        app.step(_key(pygame.K_SPACE))
    assert session.state.stage == "heaven"
    assert scene.odds_lines[0] == "Heaven" and any("wins" in x and "%" in x for x in scene.odds_lines)


def test_choosing_with_the_keys_and_applying_with_the_button() -> None:
    app, scene, session = _app()
    app.step(_key(pygame.K_DOWN))
    assert scene.selected == 1
    chosen = scene.legal[1]
    r = scene.apply_button.rect
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=r.center, rel=(0, 0), buttons=(0, 0, 0))])
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=r.center),
              pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=r.center)])
    app.step()  # the toolkit posts its button event on pygame's queue; this step delivers it
    assert session.record.commands == [chosen]


def test_the_board_draws_forces_bars_and_the_phase_track() -> None:
    app, scene, session = _app()
    surf = app.render()
    # the force colours of the two columns and the total bars are on screen
    colours = {surf.get_at((x, y))[:3] for x in range(0, 1280, 4) for y in range(34, 400, 4)}
    assert (196, 70, 60) in colours and (70, 120, 200) in colours


def test_a_sealed_appointment_is_neither_offered_to_nor_shown_to_the_other_force() -> None:
    app, scene, session = _app()
    assert session.state.stage == "appoint" and len(session.system.to_move(session.state)) == 2
    first = scene.shown_side
    # only the force the screen was handed to is offered its choices
    assert scene.legal and all(c.force == first for c in scene.legal)
    choice = scene.labels[scene.selected]
    app.step(_key(pygame.K_RETURN))  # the first force seals its appointment
    assert isinstance(app.scenes.top, HandoffScene)
    app.step(_key(pygame.K_SPACE))
    other = scene.shown_side
    assert other != first and all(c.force == other for c in scene.legal)
    log = "\n".join(line for line, _ in scene.log)
    assert choice not in log and "makes its sealed choice" in log  # nothing of what was chosen
    app.step(_key(pygame.K_RETURN))  # the second force seals its own: both are announced
    log = "\n".join(line for line, _ in scene.log)
    assert "reads Heaven" in log and session.state.stage != "appoint"
