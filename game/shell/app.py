"""The application: a window (or a headless surface), the scene stack and the frame loop.

`App.run()` is the real loop. Tests drive the same code one frame at a time:

    app = App.for_scenario(path, size=(1280, 800), headless=True)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g)])
    surface = app.render()

Handled here: window close (asks first when there is unsaved play or something typed and not
sent: game/shell/actions.py),
a terminate signal (SIGTERM, SIGHUP: the unsaved play is kept as a recovery save first, then the
same question: `terminate`), resize, and the shell's keys (game/shell/keys.py: saves, load menu,
quit, fullscreen). Everything else goes to the top scene.
"""

from __future__ import annotations

import math
import os
import signal
import sys
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame
import pygame_gui

from game import paths, startup_gc
from game.core.plugin import Table
from game.shell import actions, launch
from game.shell.contracts import AnimationSpeed, SceneLike, Settings, live_game
from game.shell.keys import scene_key, shell_key
from game.shell.scene import SceneStack
from game.shell.toolkit.manager import ThemedManager

__all__ = ["App", "AnimationSpeed", "Settings"]  # (Settings lives in game.shell.contracts)

THEME_PATH = paths.theme_file()
MIN_SIZE = (960, 600)

FRAMES_DRAWN = "frames drawn:"  # the line `play --frames N` prints after its last frame


