"""The UI toolkit's manager as the game uses it: one theme per window, shared by every scene.

Each scene has its own pygame_gui manager; parsing the theme files again and starting a new
resource loader for each dialog cost ~25 ms. `ThemedManager` takes the first manager's theme and
its (already started) resource loader. It reaches into the toolkit in four places, each pinned by
a test in tests/shell/test_toolkit_contract.py: the `resource_loader` keyword and attribute of
`UIManager`, the `create_new_theme` hook it overrides, the global search path of the `i18n`
package pygame_gui loads its translations with, and the `_update_mouse_position` hook through
which `update_pointer_away` hides the pointer from one update (after a hand-off, no widget may
show the previous player's hover or tooltip).
"""

from __future__ import annotations

import sys
from typing import Any

import pygame_gui


class ThemedManager(pygame_gui.UIManager):
    """pygame_gui's manager, optionally with the theme and (already started) resource loader of
    another manager of the same window. Live theme reloading is off: the theme is part of the
    game, not a file players edit while it runs (it cost a file check a second per scene)."""

    def __init__(self, size: tuple[int, int], theme: str | None, shared: pygame_gui.UIManager | None = None) -> None:
        self._shared = shared
        super().__init__(size, theme, enable_live_theme_updates=False,
                         resource_loader=shared.resource_loader if shared is not None else None)
        # each manager adds pygame_gui's translations folder to the toolkit's global search path
        i18n = sys.modules.get("i18n")
        if i18n is not None:  # once is enough
            i18n.load_path[:] = list(dict.fromkeys(i18n.load_path))

    def create_new_theme(self, theme_path: Any = None) -> Any:
        if self._shared is not None:
            return self._shared.get_theme()
        return super().create_new_theme(theme_path)

    def update_pointer_away(self, dt: float) -> None:
        """`update(dt)` as if the pointer were over none of the widgets (it has not moved since the
        screen passed to another player): no widget is hovered and no tooltip opens. pygame_gui
        reads the pointer in its `_update_mouse_position` hook ("so we can mess with it", its own
        comment), shadowed here for the one update."""
        def away() -> None:
            self.mouse_position = (-1, -1)

        self._update_mouse_position = away  # type: ignore[method-assign]
        try:
            self.update(dt)
        finally:
            del self._update_mouse_position
