"""The reveal and the week's results, and the history browser: full-screen pages, one per battle
fought in a week (both sides' orders, each pool and every die, the band, the casualties as totals
with the table's range and the roll, the movement) and then the week's summary.

The pages come from the rules' `week_pages` over the session's steps (their events), so the
history reads the same after a save is loaded. The reveal is shown when the last order is sealed
(everything on it is public from then on); R on the map opens the history at the newest week.

A week not ended yet (the week the campaign is in: its battles begun, their scouting dice rolled,
the orders not revealed) has no summary: its last page says what there is so far, and each battle
page not resolved yet says so (`under_way`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame
import pygame_gui

from game.shell.fonts import font
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.systems.campaign.rules.results import WeekPage, week_pages


def pages_of(session: Any) -> list[WeekPage]:
    """Every battle week in the session's history (a loaded save's too)."""
    return week_pages((s.before, s.events, s.after) for s in session.history)


class ResultsScene(Scene):
    """Pages of battle results: (week, battle page or None for the week's summary)."""

    overlay = False
    name = "campaign_results"
    KEYS = (Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "the next page; on the last: back to the map"),
            Binding((pygame.K_RIGHT, pygame.K_PAGEDOWN), "Right", "the next page"),
            Binding((pygame.K_LEFT, pygame.K_PAGEUP), "Left", "the page before"),
            Binding((pygame.K_UP, pygame.K_DOWN), "Up / Down", "scroll a long page (or the wheel)"),
            Binding((pygame.K_ESCAPE,), "Esc", "back to the map"))

    def __init__(self, app: Any, weeks: list[WeekPage], title: str, start_at_week: int | None = None,
                 on_close: Callable[[], None] | None = None, under_way: int | None = None) -> None:
        super().__init__(app)
        self.weeks = weeks
        self.under_way = under_way  # the week not ended yet (the campaign's current week), if any
        self.title = title
        self.on_close = on_close
        self.pages: list[tuple[WeekPage, Any]] = []
        for w in weeks:
            self.pages += [(w, b) for b in w.battles]
            self.pages.append((w, None))
        self.index = 0
        if start_at_week is not None:
            self.index = next((i for i, (w, _) in enumerate(self.pages) if w.week == start_at_week), 0)
        self.scroll = 0
        self.drawn_strings: list[str] = []
        self.ui = app.make_ui()
        self._build()

    def _build(self) -> None:
        self.ui.clear_and_reset()
        w, h = self.app.screen.get_size()
        bw = 180
        self.prev = Button(pygame.Rect(20, h - 56, bw, 40), "< Previous (Left)", self.ui)
        last = self.index >= len(self.pages) - 1
        self.next = Button(pygame.Rect(30 + bw, h - 56, bw, 40), "Next >" if last else "Next (Enter) >", self.ui)
        self.close = Button(pygame.Rect(w - bw - 20, h - 56, bw, 40),
                            "Back to the map (Enter)" if last else "Back to the map (Esc)", self.ui)
        if self.index <= 0:
            self.prev.disable()  # type: ignore[no-untyped-call]
        if self.index >= len(self.pages) - 1:
            self.next.disable()  # type: ignore[no-untyped-call]

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def turn(self, by: int) -> None:
        self.index = max(0, min(len(self.pages) - 1, self.index + by))
        self.scroll = 0
        self._build()

    def leave(self) -> None:
        self.app.pop()
        if self.on_close is not None:
            self.on_close()

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.prev:
                self.turn(-1)
            elif event.ui_element is self.next:
                self.turn(1)
            elif event.ui_element is self.close:
                self.leave()
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE or (event.key in (pygame.K_RETURN, pygame.K_KP_ENTER)
                                                and self.index >= len(self.pages) - 1):
                self.leave()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.turn(1)
            elif event.key in (pygame.K_RIGHT, pygame.K_PAGEDOWN):
                self.turn(1)
            elif event.key in (pygame.K_LEFT, pygame.K_PAGEUP):
                self.turn(-1)
            elif event.key == pygame.K_DOWN:
                self.scroll += 3
            elif event.key == pygame.K_UP:
                self.scroll = max(0, self.scroll - 3)
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - 3 * event.y)

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    def _lines(self) -> list[tuple[str, int, bool, tuple[int, int, int]]]:
        if not self.pages:
            return [("No battle has been fought yet.", 15, False, (230, 230, 230))]
        week, page = self.pages[self.index]
        out: list[tuple[str, int, bool, tuple[int, int, int]]] = []
        going = week.week == self.under_way
        if page is None and going:
            return so_far(week)
        if page is None:
            out.append((f"Week {week.week}: summary", 20, True, (240, 220, 160)))
            out += [(s, 15, False, (230, 230, 230)) for s in week.summary]
            return out
        where = f" at {page.hex[0]},{page.hex[1]}" if page.hex else ""
        out.append((f"Week {week.week}: battle {page.battle}{where}", 20, True, (240, 220, 160)))
        for head, text in page.lines():
            if head:
                out.append((head, 16, True, (200, 210, 240)))
            else:
                out.append((text, 14, False, (230, 230, 230)))
        if going and not page.result:
            out.append(("Not resolved yet: the orders are revealed and the battle resolved once every side has "
                        "sealed its orders (the week's reveal).", 14, False, (190, 190, 200)))
        return out

    def draw(self, surface: pygame.Surface) -> None:
        self.drawn_strings = []
        surface.fill((22, 24, 30))
        w, h = surface.get_size()
        x, y = 24, 14
        head = f"{self.title}   (page {self.index + 1} of {max(1, len(self.pages))})"
        self._blit(surface, head, (x, y), 15, False, (170, 170, 190))
        y += 26
        rows: list[tuple[str, int, bool, tuple[int, int, int]]] = []
        for text, size, bold, colour in self._lines():
            for i, part in enumerate(wrap(text, size, bold, w - 2 * x - 20)):
                rows.append((part if i == 0 else "    " + part, size, bold, colour))
        self.scroll = min(self.scroll, max(0, len(rows) - 3))
        for text, size, bold, colour in rows[self.scroll:]:
            if y + size + 4 > h - 66:
                self._blit(surface, "... (Down or the wheel: more)", (x, h - 84), 12, False, (170, 170, 190))
                break
            self._blit(surface, text, (x, y), size, bold, colour)
            y += size + 6
        self.ui.draw_ui(surface)

    def _blit(self, surface: pygame.Surface, text: str, pos: tuple[int, int], size: int, bold: bool,
              colour: tuple[int, int, int]) -> None:
        self.drawn_strings.append(text)
        surface.blit(font(size, bold).render(text, True, colour), pos)


def so_far(week: WeekPage) -> list[tuple[str, int, bool, tuple[int, int, int]]]:
    """The last page of a week not ended yet: what there is so far, never a summary (the rules'
    summary counts the battles as fought)."""
    resolved = [p for p in week.battles if p.result]
    n = len(week.battles)
    out = [(f"Week {week.week} so far (the week has not ended)", 20, True, (240, 220, 160)),
           (f"{n} battle{'' if n == 1 else 's'} begun, {len(resolved)} resolved so far. Each battle is resolved "
            "once every side has sealed its orders; the week's summary comes when the week ends.", 15, False,
            (230, 230, 230))]
    out += [(s, 15, False, (230, 230, 230)) for s in week.summary[1:] if s.startswith("Battle ")]
    return out


def wrap(text: str, size: int, bold: bool, width: int) -> list[str]:
    """The text broken at spaces into lines no wider than `width` pixels (measured with the
    following lines' indent), for the campaign's panels and pages."""
    f = font(size, bold)
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        cand = f"{line} {word}" if line else word
        if line and f.size("    " + cand)[0] > width:
            out.append(line)
            line = word
        else:
            line = cand
    out.append(line)
    return out
