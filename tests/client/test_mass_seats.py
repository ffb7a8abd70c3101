"""Computer forces on the mass-battle board (issue 32, the client part): the example battle
against the computer and computer against computer to its end, each computer command played
through the session with its log lines and a why line (a sealed appointment's once every force
has chosen), the list offering only the person's choices, no hand-off with one person, the
players dialog the GM's once the battle has begun, the hint, saves and `play --seat`."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402

from game import paths  # noqa: E402
from game.cli.play import seat_computers  # noqa: E402
from game.shell.app import App, Settings  # noqa: E402
from game.shell.launch import open_game  # noqa: E402
from game.shell.savegame import load_session, save_session  # noqa: E402
from game.shell.seats import Seats  # noqa: E402
from game.systems.mass.client import MassBoardScene, open_scene  # noqa: E402
from game.table import TABLE  # noqa: E402

BATTLE = Path(__file__).resolve().parents[2] / "maps" / "mass" / "borderland-valley.yaml"


@pytest.fixture(autouse=True)
def _saves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "saves"))


def _app(levels: dict[str, str], size: tuple[int, int] = (1280, 800)) -> tuple[App, MassBoardScene]:
    app = App(TABLE, size=size, headless=True, settings=Settings(animation="instant"))
    session = open_game(TABLE, BATTLE)
    session.seats = Seats(dict(levels))
    scene = open_scene(app, session)
    assert isinstance(scene, MassBoardScene)
    scene.pace = 0.0  # (no pause for people watching between computer commands)
    app.push(scene)
    return app, scene


def _key(app: App, k: int) -> None:
    app.step([pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)])


def test_the_example_battle_against_the_computer_plays_to_its_end_with_why_lines_and_no_handoff() -> None:
    app, scene = _app({"akira": "easy"})
    session = scene.session
    person = computer = 0
    deadline = time.monotonic() + 120
    while not scene.over:
        assert time.monotonic() < deadline, "the battle did not end in time"
        assert app.scenes.top is scene, f"{app.scenes.top.name} came up with one person at the board"
        # the list offers only the person's choices
        assert all(getattr(c, "force", "hida") == "hida" for c in scene.legal)
        if scene.legal:
            quiet = [i for i, c in enumerate(scene.legal)
                     if c.kind not in ("surrender", "cede") and getattr(c, "action", "") != "flee"]
            scene.choose(quiet[0])
            _key(app, pygame.K_RETURN)
            person += 1
        else:
            before = len(session.history)
            app.step([])
            time.sleep(0.002)
            if len(session.history) > before:
                computer += 1
                assert scene.last_said.startswith("Computer (easy), Akira's army:")
    assert person > 3 and computer > 3
    assert session.seats.levels == {"akira": "easy"}  # never refused: still the computer's
    lines = [line for line, _ in scene.log]
    assert sum(line.startswith("Why (Akira's army, computer easy)") for line in lines) >= computer - 1
    assert any("makes its sealed choice" in line for line in lines)


def test_computer_against_computer_plays_the_example_battle_to_its_end_unattended() -> None:
    app, scene = _app({"hida": "hard", "akira": "easy"}, size=(960, 600))
    deadline = time.monotonic() + 120
    seen_sealed_why_early = False
    while not scene.over:
        assert time.monotonic() < deadline, "the computer battle did not end in time"
        assert app.scenes.top is scene
        app.step([])
        time.sleep(0.001)
        s = scene.session.state
        if s.stage == "appoint" and any("for Heaven (rolls" in line for line, _ in scene.log[-3:]):
            seen_sealed_why_early = True  # an appointment's why while another force still has to choose
    assert not seen_sealed_why_early
    lines = [line for line, _ in scene.log]
    assert any("for Heaven (rolls" in line for line in lines)  # said after the announcement
    assert scene.session.seats.levels == {"hida": "hard", "akira": "easy"}
    assert len(scene.session.history) > 10
    app.step([])
    assert not scene.wants_frames()  # the battle over, the window rests
    app.render()


def test_the_players_dialog_is_open_before_the_battle_and_the_gms_once_it_has_begun() -> None:
    app, scene = _app({})
    _key(app, pygame.K_p)
    dialog = app.scenes.top
    assert dialog.name == "seats"
    dialog.choose_label("Akira's army: Human")  # type: ignore[attr-defined]
    assert scene.session.seats.level("akira") == "easy"
    app.scenes.top.choose_label("Done")  # type: ignore[attr-defined]
    assert all(getattr(c, "force", "") != "akira" for c in scene.legal)
    # the battle begins: a person's first command
    while app.scenes.top is not scene:
        _key(app, pygame.K_SPACE)
    deadline = time.monotonic() + 30
    while not scene.session.history:
        assert time.monotonic() < deadline
        if scene.legal:
            _key(app, pygame.K_RETURN)
        else:
            app.step([])
            time.sleep(0.002)
    _key(app, pygame.K_p)
    locked = app.scenes.top
    assert "only the GM changes who plays a side" in locked.body_text  # type: ignore[attr-defined]
    locked.choose_label("Akira's army: easy")  # type: ignore[attr-defined]
    assert "Refused." in app.scenes.top.body_text  # type: ignore[attr-defined]
    assert scene.session.seats.level("akira") == "easy"
    app.scenes.top.choose_label("I am the GM (G)")  # type: ignore[attr-defined]
    app.scenes.top.choose_label("Akira's army: easy")  # type: ignore[attr-defined]
    assert scene.session.seats.level("akira") == "hard"


def test_the_hint_chooses_what_the_computer_would_for_the_person_and_plays_nothing() -> None:
    app, scene = _app({"akira": "easy"})
    while not scene.legal:
        app.step([])
        time.sleep(0.002)
    _key(app, pygame.K_h)
    deadline = time.monotonic() + 30
    while not scene.last_said.startswith("Hint"):
        assert time.monotonic() < deadline
        app.step([])
        time.sleep(0.002)
    assert "Why:" in scene.last_said
    assert all(s.command.force != "hida" for s in scene.session.history)  # (the computer's own may be played)


def test_seats_are_saved_and_restored_and_play_seat_names_forces(tmp_path: Path) -> None:
    app, scene = _app({})
    seat_computers(app, ["akira=ai:hard"])
    assert scene.session.seats.levels == {"akira": "hard"}
    app.step([])
    path = save_session(scene.session, tmp_path / "m.yaml")
    back = load_session(TABLE, path)
    assert back is not None and back.seats.levels == {"akira": "hard"}


def test_computer_commands_follow_one_another_at_the_windows_pace_so_people_can_follow() -> None:
    app, scene = _app({"hida": "easy", "akira": "easy"})
    scene.pace = 0.3
    times: list[float] = []
    deadline = time.monotonic() + 30
    while len(times) < 4:
        assert time.monotonic() < deadline
        before = len(scene.session.history)
        app.step([])
        time.sleep(0.005)
        if len(scene.session.history) > before:
            times.append(time.monotonic())
    assert all(b - a >= 0.29 for a, b in zip(times, times[1:], strict=False))


def test_the_apply_button_is_greyed_while_only_the_computer_decides() -> None:
    app, scene = _app({"hida": "hard", "akira": "easy"})
    app.step([])
    assert not scene.over and not scene.legal and scene.apply_button is not None
    assert not scene.apply_button.is_enabled  # nothing for a person to apply
    app2, people = _app({})
    app2.step([])
    while people.handoff_to is not None:  # the opening hand-off of a sealed choice
        _key(app2, pygame.K_SPACE)
        app2.step([])
    assert people.legal and people.apply_button is not None and people.apply_button.is_enabled
