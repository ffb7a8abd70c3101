"""`python -m game play`: opens the window on a scenario; bad paths give one clear line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from game.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_play_opens_the_default_scenario_and_draws_frames() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-m", "game", "play", "--frames", "2", "--instant"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "Traceback" not in out.stderr


def test_play_with_a_missing_file_says_so_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "no/such/scenario.yaml"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "no/such/scenario.yaml" in err[0]


def test_play_with_a_bad_size_says_what_is_expected(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["play", "--size", "big"]) == 1
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
