"""Drawing the UI toolkit's elements (pygame_gui) onto the window: all of them, or, when the
window still shows the last frame, only the elements that changed since.

pygame_gui draws every visible element every frame, blended, whether or not it changed: at
1280 x 800 the battle scene's side panel alone is ~0.6 ms of a hover's frame. `ToolkitLayer`
keeps what it last put on the window (each element's picture, where, and how) and, on a frame
drawn over the last one, draws again only the rectangles of what differs: there it puts back what
lies under the toolkit (the scene's panel backgrounds, through `backdrop`) and draws every element
that overlaps them, in the toolkit's order, clipped to them.

What counts as changed: a picture that is another object (pygame_gui makes a new one whenever an
element's look changes: a button hovered or pressed, a label's new text, a caret's blink), moved,
cut or blended otherwise, clipped otherwise by its container (pygame_gui then draws the picture
again in place), or drawn again in place by an element that says so by counting its redraws in
`redraws` (richtext.RichTextBox). The pictures last drawn are kept alive, so a new
picture can never be taken for an old one by its address."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame
import pygame_gui

# (picture, where it is drawn, the part of it drawn or None, blend flags, redraws in place, the
# element's clip: a clip changed on a picture of the same size is drawn into it in place)
_Shown = tuple[pygame.Surface, tuple[int, int, int, int], Any, int, int, Any]


def _shown(manager: pygame_gui.UIManager) -> list[_Shown] | None:
    """The toolkit's visible elements as it draws them, in its order; None when its list of what
    is visible is not the one its sprites give (then everything is drawn)."""
    group = manager.get_sprite_group()
    sprites = [s for s in group.sprites() if s.image is not None and s.visible]
    visible = group.visible
    if len(sprites) != len(visible):
        return None
    out: list[_Shown] = []
    for spr, data in zip(sprites, visible, strict=True):
        if data is not spr.blit_data:
            return None
        row: list[Any] = list(data)  # [picture, rect, the part drawn or None, blend flags]
        img, rect = row[0], row[1]
        area = row[2] if len(row) > 2 else None
        flags = row[3] if len(row) > 3 else 0
        out.append((img, (int(rect[0]), int(rect[1]), int(rect[2]), int(rect[3])),
                    None if area is None else tuple(area), int(flags or 0), int(getattr(spr, "redraws", 0)),
                    _clip_of(spr)))
    return out


def _clip_of(sprite: Any) -> tuple[int, int, int, int] | None:
    clip = getattr(sprite, "get_image_clipping_rect", lambda: None)()
    return None if clip is None else (clip.x, clip.y, clip.w, clip.h)


def _same(a: _Shown, b: _Shown) -> bool:
    return a[0] is b[0] and a[1:] == b[1:]


def _covers(item: _Shown) -> pygame.Rect:
    """The window pixels an element's blit can touch: its picture (or the part drawn) at its place."""
    img, (x, y, _, _), area = item[0], item[1], item[2]
    if area is not None:
        return pygame.Rect(x, y, area[2], area[3])
    return pygame.Rect(x, y, *img.get_size())


class ToolkitLayer:
    """One scene's toolkit elements and the pictures drawn over them (`extra`: the odds chart),
    drawn onto the window. `drawn` is what the last `draw` drew again: None for everything, else
    the rectangles (tests, benchmarks)."""

    def __init__(self) -> None:
        self._last: list[_Shown] | None = None
        self._clear_before = False  # the last frame could be drawn over (see `plan`)
        self.drawn: list[pygame.Rect] | None = None

    @staticmethod
    def over(manager: pygame_gui.UIManager, area: pygame.Rect) -> bool:
        """Whether any visible toolkit element draws on `area`."""
        return any(img.get_width() and img.get_height() and area.colliderect((rect[0], rect[1], *img.get_size()))
                   for img, rect, *_ in manager.get_sprite_group().visible)

    def plan(self, kept: bool, clear: bool) -> bool:
        """Whether this frame draws only what changed: the window still shows the last frame
        (`kept`), and neither this frame nor the last has toolkit elements over the part of the
        window the scene draws itself (`clear`), whose pixels this layer cannot put back. When it
        is False the scene draws its backgrounds whole first, then `draw` draws everything."""
        partial = kept and clear and self._clear_before and self._last is not None
        self._clear_before = clear
        return partial

    def draw(self, surface: pygame.Surface, manager: pygame_gui.UIManager,
             extra: Sequence[tuple[pygame.Surface, pygame.Rect]],
             backdrop: Callable[[pygame.Surface], None], partial: bool) -> None:
        """Draw the toolkit's elements, then `extra`, onto `surface`. With `partial` (see `plan`)
        only the rectangles of what changed since the last draw are drawn again: `backdrop`
        (drawing the scene's backgrounds whole; it is clipped here) first, then everything over
        them, clipped."""
        now = _shown(manager)
        pics = [(pic, (r.x, r.y, r.w, r.h), None, 0, 0, None) for pic, r in extra]
        if now is None or not partial or self._last is None:
            if partial:  # planned as a partial frame, the scene drew no backgrounds
                backdrop(surface)
            manager.draw_ui(surface)
            for pic, r in extra:
                surface.blit(pic, r)
            self._last = None if now is None else now + pics
            self.drawn = None
            return
        now = now + pics
        old = self._last
        damage: dict[tuple[int, int, int, int], pygame.Rect] = {}  # each rectangle once
        for i in range(max(len(old), len(now))):
            a = old[i] if i < len(old) else None
            b = now[i] if i < len(now) else None
            if a is not None and b is not None and _same(a, b):
                continue
            for item in (a, b):
                if item is not None:
                    r = _covers(item)
                    if r.w > 0 and r.h > 0:
                        damage.setdefault((r.x, r.y, r.w, r.h), r)
        self._last = now
        self.drawn = list(damage.values())
        if not damage:
            return
        clip = surface.get_clip()
        try:
            for d in self.drawn:
                surface.set_clip(d.clip(clip))
                backdrop(surface)
                for item in now:
                    if _covers(item).colliderect(d):
                        img, (x, y, _, _), area, flags = item[0], item[1], item[2], item[3]
                        surface.blit(img, (x, y), area, flags)
        finally:
            surface.set_clip(clip)

