"""Line of sight for the AI:L rules (design page §5.1). Pure: no I/O.

A sight line is `hexgrid.line(a, b)` (cube interpolation with a fixed nudge, so the same two
hexes always give the same line whichever way round). A hex strictly between the two ends
blocks when its terrain has `blocks_los`; the shooter's and the target's own hexes never block,
and units never block. A hex off the board (a line can clip a corner of a staggered map) has no
terrain and does not block.
"""

from __future__ import annotations

from game.core.board import Board
from game.core.hexgrid import Hex, line
from game.systems.tactical.rules.models import RulesData


def _blocks(board: Board, rules: RulesData, h: Hex) -> bool:
    name = board.terrain.get(h)
    if name is None:
        return False
    terrain = rules.terrain.get(name)
    return terrain is not None and terrain.blocks_los


def sight_line(board: Board, rules: RulesData, a: Hex, b: Hex) -> list[tuple[Hex, bool]]:
    """Every hex of the line from `a` to `b` (both ends included) and whether it blocks.

    The two ends are always reported as not blocking; this is what the client draws.
    """
    hexes = line(a, b)
    last = len(hexes) - 1
    return [(h, 0 < i < last and _blocks(board, rules, h)) for i, h in enumerate(hexes)]


def first_blocker(board: Board, rules: RulesData, a: Hex, b: Hex) -> Hex | None:
    """The first hex (walking from `a`) that blocks the line to `b`, or None when the line is clear."""
    for h, blocked in sight_line(board, rules, a, b):
        if blocked:
            return h
    return None


def has_line_of_sight(board: Board, rules: RulesData, a: Hex, b: Hex) -> bool:
    """True when no hex strictly between `a` and `b` has terrain that blocks line of sight."""
    return first_blocker(board, rules, a, b) is None
