"""The campaign's replay view (F3): the island as the GM sees it (every army, every side's sealed
orders) at the state after N commands, stepped one command at a time or by phase and week, with
a panel giving the step's command, its dice and its events in the words of the week's report.

A replay shows every side's sealed orders, so it follows the GM view's policy exactly: it opens
from the GM view, or behind the GM's seat (gm_lock.py: the GM's passphrase once one is set; none
set and orders sealed: closed until the reveal; none set and nothing sealed: it is set there
first), never from a player's screen without it (`open_replay`). A save file's replay (the load
menu's Replay, which a player may reach, and `python -m game replay SAVE --view`) asks for the
passphrase the save keeps; a save without one opens only when nothing in it is sealed.

The map is drawn by a campaign scene of its own that never gets a click or a key: the replay
gives it a display session (a copy of the live one's beginning) whose history it sets to the
first N commands of the live game's. Nothing here applies a command, to either session: closing
(Esc) leaves the live game exactly as it was.

Keys: Right / D / Space next command · Left / A previous · PageDown / PageUp next / previous phase
· Down / Up next / previous week · 1-9 week N · Home / End first / last · wheel over the map: zoom,
over the panel: scroll its lines · right-drag: move the map · Esc closes.
"""

from __future__ import annotations

from typing import Any

import pygame
import pygame_gui

from game.core.record import Record
from game.shell.fonts import font
from game.shell.keymap import Binding, dispatch
from game.shell.scene import Scene
from game.shell.session import Session
from game.shell.toolkit.buttons import Button
from game.systems.campaign.client.gm_lock import GmLockScene, GmSeat
from game.systems.campaign.client.gm_rolls import command_text
from game.systems.campaign.client.results import wrap
from game.systems.campaign.client.scene import PANEL_W, ZOOM_STEP, CampaignScene
from game.systems.campaign.rules.models import MANOEUVRE_NAMES, display_name
from game.systems.campaign.rules.state import PHASE_NAMES, CampaignState

GOLD = (224, 184, 100)


def _week_key(n: int) -> Binding:
    return Binding((pygame.K_0 + n,), str(n), f"replay: week {n}", lambda r: r.jump_to_week(n), in_help=False)


REPLAY_KEYS: tuple[Binding, ...] = (
    Binding((pygame.K_RIGHT, pygame.K_d, pygame.K_SPACE), "Right / D / Space", "replay: one command forward",
            lambda r: r.step_forward()),
    Binding((pygame.K_LEFT, pygame.K_a), "Left / A", "replay: one command back", lambda r: r.step_back()),
    Binding((pygame.K_PAGEDOWN,), "PageDown", "replay: the next phase", lambda r: r.next_phase()),
    Binding((pygame.K_PAGEUP,), "PageUp", "replay: the start of this phase, or the phase before",
            lambda r: r.previous_phase()),
    Binding((pygame.K_DOWN,), "Down", "replay: the next week", lambda r: r.next_week()),
    Binding((pygame.K_UP,), "Up", "replay: the start of this week, or the week before", lambda r: r.previous_week()),
    Binding((pygame.K_HOME,), "Home", "replay: the start", lambda r: r.goto(0)),
    Binding((pygame.K_END,), "End", "replay: the latest command", lambda r: r.goto(len(r.steps))),
    Binding((pygame.K_PLUS, pygame.K_EQUALS, pygame.K_MINUS), "+ / -", "replay: zoom the map in / out (or the "
            "wheel over the map; right-drag moves it)"),
    Binding((pygame.K_ESCAPE,), "Esc", "replay: close (the game goes on as it was)", lambda r: r.close()),
    Binding(tuple(pygame.K_0 + n for n in range(1, 10)), "1-9", "replay: jump to the start of that week"),
    *(_week_key(n) for n in range(1, 10)),
)


def live_scene(app: Any, session: Any) -> CampaignScene | None:
    """The campaign scene playing `session` (the live game)."""
    return next((s for s in app.scenes if isinstance(s, CampaignScene) and s.session is session), None)


def fold(text: str, size: int, bold: bool, width: int) -> list[str]:
    """`text` wrapped at spaces (results.wrap), and a word too long for the width on its own (a
    commitment's digest) broken where it reaches the edge: no line runs past the panel."""
    f = font(size, bold)
    out: list[str] = []
    for i, line in enumerate(wrap(text, size, bold, width)):
        room = width - (f.size("    ")[0] if i or out else 0)
        while f.size(line)[0] > room and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and f.size(line[:cut])[0] > room:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out


def _nothing() -> None:
    return None


def _kept_elsewhere(lock: Any) -> str:
    return "A save's replay sets no passphrase: load the save to play it (Ctrl+O), then set one there."


