"""The campaign's picture for `render` (Plugin.picture): the island as its Tiled map paints it,
the towns and fortresses by name, each army as a counter in its power's colour (the number of
its units still standing; a stack drawn a little up and to the right), the route each army came
by as an arrow, every open battle ringed and named, and a legend (the week, the phase, each
power's colour). A scenario is drawn as its first week starts, a save as the game stands.
Headless (no window); the GM's view (nothing hidden: the file is the GM's)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from game.core.palette import rgb
from game.io.datafiles import read_yaml
from game.io.tmx import load_map
from game.render import draw_grid, layer_margins, render_map_layer
from game.render.picture import arrow, check_size, outlined_text, text
from game.systems.campaign.rules import SYSTEM
from game.systems.campaign.rules.state import PHASE_NAMES

BATTLE_RING = (235, 40, 40)
LEGEND_BG = (24, 26, 32)
LEGEND_INK = (238, 232, 218)


def player_colours(setup: Any) -> dict[str, tuple[int, int, int]]:
    """Each player's colour: the scenario's `colour:`, else the palette's for its place."""
    return {p.id: rgb(setup.colour_of(p.id)) for p in setup.players}


def _map_file(loaded: Any) -> Path:
    """The Tiled map the campaign scenario names (its `map:`, beside the scenario)."""
    data = read_yaml(loaded.path, "campaign scenario").data
    return Path(loaded.path).parent / str(data["map"])


def picture(loaded: Any, state: Any, options: Any) -> Any:
    """loaded: a LoadedCampaign; state: a CampaignState, or None for the scenario as it starts."""
    if state is None:
        state = SYSTEM.initial_state(loaded.setup, loaded.seed)
    md = load_map(_map_file(loaded))
    width, height = md.layout.map_pixel_size
    check_size(width, height, options)
    sc = options.scale
    surf = render_map_layer(md, sc, grow=True)
    left, top, _, _ = layer_margins(md)
    ox, oy = left * sc, top * sc
    lay = md.layout

    def centre(c: tuple[int, int]) -> tuple[float, float]:
        x, y = lay.tile_center(c[0], c[1])
        return ox + x * sc, oy + y * sc

    if options.grid:
        draw_grid(surf, lay, sc, (ox, oy))
    r = max(8, round(min(lay.tw, lay.th) * 0.3 * sc))  # half a counter's side (readable when small)
    size = max(13, round(21 * min(sc, 1.6)))
    colours = player_colours(state.cs)
    for b in state.open_games():
        x, y = centre(b.hex)
        pygame.draw.circle(surf, (16, 16, 20), (round(x), round(y)), r * 2 + 2, max(3, r // 3) + 2)
        pygame.draw.circle(surf, BATTLE_RING, (round(x), round(y)), r * 2, max(3, r // 3))
        outlined_text(surf, f"battle {b.id}", (x - r * 2, y + r * 2 + 2), size, BATTLE_RING)
    if options.units:
        for a in state.armies.values():  # routes under the counters
            if a.route is not None and tuple(a.route) != tuple(a.hex):
                (x0, y0), (x1, y1) = centre(a.route), centre(a.hex)
                d = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
                stop = min(d * 0.6, r * 1.5)  # the head just short of the counter
                arrow(surf, (x0, y0), (x1 - (x1 - x0) * stop / d, y1 - (y1 - y0) * stop / d),
                      colours.get(a.owner, (160, 160, 160)), max(3, round(5 * sc)))
        stacks: dict[tuple[int, int], int] = {}
        for a in state.armies.values():
            if not state.alive_units(a.id):
                continue
            k = stacks.get(a.hex, 0)
            stacks[a.hex] = k + 1
            x, y = centre(a.hex)
            x, y = x + k * r * 0.35, y - k * r * 0.35
            colour = colours.get(a.owner, (160, 160, 160))
            rect = pygame.Rect(round(x - r), round(y - r), 2 * r, 2 * r)
            pygame.draw.rect(surf, colour, rect)
            pygame.draw.rect(surf, (16, 16, 20), rect, max(1, r // 6))
            lum = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2]
            ink = (16, 16, 20) if lum > 140 else (250, 248, 240)
            label = text(str(len(state.alive_units(a.id))), max(12, round(r * 1.3)), ink, True)
            surf.blit(label, label.get_rect(center=rect.center))
    for c, name in state.cs.map.names.items():  # last: over routes and counters
        x, y = centre(c)
        outlined_text(surf, name, (x + r + 8, y - r - 4), size, LEGEND_INK)
    _legend(surf, state, colours)
    return surf


def _legend(surf: Any, state: Any, colours: dict[str, tuple[int, int, int]]) -> None:
    lines = [text(state.cs.name, 26, LEGEND_INK, True),
             text(f"Week {state.week}: {PHASE_NAMES.get(state.phase, state.phase)}", 22, LEGEND_INK)]
    rows = [(colours[p.id], text(p.name, 22, LEGEND_INK)) for p in state.cs.players if p.id in colours]
    w = max([s.get_width() for s in lines] + [s.get_width() + 30 for _, s in rows]) + 16
    h = 8 + sum(s.get_height() + 2 for s in lines) + sum(max(16, s.get_height()) + 4 for _, s in rows) + 6
    box = pygame.Rect(8, 8, w, h)
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill((*LEGEND_BG, 220))
    surf.blit(panel, box.topleft)
    y = box.y + 8
    for s in lines:
        surf.blit(s, (box.x + 8, y))
        y += s.get_height() + 2
    for colour, s in rows:
        pygame.draw.rect(surf, colour, pygame.Rect(box.x + 8, y + 1, 20, 16))
        pygame.draw.rect(surf, (16, 16, 20), pygame.Rect(box.x + 8, y + 1, 20, 16), 1)
        surf.blit(s, (box.x + 36, y))
        y += max(16, s.get_height()) + 4
