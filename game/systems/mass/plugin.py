"""The mass battles (Battle Waves) as the program sees them: one Plugin (game.core.plugin),
listed in game/table.py. Everything about this system is in this folder: rules/ (pure), io/
(battle files), client/ (the battle board), cli/ (`dice`), bench/.

The imports inside the functions below are the system's warm-up seam (see
game/systems/tactical/plugin.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from game.core.ai import Player
from game.core.plugin import FileKinds, PictureOptions, Plugin, SystemClient
from game.core.system import RuleSystem

NAME = "mass-battle"


@cache
def rules() -> RuleSystem:
    # import seam: the rules load when a game of this system opens, not at start-up
    from game.systems.mass.rules.system import SYSTEM

    return SYSTEM


def load(path: Path) -> Any:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.mass.io.files import load_battle

    return load_battle(path)


def read_script(path: Path, loaded: Any) -> list[Any]:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.mass.io.files import load_mass_commands

    return load_mass_commands(path)[1]


def client() -> SystemClient:
    # import seam: this system's window loads when a game of it opens in the window
    from game.systems.mass import client as window

    return window


def dice_command() -> Callable[[Any], None]:
    # import seam: this system's command loads only when that command runs
    from game.systems.mass.cli.dice import register

    return register


def sniff(data: Any) -> str:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.mass.io.files import sniff_mass

    return sniff_mass(data)


def check(path: Path, kind: str) -> str:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.mass.io.files import check_mass_file

    return check_mass_file(path, kind)


def picture(loaded: Any, state: Any, options: PictureOptions) -> Any:
    # import seam: the picture's drawing code loads only for `render` and the window's pictures
    from game.systems.mass.io.picture import picture as draw

    return draw(loaded, state, options)


def _player(level: str) -> Callable[[random.Random], Player]:
    def make(rng: random.Random) -> Player:
        # import seam: the computer players load only when a seat is given to the computer
        from game.systems.mass.ai import player

        made: Player = player(level, rng)
        return made

    return make


PLUGIN = Plugin(NAME, rules, load, client, read_script=read_script, commands={"dice": dice_command},
                files=FileKinds(("mass-battle", "mass-rules", "mass-commands"), sniff, check, ("mass-battle",)),
                picture=picture, players={level: _player(level) for level in ("random", "easy", "hard")})
