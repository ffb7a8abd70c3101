"""Labels drawn over the map (a target's hit chance, a path's cost, who fires overwatch where,
the hits and losses floating over a unit): each is kept whole inside the map's view, shifted in
from the edge rather than cut (issue 12, item 7).

The battle's map view is kept as one picture while the camera pans (battle_draw.py), so a label
placed inside the view when the picture was drawn would drift out of it as the map moves. The
labels are therefore collected, in world coordinates, while the picture is drawn and placed on
screen each frame, after the picture, against the camera's viewport (which GM mode and the replay
view narrow): a few blits of cached text. A label whose hex centre is out of the view is not
drawn (it would stand, shifted in, beside nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import pygame

from game.shell import fonts
from game.shell.toolkit.richtext import cut_at

if TYPE_CHECKING:
    from game.shell.camera import Camera

Colour = tuple[int, int, int]
LABEL_BG = (12, 14, 18, 210)  # a label's translucent box


def view_rect(camera: Camera) -> pygame.Rect:
    """The part of the screen the map is seen in (the camera's viewport)."""
    return pygame.Rect(camera.view_x, camera.view_y, camera.view_w, camera.view_h)


def keep_inside(rect: pygame.Rect, bounds: pygame.Rect) -> pygame.Rect:
    """`rect` moved (not resized) just enough to lie inside `bounds`; one wider or taller than
    `bounds` is centred on it along that axis."""
    return rect.clamp(bounds)


@dataclass(frozen=True)
class MapLabel:
    """A text label drawn on the map at a map point."""
    text: str
    world: tuple[float, float]   # the map point it belongs to
    offset: tuple[float, float]  # screen pixels from that point to the label's centre
    colour: Colour
    size: int
    bg: tuple[int, int, int, int] | None
    # kept clear of the labels placed before it (moved down past them): the hint's mark, which
    # would otherwise sit under a hit chance or a path's cost
    clear: bool = False
    # (a label kept clear) the other places it may go, screen pixels from its map point to its
    # centre, tried in turn after `offset`, and the counters it keeps off: world centre and half
    # side in world units. The first place clear of them, of the labels placed before it and of
    # the view's edge is taken; when none is, the one covering least
    alternatives: tuple[tuple[float, float], ...] = ()
    avoid: tuple[tuple[float, float, float], ...] = ()


class MapLabels:
    """The labels of the map view as last drawn; `placed` holds where each went on screen."""

    def __init__(self) -> None:
        self.items: list[MapLabel] = []
        self.placed: list[tuple[MapLabel, pygame.Rect]] = []
        self._panels: dict[tuple[tuple[int, int], tuple[int, int, int, int]], pygame.Surface] = {}

    def clear(self) -> None:
        self.items = []

    def add(self, text: str, world: tuple[float, float], offset: tuple[float, float] = (0.0, 0.0),
            colour: Colour = (255, 255, 255), size: int = 14,
            bg: tuple[int, int, int, int] | None = LABEL_BG, *, clear: bool = False,
            alternatives: tuple[tuple[float, float], ...] = (),
            avoid: tuple[tuple[float, float, float], ...] = ()) -> None:
        self.items.append(MapLabel(text, world, offset, colour, size, bg, clear, alternatives, avoid))

    def box(self, label: MapLabel, camera: Camera, bounds: pygame.Rect,
            offset: tuple[float, float] | None = None) -> pygame.Rect:
        """Where the label (with its background box) goes on screen, inside `bounds` (at
        `offset` from its map point rather than its own, when given)."""
        return keep_inside(self._unkept(label, camera, offset), bounds)

    @staticmethod
    def _unkept(label: MapLabel, camera: Camera, offset: tuple[float, float] | None = None) -> pygame.Rect:
        """The label's box on screen where its offset puts it, before it is kept inside the view."""
        img = fonts.text(label.text, label.size, label.colour, True)
        x, y = camera.world_to_screen(*label.world)
        dx, dy = label.offset if offset is None else offset
        rect = img.get_rect(center=(round(x + dx), round(y + dy)))
        return rect.inflate(10, 4) if label.bg is not None else rect

    def clear_box(self, label: MapLabel, camera: Camera, bounds: pygame.Rect) -> pygame.Rect:
        """Where a label kept clear goes: the first of its places whose box covers no counter it
        avoids and no label placed before it, and is not pushed in from the view's edge (then
        cut off from its hex); when every place covers something, the one covering least. A
        label with no other places is moved down past the labels already there, as before."""
        if not label.alternatives and not label.avoid:
            box = self.box(label, camera, bounds)
            for _ in range(4):
                hit = next((b for _, b in self.placed if b.colliderect(box)), None)
                if hit is None:
                    break
                box = keep_inside(box.move(0, hit.bottom + 1 - box.y), bounds)
            return box
        z = camera.zoom
        counters = []
        for wx, wy, half in label.avoid:
            cx, cy = camera.world_to_screen(wx, wy)
            side = 2 * half * z
            counters.append(pygame.Rect(round(cx - side / 2), round(cy - side / 2), round(side), round(side)))
        others = [b for _, b in self.placed]
        best: tuple[tuple[int, int], pygame.Rect] | None = None
        for offset in (label.offset, *label.alternatives):
            raw = self._unkept(label, camera, offset)
            box = keep_inside(raw, bounds)
            covered = sum(_overlap(box, r) for r in counters) + sum(_overlap(box, r) for r in others)
            shifted = abs(box.x - raw.x) + abs(box.y - raw.y)
            cost = (covered, shifted)
            if cost == (0, 0):
                return box
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        return best[1]

    def draw(self, surface: pygame.Surface, camera: Camera) -> None:
        """Each label as draw.draw_label draws it (text on a translucent box 10 x 4 pixels
        larger), at the place `box` gives; the boxes are kept, so a frame only blits."""
        bounds = view_rect(camera)
        self.placed = []
        for label in sorted(self.items, key=lambda x: x.clear):  # (those kept clear of the rest: last)
            if not bounds.collidepoint(camera.world_to_screen(*label.world)):
                continue  # its hex is out of the view: no label stranded at the edge
            box = self.clear_box(label, camera, bounds) if label.clear else self.box(label, camera, bounds)
            if label.bg is not None:
                surface.blit(self._panel(box.size, label.bg), box)
            img = fonts.text(label.text, label.size, label.colour, True)
            surface.blit(img, img.get_rect(center=box.center))
            self.placed.append((label, box))

    def _panel(self, size: tuple[int, int], bg: tuple[int, int, int, int]) -> pygame.Surface:
        panel = self._panels.get((size, bg))
        if panel is None:
            if len(self._panels) > 200:
                self._panels.clear()
            panel = pygame.Surface(size, pygame.SRCALPHA)
            panel.fill(bg)
            self._panels[(size, bg)] = panel
        return panel


def _overlap(a: pygame.Rect, b: pygame.Rect) -> int:
    """The area two rectangles share (0 when apart)."""
    c = a.clip(b)
    return c.w * c.h


@lru_cache(maxsize=64)
def wrap(text: str, size: int, width: int) -> tuple[str, ...]:
    """`text` in lines no wider than `width` pixels (bold, at `size`), broken between words (a
    word wider than a line is broken after its last "/" or "-" that fits, a file's path at a
    folder or its name between parts, else where it must)."""
    def fits(s: str) -> bool:
        return fonts.text(s, size, (255, 255, 255), True).get_width() <= width

    words: list[str] = []
    for word in text.split():
        while not fits(word) and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and not fits(word[:cut]):
                cut -= 1
            cut = cut_at(word, cut)  # a file's path after a folder's "/", its name after a "-"
            words.append(word[:cut])
            word = word[cut:]
        words.append(word)
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and not fits(trial):
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return tuple(lines)


TOAST_SIZE = 15  # the toast's letters (the hint's framing keeps clear of its lines)


def draw_toast(surface: pygame.Surface, text: str, bounds: pygame.Rect, colour: Colour = (255, 230, 200),
               size: int = TOAST_SIZE, bg: tuple[int, int, int, int] = (60, 20, 16, 230)) -> pygame.Rect:
    """A message at the bottom of the map's view, wrapped to the view's width (never cut at its
    sides). Returns the box it was drawn in."""
    lines = wrap(text, size, max(60, bounds.w - 40))
    imgs = [fonts.text(line, size, colour, True) for line in lines]
    height = sum(i.get_height() for i in imgs) + 6
    width = max((i.get_width() for i in imgs), default=0) + 12
    box = keep_inside(pygame.Rect(0, 0, width, height), bounds)
    box.midbottom = (bounds.centerx, bounds.bottom - 18)
    box = keep_inside(box, bounds)
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill(bg)
    surface.blit(panel, box)
    y = box.y + 3
    for img in imgs:
        surface.blit(img, img.get_rect(midtop=(box.centerx, y)))
        y += img.get_height()
    return box
