"""A tactical battle's sealed initiative choice (an option chosen while another side has still to
choose) stays hidden in every replay a player can open until the rolls reveal it: the load menu's
replay and F3 (the replay view), and `python -m game replay SAVE`. The GM sees it (GM mode's F3,
`--gm` behind the save's GM passphrase)."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game.__main__ import main
from game.core import gm_lock
from game.io import saves
from game.replay import Record, initial_state_of, save_game
from game.shell import launch
from game.shell.savegame import with_gm
from game.shell.toolkit.richtext import plain
from game.systems.tactical.client import plugin
from game.systems.tactical.client.gm import GmScene
from game.systems.tactical.client.replay import ReplayScene
from game.systems.tactical.io.scenario import load_scenario
from game.systems.tactical.rules.commands import parse_command
from game.systems.tactical.rules.system import SYSTEM
from game.table import TABLE
from tests.client.clientfix import battle, key, make_app, make_session, settle, top_name

ROOT = Path(__file__).resolve().parents[2]
RIDGE = ROOT / "maps" / "hollow-ridge.yaml"
JIBRIL = {"kind": "choose_initiative", "side": "jibril", "option": "leadership"}
RESISTANCE = {"kind": "choose_initiative", "side": "resistance", "option": "tactics"}
SEALED = "Jibril Ridge Garrison makes its sealed initiative choice"


def _save(path: Path, *commands: dict[str, str]) -> Path:
    sc = load_scenario(RIDGE)
    rec = Record(SYSTEM, initial_state_of(TABLE, sc))
    for c in commands:
        assert rec.apply(parse_command(c)).accepted
    return save_game(path, SYSTEM, rec.state, rec.steps, scenario_path=sc.path, seed=sc.seed)


def _replay_of(path: Path) -> ReplayScene:
    """The replay of a save as the load menu opens it (Ctrl+O, R)."""
    app = make_app(make_session([("r1", "rifle_section", "blue", (1, 1))], phase="movement"), blackout=False)
    assert launch.open_replay_file(app, path) is None
    settle(app)
    assert top_name(app) == "replay"
    view = app.scenes.top
    assert isinstance(view, ReplayScene)
    return view


def _shown(view: ReplayScene) -> str:
    return plain(view.step_box.html_text) + " " + view.title_label.text + " " + \
        plain(view.view.log_text())


def test_the_rules_seal_an_initiative_option_until_the_last_side_has_chosen() -> None:
    sc = load_scenario(RIDGE)
    rec = Record(SYSTEM, initial_state_of(TABLE, sc))
    first, last = parse_command(JIBRIL), parse_command(RESISTANCE)
    assert SYSTEM.sealed(rec.state, first)  # Resistance has still to choose
    assert rec.apply(first).accepted
    assert not SYSTEM.sealed(rec.state, last)  # the last choice: rolled (revealed) at once
    assert rec.apply(last).accepted
    assert not SYSTEM.sealed(rec.state, first)  # the rolls revealed it


def test_the_load_menus_replay_of_a_save_made_between_the_choices_hides_the_first_sides_option(
        tmp_path: Path) -> None:
    view = _replay_of(_save(tmp_path / "quick.yaml", JIBRIL))
    key(view.app, pygame.K_RIGHT)
    assert view.index == 1
    shown = _shown(view)
    assert SEALED in shown
    assert "leadership" not in shown.lower()


def test_once_the_rolls_revealed_them_the_replay_shows_each_choice_at_its_own_step(tmp_path: Path) -> None:
    view = _replay_of(_save(tmp_path / "rolled.yaml", JIBRIL, RESISTANCE))
    key(view.app, pygame.K_RIGHT)
    shown = _shown(view)
    assert "Jibril Ridge Garrison picks leadership for the initiative" in shown and "sealed" not in shown


def test_the_replay_opened_from_gm_mode_shows_the_sealed_choice(tmp_path: Path) -> None:
    path = _save(tmp_path / "quick.yaml", JIBRIL)
    session = launch.session_from_save(TABLE, path)
    assert session is not None
    app = make_app(session, blackout=False)
    app.scenes.push(GmScene(app, battle(app)))  # (as F2 opens it once the GM has shown they are)
    settle(app)
    key(app, pygame.K_F3)
    view = app.scenes.top
    assert isinstance(view, ReplayScene) and view.gm
    view.goto(1)
    shown = _shown(view)
    assert "Jibril Ridge Garrison picks leadership for the initiative" in shown and "Replay (GM)" in shown
    key(app, pygame.K_ESCAPE)
    assert top_name(app) == "gm"


def test_f3_on_the_game_being_played_hides_the_choice_the_other_side_made(tmp_path: Path) -> None:
    path = _save(tmp_path / "quick.yaml", JIBRIL)
    session = launch.session_from_save(TABLE, path)
    assert session is not None
    app = make_app(session, blackout=False)
    plugin.open_replay(app, battle(app).session)  # what F3 calls (the shell refuses it in the dialog itself)
    view = app.scenes.top
    assert isinstance(view, ReplayScene) and not view.gm and view.index == 1
    assert SEALED in _shown(view) and "leadership" not in _shown(view).lower()


def _terminal(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["replay", *args])
    return code, capsys.readouterr().out


def test_the_terminal_replay_hides_a_sealed_initiative_choice_until_the_rolls_revealed_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _terminal(capsys, str(_save(tmp_path / "quick.yaml", JIBRIL)))
    assert code == 0
    assert f"[1] round 1: {SEALED}" in out and "leadership" not in out
    code, out = _terminal(capsys, str(_save(tmp_path / "rolled.yaml", JIBRIL, RESISTANCE)))
    assert code == 0 and "[1] round 1: Jibril Ridge Garrison picks leadership for the initiative" in out


def test_the_terminal_replays_gm_flag_shows_it_behind_the_gm_passphrase(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = _save(tmp_path / "quick.yaml", JIBRIL)
    code, out = _terminal(capsys, str(path), "--gm")
    assert code == 0 and "[1] round 1: Jibril Ridge Garrison picks leadership for the initiative" in out
    locked = with_gm(saves.load_save(path), gm_lock.GmKeeping(gm_lock.lock_of("crane wing", iterations=1_000)))
    saves.write_save(path, locked, backup=False)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "tiger claw")
    code, out = _terminal(capsys, str(path), "--gm")
    assert code == 1 and out == ""
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "crane wing")
    code, out = _terminal(capsys, str(path), "--gm")
    assert code == 0 and "Jibril Ridge Garrison picks leadership for the initiative" in out
