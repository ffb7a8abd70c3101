"""The mass battle's replay view (F3, or `python -m game replay SAVE --view`): the battle board
as it stood after the first N commands, stepped one command at a time, forward and back, or a
Wave at a time.

The board (the force cards, the Phase track, the top bar and the log) is drawn by an ordinary
`MassBoardScene` that never gets an event nor an update: it is given a display session of its
own, whose history is set to the first N commands of the game (so its state is the state after
them). The live game's session is only read: its history and state are the same after the
replay closes as before it opened. The lower left, where the board lists its choices, is the
replay's own panel: the command of this step and its dice and events, worded as the board's log
words them (`board.command_lines`), and the buttons.

Keys: Right / D / Space next command · Left / A previous · PageDown / PageUp next / previous
Wave · 1-9 Wave N · Home / End first / last · Esc closes.

Hidden information [decision]: the live board never shows what a sealed appointment chose until
the rules announce every force's (the log says only "... makes its sealed choice"); the force
cards and the track show nothing sealed. The replay does the same, with one difference that
follows from stepping back and forth: a sealed appointment's content is shown at its own step
only when the game being replayed went on to announce it (a later command left the sealed
appointments), or to the GM (the replay opened from GM mode). So a replay opened in the middle
of the sealed appointments tells nobody but the GM what the forces that chose already chose.
The computer's why lines are shown as the game has shown them (one still held back for a sealed
choice is not). The faces the GM queued for the next rolls are shown only to the GM, as on the
board (the rolls themselves say "GM-forced").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.core.record import Record
from game.core.system import counted
from game.shell.fonts import text, wrap_px
from game.shell.keymap import Binding
from game.shell.replay_alone import ALONE_ESC, AloneReplay
from game.shell.scene import Scene
from game.shell.seats import Seats, is_sealed
from game.shell.session import Session
from game.shell.toolkit.buttons import Button
from game.systems.mass.client.board import MassBoardScene, command_label, command_lines, event_line
from game.systems.mass.io.picture import BG, DIM, GOLD, INK, PANEL

GM_GOLD = (224, 184, 100)
STEP_SIZE = 13
STEP_LINE = 16


def terminal_lines(system: Any, step: Any, *, reveal: bool, gm: bool) -> tuple[str, list[str]]:
    """A step of `python -m game replay SAVE` (game/cli/replay.py) as this view shows it: the
    command in the rules' words, a sealed choice only as made ("... makes its sealed choice")
    unless `reveal` (announced later in the game, or the GM); its events, the faces the GM forced
    for the next rolls only to the `gm`."""
    if is_sealed(system, step.before, step.command) and not reveal:
        said = command_label(system, step.before, step.command)
    else:
        said = str(system.describe_command(step.before, step.command))
    return said, [event_line(system, step.after, step.command, e, gm_eyes=gm) for e in step.events]


def _goto(index: int) -> Any:
    return lambda scene: scene.goto(index)


def _wave(state: Any) -> int:
    """The period the replay view jumps by: the Wave."""
    return int(state.wave)


class MassReplayScene(AloneReplay, Scene):  # (alone: no game under it; game/shell/replay_alone.py)
    overlay = False
    name = "replay"
    KEYS = (Binding((pygame.K_RIGHT, pygame.K_d, pygame.K_SPACE), "Right / D / Space", "the next command",
                    lambda r: r.step_forward()),
            Binding((pygame.K_LEFT, pygame.K_a), "Left / A", "the command before",
                    lambda r: r.step_back()),
            Binding((pygame.K_PAGEDOWN,), "PageDown", "the start of the next Wave", lambda r: r.next_wave()),
            Binding((pygame.K_PAGEUP,), "PageUp", "the start of this Wave (again: the Wave before)",
                    lambda r: r.previous_wave()),
            Binding((pygame.K_HOME,), "Home", "the battle as it started", _goto(0)),
            Binding((pygame.K_END,), "End", "after the last command", lambda r: r.goto(len(r.steps))),
            Binding(tuple(range(pygame.K_1, pygame.K_9 + 1)), "1-9", "the start of Wave N",
                    lambda r: r.jump_to_wave(r.last_digit)),
            Binding((pygame.K_ESCAPE,), "Esc", "close the replay (the game is as it was)", lambda r: r.close()))

    def __init__(self, app: Any, session: Session, steps: Sequence[Any], *, title: str = "",
                 start: int | None = None, gm: bool = False) -> None:
        """`session`: the game (only read); `steps`: its history, each with `before`, `command`,
        `events`, `after`; the view opens on `start` (default: after the last step). `gm`: opened
        from GM mode (sealed choices shown)."""
        super().__init__(app)
        self.source = session
        self.steps = list(steps)
        self.initial = self.steps[0].before if self.steps else session.state
        self.history = Record(session.system, self.initial, list(self.steps))  # where it steps and jumps
        self.title = "The replay view"  # the screen's name (the shell's "close this first" says it)
        self.game_title = title or getattr(session.loaded, "name", "") or "Mass battle"
        self.gm = gm
        system = session.system
        self.display = Session(system=system, record=Record(system, self.initial), game_setup=session.game_setup,
                               setup=session.setup, seed=session.seed, path=session.path, loaded=session.loaded,
                               seats=Seats(dict(session.seats.levels)))
        self.view = MassBoardScene(app, self.display)
        # the last step of the history whose state is past the sealed appointments: every sealed
        # choice before it has been announced in the game
        self._announced_before = max((i for i, st in enumerate(self.steps) if st.after.stage != "appoint"),
                                     default=-1)
        self.index = 0
        self.last_digit = 0  # the digit key just pressed (1-9: that Wave)
        self.note = ""  # why the last key did nothing (shown in the panel until the next key)
        self.step_lines: list[tuple[str, tuple[int, int, int]]] = []
        self.buttons: dict[Any, str] = {}
        self.ui = app.make_ui()
        self._build()
        self.goto(len(self.steps) if start is None else start)

    # ------------------------------------------------------------------ positions
    def state_at(self, index: int) -> Any:
        """The state after the first `index` commands."""
        return self.history.state_at(index)

    def revealed(self, i: int) -> bool:
        """Whether step `i` (0-based) may show what it chose: not sealed, or announced later in
        the game, or the GM is watching."""
        step = self.steps[i]
        if self.gm or not is_sealed(self.display.system, step.before, step.command):
            return True
        return i < self._announced_before

    def wave_starts(self) -> dict[int, int]:
        """Wave -> the index of its first command (the last Wave: its start, or the end)."""
        return {int(w): i for w, i in self.history.period_starts(_wave)}  # type: ignore[call-overload]

    def goto(self, index: int) -> None:
        index = max(0, min(len(self.steps), index))
        self.index = index
        self.display.record.steps = list(self.steps[:index])
        self._relog()
        self._refresh()

    def step_forward(self) -> None:
        self.goto(self.index + 1)

    def step_back(self) -> None:
        self.goto(self.index - 1)

    def jump_to_wave(self, wave: int) -> bool:
        at = self.history.period_start(_wave, wave)
        if at is None:
            self.note = f"This battle has no Wave {wave} (it reaches Wave {self.state_at(len(self.steps)).wave})."
            return False
        self.goto(at)
        return True

    def next_wave(self) -> None:
        self.goto(self.history.next_start(self.index, _wave))

    def previous_wave(self) -> None:
        self.goto(self.history.previous_start(self.index, _wave))

    def close(self) -> None:
        self.app.pop()

    # ------------------------------------------------------------------ alone (a save's replay)
    def key_map(self) -> Sequence[Binding]:
        """The view's keys; alone, Esc closes the window (there is no game to go back to)."""
        if not self.alone():
            return self.KEYS
        return tuple(replace(b, what=ALONE_ESC) if b.label == "Esc" else b for b in self.KEYS)

    def _back_words(self) -> str:
        return "Esc closes the window" if self.alone() else "Esc closes it and goes back to the game"

    # ------------------------------------------------------------------ what is shown
    def _relog(self) -> None:
        """The board's log as it stood after these commands (with what this viewer may see)."""
        v = self.view
        v.log = []
        v.casualties = []
        v._intro()
        system = self.display.system
        for i, step in enumerate(self.steps[:self.index]):
            lines, cas = command_lines(system, step.before, step.command, step.events, reveal=self.revealed(i), gm_eyes=self.gm)
            for line, colour in lines:
                v._say(line, colour)
            if cas and getattr(step.command, "kind", "") == "resolve_wave":
                v.casualties = cas
            why = self.source.seats.why_of(step)
            if why is not None:
                v._say(why, DIM)

    def _refresh(self) -> None:
        n = len(self.steps)
        if self.index == 0:
            self.step_lines = [("The battle as it started. Next > (Right arrow) plays the first command.", DIM)]
        else:
            step = self.steps[self.index - 1]
            system = self.display.system
            lines, _ = command_lines(system, step.before, step.command, step.events,
                                     reveal=self.revealed(self.index - 1), gm_eyes=self.gm)
            rolls = system.rolls(step.events)
            dice = f"dice: {', '.join(str(r) for r in rolls)}" if rolls else "no dice"
            said = lines[0][0][2:]
            mark = "GM " if step.gm and not said.startswith("GM") else ""  # (a player's command made in GM mode)
            head = f"{self.index}. {mark}{said}  ({dice})"
            self.step_lines = [(head, GOLD), *lines[1:]]
        for btn, key in self.buttons.items():
            enabled = {"first": self.index > 0, "back": self.index > 0, "prev_wave": self.index > 0,
                       "next": self.index < n, "next_wave": self.index < n, "last": self.index < n}.get(key, True)
            if enabled:
                btn.enable()
            else:
                btn.disable()

    def header(self) -> str:
        st = self.display.state
        phase = self.display.system.summary(st)["phase"]
        return f"REPLAY{' (GM)' if self.gm else ''}: {self.game_title} · command {self.index}/{len(self.steps)} · " \
               f"Wave {st.wave}, {phase}"

    # ------------------------------------------------------------------ layout
    def _rects(self) -> dict[str, pygame.Rect]:
        r = self.view._rects()
        panel = pygame.Rect(0, r["track"].bottom, r["odds"].right, r["cmds"].h)
        return {**r, "panel": panel}

    def _build(self) -> None:
        self.ui.clear_and_reset()
        self.buttons = {}
        box = self._rects()["panel"].inflate(-8, -8)
        row = (("first", "|< Start", "|<", 86), ("prev_wave", "<< Wave", "<<", 90), ("back", "< Back", "<", 80),
               ("next", "Next >", ">", 80), ("next_wave", "Wave >>", ">>", 90), ("last", "End >|", ">|", 80),
               ("close", "Close (Esc)", "Esc", 104))
        gap = 6
        scale = min(1.0, (box.w - 20 - gap * (len(row) - 1)) / sum(w for *_, w in row))
        x = box.x + 10
        y = box.bottom - 44
        for key, full, short, width in row:
            width = max(34, int(width * scale))
            label = full if scale >= 1.0 else short
            oid = ObjectID(class_id="@primary") if key == "next" else None
            btn = Button(pygame.Rect(x, y, width, 36), label, self.ui, object_id=oid,
                         tool_tip_text=full if label != full else None)
            self.buttons[btn] = key
            x += width + gap

    def on_resize(self, size: tuple[int, int]) -> None:
        self.view.on_resize(size)
        self.ui.set_window_resolution(size)
        self._build()
        self._refresh()

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            {"first": lambda: self.goto(0), "prev_wave": self.previous_wave, "back": self.step_back,
             "next": self.step_forward, "next_wave": self.next_wave, "last": lambda: self.goto(len(self.steps)),
             "close": self.close}[self.buttons[event.ui_element]]()
            return
        if self.ui.process_events(event):
            return
        if event.type == pygame.KEYDOWN:
            self.last_digit = event.key - pygame.K_0 if pygame.K_1 <= event.key <= pygame.K_9 else 0
            self.note = ""
            for b in self.KEYS:
                if b.matches(event) and b.action is not None:
                    b.action(self)
                    return
            refused = self.refused_shell_key(event)
            if refused is not None:  # (alone: the shell left the key to the view, having no game for it)
                self.note = refused
            elif event.unicode.strip():  # a board key (Enter, W, H...): said, not swallowed in silence
                self.note = f"The replay view plays nothing: step with Right / Left, {self._back_words()}."
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
                self.note = f"The replay view plays nothing: {self._back_words()}."

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        surface.fill(BG)
        r = self._rects()
        v = self.view
        s = self.display.state
        v._draw_top(surface, r["top"], s)
        v._draw_forces(surface, r["forces"], s)
        v._draw_track(surface, r["track"], s)
        self._draw_panel(surface, r["panel"])
        v._draw_log(surface, r["log"])
        pygame.draw.rect(surface, GM_GOLD if self.gm else (120, 150, 200), surface.get_rect(), 2)
        self.ui.draw_ui(surface)

    def _draw_panel(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        box = rect.inflate(-8, -8)
        pygame.draw.rect(surface, PANEL, box, border_radius=6)
        width = box.w - 20
        y = box.y + 6
        for chunk in wrap_px(self.header(), 14, width, True)[:2]:
            surface.blit(text(chunk, 14, GOLD, True), (box.x + 10, y))
            y += 18
        keys = "Right / Left: one command · PageDown / PageUp: by Wave · 1-9: Wave N · Home / End · Esc: close"
        for chunk in wrap_px(keys, 12, width)[:2]:
            surface.blit(text(chunk, 12, DIM), (box.x + 10, y))
            y += 15
        if self.note:  # a key it refused, said once
            for chunk in wrap_px(self.note, 12, width)[:2]:
                surface.blit(text(chunk, 12, (255, 150, 110)), (box.x + 10, y))
                y += 15
        y += 6
        surface.blit(text("This command", 13, INK, True), (box.x + 10, y))
        y += 19
        bottom = box.bottom - 50
        chunks: list[tuple[str, tuple[int, int, int]]] = []
        for line, colour in self.step_lines:
            chunks += [(c, colour) for c in wrap_px(line, STEP_SIZE, width)]
        for k, (chunk, colour) in enumerate(chunks):
            if y + STEP_LINE > bottom and k < len(chunks) - 1:
                more = len(chunks) - k
                surface.blit(text(f"... {counted(more, 'more line', 'more lines')}: the log on the right has them all", 11, DIM),
                             (box.x + 10, y))
                break
            surface.blit(text(chunk, STEP_SIZE, colour), (box.x + 10, y))
            y += STEP_LINE
