"""Saving and loading in the running client, driven by real pygame events: quick save (F5) and
quick load (F9), the load menu (Ctrl+O), the autosave at each new round, a broken save that
leaves the running game untouched, `play SAVE` resuming with the right side to move, and the
crash guard's emergency save and report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
import yaml

from game.io import saves
from game.replay import Record, initial_state_of, save_game
from game.shell import launch, savegame
from game.shell.app import App
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.client.clientfix import battle, key, make_app, press_button, settle, top_name

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "maps" / "demo-movement.yaml"


@pytest.fixture
def saves_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "saves"
    monkeypatch.setenv("AIL_SAVES_DIR", str(folder))
    return folder


def demo_save(path: Path, commands: int = 4, scenario: Path = DEMO) -> Path:
    """A save of the demo scenario after its first `commands` scripted commands (4: initiative
    done, Zone to move, nothing moved yet)."""
    sc = load_scenario(scenario)
    script = yaml.safe_load(scenario.with_name(scenario.stem + "-commands.yaml").read_text(encoding="utf-8"))
    rec = Record(SYSTEM, initial_state_of(TABLE, sc))
    for entry in script[:commands]:
        rec.apply(parse_command(entry))
    return save_game(path, SYSTEM, rec.state, rec.steps, scenario_path=sc.path, seed=sc.seed)


def open_app(path: Path) -> App:
    session = launch.session_from_save(TABLE, path)
    assert session is not None
    app = make_app(session, blackout=False)
    settle(app)
    assert top_name(app) == "battle", top_name(app)
    return app


def ctrl(app: App, k: int) -> None:
    key(app, k, pygame.KMOD_LCTRL)


def test_play_save_resumes_exactly_with_the_right_side_to_move(tmp_path: Path, saves_dir: Path) -> None:
    path = demo_save(tmp_path / "mid.yaml", commands=6)
    header = saves.read_header(path)
    app = open_app(path)
    scene = battle(app)
    assert scene.session.state.to_dict() == saves.load_save(path).state
    assert scene.decision_side() == header.to_move == "zone"
    assert len(scene.session.history) == 6  # the dice log and undo history came back too


def test_quick_save_then_quick_load_brings_the_game_back(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    key(app, pygame.K_F5)
    quick = savegame.quick_save_path(battle(app).session)
    assert quick.exists() and saves.read_header(quick).commands == 4
    saved_state = battle(app).state
    # play on: the car moves along the road
    battle(app).submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2], [2, 2]]}))
    assert battle(app).state != saved_state
    key(app, pygame.K_F9)  # the move since the save would go: asked first
    assert top_name(app) == "quick_load_question"
    press_button(app, "Load")
    assert top_name(app) == "battle"
    assert battle(app).state == saved_state
    assert len(battle(app).session.history) == 4


def test_quick_load_over_moves_since_the_last_save_asks_first_and_keeps_them_in_the_recovery_save(
        tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    key(app, pygame.K_F5)
    scene = battle(app)
    scene.submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2], [2, 2]]}))
    moved = scene.state
    key(app, pygame.K_F9)
    assert top_name(app) == "quick_load_question"
    key(app, pygame.K_ESCAPE)  # Keep playing: nothing changes
    assert battle(app) is scene and scene.state == moved
    key(app, pygame.K_F9)
    press_button(app, "Load")
    assert battle(app) is not scene and len(battle(app).session.history) == 4
    (recovery,) = savegame.recovery_paths()  # a recovery save of its own, in recovery/
    assert recovery.parent == savegame.recovery_dir()
    assert saves.read_header(recovery).commands == 5  # the move that was on the screen is kept


def test_quick_load_of_a_game_played_with_other_seats_says_so_before_loading(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    key(app, pygame.K_F5)  # a quick save of this game, every side at the screen
    scene = battle(app)
    scene.session.seats.levels = {"zenith": "easy"}  # now this game is one against the computer
    key(app, pygame.K_F9)
    assert top_name(app) == "quick_load_question"
    text = str(app.scenes.top.body_html)
    assert "every side by people at the screen" in text and "by the computer (easy)" in text


def test_quick_save_twice_keeps_the_previous_as_backup(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    key(app, pygame.K_F5)
    battle(app).submit(parse_command({"kind": "move", "unit_id": "car", "path": [[1, 2]]}))
    key(app, pygame.K_F5)
    quick = savegame.quick_save_path(battle(app).session)
    assert saves.read_header(quick).commands == 5
    assert saves.read_header(saves.backup_path(quick)).commands == 4


def test_broken_quick_save_is_reported_and_the_game_carries_on(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    saves_dir.mkdir(parents=True, exist_ok=True)
    quick = savegame.quick_save_path(battle(app).session)
    quick.write_text(demo_save(tmp_path / "other.yaml").read_text(encoding="utf-8")[:900], encoding="utf-8")
    before_bytes = quick.read_bytes()
    scene = battle(app)
    before = scene.state
    key(app, pygame.K_F9)
    assert battle(app) is scene and scene.state == before
    assert scene.toast_text is not None and "Not loaded" in scene.toast_text and quick.name in scene.toast_text
    assert quick.read_bytes() == before_bytes


def test_load_menu_lists_saves_and_loads_the_chosen_one(tmp_path: Path, saves_dir: Path) -> None:
    saves_dir.mkdir(parents=True)
    demo_save(saves_dir / "early.yaml", commands=3)
    demo_save(saves_dir / "later.yaml", commands=8)
    (saves_dir / "junk.yaml").write_text("--- # header\nformat: [\n", encoding="utf-8")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_o)
    assert top_name(app) == "load_menu"
    menu = app.scenes.top
    names = [listing.path.name for listing in menu.listings]
    assert sorted(names) == ["early.yaml", "junk.yaml", "later.yaml"]
    target = names.index("later.yaml")
    while menu.index != target:
        key(app, pygame.K_DOWN if menu.index < target else pygame.K_UP)
    key(app, pygame.K_RETURN)
    assert top_name(app) == "battle"
    assert len(battle(app).session.history) == 7  # 8 scripted commands, one refused


def test_load_menu_shows_why_a_save_cannot_load_and_the_game_carries_on(tmp_path: Path, saves_dir: Path) -> None:
    saves_dir.mkdir(parents=True)
    good = demo_save(saves_dir / "edited.yaml", commands=6)
    good.write_text(good.read_text(encoding="utf-8").replace("strength: 6", "strength: 60", 1), encoding="utf-8")
    app = open_app(demo_save(tmp_path / "start.yaml"))
    scene = battle(app)
    before = scene.state
    ctrl(app, pygame.K_o)
    press_button(app, "Load")
    assert top_name(app) == "load_menu"
    menu = app.scenes.top
    assert menu.message is not None and "edited.yaml" in menu.message
    assert "state.units.runners.strength" in menu.message and "edited by hand" in menu.message
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle" and battle(app) is scene and scene.state == before


def test_autosave_is_written_when_a_new_round_starts(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml", commands=15))  # the whole script: round 1's end is next
    scene = battle(app)
    assert scene.state.round == 1
    scene.submit(parse_command({"kind": "end_phase", "side": "zenith"}))
    assert scene.state.round == 2
    assert savegame.AUTOSAVES.wait(10.0)  # written by a background thread
    autos = list((saves_dir / savegame.AUTOSAVE_DIR).glob("autosave-*.yaml"))
    assert len(autos) == 1 and saves.read_header(autos[0]).round == 2


def test_crash_in_the_loop_writes_an_emergency_save_and_a_report(tmp_path: Path, saves_dir: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: Any) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml", commands=7))

    def explode(self: Any, dt: float) -> None:
        raise RuntimeError("a bug in the animation code")

    monkeypatch.setattr(type(battle(app)), "update", explode)
    assert savegame.run_guarded(app) == 1
    reports = list(saves_dir.glob("crash-*.txt"))
    emergency = list(saves_dir.glob("emergency-*.yaml"))
    assert len(reports) == 1 and len(emergency) == 1
    text = reports[0].read_text(encoding="utf-8")
    assert "a bug in the animation code" in text and str(emergency[0]) in text
    assert saves.load_save(emergency[0]).header.commands == 6  # the 7 scripted include one refused
    assert "crash report" in capsys.readouterr().err


def test_f5_and_ctrl_o_work_while_a_dialog_is_open(tmp_path: Path, saves_dir: Path) -> None:
    session = launch.session_from_save(TABLE, demo_save(tmp_path / "init.yaml", commands=1))
    assert session is not None
    app = make_app(session, blackout=False)
    settle(app)
    assert top_name(app) == "initiative"  # the initiative choice is waiting
    key(app, pygame.K_F5)
    assert saves.read_header(savegame.quick_save_path(session)).commands == 1
    ctrl(app, pygame.K_o)
    assert top_name(app) == "load_menu"
    ctrl(app, pygame.K_o)  # not a second menu on top of the first
    assert [getattr(s, "name", "") for s in app.scenes].count("load_menu") == 1


def test_opening_a_save_like_play_save_shows_the_hand_off_to_the_side_to_move(tmp_path: Path,
                                                                               saves_dir: Path) -> None:
    path = demo_save(tmp_path / "zenith.yaml", commands=14)  # Zenith is moving when the save was made
    header = saves.read_header(path)
    assert header.to_move == "zenith"
    app = App.for_scenario(TABLE, path, headless=True)  # what `python -m game play SAVE` does
    settle(app)
    assert top_name(app) == "handoff"
    assert app.scenes.top.side_name == "Zenith Militia"
    key(app, pygame.K_SPACE)
    assert top_name(app) == "battle" and battle(app).viewer == "zenith"
    assert battle(app).session.state.to_dict() == saves.load_save(path).state


def test_ctrl_s_saves_to_a_new_file_each_time(tmp_path: Path, saves_dir: Path) -> None:
    app = open_app(demo_save(tmp_path / "start.yaml"))
    ctrl(app, pygame.K_s)
    ctrl(app, pygame.K_s)
    made = sorted(p.name for p in saves_dir.glob("demo-movement-r01-*.yaml"))
    assert len(made) == 2
    assert all(saves.read_header(saves_dir / name).commands == 4 for name in made)