def open_replay(app: Any, session: Any, start: int | None = None, title: str = "") -> None:
    """The replay of a campaign, as the GM view opens. F3 on the live game: at once from the GM
    view, else behind the GM's seat (its passphrase; closed while orders are sealed and none was
    set; set there first when none is and nothing is sealed). A save file's (the load menu's
    Replay, `replay SAVE --view`): behind a GM's seat on the save's own passphrase; a save without
    one opens at once when nothing in it is sealed (every order in it was revealed), and stays
    closed when orders are sealed."""
    scene = live_scene(app, session)

    def replay() -> CampaignReplayScene:
        return CampaignReplayScene(app, session, start=start, title=title)

    state = session.state
    sealed = any(b.orders for b in state.open_games())
    if scene is not None:
        if scene.gm:
            app.push(replay())
            return
        app.push(GmLockScene(app, scene.gm_seat, sealed, _nothing, purpose="replay", opens=replay))
        return
    seat = GmSeat(lambda: state.gm_lock, _kept_elsewhere)  # the save's lock, read only
    if seat.lock is None and not sealed:
        app.push(replay())
        return
    app.push(GmLockScene(app, seat, sealed, _nothing, purpose="replay", opens=replay))


def _phase(state: CampaignState) -> tuple[int, str]:
    """A period the replay view jumps by: the phase of a week."""
    return state.week, state.phase


def _week(state: CampaignState) -> int:
    """A period the replay view jumps by: the week."""
    return state.week


