"""Wresting command on the mass-battle board, headless (SDL dummy drivers), driven by real pygame
events: the Wrest command button opens the list of who may take command, the chosen one is asked
about first, and once confirmed the log says it and the force has its new commander; the button is
enabled exactly when the rules accept a wrest by someone of a force at the screen, and refused (with
the rules' reason) while a duel waits for its answer, for a computer's force and once the battle is
over."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.core.system import Accepted  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game  # noqa: E402
from game.shell.scenes.dialog import DialogScene  # noqa: E402
from game.shell.scenes.handoff import HandoffScene  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.shell.session import Session  # noqa: E402
from game.systems.mass.client import MassBoardScene, open_scene  # noqa: E402
from game.systems.mass.client.wrest import WrestScene  # noqa: E402
from game.systems.mass.rules import commands as c  # noqa: E402
from game.table import TABLE  # noqa: E402

BATTLE = Path(__file__).resolve().parents[2] / "maps" / "mass" / "borderland-valley.yaml"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _key(k: int, mod: int = 0) -> list[pygame.event.Event]:
    return [pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0),
            pygame.event.Event(pygame.KEYUP, key=k, mod=mod, unicode="", scancode=0)]


def _click(app: App, pos: tuple[int, int]) -> None:
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
              pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos)])
    app.step()  # the toolkit posts its button event on pygame's queue; this step delivers it


def _app(levels: dict[str, str] | None = None,
         size: tuple[int, int] = (1280, 800)) -> tuple[App, MassBoardScene, Session]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    session.seats = Seats(dict(levels or {}))
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    scene.pace = 0.0
    app.push(scene)
    app.step([])
    return app, scene, session


def _to_the_open_table(app: App, scene: MassBoardScene, session: Session) -> None:
    """Both sealed appointments made (each behind its hand-off): Heaven is next, in the open."""
    for _ in range(2):
        assert isinstance(app.scenes.top, HandoffScene)
        app.step(_key(pygame.K_SPACE))
        app.step(_key(pygame.K_RETURN))
    assert session.state.stage == "heaven" and app.scenes.top is scene and scene.viewer is None


def _log(scene: MassBoardScene) -> str:
    return "\n".join(line for line, _ in scene.log)


def _accepted_somewhere(scene: MassBoardScene) -> bool:
    """Whether the rules accept a wrest by anyone of the forces the board says are at the screen."""
    s = scene.session.state
    return any(isinstance(scene.system.apply(s, c.WrestCommand(force=fid, person=pid)), Accepted)
               for fid in scene.wrest_forces for pid in s.forces[fid].people)


@pytest.mark.parametrize("size", [(960, 600), (1280, 800)])
def test_wresting_command_through_the_board_asks_first_then_logs_it_and_the_force_has_its_new_commander(
        size: tuple[int, int]) -> None:
    app, scene, session = _app(size=size)
    _to_the_open_table(app, scene, session)
    before = len(session.history)
    button = scene.wrest_button
    assert button is not None and button.is_enabled and button.text == "Wrest command (W)"
    assert scene.apply_button.rect.right < button.rect.left  # beside Apply, not over it
    _click(app, button.rect.center)
    picker = app.scenes.top
    assert isinstance(picker, WrestScene)
    assert picker.forces == ["hida", "akira"]  # the open table: both people's forces
    rows = {w.command.person: w for w in picker.choices}
    assert not rows["hida-jo"].allowed and "already commands" in str(rows["hida-jo"].refusal)
    # Kuni Taro's row, clicked, then Take command: the question comes first, nothing is done yet
    row = next(r for r in picker.rows() if r.index is not None and picker.choices[r.index].command.person == "hida-teishin")
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=row.rect.center)])
    assert picker.chosen() == rows["hida-teishin"] and picker.take_button.is_enabled
    app.step(_key(pygame.K_RETURN))
    ask = app.scenes.top
    assert isinstance(ask, DialogScene) and ask.name == "confirm_wrest"
    assert ask.title == "Kuni Taro (teishin) wrests command of Hida Jo's army?"
    assert "Act of Vice" in ask.body_text and "Glory -1" in ask.body_text
    assert len(session.history) == before
    app.step(_key(pygame.K_n))  # keep the commander: nothing happens
    assert app.scenes.top is scene and len(session.history) == before
    assert session.state.forces["hida"].commander == "hida-jo"
    # again, with the keys: W, Enter on the first who may, Y
    app.step(_key(pygame.K_w))
    assert isinstance(app.scenes.top, WrestScene)
    app.step(_key(pygame.K_RETURN))
    app.step(_key(pygame.K_y))
    assert app.scenes.top is scene
    f = session.state.forces["hida"]
    assert f.commander == "hida-teishin" and f.leader == "hida-jo"
    assert session.history[-1].command == c.WrestCommand(force="hida", person="hida-teishin")
    log = _log(scene)
    assert "> Hida Jo's army: Kuni Taro (teishin) wrests command from Hida Jo (an Act of Vice)" in log
    assert "Kuni Taro (teishin) wrests command of Hida Jo's army from Hida Jo" in log  # the rules' event
    assert "Kuni Taro (teishin): Act of Vice (wrested command from Hida Jo), Glory -1" in log
    # the board shows the new commander: the list says so, and he may not wrest it again
    app.step(_key(pygame.K_w))
    picker = app.scenes.top
    assert isinstance(picker, WrestScene)
    assert picker._head("hida") == "Hida Jo's army (commanded by Kuni Taro (teishin))"
    rows = {w.command.person: w for w in picker.choices}
    assert not rows["hida-teishin"].allowed and rows["hida-jo"].allowed
    app.step(_key(pygame.K_ESCAPE))
    assert app.scenes.top is scene and session.state.stage == "heaven"  # the battle goes on where it was


def test_the_wrest_button_is_enabled_exactly_when_the_rules_accept_one_and_refused_while_a_duel_waits() -> None:
    app, scene, session = _app()
    checked = 0
    for _ in range(3000):
        if session.state.stage in ("duel_answer", "ended"):
            break
        if isinstance(app.scenes.top, HandoffScene):
            app.step(_key(pygame.K_SPACE))
            continue
        assert app.scenes.top is scene
        button = scene.wrest_button
        assert button is not None and button.is_enabled == _accepted_somewhere(scene) == (scene.wrest_why is None)
        checked += 1
        duel = [i for i, x in enumerate(scene.legal) if getattr(x, "action", "") == "duel" and not x.void]
        quiet = [i for i, x in enumerate(scene.legal)
                 if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        scene.choose(duel[0] if duel else quiet[0])
        app.step(_key(pygame.K_RETURN))
    assert session.state.stage == "duel_answer" and checked > 5
    # a duel waits for its answer: nobody may wrest command, the button says so and does nothing
    assert not _accepted_somewhere(scene) and scene.wrest_forces
    button = scene.wrest_button
    assert button is not None and not button.is_enabled
    reason = "command cannot change hands now: a duel waits for its answer"
    assert scene.wrest_why == reason
    before = len(session.history)
    _click(app, button.rect.center)  # a click on the disabled button says why
    assert app.scenes.top is scene and f"Wrest command: not now - {reason}" in _log(scene)
    app.step(_key(pygame.K_w))
    assert app.scenes.top is scene and len(session.history) == before
    assert scene.message == f"Wrest command: not now - {reason}"


def test_nobody_of_a_computers_force_is_offered_command_and_none_once_the_battle_is_over() -> None:
    app, scene, session = _app({"akira": "easy"})
    deadline = time.monotonic() + 120
    while session.state.stage == "appoint":  # Hida Jo's appointment, then the computer's
        assert time.monotonic() < deadline
        if scene.legal:
            app.step(_key(pygame.K_RETURN))
        else:
            app.step([])
            time.sleep(0.01)
    assert scene.viewer is None and scene.wrest_forces == ["hida"]  # the person's force only
    app.step(_key(pygame.K_w))
    picker = app.scenes.top
    assert isinstance(picker, WrestScene)
    assert {w.command.force for w in picker.choices} == {"hida"}
    app.step(_key(pygame.K_ESCAPE))
    # to the end: then there is no Wrest command button and W does nothing
    while not scene.over:
        assert time.monotonic() < deadline, "the battle did not end in time"
        quiet = [i for i, x in enumerate(scene.legal)
                 if x.kind not in ("surrender", "cede") and getattr(x, "action", "") != "flee"]
        if quiet:
            scene.choose(quiet[0])
            app.step(_key(pygame.K_RETURN))
        else:
            app.step([])
            time.sleep(0.01)
    assert scene.wrest_button is None and scene.wrest_forces == []
    app.step(_key(pygame.K_w))
    assert app.scenes.top is scene
    assert not any(x.command.kind == "wrest_command" for x in session.history)


def _crowded_battle(folder: Path, people: int) -> Path:
    """A battle of two forces of `people` individuals each (the list must scroll at 960x600)."""
    lines = ["system: mass-battle", "name: Crowded", "description: many individuals", "seed: 5",
             "terrain: accessible", "forces:"]
    for fid in ("red", "blue"):
        lines += [f"  - id: {fid}", f"    name: {fid.title()} host", f"    commander: {fid}-0", "    individuals:"]
        for k in range(people):
            lines += [f"      - id: {fid}-{k}", f"        name: {fid.title()} captain number {k}",
                      "        rings: {earth: 2, water: 2, fire: 2, air: 2, void: 2}",
                      "        skills: {battle: 2}", "        status: 2"]
        lines += ["    brutes:", "      - {armour: light, count: 100}"]
    path = folder / "crowded.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_long_list_of_who_may_take_command_scrolls_inside_its_box_at_960x600(tmp_path: Path) -> None:
    app = App(TABLE, size=(960, 600), headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, _crowded_battle(tmp_path, 30))
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    app.push(scene)
    app.step([])
    app.step(_key(pygame.K_SPACE))  # Red's sealed appointment is at the screen: Red's individuals only
    app.step(_key(pygame.K_w))
    picker = app.scenes.top
    assert isinstance(picker, WrestScene) and len(picker.choices) == 30
    box = picker._box()
    assert box.h <= 600 - 40
    shown = [r.index for r in picker.rows() if r.index is not None]
    assert 0 < len(shown) < 30  # not all fit: the rest are below
    for _ in range(29):
        app.step(_key(pygame.K_DOWN))
        rows = picker.rows()
        assert any(r.index == picker.selected for r in rows)  # the chosen row is always in sight
        assert all(box.contains(r.rect) for r in rows)
        assert all(r.rect.bottom <= picker.take_button.rect.top for r in rows)  # never under the buttons
    assert picker.selected == 29 and picker.chosen_allowed()
    app.step(_key(pygame.K_RETURN))
    app.step(_key(pygame.K_y))
    assert session.state.forces["red"].commander == "red-29"
