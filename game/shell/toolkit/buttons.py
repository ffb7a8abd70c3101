"""The game's buttons: the UI toolkit's button (its events, hovering, pressing, tooltips, enabling)
with its look drawn by the project.

pygame_gui draws a rounded button's look with a general shape machinery: every state (normal,
hovered, disabled, selected, active) laid out with its text-layout system, corners supersampled
through several intermediate surfaces, the states drawn one per frame until all are made.
That is ~2.5 ms a button (the top bar's four and the briefing's button are 12 ms of the game's
first frame; docs/performance.md, "Ninth pass"). `Button` keeps the toolkit's element and gives it
`_Look`, which draws a state only when it is first shown: the border and background as two
rounded rectangles at four times the size, scaled down smoothly (anti-aliased corners, as the
toolkit's), the label centred in the theme's font and colour (premultiplied, as the toolkit
blends its elements). The colours, border width and corner radius are the theme's own, read by
the toolkit's button as before.

A look this does not draw (images, a text shadow, a shadow, state transitions, a non-rounded
shape, text not centred, a size that follows the text) goes to the toolkit's own drawing.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui
from pygame_gui.core.utility import translate

STATES = ("normal", "hovered", "disabled", "selected", "active")
AA = 4  # the supersampling of the corners, as the toolkit's


def _premultiplied(colour: Any) -> tuple[int, int, int, int]:
    c = pygame.Color(colour)
    a = c.a
    return (c.r * a // 255, c.g * a // 255, c.b * a // 255, a)


class _Look:
    """A button's pictures, one per state, drawn when first shown; what the toolkit's element asks
    of a drawable shape (the state shown, a fresh picture, the text, where and how big)."""

    def __init__(self, button: Button) -> None:
        self.button = button
        self.rect = button.rect.copy()
        self.text = translate(button.text, **button.text_kwargs)
        self.state = "normal"
        self.dynamic_width = False
        self.dynamic_height = False
        self._drawn: dict[str, pygame.Surface] = {}
        self._fresh = True

    # -------------------------------------------------------------- what the element asks
    def set_active_state(self, state: str) -> None:
        if state in STATES and state != self.state:
            self.state = state
            self._fresh = True

    def has_fresh_surface(self) -> bool:
        return self._fresh

    def get_fresh_surface(self) -> pygame.Surface:
        self._fresh = False
        return self.picture(self.state)

    def update(self, time_delta: float) -> None:
        """(Nothing to draw ahead: a state is drawn when first shown.)"""

    def collide_point(self, point: Any) -> bool:
        return bool(self.rect.collidepoint(point))

    def set_position(self, point: Any) -> None:
        self.rect.topleft = (int(point[0]), int(point[1]))

    def set_dimensions(self, dimensions: Any) -> bool:
        size = (int(dimensions[0]), int(dimensions[1]))
        if size == self.rect.size:
            return False
        self.rect.size = size
        self._drawn.clear()
        self._fresh = True
        return True

    def set_text(self, text: str) -> None:
        if text != self.text:
            self.text = text
            self._drawn.clear()
            self._fresh = True

    # -------------------------------------------------------------- drawing
    def picture(self, state: str) -> pygame.Surface:
        """The button in a state (drawn once, until its text or size changes)."""
        pic = self._drawn.get(state)
        if pic is None:
            pic = self._drawn[state] = self._draw(state)
        return pic

    def _draw(self, state: str) -> pygame.Surface:
        b = self.button
        w, h = max(1, self.rect.w), max(1, self.rect.h)
        border = max(0, int(b.border_width.get("left", 1)))
        corners = b.shape_corner_radius
        radius = max(0, int(corners[0] if isinstance(corners, list | tuple) else corners))
        big = pygame.Surface((w * AA, h * AA), pygame.SRCALPHA)  # clear
        outer = big.get_rect()
        # colours premultiplied: the toolkit blends its elements' pictures premultiplied
        if border:
            pygame.draw.rect(big, _premultiplied(b.colours[f"{state}_border"]), outer, border_radius=radius * AA)
        inner = outer.inflate(-2 * border * AA, -2 * border * AA)
        pygame.draw.rect(big, _premultiplied(b.colours[f"{state}_bg"]), inner,
                         border_radius=max(0, (radius - border) * AA))
        pic = pygame.transform.smoothscale(big, (w, h))
        if self.text and b.font is not None:
            ink = b.colours[f"{state}_text"]
            assert isinstance(ink, pygame.Color)  # (Button.rebuild: plain colours only)
            line = b.font.render_premul(self.text, ink)
            at = (w // 2 - line.get_width() // 2, h // 2 - line.get_height() // 2)  # (as the toolkit rounds)
            pic.blit(line, at, special_flags=pygame.BLEND_PREMULTIPLIED)
        return pic


class Button(pygame_gui.elements.UIButton):
    """pygame_gui's button (same arguments, events and behaviour) with its look drawn by `_Look`."""

    def rebuild(self) -> None:
        plain = (self.shape == "rounded_rectangle" and not self.dynamic_width and not self.dynamic_height
                 and self.text_horiz_alignment == "center" and self.text_vert_alignment == "center"
                 and not self.state_transitions and not self.text_shadow_size and self.shadow_width == 0
                 and not any((self.normal_images, self.hovered_images, self.disabled_images,
                              self.selected_images))
                 and all(isinstance(self.colours.get(f"{s}_{part}"), pygame.Color)
                         for s in STATES for part in ("bg", "border", "text")))
        if not plain:
            super().rebuild()  # type: ignore[no-untyped-call]  # the toolkit's own drawing
            return
        look = _Look(self)
        if not self.is_enabled:
            look.set_active_state("disabled")
        self.drawable_shape = look  # type: ignore[assignment]  # (what the element asks of a shape)
        self.on_fresh_drawable_shape_ready()  # type: ignore[no-untyped-call]
        self._on_contents_changed()  # type: ignore[no-untyped-call]
