"""The replay view, driven by real key presses and button clicks: one command forward and back,
jump by round, the dice log following along, opened from the battle (F3) or the load menu."""

from __future__ import annotations

from pathlib import Path

import pygame

from game.replay import Record, initial_state_of, save_game
from game.shell import launch
from game.shell.app import App
from game.shell.toolkit.richtext import Span, plain
from game.systems.tactical.client.replay import ReplayScene
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.client.clientfix import battle, key, press_button, top_name
from tests.client.test_load_menu import ROOT, ctrl, open_app, saves_dir  # noqa: F401 - fixture

OVERWATCH = ROOT / "maps" / "demo-overwatch.yaml"


def played_overwatch(path: Path) -> Path:
    """The overwatch demo's script, then round 2's initiative."""
    import yaml

    sc = load_scenario(OVERWATCH)
    rec = Record(SYSTEM, initial_state_of(TABLE, sc))
    for entry in yaml.safe_load(OVERWATCH.with_name("demo-overwatch-commands.yaml").read_text(encoding="utf-8")):
        assert rec.apply(parse_command(entry)).accepted
    # end round 1, then round 2's initiative, so the battle opens on a Movement phase (no dialog up)
    assert rec.apply(parse_command({"kind": "end_phase", "side": "jibril"})).accepted
    for side in ("garrison", "jibril"):
        assert rec.apply(parse_command({"kind": "choose_initiative", "side": side, "option": "tactics"})).accepted
    winner = rec.state.pending.sides[0]
    assert rec.apply(parse_command({"kind": "choose_turn_place", "side": winner, "position": 0})).accepted
    return save_game(path, SYSTEM, rec.state, rec.steps, scenario_path=sc.path, seed=sc.seed)


def replay_scene(app: App):  # type: ignore[no-untyped-def]
    assert top_name(app) == "replay", top_name(app)
    return app.scenes.top


def test_f3_opens_the_replay_of_the_battle_at_its_last_command(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    n = len(battle(app).session.history)
    key(app, pygame.K_F3)
    view = replay_scene(app)
    assert view.index == n and view.display.state == battle(app).session.state
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "battle"


def test_stepping_back_and_forward_one_command_at_a_time(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    steps = list(battle(app).session.history)
    live = battle(app).state
    key(app, pygame.K_F3)
    view = replay_scene(app)
    key(app, pygame.K_HOME)
    assert view.index == 0 and view.display.state == steps[0].before and view.display.history == []
    key(app, pygame.K_RIGHT)
    assert view.index == 1 and view.display.state == steps[1].before
    press_button(app, "Next >")
    press_button(app, "Next >")
    assert view.index == 3 and view.display.history == steps[:3]
    key(app, pygame.K_LEFT)
    assert view.index == 2 and view.display.state == steps[2].before
    # the live battle is untouched by the replay
    assert battle(app).state == live and battle(app).session.history == steps


def test_dice_log_shows_the_rolls_up_to_the_current_command(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    key(app, pygame.K_F3)
    view = replay_scene(app)
    steps = view.steps
    dash = next(i for i, s in enumerate(steps) if s.command.kind == "dash")
    view.goto(dash)
    before_log = plain(view.view.log_text())
    assert "fires overwatch" not in before_log
    key(app, pygame.K_RIGHT)  # the dash: the overwatch shot and its dice appear
    log = plain(view.view.log_text())
    assert "fires overwatch" in log and "d10=10" in log
    step = plain(view.step_box.html_text)
    assert "dash" in step and "dice: 10, 10, 1, 1, 1" in step
    assert view.step_box.html_text[0][0] == Span(f"{view.index}.", bold=True)  # the command's number, bold


def test_jump_to_a_round_and_between_rounds(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    key(app, pygame.K_F3)
    view = replay_scene(app)
    key(app, pygame.K_HOME)
    key(app, pygame.K_PAGEDOWN)
    assert view.display.state.round == 2 and view.display.state.phase == "initiative"
    assert view.index == view.round_starts()[2]
    key(app, pygame.K_1)
    assert view.index == 0 and view.display.state.round == 1
    key(app, pygame.K_2)
    assert view.display.state.round == 2
    key(app, pygame.K_PAGEUP)
    assert view.display.state.round == 1


def test_load_menu_opens_a_save_in_the_replay_view(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    saves_dir.mkdir(parents=True)
    played_overwatch(saves_dir / "ow.yaml")
    app = open_app(played_overwatch(tmp_path / "current.yaml"))
    ctrl(app, pygame.K_o)
    press_button(app, "Replay")
    view = replay_scene(app)
    assert view.index == 0 and len(view.steps) == 17
    key(app, pygame.K_END)
    assert view.display.state.round == 2


def test_replay_command_opens_the_view_in_a_window(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    path = played_overwatch(tmp_path / "ow.yaml")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "game", "replay", str(path), "--verify", "--view", "--frames", "3"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "OK: 17 commands" in done.stdout


def test_replay_from_the_end_of_battle_summary_returns_to_it(tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    from tests.client.clientfix import make_app, settle

    sc = load_scenario(OVERWATCH)
    rec = Record(SYSTEM, initial_state_of(TABLE, sc))
    for uid in ("watch", "guard"):  # the GM removes the garrison: Jibril wins at once
        assert rec.apply(parse_command({"kind": "gm_remove_unit", "unit_id": uid})).accepted
    assert rec.state.phase == "ended"
    path = save_game(tmp_path / "won.yaml", SYSTEM, rec.state, rec.steps, scenario_path=sc.path, seed=sc.seed)
    session = launch.session_from_save(TABLE, path)
    assert session is not None
    app = make_app(session, blackout=False)
    settle(app)
    assert top_name(app) == "end"
    press_button(app, "Replay")
    view = replay_scene(app)
    key(app, pygame.K_HOME)
    assert view.display.state.phase == "initiative"
    key(app, pygame.K_ESCAPE)
    settle(app)
    assert top_name(app) == "end"


def test_the_replay_views_dice_log_shows_the_computers_why_lines_but_never_a_sealed_ones(
        tmp_path: Path, saves_dir: Path) -> None:  # noqa: F811
    app = open_app(played_overwatch(tmp_path / "ow.yaml"))
    session = battle(app).session
    steps = list(session.history)
    session.seats.set("jibril", "easy")
    session.seats.note_why(steps[2], "the odds it weighed")
    session.seats.note_why(steps[3], "a sealed choice's reason", sealed=True)
    view = ReplayScene(app, session, steps)  # as F3 opens it, while the game still holds one back
    view.goto(4)
    log = plain(view.view.log_text())
    assert "the odds it weighed" in log and "a sealed choice's reason" not in log
    view.goto(0)
    assert view.display.seats is not session.seats and view.display.seats.held == []
    assert session.seats.why_of(steps[2]) == "the odds it weighed" and len(session.seats.held) == 1
