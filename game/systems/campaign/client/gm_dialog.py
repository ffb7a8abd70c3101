"""The frame of the GM view's one-box dialogs (N: force the next rolls, K: the scouting seed): a
box over the dimmed map with a title, lines of explanation, optional lines kept just above the
box (a commitment to post), a refusal in red, the text box and a row of buttons. A dialog says
what it shows (`title`, `lines`, `tail`), what fills its box when it opens (`first_text`) and what
Enter does (`submit_typed`); the rest (focus, keys, drawing, resizing) is here once."""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.shell.fonts import font
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.systems.campaign.client.results import wrap
from game.systems.campaign.rules.state import CampaignState

Colour = tuple[int, int, int]
TITLE = (235, 225, 200)
REFUSAL = (255, 120, 100)


class GmEntryDialog(Scene):
    overlay = True
    SIZE = (640, 360)  # the box's largest size (it shrinks to the window)

    def __init__(self, app: Any, scene: Any) -> None:
        super().__init__(app)
        self.scene = scene  # the campaign scene, its GM view open
        self.message = ""  # a refusal, in red above the box
        self.drawn_strings: list[str] = []
        self.ui = app.make_ui()
        self.ok: Button
        self.cancel: Button
        self._build()

    # ------------------------------------------------------------------ what a dialog says
    @property
    def state(self) -> CampaignState:
        s: CampaignState = self.scene.session.state
        return s

    def title(self) -> str:
        raise NotImplementedError

    def lines(self) -> list[tuple[str, Colour]]:
        return []

    def tail(self) -> list[tuple[str, Colour]]:
        """Bold lines kept just above the box, whatever the explanation's length."""
        return []

    def first_text(self) -> str:
        """What the box holds when the dialog opens."""
        return ""

    def buttons(self, box: pygame.Rect) -> None:
        """Make `self.ok` and `self.cancel` (and any other button) in the row at the box's foot."""
        raise NotImplementedError

    def submit_typed(self) -> bool:
        """Enter or the OK button: act on the text typed; True when done."""
        raise NotImplementedError

    def on_button(self, element: Any) -> None:
        """A button of the dialog's own beyond OK and Cancel was pressed."""

    # ------------------------------------------------------------------ the frame
    def _box(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        bw, bh = min(self.SIZE[0], w - 40), min(self.SIZE[1], h - 40)
        return pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)

    def _build(self, text: str | None = None) -> None:
        """The box and buttons; `text` in the box (None: `first_text()` from the next frame, so the
        key that opened the dialog is not typed in)."""
        self.ui.clear_and_reset()
        box = self._box()
        self.entry = pygame_gui.elements.UITextEntryLine(pygame.Rect(box.x + 16, box.bottom - 104, box.w - 32, 34),
                                                         self.ui)
        self.buttons(box)
        self._fresh = text is None
        if text is not None:
            self.entry.set_text(text)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build(self.entry.get_text())

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A word from the shell (a game key pressed here) where the refusals are."""
        self.message = text
        return True

    def typing(self) -> bool:
        return bool(self.entry.is_focused)

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.cancel:
                self.app.pop()
            elif event.ui_element is self.ok:
                self.submit_typed()
            else:
                self.on_button(event.ui_element)
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.entry:
            self.submit_typed()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.app.pop()
        elif event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) \
                and not self.entry.is_focused:
            self.submit_typed()

    def update(self, dt: float) -> None:
        if self._fresh:
            self._fresh = False
            self.entry.set_text(self.first_text())
            self.entry.focus()  # type: ignore[no-untyped-call]
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.drawn_strings = []
        w, h = surface.get_size()
        dim = pygame.Surface((w, h), pygame.SRCALPHA)
        dim.fill((0, 0, 0, 150))
        surface.blit(dim, (0, 0))
        box = self._box()
        pygame.draw.rect(surface, (30, 32, 38), box)
        pygame.draw.rect(surface, (224, 184, 100), box, 2)
        y = box.y + 12
        y += self._line(surface, self.title(), (box.x + 16, y), 20, TITLE, True) + 8
        msg = wrap(self.message, 13, False, box.w - 32)[:2] if self.message else []
        tail = self.tail()
        room = box.bottom - 110 - 16 * (len(msg) + len(tail))  # the tail and message stay just above the entry
        for text, colour in self.lines():
            for part in wrap(text, 13, False, box.w - 32):
                if y + 16 > room:
                    break
                y += self._line(surface, part, (box.x + 16, y), 13, colour)
            y += 4
        y = room + 2
        for text, colour in tail:
            y += self._line(surface, text, (box.x + 16, y), 13, colour, True)
        for part in msg:
            y += self._line(surface, part, (box.x + 16, y), 13, REFUSAL)
        self.ui.draw_ui(surface)

    def _line(self, surface: pygame.Surface, text: str, pos: tuple[int, int], size: int,
              colour: Colour, bold: bool = False) -> int:
        self.drawn_strings.append(text)
        img = font(size, bold).render(text, True, colour)
        surface.blit(img, pos)
        return int(img.get_height())
