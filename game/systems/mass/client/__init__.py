"""The mass-battle client: a battle board (not a hex map). `open_scene(app, session)` is what
`game.table` hands the shell; `MassSession` is a small session for running a battle file on
its own (tests, and until the shell's generic session opens mass battles)."""

from __future__ import annotations

from game.systems.mass.client.board import MassBoardScene, open_scene

__all__ = ["MassBoardScene", "open_scene"]
