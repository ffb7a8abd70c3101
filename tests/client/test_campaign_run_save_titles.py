"""A save written by `python -m game run SCENARIO --commands FILE --out SAVE.yaml` is listed in the
window's load menu by the same title a save from the window gets (the scenario's name), for the
campaign, a mass battle and a tactical battle: a campaign's (and a mass battle's) had an empty
title, as its system's summary gives none (make_save's fallback)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from game import paths  # noqa: E402
from game.__main__ import main  # noqa: E402
from game.io import saves  # noqa: E402
from game.shell import savegame  # noqa: E402
from game.shell.launch import open_game  # noqa: E402
from game.shell.scenes.load_menu import row_text  # noqa: E402
from game.table import TABLE  # noqa: E402

GAMES = [
    ("maps/campaign/teaching.yaml", "maps/campaign/teaching-commands.yaml", "Week"),
    ("maps/mass/borderland-valley.yaml", "maps/mass/borderland-valley-commands.yaml", "Wave"),
    ("maps/demo-movement.yaml", "maps/demo-movement-commands.yaml", "Round"),
]


@pytest.mark.parametrize(("scenario", "commands", "clock"), GAMES)
def test_a_run_out_save_carries_the_title_a_save_from_the_window_would(
        scenario: str, commands: str, clock: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "saves"
    monkeypatch.setenv(paths.SAVES_ENV, str(folder))
    folder.mkdir()
    out = folder / "from-run.yaml"
    assert main(["run", scenario, "--commands", commands, "--out", str(out)]) in (0, 3)
    capsys.readouterr()
    header = saves.read_header(out)
    window = savegame.session_save(open_game(TABLE, scenario)).header.title  # Ctrl+S in the window
    assert header.title and header.title == window
    listed = {s.path.name: s for s in saves.list_saves(folder)}["from-run.yaml"]
    line = row_text(listed, folder, clock.lower())
    assert f"from-run.yaml  —  {window} · {clock.lower()} {header.round}, " in line


def test_the_teaching_campaigns_run_out_save_is_titled_by_the_scenarios_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "teaching.yaml"
    assert main(["run", GAMES[0][0], "--commands", GAMES[0][1], "--out", str(out)]) == 0
    capsys.readouterr()
    header = saves.read_header(out)
    assert header.title == "Campaign teaching scenario" and header.round >= 2
