"""The load menu (Ctrl+O): every save in the saves folder with what its header says.

Only headers are read to build the list (document 1 of each file), so it opens at once even with
long games. Up/Down or a click selects, Enter or "Load" loads, R or "Replay" opens the replay
view of the selected save, Esc closes. A save that cannot be read is listed with the reason;
loading one that turns out broken shows the message (file, line, field) in the menu and the
running game carries on untouched.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from game.core.plugin import Table
from game.core.system import clock_of
from game.io import saves
from game.io.saves import SaveListing
from game.shell import launch, savegame
from game.shell.contracts import AppContext
from game.shell.draw import shade
from game.shell.launch import open_replay_file
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import RichTextBox, Span, Styled, styled

ROWS = 10


def _when(listing: SaveListing) -> str:
    if listing.header is not None:
        try:
            return _dt.datetime.fromisoformat(listing.header.saved_at).strftime("%d %b %H:%M")
        except ValueError:
            return listing.header.saved_at
    return _dt.datetime.fromtimestamp(listing.modified).strftime("%d %b %H:%M")


def system_words(table: Table, game: str) -> tuple[str, str]:
    """(the rule system's title, its clock word) for a save's `system`: ("Ascension Isle campaign",
    "week"); a system this program does not have keeps its name and "round"."""
    if game not in table:
        return game, "round"
    system = table.plugin_named(game).system
    return system.title, clock_of(system)


def row_text(listing: SaveListing, folder: Path, clock: str = "round") -> str:
    """One line of the list: name, title, the system's clock ("week 3") and phase, side to move,
    date."""
    try:
        name = listing.path.relative_to(folder).as_posix()
    except ValueError:
        name = listing.path.name
    h = listing.header
    if h is None:
        return f"{name}  —  cannot be read"
    who = f"{saves.side_name(h, h.to_move)} to play" if h.to_move else "battle over"
    gm = " · GM" if h.gm_mode else ""
    return f"{name}  —  {h.title} · {clock} {h.round}, {h.phase} · {who} · {_when(listing)}{gm}"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


BAD = (255, 122, 106)
GM = (255, 200, 87)
QUIET = (156, 150, 138)


def details(listing: SaveListing, system: tuple[str, str] = ("", "round")) -> Styled:
    """The selected save, as styled pieces: `system` is (its rule system's title, its clock word)."""
    h = listing.header
    if h is None:
        return styled(Span("This file cannot be read.", bold=True, colour=BAD), "\n", listing.error or "")
    sides = ", ".join(saves.side_name(h, s) for s in h.sides)
    title, clock = system
    who = f"{saves.side_name(h, h.to_move)} to play" if h.to_move else "the game is over"
    return styled(Span(h.title, bold=True), "\n",
                  f"Rule system: {title}\n" if title else "",
                  f"Scenario: {h.scenario}\n",
                  f"{clock.capitalize()} {h.round} · {h.phase} · {who}\n",
                  f"Sides: {sides}\n",
                  f"{h.commands} commands played · saved {h.saved_at.replace('T', ' ')}",
                  *((" · ", Span("GM mode", colour=GM)) if h.gm_mode else ()),
                  "\n", Span(str(listing.path), colour=QUIET))


class LoadMenuScene(Scene):
    overlay = True
    name = "load_menu"

    def __init__(self, app: AppContext, folder: Path | None = None,
                 on_replay: Callable[[Path], None] | None = None) -> None:
        super().__init__(app)
        self.folder = folder or savegame.saves_dir()
        self.on_replay = on_replay
        self.listings: list[SaveListing] = saves.list_saves(self.folder)
        self.index = 0
        self.page = 0
        self.message: str | None = None
        self.row_buttons: dict[object, int] = {}
        self.ui = app.make_ui()
        self._build()

    # ------------------------------------------------------------------ building
    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self.row_buttons.clear()
        w, h = self.app.screen.get_size()
        bw, bh = min(900, w - 40), min(620, h - 40)
        self.rect = pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)
        panel = pygame_gui.elements.UIPanel(self.rect, manager=self.ui)
        title = f"Load a saved game ({len(self.listings)} in {self.folder})"
        pygame_gui.elements.UILabel(pygame.Rect(12, 8, bw - 24, 28), title, self.ui, container=panel,
                                    object_id=pygame_gui.core.ObjectID(class_id="@title"))
        top = 44
        if not self.listings:
            pygame_gui.elements.UILabel(pygame.Rect(12, top, bw - 24, 28),
                                        "No saves yet: F5 quick-saves the battle you are playing.",
                                        self.ui, container=panel)
        first = self.page * ROWS
        for i, listing in enumerate(self.listings[first:first + ROWS]):
            n = first + i
            clock = self._system(listing)[1]
            text = ("> " if n == self.index else "") + _clip(row_text(listing, self.folder, clock), 118)
            oid = pygame_gui.core.ObjectID(class_id="@primary") if n == self.index else (
                None if listing.ok else pygame_gui.core.ObjectID(class_id="@danger"))
            btn = Button(pygame.Rect(12, top + i * 32, bw - 24, 30), text, self.ui,
                                               container=panel, object_id=oid)
            self.row_buttons[btn] = n
        details_top = top + ROWS * 32 + 6
        body = details(self.listings[self.index], self._system(self.listings[self.index])) if self.listings else ()
        if self.message:
            body = styled(Span("Not loaded: ", bold=True, colour=BAD), Span(self.message, colour=BAD), "\n") + body
        self.details = RichTextBox(body, pygame.Rect(12, details_top, bw - 24, bh - details_top - 60), self.ui,
                                   container=panel)
        pages = max(1, (len(self.listings) + ROWS - 1) // ROWS)
        x_left = bw - 12 - 3 * 150 - 2 * 10
        pygame_gui.elements.UILabel(pygame.Rect(12, bh - 50, x_left - 20, 38),
                                    f"Page {self.page + 1}/{pages} · Up/Down · Enter load · R replay",
                                    self.ui, container=panel)
        x = bw - 12 - 3 * 150 - 2 * 10
        self.load_button = Button(
            pygame.Rect(x, bh - 50, 150, 38), "Load", self.ui, container=panel,
            object_id=pygame_gui.core.ObjectID(class_id="@primary"))
        self.replay_button = Button(pygame.Rect(x + 160, bh - 50, 150, 38), "Replay",
                                                          self.ui, container=panel)
        self.close_button = Button(pygame.Rect(x + 320, bh - 50, 150, 38), "Close",
                                                         self.ui, container=panel)
        if not self.listings:
            self.load_button.disable()  # type: ignore[no-untyped-call]
            self.replay_button.disable()  # type: ignore[no-untyped-call]

    def _system(self, listing: SaveListing) -> tuple[str, str]:
        return system_words(self.app.table, listing.header.system) if listing.header is not None else ("", "round")

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    # ------------------------------------------------------------------ actions
    @property
    def selected(self) -> SaveListing | None:
        return self.listings[self.index] if self.listings else None

    def select(self, index: int) -> None:
        if not self.listings:
            return
        self.index = max(0, min(len(self.listings) - 1, index))
        self.page = self.index // ROWS
        self.message = None
        self._build()

    def load_selected(self) -> bool:
        listing = self.selected
        if listing is None:
            return False
        problem = launch.load_into(self.app, listing.path)
        if problem is not None:
            self.message = problem
            self._build()
            return False
        return True  # load_into replaced the whole stack, this menu included

    def replay_selected(self) -> None:
        listing = self.selected
        if listing is None:
            return
        if self.on_replay is not None:
            self.on_replay(listing.path)
            return

        problem = open_replay_file(self.app, listing.path)
        if problem is not None:
            self.message = problem
            self._build()

    def close(self) -> None:
        self.app.pop()

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            el = event.ui_element
            if el in self.row_buttons:
                n = self.row_buttons[el]
                if n == self.index:
                    self.load_selected()
                else:
                    self.select(n)
            elif el is self.load_button:
                self.load_selected()
            elif el is self.replay_button:
                self.replay_selected()
            elif el is self.close_button:
                self.close()
            return
        if self.ui.process_events(event):
            return
        if event.type != pygame.KEYDOWN:
            return
        k = event.key
        if k == pygame.K_ESCAPE:
            self.close()
        elif k in (pygame.K_DOWN, pygame.K_s):
            self.select(self.index + 1)
        elif k in (pygame.K_UP, pygame.K_w):
            self.select(self.index - 1)
        elif k == pygame.K_PAGEDOWN:
            self.select(self.index + ROWS)
        elif k == pygame.K_PAGEUP:
            self.select(self.index - ROWS)
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.load_selected()
        elif k == pygame.K_r:
            self.replay_selected()

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        shade(surface, 150)
        self.ui.draw_ui(surface)
