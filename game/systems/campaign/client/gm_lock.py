"""The GM's seat: the GM view (every side's sealed orders) opens only behind this screen.

G on a player's screen never shows the GM view: it covers the map with this full screen, which
asks for the GM's passphrase. The passphrase is set here the first time, and only while no orders
are sealed (then the GM view shows nothing a player could not see); from then on only the
passphrase opens it, for the whole campaign: setting it is the GM command `gm_lock`, which puts
its salted, slow digest (rules/gm_lock.py, never the text) in the campaign's state, so every save
and every load of the campaign keeps it. A save made before the GM's passphrase was kept in saves
(or before one was set) has none: the passphrase is set here as before.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from game.shell.fonts import font
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.systems.campaign.rules import gm_lock as scheme
from game.systems.campaign.rules.gm_lock import GmLock


class GmSeat:
    """Whether and how the GM view may be opened: the campaign's lock (its passphrase's digest).

    `lock_of()` reads the lock the campaign holds now (the scene: the session's state), `keep(lock)`
    records a new one (the scene: the `gm_lock` command) and answers None or why it was refused.
    Without them the seat keeps its lock itself (a seat of its own, for tests and tools).
    `iterations`: the rounds of a lock set here (rules/gm_lock.py ITERATIONS; fewer in tests).
    """

    def __init__(self, lock_of: Callable[[], GmLock | None] | None = None,
                 keep: Callable[[GmLock], str | None] | None = None,
                 iterations: int = scheme.ITERATIONS) -> None:
        self._own: GmLock | None = None
        self._lock_of = lock_of
        self._keep = keep
        self.iterations = iterations

    @property
    def lock(self) -> GmLock | None:
        return self._lock_of() if self._lock_of is not None else self._own

    @property
    def is_set(self) -> bool:
        return self.lock is not None

    def can_set(self, anything_sealed: bool) -> bool:
        return self.lock is None and not anything_sealed

    def set(self, passphrase: str) -> str | None:
        """None when set, else why not."""
        why = scheme.too_short(passphrase)
        if why:
            return why
        lock = scheme.lock_of(passphrase, secrets.token_hex(scheme.SALT_BYTES), self.iterations)
        if self._keep is not None:
            return self._keep(lock)
        self._own = lock
        return None

    def opens(self, passphrase: str) -> bool:
        lock = self.lock
        return lock is not None and scheme.opens(lock, passphrase)


class GmLockScene(Scene):
    overlay = False  # nothing of the map under it is drawn
    name = "gm_lock"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "open the GM view with the passphrase typed"),
            Binding((pygame.K_TAB,), "Tab", "the other box (setting a passphrase: typed twice)"),
            Binding((pygame.K_ESCAPE,), "Esc", "back to the player's screen"))

    def __init__(self, app: Any, seat: GmSeat, anything_sealed: bool, on_open: Callable[[], None],
                 purpose: str = "view", opens: Callable[[], Scene] | None = None) -> None:
        """`on_open()` runs once the seat has closed on the right passphrase; `opens()`, when
        given, is the screen the seat is replaced by then (the stack is never empty between the
        two: a seat alone in the window, a save's replay from the command line, keeps it open)."""
        super().__init__(app)
        self.opens = opens
        self.purpose = purpose  # "view": the GM view; "seats": changing who plays a power (the players
        # dialog); "abandon": a battle fought out set aside for the tables; "replay": the replay (F3)
        self.seat = seat
        self.anything_sealed = anything_sealed
        self.on_open = on_open
        self.message = ""
        self.drawn_strings: list[str] = []
        self.ui = app.make_ui()
        self._build()

    @property
    def mode(self) -> str:
        if self.seat.is_set:
            return "unlock"
        return "set" if self.seat.can_set(self.anything_sealed) else "closed"

    def _build(self) -> None:
        self.ui.clear_and_reset()
        w, h = self.app.screen.get_size()
        self.entry: Any = None
        self.ok: Any = None
        self.again: Any = None
        if self.mode != "closed":
            # setting: it holds for the whole campaign, so it is typed twice (QA: a typo locked the GM
            # out): `entry` (typed first) above, `again` below it
            top = h // 2 - (52 if self.mode == "set" else 10)
            self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(w // 2 - 160, top, 320, 34), self.ui)
            self.entry.set_text_hidden(True)
            if self.mode == "set":
                self.again = pygame_gui.elements.UITextEntryLine(pygame.Rect(w // 2 - 160, h // 2 - 10, 320, 34),
                                                                 self.ui)
                self.again.set_text_hidden(True)
            self._fresh = True  # focused from the next frame: the G that opened it is not typed in
            if self.purpose == "seats":
                label = "Set the passphrase and unlock" if self.mode == "set" else "Unlock the players"
            elif self.purpose == "abandon":
                label = "Unlock: abandon the battle"
            elif self.purpose == "replay":
                label = "Set the passphrase and open the replay" if self.mode == "set" else "Open the replay"
            else:
                label = "Set the passphrase and open" if self.mode == "set" else "Open the GM view"
            self.ok = Button(pygame.Rect(w // 2 - 160, h // 2 + 36, 320, 40), f"{label} (Enter)", self.ui)
        self.back = Button(pygame.Rect(w // 2 - 160, h // 2 + 84, 320, 40), "Back to the player's screen (Esc)",
                           self.ui)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def submit(self, passphrase: str, again: str | None = None) -> bool:
        """The passphrase typed: set it (first time: `again`, the confirming box, must be the same;
        None when called with no box, e.g. from a test) or check it; True when the GM view opens."""
        if self.mode == "set":
            if again is not None and again != passphrase:
                self.message = "The two passphrases typed differ: nothing is set. Type them again."
                for box in (self.entry, self.again):
                    if box is not None:
                        box.set_text("")
                self.ui.set_focus_set(self.entry)  # typed again from the upper box
                return False
            why = self.seat.set(passphrase)
            if why:
                self.message = why
                return False
        elif self.mode == "unlock":
            if not self.seat.opens(passphrase):
                self.message = "That is not the GM's passphrase."
                if self.entry is not None:
                    self.entry.set_text("")
                return False
        else:
            return False
        if self.opens is not None:
            self.app.replace(self.opens())
        else:
            self.app.pop()
        self.on_open()
        return True

    def _submit_boxes(self) -> bool:
        assert self.entry is not None
        if self.again is not None:  # setting: the passphrase (above) and the same again (below)
            return self.submit(self.entry.get_text(), self.again.get_text())
        return self.submit(self.entry.get_text())

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A word from the shell (a game key pressed here: close this first) under the buttons;
        it names nothing of the game, so the seat shows it to whoever is at the screen."""
        self.message = text
        return True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_TAB and self.entry is not None \
                and self.again is not None:  # the other box (it typed nothing before: seen under Xvfb)
            self.ui.set_focus_set(self.entry if self.again.is_focused else self.again)
            return
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.back:
                self.app.pop()
            elif event.ui_element is self.ok and self.entry is not None:
                self._submit_boxes()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and self.entry is not None:
            if event.ui_element is self.entry and self.again is not None:
                self.ui.set_focus_set(self.again)  # (the upper box typed: then the same below)
            else:
                self._submit_boxes()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()

    def update(self, dt: float) -> None:
        if self.entry is not None and getattr(self, "_fresh", False):
            self._fresh = False
            self.entry.set_text("")
            self.ui.set_focus_set(self.entry)
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.drawn_strings = []
        surface.fill((16, 16, 20))
        w, h = surface.get_size()
        lines = {
            "set": ["The GM's seat", "No GM passphrase is set yet. The GM types one now (the players look away);",
                    "from then on only it opens the GM view, which shows every side's sealed orders.",
                    "It holds for the whole campaign: its saves keep it (a salted digest, never the text)."],
            "unlock": ["The GM's seat", "The GM view shows every side's sealed orders.",
                       "Only the GM: type the passphrase. A player goes back with Esc."],
            "closed": ["The GM's seat", "No GM passphrase was set before orders were sealed,",
                       "so the GM view stays closed until this week's orders are revealed."],
        }[self.mode]
        if self.purpose == "abandon":  # a battle fought out set aside for the tables (bridge/client/fight.py)
            lines = ["The GM's seat", "Setting a battle fought out aside for the tables is the GM's command.",
                     "Only the GM: type the passphrase. A player goes back with Esc."]
        if self.purpose == "replay":  # the replay view (replay.py): every command, sealed orders included
            lines = {
                "set": ["The GM's seat", "No GM passphrase is set yet. The GM types one now (the players look away);",
                        "from then on only it opens the replay and the GM view, which show every side's sealed",
                        "orders. It holds for the whole campaign: its saves keep it (a salted digest, never the text)."],
                "unlock": ["The GM's seat", "The replay shows every command of the campaign, every side's sealed",
                           "orders among them. Only the GM: type the passphrase. A player goes back with Esc."],
                "closed": ["The GM's seat", "No GM passphrase was set before orders were sealed, so the replay",
                           "(like the GM view) stays closed until this week's orders are revealed."],
            }[self.mode]
        if self.purpose == "seats":  # the players dialog: who plays each power is the GM's once play has begun
            lines = {
                "set": ["The GM's seat", "No GM passphrase is set yet. The GM types one now (the players look away);",
                        "from then on only it changes who plays a power, and opens the GM view.",
                        "It holds for the whole campaign: its saves keep it (a salted digest, never the text)."],
                "unlock": ["The GM's seat", "Once play has begun, only the GM changes who plays a power.",
                           "Only the GM: type the passphrase. A player goes back with Esc."],
                "closed": ["The GM's seat", "No GM passphrase was set before orders were sealed, so who plays",
                           "each power stays as it is until this week's orders are revealed."],
            }[self.mode]
        images = [font(24 if i == 0 else 15, i == 0).render(text, True, (235, 225, 200) if i == 0 else (210, 210, 215))
                  for i, text in enumerate(lines)]
        tall = sum(img.get_height() + 8 for img in images) - 8
        top = h // 2 - 24 - (42 if self.again is not None else 0)  # clear of the passphrase's box(es)
        y = min(h // 2 - 130 - (42 if self.again is not None else 0), top - tall)
        for text, img in zip(lines, images, strict=True):
            surface.blit(img, (w // 2 - img.get_width() // 2, y))
            self.drawn_strings.append(text)
            y += img.get_height() + 8
        if self.again is not None and not self.message:
            hint = "Type it in the upper box, then the same again below (Enter)."
            img = font(15).render(hint, True, (190, 190, 200))
            surface.blit(img, (w // 2 - img.get_width() // 2, h // 2 + 132))
            self.drawn_strings.append(hint)
        if self.message:
            img = font(15).render(self.message, True, (255, 130, 110))
            surface.blit(img, (w // 2 - img.get_width() // 2, h // 2 + 132))
            self.drawn_strings.append(self.message)
        self.ui.draw_ui(surface)
