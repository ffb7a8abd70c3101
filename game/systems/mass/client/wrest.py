"""Wresting command from the board (battle-waves §7.3): who of the forces at the screen may take
command now, each individual of each force with what the rules say (`wresting.wrest_choices`),
then a confirmation before the Act of Vice is done.

`WrestScene` is drawn over the board: a heading per force (its commander now), a row per
individual, either "takes command from ..." or, dimmed, the rules' reason why not (the commander
already commands; Down, Out or fled; a duel waits for its answer; ...). Up/Down, a click or the
wheel chooses a row; the "Take command" button (Enter) is enabled exactly when the rules accept
the chosen row's wrest, and asks first (`confirm_dialog`): the Act of Vice, the Glory it costs
and who leads from then on. Esc or Cancel closes it. The board plays the command through the
session (`MassBoardScene._play`), which logs it as every other command.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pygame
import pygame_gui

from game.shell.contracts import AppContext
from game.shell.draw import shade
from game.shell.fonts import text, wrap_px
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import Span, styled
from game.systems.mass.io.picture import BG, DIM, GOLD, INK, PANEL
from game.systems.mass.rules import commands as c
from game.systems.mass.rules.choices import person_label
from game.systems.mass.rules.state import MassState
from game.systems.mass.rules.wresting import WrestChoice, wrest_choices, wrest_effects

ROW_SIZE = 13
ROW_LINE = 17
HEAD_SIZE = 14
INTRO = ("A member of a force may take its command from the one who leads it: an Act of Vice. "
         "From then on they are the real commander. Choose who:")


@dataclass(frozen=True)
class WrestRow:
    """One line group of the list as drawn: a force's heading (`index` None) or an individual,
    with its wrapped lines and its box; `index` is the individual's place in `WrestScene.choices`."""

    force: str
    index: int | None
    lines: tuple[str, ...]
    rect: pygame.Rect


def row_text(s: MassState, w: WrestChoice) -> str:
    """What a row says: who, and either whom they take command from or why the rules refuse it."""
    f = s.forces[w.command.force]
    p = f.people[w.command.person]
    if w.allowed:
        now = f.people[f.commander].name if f.commander in f.people else "nobody"
        return f"{person_label(p)}: takes command from {now}"
    return f"{person_label(p)}: {w.refusal}"


def confirm_dialog(app: AppContext, s: MassState, cmd: c.WrestCommand,
                   do: Callable[[c.WrestCommand], object]) -> DialogScene:
    """The question before the Act of Vice: what it does, with "Wrest command (Y)" and "Keep the
    commander (N)" (or Esc)."""
    f = s.forces[cmd.force]
    who = f.people[cmd.person].name
    body = styled(Span("An Act of Vice. ", bold=True), "\n".join(wrest_effects(s, cmd)))
    w, h = app.screen.get_size()
    keep = Choice("Keep the commander (N)", None, pygame.K_n)
    return DialogScene(app, f"{who} wrests command of {f.name}?", body,
                       [Choice("Wrest command (Y)", lambda: do(cmd), pygame.K_y, primary=True), keep],
                       size=(min(640, w - 40), min(300, h - 40)), cancel=keep, name="confirm_wrest")


