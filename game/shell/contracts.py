"""The shell's contracts: what its modules need of the App and of a game's scene, as types.

The App (game/shell/app.py) owns the window, the scene stack and the frame loop, and it imports
the modules that act for it (keys, actions, launch). Those modules, the scenes and every rule
system's client need only a little of it: the window surface, the stack, a UI manager, the table
of systems, the player's settings. They are typed against `AppContext` here, not against `App`,
so that nothing below the App imports it (no import loop, TYPE_CHECKING imports included).

`GameScene` is what the shell's actions (saves, undo and redo, help, quitting, the autosave) ask
of a screen that plays a live game, whatever its rule system; `Scene` (game/shell/scene.py)
gives every scene the optional parts (`after_change`, `key_map`), so a system's scene needs only
`game_scene = True`, a `session` and `toast`.

`HoldsUnsent` is the optional hook by which any scene on the stack says what quitting would throw
away that is in no save (a story post typed and not posted, orders chosen in part): the shell
asks every scene before the window closes (`unsent_lines`; actions.request_quit), so no path to
quitting (Esc, Ctrl+Q, the window's close button, from the hand-off or a dialog) loses it unasked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeGuard, runtime_checkable

import pygame
import pygame_gui

from game.core.plugin import Table
from game.shell.keymap import Binding
from game.shell.session import Session

AnimationSpeed = Literal["normal", "fast", "instant"]


@dataclass
class Settings:
    """Player-facing options (the battle scene's menu changes them)."""

    animation: AnimationSpeed = "normal"
    blackout: bool = True            # hide the map between sides (off for a GM at the table)
    ask_defensive: bool = True       # ask the defender about a defensive action
    confirm_end_phase: bool = True   # confirm ending a phase when units have not acted
    show_grid: bool = True
    think_seconds: float = 1.0       # the time a computer seat may think over one decision (--think, P)

    def speed_factor(self) -> float:
        """Multiplier on animation time: 0 means instant."""
        return {"normal": 1.0, "fast": 0.35, "instant": 0.0}[self.animation]


class SceneLike(Protocol):
    """One screen on the stack (game/shell/scene.py `Scene` is the base every scene uses)."""

    overlay: bool
    name: str
    game_scene: bool

    def handle_event(self, event: pygame.event.Event) -> None: ...
    def update(self, dt: float) -> None: ...
    def update_covered(self, dt: float) -> None: ...
    def draw(self, surface: pygame.Surface) -> None: ...
    def wants_frames(self) -> bool: ...
    def warm_up(self) -> None: ...
    def on_enter(self) -> None: ...
    def on_exit(self) -> None: ...
    def on_resize(self, size: tuple[int, int]) -> None: ...
    def key_map(self) -> Sequence[Binding]: ...
    def typing(self) -> bool: ...


class SceneStackView(Protocol):
    """The stack of scenes as the scenes see it (bottom first)."""

    def __iter__(self) -> Iterator[SceneLike]: ...
    def __len__(self) -> int: ...
    @property
    def top(self) -> SceneLike | None: ...
    def visible(self) -> list[SceneLike]: ...
    def clear(self) -> None: ...


class AppContext(Protocol):
    """What a scene and the shell's actions need of the App."""

    @property
    def table(self) -> Table: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def screen(self) -> pygame.Surface: ...
    @property
    def screen_kept(self) -> bool: ...
    @property
    def scenes(self) -> SceneStackView: ...

    def push(self, scene: SceneLike) -> None: ...
    def pop(self) -> None: ...
    def replace(self, scene: SceneLike) -> None: ...
    def quit(self) -> None: ...
    def request_quit(self) -> None: ...
    def make_ui(self) -> pygame_gui.UIManager: ...
    def toggle_fullscreen(self) -> None: ...
    def forget_screen(self) -> None: ...


@runtime_checkable
class GameScene(SceneLike, Protocol):
    """A screen playing a live game of any rule system: what saving, loading, undo and redo, the
    help, quitting and the autosave ask of it."""

    session: Session

    @property
    def app(self) -> AppContext: ...

    def toast(self, text: str, seconds: float = 3.0, /) -> None:
        """Show a short message (saved, loaded, refused) where the screen shows such things."""
        ...

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A message in its tone (Scene's default: False, the shell then calls `toast`)."""
        ...

    def after_change(self) -> None:
        """The session's state changed under the screen (an undo, a redo): show it afresh."""
        ...


@runtime_checkable
class HoldsUnsent(Protocol):
    """A scene holding what the players typed or chose and have not sent (optional: most do not)."""

    def unsent(self) -> list[str]:
        """One line for each thing quitting now would throw away, for the question the shell
        asks (naming whose it is and what it is, not what was typed). Empty: nothing."""
        ...


def unsent_lines(app: AppContext) -> list[str]:
    """What every scene on the stack holds unsent (`HoldsUnsent`), bottom first."""
    return [line for s in app.scenes if isinstance(s, HoldsUnsent) for line in s.unsent()]


def tell(scene: GameScene, text: str, seconds: float = 3.0, *, problem: bool = False) -> None:
    """A message from the shell to a game screen: confirmations in the normal colour, problems
    (refused, failed) as refusals, where the screen tells them apart."""
    if not scene.notify(text, seconds, problem):
        scene.toast(text, seconds)


_CHECKED: dict[type, bool] = {}  # a runtime protocol check is ~60 us: once per class of scene


def is_game_scene(scene: object) -> TypeGuard[GameScene]:
    """A scene that plays a live game (not a dialog, a menu, a replay's display)."""
    if not getattr(scene, "game_scene", False):
        return False
    kind = type(scene)
    known = _CHECKED.get(kind)
    if known is None:
        known = _CHECKED[kind] = isinstance(scene, GameScene)
    return known


def game_scenes(app: AppContext) -> list[GameScene]:
    """The scenes on the stack playing a live game (any rule system), bottom first."""
    return [s for s in app.scenes if is_game_scene(s)]


def live_game(app: AppContext) -> GameScene | None:
    """The game being played: the highest game scene on the stack."""
    scenes = game_scenes(app)
    return scenes[-1] if scenes else None
