"""The tactical battle's picture for `render` (Plugin.picture): the scenario's Tiled map with its
objectives and the unit counters, as the scenario places them or as they stand in a saved game.
Headless (no window)."""

from __future__ import annotations

from typing import Any

from game.render import objective_hexes, render_picture, setup_counters, state_counters
from game.render.picture import check_size


def picture(loaded: Any, state: Any, options: Any) -> Any:
    """loaded: a LoadedScenario; state: a GameState, or None for the scenario as it starts."""
    md = loaded.map
    width, height = md.layout.map_pixel_size
    check_size(width, height, options)
    if not options.units:
        counters = []
    elif state is None:
        counters = setup_counters(loaded.setup)
    else:
        counters = state_counters(loaded.setup, state)
    return render_picture(md, counters, options.scale, options.grid, objective_hexes(loaded.setup))
