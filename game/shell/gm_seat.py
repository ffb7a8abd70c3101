"""The GM's passphrase and GM mode's trace, kept by the shell for a game of any rule system that
has no GM lock of its own (the tactical battle, the mass battle; the campaign keeps its own in its
state, game/systems/campaign/rules/gm_lock.py, and a battle fought out from a campaign asks for
the campaign's: `outer_seat`).

- The passphrase is set, changed or cleared in the players dialog (P, "GM passphrase... (K)",
  `PassphraseFormScene`); changing or clearing it takes the current one first. The game keeps
  only a salted, deliberately slow digest of it (game/core/gm_lock.py: `Lock`, PBKDF2-HMAC-SHA256
  of the passphrase in Unicode's composed form, a random 16-byte salt of the game's own,
  `ITERATIONS` rounds: the campaign's scheme, written again in the core because neither the core
  nor the shell imports a rule system; `keeping(game)` holds it), and every save of the game
  keeps that digest in its header (`gm_lock`, written only when set: docs/saves.md).
- Once play has begun, the players dialog changes a side's seat only behind the same lock
  (`seat_unlock`, the dialog's `SeatRule.unlock`): the campaign's passphrase under a battle
  fought out from it, else this game's when set, else the GM's word ("I am the GM").
- F2 (`open_gm_mode`, called by each system's `open_gm`): with the passphrase set, GM mode opens
  only behind `PassphraseScene`, which draws nothing of the game; a wrong passphrase opens nothing
  and says so. Without one, a game with two or more sides played at the screen (hotseat), or a
  system's own reason (`why`: the mass battle once it has begun), asks first ("I am the GM"):
  GM mode shows every side's sealed choices. Hotseat is what every system's hand-off rule calls
  it (`hotseat`): two or more sides at the screen with the blackout between sides on; with one
  side or none at the screen, or the blackout off ("GM at the table": the screen shows every
  side's play to everyone anyway), it opens at once, as before.
- The trace [decision]: every opening of GM mode is said on the game's message line ("GM mode
  opened in round 3"), and its clock (round, wave) is kept with the game (`GmKeeping.opened`) and
  in every later save's header (`gm_opened`, written only when GM mode was opened), so a later
  player sees it in the players dialog ("GM mode was opened in round 3, round 5"). The session
  has no notes of its own in the save; the header field is the shell's.

A save is a file the players can read: its state holds the sealed choices in plain text. The
passphrase keeps the screen, not the file: a player who edits a save can take the lock out of it
as they can read its state (docs/saves.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pygame
import pygame_gui

from game.core.gm_lock import GmKeeping, keeping, lock_of, too_short
from game.core.system import clock_of
from game.shell.contracts import AppContext, is_game_scene, tell
from game.shell.fonts import font
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.session import Session
from game.shell.toolkit.buttons import Button

WRONG = "That is not the GM's passphrase."


def opened_text(system: Any, rounds: Sequence[int]) -> str:
    """"round 3, round 5 (twice)": the clocks GM mode was opened at, in order."""
    word = clock_of(system)
    parts: list[str] = []
    counts: dict[int, int] = {}
    for n in rounds:
        counts[n] = counts.get(n, 0) + 1
    for n in dict.fromkeys(rounds):
        times = counts[n]
        parts.append(f"{word} {n}" + ("" if times == 1 else " (twice)" if times == 2 else f" ({times} times)"))
    return ", ".join(parts)


def hotseat(session: Session, settings: Any = None) -> bool:
    """The window keeps the sides of this game apart: two or more of them are played at the screen
    (not by the computer) and the blackout between sides is on (`Settings.blackout`; off is "GM at
    the table": the screen then shows every side's play to everyone, as every system's hand-off
    rule has it)."""
    if settings is not None and not getattr(settings, "blackout", True):
        return False
    sides = [str(s) for s in session.system.summary(session.state).get("sides", ())]
    return len(session.seats.humans(sides)) >= 2


def outer_seat(app: AppContext) -> Any:
    """The GM's seat of a game under this one whose passphrase is set (a campaign under a battle
    fought out from it), or None. Found by what it offers (`is_set`, `opens`), not by its type:
    the shell knows no rule system."""
    for s in app.scenes:
        seat = getattr(s, "gm_seat", None)
        if seat is not None and getattr(seat, "is_set", False) and callable(getattr(seat, "opens", None)):
            return seat
    return None


def session_of_seats(app: AppContext, seats: Any) -> Session | None:
    """The live game's session whose seats are `seats` (the players dialog is given them)."""
    for s in app.scenes:
        if is_game_scene(s) and s.session.seats is seats:
            return s.session
    return None


