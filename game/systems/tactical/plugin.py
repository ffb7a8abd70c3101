"""The AI:L tactical rules as the program sees them: one Plugin (game.core.plugin), listed in
game/table.py. Everything about this system is in this folder: rules/ (pure), io/ (scenario
files), client/ (the battle window), cli/ (`odds`), bench/.

The imports inside the functions below are the system's warm-up seam: the command line and the
window's first frame import a system's rules, files and window only when a game of it opens
(start-up is a benchmark target, docs/performance.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from game.core.ai import Player
from game.core.plugin import FileKinds, PictureOptions, Plugin, SystemClient, Table
from game.core.system import RuleSystem

NAME = "ail-tactical"


@cache
def rules() -> RuleSystem:
    # import seam: the rules load when a game of this system opens, not at start-up
    from game.systems.tactical.rules.system import SYSTEM

    return SYSTEM


def load(path: Path) -> Any:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.tactical.io.scenario import load_scenario

    return load_scenario(path)


def setup_of(loaded: Any) -> Any:
    # import seam: the rules load when a game of this system opens, not at start-up
    from game.systems.tactical.rules.system import TacticalSetup

    return TacticalSetup(loaded.setup, loaded.board)


def client() -> SystemClient:
    # import seam: this system's window loads when a game of it opens in the window
    from game.systems.tactical.client import plugin as window

    return window


def odds_command() -> Callable[[Any], None]:
    # import seam: this system's command loads only when that command runs
    from game.systems.tactical.cli.odds import register

    return register


def _sniff(data: Any) -> str:
    return ""  # its kinds are the program's first ones: game.io.sniff tells them by suffix and keys


def check(path: Path, kind: str) -> str:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.tactical.io.check import check_tactical_file

    return check_tactical_file(path, kind)


def picture(loaded: Any, state: Any, options: PictureOptions) -> Any:
    # import seam: the picture's drawing code loads only for `render` and the window's pictures
    from game.systems.tactical.io.picture import picture as draw

    return draw(loaded, state, options)


def _player(level: str) -> Callable[[random.Random], Player]:
    def make(rng: random.Random) -> Player:
        # import seam: the computer players load only when a seat is given to the computer
        from game.systems.tactical.ai import player

        made: Player = player(level, rng)
        return made

    return make


PLUGIN = Plugin(NAME, rules, load, client, setup_of, commands={"odds": odds_command},
                files=FileKinds(("map", "tileset", "scenario", "catalogue", "rules"), _sniff, check, ("scenario",)),
                picture=picture, players={level: _player(level) for level in ("random", "easy", "hard")})


def alone() -> Table:
    """A table of this system alone: for its own benchmarks and tools, which open no other
    system's files (the program's table is game/table.py's)."""
    return Table([PLUGIN])
