"""Opening a game for the client, for any rule system: a scenario / set-up file or a save.

    session = open_game(path)          # a save resumes; any other file is loaded by its system
    scene = scene_for(app, session)    # the system's own client scene (game.systems.Plugin.client)

The shell never imports a rule system's package: the plugin table in game/systems.py does.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from game import paths, systems
from game.client.session import Session
from game.core.record import Record
from game.errors import UserError
from game.hexlayout import HexLayout

if TYPE_CHECKING:
    from game.client.app import App
    from game.client.scene import Scene

DEFAULT_SCENARIO = paths.default_scenario()



def layout_of(map_data: Any) -> HexLayout:
    """The pixel layout of a loaded Tiled map."""
    layout = getattr(map_data, "layout", None)
    if isinstance(layout, HexLayout):
        return layout
    return HexLayout(map_data.tilewidth, map_data.tileheight, map_data.hexsidelength, map_data.stagger,
                     map_data.width, map_data.height)


def _layout_for(loaded: Any) -> HexLayout | None:
    map_data = getattr(loaded, "map", None)
    if map_data is not None:
        return layout_of(map_data)
    board = getattr(loaded, "board", None)
    if board is None:
        return None
    return HexLayout(64, 74, 37, board.stagger, board.width, board.height)


def session_for(plugin: systems.Plugin, loaded: Any, *, record: Record | None = None,
                seed: int | None = None) -> Session:
    """A session of `loaded` (what plugin.load returned): fresh, or resuming `record`."""
    game_setup = plugin.setup_of(loaded)
    use_seed = int(loaded.seed if seed is None else seed)
    if record is None:
        record = Record(plugin.system, plugin.system.initial_state(game_setup, use_seed))
    path = getattr(loaded, "path", None)
    return Session(system=plugin.system, record=record, game_setup=game_setup, setup=getattr(loaded, "setup", None),
                   board=getattr(loaded, "board", None), layout=_layout_for(loaded),
                   map_data=getattr(loaded, "map", None), seed=use_seed,
                   path=Path(path) if path is not None else None, loaded=loaded,
                   description=str(getattr(loaded, "description", "") or ""))


def session_from_scenario(loaded: Any) -> Session:
    """A fresh game from a loaded scenario of any system (its `system_name`, AI:L by default)."""
    return session_for(systems.plugin_of_loaded(loaded), loaded)


def open_game(path: str | Path | None = None) -> Session:
    """The session `python -m game play PATH` opens (errors reach the command line as one line)."""
    from game.client.savegame import session_from_save
    from game.io.datafiles import peek_system

    p = Path(path) if path is not None else DEFAULT_SCENARIO
    if not p.exists():
        raise UserError(f"{p}: no such file (expected a scenario .yaml or a save)")
    session = session_from_save(p)
    if session is not None:
        return session
    plugin = systems.plugin_named(peek_system(p))
    return session_for(plugin, plugin.load(p))


def scene_for(app: App, session: Session) -> Scene:
    """The rule system's client scene for a session."""
    plugin = systems.plugin_named(session.system.name)
    if plugin.client is None:
        raise UserError(f"the {session.system.title} rules have no window of their own yet")
    scene: Scene = plugin.client().open_scene(app, session)
    return scene
