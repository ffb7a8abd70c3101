"""The Ascension Isle campaign as the program sees it: one Plugin (game.core.plugin), listed in
game/table.py. Everything about this system is in this folder: rules/ (pure), io/ (campaign
files, order files, command scripts), client/ (the campaign map), cli/ (`campaign`), bench/.
Its battles fought out at the other scales are the bridge's (game/bridge), which the table wires
in as this plugin's `verify_links`.

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

NAME = "campaign"


@cache
def rules() -> RuleSystem:
    # import seam: the rules load when a game of this system opens, not at start-up
    from game.systems.campaign.rules import SYSTEM

    return SYSTEM


def load(path: Path) -> Any:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.campaign.io.files import load_campaign

    return load_campaign(path)


def read_script(path: Path, loaded: Any) -> list[Any]:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.campaign.io.files import read_script as read

    return read(path)


def client() -> SystemClient:
    # import seam: this system's window loads when a game of it opens in the window
    from game.systems.campaign import client as window

    return window


def campaign_command() -> Callable[[Any], None]:
    # import seam: this system's command loads only when that command runs
    from game.systems.campaign.cli.campaign import register

    return register


def sniff(data: Any) -> str:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.campaign.io.files import sniff_campaign

    return sniff_campaign(data)


def check(path: Path, kind: str) -> str:
    # import seam: this system's file formats (models, YAML, maps) load when one of its files is read
    from game.systems.campaign.io.files import check_campaign_file

    return check_campaign_file(path, kind)


def picture(loaded: Any, state: Any, options: PictureOptions) -> Any:
    # import seam: the picture's drawing code loads only for `render` and the window's pictures
    from game.systems.campaign.io.picture import picture as draw

    return draw(loaded, state, options)


KINDS = ("campaign-scenario", "campaign-rules", "campaign-catalogue", "campaign-orders", "campaign-commands")
def _player(level: str) -> Callable[[random.Random], Player]:
    def make(rng: random.Random) -> Player:
        # import seam: the computer players load only when a seat is given to the computer
        from game.systems.campaign.ai import player

        made: Player = player(level, rng)
        return made

    return make


PLUGIN = Plugin(NAME, rules, load, client, read_script=read_script, commands={"campaign": campaign_command},
                files=FileKinds(KINDS, sniff, check, ("campaign-scenario",)), picture=picture,
                players={level: _player(level) for level in ("random", "easy", "hard")})
