"""The mass-battle client: a battle board (not a hex map). `game.table` hands the shell this
module:

    open_scene(app, session) -> Scene                     # the battle board
    open_replay(app, session, start=None, title="")      # the replay view (F3; replay.py)
    open_gm(app, board)                                   # GM mode (F2; gm.py)
    terminal_lines(system, step, reveal=, gm=)           # a step of `replay SAVE` as the replay view hides it
"""

from __future__ import annotations

from typing import Any

from game.systems.mass.client.board import MassBoardScene, open_scene
from game.systems.mass.client.gm import MassGmScene, gm_active, open_gm
from game.systems.mass.client.replay import MassReplayScene, terminal_lines


def open_replay(app: Any, session: Any, start: int | None = None, title: str = "") -> None:
    """The replay view of `session`'s history (the live game's, or a save's): from GM mode it
    shows the sealed choices too (replay.py)."""
    name = getattr(session.loaded, "name", "") or "Mass battle"
    app.push(MassReplayScene(app, session, list(session.history), title=title or f"{name} (so far)",
                             start=start, gm=gm_active(app)))


__all__ = ["MassBoardScene", "MassGmScene", "MassReplayScene", "open_gm", "open_replay", "open_scene", "terminal_lines"]