def seat_unlock(app: AppContext, session: Session | None) -> Callable[[Callable[[], None]], None] | None:
    """The GM's lock on the players dialog's seats once play has begun (`SeatRule.unlock`), for a
    game that has none of its own: the campaign's passphrase under a battle fought out from it
    (`outer_seat`), else this game's passphrase when set (its players dialog, K), as F2 asks; None
    when neither is set (the GM then says so: "I am the GM"). `unlock(then)` runs `then` once the
    passphrase is typed; a wrong one opens nothing."""
    seat = outer_seat(app)
    if seat is not None:
        lines = ("The GM's seat", "This battle is fought out from a campaign with a GM passphrase.",
                 "Only the GM changes who plays a side now: type the passphrase. A player goes back with Esc.")
        opens: Callable[[str], bool] = seat.opens
    else:
        kept = keeping(session) if session is not None else None
        if kept is None or not kept.is_set:
            return None
        lines = ("The GM's seat", "A GM passphrase is set for this game.",
                 "Only the GM changes who plays a side now: type the passphrase. A player goes back with Esc.")
        opens = kept.opens

    def unlock(then: Callable[[], None]) -> None:
        app.push(PassphraseScene(app, opens, then, lines=lines))

    return unlock


# --------------------------------------------------------------------------- F2: the gate


def note_opened(scene: Any, say: Callable[[str], None] | None = None) -> None:
    """GM mode has opened over `scene`'s game: keep its clock and say so, on the game's line (its
    log, where it has one), or by `say` (the system's own place for it, e.g. GM mode's panel)."""
    session: Session = scene.session
    n = int(session.system.summary(session.state).get("round", 0))
    keeping(session).opened.append(n)
    text = f"GM mode opened in {clock_of(session.system)} {n}"
    if say is not None:
        say(text)
    else:
        tell(scene, text, 5.0)


def open_gm_mode(app: AppContext, scene: Any, enter: Callable[[], None], *, why: str | None = None,
                 what: str = "the game and its next dice", say: Callable[[str], None] | None = None) -> None:
    """F2 on a game's screen: run `enter()` (push the system's GM mode) once whoever asks has
    shown they may: the campaign's passphrase under a battle fought out from it, else this game's
    passphrase when set, else the GM's word in a hotseat game or when the system gives `why`.
    `say`: where the opening is said (`note_opened`), once GM mode is open."""

    def opened() -> None:
        enter()
        note_opened(scene, say)

    seat = outer_seat(app)
    if seat is not None:
        app.push(PassphraseScene(app, seat.opens, opened,
                                 lines=("The GM's seat", "This battle is fought out from a campaign with a GM "
                                        "passphrase.", "GM mode changes the battle: only the GM types the "
                                        "passphrase. A player goes back with Esc.")))
        return
    kept = keeping(scene.session)
    if kept.is_set:
        app.push(PassphraseScene(app, kept.opens, opened))
        return
    if why is None and hotseat(scene.session, app.settings):
        why = (f"Two or more sides are played at this screen. GM mode shows every side's sealed choices and "
               f"changes {what}. Only the GM opens it; a player goes back with Esc. "
               "(A GM passphrase, set in the players dialog, P, asks for it here instead.)")
    if why is None:
        opened()
        return
    app.push(DialogScene(
        app, "GM mode is the GM's", why,
        [Choice("I am the GM (G)", opened, pygame.K_g, primary=True), Choice("Back (Esc)", None, pygame.K_ESCAPE)],
        size=(600, 250), cancel=Choice("Back"), name="gm_ask"))


# --------------------------------------------------------------------------- the passphrase asked


