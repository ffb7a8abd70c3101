"""Drawing the UI toolkit's elements (pygame_gui) onto the window.

The toolkit draws every visible element every frame. Drawing only the elements that changed
(a layer that compared each element's picture, place and clip with the last frame's and drew
again only those rectangles) was measured again for issue 27: 0.3 ms of a hover frame at
1280 x 800 (render 0.21-0.31 ms with it, 0.52-0.58 ms without; a frame is 16.7 ms), which no
player can see, bought with five of the toolkit's private fields. It was removed
(docs/performance.md, "Issue 27: the toolkit fenced").

`elements_over` still tells a scene whether an element lies over a part of the window it keeps
drawn itself (the battle's map view keeps its last picture when nothing is over it).
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame
import pygame_gui
from pygame_gui.elements import UITooltip


def elements_over(manager: pygame_gui.UIManager, area: pygame.Rect) -> bool:
    """Whether any visible toolkit element draws on `area` (the toolkit's list of what it blits:
    its sprite group's `visible`, pictures and rectangles; tests/shell/test_toolkit_contract.py)."""
    return any(img.get_width() and img.get_height() and area.colliderect((rect[0], rect[1], *img.get_size()))
               for img, rect, *_ in manager.get_sprite_group().visible)


def draw_toolkit(surface: pygame.Surface, manager: pygame_gui.UIManager,
                 extra: Sequence[tuple[pygame.Surface, pygame.Rect]] = ()) -> None:
    """The toolkit's elements, then `extra` pictures (the odds chart) over them, then a tooltip
    showing again over those (a button's tooltip that reaches down over the chart was cut by it)."""
    manager.draw_ui(surface)
    for pic, rect in extra:
        surface.blit(pic, rect)
    if not extra:
        return
    for tip in manager.get_sprite_group().sprites():
        if isinstance(tip, UITooltip) and tip.visible:
            parts = [tip] if tip.text_block is None else [tip, tip.text_block]
            for part in parts:
                if part.image is not None and part.visible:
                    surface.blit(part.image, part.rect, special_flags=part.blendmode)
