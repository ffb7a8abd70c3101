"""The replay view: step through a game one command at a time, forward and back, jump to a
round, and read the dice log as it goes.

The map, the unit panel and the dice log are drawn by an ordinary battle scene that never gets
a click: the replay sets its session to the state after the first N commands (and its history to
those N commands, which is what the dice log lists) and animates the events of a step forward.

Keys: Right / D / Space next command · Left / A previous · PageDown / PageUp next / previous round ·
1-9 round N · Home / End first / last · mouse wheel zoom, drag to pan · M the GM's Move tool ·
Esc closes (or leaves the Move tool).

Branching (the GM, on the replay of the game being played): the Move tool moves a unit in the
position on screen, a past one. That starts the game again from there: after a confirmation
naming how many later commands it discards, the whole game so far is first written to a save
(saves/<scenario>-before-branch-<date>.yaml, so nothing is lost), then the live history is cut
back to this command (`Record.truncate`), the move is applied as a GM command and play goes on
from there in GM mode. The replay of a save file that is not being played only explains how
(load it, then F3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.core.errors import GameFileError
from game.core.hexgrid import Hex
from game.core.record import Record
from game.core.system import Accepted
from game.shell import actions, gm_seat, savegame
from game.shell.keymap import Binding
from game.shell.keys import dispatch
from game.shell.replay_alone import ALONE_ESC, AloneReplay
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.seats import Seats
from game.shell.session import Session
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import RichTextBox, Styled
from game.systems.tactical.client import text
from game.systems.tactical.client.battle import TOP_H, BattleScene
from game.systems.tactical.client.battle_keys import REPLAY_KEYS
from game.systems.tactical.client.gm import GmScene
from game.systems.tactical.client.sealed import revealed, step_said
from game.systems.tactical.rules.events import board_where
from game.systems.tactical.rules.gm import MoveUnitGM

if TYPE_CHECKING:
    from game.shell.app import App

BAR_H = 132
DRAG = 6  # pixels the pointer moves before a press is a drag, not a click


def _shown(seats: Seats) -> Seats:
    """The seats the replay's battle display is given: who played, and the why lines the game
    has shown (its dice log prints them), without those still held back for a sealed choice (the
    replay steps back and forth, so it could not keep them back) [decision]; a copy, so that
    nothing done in the replay changes the game's."""
    held = set(seats.held)
    return Seats(dict(seats.levels), {k: v for k, v in seats.whys.items() if k not in held}, [])


def _round(state: Any) -> int:
    """The period the replay view jumps by: the round."""
    return int(state.round)




