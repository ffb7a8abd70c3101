"""The load menu (Ctrl+O): every save in the saves folder with what its header says.

Only headers are read to build the list (document 1 of each file), so it opens at once even with
long games. Up/Down or a click selects, Enter or "Load" loads, R or "Replay" opens the replay
view of the selected save, Delete (the key or the button) deletes it after asking, Esc closes.
A save that cannot be read is listed with the reason; loading one that turns out broken shows the
message (file, line, field) in the menu and the running game carries on untouched.

Delete never erases: the question names the save (scenario, when it was saved, what kind of save)
and where it goes, then the file moves into `deleted/` in the saves folder (savegame.delete_save),
which is never listed here. The save the game being played was loaded from, and its quick save,
are said to be the current game's in the question. A move the system refuses (a read-only folder)
is reported in the menu with the file and the reason, and nothing moves.

The shell's game keys (F2, F3, Ctrl+Z, Ctrl+Y, Ctrl+B) act on the game, not on a menu over it: here
they say so (`take_shell_key`); F5 and Ctrl+S save and the list shows the new save; F9 loads the
quick save, or says there is none.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Callable
from pathlib import Path

import pygame
import pygame_gui

from game.core.errors import GameFileError
from game.core.plugin import Table
from game.core.system import clock_of
from game.io import saves
from game.io.saves import SaveListing
from game.io.sniff import sniff_kind
from game.shell import fonts, launch, savegame
from game.shell.contracts import AppContext, game_scenes, live_game, tell
from game.shell.draw import shade
from game.shell.keymap import Binding
from game.shell.launch import open_replay_file
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import RichTextBox, Span, Styled, styled

ROWS = 10
DELETE_KEYS = (pygame.K_DELETE, pygame.K_BACKSPACE)


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


ROW_FONT = 14  # the theme's button text (the selected row's is bold: wider)


def fit(text: str, width: int, bold: bool = False) -> str:
    """`text` cut with "..." to fit `width` pixels in the rows' font."""
    font = fonts.font(ROW_FONT, bold)
    if font.size(text)[0] <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest cut that fits
        mid = (lo + hi + 1) // 2
        if font.size(text[:mid] + "...")[0] <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "..."


def folder_title(count: int, folder: Path, width: int) -> str:
    """The menu's title, "Load a saved game (N in FOLDER)", fitted to `width` pixels in the
    title's font: a folder too long gives up its first parts ("…/" in their place), never its
    last (the whole path is in the selected save's details). It was cut at the panel's edge,
    mid-name, its ")" lost."""
    font = fonts.font(16, True)
    parts = folder.parts
    for start in range(len(parts)):
        shown = str(folder) if start == 0 else "…" + os.sep + os.sep.join(parts[start:])
        title = f"Load a saved game ({count} in {shown})"
        if font.size(title)[0] <= width:
            return title
    return f"Load a saved game ({count} in …{os.sep}{folder.name})"


BAD = (255, 122, 106)
GM = (255, 200, 87)
QUIET = (156, 150, 138)
DONE = (150, 214, 140)


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


def save_kind(listing: SaveListing, folder: Path) -> str:
    """What kind of save a file is, for the Delete question: by where it is and its name."""
    path = listing.path
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        parts = (path.name,)
    stem = path.stem
    if listing.header is None:
        return "a file that cannot be read as a save"
    if savegame.AUTOSAVE_DIR in parts[:-1] or stem.startswith("autosave-"):
        return "an autosave (made at each new round, the last few kept)"
    if stem.startswith("quicksave-"):
        return "a quick save (F5; F9 loads it)"
    if stem.startswith("recovery") and "-dismissed" in stem:
        return "a recovery save set aside at a start (a game left unfinished)"
    if stem.startswith("recovery"):
        return "a recovery save (a game left unfinished; the next start offers it)"
    if stem.startswith("emergency-"):
        return "an emergency save (written when the game crashed)"
    if "-before-branch" in stem:
        return "the save made before a GM branch in the replay view"
    return "a save (Ctrl+S, or a file put in the saves folder)"


def _same(a: Path | None, b: Path) -> bool:
    if a is None:
        return False
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


SETUP_KINDS = ("yaml", "commands", "save", "broken", "")  # sniff_kind's answers that are no set-up file


