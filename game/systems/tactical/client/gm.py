"""GM mode (F2): the game master's tools over the battle, marked on screen by a gold frame and
a "GM MODE" banner.

Everything the GM does is an ordinary rules command (game/systems/tactical/rules/gm.py) applied through the
battle's session, so it is logged (as a GM action), saved, replayed and undone like the rest:

- tools: Select (pick a unit to edit) · Place (a unit of the chosen type and side on a clicked
  hex) · Move (a unit to any free hex) · Remove;
- the selected unit: strength, adrenaline, stance, pinned, out of action, destroyed, and its
  stats (choose the stat, then − / +);
- Advantage: choose side and kind, then −1 / +1;
- the next roll: 1-10 queues that result for the next die rolled;
- Undo (Ctrl+Z) and Redo (Ctrl+Y) anything, dice included: undo restores the state before the
  command (generator included) and redo re-applies it, rolling the same dice;
- Save as scenario: the current set-up as a new scenario file (saves/scenarios/).

While GM mode is on the blackout between sides is off (the GM sees every side) and the battle's
own prompts wait; F2 or Esc (with no tool active) leaves GM mode.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import pygame
import pygame_gui
from pygame_gui.core import ObjectID

from game.core.hexgrid import Hex
from game.shell import actions, draw, fonts, savegame
from game.shell.keymap import Binding
from game.shell.keys import help_groups
from game.shell.scene import Scene
from game.shell.toolkit.buttons import Button
from game.shell.toolkit.richtext import RichTextBox, Styled
from game.systems.tactical.client import text
from game.systems.tactical.client.battle import TOP_H
from game.systems.tactical.client.battle_keys import BATTLE_KEYS, PAN_KEYS
from game.systems.tactical.client.modes import SelectMode
from game.systems.tactical.io.scenario_export import export_session
from game.systems.tactical.rules.gm import (
    EditUnit,
    GiveAdvantage,
    MoveUnitGM,
    PlaceUnit,
    RemoveUnit,
    SetNextRoll,
)
from game.systems.tactical.rules.queries import stat_lines
from game.systems.tactical.rules.state import ADVANTAGE_KINDS

if TYPE_CHECKING:
    from game.shell.app import App
    from game.systems.tactical.client.battle import BattleScene

PANEL_W = 300
SCROLLBAR_W = 20  # the GM panel's scroll bar, when the window is too short for all its tools
GM_GOLD = (224, 184, 100)
STATS = ("physique", "senses", "intellect", "aether")
EDITABLE = (*STATS, "move", "durability", "morale")  # what the "Stat:" button cycles through
STANCES = ("none", "overwatch", "guard", "defensive")
TOOLS = ("select", "place", "move", "remove")
DRAG = 6
MESSAGE_H = 73  # the GM's message box: three lines (richtext.line_height(13) is 21, the padding 10)
UNIT_H = 94  # the selected unit's box: four lines
ROW_H = 26  # a row of the panel's buttons


class GmScene(Scene):
    overlay = True
    name = "gm"

    # its keys, for the F1 help (handle_event handles them)
    KEYS = (Binding((pygame.K_F2,), "F2", "leave GM mode"),
            Binding((pygame.K_z,), "Ctrl+Z", "GM undo: take back any command, dice included", ctrl=True),
            Binding((pygame.K_y,), "Ctrl+Y", "GM redo (the same dice again)", ctrl=True),
            Binding((pygame.K_ESCAPE,), "Esc", "back to the Select tool, or leave GM mode"),
            Binding((pygame.K_F3,), "F3", "the replay view"))

    def inner_scenes(self) -> tuple[Scene, ...]:
        """The battle it edits (its animations keep the frame rate up)."""
        return (self.battle,)

    def __init__(self, app: App, battle: BattleScene) -> None:
        super().__init__(app)
        self.battle = battle
        self.session = battle.session
        self.saved_blackout = app.settings.blackout
        app.settings.blackout = False
        self.tool = "select"
        setup = self.session.setup
        self.type_ids = sorted(setup.catalogue.units)
        self.type_index = 0
        self.side_ids = [s.id for s in setup.sides]
        self.side_index = 0
        self.adv_side_index = 0
        self.adv_kind_index = 0
        self.stat_index = 0
        self.message = "GM mode: every change is logged as a GM action."
        self._press: tuple[int, int] | None = None
        self._dragging = False
        self.buttons: dict[pygame_gui.elements.UIButton, str] = {}
        self.ui = app.make_ui()
        battle.gm_on = True  # the top bar's Undo is the GM's while this is on (enabled as it can act)
        if not isinstance(battle.mode, SelectMode):  # a unit's move or attack was under way: it
            battle.mode = SelectMode()               # waits (its tints said a click would move it)
        battle.refresh_panels()
        self._build()
        self._shift_view(True)

    def _shift_view(self, on: bool) -> None:
        """Keep the map's viewport clear of the GM panel while GM mode is on."""
        _, _, view = self.battle.regions()
        cam = self.battle.camera
        if on:
            cam.set_viewport(view.x + PANEL_W, view.y, view.w - PANEL_W, view.h)
        else:
            cam.set_viewport(view.x, view.y, view.w, view.h)
        cam.clamp()
        self.battle.forget_overlay()

    # ------------------------------------------------------------------ state helpers
    @property
    def state(self) -> Any:
        return self.session.state

    @property
    def selected(self) -> str | None:
        uid = self.battle.selected
        return uid if uid is not None and uid in self.state.units else None

    def _rect(self) -> pygame.Rect:
        w, h = self.app.screen.get_size()
        return pygame.Rect(0, TOP_H, PANEL_W, h - TOP_H)

    # ------------------------------------------------------------------ UI
    def _button(self, key: str, label: str, rect: pygame.Rect, primary: bool = False,
                tip: str | None = None) -> pygame_gui.elements.UIButton:
        oid = ObjectID(class_id="@primary") if primary else None
        btn = Button(rect, label, self.ui, object_id=oid, tool_tip_text=tip,
                                           container=self.box)
        self.buttons[btn] = key
        return btn

    def _build(self) -> None:
        """The panel's tools, top to bottom: laid out to fit the panel whole in the smallest
        window (960 x 600), nothing to scroll for. Should they ever outgrow it, the box
        scrolls (its bar shows) rather than let the lower tools fall off the window."""
        r = self._rect()
        old = getattr(self, "box", None)
        scrolled = old.vert_scroll_bar.start_percentage if old is not None and old.vert_scroll_bar else 0.0
        self.content_h = self._layout(r, r.w - 16)
        if self.content_h > r.h:  # a scroll bar will be needed: make room for it
            self._layout(r, r.w - 16 - SCROLLBAR_W)
            if scrolled and self.box.vert_scroll_bar is not None:  # built again after an action: stay there
                self.box.vert_scroll_bar.set_scroll_from_start_percentage(scrolled)
                self.ui.update(0.0)

    def _row(self, y: int, w: int, cells: list[tuple[str, str, int, str | None]], h: int = ROW_H) -> None:
        """One row of buttons (key, label, width share, tip) across `w`, 4 pixels apart."""
        total = sum(share for _, _, share, _ in cells)
        room = w - 4 * (len(cells) - 1)
        x = 8
        for n, (key, label, share, tip) in enumerate(cells):
            bw = room - (x - 8 - 4 * n) if n == len(cells) - 1 else room * share // total
            self._button(key, label, pygame.Rect(x, y, bw, h), tip=tip)
            x += bw + 4

    def _layout(self, r: pygame.Rect, w: int) -> int:
        """Build the panel's widgets `w` wide; the height they take. Rows of 26-pixel buttons,
        the title row holding Undo and Redo, the tools, the message box (three lines), what
        the Place tool puts down, the selected unit and its edits (the chosen stat's value
        between - and +), Advantage, the next rolls, Save as scenario: 547 pixels, the panel
        is 554 high at 960 x 600 (it scrolled there, its lower third out of sight)."""
        self.ui.clear_and_reset()  # type: ignore[no-untyped-call]
        self.buttons.clear()
        pygame_gui.elements.UIPanel(r, manager=self.ui)
        self.box = pygame_gui.elements.UIScrollingContainer(r, self.ui, allow_scroll_x=False)
        box = self.box
        x, y = 8, 4
        small = 50
        pygame_gui.elements.UILabel(pygame.Rect(x, y, w - 2 * (small + 4), 24), "GM MODE · F2 leaves", self.ui,
                                    object_id=ObjectID(class_id="@title"), container=box)
        self._button("undo", "Undo", pygame.Rect(x + w - 2 * small - 4, y, small, 24),
                     tip="Take back any command, dice included (Ctrl+Z)")
        self._button("redo", "Redo", pygame.Rect(x + w - small, y, small, 24),
                     tip="Play the command taken back again, with the same dice (Ctrl+Y)")
        y += 26
        tw = (w - 3 * 4) // 4
        for i, tool in enumerate(TOOLS):
            self._button(f"tool:{tool}", tool.capitalize(), pygame.Rect(x + i * (tw + 4), y, tw, 28),
                         primary=self.tool == tool)
        y += 30
        # what the GM's last action did, or why it was refused: at the top, in view in a short
        # window (at the foot of the panel it was below the fold at 960 x 600, even at 1280 x 800)
        self.message_box = RichTextBox((text.line(text.words(self.message)),) if self.message else (),
                                       pygame.Rect(x, y, w, MESSAGE_H), self.ui, container=box)
        y += MESSAGE_H + 4
        ut = self.session.setup.catalogue.units[self.type_ids[self.type_index]]
        self._row(y, w, [("place_type", f"Type: {ut.name}", 1, "Unit type the Place tool puts down (click to cycle)")])
        y += ROW_H + 2
        self._row(y, w, [("place_side", f"Side: {self.state.side_name(self.side_ids[self.side_index])}", 1,
                          "Side of the unit the Place tool puts down (click to cycle)")])
        y += ROW_H + 4
        # the selected unit
        self.unit_box = RichTextBox(self._unit_text(), pygame.Rect(x, y, w, UNIT_H), self.ui, container=box)
        y += UNIT_H + 2
        self._row(y, w, [("str-", "Str -", 1, "Strength one less"), ("str+", "Str +", 1, "Strength one more"),
                         ("adr-", "Adr -", 1, "Adrenaline one less"), ("adr+", "Adr +", 1, "Adrenaline one more")])
        y += ROW_H + 2
        self._row(y, w, [("stance", "Next stance", 1, "The next stance: none, overwatch, guard, defensive"),
                         ("pinned", "Pinned", 1, "Pinned on or off"),
                         ("ooa", "Out of act.", 1, "Out of action on or off")])
        y += ROW_H + 2
        self._row(y, w, [("destroyed", "Destroyed", 1, "Destroyed, or back on the map"),
                         ("remove_sel", "Remove unit", 1, "Take the unit off the map")])
        y += ROW_H + 2
        stat = EDITABLE[self.stat_index]
        half = (w - 4) // 2
        q = (half - 8) // 3
        self._button("stat_pick", f"Stat: {stat}", pygame.Rect(x, y, half, ROW_H),
                     tip="The stat - and + change (click to choose another)")
        self._button("stat-", "-", pygame.Rect(x + half + 4, y, q, ROW_H), tip=f"{stat} one less")
        value = self._stat_value()
        vw = fonts.font(14).size(value)[0] + 8  # (a label's words sit at its left: centred by its place)
        self.stat_value = pygame_gui.elements.UILabel(
            pygame.Rect(x + half + 8 + q + (q - vw) // 2, y, vw, ROW_H), value, self.ui, container=box)
        self._button("stat+", "+", pygame.Rect(x + w - q, y, q, ROW_H), tip=f"{stat} one more")
        y += ROW_H + 4
        # Advantage
        side = self.side_ids[self.adv_side_index]
        kind = ADVANTAGE_KINDS[self.adv_kind_index]
        self._row(y, w, [("adv_kind", f"Advantage: {kind}", 4, "Kind of Advantage (click to cycle)"),
                         ("adv-", "-1", 1, "One point of it less"), ("adv+", "+1", 1, "One point of it more")])
        y += ROW_H + 2
        self._row(y, w, [("adv_side", f"Of: {self.state.side_name(side)}", 1,
                          "Side whose Advantage changes (click to cycle)")])
        y += ROW_H + 4
        # next roll
        clear_w = 56
        pygame_gui.elements.UILabel(pygame.Rect(x, y, w - clear_w - 4, 24), self._queue_text(w - clear_w - 12),
                                    self.ui, container=box)
        self._button("roll_clear", "Clear", pygame.Rect(x + w - clear_w, y, clear_w, 24), tip="Clear the queued rolls")
        y += 26
        tenth = (w - 9 * 2) // 10
        for v in range(1, 11):
            bx = x + (v - 1) * (tenth + 2) if v < 10 else x + w - tenth
            self._button(f"roll:{v}", str(v), pygame.Rect(bx, y, tenth, ROW_H),
                         tip=f"The next die rolled shows {v} (clamped to the die's sides)")
        y += ROW_H + 4
        self._button("export", "Save as scenario", pygame.Rect(x, y, w, ROW_H), primary=True,
                     tip="Write the current set-up as a new scenario file (saves/scenarios/)")
        y += ROW_H + 2
        box.set_scrollable_area_dimensions((w + 16, y))
        return y

    def _stat_value(self) -> str:
        """The chosen stat's value for the selected unit ("–" with none selected)."""
        uid = self.selected
        if uid is None:
            return "–"
        t = self.state.unit_type(uid)
        stat = EDITABLE[self.stat_index]
        return str(getattr(t.stats, stat) if stat in STATS else getattr(t, stat))

    def _queue_text(self, room: int) -> str:
        """The rolls queued for the next dice, as many as fit `room` pixels ("… +N" for the rest)."""
        queue = [str(v) for v in self.state.forced_rolls]
        if not queue:
            return "Next roll: none queued"
        f = fonts.font(14)
        for n in range(len(queue), 0, -1):
            more = f" … +{len(queue) - n}" if n < len(queue) else ""
            words = f"Next rolls: {', '.join(queue[:n])}{more}"
            if f.size(words)[0] <= room:
                return words
        return f"Next rolls: {len(queue)} queued"

    def _unit_text(self) -> Styled:
        uid = self.selected
        if uid is None:
            return (text.line(text.ink("No unit selected: the Select tool picks one to edit.", text.DIM)),)
        st = self.state
        u = st.units[uid]
        t = st.unit_type(uid)
        marks = [m for m, on in (("pinned", u.pinned), ("out of action", u.out_of_action),
                                 ("destroyed", u.destroyed)) if on]
        card = {sl.label: sl.text for sl in stat_lines(st, uid)}  # the rules' own numbers
        adren = f" · adrenaline {card['adrenaline']}" if "adrenaline" in card else ""
        # GM detail: the ids a GM edits scenarios with, next to the names. Four short lines, the
        # box's height: its stats are on the unit's card beside the map, and the stat the
        # buttons change shows its value between them
        return (text.line(text.bold(st.unit_name(uid)), " ", text.ink(f"[{uid}]", text.DIM)),
                text.line(text.words(st.side_name(u.side)), " ", text.ink(f"[{u.side}]", text.DIM),
                          f" · {text.words(t.name)}"),
                text.line(f"strength {text.words(card['strength'])}{text.words(adren)}"),
                text.line(f"stance {u.stance}" + (f" · {', '.join(marks)}" if marks else "")))

    def refresh(self) -> None:
        self._build()

    def on_resize(self, size: tuple[int, int]) -> None:
        self.ui.set_window_resolution(size)
        self._build()
        self._shift_view(True)  # the battle rebuilt its own layout first (scenes resize bottom-up)

    # ------------------------------------------------------------------ commands
    def say(self, message: str) -> None:
        self.message = message
        self.refresh()

    def submit(self, command: Any) -> bool:
        """Apply through the battle (animation, panels, autosave), marked as made in GM mode."""
        ok = bool(self.battle.submit(command, gm=True))
        if ok:
            events = self.session.history[-1].events
            said = [e.text(self.state.unit_name) for e in events if getattr(e, "kind", "") == "gm_action"]
            self.say(said[0] if said else "Done.")
        else:
            self.say(f"Refused: {self.session.last_rejection or self.battle.toast_text}")
        return ok

    def undo(self) -> None:
        """The GM's undo: anything, dice included (the redo rolls the very same dice)."""
        what = self.session.gm_undo()
        if what is None:
            self.say("Nothing to undo.")
            return
        self.battle.anim.skip()
        self.battle.after_change()
        self.say(f"Undone: {what}")

    def redo(self) -> None:
        played, what = self.session.gm_redo()
        if not played:
            self.say(what)
            return
        self.battle.anim.skip()
        self.battle.after_change()
        self.say(f"Redone: {what}")

    def edit(self, **changes: Any) -> None:
        uid = self.selected
        if uid is None:
            self.say("Select a unit first (Select tool, then click it).")
            return
        self.submit(EditUnit(unit_id=uid, **changes))

    def export(self) -> None:
        try:
            path = export_session(self.session, savegame.saves_dir() / "scenarios")
        except Exception as exc:  # a failed export must never end the game
            self.say(f"Not exported: {exc}")
            return
        # the file's name first, then its folder: the box's three lines show both
        self.say(f"Scenario written: {path.name} in {path.parent}{os.sep} (python -m game play opens it)")

    def _new_unit_id(self, type_id: str) -> str:
        n = 1
        while f"gm-{type_id}-{n}" in self.state.units:
            n += 1
        return f"gm-{type_id}-{n}"

    def press(self, key: str) -> None:
        st = self.state
        uid = self.selected
        if key.startswith("tool:"):
            self.tool = key.split(":", 1)[1]
            self.say({"select": "Select: click a unit to edit it.",
                      "place": "Place: click a free hex to put the chosen unit there.",
                      "move": "Move: click a unit, then any free hex.",
                      "remove": "Remove: click a unit to take it off the map."}[self.tool])
        elif key == "place_type":
            self.type_index = (self.type_index + 1) % len(self.type_ids)
            self.refresh()
        elif key == "place_side":
            self.side_index = (self.side_index + 1) % len(self.side_ids)
            self.refresh()
        elif key in ("str-", "str+") and uid:
            self.edit(strength=max(0, st.units[uid].strength + (1 if key == "str+" else -1)))
        elif key in ("adr-", "adr+") and uid:
            self.edit(adrenaline=max(0, st.units[uid].adrenaline + (1 if key == "adr+" else -1)))
        elif key == "stance" and uid:
            nxt = STANCES[(STANCES.index(st.units[uid].stance) + 1) % len(STANCES)]
            if nxt == "overwatch" and not any(not w.melee for w in st.unit_type(uid).weapons):
                nxt = "guard"
            self.edit(stance=nxt)
        elif key == "pinned" and uid:
            self.edit(pinned="none" if st.units[uid].pinned else "next_turn")
        elif key == "ooa" and uid:
            self.edit(out_of_action="none" if st.units[uid].out_of_action else "next_turn")
        elif key == "destroyed" and uid:
            self.edit(destroyed=not st.units[uid].destroyed)
        elif key == "remove_sel" and uid:
            self.submit(RemoveUnit(unit_id=uid))
        elif key == "stat_pick":
            self.stat_index = (self.stat_index + 1) % len(EDITABLE)
            self.refresh()
        elif key in ("stat-", "stat+") and uid:
            stat = EDITABLE[self.stat_index]
            step = 1 if key == "stat+" else -1
            t = st.unit_type(uid)
            if stat in STATS:
                self.edit(stats={stat: max(0, min(10, getattr(t.stats, stat) + step))})
            elif stat == "morale":
                self.edit(morale=t.morale + step)
            else:
                self.edit(**{stat: max(0, getattr(t, stat) + step)})
        elif key == "adv_side":
            self.adv_side_index = (self.adv_side_index + 1) % len(self.side_ids)
            self.refresh()
        elif key == "adv_kind":
            self.adv_kind_index = (self.adv_kind_index + 1) % len(ADVANTAGE_KINDS)
            self.refresh()
        elif key in ("adv-", "adv+"):
            self.submit(GiveAdvantage(side=self.side_ids[self.adv_side_index],
                                      advantage_kind=ADVANTAGE_KINDS[self.adv_kind_index],
                                      points=1 if key == "adv+" else -1))
        elif key.startswith("roll:"):
            self.submit(SetNextRoll(values=(int(key.split(":")[1]),)))
        elif key == "roll_clear":
            if st.forced_rolls:
                self.submit(SetNextRoll(values=(), replace=True))
            else:
                self.say("No rolls are queued.")
        elif key == "undo":
            self.undo()
        elif key == "redo":
            self.redo()
        elif key == "export":
            self.export()
        elif uid is None:
            self.say("Select a unit first (Select tool, then click it).")

    def click_hex(self, h: Hex) -> None:
        st = self.state
        unit = st.unit_at(h)
        if self.tool == "select":
            self.select(unit.id if unit is not None else None)
            self.say(f"Selected {st.unit_name(unit.id)}." if unit is not None else "No unit there.")
        elif self.tool == "place":
            type_id = self.type_ids[self.type_index]
            new_id = self._new_unit_id(type_id)
            if self.submit(PlaceUnit(unit_id=new_id, type_id=type_id, side=self.side_ids[self.side_index], at=h)):
                said = self.message  # the unit placed is the one the buttons edit next (they
                self.select(new_id)  # said "Select a unit first", the Select tool needed)
                self.say(said)
        elif self.tool == "move":
            uid = self.selected
            if unit is not None and unit.id != uid:
                self.select(unit.id)
                self.say(f"Moving {st.unit_name(unit.id)}: click any free hex.")
            elif unit is not None:
                self.say(f"{st.unit_name(unit.id)} is already there: click a free hex.")
            elif uid is not None:
                self.submit(MoveUnitGM(unit_id=uid, to=h))
            else:
                self.say("Click a unit to move first.")
        elif self.tool == "remove":
            if unit is None:
                self.say("No unit there.")
            else:
                self.select(None)
                self.submit(RemoveUnit(unit_id=unit.id))

    def select(self, unit_id: str | None) -> None:
        """The GM picks a unit (or none): the player's battle mode of the unit selected before
        (its move or attack tints, path, buttons and hint) is left, not kept under GM mode."""
        b = self.battle
        b.selected = unit_id
        b.mode = SelectMode()
        b.forget_overlay()
        b.refresh_panels()

    def leave(self) -> None:
        self.app.pop()

    def on_exit(self) -> None:
        """Leaving GM mode (F2, Esc, or a load replacing the battle): the table's settings return."""
        self.app.settings.blackout = self.saved_blackout
        self.battle.gm_on = False
        self._shift_view(False)
        if self.battle in self.app.scenes:  # (not after a load replaced the battle)
            self.battle.refresh_panels()  # the top bar's Undo is the player's again

    # ------------------------------------------------------------------ events
    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame_gui.UI_BUTTON_PRESSED and event.ui_element in self.buttons:
            self.press(self.buttons[event.ui_element])
            return
        if self.ui.process_events(event):
            return
        b = self.battle
        if event.type == pygame.KEYDOWN:
            k = event.key
            ctrl = bool(getattr(event, "mod", 0) & pygame.KMOD_CTRL)
            shift = bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)
            if k == pygame.K_F2:
                self.leave()
            elif ctrl and k == pygame.K_z and not shift:
                self.undo()
            elif ctrl and (k == pygame.K_y or (k == pygame.K_z and shift)):
                self.redo()
            elif k == pygame.K_ESCAPE:
                if self.tool != "select":
                    self.press("tool:select")
                else:
                    self.leave()
            elif k == pygame.K_F3:  # (F5, F9 and Ctrl+O are shell keys: game/shell/keys.py)
                actions.open_replay_view(b)
            elif _is_view_key(k):
                b.handle_event(event)
            else:
                self._battle_key(event)
        elif event.type == pygame.KEYUP:
            b.handle_event(event)
        elif event.type == pygame.MOUSEWHEEL:
            b.handle_event(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            top = self._battle_top_button(event.pos) if event.button == 1 else None
            action = b.actions.label_at(event.pos) if event.button == 1 else None
            if top is not None:
                self._battle_top(top)
            elif action is not None:  # the side panel's buttons are the battle's: they wait
                self.say(f"'{action}' is the battle's, not the GM's: F2 leaves GM mode, then press it.")
            elif event.button == 3:
                self.press("tool:select")
            elif event.button in (1, 2) and b.camera.contains_screen(*event.pos) \
                    and not self._rect().collidepoint(event.pos):
                self._press = event.pos
                self._dragging = False
        elif event.type == pygame.MOUSEMOTION:
            b.mouse = event.pos
            if self._press is not None:
                dx, dy = event.pos[0] - self._press[0], event.pos[1] - self._press[1]
                if self._dragging or abs(dx) + abs(dy) > DRAG:
                    self._dragging = True
                    b.camera.pan_screen(-event.rel[0], -event.rel[1])
            b.update_hover()
        elif event.type == pygame.MOUSEBUTTONUP:
            press, self._press = self._press, None
            if press is not None and event.button == 1 and not self._dragging:
                h = b.hex_at(event.pos)
                if h is not None:
                    self.click_hex(h)
            self._dragging = False

    def _battle_key(self, event: pygame.event.Event) -> None:
        """A battle key pressed in GM mode: Space, O and P act as on the battle (the animation
        skipped, the options, the players: the GM's to change); E / Enter says how the phase
        ends, as its button does; the hint and the next unit say they wait for the game's
        screen. They did nothing, and said nothing."""
        binding = next((bnd for bnd in BATTLE_KEYS if bnd.matches(event)), None)
        if binding is None:
            return
        if binding.label in ("Space", "O", "P"):
            self.battle.handle_event(event)
        elif binding.label == "E or Enter":
            self._battle_top("end")
        elif binding.label in ("H", "Tab or N"):
            what = binding.what.split(":")[0]
            self.say(f"{binding.label} ({what}) is the game's, not GM mode's: F2 leaves GM mode first.")

    def _battle_top_button(self, pos: tuple[int, int]) -> str | None:
        """The battle's top-bar button under `pos` ("undo", "end", "options", "help"), None when
        there is none: drawn under GM mode, they are not the battle's to press while it is on."""
        panels = self.battle.panels
        for key, btn in panels.top_buttons.items():
            if btn.visible and btn.rect.collidepoint(pos):
                return key
        return None

    def _battle_top(self, key: str) -> None:
        """A click on the battle's top bar in GM mode: Undo is the GM's undo (as Ctrl+Z), Options
        and Help open as from the battle (Help: GM mode's keys, as F1); ending the phase waits
        for the game's screen, and says so (it did nothing)."""
        if key == "undo":
            self.undo()
        elif key == "options":
            self.battle.options_dialog()
        elif key == "help":
            actions.show_help(self.app, help_groups(self))
        else:
            self.say("The phase ends from the game's screen: F2 leaves GM mode, then E.")

    def update(self, dt: float) -> None:
        self.battle.update(dt)
        self.ui.update(dt)

    def draw(self, surface: pygame.Surface) -> None:
        _, _, view = self.battle.regions()
        pygame.draw.rect(surface, GM_GOLD, view, 3)
        banner = fonts.outlined("GM MODE", 20, GM_GOLD)
        surface.blit(banner, banner.get_rect(midtop=(view.centerx + PANEL_W // 2, view.y + 8)))
        uid = self.selected
        if uid is not None:
            z = self.battle.camera.zoom
            origin = self.battle.camera.map_origin_on_screen()
            cam = self.battle.camera
            surface.set_clip(pygame.Rect(cam.view_x, cam.view_y, cam.view_w, cam.view_h))  # never over the panels
            draw.hex_outline(surface, self.battle.layout, self.state.units[uid].hex, z, origin, GM_GOLD, 3, 0.95)
            surface.set_clip(None)
        self.ui.draw_ui(surface)


def _is_view_key(k: int) -> bool:
    return k in PAN_KEYS or k == pygame.K_g