class CampaignReplayScene(Scene):
    overlay = False
    name = "replay"
    KEYS = REPLAY_KEYS

    def __init__(self, app: Any, session: Any, *, start: int | None = None, title: str = "") -> None:
        super().__init__(app)
        self.source = session  # the live game's session: read, never changed
        self.steps = list(session.history)
        self.initial = session.record.initial
        self.history = Record(session.system, self.initial, list(self.steps))  # where it steps and jumps
        self.title = "The replay view"  # the screen's name
        self.game_title = title or str(getattr(session.loaded, "name", "") or "the campaign")
        self.display = Session(system=session.system, record=Record(session.system, self.initial),
                               game_setup=session.game_setup, setup=session.setup, board=session.board,
                               layout=session.layout, map_data=session.map_data, seed=session.seed,
                               path=session.path, loaded=session.loaded)
        self.view = CampaignScene(app, self.display)  # draws the map; never gets an event
        self.view.gm = True  # the GM's all-seeing view
        self.view.viewer = None
        self.index = 0
        self.scroll = 0  # panel lines scrolled past (the wheel over the panel)
        self.note = ""  # a refused key's reason, shown once in the panel
        self.drawn_strings: list[str] = []
        self._drag_from: tuple[int, int] | None = None
        self.ui = app.make_ui()
        self._build()
        self.goto(len(self.steps) if start is None else start)

    # ------------------------------------------------------------------ positions
    def state_at(self, index: int) -> CampaignState:
        """The state after the first `index` commands."""
        state: CampaignState = self.history.state_at(index)
        return state

    def phase_starts(self) -> list[int]:
        return [i for _, i in self.history.period_starts(_phase)]

    def week_starts(self) -> list[int]:
        return [i for _, i in self.history.period_starts(_week)]

    def goto(self, index: int) -> None:
        self.note = ""
        self.index = max(0, min(len(self.steps), index))
        self.display.record.steps = list(self.steps[:self.index])
        view = self.view
        if view.selected is not None and view.selected not in self.display.state.armies:
            view.selected = None
        self.scroll = 0
        self._refresh()

    def step_forward(self) -> None:
        self.goto(self.index + 1)

    def step_back(self) -> None:
        self.goto(self.index - 1)

    def next_phase(self) -> None:
        self.goto(self.history.next_start(self.index, _phase))

    def previous_phase(self) -> None:
        self.goto(self.history.previous_start(self.index, _phase))

    def next_week(self) -> None:
        self.goto(self.history.next_start(self.index, _week))

    def previous_week(self) -> None:
        self.goto(self.history.previous_start(self.index, _week))

    def jump_to_week(self, week: int) -> bool:
        at = self.history.period_start(_week, week)
        if at is None:
            self.note = f"Week {week} is not in this game (it reaches week {self.state_at(len(self.steps)).week})."
            return True
        self.goto(at)
        return True

    def close(self) -> None:
        self.app.pop()

    def take_shell_key(self, binding: Binding, act: Any) -> bool | str:
        """The shell's game keys (F2, F3, Ctrl+Z, Ctrl+Y) act on the live game, not on the position
        shown: refused here with the reason (game/shell/keys.py says it, in the panel); the other
        shell keys (F5, Ctrl+S...) are the shell's."""
        if binding.label in ("F2", "F3", "Ctrl+Z", "Ctrl+Y"):
            return "The replay view: close it first (Esc)"
        return False

    def notify(self, text: str, seconds: float, problem: bool) -> bool:
        """A word from the shell (a game key pressed here: close this first) in the panel."""
        self.note = text
        return True

    # ------------------------------------------------------------------ the panel's text
    def step_lines(self) -> list[tuple[str, int, tuple[int, int, int], bool]]:
        """The step's command, its sealed orders (the GM's eye), its dice and its events, in the
        words of the week's report (rules/describe.py, which the report prints)."""
        if self.index == 0:
            return [("The campaign as it began. Next > (Right arrow) plays the first command.", 13,
                     (190, 190, 200), False)]
        step = self.steps[self.index - 1]
        system = self.display.system
        gm = "GM command · " if step.gm else ""
        out = [(f"{self.index}. {gm}{command_text(system, step.before, step.command)}", 14,
                GOLD if step.gm else (240, 230, 190), True)]
        cmd = step.command
        if getattr(cmd, "kind", "") == "orders":  # sealed: the GM sees what they are
            st = step.before
            strs = ", ".join(display_name(s) for s in cmd.stratagems) or "no stratagems"
            van = st.unit_name(cmd.vanguard) if cmd.vanguard in st.units else cmd.vanguard
            aims = "".join(f"; {what} {c[0]},{c[1]}" for what, c in (("withdraw to", cmd.withdraw_to),
                                                                     ("break through to", cmd.breakthrough_to))
                           if c is not None)
            out.append((f"Sealed orders: {MANOEUVRE_NAMES.get(cmd.manoeuvre, cmd.manoeuvre)}, vanguard {van}, "
                        f"{strs}{aims}.", 13, (255, 200, 150), False))
        rolls = system.rolls(step.events)
        out.append((f"Dice ({len(rolls)}): " + ", ".join(str(d) for d in rolls) if rolls else "No dice rolled.",
                    12, (170, 215, 255), False))
        for e in step.events:
            out.append((system.describe_event(step.before, e), 12, (225, 225, 225), False))
        return out

    # ------------------------------------------------------------------ widgets
    def _panel(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        return pygame.Rect(w - PANEL_W, 0, PANEL_W, h)

    def _build(self) -> None:
        self.ui.clear_and_reset()
        p = self._panel()
        self.buttons: dict[Any, str] = {}
        rows = ((("first", "|< Start"), ("prev_week", "<< Week"), ("prev_phase", "< Phase"), ("back", "< Back")),
                (("next", "Next >"), ("next_phase", "Phase >"), ("next_week", "Week >>"), ("last", "End >|")),
                (("close", "Close (Esc)"),))
        gap = 8
        y = p.bottom - 10 - 3 * 38 - 2 * gap
        self.buttons_top = y
        for row in rows:
            bw = (p.w - 20 - gap * (len(row) - 1)) // len(row)
            for i, (key, label) in enumerate(row):
                b = Button(pygame.Rect(p.x + 10 + i * (bw + gap), y, bw, 38), label, self.ui)
                self.buttons[b] = key
            y += 38 + gap

    def _refresh(self) -> None:
        n = len(self.steps)
        for b, key in self.buttons.items():
            on = {"first": self.index > 0, "prev_week": self.index > 0, "prev_phase": self.index > 0,
                  "back": self.index > 0, "next": self.index < n, "next_phase": self.index < n,
                  "next_week": self.index < n, "last": self.index < n}.get(key, True)
            if on:
                b.enable()
            else:
                b.disable()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.view.on_resize(size)
        self.ui.set_window_resolution(size)
        self._build()
        self._refresh()

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            {"first": lambda: self.goto(0), "prev_week": self.previous_week, "prev_phase": self.previous_phase,
             "back": self.step_back, "next": self.step_forward, "next_phase": self.next_phase,
             "next_week": self.next_week, "last": lambda: self.goto(len(self.steps)),
             "close": self.close}[self.buttons[event.ui_element]]()
            return
        if self.ui.process_events(event):
            return
        view = self.view
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
                view.zoom_at(view.map_view().center, ZOOM_STEP)
            elif event.key in (pygame.K_MINUS, pygame.K_KP_MINUS):
                view.zoom_at(view.map_view().center, 1 / ZOOM_STEP)
            else:
                dispatch(REPLAY_KEYS, event, self)
        elif event.type == pygame.MOUSEWHEEL and event.y:
            if view.map_view().collidepoint(view._mouse):
                view.zoom_at(view._mouse, ZOOM_STEP ** max(-3, min(3, event.y)))
                view.hover = view.hex_at(view._mouse)
            else:
                self.scroll = max(0, self.scroll - 3 * event.y)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (2, 3):
            if view.map_view().collidepoint(event.pos):
                self._drag_from = event.pos
        elif event.type == pygame.MOUSEBUTTONUP and event.button in (2, 3):
            self._drag_from = None
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and view.map_view().collidepoint(event.pos):
            c = view.hex_at(event.pos)  # a click marks the army there; nothing is played
            here = self.display.state.armies_at(c) if c is not None else []
            view.selected = here[0].id if here else None
        elif event.type == pygame.MOUSEMOTION:
            view._mouse = event.pos
            view._pointer_seen = True  # (+/- then re-pick the hex under the pointer, as on the map)
            if self._drag_from is not None:
                view.pan(event.pos[0] - self._drag_from[0], event.pos[1] - self._drag_from[1])
                self._drag_from = event.pos
            view.hover = view.hex_at(event.pos)

    def wants_frames(self) -> bool:
        return super().wants_frames() or self._drag_from is not None

    def update(self, dt: float) -> None:
        self.ui.update(dt)

    # ------------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface) -> None:
        view = self.view
        view.drawn_strings = []
        view.drawn_rects = []
        st = self.display.state
        view.draw_map(surface, self.display.system.view(st, None))
        self.drawn_strings = list(view.drawn_strings)
        self.drawn_rects: list[tuple[str, pygame.Rect]] = []  # the panel's texts and where they landed
        p = self._panel()
        pygame.draw.rect(surface, (30, 32, 38), p)
        pygame.draw.rect(surface, GOLD, p, 2)
        x, y = p.x + 10, 8
        y += self._text(surface, f"REPLAY (GM view) · {self.game_title}", (x, y), 15, GOLD, True) + 2
        y += self._text(surface, f"Command {self.index} of {len(self.steps)} · Week {st.week}: "
                        f"{PHASE_NAMES.get(st.phase, st.phase)}", (x, y), 14, (235, 235, 235), True) + 2
        y += self._para(surface, "Right/Left: a command · PgDn/PgUp: a phase · Down/Up: a week · 1-9: week N · "
                        "Esc: close (the game goes on as it was)", (x, y), 11, (160, 160, 170)) + 8
        if self.note:
            y += self._para(surface, self.note, (x, y), 12, (255, 120, 100))
        Line = tuple[str, int, tuple[int, int, int], bool]

        def folded(items: list[Line]) -> list[Line]:
            return [(part if i == 0 else "    " + part, size, colour, bold) for text, size, colour, bold in items
                    for i, part in enumerate(fold(text, size, bold, PANEL_W - 24))]

        items = self.step_lines()
        pinned = folded(items[:1])  # the command's own line stays put; the rest scrolls under it
        rest = folded(items[1:])
        bottom = self.buttons_top - 8
        # scrolled no further than the last line at the foot of the panel (QA: the wheel went on
        # until one line was left)
        room = bottom - y - sum(font(size, bold).get_height() for _, size, _, bold in pinned) - 30
        fit, used = 0, 0
        for _, size, _, bold in reversed(rest):
            used += font(size, bold).get_height()
            if used > room:
                break
            fit += 1
        self.scroll = min(self.scroll, max(0, len(rest) - fit))
        above: list[Line] = [(f"({self.scroll} line{'s' if self.scroll != 1 else ''} above: the wheel scrolls back)",
                              11, (170, 170, 180), False)] if self.scroll else []
        shown = pinned + above + rest[self.scroll:]
        for k, (text, size, colour, bold) in enumerate(shown):
            hgt = font(size, bold).get_height()
            if y + hgt > bottom - (16 if k < len(shown) - 1 else 0):
                left = len(shown) - k
                self._text(surface, f"... {left} more line{'s' if left != 1 else ''}: the wheel over this panel "
                           "scrolls", (x, bottom - 14), 11, (170, 170, 180))
                break
            y += self._text(surface, text, (x, y), size, colour, bold)
        self.ui.draw_ui(surface)

    def _text(self, surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 13,
              colour: tuple[int, int, int] = (230, 230, 230), bold: bool = False) -> int:
        self.drawn_strings.append(text)
        img = font(size, bold).render(text, True, colour)
        self.drawn_rects.append((text, surface.blit(img, pos)))
        return int(img.get_height())

    def _para(self, surface: pygame.Surface, text: str, pos: tuple[int, int], size: int = 13,
              colour: tuple[int, int, int] = (230, 230, 230)) -> int:
        y = pos[1]
        for i, part in enumerate(fold(text, size, False, PANEL_W - 24)):
            y += self._text(surface, part if i == 0 else "    " + part, (pos[0], y), size, colour)
        return y - pos[1]
