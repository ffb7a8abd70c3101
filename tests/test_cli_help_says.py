"""What --help says matches what the commands do (README.md, "The command line"): the program
names its three rule systems, and `run --help` gives the exit statuses a script sees (3 when a
command was refused: the README's movement demonstration refuses one dash on purpose)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from game.__main__ import build_parser

ROOT = Path(__file__).resolve().parents[1]


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:  # argparse keeps its subcommands only here
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise KeyError(name)


def test_the_programs_help_names_its_three_rule_systems() -> None:
    text = " ".join(build_parser(prog="game").format_help().split())
    assert "the tactical battle, the island campaign and the mass battle" in text


def test_run_help_gives_the_exit_status_the_movement_demonstration_ends_with(tmp_path: Path) -> None:
    text = " ".join(_sub(build_parser(prog="game"), "run").format_help().split())
    assert "Exit status 0 when every command was accepted, 3 when some were refused" in text
    assert "hexes axial [q, r], or [column, row] as Tiled shows them when the file is a mapping " \
           "{coordinates: col_row, commands: [...]}" in text
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "AIL_SAVES_DIR": str(tmp_path / "saves")}
    done = subprocess.run([sys.executable, "-m", "game", "run", "maps/demo-movement.yaml", "--commands",
                           "maps/demo-movement-commands.yaml", "--out", str(tmp_path / "demo.yaml")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert "REJECTED: " in done.stdout and done.returncode == 3
    assert (tmp_path / "demo.yaml").exists()  # the save is written all the same
