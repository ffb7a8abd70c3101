"""The battle scene: the map with its camera, the units, the current input mode, the panels.

Input: the UI toolkit gets every event first; what it does not use goes to the camera (drag,
wheel, arrows/WASD) and then to the current input mode (clicks on hexes). A mode returns a
command (applied through the session), a new mode, or nothing.

Decisions the rules wait for (initiative choice, turn place, defensive action) open dialogs;
whenever the side that must look at the screen changes, the hand-off screen goes up first
(unless the GM switched the blackout off, or fewer than two sides are played by people: one
person against the computer has nobody to hide the map from).

The scene is made of parts, each a class owning its own fields, constructed here and talking
through narrow methods (each call is given what it reads, as a small Protocol; no part keeps a
reference to the scene or reads another part's fields):

- MapView (battle_draw.py): the camera, the map cache, the mode's tints, the kept picture of the
  view, counters, paths, animations;
- Panels (battle_panels.py): the top bar and the side panel's widgets (status, hint, unit card,
  hex / odds box, odds chart, dice log, top buttons) and what they last showed;
- ActionButtons (battle_actions.py): the action buttons in the side panel's band;
- Dialogs (battle_dialogs.py): the briefing, initiative, turn place, defensive action, end of
  battle, options and help dialogs.

The scene itself is the controller: it owns the input mode, the selection, the hover, the mouse
and keys, the viewer and the flow (what the rules wait for, hand-offs). The input modes
(modes.py) are given it as their narrow `ModeContext` (context.py) and answer with an `Intent`
(select, toast, next mode, command) that `_use` carries out. No part nor mode imports this module:
each names what it reads as a small Protocol. tests/client/test_battle_parts.py checks the parts
stay apart, tests/test_layering.py that no import loop joins them.

Other scenes (replay, GM mode, saves, shots) use the public methods: after_change,
refresh_panels, regions, unit_hex, update_hover, forget_overlay, toast / toast_text,
reopen_end_summary, log_text, submit, unit_at, hex_at, and camera / layout / map_cache.
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui

import game.systems.tactical.rules as ail  # (its names load when first used: start-up time)
from game.core.hexgrid import Hex
from game.core.hexlayout import HexLayout
from game.shell import actions, fonts
from game.shell.anim import AnimQueue
from game.shell.camera import Camera
from game.shell.keys import dispatch
from game.shell.mapcache import MapCache
from game.shell.scene import Scene
from game.shell.scenes.dialog import Choice, DialogScene
from game.shell.scenes.handoff import HandoffPolicy, HandoffScene
from game.shell.scenes.seats import seats_dialog
from game.shell.seats import SeatRule, Thinker, hint_level, levels_of, said, why_line
from game.shell.session import Session
from game.shell.toolkit.drawing import draw_toolkit, elements_over
from game.shell.toolkit.richtext import Styled
from game.systems.tactical.client import rq, text
from game.systems.tactical.client.battle_actions import ActionButtons, greyed_reason, unit_command
from game.systems.tactical.client.battle_dialogs import Dialogs
from game.systems.tactical.client.battle_draw import MapView, ScreenState, draw_frames
from game.systems.tactical.client.battle_keys import BATTLE_KEYS, PAN_KEYS
from game.systems.tactical.client.battle_panels import Panels, log_text
from game.systems.tactical.client.context import Intent, Keep
from game.systems.tactical.client.decision import DecisionKeys
from game.systems.tactical.client.labels import TOAST_SIZE, MapLabels, wrap
from game.systems.tactical.client.modes import (
    ActionButton,
    AttackMode,
    Mode,
    MoveMode,
    SelectMode,
    hint_mark,
    unit_mode,
)
from game.systems.tactical.rules.system import warm_up as warm_up_rules

if TYPE_CHECKING:
    from game.shell.contracts import AppContext

TOP_H = 46
SIDE_W = 380
PAN_SPEED = 700.0  # screen pixels per second for keyboard panning
DRAG_THRESHOLD = 6


class BattleScene(Scene):
    """The battle: the controller, and the parts it is made of.

    Public fields: session, settings, mode (the input mode),
    selected (unit id), hover (hex), mouse (screen position), viewer (the side on screen),
    anim (the animation queue), ui (the toolkit manager); the parts map_view, panels, actions,
    dialogs."""

    name = "battle"
    game_scene = True  # a live game: the shell's save / load / replay / GM keys act on it
    KEYS = BATTLE_KEYS  # its own keys (it dispatches them): the shell leaves these to it

    def __init__(self, app: AppContext, session: Session) -> None:
        super().__init__(app)
        self.session = session
        self.settings = app.settings
        self.map_view = MapView(session, app.settings)
        self.panels = Panels()
        self.actions = ActionButtons()
        self.dialogs = Dialogs(app, session, app.settings, self.submit, self.restart)
        self.mode: Mode = SelectMode()
        self.selected: str | None = None
        self.hover: Hex | None = None
        self.gm_on = False  # GM mode (gm.py) is over this battle: the top bar's Undo is the GM's
        self.mouse = (0, 0)
        self._press: tuple[int, tuple[int, int]] | None = None
        self._dragging = False
        self._held: set[int] = set()
        self._panned = False  # the keys moved the map since the hover was last updated
        self.anim = AnimQueue()
        self.viewer: str | None = None        # the side whose view is on screen
        self._seen: tuple[Any, str | None, Any] | None = None  # (real state, viewer, its view)
        self.handoffs = HandoffPolicy()       # when a change of viewer needs the blackout
        self._dialog_key: object = None       # the decision a dialog is open for
        self._ended_shown = False
        self._briefed = False
        self._turn: tuple[int, int, bool] | None = None
        self._toast: tuple[str, float] | None = None
        # computer seats (game/shell/seats.py): their decisions and the hint key's, in a thread
        self.players = app.table.plugin_named(session.system.name).players
        self.thinker = Thinker(self.players, session.seed, seconds=lambda: app.settings.think_seconds)
        self._hint_for: str | None = None     # the side a hint is being thought for
        self.hint_said: str | None = None  # the hint key's last message (a decision's dialog shows it)
        self._hint_command: Any = None  # the command of the hint marked on the map
        self._last_frame: int | None = None  # the app's frame of this scene's last update (on top)
        self.ui = app.make_ui()
        self._build_ui()
        self.map_view.centre_map()

    # ================================================================== the map view's, for other scenes
    @property
    def camera(self) -> Camera:
        return self.map_view.camera

    @property
    def layout(self) -> HexLayout:
        return self.map_view.layout

    @property
    def map_cache(self) -> MapCache:
        return self.map_view.map_cache

    @property
    def view_scrolls(self) -> int:
        return self.map_view.view_scrolls

    @property
    def map_labels(self) -> MapLabels:
        return self.map_view.map_labels

    # ================================================================== state helpers
    @property
    def state(self) -> Any:
        """The battle as the side on screen may see it: `session.view(viewer)` (the rules' view:
        no dice generator state, no GM-forced rolls, no sealed initiative choices of the other
        side). With no viewer yet (before the first hand-off, the replay) it is the GM's view,
        the whole state. Commands still go to the real state through the session."""
        raw = self.session.state
        seen = self._seen
        if seen is None or seen[0] is not raw or seen[1] != self.viewer:
            seen = self._seen = (raw, self.viewer, self.session.view(self.viewer))
        return seen[2]

    def side_colour(self, side: str | None) -> tuple[int, int, int]:
        for s in self.session.setup.sides:
            if s.id == side:
                return tuple(s.colour)
        return (200, 200, 200)

    def decision_side(self) -> str | None:
        """The side that must look at the screen now: whoever the rules wait for."""
        st = self.state
        if st.phase == "ended":
            return None
        if st.pending is not None and st.pending.sides:
            return str(st.pending.sides[0])
        side = st.active_side
        return None if side is None else str(side)

    def is_mine(self, unit_id: str) -> bool:
        """Whether the side now playing may act with this unit."""
        st = self.state
        u = st.units.get(unit_id)
        slot = st.active_slot
        return bool(u and slot and st.pending is None and st.acts_in(slot, u))

    def unit_world(self, unit_id: str) -> tuple[float, float]:
        """Where a unit is drawn now, in world pixels (along its animation while it moves)."""
        return self.map_view.unit_world(self, unit_id)

    def unit_at(self, h: Hex) -> Any:
        """The live unit on a hex, as the side on screen sees it."""
        return self.map_view.unit_at(self, h)

    def toast(self, message: str, seconds: float = 4.0) -> None:
        """Show a message over the map (and as the hint) for a few seconds: the top line says it
        at once (a redo's "Played again", not the undo's "Taken back" before it)."""
        self._toast = (message, seconds)
        if getattr(self.panels, "hint_label", None) is not None:
            self.panels.refresh_hint(self)

    @property
    def toast_text(self) -> str | None:
        """The message shown by toast() now, if any."""
        return self._toast[0] if self._toast is not None else None

    def forget_overlay(self) -> None:
        """Draw the mode's hex tints afresh next frame (e.g. after the viewport changed)."""
        self.map_view.forget_overlay()

    def reopen_end_summary(self) -> None:
        """Let the end-of-battle summary open again when this scene is next on top."""
        self._ended_shown = False

    # ================================================================== UI building
    def regions(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(top bar, side panel, map view) rectangles for the current window size."""
        w, h = self.app.screen.get_size()
        top = pygame.Rect(0, 0, w, TOP_H)
        side = pygame.Rect(w - SIDE_W, TOP_H, SIDE_W, h - TOP_H)
        view = pygame.Rect(0, TOP_H, w - SIDE_W, h - TOP_H)
        return top, side, view

    def _build_ui(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self.actions.forget()
        top, side, view = self.regions()
        self.camera.set_viewport(view.x, view.y, view.w, view.h)
        self.panels.build(self.ui, top, side)
        self.panels.place(0, side, self.app.screen.get_size())
        self.refresh_panels(force=True)

    def refresh_panels(self, force: bool = False) -> None:
        """Bring the panels and the action buttons up to date (only what changed is re-rendered)."""
        self.panels.refresh(self, force)
        _, side, _ = self.regions()
        self.actions.rebuild(self, self.ui, self.panels, side, self.app.screen.get_size())

    def log_text(self) -> Styled:
        """The dice log as the side on screen sees it (latest command first), as styled pieces."""
        return log_text(self.session, self.state)

    def help_dialog(self) -> None:
        self.dialogs.help()

    def options_dialog(self) -> None:
        self.dialogs.options()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build_ui()

    # ================================================================== applying commands
    def submit(self, command: Any, *, gm: bool = False) -> bool:
        """Apply one command; animate, sync dialogs and hand-offs. `gm`: made in GM mode (the save
        marks it so). A refusal shows the rules' reason; a move then a dash whose dash the move's
        overwatch stopped says so (the rules' `dash_failed`)."""
        before_units = dict(self.state.units)
        ok, events, reason = self.session.apply(command, gm=gm)
        if not ok:
            self.toast(reason or "Not allowed.")
            self.refresh_panels()
            return False
        self._toast = None
        stopped = [e for e in events if e.kind == "dash_failed"] if command.kind == "move_then_dash" else []
        if stopped:
            self.toast(f"Stopped: {stopped[0].reason}")
        self.anim.load(events, self.layout.hex_center, self.unit_hex, self.settings.speed_factor(), before_units)
        self.after_change()
        return True

    def unit_hex(self, unit_id: str) -> Hex | None:
        """Where a unit stands now (None once it is gone): what animations start from."""
        u = self.state.units.get(unit_id)
        return u.hex if u is not None else None

    def after_change(self) -> None:
        """After the session's state changed (a command, an undo, a replay step, a GM edit):
        fix the selection and mode, redraw tints and panels, let the shell autosave at a new round
        (`actions.after_change`), open what the rules now wait for."""
        st = self.state
        if self.selected and (self.selected not in st.units or st.units[self.selected].destroyed):
            self.selected = None
        if self.mode.hinted is not None:
            self.mode.hinted = None  # a hint's mark is for the position it was thought for
        if self._toast is not None and self._toast[0] == self.hint_said:
            self._toast = None  # (its words too, on the top line: an undo brought them back)
        # keep the acting unit selected in the right mode; otherwise back to selection
        uid = self.mode.unit_id
        if uid is not None and (st.active_side is None or not rq.unit_can_act(st, uid)):
            uid = None  # it has done all it can (a charge, an attack): the rules offer it nothing
        if uid is not None and self.is_mine(uid) and self.mode.name == _phase_mode(st.phase):
            pass  # MoveMode / AttackMode read the new state themselves
        elif uid is not None and self.is_mine(uid):
            self.mode = unit_mode(self, uid)
        else:
            self.mode = SelectMode()
        self.forget_overlay()
        self.refresh_panels(force=True)
        actions.after_change(self)  # the autosave at each new round
        self.sync()

    def undo(self) -> None:
        if self.session.undo():
            self.anim.skip()
            self.toast("Move taken back.", 2.0)
            self.after_change()
        else:
            self.toast(actions.undo_refusal(self.session))  # (the same words as Ctrl+Z: why not)

    def end_phase(self) -> None:
        st = self.state
        side = st.active_side
        if side is None or st.pending is not None or st.phase not in ("movement", "attack"):
            return
        if self.session.seats.is_computer(side):  # (E or the button while the computer plays)
            self.toast(f"{st.side_name(side)} is played by the computer: it ends its own phases.")
            return
        waiting = rq.can_act(st, side)
        if waiting and self.settings.confirm_end_phase:
            self.app.push(DialogScene(
                self.app, f"End the {st.phase} phase?",
                (text.line(text.words(can_still_act([st.unit_name(u) for u in waiting]))),),
                [Choice("Keep playing", None, pygame.K_ESCAPE),
                 Choice("End phase", lambda: self.submit(ail.EndPhase(side=side)), pygame.K_RETURN, primary=True)],
                size=(480, 220), cancel=Choice("Keep playing"), name="confirm_end"))
            return
        self.submit(ail.EndPhase(side=side))

    def next_unit(self) -> None:
        st = self.state
        ids = rq.can_act(st, st.active_side)
        if not ids:
            self.toast("No unit can act: end the phase (E).")
            return
        i = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.selected = ids[i]
        self.mode = unit_mode(self, ids[i])
        self.camera.ensure_visible(*self.layout.hex_center(st.units[ids[i]].hex))
        self.refresh_panels()

    # ================================================================== decisions, hand-off
    def sync(self) -> None:
        """Open what the rules wait for: hand-off, initiative, turn place, defensive action, end."""
        if self.app.scenes.top is not self:
            return
        st = self.state
        if st.phase == "ended":
            if not self._ended_shown:
                self._ended_shown = True
                # the last command's message (a computer's why) gives way: the top line says the
                # battle is over (at 960 x 600 it read 'Computer (easy)...' above the summary)
                self._toast = None
                self.refresh_panels()
                self.app.push(self.dialogs.end(st, self))
            return
        if not self._briefed:
            self._briefed = True
            nobody = not self.session.seats.humans([x.id for x in self.session.setup.sides])
            if self.session.description and st.seq == 0 and not nobody:  # (no person to brief: all computer)
                self.app.push(self.dialogs.briefing(st, self._players_then_briefing if self.players else None))
                return
        side = self.decision_side()
        turn = (st.round, st.turn_index, st.phase == "initiative")
        if turn != self._turn and st.active_side is not None and st.pending is None:
            self._turn = turn
            self._centre_on_side(st.active_side)  # a new turn starts: look at its units
        if side is not None and self.session.seats.is_computer(side):
            self._computer_turn(side)  # no hand-off: the screen stays with the person at it
            return
        if side is not None and st.pending is not None and st.pending.kind == "defensive_action" \
                and not self.settings.ask_defensive:
            # the table switched the question off (Options, or 'No, never ask'): answered no for a
            # person's side whether or not it is the one at the screen (against the computer it is)
            self.submit(ail.DefensiveAction(unit_id=st.pending.unit_id, accept=False))
            return
        if side is not None and side != self.viewer:
            if self.settings.blackout and len(self.session.seats.humans([s.id for s in st.setup.sides])) >= 2:
                if self.handoffs.needed(self.viewer, side, st.active_side, (st.round, st.phase, st.turn_index)):
                    self.app.push(HandoffScene(self.app, st.side_name(side), self.side_colour(side),
                                               self.dialogs.handoff_detail(st), on_continue=partial(self._show, side)))
                    return
                self.toast(f"{st.side_name(side)} to play again: pass the screen back.", 4.0)
            else:  # the blackout is off, or one person at most plays (nobody to hide the map from)
                self.handoffs.forget()
            self._show(side)
            return
        self._open_decision()

    # ================================================================== computer seats
    def _computer_turn(self, side: str) -> None:
        """A computer seat is to decide: ask its player (a thread: None until it has decided),
        then play its command through the session as a person's click would, and say why."""
        seats = self.session.seats
        if self.viewer is None or seats.is_computer(self.viewer):
            humans = seats.humans([s.id for s in self.session.setup.sides])
            self.viewer = humans[0] if humans else None  # the screen shows the person's view (None: all computer)
        level = seats.level(side) or ""
        try:
            timed = self.thinker.poll(self.session.system, self.session.state, side, level)
        except Exception as exc:  # a player's bug must not take the window down: the seat goes back to a person
            seats.set(side, None)
            self.toast(f"The computer player of {self.session.state.side_name(side)} failed ({exc}); "
                       "the side is played at the screen again.", 8.0)
            return
        if timed is None:
            return
        d = timed.decision
        before = self.session.state
        what = self.session.system.describe_command(before, d.command)
        name = before.side_name(side)
        if self.submit(d.command):
            # an initiative choice another side has still to answer is sealed (the rules' view):
            # what it chose, and why, wait for the reveal
            after = self.session.state.pending
            sealed = before.pending is not None and before.pending.kind == "initiative_choice" \
                and after is not None and after.kind == "initiative_choice"
            self.session.seats.note_why(self.session.history[-1], why_line(level, name, d.why), sealed=sealed)
            if self.app.scenes.top is self:  # (a question it raised, e.g. a defensive action, frames its own)
                self._look_at(d.command)
            self.refresh_panels()  # the dice log shows the why under the command (a sealed one: later)
            self.toast(said(level, name, "makes its sealed initiative choice" if sealed else what, d.why,
                            sealed=sealed), 6.0)

    def _look_at(self, command: Any) -> None:
        """Scroll the map just enough that what a computer's command acted with shows, and then its
        target (last: the person's unit hit is the one sure to show, with the hits floating over
        it); a command of no unit leaves the map where it is."""
        units = self.state.units
        for uid in (getattr(command, "unit_id", None) or getattr(command, "attacker_id", None),
                    getattr(command, "target_id", None)):
            unit = units.get(uid) if isinstance(uid, str) else None
            if unit is not None:
                self.camera.ensure_visible(*self.layout.hex_center(unit.hex), margin=60)
                self._panned = True  # the map moved under a still pointer: the hover panel follows

    def players_dialog(self) -> None:
        """Who plays each side (P): Human or Computer at a level; the GM may change it at any time."""
        if not self.players:
            self.toast("These rules have no computer players.")
            return
        sides = [(s.id, self.state.side_name(s.id)) for s in self.session.setup.sides]
        rule = SeatRule(started=bool(self.session.history))  # then the GM's (the shell adds the GM passphrase: scenes/seats.py)
        self.app.push(seats_dialog(self.app, self.session.seats, sides, levels_of(self.players), rule=rule))

    def _players_then_briefing(self) -> None:
        """The briefing's Players button: the players dialog, then the briefing again."""
        self._briefed = False
        self.players_dialog()

    def hint(self) -> None:
        """What the computer would do for the side at the screen, and why (H)."""
        side = self.decision_side()
        level = hint_level(self.players)
        if side is None or level is None or self.session.seats.is_computer(side):
            self._say_hint("No hint: it is not a person's move.")
            return
        self._hint_for = side
        self._say_hint("Thinking of a hint...", 3.0)

    def _poll_hint(self) -> None:
        """The hint being thought, and the why lines held back while an initiative choice was
        sealed (released once the choices are revealed)."""
        seats = self.session.seats
        if seats.held:
            p = self.session.state.pending
            if p is None or p.kind != "initiative_choice":
                seats.unseal()  # the log shows them now, each under its own command
                self.refresh_panels()
        side = self._hint_for
        if side is None:
            return
        if side != self.decision_side():
            self._hint_for = None  # the move it was for has passed
            return
        level = hint_level(self.players) or ""
        try:
            timed = self.thinker.poll(self.session.system, self.session.state, side, level, slot="hint")
        except Exception as exc:
            self._hint_for = None
            self._say_hint(f"No hint: the computer player failed ({exc}).")
            return
        if timed is None:
            return
        self._hint_for = None
        command = timed.decision.command
        what = self.session.system.describe_command(self.session.state, command)
        self._say_hint(f"Hint ({level}): {what}. Why: {timed.decision.why}", 10.0)
        self._select_hinted(command)  # (after the message: the panels it refreshes show it)

    def _select_hinted(self, command: Any) -> None:
        """The unit a hint moves or attacks with, selected (its moves and targets on the map) and
        brought into view, as the player's own click would, and where the hint would act marked on
        the map (the end of the move, the target, the unit itself for a stance) until the next
        click or command."""
        st = self.state
        uid = getattr(command, "unit_id", None) or getattr(command, "attacker_id", None)
        if not isinstance(uid, str) or uid not in st.units or not self.is_mine(uid) \
                or uid not in rq.can_act(st, st.active_side):
            return
        self.selected = uid
        kind = getattr(command, "kind", "")
        if kind == "attack":  # the weapon and Advantage the hint spends: a click on the mark plays it
            self.mode = AttackMode(uid, command.weapon, command.advantage, command.advantage_kind)
        elif kind == "charge" and st.phase == "movement":
            self.mode = MoveMode(uid, command.pay, command.advantage)
        else:
            self.mode = unit_mode(self, uid)
        self.mode.hinted = mark = hint_mark(st, command)  # where it acts, marked on the map
        self._hint_command = command  # what a click on the mark plays
        self.forget_overlay()
        self._frame_hint(st.units[uid].hex, command, mark)
        self.refresh_panels()

    def _frame_hint(self, at: Hex, command: Any, mark: tuple[Hex, str] | None) -> None:
        """Bring a hint's unit and where it acts into view: the unit, the path it would take and
        the mark, centred together above the hint's message at the foot of the view. When they
        do not all fit there (a move and dash in a 960 x 600 window), the unit stays whole above
        the message and the far end of its path gives way (the start of the path shows). A shot
        too long for the whole view shows its mark (the target; the unit's card shows the unit)."""
        path = [*getattr(command, "path", ()), *getattr(command, "move_path", ()), *getattr(command, "dash_path", ())]
        points: list[Hex] = [at]
        for h in [*path, *([mark[0]] if mark is not None else [])]:
            if h != points[-1]:
                points.append(h)
        cam, z, pad = self.camera, self.camera.zoom, 40  # room round each counter (screen pixels)
        centres = [self.layout.hex_center(h) for h in points]
        xs, ys = [c[0] for c in centres], [c[1] for c in centres]
        view = pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h)
        if not path and ((max(xs) - min(xs)) * z + 2 * pad > view.w or (max(ys) - min(ys)) * z + 2 * pad > view.h):
            cam.ensure_visible(*centres[0])
            cam.ensure_visible(*centres[-1])
            return
        toast = self.toast_text
        band = 0
        if toast:  # the message is drawn over the foot of the view (labels.draw_toast): above it
            lines = wrap(toast, TOAST_SIZE, max(60, view.w - 40))
            band = len(lines) * fonts.text("Ag", TOAST_SIZE, (255, 255, 255), True).get_height() + 24
        above = pygame.Rect(view.x, view.y, view.w, max(2 * pad + 1, view.h - band))
        inner = above.inflate(-2 * pad, -2 * pad)
        if all(inner.collidepoint(cam.world_to_screen(*c)) for c in centres):
            return  # all in view already: the map stays where the player left it
        cam.pos_x = (max(xs) + min(xs)) / 2 - (above.centerx - cam.view_x) / z
        cam.pos_y = (max(ys) + min(ys)) / 2 - (above.centery - cam.view_y) / z
        ux, uy = cam.world_to_screen(*centres[0])  # the unit inside, whatever gives way
        cam.pos_x += (ux - min(max(ux, inner.left), inner.right)) / z
        cam.pos_y += (uy - min(max(uy, inner.top), inner.bottom)) / z
        cam.clamp()  # (at the map's edge the clamp may leave them off centre)

    def _say_hint(self, message: str, seconds: float = 4.0) -> None:
        """A message of the hint key: a toast, and kept for a decision's dialog to show."""
        self.hint_said = message
        self.toast(message, seconds)

    def wants_frames(self) -> bool:
        return super().wants_frames() or self.thinker.busy() or self.thinker.busy("hint")

    def _show(self, side: str) -> None:
        self.viewer = side
        self.selected = None
        self.mode = SelectMode()
        self.forget_overlay()
        self.refresh_panels()
        self._open_decision()

    def _centre_on_side(self, side: str) -> None:
        mine = [self.layout.hex_center(u.hex) for u in self.state.live_units(side)]
        if mine:
            self.camera.centre_on(sum(p[0] for p in mine) / len(mine), sum(p[1] for p in mine) / len(mine))
            self._panned = True  # the map moved under a still pointer: the hover panel follows (update)

    def _decision_keys(self) -> DecisionKeys:
        """H and P for the dialog of a decision: the hint (shown in the dialog), and the players
        dialog, after which the decision opens again (a side handed to the computer decides)."""
        return DecisionKeys(hint=self.hint, said=lambda: self.hint_said,
                            players=self._players_then_decision if self.players else None)

    def _players_then_decision(self) -> None:
        """P in a decision's dialog: close it, open the players dialog; when that closes, the
        battle opens the decision again for a person, or its computer player decides."""
        self.app.pop()
        self._dialog_key = None
        self.players_dialog()

    def _open_decision(self) -> None:
        st = self.state
        p = st.pending
        if p is None:
            self._dialog_key = None
            return
        key = (st.seq, p.kind, p.sides)
        if key == self._dialog_key or self.app.scenes.top is not self:
            return
        self._dialog_key = key
        self.hint_said = None  # a hint is for one decision
        if p.kind == "initiative_choice":
            self.app.push(self.dialogs.initiative(st, p.sides[0], self._decision_keys()))
        elif p.kind == "turn_place":
            self.app.push(self.dialogs.turn_place(st, p, self._decision_keys()))
        elif p.kind == "defensive_action":
            dialog = self.dialogs.defensive(st, p, decision=self._decision_keys())
            self.app.push(dialog)
            ids = [p.unit_id] + ([p.attack.attacker_id] if p.attack is not None else [])
            self._frame_beside(dialog.rect, [st.units[i].hex for i in ids if i in st.units])

    def _frame_beside(self, covered: pygame.Rect, hexes: list[Hex]) -> None:
        """Scroll the map so the hexes (the first one above all: the unit attacked) show in the
        largest part of the map view that the dialog `covered` leaves uncovered: all of them
        when they fit there, else the first alone, else the first at the view's centre."""
        if not hexes:
            return
        cam = self.camera
        view = pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h)
        box = covered.clip(view)
        bands = [pygame.Rect(view.x, view.y, box.x - view.x, view.h),  # left of the dialog
                 pygame.Rect(box.right, view.y, view.right - box.right, view.h),  # right of it
                 pygame.Rect(view.x, view.y, view.w, box.y - view.y),  # above it
                 pygame.Rect(view.x, box.bottom, view.w, view.bottom - box.bottom)]  # below it
        bands.sort(key=lambda r: r.w * r.h if r.w > 0 and r.h > 0 else 0, reverse=True)
        z, pad = cam.zoom, 48  # room round each counter (screen pixels)
        points = [self.layout.hex_center(h) for h in hexes]
        for group in (points, points[:1]):
            xs, ys = [p[0] for p in group], [p[1] for p in group]
            w, h = (max(xs) - min(xs)) * z + 2 * pad, (max(ys) - min(ys)) * z + 2 * pad
            band = next((b for b in bands if b.w >= w and b.h >= h), None)
            if band is not None:
                cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
                cam.pos_x = cx - (band.centerx - cam.view_x) / z
                cam.pos_y = cy - (band.centery - cam.view_y) / z
                cam.clamp()  # (at the map's edge the clamp may leave them nearer the dialog)
                return
        cam.centre_on(*points[0])

    def restart(self) -> None:
        s = self.session
        # fresh dice when the game had them (`play`'s default), else the same seed (`--seed`)
        seed = secrets.randbelow(2 ** 32) if s.fresh_dice else s.seed
        fresh = Session.start(s.system, s.game_setup, seed, setup=s.setup, board=s.board, layout=s.layout,
                              map_data=s.map_data, path=s.path, loaded=s.loaded, description=s.description,
                              fresh_dice=s.fresh_dice)
        # the same players and GM passphrase, and the way back to a campaign it was fought out from
        self.app.replace(BattleScene(self.app, actions.restarted(s, fresh)))

    def warm_up(self) -> None:
        """The rules' engine, queries and descriptions: the first frame needed none of them."""
        warm_up_rules()

    # ================================================================== events
    def on_enter(self) -> None:
        # uncovered (a dialog closed, hand-off continued) or first shown: see what is awaited.
        # Keys and buttons released while another screen was up never reached us: forget them.
        self._held.clear()
        self._press, self._dragging = None, False
        self.refresh_panels()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._ui_button(event.ui_element)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            greyed = self.actions.greyed_at(event.pos)
            if greyed is not None:  # a greyed button (the toolkit takes the click, says nothing): why it is closed
                self._say_greyed(greyed)
                return
        consumed = self.ui.process_events(event)
        if event.type == pygame.KEYUP:
            self._held.discard(event.key)
            return
        if event.type == pygame.MOUSEBUTTONUP and consumed:
            self._press, self._dragging = None, False  # a drag released over the panels ends there
            return
        if event.type == pygame.MOUSEMOTION and self._press is not None \
                and not any(getattr(event, "buttons", (1,))):
            self._press, self._dragging = None, False  # the button was released outside the window
        if consumed and event.type != pygame.MOUSEMOTION:
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEWHEEL:
            if self.camera.contains_screen(*self.mouse):
                self.camera.zoom_at(1 if event.y > 0 else -1, *self.mouse)
                self.forget_overlay()
                self.update_hover()
        elif event.type == pygame.MOUSEBUTTONDOWN:
            if event.button in (1, 2) and self.camera.contains_screen(*event.pos):
                self.mouse = event.pos
                self._press = (event.button, event.pos)
                self._dragging = False
            elif event.button == 3:
                self.cancel()
            elif event.button in (4, 5) and self.camera.contains_screen(*event.pos):
                pass  # wheel arrives as MOUSEWHEEL too
        elif event.type == pygame.MOUSEMOTION:
            if self._press is not None:
                dx, dy = event.pos[0] - self._press[1][0], event.pos[1] - self._press[1][1]
                if self._dragging or abs(dx) + abs(dy) > DRAG_THRESHOLD:
                    if not self._dragging:
                        self._dragging = True
                    else:
                        dx, dy = event.rel
                    self.camera.pan_screen(-dx, -dy)
            self.update_hover()
        elif event.type == pygame.MOUSEBUTTONUP:
            press, self._press = self._press, None
            if press is not None and event.button == press[0] == 1 and not self._dragging:
                self.mouse = event.pos
                self.update_hover()
                self.click(event.pos)
            self._dragging = False

    def _key(self, event: pygame.event.Event) -> None:
        if event.key in PAN_KEYS and not getattr(event, "mod", 0) & pygame.KMOD_CTRL:
            self._held.add(event.key)  # held for panning (update() moves the camera)
            return
        dispatch(BATTLE_KEYS, event, self)

    def toggle_grid(self) -> None:
        self.settings.show_grid = not self.settings.show_grid

    def cancel(self) -> None:
        self._use(self.mode.cancel(self))

    def click(self, pos: tuple[int, int]) -> None:
        if self.anim.busy:
            self.anim.skip()
        st = self.state
        if st.phase == "ended" or st.pending is not None:
            return
        h = self.hex_at(pos)
        if h is None:
            return
        if self.viewer != self.decision_side():
            return
        hinted, command = self.mode.hinted, self._hint_command
        if hinted is not None:  # the next click takes the hint's mark away; a click on it plays the hint
            self.mode.hinted = None
            self.forget_overlay()
            if h == hinted[0] and command is not None:
                self.submit(command)
                return
        self._use(self.mode.click(self, h), refresh=False)
        if self.selected is None and isinstance(self.mode, SelectMode):
            u = self.unit_at(h)
            if u is not None:
                self.selected = u.id
        self.refresh_panels()  # once, for the mode and the selection together

    def _use(self, intent: Intent | None, refresh: bool = True) -> None:
        """Carry out what a mode asked: the selection, the message, the next mode, the command."""
        if intent is None:
            if refresh:
                self.refresh_panels()
            return
        if not isinstance(intent.select, Keep):
            self.selected = intent.select
        if intent.toast is not None:
            self.toast(intent.toast)
        if intent.mode is not None:
            self.mode = intent.mode
            self.forget_overlay()
        if intent.command is not None:
            self.submit(intent.command)
        elif refresh:
            self.refresh_panels()

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        if not self.camera.contains_screen(*pos):
            return None
        wx, wy = self.camera.screen_to_world(*pos)
        h = self.layout.pixel_to_hex(wx, wy)
        return h if h in self.session.board.terrain else None

    def update_hover(self) -> None:
        """Take the hex under the mouse as the hovered one (panels follow)."""
        h = self.hex_at(self.mouse)
        if h != self.hover:
            self.hover = h
            self.refresh_panels()

    # ================================================================== time
    def _pointer_back(self) -> None:
        """Back on top after another screen (a dialog, the hand-off, the help): the pointer moved
        over that screen, not over the map, so the hovered hex is taken afresh from where the
        pointer is now (none when it is not over the map view). The hover kept from before drew
        its preview (a red attack line, a charge path) at a hex the pointer had left, into the
        next round."""
        self.mouse = pygame.mouse.get_pos() if pygame.mouse.get_focused() else (-1, -1)
        self.update_hover()

    def update(self, dt: float) -> None:
        frame = int(getattr(self.app, "frame", 0))  # (the App counts its frames; AppContext does not name it)
        if self._last_frame is not None and frame > self._last_frame + 1:
            self._pointer_back()
        self._last_frame = frame
        if self._held:
            dx = sum(PAN_KEYS[k][0] for k in self._held if k in PAN_KEYS)
            dy = sum(PAN_KEYS[k][1] for k in self._held if k in PAN_KEYS)
            if dx or dy:
                self.camera.pan_screen(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)
                self._panned = True
        if self._panned and not any(k in PAN_KEYS for k in self._held):
            # the map moved under a still pointer: once it stops, the hover is the hex under the
            # pointer again (not on every frame of the pan, where the hex box would be laid out
            # anew at each hex passed)
            self._panned = False
            self.update_hover()
        was_busy = self.anim.busy
        self.anim.update(dt)
        if was_busy and not self.anim.busy:
            self.refresh_panels()
        if self._toast is not None:
            msg, left = self._toast
            left -= dt
            self._toast = (msg, left) if left > 0 else None
            if self._toast is None:
                self.refresh_panels()
        self.ui.update(dt)
        if self.app.scenes.top is self and not self.anim.busy:
            self.sync()
        self._poll_hint()
        self.map_view.prepare(self, self.regions()[2])
        self.panels.update_chart(self.map_view.hover_preview)

    def update_covered(self, dt: float) -> None:
        self.ui.update(0.0)  # labels changed under a dialog redraw their text
        self._poll_hint()  # (the hint asked for a dialog's decision arrives under it)
        # the map under a dialog is the battle as it is now: not the picture kept from before the
        # command that opened it (the last hover's red attack line and hit chances stayed drawn
        # under the defensive-action question and the next round's initiative dialog)
        self.map_view.prepare(self, self.regions()[2])

    # ================================================================== drawing
    def draw(self, surface: pygame.Surface) -> None:
        top, side, view = self.regions()
        # drawn over the window's last frame (this scene alone on it, drawn straight onto the
        # window), the map view draws only what changed on it, unless a toolkit element or the
        # odds chart is over the view; the panels and the toolkit are drawn whole (drawing only
        # the toolkit's changed elements saved 0.3 ms a hover: docs/performance.md)
        kept = surface is self.app.screen and self.app.screen_kept and self.app.scenes.visible() == [self]
        covered = self.panels.chart_rect.colliderect(view) or elements_over(self.ui, view)
        draw_frames(surface, top, side)
        self.map_view.draw(surface, self, view, self.app.screen.get_size(), self.toast_text,
                           ScreenState(kept, covered))
        draw_toolkit(surface, self.ui, self.panels.chart_pictures())

    # ================================================================== buttons
    def _ui_button(self, element: object) -> None:
        top = self.panels.top_button(element)
        if top is not None:
            {"help": self.help_dialog, "options": self.options_dialog, "end": self.end_phase,
             "undo": self.undo}[top]()
            return
        bid = self.actions.button_id(element)
        if bid is None:
            return
        command = unit_command(self.state, self.selected, bid)
        if command is not None:
            self.submit(command)
            return
        self._use(self.mode.button(self, bid))


    def _say_greyed(self, button: ActionButton) -> None:
        """The reason a greyed action button is closed, on the top line: the rules' refusal of the
        command it would make, else what its tooltip says."""
        command = unit_command(self.state, self.selected, button.id)
        if command is None:
            intent = self.mode.button(self, button.id)
            command = intent.command if isinstance(intent, Intent) else None
        self.toast(greyed_reason(self.state, button, command))


# ---------------------------------------------------------------------------- helpers

def _phase_mode(phase: str) -> str:
    return {"movement": "move", "attack": "attack"}.get(phase, "select")



def can_still_act(names: list[str], limit: int = 8) -> str:
    """The end-phase question's sentence: how many units can still act and their names, the
    first `limit` of them and "and N more" for the rest (never a name dropped unsaid)."""
    n = len(names)
    shown = names if n <= limit else names[:limit - 1]
    listed = ", ".join(shown)
    if n > len(shown):
        listed += f" and {n - len(shown)} more"
    elif n > 1:
        listed = ", ".join(shown[:-1]) + " and " + shown[-1]
    return f"{n} unit{'' if n == 1 else 's'} can still act: {listed}."
