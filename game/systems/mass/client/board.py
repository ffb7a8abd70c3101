"""The battle board of a mass battle.

Layout: a top bar (battle, ground, Wave, stage); one column per force (commander, individuals
with their wound level and Void points, Brute divisions with head counts, the Advantage of each
Way and the total as bars); the Phase track 1-10 with each force's action dice; the commands the
rules list as legal (click one, or Up/Down, then Enter or the Apply button); the exact odds of the
chosen command before it is applied; the casualty table of the last Wave; the log, with each
roll's dice, chains (10+10+3), kept dice in brackets, Raises and a luck line.

Hotseat: when the decision passes to another force, a hand-off screen hides the board first.
`draw()` only reads; the session's `apply` is the only way the state changes.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.core.system import possessive
from game.shell import actions
from game.shell.fonts import text
from game.shell.keymap import Binding
from game.shell.scene import Scene
from game.shell.scenes.handoff import HandoffScene
from game.shell.toolkit.buttons import Button

BG = (18, 20, 24)
PANEL = (28, 31, 37)
INK = (228, 224, 214)
DIM = (150, 146, 136)
GOLD = (224, 184, 100)
GOOD = (143, 209, 138)
BAD = (255, 122, 106)
FORCE_COLOURS = [(196, 70, 60), (70, 120, 200), (90, 170, 90), (200, 160, 60), (150, 90, 180)]
WAY_COLOURS = {"heaven": (150, 170, 230), "honor": (230, 220, 150), "glory": (240, 150, 80),
               "strategy": (120, 200, 150), "terrain": (170, 140, 110)}


def open_scene(app: Any, session: Any) -> Scene:
    return MassBoardScene(app, session)


class MassBoardScene(Scene):
    name = "mass-board"
    game_scene = True  # a live game: the shell's save / load / quit, undo / redo and F1 help act on it
    # the board's own keys, for the F1 help (handle_event handles them); Esc, Ctrl+Z / Ctrl+Y are
    # the shell's (quit asking first, undo / redo)
    KEYS = (Binding((pygame.K_UP, pygame.K_DOWN), "Up / Down", "choose a command"),
            Binding((pygame.K_PAGEUP, pygame.K_PAGEDOWN), "PageUp / PageDown", "a page of commands"),
            Binding((pygame.K_RETURN, pygame.K_KP_ENTER), "Enter", "apply the chosen command"))

    def __init__(self, app: Any, session: Any) -> None:
        super().__init__(app)
        self.session = session
        self.system = session.system
        self.log: list[tuple[str, tuple[int, int, int]]] = []
        self.casualties: list[str] = []
        self.selected = 0
        self.scroll = 0
        self.shown_side: str | None = None
        self.message = ""
        self.ui = app.make_ui()
        self._refresh()
        self._build()
        self._intro()

    # ------------------------------------------------------------------ set-up
    def _intro(self) -> None:
        lb = self.session.loaded
        note = getattr(lb, "note", "")
        self._say(f"{getattr(lb, 'name', 'Battle')}: {getattr(lb, 'description', '')}", GOLD)
        if note:
            self._say(note, DIM if "a battle" in note else BAD)
        setup = self.session.state.setup
        self._say(f"Ground: {setup.terrain}" + (f" ({setup.terrain_note})" if setup.terrain_note else ""), DIM)

    def _rects(self) -> dict[str, pygame.Rect]:
        w, h = self.app.screen.get_size()
        top = pygame.Rect(0, 0, w, 34)
        forces = pygame.Rect(0, 34, w, int(h * 0.42))
        track = pygame.Rect(0, forces.bottom, w, 70)
        lower = h - track.bottom
        cmds = pygame.Rect(0, track.bottom, w // 3, lower)
        odds = pygame.Rect(cmds.right, track.bottom, w // 3, lower - 50)
        log = pygame.Rect(odds.right, track.bottom, w - odds.right, lower)
        button = pygame.Rect(odds.x + 10, odds.bottom + 6, odds.w - 20, 38)
        return {"top": top, "forces": forces, "track": track, "cmds": cmds, "odds": odds, "log": log,
                "button": button}

    def _build(self) -> None:
        self.ui.clear_and_reset()
        r = self._rects()
        self.apply_button = Button(r["button"], "Apply (Enter)", self.ui)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()

    # ------------------------------------------------------------------ the rules' answers
    def _refresh(self) -> None:
        s = self.session.state
        self.legal = list(self.system.legal_commands(s))
        movers = self.system.to_move(s)
        if self.shown_side is None and movers:
            self.shown_side = movers[0]
        if len(movers) > 1 and self.shown_side in movers:
            # several forces decide at once (the sealed appointments): the screen offers only the
            # choices of the force it was handed to; the others get it behind the hand-off
            self.legal = [c for c in self.legal if getattr(c, "force", self.shown_side) == self.shown_side]
        self.labels = [self.system.describe_command(s, c) for c in self.legal]
        self.selected = min(self.selected, max(0, len(self.legal) - 1))
        self._preview()

    def _preview(self) -> None:
        self.odds_lines: list[str] = []
        if not self.legal:
            return
        p = self.system.preview(self.session.state, self.legal[self.selected])
        if p is not None:
            self.odds_lines = [getattr(p, "title", "")] + list(getattr(p, "lines", ()))

    def toast(self, text: str, seconds: float = 3.0) -> None:
        """A message from the shell (saved, loaded, refused): into the log, where it stays."""
        self._say(text, (255, 200, 120))

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A shell message in its tone: a confirmation in the log's normal colour, a problem as a refusal."""
        self._say(text, BAD if problem else INK)
        return True

    def after_change(self) -> None:
        """The shell's undo / redo changed the state: the board's lists follow it."""
        self.selected = 0
        self.scroll = 0
        self._refresh()

    def _say(self, line: str, colour: tuple[int, int, int] = INK) -> None:
        self.log.append((line, colour))
        self.log = self.log[-200:]

    # ------------------------------------------------------------------ input
    def choose(self, index: int) -> None:
        if self.legal:
            self.selected = max(0, min(len(self.legal) - 1, index))
            visible = self._visible_rows()
            if self.selected < self.scroll:
                self.scroll = self.selected
            elif self.selected >= self.scroll + visible:
                self.scroll = self.selected - visible + 1
            self._preview()

    def apply_selected(self) -> None:
        if not self.legal:
            return
        before = self.session.state
        cmd = self.legal[self.selected]
        ok, events, reason = self.session.apply(cmd)
        if not ok:
            self.message = reason or "refused"
            self._say(f"refused: {reason}", BAD)
            return
        self.message = ""
        sealed = getattr(self.system, "sealed", None)
        if sealed is not None and sealed(before, cmd):  # its content stays hidden from the next force
            self._say(f"> {before.forces[cmd.force].name} makes its sealed choice", GOLD)
        else:
            self._say("> " + self.system.describe_command(before, cmd), GOLD)
        new_cas: list[str] = []
        for e in events:
            line = self.system.describe_event(before, e)
            colour = INK
            if getattr(e, "kind", "") == "rolled":
                colour = (200, 200, 240)
            elif getattr(e, "what", "") in ("way_won", "battle_end", "terrain"):
                colour = GOOD
            elif getattr(e, "what", "") in ("commander_lost", "obliterated", "defeated", "fled"):
                colour = BAD
            self._say(line, colour)
            if getattr(e, "what", "") in ("casualties", "wounds"):
                new_cas.append(getattr(e, "text", line))
        if new_cas and getattr(cmd, "kind", "") == "resolve_wave":
            self.casualties = new_cas
        self.selected = 0
        self.scroll = 0
        self._handoff()  # first: the list is then the choices of the force the screen goes to
        self._refresh()
        actions.after_change(self)  # the autosave at each new Wave

    def _handoff(self) -> None:
        s = self.session.state
        movers = self.system.to_move(s)
        if not movers or s.stage == "ended":
            return
        side = movers[0]
        if self.shown_side is not None and side != self.shown_side:
            idx = s.order.index(side)
            self.app.push(HandoffScene(self.app, s.forces[side].name, FORCE_COLOURS[idx % len(FORCE_COLOURS)],
                                       f"{possessive(s.forces[side].name)} commander decides next."))
        self.shown_side = side

    def handle_event(self, event: pygame.event.Event) -> None:
        self.ui.process_events(event)
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element is self.apply_button:
            self.apply_selected()
        elif event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.apply_selected()
            elif event.key == pygame.K_DOWN:
                self.choose(self.selected + 1)
            elif event.key == pygame.K_UP:
                self.choose(self.selected - 1)
            elif event.key == pygame.K_PAGEDOWN:
                self.choose(self.selected + self._visible_rows())
            elif event.key == pygame.K_PAGEUP:
                self.choose(self.selected - self._visible_rows())
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            r = self._rects()["cmds"]
            if r.collidepoint(event.pos):
                row = (event.pos[1] - r.y - 28) // 20
                if row >= 0:
                    self.choose(self.scroll + row)
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, min(max(0, len(self.legal) - self._visible_rows()), self.scroll - event.y))

    def update(self, dt: float) -> None:
        if self.shown_side is None:
            movers = self.system.to_move(self.session.state)
            self.shown_side = movers[0] if movers else None
        self.ui.update(dt)

    def _visible_rows(self) -> int:
        return max(1, (self._rects()["cmds"].h - 36) // 20)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        r = self._rects()
        s = self.session.state
        self._draw_top(surface, r["top"], s)
        self._draw_forces(surface, r["forces"], s)
        self._draw_track(surface, r["track"], s)
        self._draw_commands(surface, r["cmds"], s)
        self._draw_odds(surface, r["odds"])
        self._draw_log(surface, r["log"])
        self.ui.draw_ui(surface)

    def _draw_top(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        pygame.draw.rect(surface, PANEL, rect)
        summ = self.system.summary(s)
        movers = self.system.to_move(s)
        who = ", ".join(s.forces[m].name for m in movers)
        line = (f"{s.setup.name}  |  {s.setup.terrain.title()} ground  |  Wave {s.wave}  |  {summ['phase']}"
                + (f"  |  deciding: {who}" if who else ""))
        if s.stage == "ended":
            line = f"{s.setup.name}  |  battle over: " + (
                f"{s.forces[s.winner].name} wins ({s.end_reason})" if s.winner else f"no victor ({s.end_reason})")
        surface.blit(text(line, 16, GOLD, True), (10, rect.y + 8))

    def _draw_forces(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        from game.systems.mass.rules.pools import level_name, size

        n = len(s.order)
        w = rect.w // n
        top_total = max([1] + [f.total() for f in s.forces.values()])
        for i, fid in enumerate(s.order):
            f = s.forces[fid]
            box = pygame.Rect(rect.x + i * w + 6, rect.y + 6, w - 12, rect.h - 12)
            colour = FORCE_COLOURS[i % len(FORCE_COLOURS)]
            pygame.draw.rect(surface, PANEL, box, border_radius=6)
            pygame.draw.rect(surface, colour, pygame.Rect(box.x, box.y, box.w, 5), border_top_left_radius=6,
                             border_top_right_radius=6)
            y = box.y + 10
            status = "" if f.in_field else f"  [{f.status}]"
            surface.blit(text(f"{f.name}{status}", 17, colour, True), (box.x + 10, y))
            surface.blit(text(f"{size(s.rules, f)} fighting", 14, DIM), (box.right - 110, y + 2))
            y += 26
            for p in f.people.values():
                mark = "* " if p.id == f.commander else "  "
                lvl = "fled" if p.fled else level_name(s.rules, p)
                tags = f" ({', '.join(p.stats.tags)})" if p.stats.tags else ""
                extra = (" deadly" if p.deadly else "") + (" traversable" if p.traversable else "")
                c = BAD if lvl in ("Down", "Out", "Dead", "fled") else INK
                surface.blit(text(f"{mark}{p.name}{tags}: {lvl}, {p.wounds} Wounds, Void {p.void_left}{extra}",
                                  14, c), (box.x + 10, y))
                y += 18
            for d in f.brutes:
                surface.blit(text(f"  Brutes, {d.armour} armour: {d.count}", 14, INK), (box.x + 10, y))
                y += 18
            if f.brutes_wounded:
                surface.blit(text(f"  out of the battle: {f.brutes_wounded} wounded, {f.brutes_killed} of them dead",
                                  13, DIM), (box.x + 10, y))
                y += 18
            y += 4
            bar_w = box.w - 120
            for way in ("heaven", "honor", "glory", "strategy", "terrain"):
                v = f.advantage.get(way, 0)
                surface.blit(text(way.title(), 13, DIM), (box.x + 10, y))
                pygame.draw.rect(surface, (45, 48, 55), pygame.Rect(box.x + 80, y + 3, bar_w, 10))
                pygame.draw.rect(surface, WAY_COLOURS[way],
                                 pygame.Rect(box.x + 80, y + 3, int(bar_w * v / top_total), 10))
                surface.blit(text(str(v), 13, INK), (box.x + 86 + bar_w, y))
                y += 16
            tot = f.total()
            surface.blit(text("Total", 14, GOLD, True), (box.x + 10, y + 2))
            pygame.draw.rect(surface, (45, 48, 55), pygame.Rect(box.x + 80, y + 4, bar_w, 14))
            pygame.draw.rect(surface, colour, pygame.Rect(box.x + 80, y + 4, int(bar_w * tot / top_total), 14))
            surface.blit(text(str(tot), 15, GOLD, True), (box.x + 86 + bar_w, y + 2))

    def _draw_track(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        pygame.draw.rect(surface, PANEL, rect)
        cell = (rect.w - 120) // 10
        surface.blit(text("Phases", 14, DIM, True), (rect.x + 10, rect.y + 6))
        for ph in range(1, 11):
            x = rect.x + 100 + (ph - 1) * cell
            now = s.stage == "phases" and s.phase == ph
            pygame.draw.rect(surface, (70, 64, 40) if now else (40, 43, 50), pygame.Rect(x, rect.y + 4, cell - 4, 62),
                             border_radius=4)
            surface.blit(text(str(ph), 14, GOLD if now else DIM, True), (x + 4, rect.y + 6))
            for i, fid in enumerate(s.order):
                f = s.forces[fid]
                count = sum(1 for d in f.dice if d == ph)
                held = sum(1 for d in f.dice if d < ph) if now else 0
                col = FORCE_COLOURS[i % len(FORCE_COLOURS)]
                for k in range(count + held):
                    pygame.draw.rect(surface, col, pygame.Rect(x + 22 + k * 14, rect.y + 8 + i * 16, 11, 11),
                                     width=0 if k < count else 2, border_radius=2)

    def _draw_commands(self, surface: pygame.Surface, rect: pygame.Rect, s: Any) -> None:
        pygame.draw.rect(surface, PANEL, rect.inflate(-8, -8), border_radius=6)
        head = "Your choices (legal commands)" if self.legal else "No decision waiting"
        surface.blit(text(head, 15, GOLD, True), (rect.x + 12, rect.y + 8))
        y = rect.y + 30
        for i in range(self.scroll, min(len(self.legal), self.scroll + self._visible_rows())):
            sel = i == self.selected
            if sel:
                pygame.draw.rect(surface, (60, 56, 40), pygame.Rect(rect.x + 8, y - 1, rect.w - 16, 19))
            label = self.labels[i]
            if len(label) > 70:
                label = label[:68] + "..."
            surface.blit(text(label, 13, GOLD if sel else INK), (rect.x + 14, y))
            y += 20
        if self.message:
            surface.blit(text(self.message[:90], 13, BAD), (rect.x + 12, rect.bottom - 22))

    def _draw_odds(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, PANEL, rect.inflate(-8, -8), border_radius=6)
        y = rect.y + 8
        surface.blit(text("Exact odds before you choose", 15, GOLD, True), (rect.x + 12, y))
        y += 22
        for line in self.odds_lines[:8]:
            for chunk in _wrap(line, 58):
                surface.blit(text(chunk, 13, INK), (rect.x + 12, y))
                y += 17
        if self.casualties:
            y += 6
            surface.blit(text("Last Wave's casualties", 14, GOLD, True), (rect.x + 12, y))
            y += 20
            for line in self.casualties:
                for chunk in _wrap(line, 58):
                    if y > rect.bottom - 18:
                        return
                    surface.blit(text(chunk, 12, DIM), (rect.x + 12, y))
                    y += 15

    def _draw_log(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        pygame.draw.rect(surface, PANEL, rect.inflate(-8, -8), border_radius=6)
        surface.blit(text("Battle log", 15, GOLD, True), (rect.x + 12, rect.y + 8))
        lines: list[tuple[str, tuple[int, int, int]]] = []
        for line, colour in self.log:
            lines += [(chunk, colour) for chunk in _wrap(line, 62)]
        rows = (rect.h - 40) // 16
        y = rect.y + 30
        for line, colour in lines[-rows:]:
            surface.blit(text(line, 12, colour), (rect.x + 12, y))
            y += 16


def _wrap(line: str, width: int) -> list[str]:
    out: list[str] = []
    while len(line) > width:
        cut = line.rfind(" ", 0, width)
        cut = width if cut <= 0 else cut
        out.append(line[:cut])
        line = "  " + line[cut:].lstrip()
    out.append(line)
    return out
