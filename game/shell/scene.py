"""The scene stack: the client is a few scenes (battle, hand-off, end of battle, menus added by
other modules), each with three methods. Only the top scene gets input and updates; scenes
below it are drawn first when the top one says it is an overlay.

A scene never calls pygame.display itself and `draw()` changes nothing: it only reads its state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pygame

from game.shell.contracts import AppContext, SceneLike
from game.shell.keymap import Binding


class Scene:
    """Base class: override what you need. `overlay = True` draws the scene below first."""

    overlay: bool = False
    # When False, scenes below are never drawn (the hand-off blackout relies on this).
    name: str = "scene"
    # True for a screen playing a live game (game.shell.contracts.GameScene: a `session`, `toast`)
    game_scene: bool = False
    # The screen's own keys (game.shell.keymap.Binding), for the F1 help and for the shell to know
    # which keys the screen handles itself: the shell's Esc (quit, asking first), Ctrl+Z / Ctrl+Y
    # (undo / redo) and F1 (help) act on a game screen only when its key map does not name them.
    KEYS: ClassVar[Sequence[Binding]] = ()

    # What `wants_frames` reads: a scene that animates, pans while a key is held or drags sets them.
    anim: Any = None  # an animation queue (anything with `busy`)
    _held: set[int] | frozenset[int] = frozenset()
    _dragging: bool = False

    def __init__(self, app: AppContext) -> None:
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
        if self.anim is not None and self.anim.busy:
            return True
        if self._held or self._dragging:
            return True
        return any(inner is not self and inner.wants_frames() for inner in self.inner_scenes())

    def inner_scenes(self) -> Sequence[SceneLike]:
        """Scenes this one shows inside it (the replay's display, GM mode's battle): their moving
        parts keep the frame rate up too. None by default."""
        return ()

    def typing(self) -> bool:
        """A text box of this screen has the keyboard: the shell leaves it every key it would
        take on a game screen (Esc, the undo and GM keys), so typing never quits or undoes."""
        return False

    def key_map(self) -> Sequence[Binding]:
        """The screen's own keys (`KEYS` unless a scene builds them): the F1 help lists them."""
        return self.KEYS

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """Show a message from the shell in its tone: a confirmation ("Saved to ...") in the
        screen's normal colour, a problem ("Not saved: ...") as a refusal. False (the default):
        the screen has one kind of message, and the shell calls its `toast`."""
        return False

    def after_change(self) -> None:
        """The game's state changed under the screen (the shell's undo or redo): show it afresh.
        Nothing by default (a screen that reads the session every frame needs nothing)."""

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
        self._scenes: list[SceneLike] = []

    def __len__(self) -> int:
        return len(self._scenes)

    def __iter__(self) -> Iterator[SceneLike]:
        return iter(self._scenes)

    @property
    def top(self) -> SceneLike | None:
        return self._scenes[-1] if self._scenes else None

    def push(self, scene: SceneLike) -> None:
        self._scenes.append(scene)
        scene.on_enter()

    def pop(self) -> SceneLike | None:
        if not self._scenes:
            return None
        scene = self._scenes.pop()
        scene.on_exit()
        if self._scenes:
            self._scenes[-1].on_enter()
        return scene

    def replace(self, scene: SceneLike) -> None:
        if self._scenes:
            self._scenes.pop().on_exit()
        self.push(scene)

    def clear(self) -> None:
        while self._scenes:
            self._scenes.pop().on_exit()

    def visible(self) -> list[SceneLike]:
        """The scenes to draw, bottom first: the top one and every overlay chain under it."""
        out: list[SceneLike] = []
        for scene in reversed(self._scenes):
            out.append(scene)
            if not scene.overlay:
                break
        return list(reversed(out))
