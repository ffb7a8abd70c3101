"""Opening a game for the client, for any rule system: a scenario / set-up file or a save (to play
on, `load_into` a running app, or in the replay view).

    session = open_game(table, path)   # a save resumes; any other file is loaded by its system
    scene = scene_for(app, session)    # the system's own client scene (Plugin.client)

The shell never imports a rule system's package nor the table of systems (game/table.py): it is
given the table (game.core.plugin.Table) and finds a system's plugin in it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game import paths
from game.core.errors import GameFileError, UserError
from game.core.hexlayout import HexLayout
from game.core.plugin import Plugin, SystemClient, Table
from game.core.record import Record
from game.shell.savegame import clean_leftovers, is_save_file
from game.shell.session import Session

if TYPE_CHECKING:
    from game.shell.app import App
    from game.shell.scene import Scene

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


def session_for(plugin: Plugin, loaded: Any, *, record: Record | None = None,
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


def session_from_scenario(table: Table, loaded: Any) -> Session:
    """A fresh game from a loaded scenario of any system (its `system_name`, the default without)."""
    return session_for(table.plugin_of_loaded(loaded), loaded)


def open_game(table: Table, path: str | Path | None = None) -> Session:
    """The session `python -m game play PATH` opens (errors reach the command line as one line)."""
    from game.io.sniff import peek_system

    p = Path(path) if path is not None else DEFAULT_SCENARIO
    if not paths.exists(p):  # (False, not an error, for a name too long to look up)
        raise UserError(f"{p}: no such file (expected a scenario .yaml or a save)")
    session = session_from_save(table, p)
    if session is None:
        plugin = table.plugin_named(peek_system(p, table.default))
        session = session_for(plugin, plugin.load(p))
    if session.map_data is not None:  # its tile sheets decode while the window opens
        from game.render.tiles import prefetch

        prefetch(session.map_data)
    return session


def client_of(table: Table, session: Session) -> SystemClient | None:
    """The window of a session's rule system (None when it has none)."""
    plugin = table.plugin_named(session.system.name)
    return plugin.client() if plugin.client is not None else None


def scene_for(app: App, session: Session) -> Scene:
    """The rule system's client scene for a session."""
    client = client_of(app.table, session)
    if client is None:
        raise UserError(f"the {session.system.title} rules have no window of their own yet")
    scene: Scene = client.open_scene(app, session)
    return scene


# --------------------------------------------------------------------------- saves


def session_from_save(table: Table, path: Path) -> Session | None:
    """A Session resuming the save at `path` (None if the file is not a save). Raises SaveError."""
    if not is_save_file(Path(path)):
        return None
    clean_leftovers(Path(path).parent)
    from game.replay import load_game  # a save: the save format is needed now, not at every start

    loaded = load_game(table, path)
    session = session_for(loaded.plugin, loaded.scenario, record=loaded.record, seed=loaded.header.seed)
    session.autosaved_round = int(loaded.system.summary(session.state).get("round", 0))
    session.save_path = Path(path)
    session.load_warnings = list(loaded.warnings)
    session.saved_steps = len(session.history)
    return session


def load_into(app: App, path: str | os.PathLike[str]) -> str | None:
    """Load a save over the running battle. Returns None on success, else the one-line reason
    (the running game is left exactly as it was, and no file is written)."""
    try:
        session = session_from_save(app.table, Path(path))
        if session is None:
            return f"{path}: not a saved game"
    except GameFileError as exc:
        return exc.line()
    except (OSError, ValueError) as exc:
        return f"{path}: {exc}"
    app.scenes.clear()
    scene: Any = scene_for(app, session)
    app.push(scene)
    warnings = session.load_warnings
    if warnings:
        scene.toast("Warning: " + "; ".join(warnings), 8.0)
    return None


def open_replay_file(app: App, path: str | Path) -> str | None:
    """The replay view of a save file (verified on load). Returns an error line or None."""
    from game.replay import load_game

    try:
        loaded = load_game(app.table, path)
    except GameFileError as exc:
        return exc.line()
    session = session_for(loaded.plugin, loaded.scenario, record=loaded.record, seed=loaded.header.seed)
    client = loaded.plugin.client() if loaded.plugin.client is not None else None
    opener = getattr(client, "open_replay", None)
    if opener is None:
        return f"{path}: the {session.system.title} has no replay view yet"
    opener(app, session, start=0, title=Path(path).name)
    return None