@dataclass
class App:
    """The window and its stack of scenes: opens the display, runs the loop, draws the top scene.
    `table`: the rule systems this program has (game/table.py hands it in), for opening a file of
    any of them (load menu, quick load, replay files)."""
    table: Table
    size: tuple[int, int] = (1280, 800)
    headless: bool = False
    settings: Settings = field(default_factory=Settings)

    def __post_init__(self) -> None:
        if self.headless:
            os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
            os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
        if sys.platform.startswith("linux"):
            # The game draws in software and hands SDL a finished frame: show it through X's own
            # shared-memory path. Left to itself, SDL on X11 loads the OpenGL driver stack while
            # opening the window to decide whether to show frames as a GL texture instead
            # (measured under Xvfb with Mesa's software GL: 0.14 s of every start, then 10-14 ms
            # per flip instead of 1 ms). A player's own setting of the variable wins.
            os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        pygame.display.init()
        pygame.font.init()
        self._title = actions.window_title(None)
        self._title_of: tuple[Any, Any] | None = None  # (session, state) the title was made for
        pygame.display.set_caption(self._title)
        pygame.display.set_icon(_icon())
        self.fullscreen = False
        self._windows = 0  # windows opened (a new one holds no picture)
        self._drawn: tuple[Any, ...] | None = None  # what the last render drew (screen_kept)
        self._warmed = False  # warm_up done
        self.screen_kept = False
        self.screen = self._open_window(self.size)
        self.scenes = SceneStack()
        self.running = True
        self.frame = 0
        self.clock = pygame.time.Clock()
        self._ui_first: pygame_gui.UIManager | None = None  # the first scene manager: its theme is shared
        self.terminating: list[int] = []  # terminate signals received, not yet taken by the frame loop

    # ------------------------------------------------------------------ construction helpers
    @classmethod
    def for_scenario(cls, table: Table, path: str | Path | None = None, size: tuple[int, int] = (1280, 800),
                     headless: bool = False, settings: Settings | None = None) -> App:
        """An app showing the game of a scenario (or save) file of any rule system; None = the
        default scenario."""
        if settings is None:
            settings = Settings(animation="instant") if headless else Settings()
        session = launch.open_game(table, path)  # errors here reach the command line as one clear line
        app = cls(table, size=size, headless=headless, settings=settings)
        app.scenes.push(launch.scene_for(app, session))
        return app

    def _open_window(self, size: tuple[int, int]) -> pygame.Surface:
        flags = pygame.RESIZABLE
        if self.fullscreen:
            flags = pygame.FULLSCREEN
            size = (0, 0)
        self._windows += 1
        if self.fullscreen:
            return pygame.display.set_mode(size, flags)
        with warnings.catch_warnings():
            # Leaving fullscreen with SDL's software framebuffer (SDL_FRAMEBUFFER_ACCELERATION=0,
            # set above), the first set_mode keeps the desktop's size and says so in a warning
            # (seen under Xvfb with openbox, 2026-12-03: the 960x600 window came back 1280x800,
            # half off the screen). Asked a second time, SDL gives the window its size back.
            warnings.simplefilter("ignore", RuntimeWarning)
            screen = pygame.display.set_mode(size, flags)
        if screen.get_size() != tuple(size):
            pygame.event.pump()
            screen = pygame.display.set_mode(size, flags)
        return screen

    def make_ui(self) -> pygame_gui.UIManager:
        """A UI manager for one scene, with the project theme. The theme (its parsed colours,
        fonts and shapes) is read once per window and shared by every scene's manager: each
        dialog used to parse both theme files again and start five loader threads (~25 ms)."""
        first = self._ui_first
        if first is None:
            theme = str(THEME_PATH) if THEME_PATH.exists() else None
            ui = ThemedManager(self.screen.get_size(), theme)
            self._ui_first = ui
            return ui
        return ThemedManager(self.screen.get_size(), None, shared=first)

    # ------------------------------------------------------------------ scenes
    def push(self, scene: SceneLike) -> None:
        self.scenes.push(scene)

    def pop(self) -> None:
        self.scenes.pop()
        if not len(self.scenes):
            self.running = False

    def replace(self, scene: SceneLike) -> None:
        self.scenes.replace(scene)

    def quit(self) -> None:
        self.running = False

    def request_quit(self) -> None:
        """The window's close button: ask first when a scene holds something typed and not sent
        (its `unsent`), then when a game has unsaved play (and always keep a recovery save that the
        next start offers to resume): actions.request_quit."""
        actions.request_quit(self)

    # ------------------------------------------------------------------ terminate signals
    TERMINATE_SIGNALS = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))

    def terminate(self, signum: int, frame: Any = None) -> None:
        """The handler of a terminate signal (SIGTERM, SIGHUP: `kill`, a logout, a shutdown;
        SDL alone turned it into a plain close, which only asked and kept nothing). It only notes
        the signal: the next frame (`step`, within IDLE_MS when idle) keeps the unsaved play as a
        recovery save, then quits as the window's close does (actions.on_terminate). Nothing
        else happens in the handler: it may run in the middle of a command."""
        self.terminating.append(signum)

    def catch_terminate(self) -> dict[int, Any]:
        """Take the terminate signals (only in the main thread: Python's rule). Returns the
        handlers they had, for `release_terminate`."""
        before: dict[int, Any] = {}
        for sig in self.TERMINATE_SIGNALS:
            try:
                before[sig] = signal.signal(sig, self.terminate)
            except (ValueError, OSError):  # not the main thread, or a signal this system refuses
                continue
        return before

    @staticmethod
    def release_terminate(before: dict[int, Any]) -> None:
        for sig, handler in before.items():
            try:
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
            except (ValueError, OSError, TypeError):
                continue

    # ------------------------------------------------------------------ frames
    def resize(self, size: tuple[int, int]) -> None:
        size = (max(MIN_SIZE[0], size[0]), max(MIN_SIZE[1], size[1]))
        if not self.fullscreen:
            self.size = size
            if self.screen.get_size() != size:
                self.screen = self._open_window(size)
        for scene in list(self.scenes):
            scene.on_resize(self.screen.get_size())

    def toggle_fullscreen(self) -> None:
        self.fullscreen = not self.fullscreen
        self.screen = self._open_window(self.size)
        for scene in list(self.scenes):
            scene.on_resize(self.screen.get_size())

    def step(self, events: Iterable[pygame.event.Event] | None = None, dt: float = 1 / 60) -> None:
        """Handle a batch of events (default: everything in pygame's queue, including the UI
        toolkit's own events posted during the previous step), then advance time by dt seconds."""
        while self.terminating:
            actions.on_terminate(self, self.terminating.pop(0))
        for event in (pygame.event.get() if events is None else events):
            if event.type == pygame.QUIT:
                self.request_quit()
                continue
            if event.type == pygame.VIDEORESIZE:
                self.resize((event.w, event.h))
                continue
            if event.type == pygame.KEYDOWN and (shell_key(self, event) or scene_key(self, event)):
                continue
            top = self.scenes.top
            if top is not None:
                top.handle_event(event)
        self._show_title()
        top = self.scenes.top
        if top is not None:
            top.update(dt)
            for scene in self.scenes.visible():
                if scene is not top:
                    scene.update_covered(dt)
        self.frame += 1

    def _show_title(self) -> None:
        """The window's title names the game on screen, its rule system and its clock."""
        game = live_game(self)
        seen = (game.session, game.session.state) if game is not None else None
        last = self._title_of
        if seen is not None and last is not None and seen[0] is last[0] and seen[1] is last[1]:
            return  # the same game in the same state: the same title (its summary is not asked again)
        self._title_of = seen
        title = actions.window_title(game.session if game is not None else None)
        if game is None:  # a replay view alone (`replay --view`, a replay file from the menu): its game named
            shown = next((getattr(s, "game_title", "") for s in reversed(list(self.scenes))
                          if s.name == "replay"), "")
            if shown:
                title = f"{title} - replay of {shown}"
        if title != self._title:
            self._title = title
            pygame.display.set_caption(title)

    def render(self) -> pygame.Surface:
        """Draw the visible scenes onto the window surface and return it.

        While it draws, `screen_kept` says whether the window surface still holds the last
        render's picture: the same scenes drawn on the same window, and nothing else drew on it
        since (`forget_screen`). A scene may then draw only what changed on it."""
        visible = self.scenes.visible()
        drawn = (self._windows, self.screen.get_size(), *visible)
        self.screen_kept = drawn == self._drawn
        self._drawn = drawn
        if not visible or visible[0].overlay:
            self.screen.fill((0, 0, 0))
        for scene in visible:
            scene.draw(self.screen)
        return self.screen

    def warm_up(self) -> None:
        """Once, after the first frame: each scene imports what it put off so that the first frame
        came sooner (a battle: the rules' engine and queries, game/systems/tactical/rules/system.py), while the
        player reads that frame, so the first click does not wait for it either."""
        if self._warmed:
            return
        self._warmed = True
        for scene in list(self.scenes):
            scene.warm_up()

    def forget_screen(self) -> None:
        """Something other than render drew on the window surface: the next render draws all."""
        self._drawn = None

    # Idle: with nothing moving the loop sleeps in pygame.event.wait for up to IDLE_MS, then steps
    # and draws once (toasts expire, carets blink, a file dialog's list refreshes). Any input wakes
    # it at once; after input it keeps the full rate for AFTER_INPUT_FRAMES frames so that the UI
    # toolkit's own follow-up events and hover effects are drawn. A heartbeat frame that looks
    # the same as the one on screen is not flipped (under X the flip is most of a frame's cost).
    IDLE_MS = 500
    AFTER_INPUT_FRAMES = 6

    def wants_frames(self) -> bool:
        """True while anything on screen moves: a visible scene asks for frames (animation, held
        pan key, drag), or a mouse button is held down over the window (a drag of any widget)."""
        if any(scene.wants_frames() for scene in self.scenes.visible()):
            return True
        return pygame.mouse.get_focused() and any(pygame.mouse.get_pressed())

    def next_events(self, busy: bool) -> list[pygame.event.Event]:
        """This frame's input. At full rate: everything queued. Idle: wait for the next event (at
        most IDLE_MS), then take it with everything queued behind it."""
        if busy:
            return pygame.event.get()
        first = pygame.event.wait(self.IDLE_MS)
        if first.type == pygame.NOEVENT:
            return []
        return [first, *pygame.event.get()]

    def run(self, max_frames: int = 0, *, max_seconds: float = 0.0, full_rate: bool = False) -> int:
        """The real loop. max_frames > 0 quits after that many drawn frames (start-up timing);
        max_seconds > 0 quits after that much wall time (the idle benchmark); full_rate draws at
        60 frames a second whatever happens (the benchmark's before-and-after baseline)."""
        caught = self.catch_terminate()
        try:
            self._loop(max_frames, max_seconds, full_rate)
        finally:
            self.release_terminate(caught)
        pygame.quit()
        return 0

    def _loop(self, max_frames: int, max_seconds: float, full_rate: bool) -> None:
        drawn = 0
        lively = self.AFTER_INPUT_FRAMES  # the first frames after start-up run at full rate
        started = time.perf_counter()
        last = started
        shown: bytes | None = None  # the picture last flipped by an idle heartbeat
        while self.running and len(self.scenes):
            busy = full_rate or lively > 0 or self.wants_frames()
            if busy:
                self.clock.tick(60)
            events = self.next_events(busy)
            now = time.perf_counter()
            dt, last = now - last, now
            lively = self.AFTER_INPUT_FRAMES if events else max(0, lively - 1)
            # a frame at full rate never jumps more than 0.1 s; idle steps carry their real time
            self.step(events, min(dt, 0.1 if busy else 1.0))
            if not self.running:
                break
            self.render()
            if busy or events:
                pygame.display.flip()
                shown = None
            else:  # an idle heartbeat: show the picture only when it differs from the one on screen
                picture = self.screen.get_buffer().raw
                if picture != shown:
                    pygame.display.flip()
                shown = picture
            drawn += 1
            if drawn == 1:
                startup_gc.settle()  # the first frame is up: collect again (game/startup_gc.py)
            if max_frames and drawn >= max_frames:
                # said at once, so a start-up timing stops at the frame, not at the interpreter's
                # clean-up after it (game/bench/startup.py reads this line)
                print(f"{FRAMES_DRAWN} {drawn}", flush=True)
                break
            if drawn == 1:
                self.warm_up()
            if max_seconds and now - started >= max_seconds:
                break


def _icon() -> pygame.Surface:
    """The window icon: a gold hex with a dark rim (drawn, not loaded)."""
    surf = pygame.Surface((32, 32), pygame.SRCALPHA)
    pts = [(16 + 14 * math.cos(math.radians(60 * i - 90)), 16 + 14 * math.sin(math.radians(60 * i - 90)))
           for i in range(6)]
    pygame.draw.polygon(surf, (201, 164, 92), pts)
    pygame.draw.polygon(surf, (29, 33, 38), pts, 3)
    pygame.draw.circle(surf, (63, 111, 198), (16, 16), 5)
    return surf
