"""The mass battle's picture for `render` (Plugin.picture): its board as it stands. A bar with
the battle, its ground, the Wave and the stage (or who won); one column per force, in its colour:
the commander and every individual with their wound level, Wounds and Void points, the Brute
divisions with their head counts, the Advantage of each Way and the total as bars; the Phase
track 1-10 with each force's action dice. A battle file is drawn as it starts, a save as the
battle stands. Headless (no window). A mass battle has no hex map: --grid and --no-units are
refused with a clear message."""

from __future__ import annotations

from typing import Any

import pygame

from game.core.errors import UserError
from game.core.palette import palette_colour, rgb
from game.render.picture import check_size, text
from game.systems.mass.rules.pools import level_name, size
from game.systems.mass.rules.system import SYSTEM

WIDTH = 1200
# the mass battle's colours, shared by the picture and the board's screens (client/board.py, end.py)
BG = (18, 20, 24)
PANEL = (28, 31, 37)
INK = (228, 224, 214)
DIM = (150, 146, 136)
GOLD = (224, 184, 100)
GOOD = (143, 209, 138)
BAD = (255, 122, 106)
TRACK = (45, 48, 55)
WAYS = ("heaven", "honor", "glory", "strategy", "terrain")
WAY_COLOURS = {"heaven": (150, 170, 230), "honor": (230, 220, 150), "glory": (240, 150, 80),
               "strategy": (120, 200, 150), "terrain": (170, 140, 110)}
LINE = 20


def force_colours(setup: Any) -> dict[str, tuple[int, int, int]]:
    """Each force's colour: the battle file's `colour:`, else the palette's for its place."""
    return {f.id: rgb(getattr(f, "colour", "") or palette_colour(i)) for i, f in enumerate(setup.forces)}


def _force_lines(s: Any, f: Any) -> list[tuple[str, tuple[int, int, int]]]:
    out: list[tuple[str, tuple[int, int, int]]] = []
    for p in f.people.values():
        mark = "* " if p.id == f.commander else "  "
        lvl = "fled" if p.fled else level_name(s.rules, p)
        out.append((f"{mark}{p.name}: {lvl}, {p.wounds} Wounds, Void {p.void_left}",
                    BAD if lvl in ("Down", "Out", "Dead", "fled") else INK))
    for d in f.brutes:
        out.append((f"  Brutes, {d.armour} armour: {d.count}", INK))
    if f.brutes_wounded:
        out.append((f"  out of the battle: {f.brutes_wounded} wounded, {f.brutes_killed} of them dead", DIM))
    return out


def picture(loaded: Any, state: Any, options: Any) -> Any:
    """loaded: a LoadedBattle; state: a MassState, or None for the battle as it starts."""
    if options.grid:
        raise UserError("--grid: a mass battle has no hex map (its picture is the battle board)")
    if not options.units:
        raise UserError("--no-units: a mass battle's picture is its forces; leave --no-units out")
    if state is None:
        state = SYSTEM.initial_state(loaded.setup, loaded.seed)
    s = state
    colours = force_colours(s.setup)
    lines = {fid: _force_lines(s, s.forces[fid]) for fid in s.order}
    box_h = 44 + LINE * max(len(v) for v in lines.values()) + 8 + 18 * len(WAYS) + 30
    height = 44 + box_h + 12 + 30 + 18 * len(s.order) + 16
    check_size(WIDTH, height, options)
    surf = pygame.Surface((WIDTH, height))
    surf.fill(BG)
    # the top bar
    pygame.draw.rect(surf, PANEL, pygame.Rect(0, 0, WIDTH, 36))
    if s.stage == "ended":
        head = f"{s.setup.name}  |  battle over: " + (
            f"{s.says(s.winner, 'wins')} ({s.end_reason})" if s.winner else f"no victor ({s.end_reason})")
    else:
        stage = f"Phase {s.phase}" if s.stage == "phases" else s.stage.replace("_", " ")
        head = f"{s.setup.name}  |  {s.setup.terrain.title()} ground  |  Wave {s.wave}  |  {stage}"
    surf.blit(text(head, 22, GOLD, True), (12, 9))
    # one column per force
    n = len(s.order)
    w = WIDTH // n
    top_total = max([1] + [f.total() for f in s.forces.values()])
    for i, fid in enumerate(s.order):
        f = s.forces[fid]
        colour = colours.get(fid, (160, 160, 160))
        box = pygame.Rect(i * w + 6, 44, w - 12, box_h)
        pygame.draw.rect(surf, PANEL, box, border_radius=6)
        pygame.draw.rect(surf, colour, pygame.Rect(box.x, box.y, box.w, 6), border_top_left_radius=6,
                         border_top_right_radius=6)
        status = "" if f.in_field else f"  [{f.status}]"
        surf.blit(text(f"{f.name}{status}", 24, colour, True), (box.x + 10, box.y + 12))
        fighting = text(f"{size(s.rules, f)} fighting", 19, DIM)
        surf.blit(fighting, (box.right - fighting.get_width() - 10, box.y + 15))
        y = box.y + 44
        for line, ink in lines[fid]:
            surf.blit(text(line, 19, ink), (box.x + 10, y))
            y += LINE
        y += 8
        bar_w = box.w - 130
        for way in WAYS:
            v = f.advantage.get(way, 0)
            surf.blit(text(way.title(), 18, DIM), (box.x + 10, y))
            pygame.draw.rect(surf, TRACK, pygame.Rect(box.x + 80, y + 3, bar_w, 10))
            pygame.draw.rect(surf, WAY_COLOURS[way], pygame.Rect(box.x + 80, y + 3, int(bar_w * v / top_total), 10))
            surf.blit(text(str(v), 18, INK), (box.x + 88 + bar_w, y))
            y += 18
        tot = f.total()
        surf.blit(text("Total", 20, GOLD, True), (box.x + 10, y + 4))
        pygame.draw.rect(surf, TRACK, pygame.Rect(box.x + 80, y + 6, bar_w, 14))
        pygame.draw.rect(surf, colour, pygame.Rect(box.x + 80, y + 6, int(bar_w * tot / top_total), 14))
        surf.blit(text(str(tot), 20, GOLD, True), (box.x + 88 + bar_w, y + 4))
    # the Phase track with each force's action dice
    track = pygame.Rect(0, 44 + box_h + 12, WIDTH, height - (44 + box_h + 12))
    pygame.draw.rect(surf, PANEL, track)
    surf.blit(text("Phases", 20, DIM, True), (track.x + 10, track.y + 8))
    cell = (WIDTH - 120) // 10
    for ph in range(1, 11):
        x = track.x + 100 + (ph - 1) * cell
        now = s.stage == "phases" and s.phase == ph
        pygame.draw.rect(surf, (70, 64, 40) if now else (40, 43, 50),
                         pygame.Rect(x, track.y + 4, cell - 4, track.h - 8), border_radius=4)
        surf.blit(text(str(ph), 20, GOLD if now else DIM, True), (x + 4, track.y + 6))
        for k, fid in enumerate(s.order):
            count = sum(1 for d in s.forces[fid].dice if d == ph)
            for j in range(count):
                pygame.draw.rect(surf, colours.get(fid, (160, 160, 160)),
                                 pygame.Rect(x + 24 + j * 14, track.y + 28 + k * 18, 11, 11), border_radius=2)
    if options.scale != 1:
        surf = pygame.transform.smoothscale(surf, (max(1, round(WIDTH * options.scale)),
                                                   max(1, round(height * options.scale))))
    return surf
