"""The scene stack: the client is a few scenes (battle, hand-off, end of battle, menus added by
other modules), each with three methods. Only the top scene gets input and updates; scenes
below it are drawn first when the top one says it is an overlay.

A scene never calls pygame.display itself and `draw()` changes nothing: it only reads its state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:
    from game.shell.app import App


class Scene:
    """Base class: override what you need. `overlay = True` draws the scene below first."""

    overlay: bool = False
    # When False, scenes below are never drawn (the hand-off blackout relies on this).
    name: str = "scene"

    def __init__(self, app: App) -> None:
        self.app = app

    def handle_event(self, event: pygame.event.Event) -> None:
        """One input event (already offered to the UI toolkit)."""

    def update(self, dt: float) -> None:
        """Advance time by dt seconds (animations, timers)."""

    def update_covered(self, dt: float) -> None:
        """Called instead of update() while the scene is drawn under an overlay (no game time
        passes for it; widgets may refresh their pictures)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Paint the scene. Must not change any state."""

    def wants_frames(self) -> bool:
        """True while the scene needs frames at the full rate with no input: something animates,
        pans (a key held) or is dragged. The app then stops waiting for events. The default reads
        the attributes the shell's scenes share (an `anim` player that is busy, held keys, a drag
        in progress); a scene with other moving parts overrides this. Timed things that do not
        move (a toast counting down, a caret blinking) need no full rate: the app still steps
        every scene a few times a second while idle (App.IDLE_MS, half a second)."""
        anim = getattr(self, "anim", None)
        if anim is not None and getattr(anim, "busy", False):
            return True
        if getattr(self, "_held", None) or getattr(self, "_dragging", False):
            return True
        # a scene showing another one inside it (the replay's `view`, GM mode's `battle`)
        for name in ("view", "battle"):
            inner = getattr(self, name, None)
            if isinstance(inner, Scene) and inner is not self and inner.wants_frames():
                return True
        return False

    def warm_up(self) -> None:
        """Import what this scene put off at start-up (once its first frame is on screen, while the
        player looks at it): by default nothing."""

    def on_enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed or uncovered)."""

    def on_exit(self) -> None:
        """Called when the scene leaves the stack (popped or replaced)."""

    def on_resize(self, size: tuple[int, int]) -> None:
        """The window changed size."""


class SceneStack:
    def __init__(self) -> None:
        self._scenes: list[Scene] = []

    def __len__(self) -> int:
        return len(self._scenes)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._scenes)

    @property
    def top(self) -> Scene | None:
        return self._scenes[-1] if self._scenes else None

    def push(self, scene: Scene) -> None:
        self._scenes.append(scene)
        scene.on_enter()

    def pop(self) -> Scene | None:
        if not self._scenes:
            return None
        scene = self._scenes.pop()
        scene.on_exit()
        if self._scenes:
            self._scenes[-1].on_enter()
        return scene

    def replace(self, scene: Scene) -> None:
        if self._scenes:
            self._scenes.pop().on_exit()
        self.push(scene)

    def clear(self) -> None:
        while self._scenes:
            self._scenes.pop().on_exit()

    def visible(self) -> list[Scene]:
        """The scenes to draw, bottom first: the top one and every overlay chain under it."""
        out: list[Scene] = []
        for scene in reversed(self._scenes):
            out.append(scene)
            if not scene.overlay:
                break
        return list(reversed(out))
