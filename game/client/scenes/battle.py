"""The battle scene: the map with its camera, the units, the current input mode, the panels.

Input: the UI toolkit gets every event first; what it does not use goes to the camera (drag,
wheel, arrows/WASD) and then to the current input mode (clicks on hexes). A mode returns a
command (applied through the session), a new mode, or nothing.

Decisions the rules wait for (initiative choice, turn place, defensive action) open dialogs;
whenever the side that must look at the screen changes, the hand-off screen goes up first
(unless the GM switched the blackout off).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.client import draw, fonts, text
from game.client.anim import AnimQueue, FloatText, Shot
from game.client.camera import Camera
from game.client.mapcache import MapCache, board_picture, tiled_picture
from game.client.modes import ActionButton, Mode, SelectMode, unit_mode
from game.client.rq import Queries
from game.client.scene import Scene
from game.client.scenes.dialog import Choice, DialogScene
from game.client.scenes.handoff import HandoffScene
from game.client.session import Session
from game.hexgrid import Hex
from game.rules.ail import commands as cmd

if TYPE_CHECKING:
    from game.client.app import App

BACKGROUND = (14, 16, 19)
PANEL_BG = (29, 33, 38)
PANEL_EDGE = (59, 67, 76)
TOP_H = 46
SIDE_W = 380
PAN_SPEED = 700.0  # screen pixels per second for keyboard panning
# The kept picture of the map view reaches this far (screen pixels) beyond the view on every
# side, so panning frames only blit another part of it (see _build_view_layer).
VIEW_MARGIN = 192
DRAG_THRESHOLD = 6
PAN_KEYS = {
    pygame.K_LEFT: (-1, 0), pygame.K_a: (-1, 0), pygame.K_RIGHT: (1, 0), pygame.K_d: (1, 0),
    pygame.K_UP: (0, -1), pygame.K_w: (0, -1), pygame.K_DOWN: (0, 1), pygame.K_s: (0, 1),
}

HELP_HTML = (
    "<b>Mouse</b><br>"
    "Left click: select a unit / act (move, attack, charge)<br>"
    "Right click or Esc: cancel<br>"
    "Left or middle drag: pan the map · Wheel: zoom towards the cursor<br><br>"
    "<b>Keys</b><br>"
    "Arrows / WASD: pan · G: hex grid on/off<br>"
    "Tab or N: next unit that can act<br>"
    "E or Enter: end the phase (asks when units have not acted)<br>"
    "Ctrl+Z: undo the last move (only when it rolled no dice)<br>"
    "Space: skip the running animation · O: options · 1-9: the buttons of a dialog<br>"
    "F1: this help · F11: fullscreen<br><br>"
    "<b>Colours</b><br>"
    "<font color='#50aaff'>Blue</font>: move reach · <font color='#ffaa3c'>orange</font>: dash reach "
    "(click past the blue to move and dash in one go) · "
    "<font color='#fff078'>yellow</font>: reachable only thanks to the road bonus · "
    "<font color='#ff463c'>red</font>: targets / charge. A red crosshair on a path marks a hex "
    "where overwatch would fire, with who fires and the chance to hit. Hover a unit on overwatch: "
    "its danger zone is rimmed in red. Grey targets (0%) cannot be hit."
)


class BattleScene(Scene):
    name = "battle"

    def __init__(self, app: App, session: Session) -> None:
        super().__init__(app)
        self.session = session
        self.settings = app.settings
        self.q = Queries()
        self.layout = session.layout
        w, h = session.layout.map_pixel_size
        self.camera = Camera(w, h)
        if session.map_data is not None:
            picture = tiled_picture(session.map_data)
        else:
            picture = board_picture(session.board, session.layout, session.setup.rules)
        self.map_cache = MapCache(picture, self.layout, session.board.terrain)
        self._overlay_key: tuple[Any, ...] | None = None
        self._overlay: tuple[pygame.Surface, tuple[int, int]] | None = None
        self._hover_overlay_key: tuple[Any, ...] | None = None
        self._hover_overlay: tuple[pygame.Surface, tuple[int, int]] | None = None
        self._chart: tuple[object, pygame.Surface] | None = None
        self._places_key: tuple[int, int] | None = None
        self._places: list[tuple[Any, float, float]] = []
        self._can_act: set[str] = set()
        self._occupant: dict[Hex, Any] = {}
        self._frame_key: tuple[Any, ...] | None = None
        self._hover_key: tuple[Any, ...] | None = None
        self._hover_preview: Any = None
        # the kept picture of the map view: (frame key, picture, map origin on screen when it was
        # drawn, picture position of the screen's (0, 0) then); see _build_view_layer
        self._view_layer: tuple[Any, pygame.Surface, tuple[int, int], tuple[int, int]] | None = None
        self.view_scrolls = 0  # panned frames shown from the kept picture, not redrawn (tests, benchmarks)
        self._counter_cache: dict[tuple[Any, ...], pygame.Surface] = {}
        self.mode: Mode = SelectMode()
        self.selected: str | None = None
        self.hover: Hex | None = None
        self.mouse = (0, 0)
        self._press: tuple[int, tuple[int, int]] | None = None
        self._dragging = False
        self._held: set[int] = set()
        self.anim = AnimQueue()
        self.viewer: str | None = None        # the side whose view is on screen
        self._dialog_key: object = None       # the decision a dialog is open for
        self._ended_shown = False
        self._briefed = False
        self._turn: tuple[int, int, bool] | None = None
        self._toast: tuple[str, float] | None = None
        self._ui_cache: dict[str, str] = {}
        self._button_ids: dict[object, str] = {}
        self._buttons_key: object = None
        self.ui = app.make_ui()
        self._build_ui()
        self.camera.centre_on(w / 2, h / 2)

    # ================================================================== state helpers
    @property
    def state(self) -> Any:
        return self.session.state

    def side_colour(self, side: str | None) -> tuple[int, int, int]:
        for s in self.session.setup.sides:
            if s.id == side:
                return s.colour
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
        pos = self.anim.unit_position(unit_id)
        if pos is not None:
            return pos
        u = self.state.units.get(unit_id) or self.anim.ghosts.get(unit_id)
        assert u is not None, unit_id
        return self.layout.hex_center(u.hex)

    def toast(self, message: str, seconds: float = 4.0) -> None:
        self._toast = (message, seconds)

    # ================================================================== UI building
    def _regions(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        w, h = self.app.screen.get_size()
        top = pygame.Rect(0, 0, w, TOP_H)
        side = pygame.Rect(w - SIDE_W, TOP_H, SIDE_W, h - TOP_H)
        view = pygame.Rect(0, TOP_H, w - SIDE_W, h - TOP_H)
        return top, side, view

    def _build_ui(self) -> None:
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self._ui_cache.clear()
        self._button_ids.clear()
        self._buttons_key = None
        top, side, view = self._regions()
        self.camera.set_viewport(view.x, view.y, view.w, view.h)
        self.status_label = pygame_gui.elements.UILabel(pygame.Rect(10, 4, top.w - 480, 22), "", self.ui,
                                                        object_id=ObjectID(class_id="@title"))
        self.hint_label = pygame_gui.elements.UILabel(pygame.Rect(10, 24, top.w - 480, 20), "", self.ui)
        bx = top.w - 10
        self.top_buttons: dict[str, pygame_gui.elements.UIButton] = {}
        for key, label, width, tip in (("help", "Help F1", 78, "Controls"),
                                       ("options", "Options", 78, "Animation speed, blackout, questions"),
                                       ("end", "End phase (E)", 160, "End this phase"),
                                       ("undo", "Undo", 70, "Take back the last move (Ctrl+Z)")):
            bx -= width
            oid = ObjectID(class_id="@primary") if key == "end" else None
            btn = pygame_gui.elements.UIButton(pygame.Rect(bx, 6, width, 34), label, self.ui,
                                               tool_tip_text=tip, object_id=oid)
            self.top_buttons[key] = btn
            bx -= 8
        x, wdt = side.x + 8, side.w - 16
        y = side.y + 8
        # fixed parts: action buttons, odds chart, log title and the gaps; the rest is shared
        rest = max(220, side.h - 16 - 118 - 112 - 26 - 20)
        unit_h = max(90, int(rest * 0.40))
        info_h = max(70, int(rest * 0.31))
        self.unit_box = pygame_gui.elements.UITextBox("", pygame.Rect(x, y, wdt, unit_h), self.ui)
        y += unit_h + 6
        self.actions_rect = pygame.Rect(x, y, wdt, 118)
        y += 118 + 4
        self.info_box = pygame_gui.elements.UITextBox("", pygame.Rect(x, y, wdt, info_h), self.ui)
        y += info_h + 4
        self.chart_rect = pygame.Rect(x, y, wdt, 112)
        y += 112 + 6
        pygame_gui.elements.UILabel(pygame.Rect(x, y, wdt, 26), "Dice log (newest first)", self.ui,
                                    object_id=ObjectID(class_id="@title"))
        y += 26
        self.log_box = pygame_gui.elements.UITextBox("", pygame.Rect(x, y, wdt, max(60, side.bottom - y - 8)),
                                                     self.ui)
        self._refresh_panels(force=True)

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build_ui()

    def _set_html(self, key: str, box: pygame_gui.elements.UITextBox, html: str) -> None:
        if self._ui_cache.get(key) != html:
            self._ui_cache[key] = html
            box.set_text(html)

    def _set_label(self, key: str, label: pygame_gui.elements.UILabel, s: str) -> None:
        if self._ui_cache.get(key) != s:
            self._ui_cache[key] = s
            label.set_text(s)

    def _refresh_panels(self, force: bool = False) -> None:
        """Bring the panels up to date (only what changed is re-rendered)."""
        st = self.state
        phase = text.PHASE_NAMES.get(st.phase, st.phase)
        rnd = f"Round {st.round}/{st.setup.round_limit}"
        if st.phase == "ended":
            status = f"{rnd} · Battle over"
        elif st.phase == "initiative":
            status = f"{rnd} · Initiative"
        else:
            owner = st.active_side
            status = f"{rnd} · {st.side_name(owner) if owner else ''} · {phase} phase"
            slot = st.active_slot
            if slot is not None and slot.unit_id is not None:
                status += f" · Personal: {st.unit_name(slot.unit_id)} alone"
        self._set_label("status", self.status_label, status)
        self._set_label("hint", self.hint_label, self._hint())
        # selected unit
        if self.selected and self.selected in st.units:
            html = text.unit_html(st, self.selected, self.side_colour(st.units[self.selected].side))
        else:
            html = f"<font color='{text.DIM}'>No unit selected. Click a unit to see it; Tab picks the next " \
                   "unit that can act.</font>"
            html += self._side_summary_html()
        self._set_html("unit", self.unit_box, html)
        # hover / preview
        self._set_html("info", self.info_box, self._info_html())
        # dice log
        if force or self._ui_cache.get("log_n") != str(len(self.session.history)):
            self._ui_cache["log_n"] = str(len(self.session.history))
            self._set_html("log", self.log_box, self._log_html())
        # buttons
        _enable(self.top_buttons["undo"], self.session.can_undo)
        if st.phase in ("movement", "attack") and st.pending is None:
            _enable(self.top_buttons["end"], True)
            label = f"End {st.phase} (E)"
            if self._ui_cache.get("endlbl") != label:
                self._ui_cache["endlbl"] = label
                self.top_buttons["end"].set_text(label)
        else:
            _enable(self.top_buttons["end"], False)
        self._rebuild_action_buttons()

    def _where(self, h: Hex) -> str:
        col, row = self.session.board.offset_of(h)
        return f"{col},{row}"

    def _side_names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.session.setup.sides}

    def _side_summary_html(self) -> str:
        st = self.state
        lines = []
        for s in st.setup.sides:
            adv = st.sides[s.id].advantage
            pools = ", ".join(f"{k} {v}" for k, v in adv.items() if v)
            alive = len(st.live_units(s.id))
            lines.append(f"<font color='{text.hexcol(s.colour)}'><b>{text.e(s.name)}</b></font>: "
                         f"{alive} units" + (f" · Advantage: {pools}" if pools else ""))
        if st.turn_order:
            order = []
            for i, slot in enumerate(st.turn_order):
                label = st.side_name(slot.side) + (f" ({st.unit_name(slot.unit_id)})" if slot.unit_id else "")
                order.append(f"<b>{text.e(label)}</b>" if i == st.turn_index and st.phase != "initiative"
                             else text.e(label))
            lines.append(f"<font color='{text.DIM}'>Turn order:</font> " + " &gt; ".join(order))
        for o in st.setup.objectives:
            if o.description:
                lines.append(f"<font color='{text.DIM}'>Objective ({text.e(st.side_name(o.side))}): "
                             f"{text.e(o.description)}</font>")
        return "<br><br>" + "<br>".join(lines)

    def _hint(self) -> str:
        if self._toast is not None:
            return self._toast[0]
        st = self.state
        if st.phase == "ended":
            return "The battle is over."
        if st.pending is not None:
            return f"Waiting for {st.side_name(st.pending.sides[0])} to answer."
        return self.mode.hint(self)

    def _info_html(self) -> str:
        st = self.state
        pv = self.mode.preview(self)
        if pv is not None:
            return self._preview_html(pv[0], pv[1])
        view = self.mode.path_view(self)
        parts = []
        if view is not None and view.exposures:
            parts.append(f"<b>{text.e(view.label)}</b>")
            for ex in view.exposures:
                parts.append(f"<font color='{text.BAD}'>Overwatch at step {ex.step}: "
                             f"{text.e(st.unit_name(ex.watcher_id))} ({text.e(ex.weapon)}) "
                             f"{draw.percent(_hit_chance(ex))} to hit</font>")
        elif view is not None:
            parts.append(f"<b>{text.e(view.label)}</b> · no overwatch on this path")
        if self.hover is not None and self.hover in st.board.terrain:
            parts.append(text.terrain_html(st.board, st.setup.rules, self.hover, st))
            for obj in st.setup.objectives:
                if self.hover in obj.hexes:
                    parts.append(f"<font color='{text.GOLD}'>Objective of {text.e(st.side_name(obj.side))}: "
                                 f"{text.e(obj.description or 'hold this hex')}</font>")
            u = self.unit_at(self.hover)
            if u is not None and u.stance == "overwatch":
                zone = self.q.danger_zone(st, u.id)
                parts.append(f"<font color='{text.BAD}'>{text.e(st.unit_name(u.id))} is on overwatch "
                             f"({text.e(u.stance_weapon or '')}): it fires at the first enemy that dashes or "
                             f"charges into the red hexes ({len(zone)} in range and sight).</font>")
            if u is not None and u.id != self.selected:
                parts.append(text.unit_html(st, u.id, self.side_colour(u.side)))
        return "<br>".join(parts) or f"<font color='{text.DIM}'>Hover a hex to see its terrain.</font>"

    def _preview_html(self, p: Any, base: Any) -> str:
        ac, odds = _preview_parts(p)
        st = self.state
        lines = []
        target = getattr(p, "target_id", None)
        if target:
            lines.append(f"<b>vs {text.e(st.unit_name(target))}</b>")
        if ac is not None:
            parts = " ".join(f"{text.e(m.label)} {text.signed(m.value) if i else m.value}"
                             for i, m in enumerate(ac.parts))
            lines.append(f"Accuracy Challenge <b>{ac.total}</b> = {parts}")
        hit = _hit_roll_text(st, p)
        if hit:
            lines.append(hit)
        if odds is not None and odds.hit_chance == 0:
            lines.append(f"<font color='{text.BAD}'><b>0% to hit:</b> {text.e(_no_chance_reason(st, p))}</font>")
        if odds is not None:
            chance = f"Hit chance <b>{draw.percent(odds.hit_chance)}</b>"
            if base is not None:
                _, bodds = _preview_parts(base)
                if bodds is not None:
                    chance += f" (was {draw.percent(bodds.hit_chance)} without Advantage)"
            chance += f" · expected strength lost {float(odds.expected_strength_lost):.2f}"
            lines.append(chance)
            da = getattr(p, "odds_if_defensive_action", None)
            if da is not None:
                lines.append(f"<font color='{text.DIM}'>If the defender takes a defensive action: "
                             f"{draw.percent(da.hit_chance)} to hit</font>")
            for note in getattr(odds, "notes", ()):
                lines.append(f"<font color='{text.DIM}'>{text.e(note)}</font>")
        return "<br>".join(lines)

    def _log_html(self) -> str:
        st = self.state
        name = st.unit_name
        lines: list[str] = []
        for step in reversed(self.session.history[-80:]):
            block = [text.event_html(ev, name, self._side_names(), self._where) for ev in reversed(step.events)
                     if getattr(ev, "kind", "") not in ("initiative_chosen",)]
            lines.extend(block)
            if len(lines) > 200:
                break
        if not lines:
            return f"<font color='{text.DIM}'>Every die rolled appears here with all its parts.</font>"
        return "<br>".join(lines)

    def _rebuild_action_buttons(self) -> None:
        buttons = self.mode.buttons(self) if self.state.pending is None and not self.anim.busy else []
        extra = self._leadership_buttons()
        key = (tuple(buttons), tuple(extra))
        if key == self._buttons_key:
            return
        self._buttons_key = key
        for element in list(self._button_ids):
            element.kill()  # type: ignore[attr-defined]
        self._button_ids.clear()
        r = self.actions_rect
        items: list[ActionButton] = list(buttons) + list(extra)
        cols = 2
        bw = (r.w - 6) // cols
        items = items[:12]
        rows = max(1, (len(items) + cols - 1) // cols)
        gap = 4 if rows <= 4 else 2
        bh = min(26, (r.h - gap * (rows - 1)) // rows)
        for i, b in enumerate(items):
            cx = r.x + (i % cols) * (bw + 6)
            cy = r.y + (i // cols) * (bh + gap)
            oid = ObjectID(class_id="@primary") if b.selected else None
            el = pygame_gui.elements.UIButton(pygame.Rect(cx, cy, bw, bh), b.label, self.ui,
                                              tool_tip_text=b.tooltip or None, object_id=oid)
            _enable(el, b.enabled)
            self._button_ids[el] = b.id

    def _leadership_buttons(self) -> list[ActionButton]:
        st = self.state
        if self.selected is None or st.phase not in ("movement", "attack") or st.pending is not None:
            return []
        u = st.units.get(self.selected)
        if u is None or not self.is_mine(u.id):
            return []
        out = []
        pool = st.sides[u.side].advantage.get("leadership", 0)
        if pool:
            out.append(ActionButton("leadership", f"Give Leadership ({pool} left)",
                                    tooltip="The commander hands 1 Leadership point to this unit."))
        options = casualty_options(st, u.id)
        if len(options) > 1:
            now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            out.append(ActionButton("casualty", f"Casualty: +{now[0]} {now[1]}" if now[0] else "Casualty rolls: none",
                                    selected=bool(now[0]),
                                    tooltip="Standing order: Advantage this unit spends on EACH of its casualty "
                                            "rolls when attacked, while its points last. Click to change."))
        return out

    # ================================================================== applying commands
    def submit(self, commands: Any) -> bool:
        """Apply one command or a list (all or nothing); animate, sync dialogs and hand-offs."""
        batch = commands if isinstance(commands, list) else [commands]
        before_units = dict(self.state.units)
        mark = len(self.session.history)
        saved = self.session.state
        events: list[Any] = []
        for c in batch:
            ok, evs, reason = self.session.apply(c)
            if not ok:
                if not events or not any(step.rolled_dice for step in self.session.history[mark:]):
                    # undo the earlier parts of the batch: they rolled no dice (e.g. the move
                    # before a dash), so nothing anybody saw is taken back
                    del self.session.history[mark:]
                    self.session.state = saved
                    self.toast(reason or "Not allowed.")
                    self._refresh_panels()
                    return False
                # an earlier part rolled dice (overwatch stopped the move): it stands
                self.toast(f"Stopped: {reason}" if reason else "Stopped.")
                break
            events.extend(evs)
        if len(self.session.history) == mark + len(batch):
            self._toast = None
        self.anim.load(events, self.layout.hex_center, self._unit_hex, self.settings.speed_factor(), before_units)
        self._after_change()
        return True

    def _unit_hex(self, unit_id: str) -> Hex | None:
        u = self.state.units.get(unit_id)
        return u.hex if u is not None else None

    def _after_change(self) -> None:
        st = self.state
        if self.selected and (self.selected not in st.units or st.units[self.selected].destroyed):
            self.selected = None
        # keep the acting unit selected in the right mode; otherwise back to selection
        uid = self.mode.unit_id
        if uid is not None and self.is_mine(uid) and self.mode.name == _phase_mode(st.phase):
            pass  # MoveMode / AttackMode read the new state themselves
        elif uid is not None and self.is_mine(uid):
            self.mode = unit_mode(self, uid)
        else:
            self.mode = SelectMode()
        self._overlay_key = None
        self._refresh_panels(force=True)
        for hook in AFTER_CHANGE_HOOKS:  # e.g. the autosave at each new round
            hook(self)
        self.sync()

    def undo(self) -> None:
        if self.session.undo():
            self.anim.skip()
            self.toast("Move taken back.", 2.0)
            self._after_change()
        else:
            self.toast("Nothing to undo: only a move that rolled no dice can be taken back.")

    def end_phase(self) -> None:
        st = self.state
        side = st.active_side
        if side is None or st.pending is not None or st.phase not in ("movement", "attack"):
            return
        waiting = self.q.can_act(st, side)
        if waiting and self.settings.confirm_end_phase:
            names = ", ".join(st.unit_name(u) for u in waiting[:6])
            self.app.push(DialogScene(
                self.app, f"End the {st.phase} phase?",
                f"{len(waiting)} unit(s) can still act: {text.e(names)}.",
                [Choice("Keep playing", None, pygame.K_ESCAPE),
                 Choice("End phase", lambda: self.submit(cmd.EndPhase(side=side)), pygame.K_RETURN, primary=True)],
                size=(480, 220), cancel=Choice("Keep playing"), name="confirm_end"))
            return
        self.submit(cmd.EndPhase(side=side))

    def next_unit(self) -> None:
        st = self.state
        ids = self.q.can_act(st, st.active_side)
        if not ids:
            self.toast("No unit can act: end the phase (E).")
            return
        i = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.selected = ids[i]
        self.mode = unit_mode(self, ids[i])
        self.camera.ensure_visible(*self.layout.hex_center(st.units[ids[i]].hex))
        self._refresh_panels()

    # ================================================================== decisions, hand-off
    def sync(self) -> None:
        """Open what the rules wait for: hand-off, initiative, turn place, defensive action, end."""
        if self.app.scenes.top is not self:
            return
        st = self.state
        if st.phase == "ended":
            if not self._ended_shown:
                self._ended_shown = True
                self.app.push(self._end_dialog())
            return
        if not self._briefed:
            self._briefed = True
            if self.session.description and st.seq == 0:
                self.app.push(self._briefing())
                return
        side = self.decision_side()
        turn = (st.round, st.turn_index, st.phase == "initiative")
        if turn != self._turn and st.active_side is not None and st.pending is None:
            self._turn = turn
            self._centre_on_side(st.active_side)  # a new turn starts: look at its units
        if side is not None and side != self.viewer:
            # auto-answer the defensive-action question when the table switched it off
            if st.pending is not None and st.pending.kind == "defensive_action" and not self.settings.ask_defensive:
                self.submit(cmd.DefensiveAction(unit_id=st.pending.unit_id, accept=False))
                return
            if self.settings.blackout:
                self.app.push(HandoffScene(self.app, st.side_name(side), self.side_colour(side),
                                           self._handoff_detail(), on_continue=partial(self._show, side)))
                return
            self._show(side)
            return
        self._open_decision()

    def _briefing(self) -> DialogScene:
        """The scenario before the first roll: the situation, the sides, what wins."""
        import game.rules.ail as ail

        st = self.state
        lines = [text.e(self.session.description.strip()), ""]
        for s in st.setup.sides:
            c = s.commander
            rides = f", with {text.e(st.unit_name(c.unit))}" if c.unit and c.unit in st.units else ""
            lines.append(f"<font color='{text.hexcol(s.colour)}'><b>{text.e(s.name)}</b></font>: "
                         f"{len(st.live_units(s.id))} units, commander {text.e(c.name)}{rides}")
        lines.append("")
        lines += [f"<font color='{text.GOLD}'>{text.e(line)}</font>" for line in ail.describe_objectives(st)]
        lines.append(f"<br>{st.setup.round_limit} rounds. Press F1 at any time for the controls.")
        return DialogScene(self.app, st.setup.name, "<br>".join(lines),
                           [Choice("Start the battle", None, pygame.K_RETURN, primary=True)],
                           size=(760, 440), cancel=Choice("Start the battle"), name="briefing")

    def _handoff_detail(self) -> str:
        st = self.state
        if st.pending is not None:
            return {"initiative_choice": f"Round {st.round}: choose your initiative option.",
                    "turn_place": "You won the initiative: choose your place in the turn order.",
                    "defensive_action": "One of your units is under attack."}.get(st.pending.kind, "")
        return f"Round {st.round}: {st.phase} phase."

    def _show(self, side: str) -> None:
        self.viewer = side
        self.selected = None
        self.mode = SelectMode()
        self._overlay_key = None
        self._refresh_panels()
        self._open_decision()

    def _centre_on_side(self, side: str) -> None:
        mine = [self.layout.hex_center(u.hex) for u in self.state.live_units(side)]
        if mine:
            self.camera.centre_on(sum(p[0] for p in mine) / len(mine), sum(p[1] for p in mine) / len(mine))

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
        if p.kind == "initiative_choice":
            self.app.push(self._initiative_dialog(p.sides[0]))
        elif p.kind == "turn_place":
            self.app.push(self._turn_place_dialog(p))
        elif p.kind == "defensive_action":
            self.app.push(self._defensive_dialog(p))

    def _initiative_dialog(self, side: str) -> DialogScene:
        from game.rules.ail import initiative as ini
        st = self.state
        cdr = ini.commander(st, side)
        rows = []
        choices: list[Choice] = []
        adv = st.sides[side].advantage.get("deception", 0)
        for opt in ("tactics", "leadership", "deception"):
            title, roll, gives = text.OPTION_TEXT[opt]
            skill = cdr.skills.get(opt, 0)  # type: ignore[call-overload,unused-ignore]
            rows.append(f"<b>{title}</b> — intellect {cdr.stats.intellect} + {opt} {skill} + "
                        f"d{10 if skill else 6}<br><font color='{text.DIM}'>{gives}</font>")
            choices.append(Choice(title, partial(self.submit, cmd.ChooseInitiative(side=side, option=opt))))
        personal = ini.personal_stat_options(st, side) if ini.personal_available(st, side) is None else []
        if personal:
            title, roll, gives = text.OPTION_TEXT["personal"]
            skill_of = {"physique": "athletics", "senses": "awareness", "aether": "aether_channel"}
            rolls = []
            for stat in personal:
                sk = skill_of.get(stat, "")
                sv = cdr.skills.get(sk, 0)  # type: ignore[call-overload,unused-ignore]
                rolls.append(f"{stat} {getattr(cdr.stats, stat)} + {sk.replace('_', ' ')} {sv} + d{10 if sv else 6}")
                choices.append(Choice(f"Personal ({stat[:3].upper()})", partial(self.submit, cmd.ChooseInitiative(
                    side=side, option="personal", personal_stat=stat))))
            rows.append(f"<b>{title}</b> — {' | '.join(rolls)}<br><font color='{text.DIM}'>{gives}</font>")
        if adv:
            rows.append(f"<font color='{text.GOLD}'>Banked Deception: +{adv} on this roll.</font>")
        body = f"Commander <b>{text.e(cdr.name)}</b> of {text.e(st.side_name(side))} picks one option:<br><br>" \
               + "<br>".join(rows)
        return DialogScene(self.app, f"Round {st.round}: initiative — {st.side_name(side)}", body, choices,
                           size=(760, 420), name="initiative")

    def _turn_place_dialog(self, p: Any) -> DialogScene:
        st = self.state
        side = p.sides[0]
        last = self.session.history[-1].events if self.session.history else ()
        rolls = [text.event_html(ev, st.unit_name, self._side_names(), self._where) for ev in last
                 if getattr(ev, "kind", "") in ("roll_made", "initiative_rolled", "initiative_won",
                                                "advantage_gained")]
        slots = len(p.ranking) + len(p.trailing)
        ordinal = ["first", "second", "third", "fourth", "fifth", "sixth"]
        choices = [Choice(f"Go {ordinal[i] if i < len(ordinal) else i + 1}",
                          partial(self.submit, cmd.ChooseTurnPlace(side=side, position=i)), primary=i == 0)
                   for i in range(max(1, len(p.ranking)))]
        body = "<br>".join(rolls) + f"<br><br>{text.e(st.side_name(side))} won: choose its place in the turn " \
               f"order ({slots} slots)."
        return DialogScene(self.app, f"{st.side_name(side)} wins the initiative", body, choices,
                           size=(720, 380), name="turn_place")

    def _defensive_dialog(self, p: Any, casualty: tuple[int, str | None] | None = None) -> DialogScene:
        st = self.state
        uid = p.unit_id
        atk = p.attack
        options = casualty_options(st, uid)
        u = st.units[uid]
        if casualty is None or casualty not in options:
            standing = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            casualty = standing if standing in options else options[0]
        spend: int | None = casualty[0] if len(options) > 1 else None
        ckind = casualty[1]
        who = st.unit_name(atk.attacker_id) if atk else "an enemy"
        weapon = f" with {atk.weapon}" if atk else ""
        body = (f"<b>{text.e(st.unit_name(uid))}</b> is about to be attacked by <b>{text.e(who)}</b>"
                f"{text.e(weapon)}.<br><br>A defensive action adds +5 to the Accuracy Challenge of this attack, "
                "but the unit loses its attack (this turn if it has not acted yet, otherwise its next one).")
        if atk is not None:
            import game.rules.ail as ail

            lines = []
            for n, k in options:  # the odds of each casualty-Advantage choice, with and without
                pv = ail.attack_preview(st, atk.attacker_id, uid, atk.weapon, atk.advantage, atk.advantage_kind,
                                        check_turn=False, casualty_advantage=n if len(options) > 1 else None,
                                        casualty_kind=k)  # type: ignore[arg-type]
                if isinstance(pv, ail.Rejection):
                    continue
                mark = (n, k) == casualty
                head = ""
                if len(options) > 1:
                    head = (f"{'&gt; ' if mark else ''}<b>Casualty rolls {text.e(casualty_label(n, k))}</b>"
                            f"{' (chosen)' if mark else ''}: ")
                row = f"{head}to be hit <b>{draw.percent(pv.odds.hit_chance)}</b>, " + _loss_text(pv.odds)
                if pv.odds_if_defensive_action is not None:
                    da = pv.odds_if_defensive_action
                    row += (f"<br>&#160;&#160;with the defensive action: <b>{draw.percent(da.hit_chance)}</b>, "
                            + _loss_text(da))
                lines.append(f"<font color='{text.GOLD if mark and len(options) > 1 else '#e8e2d6'}'>{row}</font>")
            if lines:
                body += "<br><br>" + "<br>".join(lines)

        def answer(accept: bool) -> Any:
            return lambda: self.submit(cmd.DefensiveAction(
                unit_id=uid, accept=accept, casualty_advantage=spend,
                casualty_advantage_kind=ckind if spend else None))

        def never() -> None:
            self.settings.ask_defensive = False
            answer(False)()

        choices = [Choice("Take it (+5 AC)", answer(True), pygame.K_y, primary=True),
                   Choice("No", answer(False), pygame.K_n),
                   Choice("No, never ask", never)]
        if len(options) > 1:
            nxt = options[(options.index(casualty) + 1) % len(options)]
            choices.append(Choice(f"Casualty: {casualty_label(*casualty)}",
                                  lambda: self.app.push(self._defensive_dialog(p, nxt)), pygame.K_c))
        return DialogScene(self.app, f"{st.side_name(p.sides[0])}: defensive action?", body, choices,
                           size=(760, 420 if len(options) > 1 else 330), name="defensive")

    def _end_dialog(self) -> DialogScene:
        st = self.state
        winner = st.winner
        title = f"{st.side_name(winner)} wins!" if winner else "The battle ends in a draw"
        lines = [f"<b>{text.e(st.end_reason or '')}</b>", ""]
        for s in st.setup.sides:
            units = [u for u in st.units.values() if u.side == s.id]
            lost = sum(1 for u in units if u.destroyed)
            full = sum(st.unit_type(u.id).strength for u in units)
            left = sum(u.strength for u in units if not u.destroyed)
            lines.append(f"<font color='{text.hexcol(s.colour)}'><b>{text.e(s.name)}</b></font>: "
                         f"{lost} of {len(units)} units lost · strength {left}/{full}")
        lines.append(f"<br>Rounds played: {st.round}")
        choices = [Choice("Restart", self.restart, pygame.K_r), *_end_choices(self),
                   Choice("Quit", self.app.quit, pygame.K_q, primary=True)]
        return DialogScene(self.app, title, "<br>".join(lines), choices, size=(560, 320), name="end")

    def restart(self) -> None:
        s = self.session
        fresh = Session.start(s.setup, s.board, s.layout, s.seed, map_data=s.map_data, path=s.path,
                              description=s.description)
        self.app.replace(BattleScene(self.app, fresh))

    def options_dialog(self) -> None:
        st = self.settings

        def cycle_speed() -> None:
            order = ["normal", "fast", "instant"]
            st.animation = order[(order.index(st.animation) + 1) % 3]  # type: ignore[assignment]
            self.options_dialog()

        def flip(attr: str) -> Any:
            def run() -> None:
                setattr(st, attr, not getattr(st, attr))
                self.options_dialog()
            return run

        body = (f"Animation: <b>{st.animation}</b><br>"
                f"Blackout between sides: <b>{'on' if st.blackout else 'off (GM at the table)'}</b><br>"
                f"Ask the defender about defensive actions: <b>{'yes' if st.ask_defensive else 'no'}</b><br>"
                f"Ask before ending a phase with idle units: <b>{'yes' if st.confirm_end_phase else 'no'}</b><br>"
                f"Hex grid: <b>{'on' if st.show_grid else 'off'}</b> (G)")
        self.app.push(DialogScene(self.app, "Options", body, [
            Choice("Animation speed", cycle_speed), Choice("Blackout", flip("blackout")),
            Choice("Ask defender", flip("ask_defensive")), Choice("Confirm end", flip("confirm_end_phase")),
            Choice("Close", None, pygame.K_ESCAPE, primary=True),
        ], size=(760, 280), cancel=Choice("Close"), name="options"))

    def help_dialog(self) -> None:
        self.app.push(DialogScene(self.app, "Controls", HELP_HTML,
                                  [Choice("Close", None, pygame.K_F1, primary=True)],
                                  size=(640, 470), cancel=Choice("Close"), name="help"))

    # ================================================================== events
    def on_enter(self) -> None:
        # uncovered (a dialog closed, hand-off continued) or first shown: see what is awaited.
        # Keys and buttons released while another screen was up never reached us: forget them.
        self._held.clear()
        self._press, self._dragging = None, False
        self._refresh_panels()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            self._ui_button(event.ui_element)
            return
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
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
                self._overlay_key = None
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
            self._update_hover()
        elif event.type == pygame.MOUSEBUTTONUP:
            press, self._press = self._press, None
            if press is not None and event.button == press[0] == 1 and not self._dragging:
                self.mouse = event.pos
                self._update_hover()
                self.click(event.pos)
            self._dragging = False

    def _key(self, event: pygame.event.Event) -> None:
        k = event.key
        ctrl = bool(event.mod & pygame.KMOD_CTRL) if hasattr(event, "mod") else False
        if ctrl and (k, "ctrl") in KEY_HOOKS:  # e.g. Ctrl+O load menu (game/client/savegame.py)
            KEY_HOOKS[(k, "ctrl")](self)
        elif k in PAN_KEYS and not ctrl:
            self._held.add(k)
        elif k == pygame.K_z and ctrl:
            self.undo()
        elif k in (pygame.K_ESCAPE,):
            self.cancel()
        elif k == pygame.K_g:
            self.settings.show_grid = not self.settings.show_grid
        elif k in (pygame.K_TAB, pygame.K_n):
            self.next_unit()
        elif k in (pygame.K_e, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.end_phase()
        elif k == pygame.K_F1:
            self.help_dialog()
        elif k == pygame.K_o:
            self.options_dialog()
        elif k == pygame.K_SPACE:
            self.anim.skip()
        else:
            for key, handler in KEY_HOOKS.items():
                if k == key:
                    handler(self)

    def _ui_button(self, element: object) -> None:
        for key, btn in self.top_buttons.items():
            if element is btn:
                {"help": self.help_dialog, "options": self.options_dialog, "end": self.end_phase,
                 "undo": self.undo}[key]()
                return
        bid = self._button_ids.get(element)
        if bid is None:
            return
        if bid == "leadership" and self.selected:
            u = self.state.units[self.selected]
            self.submit(cmd.AssignLeadership(side=u.side, unit_id=u.id, points=1))
            return
        if bid == "casualty" and self.selected:
            u = self.state.units[self.selected]
            options = casualty_options(self.state, u.id)
            now = (u.casualty_advantage, u.casualty_advantage_kind if u.casualty_advantage else None)
            n, kind = options[(options.index(now) + 1) % len(options)] if now in options else options[0]
            self.submit(cmd.SetCasualtyAdvantage(unit_id=u.id, points=n, advantage_kind=kind))  # type: ignore[arg-type,unused-ignore]
            return
        self._use(self.mode.button(self, bid))

    def cancel(self) -> None:
        if isinstance(self.mode, SelectMode):
            self.selected = None
        nxt = self.mode.cancel(self)
        self.mode = nxt or SelectMode()
        self._overlay_key = None
        self._refresh_panels()

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
        self._use(self.mode.click(self, h))
        if self.selected is None and isinstance(self.mode, SelectMode):
            u = self.unit_at(h)
            if u is not None:
                self.selected = u.id
        self._refresh_panels()

    def _use(self, result: Any) -> None:
        if result is None:
            self._refresh_panels()
            return
        if isinstance(result, Mode):
            self.mode = result
            self._overlay_key = None
            self._refresh_panels()
            return
        self.submit(result)

    def hex_at(self, pos: tuple[int, int]) -> Hex | None:
        if not self.camera.contains_screen(*pos):
            return None
        wx, wy = self.camera.screen_to_world(*pos)
        h = self.layout.pixel_to_hex(wx, wy)
        return h if h in self.session.board.terrain else None

    def _update_hover(self) -> None:
        h = self.hex_at(self.mouse)
        if h != self.hover:
            self.hover = h
            self._refresh_panels()

    # ================================================================== time
    def update(self, dt: float) -> None:
        if self._held:
            dx = sum(PAN_KEYS[k][0] for k in self._held if k in PAN_KEYS)
            dy = sum(PAN_KEYS[k][1] for k in self._held if k in PAN_KEYS)
            if dx or dy:
                self.camera.pan_screen(dx * PAN_SPEED * dt, dy * PAN_SPEED * dt)
        was_busy = self.anim.busy
        self.anim.update(dt)
        if was_busy and not self.anim.busy:
            self._refresh_panels()
        if self._toast is not None:
            msg, left = self._toast
            left -= dt
            self._toast = (msg, left) if left > 0 else None
            if self._toast is None:
                self._refresh_panels()
        self.ui.update(dt)
        if self.app.scenes.top is self and not self.anim.busy:
            self.sync()
        self._prepare()

    def update_covered(self, dt: float) -> None:
        self.ui.update(0.0)  # labels changed under a dialog redraw their text

    # ================================================================== drawing
    def draw(self, surface: pygame.Surface) -> None:
        _, _, view = self._regions()
        self._draw_frames(surface)  # first: its fills may spill a few pixels into the view
        src = None
        if self._frame_key is not None and surface.get_size() == self.app.screen.get_size():
            src = self._kept_view_area(view)
            if src is None:  # forgotten since the last update: draw it again
                old = self._view_layer
                self._build_view_layer(self._frame_key, view, old[1] if old is not None else None)
                src = self._kept_view_area(view)
        if src is not None and self._view_layer is not None:
            # the part of the kept picture the camera shows now
            surface.blit(self._view_layer[1], view.topleft, src)
        else:  # something moves (or an odd surface): drawn straight onto it
            self._draw_view(surface)
        surface.set_clip(view)
        self._draw_anim(surface)
        self._draw_toast(surface, view)
        surface.set_clip(None)
        self.ui.draw_ui(surface)
        self._draw_chart(surface)

    def _kept_view_area(self, view: pygame.Rect) -> pygame.Rect | None:
        """Where in the kept picture the view is now, or None when it has to be drawn afresh."""
        layer = self._view_layer
        if layer is None or layer[0] != self._frame_key:
            return None
        origin = self.camera.map_origin_on_screen()
        built_at, shift = layer[2], layer[3]
        src = view.move(shift[0] - (origin[0] - built_at[0]), shift[1] - (origin[1] - built_at[1]))
        return src if layer[1].get_rect().contains(src) else None

    def _draw_view(self, surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
        """The map, tints, objective and selection marks, units and the hovered path, inside
        `area` (default: the view)."""
        if area is None:
            area = self._regions()[2]
        z = self.camera.zoom
        origin = self.camera.map_origin_on_screen()
        surface.set_clip(area)
        if not pygame.Rect(origin, self.map_cache.size_at(z)).contains(area):
            surface.fill(BACKGROUND, area)
        self.map_cache.blit(surface, z, self.settings.show_grid, origin, area)
        for overlay in (self._overlay_surface(z), self._hover_overlay_surface(z)):
            if overlay is not None:
                surface.blit(overlay[0], (origin[0] + overlay[1][0], origin[1] + overlay[1][1]))
        self._draw_marks(surface, origin, z)
        self._draw_units(surface, origin, z, area)
        self._draw_hex_labels(surface, origin, z)
        self._draw_path(surface, origin, z)
        surface.set_clip(None)

    @staticmethod
    def _on_view(origin: tuple[int, int], z: float, wx: float, wy: float) -> tuple[float, float]:
        """A world point on the view: the camera's world_to_screen, counted from the map's corner
        (a whole pixel) so that a point's fraction of a pixel never depends on where the camera
        is, and a picture kept while panning matches one drawn afresh to the pixel."""
        return origin[0] + wx * z, origin[1] + wy * z

    def _view_key(self) -> tuple[tuple[Any, ...], tuple[float, float]] | None:
        """Everything the map view's picture depends on (None while something moves)."""
        if self.anim.busy or self.anim.ghosts:
            return None
        st = self.state
        cam = self.camera
        try:
            mode_vars = tuple(sorted(vars(self.mode).items()))
            hash(mode_vars)
        except TypeError:
            return None
        return ((id(st), st.seq, cam.zoom_index, cam.view_x, cam.view_y, cam.view_w,
                 cam.view_h, self.hover, self.selected, type(self.mode).__name__, mode_vars,
                 self.settings.show_grid, self.viewer, st.pending is None, self._overlay_key,
                 self._hover_overlay_key), (cam.pos_x, cam.pos_y))

    def _draw_frames(self, surface: pygame.Surface) -> None:
        """The top bar and side panel backgrounds (plain fills: cheaper than toolkit panels).

        Drawn before the map view, which covers its own rectangle whole: the side panel's fill
        starts a few pixels left of the panel, on a multiple of 16 pixels, where whole rows of
        pixels are filled several times faster (measured: 0.04 ms against 0.22 ms at 1280 x 800)."""
        top, side, _ = self._regions()
        surface.fill(PANEL_BG, top)
        x0 = side.x - side.x % 16
        surface.fill(PANEL_BG, (x0, side.y, side.right - x0, side.h))
        surface.fill(PANEL_EDGE, (top.x, top.bottom - 1, top.w, 1))
        surface.fill(PANEL_EDGE, (side.x, side.y, 1, side.h))

    def _prepare(self) -> None:
        """Build what draw() will blit: the map layer of this zoom, the mode's hex tints."""
        z = self.camera.zoom
        quiet = self.state.pending is None and not self.anim.busy
        cheap = (type(self.mode).__name__, tuple(sorted(vars(self.mode).items())), id(self.state), self.state.seq,
                 quiet, z)
        if cheap != self._overlay_key:
            self._overlay_key = cheap
            fills = self.mode.fills(self)[1] if quiet else []
            self._overlay = draw.hex_fill_surface(self.layout, fills, z)
        # what depends on the hovered hex is asked again only when the hover (or anything above) changes
        hover_key = (*cheap, self.hover)
        if hover_key != self._hover_key:
            self._hover_key = hover_key
            hkey, hfills = self.mode.hover_fills(self) if quiet else ((), [])
            dkey, dfills = self._danger_fills() if quiet else ((), [])
            hkey, hfills = (*hkey, *dkey), [*dfills, *hfills]
            if (*hkey, z) != self._hover_overlay_key:
                self._hover_overlay_key = (*hkey, z)
                self._hover_overlay = draw.hex_fill_surface(self.layout, hfills, z)
            self._hover_preview = self.mode.preview(self) if quiet else None
        pv = self._hover_preview
        chart_key = (id(pv[0]), id(pv[1])) if pv is not None else None
        if self._chart is None or self._chart[0] != chart_key:
            chart = pygame.Surface(self.chart_rect.size)
            local = chart.get_rect()
            if pv is None:
                pygame.draw.rect(chart, (16, 19, 23), local)
                pygame.draw.rect(chart, (59, 67, 76), local, 1)
                img = fonts.text("Hover a target: exact outcome odds", 12, (110, 106, 98))
                chart.blit(img, img.get_rect(center=local.center))
            else:
                _, odds = _preview_parts(pv[0])
                base = _preview_parts(pv[1])[1] if pv[1] is not None else None
                if odds is not None:
                    draw.bar_chart(chart, local, odds.results, base.results if base is not None else None)
            self._chart = (chart_key, chart)
        # the map view is kept as a picture, with a margin around it, drawn once for what it shows:
        # idle frames blit it, and so do panning frames, from further along, until the view goes
        # past the margin and it is drawn again there. While something moves (an animation) the
        # view is drawn straight onto the screen instead.
        key = self._view_key()
        view = self._regions()[2]
        old = self._view_layer
        self._frame_key = key
        if key is None:
            self.map_cache.prepare(z, self.settings.show_grid, self.camera.map_origin_on_screen(), view)
            return
        if old is not None and old[0] != key and old[0][0] == key[0]:  # only the camera moved
            self._view_layer = (key, old[1], old[2], old[3])
            self.view_scrolls += 1
        if self._kept_view_area(view) is None:
            self._build_view_layer(key, view, old[1] if old is not None else None)

    def _build_view_layer(self, key: Any, view: pygame.Rect, reuse: pygame.Surface | None) -> None:
        """Draw the map view, and VIEW_MARGIN pixels around it, into the kept picture.

        It is drawn as if the screen were bigger and the view started VIEW_MARGIN pixels in: the
        camera's viewport corner is moved there for the drawing. Every point is placed from the
        map's corner (a whole pixel; see _on_view), so the picture does not depend on where the
        camera was when it was drawn, and nothing is drawn at negative coordinates (where
        pygame's outlines and rounded corners fall a pixel differently): a view shown from a
        picture kept while panning matches one drawn for the new position pixel for pixel."""
        m = VIEW_MARGIN
        shift = (m - view.x + (m - view.x) % 2, m - view.y + (m - view.y) % 2)
        size = (view.w + 2 * m + 1, view.h + 2 * m + 1)
        pic = reuse if reuse is not None and reuse.get_size() == size else None
        if pic is None:
            pic = pygame.Surface(size)
            if pygame.display.get_surface() is not None:
                pic = pic.convert()
        cam = self.camera
        saved = cam.view_x, cam.view_y
        cam.view_x, cam.view_y = view.x + shift[0], view.y + shift[1]
        try:
            origin = cam.map_origin_on_screen()
            self.map_cache.prepare(cam.zoom, self.settings.show_grid, origin, pic.get_rect())
            self._draw_view(pic, pic.get_rect())
        finally:
            cam.view_x, cam.view_y = saved
        built_at = cam.map_origin_on_screen()
        self._view_layer = (key, pic, built_at, shift)

    def _danger_fills(self) -> tuple[tuple[Any, ...], list[Any]]:
        """The hovered unit's overwatch danger zone (where a dash or charge would draw its shot)."""
        u = self.unit_at(self.hover) if self.hover is not None else None
        if u is None or u.stance != "overwatch" or self.mode.name == "attack":
            return ((), [])  # (while attacking, the hovered target's odds are what matters)
        zone = self.q.danger_zone(self.state, u.id)
        return (("danger", u.id, self.state.seq), [(h, draw.DANGER_COLOUR, 70, 2) for h in sorted(zone)])

    def _hover_overlay_surface(self, z: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        if self._hover_overlay_key is None or self._hover_overlay_key[-1] != z:
            return None
        return self._hover_overlay

    def _overlay_surface(self, z: float) -> tuple[pygame.Surface, tuple[int, int]] | None:
        if self._overlay_key is None or self._overlay_key[-1] != z:
            return None
        return self._overlay

    def _draw_marks(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        st = self.state
        for obj in st.setup.objectives:  # hexes to hold: a flag in the colour of the side that wants them
            for h in obj.hexes:
                colour = self.side_colour(obj.side)
                draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 5, 0.86)
                draw.hex_outline(surface, self.layout, h, z, origin, (240, 200, 90), 2, 0.86)
                cx, cy = self._on_view(origin, z, *self.layout.hex_center(h))
                draw.objective_flag(surface, (cx, cy - self.layout.th * z * 0.28), colour, max(0.6, z))
        if self.hover is not None:
            draw.hex_outline(surface, self.layout, self.hover, z, origin, draw.HOVER_COLOUR, 2, 0.97)
        if self.selected and self.selected in st.units and not st.units[self.selected].destroyed:
            h = st.units[self.selected].hex
            draw.hex_outline(surface, self.layout, h, z, origin, (10, 10, 12), 6, 0.9)
            draw.hex_outline(surface, self.layout, h, z, origin, draw.SELECT_COLOUR, 3, 0.9)

    def _counter(self, unit: Any, size: int) -> pygame.Surface:
        st = self.state
        t = st.unit_type(unit.id) if unit.id in st.units else None
        markers = tuple(m for m, on in (("pinned", unit.pinned), ("out_of_action", unit.out_of_action),
                                        (unit.stance, unit.stance != "none")) if on)
        orders = bool(getattr(unit, "casualty_advantage", 0))
        key = (unit.type_id, unit.side, unit.strength, markers, size, orders)
        surf = self._counter_cache.get(key)
        if surf is None:
            colour = self.side_colour(unit.side)
            surf = _render_counter(t, unit, colour, size, markers)
            if orders:  # a standing order to spend Advantage on casualty rolls: a gold pip
                surf = surf.copy()
                r = max(3, size // 9)
                at = (surf.get_width() - r - 2, surf.get_height() - r - 2)
                pygame.draw.circle(surf, (10, 10, 12), at, r + 1)
                pygame.draw.circle(surf, (240, 200, 90), at, r)
            if pygame.display.get_surface() is not None:
                surf = surf.convert_alpha()
            if len(self._counter_cache) > 400:
                self._counter_cache.clear()
            self._counter_cache[key] = surf
        return surf

    def unit_at(self, h: Hex) -> Any:
        """The live unit on a hex (the rules' state.unit_at, indexed once per state)."""
        self._unit_places()
        return self._occupant.get(h)

    def _unit_places(self) -> list[tuple[Any, float, float]]:
        """(unit, world x, world y) of every unit on the map, computed once per game state."""
        st = self.state
        if self._places_key != (id(st), st.seq):
            self._places_key = (id(st), st.seq)
            self._places = [(u, *self.layout.hex_center(u.hex)) for u in st.units.values() if not u.destroyed]
            self._occupant = {u.hex: u for u, _, _ in self._places}
            self._can_act = set(self.q.can_act(st, st.active_side)) \
                if st.pending is None and st.phase != "ended" else set()
        return self._places

    def _draw_units(self, surface: pygame.Surface, origin: tuple[int, int], z: float, area: pygame.Rect) -> None:
        st = self.state
        size = max(14, int(min(self.layout.tw, self.layout.th) * 0.72 * z))
        places = self._unit_places()
        if self.anim.busy or self.anim.ghosts:
            places = [(u, *self.unit_world(u.id)) for u, _, _ in places] + \
                     [(u, *self.unit_world(uid)) for uid, u in self.anim.ghosts.items()]
        cam = self.camera
        half = size / z  # world margin so counters half off the view still show
        wx0, wy0 = cam.screen_to_world(area.x, area.y)
        wx1, wy1 = cam.screen_to_world(area.right, area.bottom)
        ring = self.viewer == st.active_side
        for u, wx, wy in places:
            if not (wx0 - half <= wx <= wx1 + half and wy0 - half <= wy <= wy1 + half):
                continue
            sx, sy = self._on_view(origin, z, wx, wy)
            img = self._counter(u, size)
            rect = img.get_rect(center=(round(sx), round(sy)))
            if ring and u.id in self._can_act:
                pygame.draw.rect(surface, (255, 214, 110), rect.inflate(6, 6), 2, border_radius=5)
            surface.blit(img, rect)

    def _draw_hex_labels(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        if self.anim.busy or self.state.pending is not None:
            return
        for item in self.mode.hex_labels(self):
            h, label = item[0], item[1]
            live = len(item) < 3 or bool(item[2])
            x, y = self._on_view(origin, z, *self.layout.hex_center(h))
            draw.draw_label(surface, label, (x, y - self.layout.th * z * 0.5),
                            (255, 200, 190) if live else (170, 170, 176), 12,
                            (70, 16, 12, 220) if live else (40, 40, 46, 220))

    def _draw_path(self, surface: pygame.Surface, origin: tuple[int, int], z: float) -> None:
        if self.anim.busy or self.state.pending is not None:
            return
        view = self.mode.path_view(self)
        if view is None:
            return
        pts = [self._on_view(origin, z, *self.layout.hex_center(h)) for h in view.points]
        draw.draw_path(surface, pts, view.colour, max(2, int(4 * z)))
        end = pts[-1]
        r = self.layout.th * z * 0.5
        for ex in view.exposures:
            c = self._on_view(origin, z, *self.layout.hex_center(ex.hex))
            draw.danger_marker(surface, c, r * 0.45)
            wname = self.state.unit_name(ex.watcher_id)
            draw.draw_label(surface, f"{wname}: {draw.percent(_hit_chance(ex))}",
                            (c[0], c[1] - r * 0.9), draw.DANGER_COLOUR, 12)
        draw.draw_label(surface, view.label, (end[0], end[1] + r * 0.95), (255, 255, 255), 13)

    def _draw_anim(self, surface: pygame.Surface) -> None:
        for part, f in self.anim.current_parts():
            if isinstance(part, Shot):
                a = self.camera.world_to_screen(*part.start)
                b = self.camera.world_to_screen(*part.end)
                tip = (a[0] + (b[0] - a[0]) * min(1.0, f * 1.6), a[1] + (b[1] - a[1]) * min(1.0, f * 1.6))
                pygame.draw.line(surface, (10, 10, 12), a, tip, 5)
                pygame.draw.line(surface, part.colour, a, tip, 3)
                pygame.draw.circle(surface, part.colour, tip, 4)
            elif isinstance(part, FloatText):
                x, y = self.camera.world_to_screen(*part.at)
                img = fonts.outlined(part.text, 16, part.colour)
                img.set_alpha(int(255 * (1 - max(0.0, f - 0.7) / 0.3)))
                surface.blit(img, img.get_rect(center=(round(x), round(y - 20 - 30 * f))))

    def _draw_toast(self, surface: pygame.Surface, view: pygame.Rect) -> None:
        if self._toast is None:
            return
        draw.draw_label(surface, self._toast[0], (view.centerx, view.bottom - 30), (255, 230, 200), 15,
                        (60, 20, 16, 230))

    def _draw_chart(self, surface: pygame.Surface) -> None:
        if self._chart is not None:
            surface.blit(self._chart[1], self.chart_rect)

# ---------------------------------------------------------------------------- helpers

# Other modules may add end-of-battle choices (e.g. "Load") and keys (quick save) here.
END_CHOICES: list[Any] = []
KEY_HOOKS: dict[Any, Any] = {}  # key code, or (key code, "ctrl") -> handler(scene)
AFTER_CHANGE_HOOKS: list[Any] = []  # handler(scene) after every accepted command or undo


def _end_choices(scene: BattleScene) -> list[Choice]:
    return [make(scene) for make in END_CHOICES]


def _enable(element: Any, on: bool) -> None:
    if on:
        element.enable()
    else:
        element.disable()


def _phase_mode(phase: str) -> str:
    return {"movement": "move", "attack": "attack"}.get(phase, "select")


def _preview_parts(p: Any) -> tuple[Any, Any]:
    """(ACBreakdown, Odds) of an attack preview, whatever the preview object calls them."""
    if p is None:
        return None, None
    odds = getattr(p, "odds", None)
    if odds is None and hasattr(p, "results"):
        odds = p
    ac = getattr(p, "ac", None)
    if ac is None and odds is not None:
        ac = getattr(odds, "ac", None)
    return ac, odds


def _hit_roll_text(state: Any, p: Any) -> str:
    """'Hit roll: senses 3 + firearms 2 + d10 + braced +2' for an attack preview."""
    attacker = getattr(p, "attacker_id", None)
    weapon = getattr(p, "weapon", None)
    if attacker is None or weapon is None:
        return ""
    from game.rules.ail.attack import hit_stat_and_skill
    from game.rules.ail.check import die_for

    t = state.unit_type(attacker)
    w = next((x for x in t.weapons if x.name == weapon), None)
    if w is None:
        return ""
    stat_name, stat, skill_name, skill = hit_stat_and_skill(t, w)
    parts = [f"{stat_name} {stat}", f"{skill_name} {skill}", f"d{die_for(skill, state.setup.rules.check)}"]
    parts += [f"{text.e(m.label)} {text.signed(m.value)}" for m in getattr(p, "hit_modifiers", ())]
    return "Hit roll: " + " + ".join(parts)


def casualty_options(state: Any, unit_id: str) -> list[tuple[int, str | None]]:
    """What a unit may spend on each of its casualty rolls: none, or 1..3 points of each kind of
    Advantage it holds (Leadership points; Personal for the commander's unit), as the rules count it."""
    from game.rules.ail.attacks import held_advantage

    u = state.units[unit_id]
    out: list[tuple[int, str | None]] = [(0, None)]
    for kind in ("leadership", "personal"):
        held = held_advantage(state, u, kind)
        out += [(n, kind) for n in range(1, min(held, 3) + 1)]
    return out


def casualty_label(points: int, kind: str | None) -> str:
    return f"+{points} {kind}" if points and kind else "no Advantage"


def _loss_text(odds: Any) -> str:
    """Expected strength lost and the chances of the markers (what casualty rolls decide)."""
    res = odds.results
    ooa = sum(float(res.get(k, 0)) for k in ("out_of_action", "destroyed", "annihilated"))
    pinned = ooa + float(res.get("pinned", 0))
    return (f"expected strength lost {float(odds.expected_strength_lost):.2f}, pinned or worse "
            f"<b>{draw.percent(pinned)}</b>, out of action or worse {draw.percent(ooa)}")


def _no_chance_reason(state: Any, p: Any) -> str:
    """Why an attack cannot hit, in words (the rules still allow it)."""
    from game.rules.ail.attack import hit_stat_and_skill
    from game.rules.ail.check import die_for

    ac, _ = _preview_parts(p)
    t = state.unit_type(p.attacker_id)
    w = next((x for x in t.weapons if x.name == p.weapon), None)
    if w is None or ac is None:
        return "no roll can meet the Accuracy Challenge."
    _, stat, _, skill = hit_stat_and_skill(t, w)
    best = stat + skill + die_for(skill, state.setup.rules.check) + sum(m.value for m in p.hit_modifiers)
    if best < ac.total:
        return (f"the Accuracy Challenge {ac.total} is beyond the best possible roll {best} "
                f"(rolling {die_for(skill, state.setup.rules.check)} on the die). The attack may still be made.")
    return "no roll can meet the Accuracy Challenge. The attack may still be made."


def _hit_chance(ex: Any) -> float:
    for name in ("hit_chance", "chance", "p_hit"):
        v = getattr(ex, name, None)
        if v is not None:
            return float(v)
    odds = getattr(ex, "odds", None)
    if odds is not None:
        return float(getattr(odds, "hit_chance", 0))
    return 0.0


def _render_counter(t: Any, unit: Any, colour: tuple[int, int, int], size: int,
                    markers: tuple[str, ...]) -> pygame.Surface:
    """The unit's counter, drawn by game.render (engineer M's counter art)."""
    from game.render.counters import counter_surface

    return counter_surface(t, unit, colour, size, markers)


# Saves, the load menu, the replay view and GM mode register their keys, end-of-battle choices
# and the autosave hook (game/client/savegame.py).
from game.client import savegame as _savegame  # noqa: E402

_savegame.install()