class WrestScene(Scene):
    """The list of who may take command, over the board. `forces`: the forces at the screen;
    `colours`: each force's colour; `do`: plays a confirmed wrest (the board's)."""

    overlay = True
    name = "wrest"
    KEYS = (Binding((pygame.K_UP, pygame.K_DOWN), "Up / Down", "choose who takes command"),
            Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "take command with the one chosen (asks first)"),
            Binding((pygame.K_ESCAPE,), "Esc", "close without wresting command"))

    def __init__(self, app: AppContext, state: MassState, forces: Sequence[str],
                 colours: dict[str, tuple[int, int, int]], do: Callable[[c.WrestCommand], object]) -> None:
        super().__init__(app)
        self.state = state
        self.forces = list(forces)
        self.colours = colours
        self.do = do
        self.choices: list[WrestChoice] = [w for fid in self.forces for w in wrest_choices(state, fid)]
        allowed = [i for i, w in enumerate(self.choices) if w.allowed]
        self.selected = allowed[0] if allowed else 0
        self.scroll = 0
        self.ui = app.make_ui()
        self.take_button: Any = None
        self.cancel_button: Any = None
        self._build()

    # ------------------------------------------------------------------ layout
    def _box(self) -> pygame.Rect:
        """As tall as the whole list needs, within the window."""
        w, h = self.app.screen.get_size()
        bw = min(760, w - 40)
        width = bw - 44
        need = 46 + ROW_LINE * len(wrap_px(INTRO, ROW_SIZE, bw - 32)) + 6 + 84
        last = None
        for ch in self.choices:
            if ch.command.force != last:
                last = ch.command.force
                need += (ROW_LINE + 4) * len(wrap_px(self._head(last), HEAD_SIZE, width, True)) + 4
            need += ROW_LINE * len(wrap_px(row_text(self.state, ch), ROW_SIZE, width)) + 4
        bh = max(220, min(need, h - 40))
        return pygame.Rect((w - bw) // 2, (h - bh) // 2, bw, bh)

    def _list_rect(self) -> pygame.Rect:
        box = self._box()
        top = box.y + 40 + ROW_LINE * len(wrap_px(INTRO, ROW_SIZE, box.w - 32)) + 6
        return pygame.Rect(box.x + 12, top, box.w - 24, box.bottom - 78 - top)

    def _head(self, fid: str) -> str:
        f = self.state.forces[fid]
        now = f.people[f.commander].name if f.commander in f.people else "nobody"
        return f"{f.name} (commanded by {now})"

    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        box = self._box()
        bw = min(220, (box.w - 36) // 2)
        y = box.bottom - 50
        self.take_button = Button(pygame.Rect(box.right - 12 - 2 * bw - 12, y, bw, 38), "Take command (Enter)",
                                  self.ui, object_id=pygame_gui.core.ObjectID(class_id="@primary"))
        self.cancel_button = Button(pygame.Rect(box.right - 12 - bw, y, bw, 38), "Cancel (Esc)", self.ui)
        if not self.chosen_allowed():
            self.take_button.disable()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    def chosen(self) -> WrestChoice | None:
        return self.choices[self.selected] if self.choices else None

    def chosen_allowed(self) -> bool:
        w = self.chosen()
        return w is not None and w.allowed

    def rows(self) -> list[WrestRow]:
        """The headings and individuals drawn from `scroll` on (the individual at `scroll` first,
        under its force's heading), each wrapped to the box."""
        area = self._list_rect()
        width = area.w - 20
        out: list[WrestRow] = []
        y = area.y
        last_force = None
        for i in range(self.scroll, len(self.choices)):
            w = self.choices[i]
            fid = w.command.force
            parts: list[tuple[int | None, tuple[str, ...], int]] = []
            if fid != last_force:
                parts.append((None, tuple(wrap_px(self._head(fid), HEAD_SIZE, width, True)), ROW_LINE + 4))
            parts.append((i, tuple(wrap_px(row_text(self.state, w), ROW_SIZE, width)), ROW_LINE))
            need = sum(len(lines) * line + 4 for _, lines, line in parts)
            if y + need > area.bottom and out:
                break
            for index, lines, line in parts:
                h = len(lines) * line + 4
                out.append(WrestRow(fid, index, lines, pygame.Rect(area.x, y, area.w, h)))
                y += h
            last_force = fid
        return out

    # ------------------------------------------------------------------ input
    def choose(self, index: int) -> None:
        if not self.choices:
            return
        self.selected = max(0, min(len(self.choices) - 1, index))
        if self.selected < self.scroll:
            self.scroll = self.selected
        else:
            while self.scroll < self.selected and all(r.index != self.selected for r in self.rows()):
                self.scroll += 1
        self._build()

    def take(self) -> None:
        """The chosen one takes command, once the confirmation says so; a refused row says why."""
        w = self.chosen()
        if w is None:
            return
        if not w.allowed:
            return
        self.app.pop()
        self.app.push(confirm_dialog(self.app, self.state, w.command, self.do))

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element is self.take_button:
                self.take()
            elif event.ui_element is self.cancel_button:
                self.app.pop()
            return
        if self.ui.process_events(event):
            return
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.take()
            elif event.key == pygame.K_DOWN:
                self.choose(self.selected + 1)
            elif event.key == pygame.K_UP:
                self.choose(self.selected - 1)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for r in self.rows():
                if r.index is not None and r.rect.collidepoint(event.pos):
                    self.choose(r.index)
        elif event.type == pygame.MOUSEWHEEL and self.choices:
            self.scroll = max(0, min(len(self.choices) - 1, self.scroll - event.y))

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        shade(surface, 140)
        box = self._box()
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        pygame.draw.rect(surface, GOLD, box, width=1, border_radius=6)
        surface.blit(text("Wrest command", 17, GOLD, True), (box.x + 14, box.y + 10))
        y = box.y + 40
        for line in wrap_px(INTRO, ROW_SIZE, box.w - 32):
            surface.blit(text(line, ROW_SIZE, INK), (box.x + 16, y))
            y += ROW_LINE
        rows = self.rows()
        for r in rows:
            if r.index is None:
                colour = self.colours.get(r.force, GOLD)
                for k, line in enumerate(r.lines):
                    surface.blit(text(line, HEAD_SIZE, colour, True), (r.rect.x + 4, r.rect.y + 3 + k * (ROW_LINE + 4)))
                continue
            w = self.choices[r.index]
            sel = r.index == self.selected
            if sel:
                pygame.draw.rect(surface, (60, 56, 40) if w.allowed else BG, r.rect, border_radius=3)
            colour = (GOLD if sel else INK) if w.allowed else DIM
            for k, line in enumerate(r.lines):
                surface.blit(text(line, ROW_SIZE, colour), (r.rect.x + 14, r.rect.y + 2 + k * ROW_LINE))
        shown = sum(1 for r in rows if r.index is not None)
        above, below = self.scroll, len(self.choices) - self.scroll - shown
        if above or below:
            where = [f"{above} above"] * bool(above) + [f"{below} below"] * bool(below)
            note = f"{' and '.join(where)}: Up / Down or the wheel"
            surface.blit(text(note, 11, DIM), (box.x + 16, box.bottom - 72))
        if not self.choices:
            surface.blit(text("Nobody at this screen may take command.", ROW_SIZE, DIM), (box.x + 16, y + 6))
        self.ui.draw_ui(surface)