def _centred_lines(surface: pygame.Surface, lines: Sequence[str], bottom: int) -> list[str]:
    w, h = surface.get_size()
    images = [font(24 if i == 0 else 15, i == 0).render(line, True, (235, 225, 200) if i == 0 else (210, 210, 215))
              for i, line in enumerate(lines)]
    tall = sum(img.get_height() + 8 for img in images) - 8
    y = max(8, min(h // 2 - 130, bottom - tall))
    for img in images:
        surface.blit(img, (w // 2 - img.get_width() // 2, y))
        y += img.get_height() + 8
    return list(lines)


class PassphraseScene(Scene):
    """The GM's passphrase, asked before GM mode opens: nothing of the game under it is drawn."""

    overlay = False  # nothing of the game under it is drawn
    name = "gm_lock"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "open GM mode with the passphrase typed"),
            Binding((pygame.K_ESCAPE,), "Esc", "back to the game"))
    LINES = ("The GM's seat", "GM mode shows every side's sealed choices and changes the game.",
             "Only the GM: type the GM passphrase. A player goes back with Esc.")

    def __init__(self, app: Any, opens: Callable[[str], bool], on_open: Callable[[], None],
                 lines: Sequence[str] | None = None, *, ok_label: str = "Open GM mode (Enter)",
                 on_back: Callable[[], None] | None = None) -> None:
        """`ok_label`: what the passphrase opens (its button); `on_back`: run after Esc or Back
        (e.g. show again the summary the question was asked from)."""
        super().__init__(app)
        self.opens = opens
        self.on_open = on_open
        self.on_back = on_back
        self.ok_label = ok_label
        self.lines = tuple(lines or self.LINES)
        self.message = ""
        self.drawn_strings: list[str] = []
        self.ui = app.make_ui()
        self._build()

    def _build(self) -> None:
        self.ui.clear_and_reset()
        w, h = self.app.screen.get_size()
        self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(w // 2 - 160, h // 2 - 10, 320, 34), self.ui)
        self.entry.set_text_hidden(True)  # type: ignore[no-untyped-call]
        self._fresh = True  # focused from the next frame: the F2 that opened it is not typed in
        self.ok = Button(pygame.Rect(w // 2 - 160, h // 2 + 36, 320, 40), self.ok_label, self.ui)
        self.back = Button(pygame.Rect(w // 2 - 160, h // 2 + 84, 320, 40), "Back to the game (Esc)", self.ui)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def typing(self) -> bool:
        return True  # the passphrase box has the keyboard (Esc is this screen's own)

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        self.message = text  # a word from the shell; it names nothing of the game
        return True

    def submit(self, passphrase: str) -> bool:
        """True when the passphrase opened GM mode; else it says so and opens nothing."""
        if not self.opens(passphrase):
            self.message = WRONG
            self.entry.set_text("")
            return False
        self.app.pop()
        self.on_open()
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back:
                self.go_back()
            elif event.ui_element is self.ok:
                self.submit(self.entry.get_text())
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.submit(self.entry.get_text())
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.go_back()

    def go_back(self) -> None:
        """Esc or Back: nothing opened."""
        self.app.pop()
        if self.on_back is not None:
            self.on_back()

    def update(self, dt: float) -> None:
        if self._fresh:
            self._fresh = False
            self.entry.set_text("")
            self.entry.focus()  # type: ignore[no-untyped-call]
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((16, 16, 20))
        w, h = surface.get_size()
        self.drawn_strings = _centred_lines(surface, self.lines, h // 2 - 24)
        if self.message:
            img = font(15).render(self.message, True, (255, 130, 110))
            surface.blit(img, (w // 2 - img.get_width() // 2, min(h - 24, h // 2 + 132)))
            self.drawn_strings.append(self.message)
        self.ui.draw_ui(surface)


# --------------------------------------------------------------------------- set, change, clear


class PassphraseFormScene(Scene):
    """The players dialog's "GM passphrase...": set the GM passphrase of this game, or (typing the
    current one first) change or clear it. Drawn alone: nothing of the game under it."""

    overlay = False
    name = "gm_passphrase"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "set (or change) the passphrase"),
            Binding((pygame.K_TAB,), "Tab", "the next box"),
            Binding((pygame.K_ESCAPE,), "Esc", "back, nothing changed"))

    def __init__(self, app: Any, kept: GmKeeping, on_done: Callable[[], None] | None = None) -> None:
        super().__init__(app)
        self.kept = kept
        self.on_done = on_done
        self.message = ""
        self.drawn_strings: list[str] = []
        self.ui = app.make_ui()
        self._build()

    def _build(self) -> None:
        self.ui.clear_and_reset()
        w, h = self.app.screen.get_size()
        x = w // 2 - 160
        y = h // 2 - 60
        self.entries: dict[str, Any] = {}
        self.labels: dict[str, tuple[str, int]] = {}
        keys = (["current"] if self.kept.is_set else []) + ["new", "again"]
        names = {"current": "The current passphrase", "new": "The new passphrase" if self.kept.is_set
                 else "The GM passphrase", "again": "Again, to be sure"}
        for key in keys:
            entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(x, y + 18, 320, 32), self.ui)
            entry.set_text_hidden(True)  # type: ignore[no-untyped-call]
            self.entries[key] = entry
            self.labels[key] = (names[key], y)
            y += 58
        set_label = "Change it (Enter)" if self.kept.is_set else "Set it (Enter)"
        self.ok = Button(pygame.Rect(x, y + 6, 320, 36), set_label, self.ui)
        y += 44
        self.clear: Any = None
        if self.kept.is_set:
            self.clear = Button(pygame.Rect(x, y + 6, 320, 36), "Clear it (no passphrase)", self.ui)
            y += 44
        self.back = Button(pygame.Rect(x, y + 6, 320, 36), "Back, nothing changed (Esc)", self.ui)
        self.message_y = y + 52
        self._fresh = True

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def typing(self) -> bool:
        return True

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        self.message = text
        return True

    def _close(self) -> None:
        self.app.pop()
        if self.on_done is not None:
            self.on_done()

    def _current_ok(self, current: str) -> bool:
        if self.kept.is_set and not self.kept.opens(current):
            self.message = f"{WRONG} Nothing was changed."
            for entry in self.entries.values():
                entry.set_text("")
            return False
        return True

    def submit(self, current: str, new: str, again: str) -> bool:
        """Set (or change) the passphrase; True when done (the form closes), else it says why."""
        if not self._current_ok(current):
            return False
        why = too_short(new)
        if why is None and new != again:
            why = "The two passphrases typed differ: type the same one twice."
        if why is not None:
            self.message = why
            return False
        self.kept.lock = lock_of(new)
        self._close()
        return True

    def clear_lock(self, current: str) -> bool:
        """Clear the passphrase (the current one typed); True when cleared."""
        if not self.kept.is_set or not self._current_ok(current):
            return False
        self.kept.lock = None
        self._close()
        return True

    def _text(self, key: str) -> str:
        entry = self.entries.get(key)
        return str(entry.get_text()) if entry is not None else ""

    def _focus_next(self) -> None:
        order = list(self.entries.values())
        now = next((i for i, e in enumerate(order) if e.is_focused), -1)
        for e in order:
            e.unfocus()
        order[(now + 1) % len(order)].focus()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB:
            self._focus_next()
            return
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back:
                self._close()
            elif event.ui_element is self.ok:
                self.submit(self._text("current"), self._text("new"), self._text("again"))
            elif event.ui_element is self.clear:
                self.clear_lock(self._text("current"))
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED:
            self.submit(self._text("current"), self._text("new"), self._text("again"))
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self._close()

    def update(self, dt: float) -> None:
        if self._fresh:
            self._fresh = False
            first = next(iter(self.entries.values()))
            first.set_text("")
            first.focus()
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        surface.fill((16, 16, 20))
        w, h = surface.get_size()
        if self.kept.is_set:
            lines = ["The GM passphrase", "A GM passphrase is set: F2 opens GM mode only with it.",
                     "To change or clear it, type the current one first (the players look away)."]
        else:
            lines = ["The GM passphrase", "The GM types it (the players look away); then F2 opens GM mode only",
                     "with it. Its saves keep it (a salted digest, never the text)."]
        top = min(self.labels.values(), key=lambda lv: lv[1])[1]
        self.drawn_strings = _centred_lines(surface, lines, top - 16)
        for label, y in self.labels.values():
            img = font(14).render(label, True, (210, 210, 215))
            surface.blit(img, (w // 2 - 160, y))
            self.drawn_strings.append(label)
        if self.message:
            img = font(15).render(self.message, True, (255, 130, 110))
            surface.blit(img, (w // 2 - img.get_width() // 2, min(h - 24, self.message_y)))
            self.drawn_strings.append(self.message)
        self.ui.draw_ui(surface)