def is_setup_file(path: Path, table: Table | None = None) -> bool:
    """Whether a file whose header cannot be read is a set-up file, not a save: a scenario, a
    campaign's battle file made to fight a battle out (`battles/<campaign>-B1-tactical.yaml`), a
    mass battle file, a map... (game.io.sniff). Such a file is not listed: it is not a broken save,
    and deleting it would break what uses it."""
    return sniff_kind(path, table.sniff if table is not None else None) not in SETUP_KINDS


def listed(folder: Path, table: Table | None = None) -> list[SaveListing]:
    """The saves the menu lists: every save in the folder and its sub-folders but `deleted/`, and
    no set-up file (is_setup_file: a file that cannot be read as a save is looked at again)."""
    out = []
    for listing in saves.list_saves(folder):
        try:
            parts = listing.path.relative_to(folder).parts
        except ValueError:
            parts = ()
        if savegame.DELETED_DIR in parts[:-1]:
            continue
        if listing.header is None and is_setup_file(listing.path, table):
            continue
        out.append(listing)
    return out


class LoadMenuScene(Scene):
    overlay = True
    name = "load_menu"
    REFUSED_SHELL_KEYS = ("Ctrl+B",)  # (it only says to close the menu first: not in its F1 help)
    KEYS = (Binding((pygame.K_UP, pygame.K_DOWN), "Up / Down", "select a save (PageUp / PageDown: a page)"),
            Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "load the selected save (or click it again)"),
            Binding((pygame.K_r,), "R", "replay view of the selected save"),
            Binding(DELETE_KEYS, "Delete or Backspace", "delete the selected save (asks first; it moves to "
                    "deleted/ in the saves folder, never erased)"),
            Binding((pygame.K_ESCAPE,), "Esc", "close the menu"))

    def __init__(self, app: AppContext, folder: Path | None = None,
                 on_replay: Callable[[Path], None] | None = None) -> None:
        super().__init__(app)
        self.folder = folder or savegame.saves_dir()
        self.on_replay = on_replay
        self.listings: list[SaveListing] = listed(self.folder, self.app.table)
        self.index = 0
        self.page = 0
        self.message: str | None = None  # a problem (shown in the refusal colour after `heading`)
        self.heading = "Not loaded"
        self.note: str | None = None  # a confirmation ("Moved ... to ...")
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
        title = folder_title(len(self.listings), self.folder, bw - 32)
        pygame_gui.elements.UILabel(pygame.Rect(12, 8, bw - 24, 28), title, self.ui, container=panel,
                                    object_id=pygame_gui.core.ObjectID(class_id="@title"))
        top = 44
        if not self.listings:
            pygame_gui.elements.UILabel(pygame.Rect(12, top, bw - 24, 28),
                                        "No saves yet: F5 quick-saves the game you are playing.",
                                        self.ui, container=panel)
        first = self.page * ROWS
        for i, listing in enumerate(self.listings[first:first + ROWS]):
            n = first + i
            clock = self._system(listing)[1]
            text = fit(("> " if n == self.index else "") + _clip(row_text(listing, self.folder, clock), 118),
                       bw - 24 - 24, bold=n == self.index)
            oid = pygame_gui.core.ObjectID(class_id="@primary") if n == self.index else (
                None if listing.ok else pygame_gui.core.ObjectID(class_id="@danger"))
            btn = Button(pygame.Rect(12, top + i * 32, bw - 24, 30), text, self.ui,
                                               container=panel, object_id=oid)
            self.row_buttons[btn] = n
        details_top = top + ROWS * 32 + 6
        body = details(self.listings[self.index], self._system(self.listings[self.index])) if self.listings else ()
        if self.message:
            head = (Span(f"{self.heading}: ", bold=True, colour=BAD),) if self.heading else ()
            body = styled(*head, Span(self.message, colour=BAD), "\n") + body
        elif self.note:
            body = styled(Span(self.note, colour=DONE), "\n") + body
        self.details = RichTextBox(body, pygame.Rect(12, details_top, bw - 24, bh - details_top - 60), self.ui,
                                   container=panel)
        pages = max(1, (len(self.listings) + ROWS - 1) // ROWS)
        bwid, gap = 130, 10
        x = bw - 12 - 4 * bwid - 3 * gap
        pygame_gui.elements.UILabel(pygame.Rect(12, bh - 50, x - 20, 38),
                                    f"Page {self.page + 1}/{pages} · Enter load · R replay · Del delete",
                                    self.ui, container=panel)
        self.load_button = Button(
            pygame.Rect(x, bh - 50, bwid, 38), "Load", self.ui, container=panel,
            object_id=pygame_gui.core.ObjectID(class_id="@primary"))
        self.replay_button = Button(pygame.Rect(x + (bwid + gap), bh - 50, bwid, 38), "Replay",
                                    self.ui, container=panel)
        self.delete_button = Button(pygame.Rect(x + 2 * (bwid + gap), bh - 50, bwid, 38), "Delete",
                                    self.ui, container=panel)
        self.close_button = Button(pygame.Rect(x + 3 * (bwid + gap), bh - 50, bwid, 38), "Close",
                                   self.ui, container=panel)
        if not self.listings:
            self.load_button.disable()  # type: ignore[no-untyped-call]
            self.replay_button.disable()  # type: ignore[no-untyped-call]
            self.delete_button.disable()  # type: ignore[no-untyped-call]

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
        self.message = self.note = None
        self._build()

    def _problem(self, heading: str, text: str) -> None:
        self.heading, self.message, self.note = heading, text, None
        self._build()

    def _done(self, text: str) -> None:
        self.message, self.note = None, text
        self._build()

    def refresh(self, index: int | None = None) -> None:
        """Read the folder again, keeping the selection at `index` (default: where it was)."""
        self.listings = listed(self.folder, self.app.table)
        want = self.index if index is None else index
        self.index = max(0, min(len(self.listings) - 1, want))
        self.page = self.index // ROWS

    def _nothing(self, what: str) -> None:
        """A key with no save to act on: said (QA: Delete, R and Enter did nothing and said nothing)."""
        self._problem(f"Nothing to {what}", f"There is no save in {self.folder} to {what}.")

    def load_selected(self) -> bool:
        """Load the selected save over the game being played; when that game has moves since its
        last save, ask first (Load keeps them in the recovery save, as F9 does)."""
        listing = self.selected
        if listing is None:
            self._nothing("load")
            return False
        live = live_game(self.app)
        session = getattr(live, "session", None)
        if session is not None and session.history and len(session.history) != (session.saved_steps or 0):
            def load() -> None:
                try:
                    kept = savegame.keep_recovery(session)  # nothing is lost: the next start offers to resume it
                except (GameFileError, OSError) as exc:
                    self._problem("Not loaded", f"the moves since the last save could not be kept in a recovery "
                                  f"save ({exc}); F5 or Ctrl+S saves them first.")
                    return
                if self._load(listing) and kept is not None:
                    top = live_game(self.app)
                    if top is not None:
                        tell(top, f"Loaded {listing.path.name}; the moves left are kept in "
                             f"{kept.parent.name}/{kept.name} (Ctrl+O lists it)", 6.0)

            self.app.push(DialogScene(
                self.app, "Load over this game?",
                f"The game being played has moves since its last save: loading {listing.path.name} takes them "
                "off the screen (a recovery save of its own keeps them, and the next start of this game offers it).",
                [Choice("Load", load, primary=True), Choice("Keep playing", None)],
                cancel=Choice("Keep playing", None), name="load_question"))
            return False
        return self._load(listing)

    def _load(self, listing: SaveListing) -> bool:
        problem = launch.load_into(self.app, listing.path)
        if problem is not None:
            self._problem("Not loaded", problem)
            return False
        return True  # load_into replaced the whole stack, this menu included

    def replay_selected(self) -> None:
        listing = self.selected
        if listing is None:
            self._nothing("replay")
            return
        if self.on_replay is not None:
            self.on_replay(listing.path)
            return

        problem = open_replay_file(self.app, listing.path)
        if problem is not None:
            self._problem("Not opened", problem)

    def current_game_note(self, listing: SaveListing) -> str | None:
        """Whether the save is the game being played now's: the save it was loaded from, or its
        quick save slot (what F9 loads). None: neither."""
        for scene in reversed(game_scenes(self.app)):
            session = scene.session
            if _same(session.save_path, listing.path):
                return ("This is the save the game you are playing now was loaded from. The game goes on, "
                        "but this file will no longer be in the list.")
            if _same(savegame.quick_save_path(session), listing.path):
                return "This is the quick save of the game you are playing now: after this, F9 finds none until F5."
        return None

    def ask_delete(self) -> None:
        """Delete (the key or the button): ask first, naming the save and where it goes."""
        listing = self.selected
        if listing is None:
            self._nothing("delete")
            return
        name = self._name(listing)
        where = savegame.deleted_dir(self.folder)
        h = listing.header
        pieces: list[Span | str] = [Span(name, bold=True), "\n"]
        if h is not None:
            title, clock = self._system(listing)
            pieces += [f"{h.title}\nScenario: {h.scenario}\n", f"{clock.capitalize()} {h.round}, saved ",
                       Span(h.saved_at.replace("T", " ")[:16], bold=True), "\n"]
        else:
            pieces += [f"Last changed {_when(listing)}\n"]
        pieces += ["What it is: ", Span(save_kind(listing, self.folder), bold=True), "\n"]
        current = self.current_game_note(listing)
        if current is not None:
            pieces += [Span(current, bold=True, colour=GM), "\n"]
        pieces += [f"It is not erased: it moves to {where}{'/'} (move it back to have it again)."]
        app = self.app

        def delete() -> None:
            self.delete(listing)

        title = "Delete the current game's save?" if current is not None else "Delete this save?"
        w = min(760, app.screen.get_width() - 40)
        app.push(DialogScene(app, title, styled(*pieces),
                             [Choice("Delete", delete, pygame.K_RETURN, primary=True), Choice("Keep", None)],
                             size=(w, 290 if current is None else 330), cancel=Choice("Keep", None),
                             name="delete_question"))

    def delete(self, listing: SaveListing) -> None:
        """Move the save into deleted/ and show the list again (the selection stays in place: on
        the save after it, or the last)."""
        name = self._name(listing)
        try:
            moved = savegame.delete_save(listing.path, self.folder)
        except OSError as exc:
            self.refresh()
            other = f" ({exc.filename})" if exc.filename and Path(exc.filename) != listing.path else ""
            self._problem("Not deleted", f"{listing.path}: {exc.strerror or exc}{other}. Nothing was moved.")
            return
        at = self.listings.index(listing) if listing in self.listings else self.index
        self.refresh(at)
        self._done(f"Deleted {name}: moved to {moved} (move it back to have it again).")

    def _name(self, listing: SaveListing) -> str:
        try:
            return listing.path.relative_to(self.folder).as_posix()
        except ValueError:
            return listing.path.name

    # ------------------------------------------------------------------ the shell's keys here
    def take_shell_key(self, binding: Binding, act: Callable[[], object]) -> bool | str:
        """A shell key pressed over the menu (game/shell/keys.py): the saves act and the list
        shows what they wrote; F9 loads the quick save or says there is none; the keys that act on
        the game's screen say to close the menu first. Ctrl+Q, F11 and F1 are the shell's (False)."""
        label = binding.label
        game = live_game(self.app)
        if label in ("F5", "Ctrl+S"):
            before = {(s.path, s.modified) for s in self.listings}
            self.message = None
            act()  # a refusal ("Not saved: ...") comes back here (notify)
            refused = self.message
            self.listings = listed(self.folder, self.app.table)
            new = [i for i, s in enumerate(self.listings) if (s.path, s.modified) not in before]
            self.refresh(new[0] if new else None)
            if new and refused is None:
                self._done(f"Saved to {self._name(self.listings[new[0]])} ({label}).")
            else:
                self._problem("", refused or f"Not saved: {label} wrote no save.")
            return True
        if label == "F9" and game is not None:
            quick = savegame.quick_save_path(game.session)
            if not quick.exists():
                self._problem("Not loaded", f"no quick save of this game yet ({quick.name}): F5 makes one.")
                return True
            return False
        if label == "Ctrl+O":
            self._problem("Not here", "the load menu (Ctrl+O) is open already: Esc closes it.")
            return True
        if label in ("F2", "F3", "Ctrl+Z", "Ctrl+Y", "Ctrl+B"):
            return "Not here: close the load menu first (Esc)"  # the shell says why (game/shell/keys.py), here
        return False

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A message from the shell, shown above the selected save's details (a refusal says
        itself what was refused: "Not here: ...", "Not saved: ...")."""
        if problem:
            self._problem("", text)
        else:
            self._done(text)
        return True

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
            elif el is self.delete_button:
                self.ask_delete()
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
        elif k in DELETE_KEYS:
            self.ask_delete()

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        shade(surface, 150)
        self.ui.draw_ui(surface)
