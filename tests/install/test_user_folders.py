"""Where the game's data and the player's saves live: checkout, installed, overridden."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from game import paths
from game.__main__ import main, program_name
from game.table import TABLE
from tests.conftest import CHECKOUT_SAVES, saves_snapshot

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_points_the_saves_folder_at_a_temporary_folder_not_the_checkout():
    assert os.environ.get(paths.SAVES_ENV)
    assert paths.saves_dir() != CHECKOUT_SAVES
    assert not paths.saves_dir().resolve().is_relative_to(ROOT)


def test_an_autosave_and_a_crash_report_land_in_the_overridden_folder_and_leave_the_checkout_alone(
        tmp_path, monkeypatch):
    from game.io import saves
    from game.shell import savegame

    before = saves_snapshot()
    monkeypatch.setenv(paths.SAVES_ENV, str(tmp_path / "mine"))
    from game.replay import load_game

    game = load_game(TABLE, ROOT / "tests" / "fixtures" / "saves" / "v2-demo-overwatch.yaml", verify=False)
    written = saves.autosave(savegame.saves_dir() / savegame.AUTOSAVE_DIR, game.save)
    report = saves.write_crash_report(savegame.saves_dir(), RuntimeError("test"))
    assert written.is_relative_to(tmp_path / "mine") and report.is_relative_to(tmp_path / "mine")
    assert saves_snapshot() == before


def test_in_a_checkout_the_data_comes_from_the_checkout_and_saves_go_to_its_saves_folder(monkeypatch):
    monkeypatch.delenv(paths.SAVES_ENV)
    assert paths.is_checkout()
    assert paths.data_root() == ROOT
    assert paths.default_rules() == ROOT / "assets" / "rules" / "ail-tactical.yaml"
    assert paths.saves_dir() == CHECKOUT_SAVES


def test_installed_saves_go_to_the_platforms_user_data_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(paths.SAVES_ENV)
    monkeypatch.setattr(paths, "is_checkout", lambda: False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert paths.saves_dir() == tmp_path / "xdg" / "ail-tactics" / "saves"
    assert paths.saves_dir() == paths.user_data_dir() / "saves"


def test_the_saves_dir_option_sets_the_override(monkeypatch, tmp_path, capsys):
    monkeypatch.setenv(paths.SAVES_ENV, "")
    assert main(["--saves-dir", str(tmp_path / "elsewhere"), "validate", str(ROOT / "maps" / "default.yaml")]) == 0
    assert paths.saves_dir() == tmp_path / "elsewhere"


def test_version_and_the_program_name_follow_how_the_game_was_started():
    assert program_name("/usr/bin/ail-tactics") == "ail-tactics"
    assert program_name(str(ROOT / "game" / "__main__.py")) == "python -m game"
    out = subprocess.run([sys.executable, "-m", "game", "--version"], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True).stdout
    assert out.startswith("python -m game ") and out.split()[-1][0].isdigit()
    usage = subprocess.run([sys.executable, "-m", "game", "--help"], cwd=ROOT, capture_output=True, text=True,
                           timeout=60, check=True).stdout
    assert usage.startswith("usage: python -m game")


@pytest.mark.parametrize("argv0", ["ail-tactics", "/home/me/.venv/bin/ail-tactics"])
def test_the_installed_command_calls_itself_ail_tactics(argv0):
    assert program_name(argv0) == "ail-tactics"