class ReplayScene(AloneReplay, Scene):  # (alone: no game under it; game/shell/replay_alone.py)
    overlay = False
    name = "replay"
    KEYS = REPLAY_KEYS  # its own keys (it dispatches them; the shell's F1 help lists them)

    def inner_scenes(self) -> Sequence[Scene]:
        """The battle display it shows (its animations keep the frame rate up)."""
        return (self.view,)

    def __init__(self, app: App, session: Session, steps: Sequence[Any], *, title: str = "",
                 start: int | None = None, gm: bool = False) -> None:
        """`session`: the battle's context (setup, board, map); `steps`: its history, each with
        `before`, `command` and `events`. The view opens on `start` (default: the last step).
        `gm`: opened from GM mode (a sealed initiative choice is shown before the rolls reveal it)."""
        super().__init__(app)
        self.source = session  # the session whose history this is (the live game's, from F3)
        self.steps = list(steps)
        self.initial = self.steps[0].before if self.steps else session.state
        self.history = Record(session.system, self.initial, list(self.steps))  # where it steps and jumps
        self.title = "The replay view"  # the screen's name (the shell's "close this first" says it)
        self.game_title = title or session.setup.name
        self.gm = gm
        self.display = Session(system=session.system, record=Record(session.system, self.initial),
                                   game_setup=session.game_setup, setup=session.setup, board=session.board,
                                   layout=session.layout, map_data=session.map_data, seed=session.seed,
                                   path=session.path, loaded=session.loaded,
                                   seats=_shown(session.seats))
        self.view = BattleScene(app, self.display)
        self.view.viewer = None
        self.view.panels.no_unit = "Replay: hover a unit to see it in the panel below."  # (no Tab, no turn)
        self.index = 0
        self.gm_tool: str | None = None   # "move": the GM's Move tool is on
        self.gm_unit: str | None = None   # the unit it moves
        self._gm_cleared = False  # the GM has shown they are (passphrase or word) for the Move tool
        self.full_app = app  # (GM mode takes the window itself)
        self._press: tuple[int, int] | None = None
        self._dragged = False
        self.ui = app.make_ui()
        self._build()
        self.goto(len(self.steps) if start is None else start, animate=False)

    # ------------------------------------------------------------------ positions
    def state_at(self, index: int) -> Any:
        """The state after the first `index` commands (the step after it starts from there)."""
        return self.history.state_at(index)

    def revealed(self, i: int) -> bool:
        """Whether step `i` (0-based) may show what it chose: not a sealed initiative choice, or
        one the game went on to reveal (the rolls), or the GM is watching (sealed.py)."""
        return revealed(self.display.system, self.steps, i, gm=self.gm)

    def round_starts(self) -> dict[int, int]:
        """Round -> index of its first command (the last round: its start, or the end)."""
        return {int(r): i for r, i in self.history.period_starts(_round)}  # type: ignore[call-overload]

    def goto(self, index: int, *, animate: bool = False) -> None:
        index = max(0, min(len(self.steps), index))
        forward_one = animate and index == self.index + 1
        before_units = dict(self.display.state.units)
        self.index = index
        self.display.record.steps = list(self.steps[:index])
        self.view.anim.skip()
        if forward_one:
            step = self.steps[index - 1]
            self.view.anim.load(list(step.events), self.view.layout.hex_center, self.view.unit_hex,
                                self.app.settings.speed_factor(), before_units)
        self.view.after_change()
        if index > 0:
            self._look_at(self.steps[index - 1].command)
        self._refresh()

    def _look_at(self, command: Any) -> None:
        """Scroll the map just enough that the unit the command acted with shows (after its target,
        when it has one: the unit last, so it is the one sure to show); a command of no unit
        (an initiative choice, the end of a phase) leaves the view where it is."""
        units = self.display.state.units
        ids = [getattr(command, "target_id", None), getattr(command, "unit_id", None)
               or getattr(command, "attacker_id", None)]
        for uid in ids:
            unit = units.get(uid) if isinstance(uid, str) else None
            if unit is not None:
                self.view.camera.ensure_visible(*self.view.layout.hex_center(unit.hex), margin=60)

    def step_forward(self) -> None:
        self.goto(self.index + 1, animate=True)

    def step_back(self) -> None:
        self.goto(self.index - 1)

    def jump_to_round(self, round_no: int) -> bool:
        at = self.history.period_start(_round, round_no)
        if at is None:
            return False
        self.goto(at)
        return True

    def next_round(self) -> None:
        self.goto(self.history.next_start(self.index, _round))

    def previous_round(self) -> None:
        self.goto(self.history.previous_start(self.index, _round))

    # ------------------------------------------------------------------ UI
    def _bar(self) -> pygame.Rect:
        """The replay's own panel: under the map view, beside (never over) the side panel."""
        _, side, view = self.view.regions()
        return pygame.Rect(view.x, view.bottom - BAR_H, side.x - view.x, BAR_H)

    def _narrow_view(self) -> None:
        """The map's viewport ends above the replay panel, so what is drawn and what the
        pointer picks are the same hexes."""
        _, _, view = self.view.regions()
        self.view.camera.set_viewport(view.x, view.y, view.w, max(1, view.h - BAR_H))
        self.view.forget_overlay()

    def _build(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self._narrow_view()
        w, _ = self.app.screen.get_size()
        # the top bar replaces the battle's own (no turn to end, nothing to undo in a replay)
        pygame_gui.elements.UIPanel(pygame.Rect(0, 0, w, TOP_H), manager=self.ui)
        self.title_label = pygame_gui.elements.UILabel(pygame.Rect(10, 4, w - 20, 22), "", self.ui,
                                                       object_id=ObjectID(class_id="@title"))
        gm_move = "" if self.alone() else "M: GM move (plays on from here) · "  # (alone: no game to play on)
        pygame_gui.elements.UILabel(pygame.Rect(10, 24, w - 20, 20),
                                    "REPLAY · Right/Left: one command · "
                                    f"PageDown/PageUp: by round · 1-9: round N · {gm_move}Esc: close",
                                    self.ui)
        bar = self._bar()
        pygame_gui.elements.UIPanel(bar, manager=self.ui)
        pygame_gui.elements.UILabel(pygame.Rect(bar.x + 10, bar.y + 6, bar.w - 20, 24), "This command", self.ui,
                                    object_id=ObjectID(class_id="@title"))
        self.step_box = RichTextBox((), pygame.Rect(bar.x + 10, bar.y + 32, bar.w - 20, 52), self.ui)
        y = bar.y + 88
        self.buttons: dict[pygame_gui.elements.UIButton, str] = {}
        # (key, label, short label for a narrow panel, width)
        row = (("first", "|< Start", "|<", 90), ("prev_round", "<< Round", "<<", 100), ("back", "< Back", "<", 90),
               ("next", "Next >", ">", 90), ("next_round", "Round >>", ">>", 100), ("last", "End >|", ">|", 90),
               ("gm_move", "GM: Move (M)", "GM", 120), ("close", "Close (Esc)", "Esc", 110))
        gap = 8
        # the row is laid out in the width the panel has: a small window narrows the buttons
        # and gives them their short labels (the full one is the tooltip), never cut text
        scale = min(1.0, (bar.w - 20 - gap * (len(row) - 1)) / sum(w for *_, w in row))
        x = bar.x + 10
        for key, full, short, width in row:
            width = max(34, int(width * scale))
            label = full if scale >= 1.0 else short
            oid = ObjectID(class_id="@primary") if key in ("next", "gm_move" if self.gm_tool else "") else None
            tip = ("The GM moves a unit in the position shown: the game is played on from here "
                   "(asks first)") if key == "gm_move" else (full if label != full else None)
            btn = Button(pygame.Rect(x, y, width, 34), label, self.ui, object_id=oid,
                                               tool_tip_text=tip)
            self.buttons[btn] = key
            x += width + gap

    def _refresh(self) -> None:
        st = self.display.state
        n = len(self.steps)
        self.title_label.set_text(f"Replay{' (GM)' if self.gm else ''}: {self.game_title} · command {self.index}/{n} · round {st.round}")
        if self.index == 0:
            shown: Styled = (text.line(text.ink("The battle as it started. Next > (Right arrow) plays the first "
                                                "command.", text.DIM)),)
        else:
            step = self.steps[self.index - 1]
            system = self.display.system
            rolls = system.rolls(step.events)
            dice = f" · dice: {', '.join(str(r) for r in rolls)}" if rolls else " · no dice"
            said = step_said(system, step, reveal=self.revealed(self.index - 1))
            # the GM's mark, unless the words already start with it ('GM: set next roll ...'), as in the log
            gm: list[text.Piece] = [text.bold("GM", text.WARN), " "] if step.gm and not said.startswith("GM") else []
            head = text.line(text.bold(f"{self.index}."), " ", *gm, text.words(said) + dice)
            name = st.unit_name
            sides = {s.id: s.name for s in self.display.setup.sides}
            where = board_where(self.display.board)  # the map's column,row, as everywhere else
            events = [text.event_line(ev, name, sides, where) for ev in step.events
                      if getattr(ev, "kind", "") != "roll_made"][:3]
            shown = (head, text.line(*text.joined(" · ", events))) if events else (head,)
        self.step_box.set_text(shown)
        for btn, key in self.buttons.items():
            enabled = {"first": self.index > 0, "back": self.index > 0, "prev_round": self.index > 0,
                       "next": self.index < n, "next_round": self.index < n, "last": self.index < n,
                       "gm_move": self.live_battle() is not None}.get(key, True)  # (a save's replay: no game to play on)
            if enabled:
                btn.enable()  # type: ignore[no-untyped-call]
            else:
                btn.disable()  # type: ignore[no-untyped-call]

    def on_resize(self, size: tuple[int, int]) -> None:
        self.view.on_resize(size)
        self.ui.set_window_resolution(size)
        self._build()
        self._refresh()

    # ------------------------------------------------------------------ events
    def _press_button(self, key: str) -> None:
        {"first": lambda: self.goto(0), "prev_round": self.previous_round, "back": self.step_back,
         "next": self.step_forward, "next_round": self.next_round, "last": lambda: self.goto(len(self.steps)),
         "gm_move": self.toggle_gm_move, "close": self.close}[key]()

    def close(self) -> None:
        self.app.pop()

    # ------------------------------------------------------------------ alone (a save's replay)
    def key_map(self) -> Sequence[Binding]:
        """The view's keys; alone, Esc closes the window and M (nothing to play on) is left out."""
        if not self.alone():
            return self.KEYS
        return tuple(replace(b, what=ALONE_ESC) if b.label == "Esc" else b
                     for b in self.KEYS if b.label != "M")

    # ------------------------------------------------------------------ the GM: branching
    def live_battle(self) -> Any:
        """The battle scene playing this history, if this is the live game's replay."""
        return next((s for s in self.app.scenes if getattr(s, "game_scene", False)
                     and getattr(s, "session", None) is self.source), None)

    def _gm_open(self) -> bool:
        return any(getattr(s, "name", "") == "gm" for s in self.app.scenes)

    def toggle_gm_move(self) -> None:
        battle = self.live_battle()
        if self.gm_tool != "move" and battle is None:  # said now, not after a unit and a hex
            how = "`python -m game play SAVE` plays it" if self.alone() else "load it (Ctrl+O)"
            self.view.toast(f"This is the replay of a save: {how}, then press F3 there "
                            "to play on from a past command.", 7.0)
            return
        if self.gm_tool != "move" and not self._gm_open() and not self._gm_cleared:
            # the GM's tool: asked as GM mode is (the GM passphrase, or the GM's word in a hotseat
            # game), before anything can be cut from the game
            gm_seat.open_gm_mode(self.app, battle, self._gm_cleared_now)
            return
        self.gm_tool = None if self.gm_tool == "move" else "move"
        self.gm_unit = None
        self.view.selected = None
        self._build()
        self._refresh()
        if self.gm_tool == "move":
            self.view.toast("GM Move: click a unit, then a free hex. Moving it here plays the game on "
                            "from this command.", 6.0)
        else:
            self.view.toast("GM Move tool off.", 2.0)

    def _gm_cleared_now(self) -> None:
        """Whoever asked has shown they are the GM: the Move tool goes on (and GM mode opens at the
        branch without asking again)."""
        self._gm_cleared = True
        self.toggle_gm_move()

    def gm_click(self, h: Hex) -> None:
        """A click on the map with the GM's Move tool: pick the unit, then where it goes."""
        st = self.display.state
        unit = st.unit_at(h)
        name = st.unit_name
        if unit is not None and unit.id != self.gm_unit:
            self.gm_unit = unit.id
            self.view.selected = unit.id
            self.view.refresh_panels()
            self.view.toast(f"Moving {name(unit.id)}: click a free hex.", 5.0)
        elif unit is not None:
            self.view.toast(f"{name(unit.id)} is already there: click a free hex.", 4.0)
        elif self.gm_unit is None or self.gm_unit not in st.units:
            self.view.toast("Click a unit to move first.", 4.0)
        else:
            self.branch(MoveUnitGM(unit_id=self.gm_unit, to=h))

    def branch(self, command: Any) -> None:
        """Play `command` (a GM command) on the position shown, cutting the later history."""
        system = self.display.system
        outcome = system.apply(self.display.state, command)  # (pure: asked, not yet played)
        if not isinstance(outcome, Accepted):
            self.view.toast(f"Refused: {outcome.reason}", 5.0)
            return
        battle = self.live_battle()
        if battle is None:
            self.view.toast("This is the replay of a save: load it (Ctrl+O), then press F3 there "
                            "to play on from a past command.", 7.0)
            return
        later = len(battle.session.history) - self.index
        what = system.describe_command(self.display.state, command)
        if later <= 0:
            self._play_branch(battle, command, kept=None)
            return
        self.app.push(DialogScene(
            self.app, "Play on from here?",
            (text.line(text.bold(what), f" at command {self.index} of {len(battle.session.history)} plays the game "
                       "on from here: this ", text.bold(f"discards the {later} later command{'s' if later != 1 else ''}"),
                       " from the game being played. They stay in a save: the whole game so far is written to "
                       "saves/ first (its name is shown), and the autosaves and recovery save keep their own "
                       "copies."),),
            [Choice("Discard and move", lambda: self._keep_and_branch(battle, command), pygame.K_RETURN,
                    primary=True),
             Choice("Cancel", None, pygame.K_ESCAPE)],
            size=(600, 280), cancel=Choice("Cancel"), name="branch_confirm"))

    def _keep_and_branch(self, battle: Any, command: Any) -> None:
        session = battle.session
        stem = actions.new_save_path(session).stem
        path = savegame.saves_dir() / f"{stem}-before-branch.yaml"
        n = 1
        while path.exists():
            n += 1
            path = path.with_name(f"{stem}-before-branch-{n}.yaml")
        try:
            kept = savegame.save_session(session, path, title=f"{savegame.game_title(session)} (before a GM branch)")
        except (GameFileError, OSError) as exc:
            self.view.toast(f"Not branched: the game could not be saved first ({exc})", 8.0)
            return
        self._play_branch(battle, command, kept=kept)

    def _play_branch(self, battle: Any, command: Any, kept: Any) -> None:
        """Cut the live history back to this command, play the GM's command, go on in GM mode."""
        session = battle.session
        record = session.record
        record.truncate(self.index)
        record.redo_stack.clear()  # the discarded commands are in the kept save, not to be redone
        if getattr(battle, "reopen_end_summary", None) is not None:
            battle.reopen_end_summary()  # the battle may end again later
        self.app.pop()  # the replay closes: the game is played on from here, in GM mode
        gm: Any = next((s for s in self.app.scenes if getattr(s, "name", "") == "gm"), None)
        if gm is None:  # (first: the battle's own prompts wait while it is on)
            if self._gm_cleared:
                self.app.push(GmScene(self.full_app, battle))  # (the GM was asked for when the tool went on)
            else:
                actions.toggle_gm(battle)
            gm = next((s for s in self.app.scenes if getattr(s, "name", "") == "gm"), None)
        battle.anim.skip()
        battle.after_change()
        battle.selected = getattr(command, "unit_id", None)
        if gm is not None:
            gm.submit(command)
        else:
            battle.submit(command, gm=True)
        where = f" The game before it is kept in {kept.name}." if kept is not None else ""
        note = f"Played on from command {self.index}.{where}"
        if gm is not None:
            gm.say(f"{gm.message.rstrip('.')}. {note}")
        battle.toast(note, 8.0)
        unit = battle.state.units.get(getattr(command, "unit_id", "") or "")
        if unit is not None:  # look at what the GM just moved
            battle.camera.ensure_visible(*battle.layout.hex_center(unit.hex), margin=120)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self._press_button(self.buttons[event.ui_element])
            return
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and any(
                key == "gm_move" and not btn.is_enabled and btn.rect.collidepoint(event.pos)
                for btn, key in self.buttons.items()):
            self.toggle_gm_move()  # the greyed GM button says why (a greyed button shows no tooltip)
            return
        if self.ui.process_events(event):
            return
        cam = self.view.camera
        if event.type == pygame.KEYDOWN:
            refused = self.refused_shell_key(event)
            if refused is not None:  # (alone: the shell left the key to the view, having no game for it)
                self.view.toast(refused, 7.0)
                return
            dispatch(REPLAY_KEYS, event, self)  # the replay's key map (battle_keys.py; F1 lists it)
        elif event.type == pygame.MOUSEWHEEL:
            mx, my = pygame.mouse.get_pos()
            if cam.contains_screen(mx, my):
                cam.zoom_at(1 if event.y > 0 else -1, mx, my)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (1, 2):
            self._press = event.pos
            self._dragged = False
        elif event.type == pygame.MOUSEMOTION:
            if self._press is not None:
                if not self._dragged and abs(event.pos[0] - self._press[0]) + abs(event.pos[1] - self._press[1]) > DRAG:
                    self._dragged = True
                if self._dragged:
                    cam.pan_screen(-event.rel[0], -event.rel[1])
            self.view.mouse = event.pos
            self.view.update_hover()  # the hex panel names the hex under the pointer
        elif event.type == pygame.MOUSEBUTTONUP:
            press, self._press = self._press, None
            if press is not None and event.button == 1 and not self._dragged and self.gm_tool == "move":
                h = self.view.hex_at(event.pos)  # the camera's viewport: exactly the hex drawn there
                if h is not None:
                    self.gm_click(h)
            self._dragged = False

    def update(self, dt: float) -> None:
        self.view.update(dt)
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        self.view.draw(surface)
        self.ui.draw_ui(surface)
