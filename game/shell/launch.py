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

from game import paths
from game.core.errors import GameFileError, UserError
from game.core.plugin import SystemClient, Table
from game.io.sniff import peek_system
from game.render.tiles import prefetch
from game.shell import savegame
from game.shell.contracts import AppContext, SceneLike, is_game_scene
from game.shell.session import Session, layout_of, session_for

__all__ = ["DEFAULT_SCENARIO", "layout_of", "session_for", "session_from_scenario", "open_game", "client_of",
           "scene_for", "session_from_save", "load_into", "open_replay_file"]

DEFAULT_SCENARIO = paths.default_scenario()


def session_from_scenario(table: Table, loaded: object) -> Session:
    """A fresh game from a loaded scenario of any system (its `system_name`, the default without)."""
    return session_for(table.plugin_of_loaded(loaded), loaded)


def open_game(table: Table, path: str | Path | None = None, *, seed: int | None = None) -> Session:
    """The session `python -m game play PATH` opens (errors reach the command line as one line).
    A new game from a scenario is dealt its dice from `seed` (None: the scenario's own `seed:`);
    a save goes on with its own."""
    p = Path(path) if path is not None else DEFAULT_SCENARIO
    if not paths.exists(p):  # (False, not an error, for a name too long to look up)
        raise UserError(f"{p}: no such file (expected a scenario .yaml or a save)")
    session = savegame.load_session(table, p)
    if session is None:
        plugin = table.plugin_named(peek_system(p, table.default))
        session = session_for(plugin, plugin.load(p), seed=seed)
    if session.map_data is not None:  # its tile sheets decode while the window opens
        prefetch(session.map_data)
    return session


def client_of(table: Table, session: Session) -> SystemClient | None:
    """The window of a session's rule system (None when it has none)."""
    plugin = table.plugin_named(session.system.name)
    return plugin.client() if plugin.client is not None else None


def scene_for(app: AppContext, session: Session) -> SceneLike:
    """The rule system's client scene for a session."""
    client = client_of(app.table, session)
    if client is None:
        raise UserError(f"the {session.system.title} rules have no window of their own yet")
    scene: SceneLike = client.open_scene(app, session)
    return scene


# --------------------------------------------------------------------------- saves


def session_from_save(table: Table, path: Path) -> Session | None:
    """A Session resuming the save at `path` (None if the file is not a save). Raises SaveError."""
    return savegame.load_session(table, path)


def load_into(app: AppContext, path: str | os.PathLike[str]) -> str | None:
    """Load a save over the running battle. Returns None on success, else the one-line reason
    (the running game is left exactly as it was, and no file is written)."""
    try:
        session = savegame.load_session(app.table, Path(path))
        if session is None:
            return f"{path}: not a saved game"
    except GameFileError as exc:
        return exc.line()
    except (OSError, ValueError) as exc:
        return f"{path}: {exc}"
    app.scenes.clear()
    scene = scene_for(app, session)
    app.push(scene)
    warnings = session.load_warnings
    if warnings and is_game_scene(scene):
        scene.toast("Warning: " + "; ".join(warnings), 8.0)
    return None


def open_replay_file(app: AppContext, path: str | Path) -> str | None:
    """The replay view of a save file (verified on load). Returns an error line or None."""
    try:
        session, client = savegame.load_for_replay(app.table, path)
    except GameFileError as exc:
        return exc.line()
    opener = getattr(client, "open_replay", None)  # (optional in a system's client: SystemClient)
    if opener is None:
        return f"{path}: the {session.system.title} has no replay view yet"
    opener(app, session, start=0, title=Path(path).name)
    return None
