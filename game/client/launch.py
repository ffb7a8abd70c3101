"""Opening a battle for the client: a scenario file (or, through a hook, a save).

`open_battle(path)` returns a ready `Session`. The saves module adds its own opener to
`OPENERS` (a function taking the path and returning a Session, or None when the file is not
one of its saves); openers are tried before the scenario loader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from game import paths
from game.client.session import Session
from game.errors import UserError
from game.hexlayout import HexLayout

DEFAULT_SCENARIO = paths.default_scenario()

Opener = Callable[[Path], Session | None]
OPENERS: list[Opener] = []


def layout_of(map_data: Any) -> HexLayout:
    """The pixel layout of a loaded Tiled map."""
    layout = getattr(map_data, "layout", None)
    if isinstance(layout, HexLayout):
        return layout
    return HexLayout(map_data.tilewidth, map_data.tileheight, map_data.hexsidelength, map_data.stagger,
                     map_data.width, map_data.height)


def session_from_scenario(loaded: Any) -> Session:
    """A fresh battle from a LoadedScenario (game.io.scenario)."""
    return Session.start(loaded.setup, loaded.board, layout_of(loaded.map), loaded.seed,
                         map_data=loaded.map, path=Path(loaded.path),
                         description=str(getattr(loaded, "description", "") or ""))


def open_battle(path: str | Path | None = None) -> Session:
    p = Path(path) if path is not None else DEFAULT_SCENARIO
    if not p.exists():
        raise UserError(f"{p}: no such file (expected a scenario .yaml or a save)")
    for opener in OPENERS:
        session = opener(p)
        if session is not None:
            return session
    from game.io.scenario import load_scenario

    return session_from_scenario(load_scenario(p))
